//! What a deployment receives, against what the verifier proves (issue 12).
//!
//! For generated contracts that verify clean, with argument and destination
//! cuts, some scoped to ghost calls (`unless committed`), and random event
//! sequences through the real [`Monitor`] (labeling, deciding, rewriting,
//! re-labeling, deferring, promoting, abandoning): no dispatched payload
//! carries a field or a destination at or above a cut for an observer of
//! its destination that sees that channel, when the cut covers the mode the
//! payload was decided in (a promoted event is decided as committed). This
//! is Theorem 1 stated on the runtime's output, not on the table.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{json, Value};
use stpc_compiler::Diagnostics;
use stpc_runtime::table::{domain, Locality, Subject, Table};
use stpc_runtime::{Decided, Labeler, MemorySink, Monitor, Outcome, Promoted, ProposedEvent};

use super::lower::{build, rule, subset, ARGS, DESTS, DLABELS, PRELUDE, TOOLS};

/// One cut: subject, label, observers, scoped to ghost calls or not.
fn cut() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        0..4usize,
        proptest::sample::select(&["provider", "provider, network", "network"][..]),
        any::<bool>(),
    )
        .prop_map(|(args, l, observers, ghost)| {
            let (subject, label) = if args {
                ("args", ARGS[l])
            } else {
                ("destination", DLABELS[l % DLABELS.len()])
            };
            let unless = if ghost { " unless committed" } else { "" };
            format!("    forbid {subject} >= {label} at {observers}{unless};\n")
        })
}

fn contract() -> impl Strategy<Value = String> {
    (
        subset(TOOLS),
        subset(DESTS),
        proptest::collection::vec(cut(), 1..3),
        proptest::collection::vec(rule(false), 0..5),
        any::<bool>(),
        proptest::sample::select(&["allow", "block", "defer"][..]),
    )
        .prop_map(|(tools, dests, cuts, rules, hold_ghosts, default)| {
            let mut s = format!(
                "{PRELUDE}\ncontract gen {{\n    tools {};\n    destinations {};\n",
                tools.join(", "),
                dests.join(", ")
            );
            for c in cuts {
                s.push_str(&c);
            }
            s.push_str("    decide {\n        block unless tool allowed;\n");
            s.push_str("        block unless destination allowed;\n");
            s.push_str("        defer when labels missing;\n");
            if hold_ghosts {
                s.push_str("        defer when not committed and destination external;\n");
            }
            for r in rules {
                s.push_str(&format!("        {r}\n"));
            }
            s.push_str(&format!("        {default};\n    }}\n}}\n"));
            s
        })
}

/// The table of a contract that checks, lowers and verifies without an
/// error.
fn verified(text: &str) -> Option<Table> {
    let (program, contract, table) = build(text)?;
    let mut d = Diagnostics::new();
    stpc_compiler::verify::verify(&program, &contract, &table, &mut d);
    (!d.has_errors()).then_some(table)
}

#[derive(Clone, Debug)]
enum Op {
    Submit {
        tool: &'static str,
        dest: &'static str,
        mode: &'static str,
        branch: &'static str,
        text: &'static str,
    },
    Promote(&'static str),
    Abandon(&'static str),
}

fn op() -> impl Strategy<Value = Op> {
    let submit = (
        proptest::sample::select(TOOLS),
        proptest::sample::select(&["search", "clinic", "notes", "elsewhere.example"][..]),
        proptest::sample::select(&["committed", "speculative", "prefetch"][..]),
        proptest::sample::select(&["b1", "b2"][..]),
        proptest::sample::select(&["my lease ends", "chemo side effects", "weather", ""][..]),
    )
        .prop_map(|(tool, dest, mode, branch, text)| Op::Submit {
            tool,
            dest,
            mode,
            branch,
            text,
        });
    prop_oneof![
        6 => submit,
        1 => proptest::sample::select(&["b1", "b2"][..]).prop_map(Op::Promote),
        1 => proptest::sample::select(&["b1", "b2"][..]).prop_map(Op::Abandon),
    ]
}

fn args_of(tool: &str, text: &str) -> Value {
    match tool {
        "web" => json!({ "q": text, "n": 3 }),
        "docs" => json!({ "query": text }),
        _ => json!({ "to": "alex@example.com", "body": text }),
    }
}

/// Whether a dispatch decided in `mode` leaks past a cut.
fn leak(t: &Table, labeler: &Labeler, mode: &str, d: Decided) -> Result<(), String> {
    let Outcome::Dispatch(ticket) = d.into_outcome() else {
        return Ok(());
    };
    let dispatched = ticket.dispatch();
    let call = dispatched.call();
    let dest = call
        .declared_destination()
        .and_then(|n| t.destinations.iter().position(|d| d.name == n));
    let observers: Vec<u32> = match dest {
        Some(d) => t.destinations[d].observers.clone(),
        None => (0..t.observers.len() as u32)
            .filter(|o| t.observers[*o as usize].locality == Locality::External)
            .collect(),
    };
    let sees = |o: u32, channel: &str| t.observers[o as usize].sees.iter().any(|c| c == channel);
    let mode_id = t.dimensions[domain::MODE]
        .values
        .iter()
        .position(|m| m == mode)
        .map(|m| m as u32);
    let labels = labeler.label(
        call.tool(),
        call.args(),
        dest.map(|d| d as u32),
        call.destination(),
    );
    for c in t.forbid.iter().filter(|c| c.covers(mode_id)) {
        let (channel, reached): (&str, Vec<u32>) = match c.subject {
            Subject::Args => ("arguments", labels.fields.iter().map(|(_, l)| *l).collect()),
            Subject::Destination => (
                "destination",
                dest.map(|d| t.destinations[d].label).into_iter().collect(),
            ),
        };
        let lattice = match c.subject {
            Subject::Args => &t.lattices.args,
            Subject::Destination => &t.lattices.destination,
        };
        for o in c
            .observers
            .iter()
            .filter(|o| observers.contains(o) && sees(**o, channel))
        {
            if let Some(l) = reached.iter().find(|l| lattice.leq(c.label, **l)) {
                return Err(format!(
                    "{} dispatched in mode {mode} to {:?} carries {} `{}` to `{}`: {}",
                    call.tool(),
                    call.declared_destination(),
                    channel,
                    lattice.label_name(*l).unwrap_or("?"),
                    t.observers[*o as usize].name,
                    call.args()
                ));
            }
        }
    }
    Ok(())
}

/// Run `ops` through a monitor over `table`; the number of dispatches, or
/// the first leak.
fn run(table: Table, ops: &[Op]) -> Result<usize, String> {
    let table = Arc::new(table);
    let labeler = Labeler::new(&table).unwrap();
    let mut m = Monitor::new(Arc::clone(&table), Box::new(MemorySink::new())).unwrap();
    m.register_substitute("web_local", Box::new(|_| json!({ "results": [] })));
    m.begin_task("t").unwrap();
    let mut sent = 0;
    let mut check = |mode: &str, d: Decided| {
        if matches!(d.outcome(), Outcome::Dispatch(_)) {
            sent += 1;
        }
        leak(&table, &labeler, mode, d)
    };
    for op in ops {
        match op {
            Op::Submit {
                tool,
                dest,
                mode,
                branch,
                text,
            } => {
                let mut ev = ProposedEvent::committed(*tool, *dest, args_of(tool, text));
                ev.mode = (*mode).to_owned();
                ev.branch = (*branch).to_owned();
                ev.confidence = if *mode == "committed" { 1.0 } else { 0.6 };
                check(mode, m.submit(ev).unwrap())?;
            }
            Op::Promote(b) => {
                for p in m.promote(b).unwrap() {
                    if let Promoted::Decided(d) = p {
                        check("committed", *d)?;
                    }
                }
            }
            Op::Abandon(b) => {
                m.abandon(b).unwrap();
            }
        }
    }
    Ok(sent)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn no_dispatch_carries_a_forbidden_label_to_an_observer_of_its_cut(
        text in contract(),
        ops in proptest::collection::vec(op(), 1..24),
    ) {
        let Some(table) = verified(&text) else { return Ok(()) };
        run(table, &ops).map_err(TestCaseError::fail)?;
    }
}

/// The property is not vacuous: a good share of generated contracts verify
/// and dispatch, and the same oracle finds leaks in contracts the verifier
/// rejects (so it can fail).
#[test]
fn the_exposure_property_has_teeth() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let contracts = contract();
    let sequences = proptest::collection::vec(op(), 24..25);
    let (mut dispatching, mut caught) = (0, 0);
    for _ in 0..200 {
        let text = contracts.new_tree(&mut runner).unwrap().current();
        let ops = sequences.new_tree(&mut runner).unwrap().current();
        match verified(&text) {
            Some(t) => {
                if run(t, &ops).unwrap_or_else(|e| panic!("{e}\n{text}")) > 0 {
                    dispatching += 1;
                }
            }
            None => {
                if build(&text).is_some_and(|(_, _, t)| run(t, &ops).is_err()) {
                    caught += 1;
                }
            }
        }
    }
    eprintln!("exposure: {dispatching} verified contracts dispatch, {caught} rejected ones leak");
    assert!(
        dispatching >= 20,
        "only {dispatching} of 200 verified contracts dispatch"
    );
    assert!(
        caught >= 5,
        "the oracle caught a leak in only {caught} rejected contracts"
    );
}
