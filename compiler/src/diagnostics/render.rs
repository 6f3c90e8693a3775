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

/// A line longer than this is shown clipped to the labelled columns (with
/// some context), so a diagnostic on a minified or hostile line of 60,000
/// characters stays one readable line and costs what a short one does
/// (codespan-reporting writes every character of every labelled line).
const LONG_LINE: usize = 400;
/// Bytes shown either side of a label on a clipped line.
const CONTEXT: usize = 60;

/// The window shown of a long line: its file, 0-based line, and bytes.
type Clip = (FileId, usize, Range<usize>);

/// Lets codespan-reporting read our [`SourceMap`] directly, one diagnostic
/// at a time: `clips` are the windows of its long lines.
struct CsFiles<'a> {
    map: &'a SourceMap,
    /// File, 0-based line, and the byte window shown of it.
    clips: Vec<Clip>,
}

impl CsFiles<'_> {
    fn clip(&self, id: FileId, line: usize) -> Option<&Range<usize>> {
        self.clips
            .iter()
            .find(|(f, l, _)| *f == id && *l == line)
            .map(|(_, _, r)| r)
    }
}

impl<'a> Files<'a> for CsFiles<'a> {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.map
            .get(id)
            .map(|f| f.name())
            .ok_or(FilesError::FileMissing)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.map
            .get(id)
            .map(|f| f.text())
            .ok_or(FilesError::FileMissing)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, FilesError> {
        let file = self.map.get(id).ok_or(FilesError::FileMissing)?;
        Ok(file.line_col(byte_index).0 - 1)
    }

    fn column_number(
        &'a self,
        id: FileId,
        _line_index: usize,
        byte_index: usize,
    ) -> Result<usize, FilesError> {
        // The real column, whatever window of the line is shown.
        let file = self.map.get(id).ok_or(FilesError::FileMissing)?;
        Ok(file.line_col(byte_index).1)
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, FilesError> {
        if let Some(r) = self.clip(id, line_index) {
            return Ok(r.clone());
        }
        let file = self.map.get(id).ok_or(FilesError::FileMissing)?;
        let whole = file
            .line_range(line_index)
            .ok_or(FilesError::LineTooLarge {
                given: line_index,
                max: file.line_count().saturating_sub(1),
            })?;
        // A long line no label is on, shown as context between two that
        // are (a 51,000-character line between a `(` and its `;` was
        // written in full for each of 100 diagnostics): its beginning.
        if whole.len() > LONG_LINE {
            let text = file.text();
            let mut end = whole.start + 2 * CONTEXT;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            return Ok(whole.start..end);
        }
        Ok(whole)
    }
}

/// The windows of `labels`' long lines, and the labels clamped into them.
///
/// A label whose window cannot join the windows already chosen on its line
/// (they would span more than [`LONG_LINE`]) is not drawn: its index is
/// returned, and its message becomes a note with its position.
fn clip_long_lines(
    map: &SourceMap,
    labels: &mut [(FileId, Range<usize>)],
) -> (Vec<Clip>, Vec<usize>) {
    let mut clips: Vec<Clip> = Vec::new();
    let mut unshown = Vec::new();
    for (index, (file_id, range)) in labels.iter().enumerate() {
        let Some(file) = map.get(*file_id) else {
            continue;
        };
        let text = file.text();
        let start_line = file.line_col(range.start).0 - 1;
        let end_line = file.line_col(range.end).0 - 1;
        // A label on one line gets one window, from its start; a label over
        // several lines, one on its first line and one on its last.
        let ends = if start_line == end_line {
            vec![(true, start_line)]
        } else {
            vec![(true, start_line), (false, end_line)]
        };
        let mut wanted = Vec::new();
        for (at_start, line) in ends {
            let Some(whole) = file.line_range(line) else {
                continue;
            };
            if whole.len() <= LONG_LINE {
                continue;
            }
            // The label's part of this line, itself bounded.
            let mut part = range.start.max(whole.start)..range.end.min(whole.end);
            let most = LONG_LINE - 2 * CONTEXT;
            if part.len() > most {
                part = if at_start {
                    part.start..part.start + most
                } else {
                    part.end - most..part.end
                };
            }
            let mut start = part.start.saturating_sub(CONTEXT).max(whole.start);
            let mut end = (part.end + CONTEXT).min(whole.end);
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            while !text.is_char_boundary(end) {
                end += 1;
            }
            let merged = match clips.iter().find(|(f, l, _)| *f == *file_id && *l == line) {
                Some((_, _, r)) => r.start.min(start)..r.end.max(end),
                None => start..end,
            };
            wanted.push((line, merged));
        }
        if wanted.iter().any(|(_, r)| r.len() > LONG_LINE) {
            unshown.push(index);
            continue;
        }
        for (line, merged) in wanted {
            match clips
                .iter_mut()
                .find(|(f, l, _)| *f == *file_id && *l == line)
            {
                Some((_, _, r)) => *r = merged,
                None => clips.push((*file_id, line, merged)),
            }
        }
    }
    for (file_id, range) in labels.iter_mut() {
        let Some(file) = map.get(*file_id) else {
            continue;
        };
        let line_of = |o: usize| file.line_col(o).0 - 1;
        let window = |line: usize| {
            clips
                .iter()
                .find(|(f, l, _)| *f == *file_id && *l == line)
                .map(|(_, _, r)| r.clone())
        };
        if let Some(w) = window(line_of(range.start)) {
            range.start = range.start.clamp(w.start, w.end);
        }
        if let Some(w) = window(line_of(range.end)) {
            range.end = range.end.clamp(w.start, w.end);
        }
        range.end = range.end.max(range.start);
    }
    (clips, unshown)
}

fn to_codespan<'a>(d: &Diagnostic, map: &'a SourceMap) -> (cs::Diagnostic<FileId>, CsFiles<'a>) {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
    };
    let shown: Vec<_> = d
        .labels
        .iter()
        .filter(|l| map.get(l.span.file).is_some())
        .collect();
    let mut ranges: Vec<(FileId, Range<usize>)> = shown
        .iter()
        .map(|l| {
            // Clamp to the file so a bad span can never make rendering fail.
            let len = map.get(l.span.file).map_or(0, |f| f.text().len());
            let start = (l.span.start as usize).min(len);
            let end = (l.span.end as usize).clamp(start, len);
            (l.span.file, start..end)
        })
        .collect();
    let positions: Vec<(usize, usize)> = ranges
        .iter()
        .map(|(f, r)| map.get(*f).map_or((0, 0), |f| f.line_col(r.start)))
        .collect();
    let (clips, unshown) = clip_long_lines(map, &mut ranges);
    let mut notes = Vec::new();
    let labels = shown
        .iter()
        .zip(ranges)
        .enumerate()
        .filter_map(|(i, (l, r))| {
            if unshown.contains(&i) {
                let (line, column) = positions.get(i).copied().unwrap_or((0, 0));
                notes.push(format!("{} (at {line}:{column})", l.message));
                None
            } else {
                Some((l, r))
            }
        })
        .map(|(l, (file, range))| {
            let style = match l.style {
                LabelStyle::Primary => cs::LabelStyle::Primary,
                LabelStyle::Secondary => cs::LabelStyle::Secondary,
            };
            cs::Label::new(style, file, range).with_message(l.message.clone())
        })
        .collect();
    notes.extend(d.notes.iter().cloned());
    if let Some(help) = &d.help {
        notes.push(format!("help: {help}"));
    }
    let diagnostic = cs::Diagnostic::new(severity)
        .with_code(d.code.as_str())
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(notes);
    (diagnostic, CsFiles { map, clips })
}

/// Writes diagnostics as human text to a (possibly coloured) writer.
pub fn human(
    out: &mut dyn WriteColor,
    map: &SourceMap,
    diagnostics: &[Diagnostic],
) -> std::io::Result<()> {
    let config = term::Config::default();
    for d in diagnostics {
        let (diagnostic, files) = to_codespan(d, map);
        term::emit(out, &config, &files, &diagnostic).map_err(|e| match e {
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;
    use crate::diagnostics::Code;
    use crate::source::Span;

    fn one(map: &SourceMap, file: FileId, start: usize, end: usize) -> String {
        let d = Diagnostic::new(Code::E0103, "unclosed `(`")
            .primary(Span::new(file, start, end), "opened here");
        human_string(map, &[d])
    }

    #[test]
    fn a_long_line_is_shown_clipped_around_its_label_with_the_real_column() {
        let mut map = SourceMap::new();
        let line = format!("{}needle{}", "a".repeat(30_000), "b".repeat(30_000));
        let file = map.add("long.stpc", format!("first\n{line}\nlast\n"));
        let at = 6 + 30_000;
        let out = one(&map, file, at, at + 6);
        assert!(out.len() < 2_000, "{} bytes rendered", out.len());
        assert!(out.contains("long.stpc:2:30001"), "{out}");
        assert!(out.contains("needle"), "{out}");
        assert!(out.contains("^^^^^^ opened here"), "{out}");
    }

    #[test]
    fn a_label_longer_than_the_window_is_clamped_not_dropped() {
        let mut map = SourceMap::new();
        let file = map.add("wide.stpc", "x".repeat(50_000));
        let out = one(&map, file, 10, 49_990);
        assert!(out.len() < 2_000, "{} bytes rendered", out.len());
        assert!(out.contains("wide.stpc:1:11"), "{out}");
        assert!(out.contains("opened here"), "{out}");
    }

    #[test]
    fn short_lines_render_whole() {
        let mut map = SourceMap::new();
        let file = map.add("short.stpc", "contract c { ( }\n");
        let out = one(&map, file, 13, 14);
        assert!(out.contains("contract c { ( }"), "{out}");
        assert!(out.contains("short.stpc:1:14"), "{out}");
    }

    #[test]
    fn multibyte_text_around_a_clip_is_cut_on_character_boundaries() {
        let mut map = SourceMap::new();
        let file = map.add("wide.stpc", format!("{}(", "é".repeat(20_000)));
        let at = "é".len() * 20_000;
        let out = one(&map, file, at, at + 1);
        assert!(out.contains("wide.stpc:1:20001"), "{out}");
    }

    #[test]
    fn a_long_line_between_two_labels_is_shown_clipped() {
        // codespan-reporting shows the line between two labelled lines as
        // context: a 50,000-character one was written in full.
        let mut map = SourceMap::new();
        let middle = "(".repeat(50_000);
        let file = map.add("gap.stpc", format!("a (\n{middle}\n;\n"));
        let semicolon = 4 + middle.len() + 1;
        let d = Diagnostic::new(Code::E0103, "this `(` is never closed")
            .primary(Span::new(file, 2, 3), "unclosed delimiter")
            .secondary(
                Span::new(file, semicolon, semicolon + 1),
                "the statement ends here",
            );
        let out = human_string(&map, &[d]);
        assert!(out.len() < 2_000, "{} bytes rendered", out.len());
        assert!(
            out.contains("unclosed delimiter") && out.contains("the statement ends here"),
            "{out}"
        );
    }

    #[test]
    fn a_second_label_far_along_the_same_long_line_becomes_a_note() {
        let mut map = SourceMap::new();
        let text = "(".repeat(30_000) + "\n";
        let file = map.add("p.stpc", text);
        let d = Diagnostic::new(Code::E0103, "this `(` is never closed")
            .primary(Span::new(file, 0, 1), "unclosed delimiter")
            .secondary(Span::new(file, 30_000, 30_000), "the file ends here");
        let out = human_string(&map, &[d]);
        assert!(out.len() < 2_000, "{} bytes rendered", out.len());
        assert!(out.contains("unclosed delimiter"), "{out}");
        assert!(out.contains("= the file ends here (at 1:30001)"), "{out}");
    }
}
