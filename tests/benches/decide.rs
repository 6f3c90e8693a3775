//! Decision-path benchmarks: table lookup with labels given, labeling of
//! typical events, and the whole `issue` path (label, decide, act, audit to
//! memory). Floors: lookup < 60 ns median, whole path < 5 µs median.
//!
//! Run with `cargo bench -p stpc-tests --bench decide -- --quick`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    missing_docs,
    reason = "benchmark code: a panic is a failed run"
)]

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use stpc_runtime::decide::{LabelsIn, Query};
use stpc_runtime::{Engine, Monitor, ProposedEvent};

use stpc_tests::event_mix::NullSink;

fn bench(c: &mut Criterion) {
    let table = Arc::new(stpc_tests::web_search_table::web_search_table(
        &stpc_tests::web_search_table::Options::default(),
    ));
    let engine = Arc::new(Engine::new(Arc::clone(&table)).unwrap());
    let decider = engine.decider();

    let mut g = c.benchmark_group("decide");
    g.bench_function("lookup_labels_given", |b| {
        b.iter(|| {
            let q = Query {
                tool: black_box("web_search"),
                destination: black_box("api.brave.com"),
                mode: black_box("speculative"),
                confidence: black_box(0.9),
                labels: LabelsIn {
                    args: Some(3),
                    destination: Some(0),
                    fields: &[],
                },
                budgets_exhausted: &[false],
            };
            black_box(decider.decide(&q).action)
        });
    });
    let q0 = Query {
        tool: "web_search",
        destination: "api.brave.com",
        mode: "speculative",
        confidence: 0.9,
        labels: LabelsIn {
            args: Some(3),
            destination: Some(0),
            fields: &[],
        },
        budgets_exhausted: &[false],
    };
    let p0 = decider.point(&q0).unwrap();
    // With every id resolved: the dense index (the std tables' path), and
    // the diagram walk it replaces, in one run.
    assert!(decider.is_dense());
    g.bench_function("dense_prepared_point", |b| {
        b.iter(|| black_box(decider.decide_point(black_box(&p0)).action))
    });
    // Tool, destination and mode resolved once; labels, confidence and
    // budgets given per call (`Decider::resolve`, `decide_resolved`).
    let r0 = decider
        .resolve("web_search", "api.brave.com", "speculative")
        .unwrap();
    let labels = LabelsIn {
        args: Some(3),
        destination: Some(0),
        fields: &[],
    };
    g.bench_function("resolved_tool_destination_mode", |b| {
        b.iter(|| {
            black_box(
                decider
                    .decide_resolved(black_box(r0), black_box(0.9), black_box(&labels), &[false])
                    .action,
            )
        })
    });
    g.bench_function("walk_prepared_point", |b| {
        b.iter(|| black_box(decider.decide_point_by_walk(black_box(&p0)).action))
    });
    g.finish();

    let events = [
        json!({"q": "tenant rights lease termination penalty"}),
        json!({"q": "weather in Lisbon tomorrow", "lang": "en"}),
        json!({"q": "I need to know whether my landlord can start an eviction if I break my lease early; my email is jane.doe@example.com and my appointment with Dr. Alvarez is on 2024-03-15 at 14:30, ssn 123-45-6789.",
               "region": "pt-PT", "safe": "strict"}),
    ];
    let mut g = c.benchmark_group("label");
    for (i, ev) in events.iter().enumerate() {
        g.bench_function(format!("event_{i}"), |b| {
            b.iter(|| {
                black_box(
                    engine
                        .labeler()
                        .label("web_search", black_box(ev), Some(0), "brave"),
                )
            });
        });
    }
    g.finish();

    let mut g = c.benchmark_group("issue");
    for (name, q, conf) in [
        ("allow", "weather in Lisbon tomorrow", 0.9),
        ("rewrite", "tenant rights lease termination penalty", 0.9),
        ("defer", "weather in Lisbon tomorrow", 0.2),
    ] {
        let mut m = Monitor::with_engine(Arc::clone(&engine), Box::new(NullSink));
        m.begin_task("bench").unwrap();
        let ev = ProposedEvent::speculative(
            "web_search",
            "api.brave.com",
            "b1",
            conf,
            json!({ "q": q }),
        );
        let mut n = 0u32;
        g.bench_function(name, |b| {
            b.iter(|| {
                let d = m.submit(black_box(ev.clone())).unwrap();
                n += 1;
                if n % 1000 == 0 {
                    // Keep queues and budgets from growing without bound.
                    m.end_task().unwrap();
                    m.begin_task("bench").unwrap();
                }
                black_box(d.action())
            });
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
