//! Reports of `stpc test` for CI: coverage of what the test blocks
//! exercised, and JUnit XML.
//!
//! **Coverage** is per contract: which decision rules decided some test
//! event (and which never did), which cells of the compiled table the tests
//! reached, and which labeler rules (argument and destination) fired on the
//! tests' calls. `--threshold N` holds the share of decision rules fired,
//! over every contract tested, to at least `N` percent: rules are what a
//! reviewer reads, and a rule no test reaches is a rule nobody checked.
//! Cells and labeler rules are reported beside it.
//!
//! **JUnit XML** (`--format junit`) follows the schema most CI servers
//! read (Jenkins' `junit-10.xsd`, which GitLab, Jenkins, Azure Pipelines and
//! CircleCI accept): one `<testsuite>` per contract (`file::contract`), one
//! `<testcase>` per test block, a `<failure>` with expected and decided
//! action for a failing test, and for a file or contract that does not
//! compile a test case `compile` with an `<error>` holding the rendered
//! diagnostics. Coverage figures, when asked for, are the suite's
//! `<properties>`.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::time::Duration;

use serde_json::{json, Value};
use stpc_compiler::{hir, Diagnostic, SourceMap};
use stpc_runtime::table::Table;
use stpc_tables::contract_tests::TestOutcome;

/// One decision rule and whether a test reached it.
#[derive(Clone, Debug)]
pub struct RuleCoverage {
    /// 1-based, as people read rule numbers.
    pub number: usize,
    /// Its name (generated `rule#N` when unnamed).
    pub name: String,
    /// Its line in the contract's file.
    pub line: usize,
    /// Whether some test event was decided by it.
    pub fired: bool,
}

/// What one contract's tests exercised.
#[derive(Clone, Debug)]
pub struct Coverage {
    /// Every decision rule.
    pub rules: Vec<RuleCoverage>,
    /// How many cells the table has.
    pub cells: usize,
    /// The cells some test reached.
    pub cells_hit: BTreeSet<u32>,
    /// How many argument-labeler rules the table has.
    pub arg_rules: usize,
    /// The argument-labeler rules that fired on some test's call.
    pub arg_rules_hit: BTreeSet<usize>,
    /// How many destination-labeler rules the table has.
    pub dest_rules: usize,
    /// The destination-labeler rules that fired.
    pub dest_rules_hit: BTreeSet<usize>,
}

impl Coverage {
    /// The coverage of `outcomes` (the contract's tests, after `--filter`)
    /// on `contract` compiled to `table`.
    pub fn new(
        map: &SourceMap,
        contract: &hir::Contract,
        table: &Table,
        outcomes: &[&TestOutcome],
    ) -> Coverage {
        let fired: BTreeSet<u32> = outcomes.iter().filter_map(|o| o.rule_id).collect();
        let rules = contract
            .rules
            .iter()
            .enumerate()
            .map(|(i, r)| RuleCoverage {
                number: i + 1,
                name: stpc_compiler::lower::rule_name(r, i),
                line: map
                    .get(r.span.file)
                    .map_or(0, |f| f.line_col(r.span.start as usize).0),
                fired: u32::try_from(i).is_ok_and(|i| fired.contains(&i)),
            })
            .collect();
        let mut arg_rules_hit = BTreeSet::new();
        let mut dest_rules_hit = BTreeSet::new();
        for o in outcomes {
            for f in &o.labeling.fields {
                arg_rules_hit.extend(f.fired.iter().map(|r| r.rule));
                arg_rules_hit.extend(f.suppressed.iter().map(|r| r.rule));
            }
            if let Some(d) = &o.labeling.destination {
                dest_rules_hit.extend(d.fired.iter().map(|r| r.rule));
            }
        }
        Coverage {
            rules,
            cells: table.cells.len(),
            cells_hit: outcomes.iter().filter_map(|o| o.cell).collect(),
            arg_rules: table.labelers.args.rules.len(),
            arg_rules_hit,
            dest_rules: table.labelers.destination.rules.len(),
            dest_rules_hit,
        }
    }

    /// Decision rules fired, and how many there are.
    pub fn rules_fired(&self) -> (usize, usize) {
        (
            self.rules.iter().filter(|r| r.fired).count(),
            self.rules.len(),
        )
    }

    /// As JSON (`--format json`).
    pub fn json(&self, file: &str, contract: &str) -> Value {
        let (fired, total) = self.rules_fired();
        json!({"coverage": {
            "file": file,
            "contract": contract,
            "rules": {
                "fired": fired,
                "total": total,
                "percent": percent(fired, total),
                "not_fired": self.rules.iter().filter(|r| !r.fired).map(|r| json!({
                    "number": r.number, "name": r.name, "line": r.line,
                })).collect::<Vec<_>>(),
            },
            "cells": {
                "hit": self.cells_hit.len(),
                "total": self.cells,
                "percent": percent(self.cells_hit.len(), self.cells),
                "hit_ids": self.cells_hit,
            },
            "labeler_rules": {
                "args": {"fired": self.arg_rules_hit.len(), "total": self.arg_rules,
                         "percent": percent(self.arg_rules_hit.len(), self.arg_rules)},
                "destination": {"fired": self.dest_rules_hit.len(), "total": self.dest_rules,
                                "percent": percent(self.dest_rules_hit.len(), self.dest_rules)},
            },
        }})
    }

    /// As text, for the human report.
    pub fn human(&self, file: &str, contract: &str) -> String {
        let (fired, total) = self.rules_fired();
        let mut s = format!("coverage of {file}::{contract}\n");
        let _ = writeln!(
            s,
            "  rules           {fired}/{total} ({})",
            shown(percent(fired, total))
        );
        for r in self.rules.iter().filter(|r| !r.fired) {
            let _ = writeln!(
                s,
                "    not fired: rule {} `{}` ({file}:{})",
                r.number, r.name, r.line
            );
        }
        let _ = writeln!(
            s,
            "  cells           {}/{} ({})",
            self.cells_hit.len(),
            self.cells,
            shown(percent(self.cells_hit.len(), self.cells))
        );
        let _ = writeln!(
            s,
            "  labeler rules   args {}/{} ({}), destination {}/{} ({})",
            self.arg_rules_hit.len(),
            self.arg_rules,
            shown(percent(self.arg_rules_hit.len(), self.arg_rules)),
            self.dest_rules_hit.len(),
            self.dest_rules,
            shown(percent(self.dest_rules_hit.len(), self.dest_rules))
        );
        s
    }

    /// The suite's `<properties>` in JUnit XML.
    fn properties(&self) -> Vec<(&'static str, String)> {
        let (fired, total) = self.rules_fired();
        vec![
            ("coverage.rules", format!("{fired}/{total}")),
            (
                "coverage.cells",
                format!("{}/{}", self.cells_hit.len(), self.cells),
            ),
            (
                "coverage.labeler_rules.args",
                format!("{}/{}", self.arg_rules_hit.len(), self.arg_rules),
            ),
            (
                "coverage.labeler_rules.destination",
                format!("{}/{}", self.dest_rules_hit.len(), self.dest_rules),
            ),
        ]
    }
}

/// `part` of `whole` in percent, rounded to 0.1; 100 for an empty whole
/// (nothing to cover is fully covered).
pub fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        return 100.0;
    }
    #[allow(clippy::cast_precision_loss, reason = "counts far below 2^52")]
    let p = part as f64 * 100.0 / whole as f64;
    (p * 10.0).round() / 10.0
}

fn shown(p: f64) -> String {
    format!("{p:.1} %")
}

/// One contract's run, for the JUnit report.
pub struct Suite<'a> {
    /// The file as given.
    pub file: &'a str,
    /// The contract.
    pub contract: &'a str,
    /// Its tests' results, with the failure text of each failing one.
    pub cases: Vec<Case>,
    /// How long compiling and running its tests took.
    pub time: Duration,
    /// Its coverage, when asked for.
    pub coverage: Option<&'a Coverage>,
}

/// One test case.
pub struct Case {
    /// The test's name.
    pub name: String,
    /// `None` when it passed; else the one-line message and the details.
    pub failure: Option<(String, String)>,
}

/// A file or contract that did not compile.
pub struct Broken {
    /// The file as given.
    pub file: String,
    /// The contract, when the file parsed and one contract failed.
    pub contract: Option<String>,
    /// Its error diagnostics.
    pub diagnostics: Vec<Diagnostic>,
}

/// Text as XML character data or an attribute value: the five special
/// characters escaped, and the characters XML 1.0 cannot carry at all (most
/// C0 controls) replaced by U+FFFD. Written here rather than with an XML
/// crate: this is the only XML stpc writes, and the writer is these few
/// lines plus `format!`.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

fn seconds(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

/// The JUnit XML report. `threshold` is the message of a coverage
/// threshold the run fell below: it becomes a failing `threshold` case of
/// a `coverage` suite, so the report is not green when the run is not.
pub fn junit(
    map: &SourceMap,
    suites: &[Suite<'_>],
    broken: &[Broken],
    threshold: Option<&str>,
    total: Duration,
) -> String {
    let extra = usize::from(threshold.is_some());
    let tests: usize = suites.iter().map(|s| s.cases.len()).sum::<usize>() + broken.len() + extra;
    let failures: usize = suites
        .iter()
        .map(|s| s.cases.iter().filter(|c| c.failure.is_some()).count())
        .sum::<usize>()
        + extra;
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"stpc test\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{}\" time=\"{}\">",
        broken.len(),
        seconds(total)
    );
    for (id, s) in suites.iter().enumerate() {
        let failed = s.cases.iter().filter(|c| c.failure.is_some()).count();
        let name = format!("{}::{}", s.file, s.contract);
        let _ = writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failed}\" errors=\"0\" skipped=\"0\" time=\"{}\" id=\"{id}\" package=\"{}\" file=\"{}\">",
            xml(&name),
            s.cases.len(),
            seconds(s.time),
            xml(s.file),
            xml(s.file)
        );
        if let Some(c) = s.coverage {
            x.push_str("    <properties>\n");
            for (k, v) in c.properties() {
                let _ = writeln!(x, "      <property name=\"{k}\" value=\"{}\"/>", xml(&v));
            }
            x.push_str("    </properties>\n");
        }
        for case in &s.cases {
            let open = format!(
                "    <testcase name=\"{}\" classname=\"{}\"",
                xml(&case.name),
                xml(&name)
            );
            match &case.failure {
                None => {
                    let _ = writeln!(x, "{open}/>");
                }
                Some((message, details)) => {
                    let _ = writeln!(
                        x,
                        "{open}>\n      <failure type=\"stpc.test.mismatch\" message=\"{}\">{}</failure>\n    </testcase>",
                        xml(message),
                        xml(details)
                    );
                }
            }
        }
        x.push_str("  </testsuite>\n");
    }
    for (i, b) in broken.iter().enumerate() {
        let name = match &b.contract {
            Some(c) => format!("{}::{c}", b.file),
            None => b.file.clone(),
        };
        let errors = b.diagnostics.len();
        let rendered = stpc_compiler::diagnostics::render::human_string(map, &b.diagnostics);
        let _ = writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" id=\"{}\" package=\"{}\" file=\"{}\">\n    <testcase name=\"compile\" classname=\"{}\">\n      <error type=\"stpc.compile\" message=\"{errors} error(s): the contract does not compile\">{}</error>\n    </testcase>\n  </testsuite>",
            xml(&name),
            suites.len() + i,
            xml(&b.file),
            xml(&b.file),
            xml(&name),
            xml(&rendered)
        );
    }
    if let Some(message) = threshold {
        let _ = writeln!(
            x,
            "  <testsuite name=\"coverage\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" id=\"{}\">\n    <testcase name=\"threshold\" classname=\"coverage\">\n      <failure type=\"stpc.coverage.threshold\" message=\"{}\"/>\n    </testcase>\n  </testsuite>",
            suites.len() + broken.len(),
            xml(message)
        );
    }
    x.push_str("</testsuites>\n");
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escapes_specials_and_replaces_what_xml_cannot_carry() {
        assert_eq!(xml("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(xml("tab\tline\nnul\u{0}"), "tab\tline\nnul\u{FFFD}");
    }

    #[test]
    fn percent_rounds_and_treats_nothing_as_covered() {
        assert!((percent(2, 3) - 66.7).abs() < 1e-9);
        assert!((percent(0, 0) - 100.0).abs() < 1e-9);
        assert!((percent(0, 4)).abs() < 1e-9);
    }
}
