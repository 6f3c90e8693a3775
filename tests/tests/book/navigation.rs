//! The book's navigation: the diagnostics index is generated from the code
//! registry, and the sidebar fits on one screen.
//!
//! Every diagnostic code has a page (`book/src/diagnostics/<CODE>.md`, which
//! includes the explanation `stpc explain` prints), a row in the index page
//! and an entry nested under the one "Diagnostics index" entry of
//! `SUMMARY.md`, between the markers
//!
//! ```text
//! <!-- generated:diagnostics begin -->
//! <!-- generated:diagnostics end -->
//! ```
//!
//! When a code is added, regenerate with
//!
//! ```sh
//! STPC_BLESS=1 cargo test -p stpc-tests --test book navigation
//! ```

#![allow(
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test helpers read the book; a failure fails the test"
)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use stpc_compiler::diagnostics::Code;

/// Most lines the folded sidebar may take: part titles plus top-level
/// entries. mdBook's sidebar shows about 35 entries on a 1080p screen at the
/// default font size, so every chapter is visible without scrolling.
const FIRST_SCREEN: usize = 35;

const BEGIN: &str = "<!-- generated:diagnostics begin -->";
const END: &str = "<!-- generated:diagnostics end -->";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn src() -> PathBuf {
    repo().join("book").join("src")
}

fn bless() -> bool {
    std::env::var_os("STPC_BLESS").is_some()
}

/// The stage a code's range belongs to, as the index's section titles.
fn stage(code: Code) -> &'static str {
    let name = code.as_str();
    match &name[..3] {
        "E01" => "Syntax",
        "E02" => "Names and imports",
        "E03" => "Lattices",
        "E04" => "Contracts, labels and types",
        "E05" => "Lowering to a decision table",
        "E06" => "Verification",
        "E09" => "Internal errors",
        _ => "Warnings",
    }
}

fn summary_block() -> String {
    let mut out = String::new();
    for code in Code::ALL {
        let _ = writeln!(
            out,
            "    - [{}: {}](diagnostics/{}.md)",
            code.as_str(),
            code.title().replace('`', ""),
            code.as_str()
        );
    }
    out
}

fn index_page() -> String {
    let mut out = String::from(
        "# Diagnostics index\n\n\
         <!-- Generated from the code registry by tests/tests/book/navigation.rs;\n\
         regenerate with `STPC_BLESS=1 cargo test -p stpc-tests --test book navigation`. -->\n\n\
         Every code `stpc` reports, by the stage that reports it. Each page holds the\n\
         explanation `stpc explain CODE` prints. [Diagnostics](../diagnostics.md)\n\
         describes the output formats and exit codes.\n",
    );
    let mut current = "";
    for code in Code::ALL {
        if stage(*code) != current {
            current = stage(*code);
            let _ = write!(out, "\n## {current}\n\n| code | title |\n|---|---|\n");
        }
        let _ = writeln!(
            out,
            "| [{0}]({0}.md) | {1} |",
            code.as_str(),
            code.title().replace('|', "\\|")
        );
    }
    out
}

fn code_page(code: Code) -> String {
    format!(
        "{{{{#include ../../../compiler/src/diagnostics/explanations/{}.md}}}}\n",
        code.as_str()
    )
}

fn check_or_write(path: &Path, want: &str, stale: &mut Vec<String>) {
    let have = std::fs::read_to_string(path).unwrap_or_default();
    if have == want {
        return;
    }
    if bless() {
        std::fs::write(path, want).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    } else {
        stale.push(path.display().to_string());
    }
}

/// Every code has its page, its index row and its sidebar entry.
#[test]
fn the_diagnostics_index_is_generated_from_the_registry() {
    let mut stale = Vec::new();
    for code in Code::ALL {
        let page = src()
            .join("diagnostics")
            .join(format!("{}.md", code.as_str()));
        check_or_write(&page, &code_page(*code), &mut stale);
    }
    check_or_write(
        &src().join("diagnostics").join("index.md"),
        &index_page(),
        &mut stale,
    );
    let summary_path = src().join("SUMMARY.md");
    let summary = std::fs::read_to_string(&summary_path).expect("SUMMARY.md");
    let begin = summary
        .find(BEGIN)
        .expect("SUMMARY.md has the diagnostics begin marker")
        + BEGIN.len();
    let end = summary
        .find(END)
        .expect("SUMMARY.md has the diagnostics end marker");
    let want = format!("\n{}", summary_block());
    if summary[begin..end] != want {
        if bless() {
            let updated = format!("{}{want}{}", &summary[..begin], &summary[end..]);
            std::fs::write(&summary_path, updated).expect("write SUMMARY.md");
        } else {
            stale.push(summary_path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale (regenerate with STPC_BLESS=1 cargo test -p stpc-tests --test book navigation):\n  {}",
        stale.join("\n  ")
    );
}

/// With the sidebar folded (book.toml), every chapter is on the first screen:
/// only the diagnostics index has nested entries, and the part titles and
/// top-level entries fit in [`FIRST_SCREEN`] lines.
#[test]
fn the_folded_sidebar_shows_every_chapter_on_one_screen() {
    let book_toml =
        std::fs::read_to_string(repo().join("book").join("book.toml")).expect("book.toml");
    let fold = book_toml
        .split("[output.html.fold]")
        .nth(1)
        .expect("book.toml folds the sidebar ([output.html.fold])");
    assert!(
        fold.contains("enable = true"),
        "the sidebar fold is not enabled"
    );
    assert!(
        fold.contains("level = 0"),
        "the sidebar is not folded to its top level"
    );

    let summary = std::fs::read_to_string(src().join("SUMMARY.md")).expect("SUMMARY.md");
    let mut visible = Vec::new();
    let mut parent = String::new();
    let mut nested_outside_index = Vec::new();
    let mut in_comment = false;
    for line in summary.lines() {
        if line.trim_start().starts_with("<!--") && !line.contains("-->") {
            in_comment = true;
            continue;
        }
        if in_comment {
            in_comment = !line.contains("-->");
            continue;
        }
        if line.starts_with("# ") && !line.starts_with("# Summary") {
            visible.push(line.to_string());
        } else if line.starts_with("- [") || (line.starts_with('[') && line.contains("](")) {
            parent = line.to_string();
            visible.push(line.to_string());
        } else if line.starts_with(' ')
            && line.trim_start().starts_with("- [")
            && !parent.contains("Diagnostics index")
        {
            nested_outside_index.push(line.trim().to_string());
        }
    }
    assert!(
        nested_outside_index.is_empty(),
        "only the diagnostics index may nest entries (folded ones are hidden): {nested_outside_index:?}"
    );
    assert!(
        visible.len() <= FIRST_SCREEN,
        "the folded sidebar takes {} lines, more than one screen ({FIRST_SCREEN}):\n{}",
        visible.len(),
        visible.join("\n")
    );
    for chapter in [
        "embedding.md",
        "performance.md",
        "decide.md",
        "replay.md",
        "glossary.md",
    ] {
        assert!(
            visible.iter().any(|l| l.contains(&format!("({chapter})"))),
            "`{chapter}` is not a top-level sidebar entry"
        );
    }
}

/// No placeholder address is rendered as the repository link or published
/// in a manifest: the link comes from the checkout's real remote.
#[test]
fn no_placeholder_repository_address() {
    for file in [
        "book/book.toml",
        "Cargo.toml",
        "cli/Cargo.toml",
        "tables/Cargo.toml",
    ] {
        let text = std::fs::read_to_string(repo().join(file)).expect(file);
        for placeholder in ["example.invalid", "example.com/stpc", "TODO"] {
            assert!(
                !text.contains(placeholder),
                "{file} contains the placeholder `{placeholder}`"
            );
        }
    }
    let ci = std::fs::read_to_string(repo().join(".ci").join("run")).expect(".ci/run");
    assert!(
        ci.contains("MDBOOK_OUTPUT__HTML__GIT_REPOSITORY_URL"),
        ".ci/run does not pass the real repository address to mdbook"
    );
}
