//! The stable mutation driver over every entry point (`stpc_tests::mutation`):
//! parser, checker (lowering and verification included), formatter, table
//! loader and `decide`/`submit`. No input may panic or overflow a stack.
//!
//! Budget: `STPC_FUZZ_INPUTS` inputs per entry point (default 5,000 here, in
//! a debug build, about a minute for all five). The release check runs a
//! million per entry point and also reports the slowest input:
//!
//! ```sh
//! STPC_FUZZ_INPUTS=1000000 STPC_FUZZ_SLOW_MS=100 cargo test --release \
//!     -p stpc-tests --test properties mutation -- --nocapture
//! ```
//!
//! It takes about four CPU-hours on the machine the book's figures come
//! from (`load_table` and `check` dominate); `STPC_FUZZ_ENTRY=check` (a
//! comma-separated list) runs only the entries named, so the check splits
//! over one process per core.
//!
//! Each input is written to `target/fuzz-current-<entry>` before it runs, so
//! a crash that takes the process down leaves its reproducer; reproducers
//! worth keeping go to `tests/fixtures/fuzz/<entry>/`, which are seeds and
//! are run first, every time.

use std::path::Path;

use stpc_tests::mutation::{run, ENTRIES};

/// Every file with extension `ext` under `dir`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else {
                continue;
            };
            let mut entries: Vec<_> = rd.filter_map(Result::ok).map(|e| e.path()).collect();
            entries.sort();
            for p in entries {
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|e| e == ext) {
                    if let Ok(b) = std::fs::read(&p) {
                        out.push(b);
                    }
                }
            }
        }
    }
    out
}

fn seeds_for(entry: &str) -> Vec<Vec<u8>> {
    let root = stpc_tests::lowering::workspace();
    let mut out = Vec::new();
    match entry {
        "load_table" => {
            let c = stpc_tests::lowering::compile_file(
                "examples/paper_web_search.stpc",
                &Default::default(),
            );
            if let Some(t) = c.table {
                out.push(t.to_json_pretty().unwrap_or_default().into_bytes());
            }
        }
        "decide" => {
            // One event per seed: the lines of the event files.
            out = files(&root.join("stdlib-contracts/eval"), "jsonl")
                .iter()
                .flat_map(|f| {
                    f.split(|b| *b == b'\n')
                        .map(<[u8]>::to_vec)
                        .collect::<Vec<_>>()
                })
                .filter_map(|l| {
                    // As `stpc decide` reads them: the call, a mode, a
                    // confidence and a branch.
                    let v: serde_json::Value = serde_json::from_slice(&l).ok()?;
                    let ev = serde_json::json!({
                        "tool": v.get("tool")?, "args": v.get("args")?,
                        "destination": v.get("destination")?,
                        "mode": if l.len() % 2 == 0 { "speculative" } else { "committed" },
                        "confidence": 0.8, "branch": "b1",
                    });
                    Some(ev.to_string().into_bytes())
                })
                .take(400)
                .collect();
            out.push(br#"{"tool":"web_search","args":{"q":"tenant rights"},"destination":"api.brave.com","mode":"speculative","confidence":0.9,"branch":"b1"}"#.to_vec());
        }
        _ => {
            out.extend(files(&root.join("tests/fixtures"), "stpc"));
            out.extend(files(&root.join("examples"), "stpc"));
        }
    }
    out.extend(files(&root.join("tests/fixtures/fuzz").join(entry), "in"));
    out
}

#[test]
fn no_input_panics_any_entry_point() {
    let inputs: usize = std::env::var("STPC_FUZZ_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000);
    assert!(
        stpc_tests::mutation::decide_ready(),
        "the paper's table must compile"
    );
    let target = stpc_tests::lowering::workspace().join("target");
    let mut failures = Vec::new();
    // `STPC_FUZZ_ENTRY=parse,format` runs only those (the release check
    // splits its entry points over processes, one per core).
    let only = std::env::var("STPC_FUZZ_ENTRY").ok();
    for (i, (name, entry)) in ENTRIES.iter().enumerate() {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|e| e.trim() == *name))
        {
            continue;
        }
        let seeds = seeds_for(name);
        assert!(!seeds.is_empty(), "no seeds for {name}");
        // The seeds themselves first (regression fixtures included).
        for s in &seeds {
            if std::panic::catch_unwind(|| entry(s)).is_err() {
                failures.push(format!("{name}: a seed panics"));
            }
        }
        // `STPC_FUZZ_SEED=n` runs another stream of inputs (a long entry
        // point splits over processes, one seed each; their files are
        // their own).
        let stream: u64 = std::env::var("STPC_FUZZ_SEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let suffix = if stream == 0 {
            String::new()
        } else {
            format!("-{stream}")
        };
        let current = target.join(format!("fuzz-current-{name}{suffix}"));
        let started = std::time::Instant::now();
        let seed = (0x5eed + i as u64) ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let report = run(*entry, &seeds, inputs, seed, Some(&current));
        let slowest = report
            .slowest
            .as_ref()
            .map_or(0.0, |(t, _)| t.as_secs_f64() * 1e3);
        println!(
            "{name}: {} inputs (seed {stream}) in {:.1} s, slowest {slowest:.1} ms of CPU \
             (longest wall {:.1} ms), {} panic(s)",
            report.inputs,
            started.elapsed().as_secs_f64(),
            report.longest_wall.as_secs_f64() * 1e3,
            report.panics.len()
        );
        if let Ok(limit) = std::env::var("STPC_FUZZ_SLOW_MS") {
            if let (Ok(limit), Some((t, input))) = (limit.parse::<f64>(), &report.slowest) {
                if t.as_secs_f64() * 1e3 > limit {
                    let keep = target.join(format!("fuzz-slow-{name}{suffix}.in"));
                    let _ = std::fs::write(&keep, input);
                    failures.push(format!(
                        "{name}: an input took {slowest:.1} ms (kept in {})",
                        keep.display()
                    ));
                }
            }
        }
        for (message, input) in report.panics.iter().take(3) {
            let keep = target.join(format!("fuzz-panic-{name}{suffix}-{}.in", input.len()));
            let _ = std::fs::write(&keep, input);
            failures.push(format!(
                "{name}: panic `{message}` (input kept in {})",
                keep.display()
            ));
        }
        let _ = std::fs::remove_file(&current);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
