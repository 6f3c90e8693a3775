//! The std labeler on the independent labeling development set
//! (`../shared/labeling/`, written by another author to the labeling guide;
//! issue 13). Its values are never copied into lexicons or tests: this test
//! only reads the set, labels it and compares, like `score.py` does.
//!
//! The set lives outside the repository. It is looked up at
//! `$STPC_LABELING_DIR`, else at `<workspace>/../shared/labeling`. A clone
//! on a machine without a copy cannot measure it: the test then says so and
//! passes, unless `STPC_REQUIRE_DEV_SET=1` (set it where the set must be
//! measured) makes the absence a failure.
//!
//! Floors: the measured scores of the labeler when the floors were last
//! raised, rounded down (a regression fails; an improvement raises them by
//! hand). The issue's targets are in `TARGETS` and are reported, not
//! asserted, while the labeler is below them. The per-slice table of the
//! book's labeling chapter is generated here (`STPC_BLESS=1` rewrites it).

#![expect(
    clippy::panic,
    clippy::cast_precision_loss,
    reason = "test code: a malformed set or a failed compile is a failed test"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;
use stpc_compiler::CompileOptions;
use stpc_runtime::Engine;

const ARG_LABELS: [&str; 4] = ["public", "personal", "sensitive", "intent_revealing"];
const DEST_LABELS: [&str; 5] = [
    "public",
    "tenant_internal",
    "sensitive",
    "regulated",
    "forbidden",
];

/// Floors (measured, rounded down).
struct Floors {
    args_macro_f1: f64,
    dest_macro_f1: f64,
    recall_at_sensitive: f64,
    precision_at_sensitive: f64,
    slice_args_macro_f1: f64,
    /// Of the argument fields of topic-`none` events, the share the gold
    /// puts below `sensitive` and the labeler at or above it (a ceiling: the
    /// labeler must not flood the cut on neutral work). Gold itself puts
    /// 5.7 % of those fields at or above `sensitive` (a topical collection
    /// name, an attribute that names religion), so the share is counted
    /// over false alarms, not over every field at the cut.
    none_at_sensitive: f64,
}

const FLOORS: Floors = Floors {
    args_macro_f1: 0.90,
    dest_macro_f1: 0.95,
    recall_at_sensitive: 0.93,
    precision_at_sensitive: 0.95,
    slice_args_macro_f1: 0.80,
    none_at_sensitive: 0.05,
};

/// The issue's acceptance figures, reported beside the measurement.
const TARGETS: Floors = Floors {
    args_macro_f1: 0.90,
    dest_macro_f1: 0.92,
    recall_at_sensitive: 0.92,
    precision_at_sensitive: 0.85,
    slice_args_macro_f1: 0.80,
    none_at_sensitive: 0.05,
};

/// Slice tags, their names as `score.py` reports them, and whether the
/// slice floor applies (the issue names every slice but the euphemisms,
/// which are reported).
const SLICES: [(&str, &str, bool); 12] = [
    ("de", "German", true),
    ("es", "Spanish", true),
    ("fr", "French", true),
    ("nl", "Dutch", true),
    ("nonen", "non-English (de+es+fr)", true),
    ("hn", "hard negatives", true),
    ("ml", "misspelled / lowercase", true),
    ("ms", "misspelled", true),
    ("ab", "abbreviations", true),
    ("eu", "euphemisms", false),
    ("st", "structured values", true),
    ("cr", "credentials / security", true),
];

const BEGIN: &str = "<!-- BEGIN GENERATED: dev-set scores -->\n";
const END: &str = "<!-- END GENERATED -->\n";

fn dev_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("STPC_LABELING_DIR").map_or_else(
        || stpc_tests::lowering::workspace().join("../shared/labeling"),
        PathBuf::from,
    );
    dir.join("dev_events.jsonl").is_file().then_some(dir)
}

fn read_jsonl(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

/// Macro-F1 over the labels present in the gold of `pairs`, as `score.py`.
fn macro_f1(pairs: &[(&str, &str)], labels: &[&str]) -> f64 {
    let mut sum = 0.0;
    let mut present = 0;
    for l in labels {
        let tp = pairs.iter().filter(|(g, p)| g == l && p == l).count() as f64;
        let fp = pairs.iter().filter(|(g, p)| g != l && p == l).count() as f64;
        let fn_ = pairs.iter().filter(|(g, p)| g == l && p != l).count() as f64;
        if tp + fn_ == 0.0 {
            continue;
        }
        present += 1;
        let pr = if tp + fp > 0.0 { tp / (tp + fp) } else { 0.0 };
        let rc = tp / (tp + fn_);
        if pr + rc > 0.0 {
            sum += 2.0 * pr * rc / (pr + rc);
        }
    }
    if present == 0 {
        f64::NAN
    } else {
        sum / f64::from(present)
    }
}

/// (recall, precision) of the `>= sensitive` cut.
fn cut(pairs: &[(&str, &str)]) -> (f64, f64) {
    let at = |l: &str| ARG_LABELS.iter().position(|x| *x == l).unwrap_or(0) >= 2;
    let tp = pairs.iter().filter(|(g, p)| at(g) && at(p)).count() as f64;
    let fn_ = pairs.iter().filter(|(g, p)| at(g) && !at(p)).count() as f64;
    let fp = pairs.iter().filter(|(g, p)| !at(g) && at(p)).count() as f64;
    (tp / (tp + fn_), tp / (tp + fp))
}

/// Borrowed pairs for the metrics.
fn view(v: &[(String, String)]) -> Vec<(&str, &str)> {
    v.iter().map(|(g, p)| (g.as_str(), p.as_str())).collect()
}

struct Row {
    event: usize,
    gold: String,
    predicted: String,
}

#[test]
fn std_labeler_on_the_independent_dev_set() {
    let Some(dir) = dev_dir() else {
        assert!(
            std::env::var_os("STPC_REQUIRE_DEV_SET").is_none_or(|v| v != "1"),
            "the labeling dev set is not at $STPC_LABELING_DIR or ../shared/labeling \
             and STPC_REQUIRE_DEV_SET=1"
        );
        println!("no labeling dev set on this machine: not measured");
        return;
    };
    let events = read_jsonl(&dir.join("dev_events.jsonl"));
    let tags: BTreeMap<String, BTreeSet<String>> = read_jsonl(&dir.join("dev_events_tags.jsonl"))
        .into_iter()
        .map(|r| {
            let tags = r["tags"]
                .as_array()
                .expect("tags")
                .iter()
                .filter_map(|t| t.as_str().map(str::to_owned))
                .collect();
            (r["id"].as_str().expect("id").to_owned(), tags)
        })
        .collect();
    let compiled = stpc_tests::lowering::compile_file(
        "stdlib-contracts/policies/naive.stpc",
        &CompileOptions::default(),
    );
    let engine = Engine::new(Arc::new(compiled.table().clone())).expect("table loads");
    let table = engine.table();
    let (mut args, mut dests) = (Vec::new(), Vec::new());
    for (i, e) in events.iter().enumerate() {
        let tool = e["tool"].as_str().expect("tool");
        let destination = e["destination"].as_str().expect("destination");
        let known = engine.decider().destination_id(destination);
        let labels = engine.labeler().label(tool, &e["args"], known, destination);
        for (field, gold) in e["gold"]["args"].as_object().expect("gold args") {
            let predicted = labels
                .fields
                .iter()
                .find(|(f, _)| f == field)
                .and_then(|(_, id)| table.lattices.args.label_name(*id))
                .unwrap_or("(missing)");
            args.push(Row {
                event: i,
                gold: gold.as_str().expect("label").to_owned(),
                predicted: predicted.to_owned(),
            });
        }
        let predicted = labels
            .destination
            .and_then(|id| table.lattices.destination.label_name(id))
            .unwrap_or("(missing)");
        dests.push(Row {
            event: i,
            gold: e["gold"]["destination"].as_str().expect("label").to_owned(),
            predicted: predicted.to_owned(),
        });
    }
    let pairs = |rows: &[Row], keep: &dyn Fn(usize) -> bool| -> Vec<(String, String)> {
        rows.iter()
            .filter(|r| keep(r.event))
            .map(|r| (r.gold.clone(), r.predicted.clone()))
            .collect()
    };
    let all_args = pairs(&args, &|_| true);
    let all_dests = pairs(&dests, &|_| true);
    let args_f1 = macro_f1(&view(&all_args), &ARG_LABELS);
    let dest_f1 = macro_f1(&view(&all_dests), &DEST_LABELS);
    let (recall, precision) = cut(&view(&all_args));
    let none = pairs(&args, &|i| events[i]["topic"] == "none");
    let at = |l: &str| l == "sensitive" || l == "intent_revealing";
    let none_rate =
        none.iter().filter(|(g, p)| !at(g) && at(p)).count() as f64 / none.len().max(1) as f64;

    let mut table_md = String::from(BEGIN);
    table_md.push_str(&format!(
        "{} events, {} argument fields. Arguments: macro-F1 **{args_f1:.3}**, \
         recall at `>= sensitive` **{recall:.3}** at precision {precision:.3}; \
         destinations: macro-F1 **{dest_f1:.3}**; argument fields of topic-`none` \
         events falsely labeled `>= sensitive`: {:.1} %.\n\n",
        events.len(),
        args.len(),
        none_rate * 100.0
    ));
    table_md.push_str(
        "| slice | events | args macro-F1 | args recall ≥ sensitive | destination macro-F1 |\n",
    );
    table_md.push_str("|---|---:|---:|---:|---:|\n");
    let mut worst = (f64::INFINITY, "");
    for (tag, name, floored) in SLICES {
        let has = |i: usize| {
            let id = events[i]["id"].as_str().unwrap_or("");
            let t = tags.get(id);
            if tag == "nonen" {
                t.is_some_and(|t| t.iter().any(|x| ["de", "es", "fr"].contains(&x.as_str())))
            } else {
                t.is_some_and(|t| t.contains(tag))
            }
        };
        let n = (0..events.len()).filter(|i| has(*i)).count();
        if n < 10 {
            continue;
        }
        let a = pairs(&args, &has);
        let d = pairs(&dests, &has);
        let f = macro_f1(&view(&a), &ARG_LABELS);
        let (r, _) = cut(&view(&a));
        let df = macro_f1(&view(&d), &DEST_LABELS);
        if floored && f < worst.0 {
            worst = (f, name);
        }
        table_md.push_str(&format!(
            "| {name} | {n} | {f:.3} | {} | {df:.3} |\n",
            if r.is_nan() {
                "n/a".to_owned()
            } else {
                format!("{r:.3}")
            }
        ));
    }
    table_md.push_str(END);
    println!("{table_md}");
    println!(
        "targets: args {:.2}, destinations {:.2}, recall {:.2} at precision {:.2}, slices {:.2}",
        TARGETS.args_macro_f1,
        TARGETS.dest_macro_f1,
        TARGETS.recall_at_sensitive,
        TARGETS.precision_at_sensitive,
        TARGETS.slice_args_macro_f1
    );

    // The book's table is this measurement.
    let book = stpc_tests::lowering::workspace().join("book/src/labeling.md");
    let text = std::fs::read_to_string(&book).expect("book/src/labeling.md");
    let (Some(a), Some(b)) = (text.find(BEGIN), text.find(END)) else {
        panic!("book/src/labeling.md has no generated dev-set block");
    };
    if std::env::var_os("STPC_BLESS").is_some_and(|v| v == "1") {
        let updated = format!("{}{table_md}{}", &text[..a], &text[b + END.len()..]);
        std::fs::write(&book, updated).expect("write the book");
    } else {
        assert!(
            text[a..b + END.len()] == table_md,
            "the dev-set table of book/src/labeling.md is stale: \
             STPC_BLESS=1 cargo test -p stpc-tests --test labeler_dev_set"
        );
    }

    assert!(
        args_f1 >= FLOORS.args_macro_f1,
        "argument macro-F1 {args_f1:.3} below {}",
        FLOORS.args_macro_f1
    );
    assert!(
        dest_f1 >= FLOORS.dest_macro_f1,
        "destination macro-F1 {dest_f1:.3} below {}",
        FLOORS.dest_macro_f1
    );
    assert!(
        recall >= FLOORS.recall_at_sensitive,
        "recall at >= sensitive {recall:.3} below {}",
        FLOORS.recall_at_sensitive
    );
    assert!(
        precision >= FLOORS.precision_at_sensitive,
        "precision at >= sensitive {precision:.3} below {}",
        FLOORS.precision_at_sensitive
    );
    assert!(
        worst.0 >= FLOORS.slice_args_macro_f1,
        "slice `{}`: argument macro-F1 {:.3} below {}",
        worst.1,
        worst.0,
        FLOORS.slice_args_macro_f1
    );
    assert!(
        none_rate <= FLOORS.none_at_sensitive,
        "{:.1} % of topic-none argument fields falsely labeled >= sensitive (ceiling {:.0} %)",
        none_rate * 100.0,
        FLOORS.none_at_sensitive * 100.0
    );
}
