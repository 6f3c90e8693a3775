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

use stpc_compiler::diagnostics::render::human_string;
use stpc_compiler::diagnostics::LabelStyle;
use stpc_compiler::{Diagnostics, SourceMap};

/// The codes a fixture's header expects, sorted; empty for `ok`; `None`
/// when the header is missing.
fn expected_codes(text: &str) -> Option<Vec<String>> {
    let header = text
        .lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| l.trim_start_matches('/').trim().strip_prefix("expect:"))?;
    let mut codes: Vec<String> = header
        .split_whitespace()
        .filter(|c| *c != "ok")
        .map(str::to_string)
        .collect();
    codes.sort();
    Some(codes)
}

#[test]
fn syntax() {
    // Code mismatches are collected so one run reports every fixture.
    let mut mismatches: Vec<String> = Vec::new();
    insta::glob!("../../tests/fixtures/syntax", "*.stpc", |path| {
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

        let mut found: Vec<String> = diagnostics.iter().map(|d| d.code.to_string()).collect();
        found.sort();
        if found != expected {
            mismatches.push(format!("{name}: expected {expected:?}, found {found:?}"));
        }
        assert_eq!(
            ast.is_some(),
            found.is_empty(),
            "{name}: AST and errors disagree"
        );
        for d in diagnostics.iter() {
            assert!(
                d.labels.iter().any(|l| l.style == LabelStyle::Primary),
                "{name}: {} has no primary label",
                d.code
            );
        }

        let rendered = human_string(&map, &diagnostics.sorted());
        insta::assert_snapshot!(format!(
            "SOURCE\n------\n{text}\nDIAGNOSTICS\n-----------\n{rendered}"
        ));
    });
    assert!(
        mismatches.is_empty(),
        "codes differ from the `// expect:` headers:\n{}",
        mismatches.join("\n")
    );
}
