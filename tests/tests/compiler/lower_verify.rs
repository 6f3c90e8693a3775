//! The verifier re-checks what the checker already guarantees (A3), from
//! the table alone: a program whose transform output or substitute
//! observers are changed *after* checking (as a buggy checker or a
//! hand-edited table would leave them) fails verification with a
//! counterexample.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use std::collections::HashMap;
use stpc_compiler::{hir, CompileOptions, Diagnostics, FileId, SourceMap};

const SOURCE: &str = r#"
use std::labels;
use std::modes;
use std::observers;
use std::tools::{web_search, brave};
use std::labelers;
use std::transforms::generic_query;

contract web {
    tools web_search;
    destinations brave;
    forbid args >= sensitive at provider;

    decide {
        block unless tool allowed;
        block unless destination allowed;
        block when labels missing;
        ghost: shadow when speculative;
        scrub: rewrite using generic_query when args >= sensitive;
        allow;
    }
}
"#;

fn checked() -> (hir::Program, FileId) {
    let mut map = SourceMap::new();
    let id = map.add("web.stpc", SOURCE);
    let mut d = Diagnostics::new();
    let mut no_files = HashMap::<String, String>::new();
    let p = stpc_compiler::check(&mut map, &[id], &mut no_files, &mut d);
    assert!(
        !d.has_errors(),
        "{:?}",
        d.iter().map(|x| &x.message).collect::<Vec<_>>()
    );
    (p, id)
}

fn codes(p: &hir::Program, id: FileId) -> Vec<(String, String, Vec<String>)> {
    let mut d = Diagnostics::new();
    let table = stpc_compiler::compile_program(p, &[id], &CompileOptions::default(), &mut d);
    assert_eq!(table.is_some(), !d.has_errors());
    d.iter()
        .map(|x| {
            (
                x.code.as_str().to_owned(),
                x.message.clone(),
                x.notes.clone(),
            )
        })
        .collect()
}

#[test]
fn the_unmodified_program_verifies() {
    let (p, id) = checked();
    assert!(codes(&p, id).is_empty());
}

#[test]
fn a_transform_whose_output_is_the_cut_is_caught() {
    let (mut p, id) = checked();
    let sensitive = p
        .labels
        .iter()
        .position(|l| l.name == "sensitive")
        .and_then(hir::LabelId::from_index)
        .unwrap();
    let t = p
        .transforms
        .iter_mut()
        .find(|t| t.name == "generic_query")
        .unwrap();
    t.output = Some(sensitive);
    let found = codes(&p, id);
    assert_eq!(found.len(), 1, "{found:?}");
    let (code, message, notes) = &found[0];
    assert_eq!(code, "E0601");
    assert!(
        message.contains(
            "rule `scrub` lets args labelled `sensitive` reach `provider` after rewriting"
        ),
        "{message}"
    );
    // Finding 9 (issue 12): the counterexample is a real call, whose
    // argument the table's own labeler gives the offending label.
    let note = notes
        .iter()
        .find(|n| n.starts_with("counterexample: `web_search(q: "))
        .unwrap_or_else(|| panic!("{notes:?}"));
    assert!(
        note.contains("` (labelled <sensitive>) to `brave`"),
        "{note}"
    );
    let quoted = note
        .strip_prefix("counterexample: `web_search(q: ")
        .and_then(|rest| rest.split_once(")` (labelled"))
        .map(|(v, _)| v)
        .unwrap_or_else(|| panic!("{note}"));
    let value: String = serde_json::from_str(quoted).unwrap_or_else(|e| panic!("{quoted}: {e}"));
    let table = stpc_tests::lowering::compile_text("web.stpc", SOURCE, &CompileOptions::default());
    let labeler = stpc_runtime::Labeler::new(table.table()).unwrap();
    let labels = labeler.label("web_search", &serde_json::json!({ "q": value }), None, "");
    let got = labels
        .args
        .and_then(|l| labeler.args_lattice().label_name(l));
    assert_eq!(got, Some("sensitive"), "`{value}` labels {got:?}");
}

#[test]
fn a_substitute_observed_by_the_provider_is_caught() {
    let (mut p, id) = checked();
    let provider = p
        .observers
        .iter()
        .position(|o| o.name == "provider")
        .and_then(hir::ObserverId::from_index)
        .unwrap();
    let s = p
        .substitutes
        .iter_mut()
        .find(|s| s.name == "local_web_search")
        .unwrap();
    s.observers.push(provider);
    let found = codes(&p, id);
    assert!(
        !found.is_empty() && found.iter().all(|(c, _, _)| c == "E0602"),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|(_, m, n)| m.contains("`provider` observes")
                && n.iter().any(|x| x.contains("mode `speculative`"))),
        "{found:?}"
    );
}

/// `destinations += undeclared;`: the table says so, and only then may an
/// `<unknown>` destination be dispatched.
#[test]
fn undeclared_destinations_are_dispatched_only_when_the_table_says_so() {
    let open = "contract open extends std::policies::rewrite { destinations += undeclared; }\n";
    let compiled =
        stpc_tests::lowering::compile_text("open.stpc", open, &CompileOptions::default());
    assert!(compiled.codes().is_empty(), "{}", compiled.rendered());
    let table = compiled.table().clone();
    assert!(table.undeclared_destinations);
    // The same cells under a table that claims the contract blocks
    // undeclared destinations: the verifier, from the table alone, finds
    // the `<unknown>` destination that is allowed.
    let mut lying = table.clone();
    lying.undeclared_destinations = false;
    let lying = lying.seal().expect("seals");
    let mut d = Diagnostics::new();
    stpc_compiler::verify::verify_table(&lying, stpc_compiler::Span::default(), &mut d);
    let codes: Vec<&str> = d.iter().map(|x| x.code.as_str()).collect();
    assert!(codes.contains(&"E0603"), "{codes:?}");
    // Without `undeclared`, a rule that lets them through is refused.
    let closed = "use std::tools::{all_tools, all_destinations};\n\
        use std::labelers::{std_args, std_destinations};\n\
        contract closed {\n tools all_tools;\n destinations all_destinations;\n\
        labelers std_args, std_destinations;\n\
        decide {\n block unless tool allowed;\n defer when labels missing;\n\
        allow when destination undeclared;\n block unless destination allowed;\n allow;\n }\n}\n";
    let compiled =
        stpc_tests::lowering::compile_text("closed.stpc", closed, &CompileOptions::default());
    assert!(
        compiled.codes().contains(&"E0603".to_string()),
        "{}",
        compiled.rendered()
    );
}
