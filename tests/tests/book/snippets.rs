//! Every contract snippet in the book is checked, like rustdoc checks the
//! code blocks of Rust documentation.
//!
//! The test walks `book/src/**/*.md` and takes every fenced block whose info
//! string starts with `stpc`:
//!
//! - ```` ```stpc ````: the snippet is a file `snippet.stpc`; it must parse,
//!   resolve (`use std::...` from the embedded standard library), check,
//!   lower and verify ([`stpc_compiler::check`] then
//!   [`stpc_compiler::verify_contracts`]) with no error, and every `test`
//!   block of its contracts must pass against the compiled table, as
//!   `stpc test` would run it. Warnings are allowed (a snippet that shows one
//!   declaration often leaves it unused).
//! - ```` ```stpc,compile_fail,E0xxx ````: the same pipeline must report that
//!   code, and no error of another code.
//! - ```` ```stpc,file=NAME ````: a file beside the page's snippets, which
//!   they may `use` (`use NAME_WITHOUT_EXTENSION;`). It is also checked on
//!   its own.
//! - ```` ```stpc,ignore ````: a deliberate fragment (one statement, a
//!   grammar shape with placeholders). It is skipped, but it must *fail* to
//!   check: an ignored block that checks cleanly has no reason to be
//!   ignored, and the test says so.
//!
//! `{{#include PATH}}` (and `{{#include PATH:START:END}}`, lines 1-based and
//! inclusive) inside a ```` ```stpc ```` block is resolved relative to the
//! page, so a chapter can show a checked file of `examples/`. Include
//! directives *outside* code blocks are not followed: the diagnostics pages
//! include the explanation files, whose examples
//! `tests/tests/compiler/explanations.rs` already checks with the checker's rules
//! (minimal contracts, not fail-closed pipelines).

#![allow(
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test helpers read the book and the stdlib; a failure fails the test"
)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use stpc_compiler::{CompileOptions, Diagnostics, Severity, SourceMap};
use stpc_tables::contract_tests::run_tests;

/// One fenced block of a page.
#[derive(Debug)]
struct Block {
    /// The page, relative to the repository.
    page: String,
    /// Line of the opening fence, 1-based.
    line: usize,
    /// The info string (`stpc,compile_fail,E0102`).
    info: String,
    /// The text, with the fence's indentation removed and includes resolved.
    text: String,
}

impl Block {
    fn flags(&self) -> Vec<&str> {
        self.info.split(',').map(str::trim).collect()
    }

    fn is_stpc(&self) -> bool {
        self.flags().first() == Some(&"stpc")
    }

    fn ignored(&self) -> bool {
        self.flags().contains(&"ignore")
    }

    fn compile_fail(&self) -> Option<Option<&str>> {
        let flags = self.flags();
        flags.contains(&"compile_fail").then(|| {
            flags
                .iter()
                .copied()
                .find(|f| f.len() == 5 && (f.starts_with('E') || f.starts_with('W')))
        })
    }

    fn file_name(&self) -> Option<&str> {
        self.flags()
            .into_iter()
            .find_map(|f| f.strip_prefix("file="))
    }

    fn location(&self) -> String {
        format!("{}:{}", self.page, self.line)
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// `{{#include PATH}}` or `{{#include PATH:START:END}}` on one line.
fn include_directive(line: &str) -> Option<&str> {
    line.trim()
        .strip_prefix("{{#include ")?
        .strip_suffix("}}")
        .map(str::trim)
}

/// The text an include directive in `page` stands for.
fn resolve_include(page: &Path, spec: &str) -> Result<String, String> {
    let mut parts = spec.split(':');
    let path = parts.next().unwrap_or_default();
    let file = page.parent().unwrap_or(Path::new(".")).join(path);
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("cannot include {}: {e}", file.display()))?;
    let range: Vec<&str> = parts.collect();
    match range.as_slice() {
        [] => Ok(text),
        [start, end] => {
            let start: usize = start.parse().map_err(|_| format!("bad include range in `{spec}`"))?;
            let end: usize = if end.is_empty() {
                usize::MAX
            } else {
                end.parse().map_err(|_| format!("bad include range in `{spec}`"))?
            };
            Ok(text
                .lines()
                .enumerate()
                .filter(|(i, _)| *i + 1 >= start && *i < end)
                .map(|(_, l)| format!("{l}\n"))
                .collect())
        }
        _ => Err(format!("include `{spec}`: only whole files and START:END line ranges are supported in stpc blocks")),
    }
}

/// The fenced blocks of one page.
fn blocks(page: &Path, rel: &str) -> Vec<Block> {
    let markdown =
        std::fs::read_to_string(page).unwrap_or_else(|e| panic!("cannot read {rel}: {e}"));
    let mut out = Vec::new();
    // (fence, indentation, block)
    let mut open: Option<(String, usize, Block)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match open.as_mut() {
            None => {
                let fence: String = trimmed
                    .chars()
                    .take_while(|c| *c == '`' || *c == '~')
                    .collect();
                if fence.len() >= 3
                    && fence
                        .chars()
                        .all(|c| c == fence.chars().next().unwrap_or('`'))
                {
                    let info = trimmed[fence.len()..].trim().to_string();
                    open = Some((
                        fence,
                        indent,
                        Block {
                            page: rel.to_string(),
                            line: i + 1,
                            info,
                            text: String::new(),
                        },
                    ));
                }
            }
            Some((fence, fence_indent, block)) => {
                if trimmed.starts_with(fence.as_str())
                    && trimmed.trim_end().chars().all(|c| c == '`' || c == '~')
                {
                    if let Some((_, _, block)) = open.take() {
                        out.push(block);
                    }
                    continue;
                }
                // Remove up to the fence's indentation (blocks inside lists).
                let cut = line.len() - line.trim_start().len();
                let body = &line[cut.min(*fence_indent)..];
                match include_directive(body).filter(|_| block.is_stpc()) {
                    Some(spec) => match resolve_include(page, spec) {
                        Ok(text) => block.text.push_str(&text),
                        Err(e) => panic!("{}:{}: {e}", rel, i + 1),
                    },
                    None => {
                        block.text.push_str(body);
                        block.text.push('\n');
                    }
                }
            }
        }
    }
    if let Some((_, _, block)) = open {
        panic!("{}: code block is never closed", block.location());
    }
    out
}

/// Every `stpc` block of the book, by page.
fn book_blocks() -> Vec<Block> {
    let src = repo().join("book").join("src");
    let mut pages = Vec::new();
    markdown_files(&src, &mut pages);
    assert!(!pages.is_empty(), "no pages under {}", src.display());
    pages
        .iter()
        .flat_map(|page| {
            let rel = page
                .strip_prefix(repo())
                .map_or_else(|_| page.display().to_string(), |p| p.display().to_string());
            blocks(page, &rel)
        })
        .filter(Block::is_stpc)
        .collect()
}

/// What a snippet produced.
struct Outcome {
    diagnostics: Diagnostics,
    /// The rendered diagnostics, for failure messages.
    rendered: String,
    /// Failing contract tests, as `contract "test": expected X, got Y`.
    failed_tests: Vec<String>,
    /// How many contract tests ran.
    tests_run: usize,
}

/// Checks, verifies and (when error-free) runs the contract tests of one
/// snippet. `files` are the page's `file=` blocks.
fn run(text: &str, files: &HashMap<String, String>, run_contract_tests: bool) -> Outcome {
    let mut map = SourceMap::new();
    let root = map.add("snippet.stpc", text);
    let mut diagnostics = Diagnostics::new();
    let mut loader = files.clone();
    let program = stpc_compiler::check(&mut map, &[root], &mut loader, &mut diagnostics);
    stpc_compiler::verify_contracts(&program, &[root], &mut diagnostics);
    stpc_compiler::lint::apply_default(&map, &[root], &mut diagnostics);
    let mut failed_tests = Vec::new();
    let mut tests_run = 0;
    if run_contract_tests && !diagnostics.has_errors() {
        for contract in program.contracts.iter().filter(|c| c.span.file == root) {
            let options = CompileOptions {
                contract: Some(contract.name.clone()),
                params: Vec::new(),
            };
            let mut cd = Diagnostics::new();
            let Some(table) = stpc_compiler::compile_program(&program, &[root], &options, &mut cd)
            else {
                diagnostics.extend(cd.into_vec());
                continue;
            };
            let outcomes = run_tests(&program, contract, table).expect("a compiled table loads");
            tests_run += outcomes.len();
            failed_tests.extend(outcomes.iter().filter(|o| !o.passed).map(|o| {
                format!(
                    "contract `{}`, test \"{}\": expected {:?}{}, got {:?} by `{}`",
                    contract.name,
                    o.name,
                    o.expected,
                    o.expected_rule
                        .as_ref()
                        .map_or_else(String::new, |(_, name)| format!(" by `{name}`")),
                    o.action,
                    o.rule_name
                )
            }));
        }
    }
    let rendered = stpc_compiler::diagnostics::render::human_string(&map, &diagnostics.sorted());
    Outcome {
        diagnostics,
        rendered,
        failed_tests,
        tests_run,
    }
}

/// Judges one block; `Err` says why it fails.
fn judge(block: &Block, files: &HashMap<String, String>) -> Result<(), String> {
    if block.ignored() {
        let outcome = run(&block.text, files, true);
        if !outcome.diagnostics.has_errors() && outcome.failed_tests.is_empty() {
            return Err(
                "marked `ignore` but checks cleanly: drop `ignore` so the snippet is tested".into(),
            );
        }
        return Ok(());
    }
    match block.compile_fail() {
        Some(None) => {
            Err("`compile_fail` needs the expected code: ```stpc,compile_fail,E0xxx".into())
        }
        Some(Some(code)) => {
            let outcome = run(&block.text, files, false);
            let codes: Vec<&str> = outcome
                .diagnostics
                .iter()
                .map(|d| d.code.as_str())
                .collect();
            let other_errors: Vec<&str> = outcome
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error && d.code.as_str() != code)
                .map(|d| d.code.as_str())
                .collect();
            if !codes.contains(&code) {
                Err(format!(
                    "expected {code}, got {codes:?}\n{}",
                    outcome.rendered
                ))
            } else if !other_errors.is_empty() {
                Err(format!(
                    "expected only {code}, also got {other_errors:?}\n{}",
                    outcome.rendered
                ))
            } else {
                Ok(())
            }
        }
        None => {
            let outcome = run(&block.text, files, true);
            if outcome.diagnostics.has_errors() {
                Err(format!("does not check:\n{}", outcome.rendered))
            } else if !outcome.failed_tests.is_empty() {
                Err(format!(
                    "contract tests fail:\n  {}",
                    outcome.failed_tests.join("\n  ")
                ))
            } else {
                Ok(())
            }
        }
    }
}

#[test]
fn every_stpc_block_in_the_book_checks() {
    let blocks = book_blocks();
    assert!(
        blocks.len() >= 20,
        "found only {} stpc blocks in the book; is the walk broken?",
        blocks.len()
    );
    // `file=` blocks, by page.
    let mut files: HashMap<String, HashMap<String, String>> = HashMap::new();
    for b in &blocks {
        if let Some(name) = b.file_name() {
            files
                .entry(b.page.clone())
                .or_default()
                .insert(name.to_string(), b.text.clone());
        }
    }
    let none = HashMap::new();
    let mut failures = Vec::new();
    let (mut checked, mut ignored) = (0, 0);
    for b in &blocks {
        let page_files = files.get(&b.page).unwrap_or(&none);
        if b.ignored() {
            ignored += 1;
        } else {
            checked += 1;
        }
        if let Err(why) = judge(b, page_files) {
            failures.push(format!("{} (```{}): {why}", b.location(), b.info));
        }
    }
    eprintln!("book snippets: {checked} checked, {ignored} ignored fragments");
    assert!(
        failures.is_empty(),
        "{} of {} stpc blocks in the book fail:\n\n{}",
        failures.len(),
        blocks.len(),
        failures.join("\n\n")
    );
}

/// The harness itself: a block that should fail is caught.
#[test]
fn the_harness_rejects_a_broken_snippet() {
    let none = HashMap::new();
    let broken = Block {
        page: "inline".into(),
        line: 1,
        info: "stpc".into(),
        text: "lattice L { a < b }\nlattice L { a < b }\n".into(),
    };
    assert!(judge(&broken, &none).is_err());
    let expected = Block {
        info: "stpc,compile_fail,E0202".into(),
        ..broken
    };
    assert_eq!(judge(&expected, &none), Ok(()));
    let wrong_code = Block {
        info: "stpc,compile_fail,E0201".into(),
        ..expected
    };
    assert!(judge(&wrong_code, &none).is_err());
    let needless_ignore = Block {
        info: "stpc,ignore".into(),
        text: "lattice L { a < b }\n".into(),
        ..wrong_code
    };
    assert!(judge(&needless_ignore, &none).is_err());
}

/// A contract test that fails makes its snippet fail.
#[test]
fn the_harness_runs_contract_tests() {
    let none = HashMap::new();
    let text = r#"
use std::labels;
use std::observers;
use std::tools::{web_search, brave};
use std::labelers;

contract c {
    tools web_search;
    destinations brave;
    decide {
        block unless tool allowed and destination allowed;
        defer when labels missing;
        allow;
    }
    test "wrong on purpose" {
        call web_search(q: "weather") to brave
        expect block;
    }
}
"#;
    let block = Block {
        page: "inline".into(),
        line: 1,
        info: "stpc".into(),
        text: text.into(),
    };
    let why = judge(&block, &none).expect_err("the test block expects the wrong action");
    assert!(why.contains("wrong on purpose"), "{why}");
    let outcome = run(text, &none, true);
    assert_eq!(outcome.tests_run, 1);
}

// ---------------------------------------------------------------- links

/// `text` without HTML comments, fenced code blocks and inline code spans,
/// so that only the prose's links and directives remain.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        rest = rest[start..]
            .find("-->")
            .map_or("", |end| &rest[start + end + 3..]);
    }
    out.push_str(rest);
    let mut kept = String::new();
    let mut fence: Option<String> = None;
    for line in out.lines() {
        let trimmed = line.trim_start();
        let marker: String = trimmed
            .chars()
            .take_while(|c| *c == '`' || *c == '~')
            .collect();
        match &fence {
            Some(f) if trimmed.starts_with(f.as_str()) => fence = None,
            Some(_) => {}
            None if marker.len() >= 3 => fence = Some(marker),
            None => {
                // Inline code spans: drop the text between backticks.
                let mut inside = false;
                for part in line.split('`') {
                    if !inside {
                        kept.push_str(part);
                    }
                    inside = !inside;
                }
                kept.push('\n');
            }
        }
    }
    kept
}

/// The targets of `[text](target)` links in `text`'s prose.
fn links(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut out = Vec::new();
    let mut rest = prose.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].trim().to_string());
            rest = &rest[end..];
        }
    }
    out
}

/// The `{{#include ...}}` targets (without line ranges) in `text`'s prose.
fn includes(text: &str) -> Vec<String> {
    prose(text)
        .lines()
        .filter_map(include_directive)
        .map(|spec| spec.split(':').next().unwrap_or_default().to_string())
        .collect()
}

/// The heading ids mdBook gives a page: the heading's text, lower-cased,
/// spaces to `-`, other punctuation dropped; repeats get `-1`, `-2`, ...
fn heading_ids(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).unwrap_or_default();
    // Included files' headings count (the diagnostics pages).
    let mut expanded = String::new();
    let mut fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        }
        match include_directive(line).filter(|_| !fence) {
            Some(spec) => expanded.push_str(&resolve_include(page, spec).unwrap_or_default()),
            None => expanded.push_str(line),
        }
        expanded.push('\n');
    }
    let mut ids: Vec<String> = Vec::new();
    let mut fence = false;
    for line in expanded.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let id: String = title
            .chars()
            .filter_map(|c| {
                if c.is_alphanumeric() || c == '_' || c == '-' {
                    Some(c.to_ascii_lowercase())
                } else if c.is_whitespace() {
                    Some('-')
                } else {
                    None
                }
            })
            .collect();
        let mut unique = id.clone();
        let mut n = 1;
        while ids.contains(&unique) {
            unique = format!("{id}-{n}");
            n += 1;
        }
        ids.push(unique);
    }
    ids
}

/// The heading ids follow mdBook's rule.
#[test]
fn heading_ids_follow_mdbook() {
    let dir = std::env::temp_dir().join(format!("stpc-book-ids-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let page = dir.join("page.md");
    std::fs::write(
        &page,
        "# Testing contracts: `stpc test`\n\n```text\n# not a heading\n```\n## Digest\n## Digest\n",
    )
    .expect("write");
    let ids = heading_ids(&page);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(ids, ["testing-contracts-stpc-test", "digest", "digest-1"]);
}

/// Every relative link and include of the book points at a file that
/// exists (and at a heading that exists, for `page.md#anchor`); `mdbook
/// build` would render a broken link silently.
#[test]
fn every_link_and_include_in_the_book_resolves() {
    let src = repo().join("book").join("src");
    let mut pages = Vec::new();
    markdown_files(&src, &mut pages);
    let mut broken = Vec::new();
    for page in &pages {
        let rel = page
            .strip_prefix(&src)
            .unwrap_or(page)
            .display()
            .to_string();
        let text = std::fs::read_to_string(page).unwrap_or_default();
        let dir = page.parent().unwrap_or(&src);
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((target.as_str(), ""));
            let path = if file.is_empty() {
                page.clone()
            } else {
                dir.join(file)
            };
            if !path.exists() {
                broken.push(format!("{rel}: link to `{target}`: no such file"));
            } else if !anchor.is_empty()
                && path.extension().is_some_and(|e| e == "md")
                && !heading_ids(&path).iter().any(|id| id == anchor)
            {
                broken.push(format!(
                    "{rel}: link to `{target}`: no heading with that id"
                ));
            }
        }
        for target in includes(&text) {
            if !dir.join(&target).exists() {
                broken.push(format!("{rel}: include of `{target}`: no such file"));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "broken links in the book:\n  {}",
        broken.join("\n  ")
    );
}

/// SUMMARY.md lists only files that exist, and every chapter file is listed
/// (an unlisted page is not rendered).
#[test]
fn the_summary_lists_every_chapter() {
    let src = repo().join("book").join("src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).expect("book/src/SUMMARY.md");
    let listed: Vec<String> = links(&summary);
    let mut problems: Vec<String> = listed
        .iter()
        .filter(|l| !src.join(l).exists())
        .map(|l| format!("SUMMARY.md lists `{l}`, which does not exist"))
        .collect();
    let mut pages = Vec::new();
    markdown_files(&src, &mut pages);
    for page in &pages {
        let rel = page
            .strip_prefix(&src)
            .unwrap_or(page)
            .display()
            .to_string()
            .replace('\\', "/");
        if rel != "SUMMARY.md" && !listed.contains(&rel) {
            problems.push(format!("`{rel}` is not listed in SUMMARY.md"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `{{#include}}` inside an stpc block brings in the file (or its lines).
#[test]
fn includes_in_stpc_blocks_are_resolved() {
    let dir = std::env::temp_dir().join(format!("stpc-book-include-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("a.stpc"), "line 1\nline 2\nline 3\n").expect("write");
    let page = dir.join("page.md");
    std::fs::write(
        &page,
        "```stpc\n{{#include a.stpc:2:3}}\n```\n\n    ```stpc\n    {{#include a.stpc}}\n    ```\n",
    )
    .expect("write");
    let found = blocks(&page, "page.md");
    std::fs::remove_dir_all(&dir).ok();
    let texts: Vec<&str> = found.iter().map(|b| b.text.as_str()).collect();
    assert_eq!(texts, ["line 2\nline 3\n", "line 1\nline 2\nline 3\n"]);
}
