//! `--format sarif` and `--format github`: SARIF logs validate against the
//! official SARIF 2.1.0 schema (vendored in `tests/fixtures/sarif/`), and
//! both formats carry what GitHub needs, at the library and process level.

#![expect(
    clippy::unwrap_used,
    reason = "helpers read the vendored schema and write inputs; a failure fails the test"
)]

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use stpc_compiler::diagnostics::sarif::{self, SarifOptions};
use stpc_compiler::{Code, Diagnostic, Severity, SourceMap, Span};

fn schema_validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/sarif/sarif-schema-2.1.0.json");
    let mut schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    // The official schema's `language` patterns (on `run` and
    // `toolComponent`), `^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`, have a
    // stray `]`, which the crate's ECMA-262 check of `"format": "regex"`
    // rejects while checking the schema itself. Use the intended pattern (we
    // never emit `language`), and keep format validation on for the rest.
    assert_eq!(fix_language_patterns(&mut schema), 2);
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

fn fix_language_patterns(schema: &mut Value) -> usize {
    const BROKEN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
    match schema {
        Value::Object(map) => {
            let mut n = 0;
            for (key, value) in map.iter_mut() {
                if key == "pattern" && value == BROKEN {
                    *value = Value::from("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
                    n += 1;
                } else {
                    n += fix_language_patterns(value);
                }
            }
            n
        }
        Value::Array(items) => items.iter_mut().map(fix_language_patterns).sum(),
        _ => 0,
    }
}

fn assert_valid(log: &Value) {
    let validator = schema_validator();
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "invalid SARIF:\n{}\n{log:#}",
        errors.join("\n")
    );
}

fn stpc(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stpc"))
        .args(args)
        .current_dir(dir)
        .env_remove("STPC_FORMAT")
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

#[test]
fn the_vendored_schema_is_the_official_one() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/sarif/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(
        schema["$id"],
        "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"
    );
    // The schema rejects what it should: a result without a message.
    let bad = serde_json::json!({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "stpc"}},
        "results": [{"ruleId": "E0101"}]}]});
    assert!(!schema_validator().is_valid(&bad));
}

#[test]
fn a_log_with_every_kind_of_label_is_valid() {
    let mut map = SourceMap::new();
    let a = map.add(
        "dir with space/a.stpc",
        "use std::labels;\ncontract c {\n    tools x\n}\n",
    );
    let b = map.add("/abs/root/std/labels.stpc", "lattice L { a < b }\n");
    let mut warning = Diagnostic::new(Code::E0101, "a warning-level result");
    warning.severity = Severity::Warning;
    let diagnostics = vec![
        Diagnostic::new(Code::E0102, "expected `;` after `x`")
            .primary(Span::new(a, 39, 40), "add `;` here")
            .secondary(Span::new(a, 17, 29), "")
            .secondary(Span::new(b, 0, 7), "lattice declared here")
            .note("a fact")
            .help("add `;`"),
        warning.primary(Span::new(a, 0, 3), ""),
        Diagnostic::new(Code::E0900, "no location at all"),
    ];
    let log = sarif::log(
        &map,
        &diagnostics,
        &SarifOptions {
            root: Some("/abs/root"),
            failure: None,
        },
    );
    assert_valid(&log);
    let run = &log["runs"][0];
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["E0101", "E0102", "E0900"]);
    let rule = &run["tool"]["driver"]["rules"][1];
    assert_eq!(rule["shortDescription"]["text"], "missing semicolon");
    assert!(rule["fullDescription"]["text"]
        .as_str()
        .unwrap()
        .starts_with("Every statement"));
    let first = &run["results"][0];
    assert_eq!(first["ruleIndex"], 1);
    assert_eq!(
        first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "dir%20with%20space/a.stpc"
    );
    assert_eq!(
        first["relatedLocations"][1]["physicalLocation"]["artifactLocation"]["uri"],
        "std/labels.stpc"
    );
    assert_eq!(run["results"][1]["level"], "warning");
    assert_eq!(run["results"][2]["locations"], serde_json::json!([]));
}

#[test]
fn check_with_sarif_reports_syntax_errors_with_relative_paths() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("policies")).unwrap();
    std::fs::write(
        dir.path().join("policies/bad.stpc"),
        "contract c {\n    tools web_search\n    threshold speculative 0.7;\n}\n",
    )
    .unwrap();
    let out = stpc(
        dir.path(),
        &["check", "--format", "sarif", "policies/bad.stpc"],
    );
    assert_eq!(out.status.code(), Some(1));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid(&log);
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "E0102");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "policies/bad.stpc");
    assert_eq!(location["region"]["startLine"], 2);

    // An absolute path under the working directory is made relative.
    let absolute = dir.path().join("policies/bad.stpc");
    let out = stpc(
        dir.path(),
        &["--format=sarif", "check", absolute.to_str().unwrap()],
    );
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let uri = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        ["uri"];
    assert_eq!(uri, "policies/bad.stpc");
}

#[test]
fn a_clean_check_still_writes_a_valid_empty_log() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ok.stpc"), "// nothing to report\n").unwrap();
    let out = stpc(dir.path(), &["check", "--format", "sarif", "ok.stpc"]);
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid(&log);
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn an_operational_failure_is_a_failed_invocation() {
    let dir = tempfile::tempdir().unwrap();
    let out = stpc(dir.path(), &["check", "--format", "sarif", "missing.stpc"]);
    assert_eq!(out.status.code(), Some(2));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid(&log);
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    assert!(
        invocation["toolExecutionNotifications"][0]["message"]["text"]
            .as_str()
            .unwrap()
            .contains("missing.stpc")
    );
}

#[test]
fn github_format_writes_one_escaped_annotation_per_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a,b.stpc"),
        "contract c {\n    tools web_search\n    threshold speculative 0.7;\n}\n",
    )
    .unwrap();
    let out = stpc(dir.path(), &["check", "--format", "github", "a,b.stpc"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    let line = lines[0];
    assert!(
        line.starts_with("::error file=a%2Cb.stpc,line=2,col="),
        "{line}"
    );
    assert!(line.contains(",title=E0102::"), "{line}");
    assert!(line.contains("%0Ahelp: "), "{line}");

    let out = stpc(dir.path(), &["check", "--format", "github", "missing.stpc"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("::error title=stpc::cannot read"));
}
