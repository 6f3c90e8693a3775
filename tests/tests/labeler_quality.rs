//! The std labeler, measured on labeled event sets.
//!
//! Each set is a JSON-lines file (each line: tool, args, destination, the
//! gold label of every argument field and of the destination). The test
//! compiles the Naive policy (which imports every std tool, destination and
//! labeler), labels each event with the runtime's labeler, and reports
//! per-label precision, recall and F1 and the macro-F1 on arguments and on
//! destinations. Floors: 0.80 on arguments, 0.90 on destinations, on every set;
//! and the labeler must not flood the cut: at most 5 % of the fields whose
//! gold label is `public` are labeled `>= sensitive`.
//!
//! The three sets were written by the project under an older convention and
//! aligned with the labeling guide (book, "Labeling") on 2026-12-01; every
//! changed label and the rule that decided it are in
//! `stdlib-contracts/eval/RELABELED.md`, and `stdlib-contracts/eval/MANIFEST.toml`
//! says which sets the std vocabulary was tuned on.
//!
//! - `labeled_events.jsonl`: the set the std lexicons were tuned on
//!   (in-sample; its scores overstate held-out quality).
//! - `heldout_events.jsonl`: written from scratch without looking at the
//!   lexicons, used to measure generalisation while the generator data was
//!   broadened (never by adding its strings to the lexicons).
//! - `heldout2_events.jsonl`: a second fresh batch written after the last
//!   change to the labeler and never tuned on.

#![expect(
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::type_complexity,
    reason = "test code: a malformed event or a failed compile is a failed test"
)]

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;
use stpc_compiler::{CompileOptions, Diagnostics, NoFiles, SourceMap};
use stpc_runtime::Engine;

const EVENTS: &str = include_str!("../../stdlib-contracts/eval/labeled_events.jsonl");
const HELDOUT: &str = include_str!("../../stdlib-contracts/eval/heldout_events.jsonl");
const HELDOUT2: &str = include_str!("../../stdlib-contracts/eval/heldout2_events.jsonl");
const NAIVE: &str = include_str!("../../stdlib-contracts/policies/naive.stpc");

/// Counts of (gold, predicted) pairs over one label set.
#[derive(Default)]
struct Confusion {
    pairs: Vec<(String, String)>,
}

impl Confusion {
    fn add(&mut self, gold: &str, predicted: &str) {
        self.pairs.push((gold.to_string(), predicted.to_string()));
    }

    /// Per-label (precision, recall, f1, support) and the macro-F1 over
    /// labels that occur in the gold set.
    fn report(&self) -> (BTreeMap<String, (f64, f64, f64, usize)>, f64) {
        let mut labels: Vec<&str> = self.pairs.iter().map(|(g, _)| g.as_str()).collect();
        labels.sort_unstable();
        labels.dedup();
        let mut out = BTreeMap::new();
        for label in &labels {
            let tp = self
                .pairs
                .iter()
                .filter(|(g, p)| g == label && p == label)
                .count() as f64;
            let fp = self
                .pairs
                .iter()
                .filter(|(g, p)| g != label && p == label)
                .count() as f64;
            let fn_ = self
                .pairs
                .iter()
                .filter(|(g, p)| g == label && p != label)
                .count() as f64;
            let precision = if tp + fp > 0.0 { tp / (tp + fp) } else { 0.0 };
            let recall = if tp + fn_ > 0.0 { tp / (tp + fn_) } else { 0.0 };
            let f1 = if precision + recall > 0.0 {
                2.0 * precision * recall / (precision + recall)
            } else {
                0.0
            };
            let support = self.pairs.iter().filter(|(g, _)| g == label).count();
            out.insert((*label).to_string(), (precision, recall, f1, support));
        }
        let macro_f1 = out.values().map(|v| v.2).sum::<f64>() / out.len().max(1) as f64;
        (out, macro_f1)
    }
}

fn print_report(name: &str, confusion: &Confusion) -> f64 {
    let (per_label, macro_f1) = confusion.report();
    println!(
        "{name}: {} values, macro-F1 {macro_f1:.3}",
        confusion.pairs.len()
    );
    for (label, (p, r, f1, n)) in per_label {
        println!("  {label:<18} precision {p:.3} recall {r:.3} f1 {f1:.3} (n={n})");
    }
    macro_f1
}

/// Label every event of `set` and return (events, argument macro-F1,
/// destination macro-F1), printing the per-label report.
fn measure(name: &str, set: &str) -> (usize, f64, f64, f64) {
    let mut map = SourceMap::new();
    let root = map.add("stdlib-contracts/policies/naive.stpc", NAIVE);
    let mut diagnostics = Diagnostics::new();
    let table = stpc_compiler::compile(
        &mut map,
        &[root],
        &mut NoFiles,
        &CompileOptions::default(),
        &mut diagnostics,
    )
    .unwrap_or_else(|| panic!("naive policy compiles: {:?}", diagnostics.sorted()));
    let engine = Engine::new(Arc::new(table)).expect("table loads");
    let args_lattice = &engine.table().lattices.args;
    let dest_lattice = &engine.table().lattices.destination;

    let mut args = Confusion::default();
    let mut dests = Confusion::default();
    let mut events = 0;
    for (n, line) in set
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let event: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{name} line {}: {e}", n + 1));
        events += 1;
        let destination = event["destination"].as_str().expect("destination");
        let known = engine.decider().destination_id(destination);
        let labels = engine
            .labeler()
            .label("", &event["args"], known, destination);
        for (field, gold) in event["arg_labels"].as_object().expect("arg_labels") {
            let predicted = labels
                .fields
                .iter()
                .find(|(f, _)| f == field)
                .and_then(|(_, id)| args_lattice.label_name(*id))
                .unwrap_or("<missing>");
            args.add(gold.as_str().expect("label"), predicted);
        }
        let predicted = labels
            .destination
            .and_then(|id| dest_lattice.label_name(id))
            .unwrap_or("<missing>");
        dests.add(event["dest_label"].as_str().expect("dest_label"), predicted);
    }
    println!("== {name}: {events} events");
    let args_f1 = print_report("arguments", &args);
    let dest_f1 = print_report("destinations", &dests);
    let public: Vec<&(String, String)> = args.pairs.iter().filter(|(g, _)| g == "public").collect();
    let flooded = public
        .iter()
        .filter(|(_, p)| p == "sensitive" || p == "intent_revealing")
        .count() as f64
        / public.len().max(1) as f64;
    println!(
        "public fields labeled >= sensitive: {:.1} %",
        flooded * 100.0
    );
    (events, args_f1, dest_f1, flooded)
}

fn assert_floors(name: &str, set: &str, min_events: usize) {
    let (events, args_f1, dest_f1, flooded) = measure(name, set);
    assert!(
        events >= min_events,
        "{name} has at least {min_events} events, found {events}"
    );
    assert!(
        args_f1 >= 0.80,
        "{name}: argument macro-F1 {args_f1:.3} is below the 0.80 floor"
    );
    assert!(
        dest_f1 >= 0.90,
        "{name}: destination macro-F1 {dest_f1:.3} is below the 0.90 floor"
    );
    assert!(
        flooded <= 0.05,
        "{name}: {:.1} % of public fields labeled >= sensitive (ceiling 5 %)",
        flooded * 100.0
    );
}

#[test]
fn std_labeler_meets_the_quality_floors_on_the_labeled_set() {
    assert_floors("labeled_events.jsonl", EVENTS, 300);
}

#[test]
fn std_labeler_meets_the_quality_floors_on_the_heldout_set() {
    assert_floors("heldout_events.jsonl", HELDOUT, 250);
}

#[test]
fn std_labeler_meets_the_quality_floors_on_the_second_heldout_set() {
    assert_floors("heldout2_events.jsonl", HELDOUT2, 80);
}
