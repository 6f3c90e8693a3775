//! `stpc fmt` on files: snapshots of `tests/fixtures/fmt/*.stpc`, and the
//! shipped contracts under `examples/` and `stdlib-contracts/`.
//!
//! Each fixture snapshot holds the formatted text; the harness also checks
//! that formatting keeps the AST, keeps every comment and is idempotent.
//! Review a changed snapshot with `cargo insta review`.

#![expect(
    clippy::panic,
    reason = "a test harness reads fixtures from disk and panics with context"
)]

use std::path::{Path, PathBuf};
use stpc_compiler::syntax::{self, trivia};
use stpc_compiler::{Diagnostics, FileId};

fn format(text: &str, name: &str) -> String {
    let mut d = Diagnostics::new();
    match stpc_compiler::format(FileId(0), text, &mut d) {
        Some(out) => out,
        None => panic!("{name}: fmt refused: {:#?}", d.sorted()),
    }
}

/// Formats, and checks the properties every formatted file must have.
fn format_checked(text: &str, name: &str) -> String {
    let once = format(text, name);
    let mut d = Diagnostics::new();
    // fmt keeps the AST up to the deprecated spellings it rewrites.
    let mut before = syntax::parse(FileId(0), text, &mut d);
    if let Some(b) = before.as_mut() {
        syntax::modernize::modernize(b);
    }
    let after = syntax::parse(FileId(0), &once, &mut d);
    assert!(
        before.is_some() && before == after,
        "{name}: the AST changed"
    );
    let mut expected: Vec<String> = trivia::comments(FileId(0), text)
        .into_iter()
        .map(|c| c.text)
        .collect();
    let mut found: Vec<String> = trivia::comments(FileId(0), &once)
        .into_iter()
        .map(|c| c.text)
        .collect();
    expected.sort();
    found.sort();
    assert_eq!(expected, found, "{name}: comments changed");
    assert_eq!(format(&once, name), once, "{name}: not idempotent");
    once
}

#[test]
fn fmt() {
    insta::glob!("../../fixtures/fmt", "*.stpc", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let formatted = format_checked(&text, &name);
        insta::with_settings!({ omit_expression => true }, {
            insta::assert_snapshot!(formatted);
        });
    });
}

fn shipped() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "stpc") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    walk(&root.join("examples"), &mut out);
    walk(&root.join("stdlib-contracts"), &mut out);
    out.sort();
    out
}

#[test]
fn shipped_contracts_format_without_changing_their_ast() {
    let files = shipped();
    assert!(!files.is_empty());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        format_checked(&text, &path.display().to_string());
    }
}

/// STYLE 7.6: shipped contracts are fixed points of `fmt`. After editing
/// one, run `stpc fmt examples stdlib-contracts`.
#[test]
fn shipped_contracts_are_fixed_points_of_fmt() {
    let mut unformatted = Vec::new();
    for path in shipped() {
        let text = std::fs::read_to_string(&path).unwrap();
        if format(&text, &path.display().to_string()) != text {
            unformatted.push(path.display().to_string());
        }
    }
    assert!(
        unformatted.is_empty(),
        "not formatted (run `stpc fmt examples stdlib-contracts`):\n{}",
        unformatted.join("\n")
    );
}
