//! The examples in the explanation files (`stpc explain`, the book) are
//! checked like rustc's `compile_fail,E0004` blocks:
//!
//! - every ```` ```stpc,compile_fail,CODE ```` block, run through
//!   [`pipeline`], emits exactly one diagnostic, with that code;
//! - every plain ```` ```stpc ```` block (the corrected example) emits no
//!   diagnostic of a code the pipeline covers.
//!
//! [`pipeline`] parses, resolves and checks, so the codes in [`COVERED`] are
//! tested. When a later stage lands, call it from [`pipeline`] and add its
//! code prefix to [`COVERED`].
//!
//! An example is the file `example.stpc`; blocks marked
//! ```` ```stpc,file=NAME ```` are other files beside it that it may `use`.

use std::collections::HashMap;
use stpc_compiler::{Code, Diagnostics, SourceMap};

/// Code prefixes whose examples [`pipeline`] can judge.
const COVERED: &[&str] = &["E01", "E02", "E03", "E04", "E05", "E06", "W00", "W06"];

/// Codes whose explanation has no erroneous example, with the reason.
const NO_EXAMPLE: &[(&str, &str)] = &[
    (
        "E0504",
        "depends on `stpc compile` flags; cli/tests/cli/lower.rs covers it",
    ),
    (
        "E0505",
        "depends on `stpc compile --param`; cli/tests/cli/lower.rs covers it",
    ),
    (
        "E0604",
        "an inconsistent table is a lowering bug; no input should produce it",
    ),
    (
        "E0112",
        "invalid UTF-8 cannot be written in a Markdown example; tests/cli.rs covers it",
    ),
    (
        "E0900",
        "an internal error has no input that should produce it",
    ),
];

/// Runs one example through the compiler and returns its diagnostics.
///
/// `files` are the explanation's ```` ```stpc,file=NAME ```` blocks.
fn pipeline(name: &str, text: &str, files: &HashMap<String, String>) -> Diagnostics {
    let mut map = SourceMap::new();
    let id = map.add("example.stpc", text);
    let mut diagnostics = Diagnostics::new();
    let mut loader = files.clone();
    let program = stpc_compiler::check(&mut map, &[id], &mut loader, &mut diagnostics);
    // Lowering and verification judge only their own codes' examples: the
    // checker's examples are minimal contracts, not fail-closed pipelines.
    if ["E05", "E06", "W06"].iter().any(|p| name.starts_with(p)) {
        stpc_compiler::verify_contracts(&program, &[id], &mut diagnostics);
    }
    stpc_compiler::lint::apply_default(&map, &[id], &mut diagnostics);
    diagnostics
}

/// The ```` ```stpc,file=NAME ```` blocks of an explanation.
fn aux_files(markdown: &str) -> HashMap<String, String> {
    blocks(markdown)
        .into_iter()
        .filter_map(|b| {
            let name = b
                .info
                .split(',')
                .find_map(|p| p.trim().strip_prefix("file="))?;
            Some((name.to_string(), b.text))
        })
        .collect()
}

fn covered(code: Code) -> bool {
    COVERED.iter().any(|p| code.as_str().starts_with(p))
}

/// One fenced code block: its info string and its text.
struct Block {
    info: String,
    text: String,
}

/// The fenced code blocks of a Markdown text.
fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for line in markdown.lines() {
        match current.as_mut() {
            None => {
                if let Some(info) = line.trim_start().strip_prefix("```") {
                    current = Some(Block {
                        info: info.trim().to_string(),
                        text: String::new(),
                    });
                }
            }
            Some(block) => {
                if line.trim_start().starts_with("```") {
                    out.extend(current.take());
                } else {
                    block.text.push_str(line);
                    block.text.push('\n');
                }
            }
        }
    }
    out
}

/// For `stpc,compile_fail,E0102`: `Some("E0102")`; for `stpc`: `None`.
fn compile_fail_code(info: &str) -> Option<&str> {
    let mut parts = info.split(',').map(str::trim);
    if parts.next() != Some("stpc") {
        return None;
    }
    let mut fails = false;
    let mut code = None;
    for p in parts {
        if p == "compile_fail" {
            fails = true;
        } else if p.starts_with('E') || p.starts_with('W') {
            code = Some(p);
        }
    }
    fails.then_some(code).flatten()
}

#[test]
fn erroneous_examples_emit_exactly_their_code() {
    let mut failures = Vec::new();
    let mut tested = 0;
    for &code in Code::ALL.iter().filter(|c| covered(**c)) {
        let examples: Vec<Block> = blocks(code.explanation())
            .into_iter()
            .filter(|b| compile_fail_code(&b.info).is_some())
            .collect();
        if examples.is_empty() && !NO_EXAMPLE.iter().any(|(c, _)| *c == code.as_str()) {
            failures.push(format!("{code}: no ```stpc,compile_fail,{code} example"));
        }
        for (i, block) in examples.iter().enumerate() {
            tested += 1;
            let declared = compile_fail_code(&block.info).unwrap_or_default();
            if declared != code.as_str() {
                failures.push(format!("{code}: example {i} is marked {declared}"));
            }
            let found: Vec<String> = pipeline(
                &format!("{code}.md"),
                &block.text,
                &aux_files(code.explanation()),
            )
            .codes()
            .iter()
            .map(ToString::to_string)
            .collect();
            if found != [code.to_string()] {
                failures.push(format!(
                    "{code}: example {i} emits {found:?}, expected exactly [{code}]:\n{}",
                    block.text
                ));
            }
        }
    }
    assert!(tested > 0, "no examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn corrected_examples_emit_no_covered_code() {
    let mut failures = Vec::new();
    for &code in Code::ALL.iter().filter(|c| covered(**c)) {
        for (i, block) in blocks(code.explanation())
            .iter()
            .filter(|b| b.info == "stpc")
            .enumerate()
        {
            let found: Vec<Code> = pipeline(
                &format!("{code}.md"),
                &block.text,
                &aux_files(code.explanation()),
            )
            .codes()
            .into_iter()
            .filter(|c| covered(*c))
            .collect();
            if !found.is_empty() {
                failures.push(format!(
                    "{code}: corrected example {i} emits {found:?}:\n{}",
                    block.text
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn block_extraction_reads_info_strings() {
    let md = "text\n```stpc,compile_fail,E0102\na\n```\n\n```stpc\nb\n```\n";
    let found = blocks(md);
    assert_eq!(found.len(), 2);
    assert_eq!(compile_fail_code(&found[0].info), Some("E0102"));
    assert_eq!(found[0].text, "a\n");
    assert_eq!(compile_fail_code(&found[1].info), None);
}
