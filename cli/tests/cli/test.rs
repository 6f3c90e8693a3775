//! `stpc test` as a process: passing and failing contract tests in every
//! output format, directory walking, contracts that do not compile, and exit
//! codes (0 all pass, 1 a test fails or a contract does not compile, 2 I/O).

#![expect(
    clippy::unwrap_used,
    reason = "test oracles and helpers: a failure should fail the test"
)]

use crate::support::{settings, stpc, SEARCH};

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// The contract with one test expecting the wrong action and rule.
fn failing() -> String {
    SEARCH.replace("expect rewrite by scrub;", "expect allow by unknown_tool;")
}

#[test]
fn passing_tests_exit_zero() {
    let dir = dir_with(&[("search.stpc", SEARCH)]);
    let run = stpc(dir.path(), &["test", "search.stpc"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    settings(dir.path()).bind(|| insta::assert_snapshot!("test_pass", run.transcript()));
}

#[test]
fn a_failing_test_shows_expected_and_decided_cells() {
    let dir = dir_with(&[("search.stpc", &failing())]);
    let run = stpc(dir.path(), &["test", "search.stpc"], "");
    assert_eq!(run.code, 1);
    settings(dir.path()).bind(|| insta::assert_snapshot!("test_fail_human", run.transcript()));
}

#[test]
fn failures_in_machine_formats() {
    let dir = dir_with(&[("search.stpc", &failing())]);
    let json = stpc(dir.path(), &["test", "--format", "json", "search.stpc"], "");
    assert_eq!(json.code, 1);
    let lines: Vec<serde_json::Value> = json
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[3]["summary"]["failed"], 1);
    let github = stpc(
        dir.path(),
        &["test", "--format", "github", "search.stpc"],
        "",
    );
    assert_eq!(github.code, 1);
    let sarif = stpc(
        dir.path(),
        &["test", "--format", "sarif", "search.stpc"],
        "",
    );
    assert_eq!(sarif.code, 1);
    let log: serde_json::Value = serde_json::from_str(&sarif.stdout).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "stpc-test");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "search.stpc"
    );
    assert!(
        results[0]["locations"][0]["physicalLocation"]["region"]["startLine"]
            .as_u64()
            .unwrap()
            > 1
    );
    settings(dir.path()).bind(|| {
        insta::assert_snapshot!("test_fail_json", json.transcript());
        insta::assert_snapshot!("test_fail_github", github.transcript());
    });
}

#[test]
fn directories_are_walked_for_contracts() {
    let dir = dir_with(&[
        ("p/a.stpc", SEARCH),
        ("p/nested/b.stpc", &failing()),
        ("p/.hidden/c.stpc", "not a contract"),
        ("p/notes.txt", "not a contract"),
    ]);
    let run = stpc(dir.path(), &["test", "p", "--filter", "topical search"], "");
    assert_eq!(run.code, 1);
    settings(dir.path()).bind(|| insta::assert_snapshot!("test_directory", run.transcript()));
}

#[test]
fn contracts_that_do_not_compile_fail_the_run() {
    let dir = dir_with(&[
        ("broken.stpc", "contract c {\n    tools a\n}\n"),
        ("search.stpc", SEARCH),
    ]);
    let run = stpc(dir.path(), &["test", "broken.stpc", "search.stpc"], "");
    assert_eq!(run.code, 1);
    settings(dir.path()).bind(|| insta::assert_snapshot!("test_broken", run.transcript()));
}

#[test]
fn standard_input_and_missing_files() {
    let dir = dir_with(&[]);
    let run = stpc(dir.path(), &["test", "-"], SEARCH);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout.contains("test <stdin>::search_policy"),
        "{}",
        run.stdout
    );
    let missing = stpc(dir.path(), &["test", "nope.stpc"], "");
    assert_eq!(missing.code, 2);
    settings(dir.path()).bind(|| insta::assert_snapshot!("test_missing", missing.transcript()));
}

#[test]
fn the_shipped_contracts_pass_their_tests() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let run = stpc(
        std::path::Path::new(root),
        &["test", "examples", "stdlib-contracts"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(run.stdout.contains(" passed; 0 failed"), "{}", run.stdout);
}
