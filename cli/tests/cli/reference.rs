//! `book/src/cli-reference.md` is generated from the clap definitions
//! (`stpc __cli-reference`) and must be up to date.
//!
//! Regenerate with `STPC_BLESS=1 cargo test -p stpc --test cli reference`.

use std::path::Path;
use std::process::Command;

#[test]
fn the_cli_reference_in_the_book_is_up_to_date() {
    let out = Command::new(env!("CARGO_BIN_EXE_stpc"))
        .arg("__cli-reference")
        .env_remove("STPC_FORMAT")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let generated = String::from_utf8(out.stdout).unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/src/cli-reference.md");
    if std::env::var_os("STPC_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let first = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(generated.lines().count()));
        panic!(
            "book/src/cli-reference.md is stale (first difference at line {}: committed {:?}, \
             generated {:?}); regenerate it with \
             `STPC_BLESS=1 cargo test -p stpc --test cli reference`",
            first + 1,
            committed.lines().nth(first).unwrap_or(""),
            generated.lines().nth(first).unwrap_or(""),
        );
    }
}

#[test]
fn every_flag_and_argument_is_documented() {
    let out = Command::new(env!("CARGO_BIN_EXE_stpc"))
        .arg("__cli-reference")
        .output()
        .unwrap();
    let page = String::from_utf8(out.stdout).unwrap();
    // clap prints an option with no doc comment as a bare line followed by
    // a blank line or the next option; documented ones have indented text.
    let lines: Vec<&str> = page.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let is_item =
            (trimmed.starts_with('-') || trimmed.starts_with('<') || trimmed.starts_with('['))
                && line.starts_with("  ")
                && !line.starts_with("          ");
        if is_item && !trimmed.contains("  ") {
            let next = lines.get(i + 1).copied().unwrap_or("");
            assert!(
                next.starts_with("          ") && !next.trim().is_empty(),
                "undocumented flag or argument: `{}`",
                trimmed
            );
        }
    }
}
