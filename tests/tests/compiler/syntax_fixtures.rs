//! Syntax-error fixtures: `tests/fixtures/syntax/*.stpc`.
//!
//! Each fixture opens with a header comment, `// expect: E0102` (the exact
//! multiset of codes, in any order) or `// expect: ok`. The harness parses
//! the fixture, asserts the codes, checks that every diagnostic has a
//! primary label, and snapshots the colourless human rendering in two
//! sections, SOURCE and DIAGNOSTICS. A change of wording is a reviewed
//! snapshot diff; a change of behaviour is a failing assertion.
//!
//! `INSTA_GLOB_FILTER=E0102*` selects fixtures.

use stpc_compiler::{Diagnostics, SourceMap};
use stpc_tests::fixtures::{assert_no_mismatches, check_codes, expected_codes, snapshot};

#[test]
fn syntax() {
    // Code mismatches are collected so one run reports every fixture.
    let mut mismatches: Vec<String> = Vec::new();
    insta::glob!("../../fixtures/syntax", "*.stpc", |path| {
        let bytes = std::fs::read(path).expect("fixture is readable");
        let text = String::from_utf8(bytes).expect("fixture is UTF-8");
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = format!("tests/fixtures/syntax/{file_name}");
        let Some(expected) = expected_codes(&text) else {
            mismatches.push(format!("{name}: no `// expect:` header"));
            return;
        };

        let mut map = SourceMap::new();
        let id = map.add(name.clone(), text.clone());
        let mut diagnostics = Diagnostics::new();
        let ast = stpc_compiler::syntax::parse(id, &text, &mut diagnostics);

        check_codes(&name, &expected, &diagnostics, &mut mismatches);
        assert_eq!(
            ast.is_some(),
            diagnostics.is_empty(),
            "{name}: AST and errors disagree"
        );
        insta::assert_snapshot!(snapshot(&text, &map, &diagnostics));
    });
    assert_no_mismatches(&mismatches);
}
