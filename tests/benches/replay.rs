//! A 10,000-task replay through one contract, on every core (rayon over
//! tasks). The target is under 10 seconds in release mode.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "benchmark code"
)]
#![allow(
    missing_docs,
    reason = "criterion's macros generate undocumented items"
)]

use criterion::{criterion_group, criterion_main, Criterion};
use stpc_eval::corpus::{generate, Kind, Spec};
use stpc_eval::replay::{Contract, ReplayOptions};
use stpc_eval::report::replay;

fn bench(c: &mut Criterion) {
    let frontier = generate(&Spec {
        tasks: 10_000,
        seeds: vec![1],
        kind: Kind::PairedReplay,
    });
    let candidates: usize = frontier.tasks.iter().map(|t| t.candidates.len()).sum();
    let mut g = c.benchmark_group("replay");
    g.sample_size(10);
    for (name, p) in [
        (
            "rewrite",
            stpc_tests::policy_tables::rewrite as stpc_tests::policy_tables::Pipeline,
        ),
        ("shadow", stpc_tests::policy_tables::shadow),
    ] {
        let contract =
            Contract::new(name, stpc_tests::policy_tables::table(name, p, 0.7, false)).unwrap();
        let start = std::time::Instant::now();
        let report = replay(
            &contract,
            &frontier,
            &ReplayOptions::default(),
            false,
            false,
        )
        .unwrap();
        eprintln!(
            "{name}: 10,000 tasks, {candidates} candidates, {:.2} calls/task, one replay in {:.2?} on {} threads",
            report.calls_per_task,
            start.elapsed(),
            rayon::current_num_threads()
        );
        g.bench_function(format!("10k_tasks_{name}"), |b| {
            b.iter(|| {
                replay(
                    &contract,
                    &frontier,
                    &ReplayOptions::default(),
                    false,
                    false,
                )
                .unwrap()
            });
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
