//! Unit tests of the table-exercising library code.

use super::diff::{diff, direction, Direction};
use super::event::{elide_values, EventInput};
use super::vectors::pattern_samples;
use stpc_compiler::{CompileOptions, Diagnostics, SourceMap};
use stpc_runtime::table::{Action, Table};

/// The paper's worked contract, as the example first read (kept here so
/// edits to `examples/` do not change these tests).
const PAPER: &str = r#"
use std::labels;
use std::modes;
use std::observers;
use std::tools::{web_search, brave, duckduckgo};
use std::transforms::generic_query;
use std::labelers;

contract web_default {
    tools web_search;
    destinations brave, duckduckgo;
    // max_arg_label = personal: sensitive and intent-revealing are forbidden.
    forbid args >= sensitive at provider, network;
    threshold speculative 0.7;
    budget sensitive_dispatches 5 per task counting args >= sensitive;
    audit to runtime_log without raw args;

    decide {
        unknown_tool: block unless tool allowed;
        unknown_destination: block unless destination allowed;
        // Fail closed: an event the labeler could not label never leaves.
        unlabeled: block when labels missing;
        gate: defer when speculative and confidence < threshold;
        // The budget counts sensitive dispatches, so it is checked before
        // the rewrite that would otherwise dispatch the sixth one.
        over_budget: defer when budget sensitive_dispatches exhausted and args >= sensitive;
        scrub: rewrite using generic_query when args >= sensitive;
        allow;
    }

    test "speculative intent query is rewritten" {
        call web_search(q: "tenant rights lease termination penalty")
            to brave speculative confidence 0.9
        expect rewrite by scrub;
    }

    test "low-confidence speculation is deferred" {
        call web_search(q: "tenant rights lease termination penalty")
            to brave speculative confidence 0.5
        expect defer by gate;
    }

    test "committed intent query is rewritten too" {
        call web_search(q: "tenant rights lease termination penalty")
            to "api.brave.com" committed confidence 1.0
        expect rewrite;
    }

    test "sixth sensitive dispatch is deferred" {
        call web_search(q: "weather in Lisbon")
            to duckduckgo committed
            after 5 dispatches of sensitive_dispatches
            labels { q: sensitive }
        expect defer by over_budget;
    }
}
"#;

fn compile(text: &str) -> (stpc_compiler::hir::Program, Table) {
    let mut map = SourceMap::new();
    let id = map.add("contract.stpc", text);
    let mut diagnostics = Diagnostics::new();
    let mut loader = stpc_compiler::NoFiles;
    let program = stpc_compiler::check(&mut map, &[id], &mut loader, &mut diagnostics);
    let table = stpc_compiler::compile_program(
        &program,
        &[id],
        &CompileOptions::default(),
        &mut diagnostics,
    );
    assert!(!diagnostics.has_errors(), "{:?}", diagnostics.sorted());
    (program, table.expect("a table"))
}

#[test]
fn serde_messages_lose_their_values() {
    let e = serde_json::from_str::<EventInput>(r#"{"tool": 5, "destination": "x"}"#).unwrap_err();
    assert!(!e.to_string().contains("secret"));
    assert_eq!(
        elide_values(r#"invalid type: string "my secret", expected f64 at line 1 column 9"#),
        r#"invalid type: string "…", expected f64"#
    );
}

#[test]
fn events_accept_openai_shapes_and_refuse_typos() {
    let e = EventInput::parse(
        r#"{"name": "web_search", "arguments": "{\"q\": \"x\"}", "destination": "brave", "mode": "committed"}"#,
    )
    .unwrap();
    assert_eq!(e.tool, "web_search");
    assert_eq!(e.args, serde_json::json!({"q": "x"}));
    assert_eq!(e.mode, "committed");
    assert_eq!(e.confidence, 1.0, "a committed event is certain");
    let err = EventInput::parse(r#"{"tool": "t", "destination": "d"}"#).unwrap_err();
    assert!(err.contains("no `mode`"), "{err}");
    let err = EventInput::parse(r#"{"tool": "t", "destination": "d", "mode": "speculative"}"#)
        .unwrap_err();
    assert!(err.contains("no `confidence`"), "{err}");
    let e = EventInput::parse(
        r#"{"tool": "t", "destination": "d", "mode": "speculative", "confidence": 0.25}"#,
    )
    .unwrap();
    assert_eq!(e.confidence, 0.25);
    let err =
        EventInput::parse(r#"{"tool": "t", "destination": "d", "confidance": 0.5}"#).unwrap_err();
    assert!(err.contains("unknown field `confidance`"), "{err}");
    let err =
        EventInput::parse(r#"{"tool": "t", "destination": "d", "args": "{not json: my secret"}"#)
            .unwrap_err();
    assert!(!err.contains("secret"), "{err}");
}

#[test]
fn pattern_samples_cover_alternation_branches() {
    let s = pattern_samples(r"(?i)\b(?:loan|debt)s?\b|\d{3}-\d{2}", 10);
    assert!(
        s.iter().any(|x| x.to_ascii_lowercase().starts_with("loan")),
        "{s:?}"
    );
    assert!(
        s.iter().any(|x| x.to_ascii_lowercase().starts_with("debt")),
        "{s:?}"
    );
    assert!(s.iter().any(|x| x == "000-00"), "{s:?}");
}

#[test]
fn action_directions() {
    assert_eq!(
        direction(Action::Rewrite, Action::Allow),
        Direction::Weakening
    );
    assert_eq!(
        direction(Action::Allow, Action::Block),
        Direction::Strengthening
    );
    assert_eq!(direction(Action::Shadow, Action::Defer), Direction::Lateral);
    assert_eq!(
        direction(Action::Block, Action::Defer),
        Direction::Weakening
    );
}

#[test]
fn a_table_does_not_differ_from_itself() {
    let (_, t) = compile(PAPER);
    let d = diff(&t, &t).unwrap();
    assert!(d.is_empty(), "{:?}", d.changes);
    assert!(d.findings.is_empty(), "{:?}", d.findings);
}

#[test]
fn dropping_the_gate_is_a_weakening() {
    let (_, old) = compile(PAPER);
    let without_gate = PAPER
        .replace(
            "gate: defer when speculative and confidence < threshold;",
            "",
        )
        .replace("expect defer by gate;", "expect defer;");
    let (_, new) = compile(&without_gate);
    let d = diff(&old, &new).unwrap();
    assert!(d.weakenings() > 0);
    assert!(
        d.changes
            .iter()
            .any(|c| c.description.contains("DEFER -> REWRITE")),
        "{:#?}",
        d.changes.iter().map(|c| &c.description).collect::<Vec<_>>()
    );
}

#[test]
fn allowing_undeclared_destinations_is_a_weakening_finding() {
    let (_, old) = compile(PAPER);
    let open = PAPER.replace(
        "destinations brave, duckduckgo;",
        "destinations brave, duckduckgo, undeclared;",
    );
    let (_, new) = compile(&open);
    assert!(new.undeclared_destinations);
    let d = diff(&old, &new).unwrap();
    let found: Vec<_> = d
        .findings
        .iter()
        .filter(|f| f.description.contains("undeclared destinations"))
        .collect();
    assert_eq!(found.len(), 1, "{:#?}", d.findings);
    assert_eq!(
        found[0].classification,
        super::findings::Classification::Weakening
    );
    assert!(d.weakening_findings() >= 1);
    // And back: a strengthening.
    let back = diff(&new, &old).unwrap();
    assert!(back.findings.iter().any(|f| {
        f.description.contains("no longer allowed")
            && f.classification == super::findings::Classification::Strengthening
    }));
}

#[test]
fn scoping_a_cut_to_ghost_calls_is_a_weakening_and_back_a_strengthening() {
    let (_, old) = compile(PAPER);
    let scoped = PAPER.replace(
        "forbid args >= sensitive at provider, network;",
        "forbid args >= sensitive at provider, network unless committed;",
    );
    let (_, new) = compile(&scoped);
    let rescoped = |d: &super::diff::Diff| -> Vec<super::findings::Classification> {
        d.findings
            .iter()
            .filter(|f| f.description.contains("changes scope"))
            .map(|f| f.classification)
            .collect()
    };
    let d = diff(&old, &new).unwrap();
    assert_eq!(
        rescoped(&d),
        [super::findings::Classification::Weakening],
        "{:#?}",
        d.findings
    );
    assert!(d.weakening_findings() >= 1);
    let back = diff(&new, &old).unwrap();
    assert_eq!(
        rescoped(&back),
        [super::findings::Classification::Strengthening],
        "{:#?}",
        back.findings
    );
}

#[test]
fn the_paper_contract_passes_its_tests() {
    let (program, table) = compile(PAPER);
    let contract = program.contract("web_default").unwrap();
    let outcomes = super::contract_tests::run_tests(&program, contract, table).unwrap();
    assert_eq!(outcomes.len(), 4);
    for o in &outcomes {
        assert!(o.passed, "{o:?}");
    }
}
