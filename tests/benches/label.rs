//! Labeling with the compiled standard labelers (`std_args`,
//! `std_destinations`, every lexicon of `stdlib-contracts/data/`), on events
//! of the size agents send: up to three fields of up to 200 characters.
//! Floor (issue 13): ≤ 5 µs median per event.
//!
//! The events are written for this bench (none comes from a labeled set):
//! a search query, a mail search with a sender, a document retrieval with a
//! collection name, a calendar lookup, in the five languages.
//!
//! Run with `cargo bench -p stpc-tests --bench label -- --quick`.

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
use serde_json::{json, Value};
use stpc_compiler::CompileOptions;
use stpc_runtime::Engine;

fn events() -> Vec<(&'static str, Value, &'static str)> {
    vec![
        (
            "web_search",
            json!({"q": "how long does it take to get an appointment with a dermatologist in utrecht without a referral"}),
            "api.brave.com",
        ),
        (
            "email_search",
            json!({
                "query": "Kündigung Mietvertrag wegen Eigenbedarf was kann ich jetzt noch tun",
                "from": "hausverwaltung.schmitt@example.de"
            }),
            "mail.corp.example/api/search",
        ),
        (
            "doc_retrieval",
            json!({
                "collection": "benefits-enrolment",
                "query": "¿cuántos días de permiso por mudanza tengo este año según el convenio colectivo?"
            }),
            "docs.corp.example/v1/query",
        ),
        (
            "calendar_lookup",
            json!({"range": "semaine 12", "attendee": "Camille Lefèvre"}),
            "cal.corp.example/v2/events",
        ),
        (
            "web_search",
            json!({"q": "tarief containervervoer Rotterdam naar Duisburg per TEU december, inclusief terminal handling en douane"}),
            "api.bing.microsoft.com",
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let compiled = stpc_tests::lowering::compile_file(
        "stdlib-contracts/policies/naive.stpc",
        &CompileOptions::default(),
    );
    let table = Arc::new(compiled.table().clone());
    let engine = Engine::new(Arc::clone(&table)).unwrap();
    let labeler = engine.labeler();
    let events = events();
    let mut g = c.benchmark_group("label_std");
    g.bench_function("typical_event", |b| {
        let mut i = 0;
        b.iter(|| {
            let (tool, args, dest) = &events[i % events.len()];
            i += 1;
            black_box(labeler.label(tool, args, None, dest))
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
