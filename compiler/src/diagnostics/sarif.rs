//! SARIF 2.1.0 output, for GitHub code scanning and other SARIF consumers.
//!
//! One call produces one complete log: a single run whose `tool.driver`
//! is `stpc`, with one reporting descriptor (`rules[]`) per code that occurs
//! and one `results[]` entry per diagnostic. The shape follows the OASIS
//! SARIF 2.1.0 schema, which a test validates against a vendored copy
//! (`tests/fixtures/sarif/sarif-schema-2.1.0.json`), and the subset GitHub's
//! upload accepts:
//!
//! - `results[].locations[0]` is the primary label; secondary labels become
//!   `relatedLocations` (GitHub shows them as links in the alert);
//! - regions are 1-based, columns count Unicode code points (declared with
//!   `run.columnKind`), and `endColumn` is exclusive, as SARIF specifies;
//! - artifact URIs are relative paths with `/` separators, percent-encoded
//!   (absolute paths under `root` are made relative, others become
//!   `file://` URIs).
//!
//! The log is built as a `serde_json::Value` rather than through a SARIF
//! crate (`serde-sarif`): we emit a dozen fields, and the schema test guards
//! their shape, so a typed model of the whole standard would only add
//! weight.

use super::{Code, Diagnostic, LabelStyle, Severity};
use crate::source::{SourceMap, Span};
use serde_json::{json, Map, Value};

/// The `$schema` URI written into every log.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// Options for [`log`].
#[derive(Clone, Debug, Default)]
pub struct SarifOptions<'a> {
    /// An absolute directory (normally the working directory); file names
    /// under it are written relative to it.
    pub root: Option<&'a str>,
    /// A failure with no source location, reported as a tool execution
    /// notification with `executionSuccessful: false`.
    pub failure: Option<&'a str>,
}

/// Builds a complete SARIF 2.1.0 log for one run of `stpc`.
pub fn log(map: &SourceMap, diagnostics: &[Diagnostic], options: &SarifOptions<'_>) -> Value {
    let mut codes: Vec<Code> = diagnostics.iter().map(|d| d.code).collect();
    codes.sort();
    codes.dedup();
    let rules: Vec<Value> = codes.iter().map(|c| rule(*c)).collect();
    let results: Vec<Value> = diagnostics
        .iter()
        .map(|d| {
            let index = codes.iter().position(|c| *c == d.code).unwrap_or(0);
            result(d, index, map, options)
        })
        .collect();
    let mut run = Map::new();
    run.insert(
        "tool".into(),
        json!({
            "driver": {
                "name": "stpc",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }
        }),
    );
    run.insert("columnKind".into(), json!("unicodeCodePoints"));
    run.insert("results".into(), Value::Array(results));
    if let Some(failure) = options.failure {
        run.insert(
            "invocations".into(),
            json!([{
                "executionSuccessful": false,
                "toolExecutionNotifications": [{
                    "level": "error",
                    "message": { "text": failure },
                }],
            }]),
        );
    }
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [Value::Object(run)],
    })
}

/// The log as pretty-printed JSON with a final newline.
pub fn log_string(
    map: &SourceMap,
    diagnostics: &[Diagnostic],
    options: &SarifOptions<'_>,
) -> String {
    let mut text =
        serde_json::to_string_pretty(&log(map, diagnostics, options)).unwrap_or_default();
    text.push('\n');
    text
}

/// The reporting descriptor of one code.
fn rule(code: Code) -> Value {
    let explanation = code.explanation();
    let level = match code.severity() {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    json!({
        "id": code.as_str(),
        "name": rule_name(code.title()),
        "shortDescription": { "text": code.title() },
        "fullDescription": { "text": first_paragraph(explanation) },
        "help": { "text": explanation, "markdown": explanation },
        "defaultConfiguration": { "level": level },
    })
}

/// A title as a PascalCase rule name (`missing semicolon` → `MissingSemicolon`),
/// the convention SARIF viewers display next to the id.
fn rule_name(title: &str) -> String {
    title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The first paragraph of an explanation, after its `# CODE: title` heading,
/// joined onto one line.
pub fn first_paragraph(explanation: &str) -> String {
    explanation
        .split("\n\n")
        .map(str::trim)
        .find(|p| !p.is_empty() && !p.starts_with('#'))
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// The text of a result: the message, then notes, then help.
fn message_text(d: &Diagnostic) -> String {
    let mut text = d.message.clone();
    for note in &d.notes {
        text.push_str("\nnote: ");
        text.push_str(note);
    }
    if let Some(help) = &d.help {
        text.push_str("\nhelp: ");
        text.push_str(help);
    }
    text
}

fn result(d: &Diagnostic, rule_index: usize, map: &SourceMap, options: &SarifOptions<'_>) -> Value {
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let primary = d
        .labels
        .iter()
        .position(|l| l.style == LabelStyle::Primary)
        .or(if d.labels.is_empty() { None } else { Some(0) });
    let mut locations = Vec::new();
    let mut related = Vec::new();
    for (i, label) in d.labels.iter().enumerate() {
        let Some(mut location) = physical_location(label.span, map, options) else {
            continue;
        };
        if Some(i) == primary {
            if !label.message.is_empty() {
                location.insert("message".into(), json!({ "text": label.message }));
            }
            locations.push(Value::Object(location));
        } else {
            location.insert("id".into(), json!(related.len()));
            let text = if label.message.is_empty() {
                "related location"
            } else {
                label.message.as_str()
            };
            location.insert("message".into(), json!({ "text": text }));
            related.push(Value::Object(location));
        }
    }
    let mut out = Map::new();
    out.insert("ruleId".into(), json!(d.code.as_str()));
    out.insert("ruleIndex".into(), json!(rule_index));
    out.insert("level".into(), json!(level));
    out.insert("message".into(), json!({ "text": message_text(d) }));
    out.insert("locations".into(), Value::Array(locations));
    if !related.is_empty() {
        out.insert("relatedLocations".into(), Value::Array(related));
    }
    Value::Object(out)
}

/// A location object holding `physicalLocation`, or `None` for an unknown file.
fn physical_location(
    span: Span,
    map: &SourceMap,
    options: &SarifOptions<'_>,
) -> Option<Map<String, Value>> {
    let file = map.get(span.file)?;
    let (start_line, start_column) = file.line_col(span.start as usize);
    let (end_line, end_column) = file.line_col(span.end as usize);
    let mut location = Map::new();
    location.insert(
        "physicalLocation".into(),
        json!({
            "artifactLocation": { "uri": artifact_uri(file.name(), options.root) },
            "region": {
                "startLine": start_line,
                "startColumn": start_column,
                "endLine": end_line,
                "endColumn": end_column,
            },
        }),
    );
    Some(location)
}

/// A file name as a SARIF artifact URI.
///
/// Relative names stay relative (`./` dropped, `\` turned into `/`);
/// absolute names under `root` are made relative to it; other absolute names
/// become `file://` URIs. Everything outside RFC 3986's unreserved set and
/// `/` is percent-encoded.
pub fn artifact_uri(name: &str, root: Option<&str>) -> String {
    let mut path = name.replace('\\', "/");
    if let Some(root) = root {
        let root = root.replace('\\', "/");
        let root = root.trim_end_matches('/');
        if let Some(rest) = path.strip_prefix(root).and_then(|r| r.strip_prefix('/')) {
            path = rest.to_string();
        }
    }
    while let Some(rest) = path.strip_prefix("./") {
        path = rest.to_string();
    }
    let absolute = path.starts_with('/');
    let encoded = percent_encode(&path);
    if absolute {
        format!("file://{encoded}")
    } else {
        encoded
    }
}

fn percent_encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    #[test]
    fn uris_are_relative_and_encoded() {
        assert_eq!(artifact_uri("./a b/c.stpc", None), "a%20b/c.stpc");
        assert_eq!(artifact_uri("/w/repo/x.stpc", Some("/w/repo")), "x.stpc");
        assert_eq!(artifact_uri("/w/repo/x.stpc", Some("/w/repo/")), "x.stpc");
        assert_eq!(
            artifact_uri("/elsewhere/x.stpc", Some("/w/repo")),
            "file:///elsewhere/x.stpc"
        );
        assert_eq!(artifact_uri("dir\\x.stpc", None), "dir/x.stpc");
        assert_eq!(artifact_uri("<stdin>", None), "%3Cstdin%3E");
    }

    #[test]
    fn first_paragraph_skips_the_heading() {
        let text = "# E0102: missing semicolon\n\nEvery statement\nends with `;`.\n\nMore.";
        assert_eq!(first_paragraph(text), "Every statement ends with `;`.");
    }

    #[test]
    fn rule_names_are_pascal_case() {
        assert_eq!(rule_name("missing semicolon"), "MissingSemicolon");
        assert_eq!(rule_name("invalid utf-8"), "InvalidUtf8");
    }

    #[test]
    fn results_carry_rules_regions_and_related_locations() {
        let mut map = SourceMap::new();
        let id = map.add("a.stpc", "contract c {\n    tools x\n}\n");
        let d = Diagnostic::new(Code::E0102, "expected `;` after `x`")
            .primary(Span::new(id, 23, 24), "add `;` here")
            .secondary(Span::new(id, 0, 8), "in this contract")
            .help("add `;`");
        let log = log(&map, &[d], &SarifOptions::default());
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["rules"][0]["id"], "E0102");
        let result = &run["results"][0];
        assert_eq!(result["ruleId"], "E0102");
        assert_eq!(result["level"], "error");
        assert_eq!(
            result["message"]["text"],
            "expected `;` after `x`\nhelp: add `;`"
        );
        let region = &result["locations"][0]["physicalLocation"]["region"];
        assert_eq!(
            (region["startLine"].as_u64(), region["startColumn"].as_u64()),
            (Some(2), Some(11))
        );
        assert_eq!(
            (region["endLine"].as_u64(), region["endColumn"].as_u64()),
            (Some(2), Some(12))
        );
        assert_eq!(
            result["relatedLocations"][0]["message"]["text"],
            "in this contract"
        );
    }
}
