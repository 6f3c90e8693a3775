//! Conformance vectors (`stpc vectors`, `stpc compile --emit vectors`): for
//! every stdlib and example contract, the vectors written as JSON lines and
//! read back are replayed through the Rust runtime from their JSON alone
//! (event parsing, name lookups, the labeler, the `Decider`), and every
//! reachable cell of the table is the expected cell of some `decide` vector.
//! When `python3` is on the path, the Python reader (`examples/python`)
//! replays the paper contract's vectors too; `.ci/run` replays all of them.
//!
//! The Python reader embeds the Unicode tables the Rust runtime matches with
//! (`\w`, `\d`, `char::is_alphanumeric`, `char::is_whitespace`); a test
//! here keeps them equal to what this build's `regex` and `std` say.
//! Regenerate with `STPC_BLESS=1 cargo test -p stpc-tests --test compiler vectors`.

#![expect(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "test oracles and helpers: a failure should fail the test"
)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Value};
use stpc_runtime::table::{Action, Node, Table, MISSING};
use stpc_runtime::Engine;
use stpc_tables::event::{self, EventInput, NamedLabels};
use stpc_tables::vectors::{to_jsonl, vectors};

fn contracts() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["../stdlib-contracts", "../examples"] {
        let mut stack = vec![PathBuf::from(dir)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "stpc")
                    && std::fs::read_to_string(&p)
                        .unwrap()
                        .lines()
                        .any(|l| l.trim_start().starts_with("contract "))
                {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}

fn compile(path: &Path) -> Table {
    let text = std::fs::read_to_string(path).unwrap();
    let mut map = stpc_compiler::SourceMap::new();
    let id = map.add(path.to_string_lossy(), text);
    let mut diagnostics = stpc_compiler::Diagnostics::new();
    let mut loader = |p: &str| std::fs::read_to_string(p).ok();
    stpc_compiler::compile(
        &mut map,
        &[id],
        &mut loader,
        &Default::default(),
        &mut diagnostics,
    )
    .unwrap_or_else(|| {
        panic!(
            "{} does not compile: {:?}",
            path.display(),
            diagnostics.sorted()
        )
    })
}

fn decision(d: &stpc_runtime::Decision<'_>) -> Value {
    json!({"action": d.action.as_str(), "rule_id": d.rule_id, "rule_name": d.rule_name, "cell": d.cell})
}

/// Replay one vector through the runtime; the value to compare with `expect`.
fn replay(engine: &Engine, v: &Value) -> Option<Value> {
    let t = engine.table();
    match v["kind"].as_str()? {
        "header" => None,
        "decide" => {
            let ev = EventInput::parse(&v["event"].to_string()).unwrap();
            assert!(ev.labels.is_some(), "decide vectors carry explicit labels");
            let labels = event::labels_of(engine, &ev).unwrap();
            let budgets = event::budget_states(t, &ev.budgets_exhausted).unwrap();
            let refs: Vec<(&str, u32)> = labels
                .fields
                .iter()
                .map(|(f, l)| (f.as_str(), *l))
                .collect();
            Some(decision(
                &engine
                    .decider()
                    .decide(&event::query(&ev, &labels, &refs, &budgets)),
            ))
        }
        "label_arg" => {
            let l = engine
                .labeler()
                .label_value(v["field"].as_str().unwrap_or("value"), &v["value"]);
            Some(json!(t.lattices.args.label_name(l).unwrap()))
        }
        "label_destination" => {
            let d = v["destination"].as_str().unwrap();
            let l = engine
                .labeler()
                .label_destination(engine.decider().destination_id(d), d);
            Some(json!(t.lattices.destination.label_name(l).unwrap()))
        }
        "event" => {
            let ev = EventInput::parse(&v["event"].to_string()).unwrap();
            let labels = event::labels_of(engine, &ev).unwrap();
            let budgets = event::budget_states(t, &ev.budgets_exhausted).unwrap();
            let refs: Vec<(&str, u32)> = labels
                .fields
                .iter()
                .map(|(f, l)| (f.as_str(), *l))
                .collect();
            let mut out = decision(
                &engine
                    .decider()
                    .decide(&event::query(&ev, &labels, &refs, &budgets)),
            );
            let names = labels.names(t);
            let opt = |s: String| if s == MISSING { Value::Null } else { json!(s) };
            out["labels"] = json!({
                "args": opt(names.args),
                "destination": opt(names.destination),
                "fields": names.fields,
            });
            Some(out)
        }
        other => panic!("unknown vector kind `{other}`"),
    }
}

/// What the monitor does with one `monitor` vector, as the vector states it.
fn replay_monitor(m: &mut stpc_runtime::Monitor, v: &Value) -> Value {
    let table = Arc::clone(m.engine().table());
    let outcome = |d: stpc_runtime::Decided| {
        let mut out = json!({
            "action": d.action().as_str(), "reason": d.reason().code(),
            "rule_id": d.rule_id(), "rule_name": d.rule_name(), "cell": d.cell(),
            "labels": d.labels().names(&table),
        });
        match d.into_outcome() {
            stpc_runtime::Outcome::Dispatch(t) => {
                out["args"] = t.dispatch().call().args().clone();
            }
            stpc_runtime::Outcome::Shadowed(s) => {
                out["shadow"] = json!({"substitute": s.substitute(), "result": s.result()});
            }
            _ => {}
        }
        out
    };
    if let Some(e) = v.get("event") {
        return match EventInput::parse(&e.to_string()) {
            Ok(ev) => outcome(m.submit(ev.proposed()).unwrap()),
            Err(_) => json!({"error": "event"}),
        };
    }
    if let Some(b) = v.get("promote").and_then(Value::as_str) {
        let promoted: Vec<Value> = m
            .promote(b)
            .unwrap()
            .into_iter()
            .map(|p| match p {
                stpc_runtime::Promoted::Decided(d) => outcome(*d),
                stpc_runtime::Promoted::Reused(s) => json!({
                    "action": "shadow", "reason": "reused",
                    "shadow": {"substitute": s.substitute(), "result": s.result()},
                }),
            })
            .collect();
        return Value::from(promoted);
    }
    let b = v["abandon"].as_str().unwrap();
    json!({"dropped": m.abandon(b).unwrap()})
}

/// Cells reachable from the diagram's root.
/// The cells some event can reach: walks with the tool fixed, where a tool
/// that declares destinations only takes those (and `<unknown>`), as the
/// runtime places events.
fn reachable_cells(t: &Table) -> BTreeSet<u32> {
    let mut cells = BTreeSet::new();
    let unknown_dest = t.destinations.len() as u32;
    for tool in 0..=t.tools.len() {
        let own: Vec<u32> = t
            .tools
            .get(tool)
            .map(|x| x.destinations.clone())
            .unwrap_or_default();
        let mut seen = BTreeSet::new();
        let mut stack = vec![t.diagram.root];
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            match &t.diagram.nodes[n as usize] {
                Node::Leaf { cell } => {
                    cells.insert(*cell);
                }
                Node::Branch { dim: 0, children } => stack.push(children[tool]),
                Node::Branch { dim: 1, children } if !own.is_empty() => stack.extend(
                    children
                        .iter()
                        .enumerate()
                        .filter(|(d, _)| *d as u32 == unknown_dest || own.contains(&(*d as u32)))
                        .map(|(_, c)| *c),
                ),
                Node::Branch { children, .. } => stack.extend(children),
            }
        }
    }
    cells
}

/// Check a table's vectors. Label vectors are replayed once per distinct
/// labeler (`seen` holds the labelers already checked): most contracts share
/// the standard ones.
fn check(name: &str, table: &Table, seen: &mut BTreeSet<String>) -> String {
    let text = to_jsonl(&vectors(table).unwrap());
    let labelers =
        serde_json::to_string(&(&table.labelers, &table.lexicons, &table.lattices)).unwrap();
    let fresh_labelers = seen.insert(labelers);
    let engine = Engine::new(Arc::new(table.clone())).unwrap();
    let mut covered = BTreeSet::new();
    let mut kinds = BTreeSet::new();
    // Monitor vectors are a sequence in one task: replayed in order by a
    // monitor of their own, whose events are parsed from the JSON text as
    // `stpc decide` parses them.
    let mut monitor = stpc_runtime::Monitor::with_engine(
        Arc::new(Engine::new(Arc::new(table.clone())).unwrap()),
        Box::new(stpc_runtime::MemorySink::new()),
    );
    stpc_tables::vectors::stand_in_substitutes(&mut monitor);
    monitor.begin_task("replay").unwrap();
    let (mut refused, mut aliased) = (0usize, 0usize);
    for (i, line) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        if i == 0 {
            assert_eq!(v["kind"], "header");
            assert_eq!(v["digest"], table.digest.as_str());
            continue;
        }
        kinds.insert(v["kind"].as_str().unwrap().to_owned());
        if v["kind"] == "monitor" {
            refused += usize::from(v["expect"].get("error").is_some());
            aliased += usize::from(v["event"].get("arguments").is_some_and(Value::is_string));
        }
        if !fresh_labelers && v["kind"].as_str().is_some_and(|k| k.starts_with("label_")) {
            continue;
        }
        let got = if v["kind"] == "monitor" {
            replay_monitor(&mut monitor, &v)
        } else {
            replay(&engine, &v).unwrap()
        };
        assert_eq!(got, v["expect"], "{name}: vector {} ({})", v["id"], line);
        if v["kind"] == "decide" {
            covered.insert(v["expect"]["cell"].as_u64().unwrap() as u32);
        }
    }
    assert_eq!(
        covered,
        reachable_cells(table),
        "{name}: every reachable cell has a decide vector"
    );
    assert!(refused > 0, "{name}: no refused monitor vector");
    assert!(aliased > 0, "{name}: no monitor vector with the aliases");
    for k in [
        "decide",
        "label_arg",
        "label_destination",
        "event",
        "monitor",
    ] {
        assert!(kinds.contains(k), "{name}: no `{k}` vector");
    }
    text
}

#[test]
fn every_contract_passes_its_own_vectors() {
    let paths = contracts();
    assert!(paths.len() >= 10, "found only {paths:?}");
    let mut seen = BTreeSet::new();
    for p in paths {
        check(&p.display().to_string(), &compile(&p), &mut seen);
    }
}

#[test]
fn generated_tables_pass_their_vectors() {
    let spec = stpc_tests::table_builder::Spec {
        contract: "generated".into(),
        tools: vec!["a".into(), "b".into()],
        destinations: vec!["x".into()],
        modes: vec!["committed".into(), "speculative".into()],
        arg_labels: vec!["public".into(), "sensitive".into()],
        dest_labels: vec!["public".into()],
        cuts: vec![0.25, 0.5],
        budgets: vec!["b1".into()],
        fields: vec!["q".into()],
    };
    let t = stpc_tests::table_builder::build(&spec, &|c| match (c[0], c[5], c[6], c[7]) {
        (2, _, _, _) => (Action::Block, 0),
        (_, 0, _, _) => (Action::Defer, 1),
        (_, _, 1, _) => (Action::Defer, 2),
        (_, _, _, 1) => (Action::Rewrite, 3),
        _ => (Action::Allow, 4),
    });
    let text = check("generated", &t, &mut BTreeSet::new());
    // Generation is deterministic.
    assert_eq!(text, to_jsonl(&vectors(&t).unwrap()));
}

#[test]
fn the_python_reader_agrees_on_the_paper_contract() {
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output();
    if !python.is_ok_and(|o| o.status.success()) {
        eprintln!("python3 not found: skipped (.ci/run replays every contract)");
        return;
    }
    let table = compile(Path::new("../examples/paper_web_search.stpc"));
    let text = check("paper", &table, &mut BTreeSet::new());
    let dir = tempfile::tempdir().unwrap();
    let tp = dir.path().join("paper.table.json");
    let vp = dir.path().join("paper.vectors.jsonl");
    std::fs::write(&tp, table.to_json_pretty().unwrap() + "\n").unwrap();
    std::fs::write(&vp, text).unwrap();
    let out = std::process::Command::new("python3")
        .arg("../examples/python/run_vectors.py")
        .arg(&vp)
        .arg(&tp)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Code point ranges where `pred` holds, as `lo-hi` (or `lo`) hex words.
fn ranges(pred: impl Fn(char) -> bool) -> String {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for cp in 0..=0x10FFFFu32 {
        let Some(c) = char::from_u32(cp) else {
            continue;
        };
        if pred(c) {
            match out.last_mut() {
                Some((_, hi)) if *hi + 1 == cp => *hi = cp,
                _ => out.push((cp, cp)),
            }
        }
    }
    let words: Vec<String> = out
        .iter()
        .map(|(a, b)| {
            if a == b {
                format!("{a:x}")
            } else {
                format!("{a:x}-{b:x}")
            }
        })
        .collect();
    let mut lines = vec![String::new()];
    for w in words {
        let last = lines.last_mut().unwrap();
        if last.len() + w.len() + 1 > 96 {
            lines.push(w);
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(&w);
        }
    }
    lines.join("\n")
}

const BEGIN: &str = "# BEGIN GENERATED: Unicode tables of the Rust runtime\n";
const END: &str = "# END GENERATED\n";

#[test]
fn the_python_reader_embeds_the_runtimes_unicode_tables() {
    let word = regex::Regex::new(r"^\w$").unwrap();
    let digit = regex::Regex::new(r"^\d$").unwrap();
    let is = |re: &regex::Regex, c: char| re.is_match(c.encode_utf8(&mut [0; 4]));
    let block = format!(
        "{BEGIN}# What the `regex` crate's `\\w` and `\\d` and Rust's `char::is_alphanumeric`\n\
         # and `char::is_whitespace` match, as hex code point ranges. Checked (and, with\n\
         # STPC_BLESS=1, rewritten) by `cargo test -p stpc-tests --test compiler vectors`.\n\
         RUST_WORD = _ranges(\"\"\"\n{}\n\"\"\")\n\
         RUST_DIGIT = _ranges(\"\"\"\n{}\n\"\"\")\n\
         RUST_ALNUM = _ranges(\"\"\"\n{}\n\"\"\")\n\
         RUST_WHITE_SPACE = _ranges(\"\"\"\n{}\n\"\"\")\n{END}",
        ranges(|c| is(&word, c)),
        ranges(|c| is(&digit, c)),
        ranges(char::is_alphanumeric),
        ranges(char::is_whitespace),
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/python/stpc_table.py");
    let text = std::fs::read_to_string(&path).unwrap();
    let (Some(a), Some(b)) = (text.find(BEGIN), text.find(END)) else {
        panic!("stpc_table.py has no generated block");
    };
    let current = &text[a..b + END.len()];
    if std::env::var_os("STPC_BLESS").is_some_and(|v| v == "1") {
        let updated = format!("{}{}{}", &text[..a], block, &text[b + END.len()..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    assert!(
        current == block,
        "the Unicode tables in stpc_table.py are stale; run STPC_BLESS=1 cargo test -p stpc-tests --test compiler vectors"
    );
}
