//! Rendering diagnostics: human text and JSON (the miette adapter is in
//! `miette.rs`, behind the `miette` feature).
//!
//! Human output is rustc-style text from codespan-reporting; `help` becomes
//! a final note starting with `help:`. JSON output is our own schema (stable,
//! documented in the book), never codespan's or miette's serialisation:
//!
//! ```json
//! {"code":"E0102","severity":"error","message":"...","help":"...","notes":[],
//!  "labels":[{"style":"primary","file":"a.stpc","start":10,"end":11,
//!             "line":2,"column":5,"end_line":2,"end_column":6,"message":"..."}]}
//! ```

use super::{Diagnostic, LabelStyle, Severity};
use crate::source::{FileId, SourceMap};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::{self, termcolor::WriteColor};
use serde::Serialize;
use std::ops::Range;

/// Lets codespan-reporting read our [`SourceMap`] directly.
struct CsFiles<'a>(&'a SourceMap);

impl<'a> Files<'a> for CsFiles<'a> {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.0
            .get(id)
            .map(|f| f.name())
            .ok_or(FilesError::FileMissing)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.0
            .get(id)
            .map(|f| f.text())
            .ok_or(FilesError::FileMissing)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, FilesError> {
        let file = self.0.get(id).ok_or(FilesError::FileMissing)?;
        Ok(file.line_col(byte_index).0 - 1)
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, FilesError> {
        let file = self.0.get(id).ok_or(FilesError::FileMissing)?;
        let text = file.text();
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let start = *starts.get(line_index).ok_or(FilesError::LineTooLarge {
            given: line_index,
            max: starts.len().saturating_sub(1),
        })?;
        let end = starts.get(line_index + 1).copied().unwrap_or(text.len());
        Ok(start..end)
    }
}

fn to_codespan(d: &Diagnostic, map: &SourceMap) -> cs::Diagnostic<FileId> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
    };
    let labels = d
        .labels
        .iter()
        .filter(|l| map.get(l.span.file).is_some())
        .map(|l| {
            let style = match l.style {
                LabelStyle::Primary => cs::LabelStyle::Primary,
                LabelStyle::Secondary => cs::LabelStyle::Secondary,
            };
            // Clamp to the file so a bad span can never make rendering fail.
            let len = map.get(l.span.file).map_or(0, |f| f.text().len());
            let start = (l.span.start as usize).min(len);
            let end = (l.span.end as usize).clamp(start, len);
            cs::Label::new(style, l.span.file, start..end).with_message(l.message.clone())
        })
        .collect();
    let mut notes = d.notes.clone();
    if let Some(help) = &d.help {
        notes.push(format!("help: {help}"));
    }
    cs::Diagnostic::new(severity)
        .with_code(d.code.as_str())
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(notes)
}

/// Writes diagnostics as human text to a (possibly coloured) writer.
pub fn human(
    out: &mut dyn WriteColor,
    map: &SourceMap,
    diagnostics: &[Diagnostic],
) -> std::io::Result<()> {
    let config = term::Config::default();
    let files = CsFiles(map);
    for d in diagnostics {
        term::emit(out, &config, &files, &to_codespan(d, map)).map_err(|e| match e {
            FilesError::Io(io) => io,
            other => std::io::Error::other(other.to_string()),
        })?;
    }
    Ok(())
}

/// Renders diagnostics as colourless human text (snapshots, tests).
pub fn human_string(map: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    let mut buf = term::termcolor::NoColor::new(Vec::new());
    // Writing into a Vec cannot fail; a failure would only truncate output.
    let _ = human(&mut buf, map, diagnostics);
    String::from_utf8_lossy(&buf.into_inner()).into_owned()
}

/// One label in the JSON format.
#[derive(Serialize)]
pub struct JsonLabel {
    /// `primary` or `secondary`.
    pub style: LabelStyle,
    /// The file's display name.
    pub file: String,
    /// Byte offset of the start.
    pub start: u32,
    /// Byte offset one past the end.
    pub end: u32,
    /// 1-based line of the start.
    pub line: usize,
    /// 1-based column (characters) of the start.
    pub column: usize,
    /// 1-based line of the end.
    pub end_line: usize,
    /// 1-based column of the end.
    pub end_column: usize,
    /// The label's text.
    pub message: String,
}

/// One diagnostic in the JSON format.
#[derive(Serialize)]
pub struct JsonDiagnostic {
    /// The stable code, such as `E0102`.
    pub code: String,
    /// `error` or `warning`.
    pub severity: Severity,
    /// The one-line message.
    pub message: String,
    /// The fix, if one is known.
    pub help: Option<String>,
    /// Extra facts.
    pub notes: Vec<String>,
    /// Locations; the first primary label is the diagnostic's location.
    pub labels: Vec<JsonLabel>,
    /// Machine-applicable repairs (omitted when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<JsonFix>,
}

/// One repair in the JSON format: replace `start..end` of `file`.
#[derive(Serialize)]
pub struct JsonFix {
    /// The file's display name.
    pub file: String,
    /// Byte offset of the start.
    pub start: u32,
    /// Byte offset one past the end.
    pub end: u32,
    /// The replacement text.
    pub replacement: String,
}

/// Converts a diagnostic to the documented JSON shape.
pub fn to_json(d: &Diagnostic, map: &SourceMap) -> JsonDiagnostic {
    let labels = d
        .labels
        .iter()
        .filter_map(|l| {
            let file = map.get(l.span.file)?;
            let (line, column) = file.line_col(l.span.start as usize);
            let (end_line, end_column) = file.line_col(l.span.end as usize);
            Some(JsonLabel {
                style: l.style,
                file: file.name().to_string(),
                start: l.span.start,
                end: l.span.end,
                line,
                column,
                end_line,
                end_column,
                message: l.message.clone(),
            })
        })
        .collect();
    JsonDiagnostic {
        code: d.code.as_str().to_string(),
        severity: d.severity,
        message: d.message.clone(),
        help: d.help.clone(),
        notes: d.notes.clone(),
        labels,
        fixes: d
            .fixes
            .iter()
            .filter_map(|f| {
                Some(JsonFix {
                    file: map.get(f.span.file)?.name().to_string(),
                    start: f.span.start,
                    end: f.span.end,
                    replacement: f.replacement.clone(),
                })
            })
            .collect(),
    }
}

/// One JSON object per line, one line per diagnostic.
pub fn json_lines(map: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        if let Ok(line) = serde_json::to_string(&to_json(d, map)) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}
