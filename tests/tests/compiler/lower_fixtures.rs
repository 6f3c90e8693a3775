//! Verification fixtures: `tests/fixtures/verify/*.stpc`.
//!
//! Each fixture opens with `// expect: E0601 W0602` (the exact multiset of
//! codes) or `// expect: ok`. The harness compiles the file (check, lower,
//! verify), asserts the codes, and snapshots the colourless rendering of the
//! diagnostics and, for accepted contracts, a summary of the table
//! (dimensions, cells and node count; the full JSON carries every lexicon of
//! the standard library and would drown the review).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use stpc_compiler::CompileOptions;

fn summary(t: &stpc_runtime::table::Table) -> String {
    let mut s = String::new();
    for d in &t.dimensions {
        s.push_str(&format!(
            "{}: {}\n",
            serde_json::to_string(&d.kind).unwrap_or_default(),
            d.values.join(" | ")
        ));
    }
    s.push_str(&format!("nodes: {}\n", t.diagram.nodes.len()));
    for (i, c) in t.cells.iter().enumerate() {
        s.push_str(&format!(
            "cell {i}: {} by `{}` (rule {})\n",
            c.action.as_str(),
            c.rule_name,
            c.rule_id
        ));
    }
    s
}

#[test]
fn verify_fixtures() {
    let mut mismatches = Vec::new();
    insta::glob!("../../fixtures/verify", "*.stpc", |path| {
        let text = String::from_utf8(std::fs::read(path).expect("readable")).expect("utf-8");
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let rel = format!("tests/fixtures/verify/{name}");
        let c = stpc_tests::lowering::compile_text(&rel, &text, &CompileOptions::default());
        let expected = stpc_tests::fixtures::expected_codes(&text).expect("an `// expect:` header");
        if c.codes() != expected {
            mismatches.push(format!(
                "{rel}: expected {expected:?}, found {:?}\n{}",
                c.codes(),
                c.rendered()
            ));
        }
        for d in c
            .diagnostics
            .iter()
            .filter(|d| d.code.as_str().starts_with("E06"))
        {
            assert!(
                d.notes.iter().any(|n| n.starts_with("counterexample: ")),
                "{rel}: {} without a counterexample",
                d.code.as_str()
            );
        }
        let table = c
            .table
            .as_ref()
            .map(summary)
            .unwrap_or_else(|| "(none)\n".to_owned());
        insta::assert_snapshot!(format!(
            "SOURCE\n------\n{text}\nDIAGNOSTICS\n-----------\n{}\nTABLE\n-----\n{table}",
            c.rendered()
        ));
    });
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
