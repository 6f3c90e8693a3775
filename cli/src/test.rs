//! `stpc test PATH...`: compile every contract in the given files (and in
//! the `*.stpc` files under the given directories) and run its `test` blocks
//! against the compiled table, reporting each test with the cell and rule
//! that decided it.
//!
//! Exit code: 0 when every test passes, 1 when a test fails or a contract
//! does not compile, 2 on an I/O failure. `--format json` prints one object
//! per test and a final summary; `sarif` and `github` report failing tests
//! (with the test block's location) alongside any compile diagnostics.

use serde_json::{json, Value};
use stpc_compiler::diagnostics::{github, sarif};
use stpc_compiler::{CompileOptions, Diagnostic, Diagnostics, SourceMap, Span};
use stpc_tables::contract_tests::{run_tests, TestOutcome};

use crate::test_report::{self, Broken, Case, Coverage, Suite};
use crate::{output, Format, Global, Outcome};

/// Arguments of `stpc test`.
#[derive(clap::Args, Debug)]
pub struct TestArgs {
    /// Contract files, or directories searched for `*.stpc`; `-` reads
    /// standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
    /// Run only the tests whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
    /// Report which decision rules, table cells and labeler rules the tests
    /// exercised.
    #[arg(long)]
    pub coverage: bool,
    /// Fail (exit 1) when the tests fire fewer than this percentage of the
    /// decision rules, over every contract tested (implies `--coverage`).
    #[arg(long, value_name = "PERCENT", value_parser = parse_threshold)]
    pub threshold: Option<f64>,
}

fn parse_threshold(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .trim_end_matches('%')
        .parse()
        .map_err(|_| format!("`{s}` is not a percentage"))?;
    if (0.0..=100.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("`{s}` is not between 0 and 100"))
    }
}

/// One test's result with where it lives.
struct Ran {
    file: String,
    contract: String,
    outcome: TestOutcome,
}

/// One contract's tests: where its results are in `ran`, its coverage.
struct Tested {
    file: String,
    contract: String,
    range: std::ops::Range<usize>,
    time: std::time::Duration,
    coverage: Coverage,
}

fn expected_text(o: &TestOutcome) -> String {
    match &o.expected_rule {
        Some((id, name)) => format!(
            "{} by {}",
            o.expected.as_str(),
            crate::output::rule_text(Some(*id), name)
        ),
        None => o.expected.as_str().to_owned(),
    }
}

/// What the runtime did: the action, the rule and cell, and the runtime's
/// reason when it is not the cell's own action (`rewrite_insufficient: q`).
fn got_text(o: &TestOutcome) -> String {
    let mut cell = o.cell.map_or_else(
        || "no cell: failed closed".to_owned(),
        |c| format!("cell {c}"),
    );
    if o.reason != "rule" {
        cell.push_str(", ");
        cell.push_str(&o.reason);
        if !o.reason_fields.is_empty() {
            cell.push_str(": ");
            cell.push_str(&o.reason_fields.join(", "));
        }
    }
    format!(
        "{} by {} ({cell})",
        o.action.as_str(),
        crate::output::rule_text(o.rule_id, &o.rule_name)
    )
}

fn labels_text(o: &TestOutcome) -> String {
    let mut parts = vec![
        format!("args {}", o.labels.args),
        format!("destination {}", o.labels.destination),
    ];
    parts.extend(o.labels.fields.iter().map(|(f, l)| format!("{f}: {l}")));
    parts.join(", ")
}

fn line_of(map: &SourceMap, span: Span) -> (usize, usize) {
    map.get(span.file)
        .map_or((1, 1), |f| f.line_col(span.start as usize))
}

fn json_of(map: &SourceMap, r: &Ran) -> Value {
    let o = &r.outcome;
    let (line, column) = line_of(map, o.span);
    json!({
        "file": r.file,
        "line": line,
        "column": column,
        "contract": r.contract,
        "test": o.name,
        "passed": o.passed,
        "expected": {
            "action": o.expected.as_str(),
            "rule_id": o.expected_rule.as_ref().map(|(id, _)| *id),
            "rule_name": o.expected_rule.as_ref().map(|(_, n)| n.clone()),
        },
        "got": {
            "action": o.action.as_str(),
            "rule_id": o.rule_id,
            "rule_name": o.rule_name,
            "cell": o.cell,
            "reason": o.reason,
            "sent": o.sent,
        },
        "mismatches": o.mismatches,
        "labels": o.labels,
        "labeling": if o.passed { Value::Null } else { json!(o.labeling) },
    })
}

fn failure_message(r: &Ran) -> String {
    let mut s = format!(
        "test \"{}\" of contract `{}` failed: expected {}, got {}",
        r.outcome.name,
        r.contract,
        expected_text(&r.outcome),
        got_text(&r.outcome)
    );
    for m in &r.outcome.mismatches {
        s.push_str("; ");
        s.push_str(m);
    }
    s
}

fn github_line(map: &SourceMap, r: &Ran) -> String {
    let (line, col) = line_of(map, r.outcome.span);
    format!(
        "::error file={},line={line},col={col},title=stpc test::{}",
        github::escape_property(&r.file),
        github::escape_data(&failure_message(r))
    )
}

fn sarif_log(map: &SourceMap, diagnostics: &[Diagnostic], failed: &[&Ran]) -> String {
    let root = std::env::current_dir()
        .ok()
        .map(|d| d.to_string_lossy().into_owned());
    let options = sarif::SarifOptions {
        root: root.as_deref(),
        failure: None,
    };
    let mut log = sarif::log(map, diagnostics, &options);
    if let Some(run) = log.get_mut("runs").and_then(|r| r.get_mut(0)) {
        if !failed.is_empty() {
            if let Some(Value::Array(rules)) = run.pointer_mut("/tool/driver/rules") {
                rules.push(json!({
                    "id": "stpc-test",
                    "name": "ContractTestFailed",
                    "shortDescription": {"text": "a contract test failed"},
                    "defaultConfiguration": {"level": "error"},
                }));
            }
        }
        let index = run
            .pointer("/tool/driver/rules")
            .and_then(Value::as_array)
            .map_or(0, |r| r.len().saturating_sub(1));
        if let Some(Value::Array(results)) = run.get_mut("results") {
            for r in failed {
                let (line, column) = line_of(map, r.outcome.span);
                results.push(json!({
                    "ruleId": "stpc-test",
                    "ruleIndex": index,
                    "level": "error",
                    "message": {"text": failure_message(r)},
                    "locations": [{"physicalLocation": {
                        "artifactLocation": {"uri": sarif::artifact_uri(&r.file, root.as_deref())},
                        "region": {"startLine": line, "startColumn": column},
                    }}],
                }));
            }
        }
    }
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    text
}

/// Runs `stpc test`.
pub fn run(global: &Global, args: TestArgs) -> Outcome {
    let files = match crate::inputs::contract_files(&args.paths) {
        Ok(f) => f,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let mut map = SourceMap::new();
    let mut diagnostics = Diagnostics::new();
    let started = std::time::Instant::now();
    let mut ran: Vec<Ran> = Vec::new();
    let mut tested: Vec<Tested> = Vec::new();
    let mut broken_report: Vec<Broken> = Vec::new();
    let mut broken = 0usize;
    let mut loader = |p: &str| std::fs::read_to_string(p).ok();
    for path in &files {
        let mut file_diagnostics = Diagnostics::new();
        let root = match output::read_source(path, &mut map, &mut file_diagnostics) {
            Ok(Some(id)) => id,
            Ok(None) => {
                broken += 1;
                broken_report.push(Broken {
                    file: path.clone(),
                    contract: None,
                    diagnostics: file_diagnostics.sorted(),
                });
                diagnostics.extend(file_diagnostics.sorted());
                continue;
            }
            Err(message) => {
                output::fail(global, &message);
                return Outcome::Failure;
            }
        };
        let program = stpc_compiler::check(&mut map, &[root], &mut loader, &mut file_diagnostics);
        if file_diagnostics.has_errors() {
            broken += 1;
            broken_report.push(Broken {
                file: path.clone(),
                contract: None,
                diagnostics: errors_of(&file_diagnostics),
            });
            diagnostics.extend(file_diagnostics.sorted());
            continue;
        }
        let name = map
            .get(root)
            .map_or_else(|| path.clone(), |f| f.name().to_owned());
        for contract in program.contracts.iter().filter(|c| c.span.file == root) {
            let options = CompileOptions {
                contract: Some(contract.name.clone()),
                params: Vec::new(),
            };
            let contract_started = std::time::Instant::now();
            let mut cd = Diagnostics::new();
            let table = stpc_compiler::compile_program(&program, &[root], &options, &mut cd);
            let errors = cd.has_errors();
            let table = match table {
                Some(t) if !errors => t,
                _ => {
                    broken += 1;
                    broken_report.push(Broken {
                        file: name.clone(),
                        contract: Some(contract.name.clone()),
                        diagnostics: errors_of(&cd),
                    });
                    diagnostics.extend(errors_of(&cd));
                    continue;
                }
            };
            // What coverage counts against, before the tests take the table.
            let shape = table.clone();
            match run_tests(&program, contract, table) {
                Ok(outcomes) => {
                    let start = ran.len();
                    ran.extend(
                        outcomes
                            .into_iter()
                            .filter(|o| args.filter.as_deref().is_none_or(|f| o.name.contains(f)))
                            .map(|outcome| Ran {
                                file: name.clone(),
                                contract: contract.name.clone(),
                                outcome,
                            }),
                    );
                    let mine: Vec<&TestOutcome> = ran
                        .get(start..)
                        .unwrap_or_default()
                        .iter()
                        .map(|r| &r.outcome)
                        .collect();
                    tested.push(Tested {
                        file: name.clone(),
                        contract: contract.name.clone(),
                        range: start..ran.len(),
                        time: contract_started.elapsed(),
                        coverage: Coverage::new(&map, contract, &shape, &mine),
                    });
                }
                Err(e) => {
                    output::fail(
                        global,
                        &format!("cannot load the table of `{}`: {e}", contract.name),
                    );
                    return Outcome::Failure;
                }
            }
        }
    }
    let failed: Vec<&Ran> = ran.iter().filter(|r| !r.outcome.passed).collect();
    let passed = ran.len() - failed.len();
    let sorted = diagnostics.sorted();
    let coverage = args.coverage || args.threshold.is_some();
    let (fired, total) = tested.iter().fold((0, 0), |(f, t), x| {
        let (a, b) = x.coverage.rules_fired();
        (f + a, t + b)
    });
    let rule_percent = test_report::percent(fired, total);
    // Compared unrounded: 79.96 % is below a threshold of 80.
    #[allow(clippy::cast_precision_loss, reason = "counts far below 2^52")]
    let below = args
        .threshold
        .filter(|t| (fired as f64) * 100.0 < t * (total as f64));
    match global.format {
        Format::Human => {
            output::emit(global, &map, &sorted);
            print_human(&map, &ran, &failed, passed, broken);
            if coverage {
                for t in &tested {
                    crate::out!("\n{}", t.coverage.human(&t.file, &t.contract));
                }
                crate::outln!(
                    "\ncoverage: {fired}/{total} decision rules fired ({rule_percent:.1} %)"
                );
            }
            if let Some(t) = below {
                crate::outln!("coverage {rule_percent:.1} % is below the threshold of {t} %");
            }
        }
        Format::Json => {
            output::emit(global, &map, &sorted);
            for r in &ran {
                crate::outln!("{}", json_of(&map, r));
            }
            if coverage {
                for t in &tested {
                    crate::outln!("{}", t.coverage.json(&t.file, &t.contract));
                }
            }
            let mut summary = serde_json::Map::new();
            summary.insert("passed".into(), json!(passed));
            summary.insert("failed".into(), json!(failed.len()));
            summary.insert("broken_files".into(), json!(broken));
            if coverage {
                summary.insert(
                    "coverage".into(),
                    json!({
                        "rules_fired": fired, "rules": total, "percent": rule_percent,
                        "threshold": args.threshold, "below_threshold": below.is_some(),
                    }),
                );
            }
            crate::outln!("{}", json!({ "summary": summary }));
        }
        Format::Junit => {
            output::emit(global, &map, &sorted);
            let suites: Vec<Suite<'_>> = tested
                .iter()
                .map(|t| Suite {
                    file: &t.file,
                    contract: &t.contract,
                    cases: ran
                        .get(t.range.clone())
                        .unwrap_or_default()
                        .iter()
                        .map(|r| Case {
                            name: r.outcome.name.clone(),
                            failure: (!r.outcome.passed)
                                .then(|| (failure_message(r), failure_details(&map, r))),
                        })
                        .collect(),
                    time: t.time,
                    coverage: coverage.then_some(&t.coverage),
                })
                .collect();
            let threshold = below.map(|t| {
                format!("coverage {rule_percent:.1} % ({fired}/{total} decision rules fired) is below the threshold of {t} %")
            });
            crate::out!(
                "{}",
                test_report::junit(
                    &map,
                    &suites,
                    &broken_report,
                    threshold.as_deref(),
                    started.elapsed()
                )
            );
            if let Some(t) = below {
                crate::errln!("coverage {rule_percent:.1} % is below the threshold of {t} %");
            }
        }
        Format::Github => {
            output::emit(global, &map, &sorted);
            for r in &failed {
                crate::outln!("{}", github_line(&map, r));
            }
            if let Some(t) = below {
                crate::outln!(
                    "::error title=stpc test coverage::{}",
                    github::escape_data(&format!(
                        "coverage {rule_percent:.1} % ({fired}/{total} decision rules fired) is below the threshold of {t} %"
                    ))
                );
            }
        }
        Format::Sarif => {
            crate::out!("{}", sarif_log(&map, &sorted, &failed));
            if let Some(t) = below {
                crate::errln!("coverage {rule_percent:.1} % is below the threshold of {t} %");
            }
        }
    }
    if failed.is_empty() && broken == 0 && below.is_none() {
        Outcome::Success
    } else {
        Outcome::Problems
    }
}

/// The error diagnostics of a failed compile.
fn errors_of(d: &Diagnostics) -> Vec<Diagnostic> {
    d.sorted()
        .into_iter()
        .filter(|d| d.severity == stpc_compiler::Severity::Error)
        .collect()
}

/// A failing test's details for JUnit: where, expected, got, labels, and
/// why the labelers labeled as they did (never the argument text).
fn failure_details(map: &SourceMap, r: &Ran) -> String {
    let (line, col) = line_of(map, r.outcome.span);
    let mut s = format!(
        "{}:{line}:{col}\nexpected: {}\ngot:      {}\nlabels:   {}\n",
        r.file,
        expected_text(&r.outcome),
        got_text(&r.outcome),
        labels_text(&r.outcome)
    );
    for m in &r.outcome.mismatches {
        s.push_str(&format!("mismatch: {m}\n"));
    }
    s.push_str(&crate::why::labeling(&r.outcome.labeling));
    s
}

fn print_human(map: &SourceMap, ran: &[Ran], failed: &[&Ran], passed: usize, broken: usize) {
    for r in ran {
        let verdict = if r.outcome.passed { "ok" } else { "FAILED" };
        crate::outln!(
            "test {}::{} \"{}\" ... {verdict} ({})",
            r.file,
            r.contract,
            r.outcome.name,
            got_text(&r.outcome)
        );
    }
    if !failed.is_empty() {
        crate::outln!("\nfailures:");
        for r in failed {
            let (line, col) = line_of(map, r.outcome.span);
            crate::outln!(
                "\n---- {}:{line}:{col} {} \"{}\" ----",
                r.file,
                r.contract,
                r.outcome.name
            );
            crate::outln!("  expected: {}", expected_text(&r.outcome));
            crate::outln!("  got:      {}", got_text(&r.outcome));
            crate::outln!("  labels:   {}", labels_text(&r.outcome));
            for m in &r.outcome.mismatches {
                crate::outln!("  mismatch: {m}");
            }
            for line in crate::why::labeling(&r.outcome.labeling).lines() {
                crate::outln!("  {line}");
            }
        }
    }
    let status = if failed.is_empty() && broken == 0 {
        "ok"
    } else {
        "FAILED"
    };
    let broken = if broken > 0 {
        format!("; {broken} file(s) or contract(s) did not compile")
    } else {
        String::new()
    };
    crate::outln!(
        "\ntest result: {status}. {passed} passed; {} failed{broken}",
        failed.len()
    );
}
