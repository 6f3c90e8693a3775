//! The fixture protocol shared by the syntax, diagnostics and verification
//! harnesses: a leading `// expect: E0102 W0001` (or `// expect: ok`)
//! header names the exact multiset of codes a fixture must produce, and the
//! snapshot shows the source above the colourless rendered diagnostics.

#![allow(
    dead_code,
    reason = "each harness uses the part of the protocol it needs"
)]

use stpc_compiler::diagnostics::render::human_string;
use stpc_compiler::diagnostics::LabelStyle;
use stpc_compiler::{Diagnostics, SourceMap};

/// The codes a fixture's header expects, sorted; empty for `ok`; `None`
/// when the header is missing.
pub fn expected_codes(text: &str) -> Option<Vec<String>> {
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

/// The codes found, sorted (a multiset).
pub fn found_codes(diagnostics: &Diagnostics) -> Vec<String> {
    let mut found: Vec<String> = diagnostics.iter().map(|d| d.code.to_string()).collect();
    found.sort();
    found
}

/// Records a mismatch between the header and the codes found, and asserts
/// that every diagnostic has a primary label.
pub fn check_codes(
    name: &str,
    expected: &[String],
    diagnostics: &Diagnostics,
    mismatches: &mut Vec<String>,
) {
    let found = found_codes(diagnostics);
    if found != expected {
        mismatches.push(format!("{name}: expected {expected:?}, found {found:?}"));
    }
    for d in diagnostics.iter() {
        assert!(
            d.labels.iter().any(|l| l.style == LabelStyle::Primary),
            "{name}: {} has no primary label",
            d.code
        );
    }
}

/// The SOURCE and DIAGNOSTICS sections of a fixture's snapshot.
pub fn snapshot(text: &str, map: &SourceMap, diagnostics: &Diagnostics) -> String {
    let rendered = human_string(map, &diagnostics.sorted());
    format!("SOURCE\n------\n{text}\nDIAGNOSTICS\n-----------\n{rendered}")
}

/// Fails with every recorded mismatch.
pub fn assert_no_mismatches(mismatches: &[String]) {
    assert!(
        mismatches.is_empty(),
        "codes differ from the `// expect:` headers:\n{}",
        mismatches.join("\n")
    );
}
