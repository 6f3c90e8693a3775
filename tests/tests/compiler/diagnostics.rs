//! Checker fixtures: `tests/fixtures/diagnostics/<CODE>-<slug>.stpc`.
//!
//! Each fixture opens with a header comment, `// expect: E0201 E0201` (the
//! exact multiset of codes, in any order) or `// expect: ok`. The harness
//! runs the whole front end (parse, resolve, check) with a loader that reads
//! imported files relative to the workspace root, asserts the codes, checks
//! that every diagnostic has a primary label, and snapshots the colourless
//! human rendering in two sections, SOURCE and DIAGNOSTICS.
//!
//! It also enforces the registry's coverage rules (rustc's tidy): every code
//! has an explanation and at least one fixture (`tests/fixtures/syntax/` for
//! `E01xx`), and every shipped `.stpc` file (examples, stdlib) checks clean
//! under `--deny warnings`.
//!
//! `INSTA_GLOB_FILTER=E0201*` selects fixtures.

use std::path::{Path, PathBuf};
use stpc_compiler::diagnostics::render::human_string;
use stpc_compiler::{Code, Diagnostics, SourceMap};
use stpc_tests::fixtures::{assert_no_mismatches, check_codes, expected_codes, snapshot};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Checks the file at `rel` (relative to the workspace root) as a root.
fn run(rel: &str, text: &str) -> (SourceMap, Diagnostics) {
    let mut map = SourceMap::new();
    let id = map.add(rel, text);
    let mut diagnostics = Diagnostics::new();
    let root = workspace();
    let mut loader = |path: &str| std::fs::read_to_string(root.join(path)).ok();
    let program = stpc_compiler::check(&mut map, &[id], &mut loader, &mut diagnostics);
    stpc_compiler::verify_contracts(&program, &[id], &mut diagnostics);
    stpc_compiler::lint::apply_default(&map, &[id], &mut diagnostics);
    (map, diagnostics)
}

#[test]
fn diagnostics() {
    let mut mismatches: Vec<String> = Vec::new();
    insta::glob!("../../fixtures/diagnostics", "*.stpc", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable UTF-8");
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = format!("tests/fixtures/diagnostics/{file_name}");
        let expected =
            expected_codes(&text).unwrap_or_else(|| panic!("{name}: no `// expect:` header"));
        let (map, diagnostics) = run(&name, &text);
        check_codes(&name, &expected, &diagnostics, &mut mismatches);
        insta::assert_snapshot!(snapshot(&text, &map, &diagnostics));
    });
    assert_no_mismatches(&mismatches);
}

fn fixture_names(dir: &str) -> Vec<String> {
    std::fs::read_dir(workspace().join(dir))
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".stpc"))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_code_has_an_explanation_and_a_fixture() {
    let diagnostics = fixture_names("tests/fixtures/diagnostics");
    let syntax = fixture_names("tests/fixtures/syntax");
    // E0504/E0505 need `stpc compile` flags (cli/tests/cli/lower.rs);
    // E0604 is a lowering bug no input should produce.
    let no_fixture = ["E0112", "E0900", "E0504", "E0505", "E0604"];
    let mut missing = Vec::new();
    for code in Code::ALL {
        let text = code.explanation();
        if !text.starts_with(&format!("# {code}: ")) || text.lines().count() < 5 {
            missing.push(format!("{code}: explanation is missing or a stub"));
        }
        if no_fixture.contains(&code.as_str()) {
            continue;
        }
        let prefix = format!("{code}-");
        let pool = if code.as_str().starts_with("E01") {
            &syntax
        } else {
            &diagnostics
        };
        if !pool.iter().any(|n| n.starts_with(&prefix)) {
            missing.push(format!("{code}: no fixture named `{prefix}<slug>.stpc`"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

fn stpc_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.filter_map(|e| e.ok()) {
        let p = e.path();
        if p.is_dir() {
            stpc_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "stpc") {
            out.push(p);
        }
    }
}

#[test]
fn shipped_files_check_clean_with_deny_warnings() {
    let root = workspace();
    let mut files = Vec::new();
    stpc_files(&root.join("examples"), &mut files);
    stpc_files(&root.join("stdlib-contracts"), &mut files);
    files.sort();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for f in files {
        let rel = f
            .strip_prefix(&root)
            .unwrap_or(&f)
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&f).unwrap();
        let (map, mut diagnostics) = run(&rel, &text);
        diagnostics.deny_warnings();
        if diagnostics.has_errors() {
            failures.push(human_string(&map, &diagnostics.sorted()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
