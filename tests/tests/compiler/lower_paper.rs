//! The paper's worked contract (`examples/paper_web_search.stpc`), compiled
//! and evaluated with `stpc_runtime`: the decisions the paper's text states.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use std::sync::Arc;
use stpc_compiler::CompileOptions;
use stpc_runtime::decide::{LabelsIn, Query};
use stpc_runtime::table::Table;
use stpc_runtime::{Action, Decider};

fn table() -> Table {
    let c = stpc_tests::lowering::compile_file(
        "examples/paper_web_search.stpc",
        &CompileOptions::default(),
    );
    assert!(c.diagnostics.is_empty(), "{}", c.rendered());
    c.table().clone()
}

struct Event<'a> {
    tool: &'a str,
    destination: &'a str,
    mode: &'a str,
    confidence: f64,
    args: Option<&'a str>,
    exhausted: bool,
}

impl Default for Event<'_> {
    fn default() -> Self {
        Event {
            tool: "web_search",
            destination: "api.brave.com",
            mode: "speculative",
            confidence: 0.9,
            args: Some("intent_revealing"),
            exhausted: false,
        }
    }
}

fn decide(d: &Decider, e: &Event<'_>) -> (Action, String) {
    let t = d.table();
    let args = e
        .args
        .map(|l| t.lattices.args.label_id(l).expect("arg label"));
    let dest = t.lattices.destination.label_id("public");
    let budgets = [e.exhausted];
    let q = Query {
        tool: e.tool,
        destination: e.destination,
        mode: e.mode,
        confidence: e.confidence,
        labels: LabelsIn {
            args,
            destination: dest,
            fields: &[],
        },
        budgets_exhausted: &budgets,
    };
    let decision = d.decide(&q);
    (decision.action, decision.rule_name.to_owned())
}

#[test]
fn paper_decisions() {
    let d = Decider::new(Arc::new(table()));
    // A speculative intent-revealing query to api.brave.com at c = 0.9 is rewritten.
    assert_eq!(
        decide(&d, &Event::default()),
        (Action::Rewrite, "scrub".to_owned())
    );
    // The same query committed with c = 1.0 is rewritten too.
    assert_eq!(
        decide(
            &d,
            &Event {
                mode: "committed",
                confidence: 1.0,
                ..Event::default()
            }
        ),
        (Action::Rewrite, "scrub".to_owned())
    );
    // Below tau = 0.7, speculative dispatch is deferred.
    assert_eq!(
        decide(
            &d,
            &Event {
                confidence: 0.69,
                ..Event::default()
            }
        ),
        (Action::Defer, "gate".to_owned())
    );
    assert_eq!(
        decide(
            &d,
            &Event {
                confidence: 0.7,
                ..Event::default()
            }
        )
        .0,
        Action::Rewrite
    );
    // A tool outside the allow-list is blocked.
    assert_eq!(
        decide(
            &d,
            &Event {
                tool: "email_send",
                ..Event::default()
            }
        ),
        (Action::Block, "unknown_tool".to_owned())
    );
    // A destination outside the allow-list is blocked (bing is web_search's, not the contract's).
    assert_eq!(
        decide(
            &d,
            &Event {
                destination: "api.bing.microsoft.com",
                ..Event::default()
            }
        ),
        (Action::Block, "unknown_destination".to_owned())
    );
    // The sixth sensitive dispatch of a task (budget of 5 exhausted) is deferred.
    assert_eq!(
        decide(
            &d,
            &Event {
                mode: "committed",
                confidence: 1.0,
                args: Some("sensitive"),
                exhausted: true,
                ..Event::default()
            }
        ),
        (Action::Defer, "over_budget".to_owned())
    );
    // ... while a public query still goes out with the budget exhausted.
    assert_eq!(
        decide(
            &d,
            &Event {
                mode: "committed",
                args: Some("public"),
                exhausted: true,
                ..Event::default()
            }
        ),
        (Action::Allow, "rule#7".to_owned())
    );
    // Missing labels fail closed.
    assert_eq!(
        decide(
            &d,
            &Event {
                args: None,
                ..Event::default()
            }
        )
        .0,
        Action::Block
    );
}

#[test]
fn table_loads_and_is_deterministic() {
    let a = table();
    let b = table();
    let ja = a.to_json_pretty().expect("serialises");
    assert_eq!(
        ja,
        b.to_json_pretty().expect("serialises"),
        "compiling twice gives identical bytes"
    );
    let loaded = Table::from_json(ja.as_bytes()).expect("the runtime accepts the table");
    assert_eq!(loaded, a);
    // The table is small: a handful of nodes for a handful of rules.
    assert!(
        a.diagram.nodes.len() < 40,
        "{} nodes",
        a.diagram.nodes.len()
    );
}

#[test]
fn param_override_moves_the_gate() {
    // `threshold speculative 0.7` is a literal here; a parameter-free contract rejects --param.
    let c = stpc_tests::lowering::compile_file(
        "examples/paper_web_search.stpc",
        &CompileOptions {
            contract: None,
            params: vec![("tau".to_owned(), 0.5)],
        },
    );
    assert_eq!(c.codes(), vec!["E0505"], "{}", c.rendered());
}
