//! The Rust half of the Python overhead benchmark
//! (`bindings/python/bench/overhead.py`, which runs this): the compiled std
//! Rewrite table and the realistic event mix (`stpc_tests::event_mix`) are
//! written to `$STPC_BENCH_OUT` (`table.json`, `mix.jsonl`), and
//! `Monitor::submit` is timed on every event of the mix, each decided as the
//! first event of a fresh task with only the call on the clock, exactly as
//! the Python script then times `stpc.Monitor.submit` on the same events.
//! The medians per action go to `rust.json`.
//!
//! `cargo bench -p stpc-tests --bench submit_mix` (with `STPC_BENCH_OUT`).

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
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use serde_json::json;
use stpc_compiler::CompileOptions;
use stpc_runtime::{Engine, Monitor};
use stpc_tests::event_mix::NullSink;

/// Rounds over the whole mix; the median of every event's timings is
/// taken per action.
const ROUNDS: usize = 200;

fn main() {
    let Some(out) = std::env::var_os("STPC_BENCH_OUT").map(PathBuf::from) else {
        eprintln!("submit_mix: set STPC_BENCH_OUT to a directory (bindings/python/bench/overhead.py does)");
        return;
    };
    std::fs::create_dir_all(&out).unwrap();
    let compiled = stpc_tests::lowering::compile_file(
        "stdlib-contracts/policies/rewrite.stpc",
        &CompileOptions::default(),
    );
    let table = Arc::new(compiled.table().clone());
    std::fs::write(out.join("table.json"), table.to_json_pretty().unwrap()).unwrap();
    let mix = stpc_tests::event_mix::std_mix();
    let mut lines = std::fs::File::create(out.join("mix.jsonl")).unwrap();
    for e in &mix {
        let v = json!({
            "tool": e.tool, "destination": e.destination, "mode": e.mode,
            "confidence": e.confidence, "branch": e.branch, "args": e.args,
        });
        writeln!(lines, "{v}").unwrap();
    }
    let engine = Arc::new(Engine::new(table).unwrap());
    let mut m = Monitor::with_engine(engine, Box::new(NullSink));
    let mut times: BTreeMap<&'static str, Vec<u64>> = BTreeMap::new();
    for _ in 0..ROUNDS {
        for e in &mix {
            m.begin_task("bench").unwrap();
            let e = e.clone();
            let start = Instant::now();
            let d = m.submit(black_box(e)).unwrap();
            let ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
            times.entry(d.action().as_str()).or_default().push(ns);
            m.end_task().unwrap();
        }
    }
    let medians: BTreeMap<&str, serde_json::Value> = times
        .iter_mut()
        .map(|(a, t)| {
            t.sort_unstable();
            (*a, json!({"median_ns": t[t.len() / 2], "samples": t.len()}))
        })
        .collect();
    std::fs::write(
        out.join("rust.json"),
        serde_json::to_string_pretty(&medians).unwrap(),
    )
    .unwrap();
    eprintln!(
        "submit_mix: {} events x {ROUNDS} rounds -> {}",
        mix.len(),
        out.display()
    );
}
