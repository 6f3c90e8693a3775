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

/// `--coverage` names the decision rules no test reached, counts cells and
/// labeler rules; `--threshold` fails under its percentage of rules fired.
#[test]
fn coverage_reports_rules_cells_and_labeler_rules_and_thresholds_fail() {
    let dir = dir_with(&[("search.stpc", SEARCH)]);
    let run = stpc(dir.path(), &["test", "--coverage", "search.stpc"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    let report = run.stdout.split("coverage of ").nth(1).unwrap_or_default();
    // Three tests decide by `ghost`, `scrub` and `over_budget`: 3 of the 8 rules.
    assert!(
        report.contains("rules           3/8 (37.5 %)"),
        "{}",
        run.stdout
    );
    assert!(
        report.contains("not fired: rule 1 `unknown_tool` (search.stpc:72)"),
        "{report}"
    );
    assert!(report.contains("not fired: rule 8 `rule#8`"), "{report}");
    assert!(
        !report.contains("`scrub`"),
        "a fired rule is not listed: {report}"
    );
    assert!(report.contains("cells           3/"), "{report}");
    assert!(report.contains("labeler rules   args 1/2"), "{report}");

    let json = stpc(
        dir.path(),
        &["test", "--format", "json", "--coverage", "search.stpc"],
        "",
    );
    let lines = crate::support::json_lines(&json.stdout);
    let cov = lines.iter().find(|v| v.get("coverage").is_some()).unwrap();
    assert_eq!(cov["coverage"]["rules"]["fired"], 3);
    assert_eq!(cov["coverage"]["rules"]["total"], 8);
    assert_eq!(
        cov["coverage"]["rules"]["not_fired"][0]["name"],
        "unknown_tool"
    );
    assert_eq!(cov["coverage"]["cells"]["hit"], 3);
    assert_eq!(cov["coverage"]["labeler_rules"]["args"]["fired"], 1);
    let summary = lines.last().unwrap();
    assert_eq!(summary["summary"]["coverage"]["percent"], 37.5);

    let below = stpc(
        dir.path(),
        &["test", "--threshold", "40", "search.stpc"],
        "",
    );
    assert_eq!(below.code, 1, "{}", below.transcript());
    assert!(below
        .stdout
        .contains("coverage 37.5 % is below the threshold of 40 %"));
    let above = stpc(
        dir.path(),
        &["test", "--threshold", "37.5%", "search.stpc"],
        "",
    );
    assert_eq!(above.code, 0, "{}", above.transcript());
    let json_below = stpc(
        dir.path(),
        &[
            "test",
            "--format",
            "json",
            "--threshold",
            "50",
            "search.stpc",
        ],
        "",
    );
    assert_eq!(json_below.code, 1);
    let summary = crate::support::json_lines(&json_below.stdout)
        .pop()
        .unwrap();
    assert_eq!(summary["summary"]["coverage"]["below_threshold"], true);
    let bad = stpc(
        dir.path(),
        &["test", "--threshold", "150", "search.stpc"],
        "",
    );
    assert_eq!(bad.code, 2);
    // A test that reaches the fail-closed prelude raises the figure.
    let more = SEARCH.replace(
        "    test \"a speculative topical search runs locally\"",
        "    test \"an unknown destination is blocked\" {\n        call search(q: \"x\") to \"evil.example\" committed\n        expect block by unknown_destination;\n    }\n\n    test \"a speculative topical search runs locally\"",
    );
    assert_ne!(more, SEARCH, "the fixture's test was found");
    std::fs::write(dir.path().join("search.stpc"), more).unwrap();
    let run = stpc(dir.path(), &["test", "--coverage", "search.stpc"], "");
    assert!(
        run.stdout.contains("rules           4/8 (50.0 %)"),
        "{}",
        run.transcript()
    );
}

/// `--format junit`: one suite per contract, one case per test, a failure
/// with expected and decided, an error case for a file that does not
/// compile; stdout is only the XML.
#[test]
fn junit_reports_suites_cases_failures_and_compile_errors() {
    let dir = dir_with(&[
        ("search.stpc", &failing()),
        ("broken.stpc", "contract c {\n    tools a\n}\n"),
    ]);
    let run = stpc(
        dir.path(),
        &[
            "test",
            "--format",
            "junit",
            "--coverage",
            "search.stpc",
            "broken.stpc",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.transcript());
    let doc = roxmltree::Document::parse(&run.stdout).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(root.attribute("tests"), Some("4"));
    assert_eq!(root.attribute("failures"), Some("1"));
    assert_eq!(root.attribute("errors"), Some("1"));
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 2);
    assert_eq!(
        suites[0].attribute("name"),
        Some("search.stpc::search_policy")
    );
    let cases: Vec<_> = suites[0]
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 3);
    let failure = cases
        .iter()
        .find_map(|c| c.children().find(|n| n.has_tag_name("failure")))
        .unwrap();
    let message = failure.attribute("message").unwrap();
    assert!(
        message.contains("expected allow by rule 1 `unknown_tool`, got rewrite by rule 7 `scrub`"),
        "{message}"
    );
    assert!(
        failure.text().unwrap_or_default().contains("search.stpc:"),
        "the failure says where"
    );
    let props: Vec<_> = suites[0]
        .descendants()
        .filter(|n| n.has_tag_name("property"))
        .map(|n| (n.attribute("name").unwrap(), n.attribute("value").unwrap()))
        .collect();
    assert!(props.contains(&("coverage.rules", "3/8")), "{props:?}");
    let error = suites[1]
        .descendants()
        .find(|n| n.has_tag_name("error"))
        .unwrap();
    assert!(
        error.text().unwrap_or_default().contains("E0102"),
        "{:?}",
        error.text()
    );
    assert_eq!(suites[1].attribute("name"), Some("broken.stpc"));
    // Passing runs exit 0 with the same shape.
    let ok = dir_with(&[("search.stpc", SEARCH)]);
    let run = stpc(ok.path(), &["test", "--format", "junit", "search.stpc"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    let doc = roxmltree::Document::parse(&run.stdout).unwrap();
    assert_eq!(doc.root_element().attribute("failures"), Some("0"));
    assert!(
        doc.descendants().all(|n| !n.has_tag_name("properties")),
        "no coverage unless asked"
    );
}
