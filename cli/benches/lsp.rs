//! Latency of `stpc lsp` diagnostics: the time from sending a change of a
//! 200-line contract to receiving its `publishDiagnostics`.
//!
//! Method: the real binary (release, as `cargo bench` builds it) is started
//! and driven over stdio by the end-to-end suite's client. The contract is
//! `examples/telehealth_assistant.stpc` with its first `test` block repeated
//! under new names until it has at least 200 lines; it imports six std
//! modules (the megabyte of std lexicons included), and every change runs
//! the whole pipeline: parse, resolve, check, lower and the exhaustive
//! verification. Each sample alternates between two versions (a comment
//! edited, and a `;` removed and restored, so diagnostics appear and clear)
//! and is timed from the write of `didChange` to the matching
//! notification; the server's debounce ([`DEBOUNCE`] of quiet after the
//! last change) is inside the figure. 5 warm-up changes, then 40 samples;
//! median, 90th percentile and maximum are printed. The acceptance bound is
//! a median under 100 ms.
//!
//! Run: `cargo bench -p stpc --bench lsp`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    missing_docs,
    reason = "a benchmark driver"
)]

#[path = "../tests/cli/lsp_client.rs"]
mod lsp_client;

use std::time::{Duration, Instant};

use lsp_client::{uri, Client};

const BASE: &str = include_str!("../../examples/telehealth_assistant.stpc");

/// The debounce the figure includes (kept in step with `stpc_cli::lsp`).
const DEBOUNCE: Duration = stpc_cli::lsp::DEBOUNCE;

fn contract() -> String {
    let start = BASE.find("    test \"").expect("a test block");
    let end = start + BASE[start..].find("\n    }\n").expect("its end") + 7;
    let block = &BASE[start..end];
    let close = BASE.rfind('}').expect("the contract's end");
    let mut text = BASE[..close].to_owned();
    let mut n = 0;
    while text.lines().count() < 200 {
        n += 1;
        text.push('\n');
        text.push_str(&block.replacen("test \"", &format!("test \"copy {n}: "), 1));
    }
    text.push_str("}\n");
    text
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("telehealth_200.stpc");
    let clean = contract();
    std::fs::write(&path, &clean).unwrap();
    let u = uri(&path);
    let broken = clean.replacen("tools ", "toolz ", 1);
    let mut client = Client::start(false);
    client.open(&u, &clean);
    assert!(
        client.diagnostics(&u, 1).is_empty(),
        "the contract checks clean"
    );
    let mut samples = Vec::new();
    for i in 0..45_i64 {
        let version = i + 2;
        let text = if i % 2 == 0 {
            broken.clone()
        } else {
            clean.replacen("//", &format!("// edit {i}"), 1)
        };
        let sent = Instant::now();
        client.replace(&u, version, &text);
        let diags = client.diagnostics(&u, version);
        let took = sent.elapsed();
        assert_eq!(diags.is_empty(), i % 2 == 1, "{diags:?}");
        if i >= 5 {
            samples.push(took);
        }
    }
    assert_eq!(client.shutdown(), 0);
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let median = samples[samples.len() / 2];
    println!(
        "lsp diagnostics, {}-line contract, {} samples (debounce {} ms included): median {:.1} ms, p90 {:.1} ms, max {:.1} ms",
        clean.lines().count(),
        samples.len(),
        DEBOUNCE.as_millis(),
        ms(median),
        ms(samples[samples.len() * 9 / 10]),
        ms(*samples.last().unwrap()),
    );
    if median > Duration::from_millis(100) {
        eprintln!("the median is over the 100 ms bound");
        std::process::exit(1);
    }
}
