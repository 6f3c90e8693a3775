//! The path every deployment takes, on the compiled standard tables
//! (`std::policies::{naive, rewrite, shadow}` with every std lexicon):
//! loading a table from its bytes, building the engine, labeling, and
//! `Monitor::submit` per action on a realistic event mix.
//!
//! The mix (written for this bench; nothing comes from a labeled set) has
//! every std tool, short and long arguments, five languages, nested JSON
//! (lists of filters and attendees), committed and speculative events at
//! several confidences, so each policy's ALLOW, REWRITE, SHADOW, DEFER and
//! BLOCK all occur. Each `submit/<policy>/<action>` benchmark cycles through
//! the events of the mix that the policy decides that way.
//!
//! Floors (issue 15): `submit/rewrite/allow` ≤ 5 µs, `submit/rewrite/rewrite`
//! ≤ 20 µs, `engine_new/*` ≤ 20 ms (building the engine; `engine_drop/*`
//! is what freeing one costs, timed apart).
//!
//! Run with `cargo bench -p stpc-tests --bench std_path -- --quick`; the
//! figures and the profile behind them are in the book's performance
//! chapter.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    missing_docs,
    reason = "benchmark code: a panic is a failed run"
)]

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use stpc_compiler::CompileOptions;
use stpc_runtime::table::Table;
use stpc_runtime::{Engine, Monitor};

use stpc_tests::event_mix::NullSink;

const POLICIES: [&str; 3] = ["naive", "rewrite", "shadow"];

/// A std table as `stpc compile -o` writes it: its pretty JSON, the
/// table, and the labeler index beside it.
struct Compiled {
    policy: &'static str,
    json: Vec<u8>,
    table: Arc<Table>,
    index: Vec<u8>,
}

fn table(policy: &'static str) -> Compiled {
    let compiled = stpc_tests::lowering::compile_file(
        &format!("stdlib-contracts/policies/{policy}.stpc"),
        &CompileOptions::default(),
    );
    let (table, index) = stpc_runtime::label::index::attach(compiled.table().clone()).unwrap();
    let json = table.to_json_pretty().unwrap().into_bytes();
    Compiled {
        policy,
        json,
        table: Arc::new(table),
        index,
    }
}

fn bench(c: &mut Criterion) {
    let mix = stpc_tests::event_mix::std_mix();
    let mut load = c.benchmark_group("load");
    load.sample_size(20)
        .measurement_time(Duration::from_secs(4));
    let tables: Vec<Compiled> = POLICIES.into_iter().map(table).collect();
    for Compiled {
        policy,
        json: bytes,
        table,
        index,
    } in &tables
    {
        load.bench_with_input(
            BenchmarkId::new("table_from_json", policy),
            bytes,
            |b, bytes| {
                b.iter(|| black_box(Table::from_json(black_box(bytes)).unwrap()));
            },
        );
        // Building an engine is timed, dropping it is not (criterion's
        // batched loop drops each engine after its timing): a process
        // builds its engine once and keeps it. What the drop costs is
        // `engine_drop`, on its own.
        load.bench_with_input(BenchmarkId::new("engine_new", policy), table, |b, table| {
            b.iter_batched(
                || Arc::clone(table),
                |table| Engine::new(table).unwrap(),
                BatchSize::PerIteration,
            );
        });
        load.bench_with_input(
            BenchmarkId::new("engine_with_index", policy),
            table,
            |b, table| {
                b.iter_batched(
                    || Arc::clone(table),
                    |table| Engine::with_index(table, index).unwrap(),
                    BatchSize::PerIteration,
                );
            },
        );
        load.bench_with_input(
            BenchmarkId::new("engine_drop", policy),
            table,
            |b, table| {
                b.iter_batched(
                    || Engine::new(Arc::clone(table)).unwrap(),
                    drop,
                    BatchSize::PerIteration,
                );
            },
        );
    }
    load.finish();

    let engine = Engine::new(Arc::clone(&tables[0].table)).unwrap();
    let mut g = c.benchmark_group("label");
    g.bench_function("mix", |b| {
        let mut i = 0;
        b.iter(|| {
            let e = &mix[i % mix.len()];
            i += 1;
            black_box(
                engine
                    .labeler()
                    .label(&e.tool, &e.args, None, &e.destination),
            )
        });
    });
    g.finish();

    let mut g = c.benchmark_group("submit");
    for Compiled { policy, table, .. } in &tables {
        let engine = Arc::new(Engine::new(Arc::clone(table)).unwrap());
        let mut by_action: BTreeMap<&'static str, Vec<usize>> = BTreeMap::new();
        {
            let mut m = Monitor::with_engine(Arc::clone(&engine), Box::new(NullSink));
            for (i, e) in mix.iter().enumerate() {
                m.begin_task("classify").unwrap();
                let d = m.submit(e.clone()).unwrap();
                by_action.entry(d.action().as_str()).or_default().push(i);
                m.end_task().unwrap();
            }
        }
        let counts: Vec<String> = by_action
            .iter()
            .map(|(a, e)| format!("{a} {}", e.len()))
            .collect();
        eprintln!("{policy}: {}", counts.join(", "));
        for (action, events) in &by_action {
            let mut m = Monitor::with_engine(Arc::clone(&engine), Box::new(NullSink));
            m.begin_task("bench").unwrap();
            let mut n = 0usize;
            g.bench_function(format!("{policy}/{action}"), |b| {
                // Only `submit` is timed: each event is decided as the first
                // of a fresh task (no budget drawn, no queue), and the task
                // change and the event's copy happen outside the clock.
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let e = mix[events[n % events.len()]].clone();
                        n += 1;
                        m.end_task().unwrap();
                        m.begin_task("bench").unwrap();
                        let start = Instant::now();
                        let d = m.submit(black_box(e)).unwrap();
                        total += start.elapsed();
                        black_box(d.action());
                    }
                    total
                });
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
