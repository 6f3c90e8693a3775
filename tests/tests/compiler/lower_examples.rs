//! Every shipped contract compiles: `examples/**/*.stpc` and
//! `stdlib-contracts/policies/*.stpc`, each contract of each file, through
//! the whole pipeline (check, lower, verify), with no error; and each table
//! loads in `stpc_runtime` (version, digest, structure).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use std::path::Path;
use stpc_compiler::CompileOptions;

/// Contracts that do not verify yet, with the code they fail with and why.
/// The test fails when one starts verifying, so the entry gets removed.
const KNOWN_UNSOUND: &[(&str, &str, &str)] = &[];

fn stpc_files(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            stpc_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "stpc") {
            let rel = p
                .strip_prefix(stpc_tests::lowering::workspace())
                .unwrap_or(&p);
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

fn contracts_of(rel: &str) -> Vec<String> {
    let text = String::from_utf8(
        std::fs::read(stpc_tests::lowering::workspace().join(rel)).expect("readable"),
    )
    .expect("utf-8");
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("contract "))
        .filter_map(|rest| {
            rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_shipped_contract_compiles() {
    let root = stpc_tests::lowering::workspace();
    let mut files = Vec::new();
    stpc_files(&root.join("examples"), &mut files);
    stpc_files(&root.join("stdlib-contracts/policies"), &mut files);
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    let mut compiled = 0;
    for rel in &files {
        for name in contracts_of(rel) {
            let options = CompileOptions {
                contract: Some(name.clone()),
                params: Vec::new(),
            };
            let c = stpc_tests::lowering::compile_file(rel, &options);
            let errors: Vec<String> = c
                .diagnostics
                .iter()
                .filter(|d| d.severity == stpc_compiler::Severity::Error)
                .map(|d| d.code.as_str().to_owned())
                .collect();
            match KNOWN_UNSOUND.iter().find(|(f, _, _)| f == rel) {
                Some((_, code, _)) => {
                    if !errors.iter().all(|e| e == code) || errors.is_empty() {
                        failures.push(format!("{rel} `{name}`: expected only {code}, found {errors:?}; update KNOWN_UNSOUND"));
                    }
                }
                None => {
                    if !errors.is_empty() {
                        failures.push(format!("{rel} `{name}`:\n{}", c.rendered()));
                        continue;
                    }
                    let json = c.table().to_json_pretty().expect("serialises");
                    if let Err(e) = stpc_runtime::table::Table::from_json(json.as_bytes()) {
                        failures.push(format!(
                            "{rel} `{name}`: the runtime refuses the table: {e}"
                        ));
                    }
                    // `stpc verify` on the table alone agrees with the
                    // compile-time verification: no error.
                    let mut alone = stpc_compiler::Diagnostics::new();
                    stpc_compiler::verify::verify_table(
                        c.table(),
                        stpc_compiler::Span::default(),
                        &mut alone,
                    );
                    if alone.has_errors() {
                        failures.push(format!(
                            "{rel} `{name}`: verify_table disagrees: {:?}",
                            alone.codes()
                        ));
                    }
                    compiled += 1;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(compiled > 0);
}
