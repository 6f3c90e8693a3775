//! Lint levels and inline suppressions: what becomes of a warning after the
//! stages reported it.
//!
//! Every stage reports warnings at their default level. This module then
//! applies, in order of precedence (later wins):
//!
//! 1. **levels** ([`Levels`]): from a project file (`stpc.toml`, read by
//!    the CLI: globally, then per path) and from the command line
//!    (`--allow`, `--warn`, `--deny`, each a code or `warnings`). A level
//!    is `allow` (the warning is dropped), `warn` (reported) or `deny`
//!    (reported as an error, failing the run). Only warnings have levels:
//!    an error cannot be allowed.
//! 2. **inline suppressions**: a comment
//!    `// stpc: allow(W0002, W0602) -- the reason` on the line a warning
//!    points at, or on its own line just above it (for a rule or a
//!    statement: the line it starts on). The reason after `--` is
//!    required: without one, or naming an error code or no code at all,
//!    the comment is itself an error (`E0425`) and suppresses nothing. A
//!    suppression that matches no warning is reported (`W0010`, which has a
//!    level like any warning).
//!
//! The module is pure: the CLI finds and parses the project file and hands
//! over one [`Levels`] per source file.

use std::collections::HashMap;

use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::trivia;

/// What becomes of a warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Dropped.
    Allow,
    /// Reported as a warning.
    Warn,
    /// Reported as an error.
    Deny,
}

impl Level {
    /// `allow`, `warn` or `deny`.
    pub fn parse(text: &str) -> Option<Level> {
        match text {
            "allow" => Some(Level::Allow),
            "warn" => Some(Level::Warn),
            "deny" => Some(Level::Deny),
            _ => None,
        }
    }
}

/// What a level is set for: one warning code, or every warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// `warnings`: every warning code.
    Warnings,
    /// One warning code.
    Code(Code),
}

impl Target {
    /// `warnings` or a warning code such as `W0002` (case-insensitive).
    ///
    /// # Errors
    ///
    /// A message for an unknown code or an error code.
    pub fn parse(text: &str) -> Result<Target, String> {
        if text.eq_ignore_ascii_case("warnings") {
            return Ok(Target::Warnings);
        }
        match Code::parse(text) {
            Some(code) if code.severity() == Severity::Warning => Ok(Target::Code(code)),
            Some(code) => Err(format!(
                "`{code}` is an error, and errors cannot be allowed, warned or denied"
            )),
            None => Err(format!(
                "`{text}` is not a warning code (such as `W0002`) or `warnings`"
            )),
        }
    }
}

/// Levels set in layers (the project file, its overrides, the command
/// line). A code's own settings decide it, the latest winning; `warnings`
/// (its latest setting) decides the codes nobody set, and `warnings = deny`
/// also raises a code explicitly set to `warn`, as rustc's `-D warnings`
/// turns every warning still reported into an error. So `--deny warnings`
/// never un-allows a code a project file allows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    settings: Vec<(Target, Level)>,
}

impl Levels {
    /// No setting: every warning at its default level (`warn`).
    pub fn new() -> Levels {
        Levels::default()
    }

    /// Adds one layer of settings (a table of the project file, or the
    /// command line); later layers win.
    pub fn layer(&mut self, settings: impl IntoIterator<Item = (Target, Level)>) {
        self.settings.extend(settings);
    }

    /// The level of a warning code.
    pub fn level(&self, code: Code) -> Level {
        let latest = |target: Target| {
            self.settings
                .iter()
                .rev()
                .find(|(t, _)| *t == target)
                .map(|(_, l)| *l)
        };
        match (latest(Target::Code(code)), latest(Target::Warnings)) {
            (Some(Level::Warn), Some(Level::Deny)) => Level::Deny,
            (Some(own), _) => own,
            (None, Some(group)) => group,
            (None, None) => Level::Warn,
        }
    }
}

/// One `// stpc: allow(...) -- reason` comment.
#[derive(Clone, Debug)]
struct Suppression {
    /// The comment.
    span: Span,
    /// The 1-based line of the warnings it concerns.
    line: usize,
    /// Whether it follows code on its line: then it also concerns a warning
    /// whose span ends on that line (a statement the formatter wrapped
    /// keeps its trailing comment on its last line).
    trailing: bool,
    codes: Vec<Code>,
    used: Vec<bool>,
}

/// The marker a suppression comment starts with, after `//`.
const MARKER: &str = "stpc:";

/// Reads the suppressions of one file; malformed ones become `E0425`.
fn suppressions(map: &SourceMap, file: FileId, out: &mut Vec<Diagnostic>) -> Vec<Suppression> {
    let Some(source) = map.get(file) else {
        return Vec::new();
    };
    let text = source.text();
    let mut found = Vec::new();
    for comment in trivia::comments(file, text) {
        let body = comment
            .text
            .strip_prefix("/*")
            .unwrap_or(&comment.text)
            .trim_start_matches('/');
        if !body.trim_start().starts_with(MARKER) {
            continue;
        }
        if !comment.text.starts_with("//") || comment.text.starts_with("///") {
            out.push(invalid(
                comment.span,
                "a suppression is a `//` line comment, not a block or doc comment",
            ));
            continue;
        }
        let Some(rest) = body.trim_start().strip_prefix(MARKER) else {
            continue;
        };
        match parse(rest) {
            Ok(codes) => {
                let line = if comment.trailing {
                    source.line_col(comment.span.start as usize).0
                } else {
                    next_code_line(text, comment.span.end as usize)
                        .map_or(0, |offset| source.line_col(offset).0)
                };
                let used = vec![false; codes.len()];
                found.push(Suppression {
                    span: comment.span,
                    line,
                    trailing: comment.trailing,
                    codes,
                    used,
                });
            }
            Err(why) => out.push(invalid(comment.span, &why)),
        }
    }
    found
}

/// The offset of the first byte of code after `pos` (skipping blank lines
/// and other comments), so a suppression above a rule concerns the rule.
fn next_code_line(text: &str, pos: usize) -> Option<usize> {
    let mut offset = pos;
    for line in text.get(pos..)?.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let body = trimmed.trim_end();
        if !body.is_empty() && !body.starts_with("//") {
            return Some(offset + (line.len() - trimmed.len()));
        }
        offset += line.len();
    }
    None
}

/// `allow(W0002, W0602) -- reason` into its codes.
fn parse(rest: &str) -> Result<Vec<Code>, String> {
    let rest = rest.trim_start();
    let Some(inner) = rest.strip_prefix("allow(") else {
        return Err("a suppression reads `// stpc: allow(W0002) -- reason`".to_owned());
    };
    let Some((list, after)) = inner.split_once(')') else {
        return Err("the list of codes is not closed with `)`".to_owned());
    };
    let mut codes = Vec::new();
    for item in list.split(',').map(str::trim) {
        match Target::parse(item) {
            Ok(Target::Code(code)) => codes.push(code),
            Ok(Target::Warnings) => {
                return Err("name the warnings to suppress one by one, not `warnings`".to_owned())
            }
            Err(why) => return Err(why),
        }
    }
    let reason = after.trim().strip_prefix("--").map(str::trim);
    match reason {
        Some(r) if !r.is_empty() => Ok(codes),
        _ => Err("a suppression needs a reason after `--`".to_owned()),
    }
}

/// `E0425`.
fn invalid(span: Span, why: &str) -> Diagnostic {
    Diagnostic::new(Code::E0425, format!("invalid suppression: {why}"))
        .primary(span, "this comment suppresses nothing")
        .help("write `// stpc: allow(W0002) -- why this warning does not apply here`")
}

/// `W0010`.
fn unused(span: Span, code: Code) -> Diagnostic {
    Diagnostic::new(Code::W0010, format!("unused suppression of `{code}`"))
        .primary(
            span,
            format!("no `{code}` warning is reported on the line this concerns"),
        )
        .help("remove the suppression, or move it to the line the warning points at")
}

/// Applies levels and suppressions to `diagnostics`. `levels` gives the
/// levels for a file (its project file's and the command line's); warnings
/// without a location use the levels of `FileId(u32::MAX)`. Suppression
/// comments are read from `files` (the user's files, not std).
///
/// Unused suppressions (`W0010`) are reported only when `every_stage_ran`
/// and no error stopped a stage: a suppression of a verification warning
/// is not unused because verification did not run, or ran for another
/// contract (`stpc compile --contract`).
pub fn apply(
    map: &SourceMap,
    files: &[FileId],
    levels: &dyn Fn(FileId) -> Levels,
    diagnostics: Vec<Diagnostic>,
    every_stage_ran: bool,
) -> Vec<Diagnostic> {
    let report_unused = every_stage_ran
        && !diagnostics
            .iter()
            .any(|d| d.code.severity() == Severity::Error);
    let mut out = Vec::with_capacity(diagnostics.len());
    let mut by_file: HashMap<FileId, (Vec<Suppression>, Levels)> = HashMap::new();
    for file in files {
        let found = suppressions(map, *file, &mut out);
        by_file.insert(*file, (found, levels(*file)));
    }
    for d in diagnostics {
        if d.code.severity() != Severity::Warning {
            out.push(d);
            continue;
        }
        let span = d.primary_span();
        let file = span.map_or(FileId(u32::MAX), |s| s.file);
        let entry = by_file
            .entry(file)
            .or_insert_with(|| (Vec::new(), levels(file)));
        let (line, end_line) = span
            .and_then(|s| {
                map.get(s.file)
                    .map(|f| (f.line_col(s.start as usize).0, f.line_col(s.end as usize).0))
            })
            .unwrap_or((0, 0));
        let concerns =
            |s: &Suppression| s.line == line || (s.trailing && (line..=end_line).contains(&s.line));
        let mut suppressed = false;
        for s in entry.0.iter_mut().filter(|s| concerns(s)) {
            for (code, used) in s.codes.iter().zip(s.used.iter_mut()) {
                if *code == d.code {
                    *used = true;
                    suppressed = true;
                }
            }
        }
        if suppressed {
            continue;
        }
        out.extend(leveled(d, &entry.1));
    }
    let mut unused_found = Vec::new();
    for file in files.iter().filter(|_| report_unused) {
        let Some((found, levels)) = by_file.get(file) else {
            continue;
        };
        for s in found {
            for (code, used) in s.codes.iter().zip(&s.used) {
                if *used {
                    continue;
                }
                unused_found.extend(leveled(unused(s.span, *code), levels));
            }
        }
    }
    out.extend(unused_found);
    out
}

/// A warning at its level: dropped, kept, or made an error that says why.
fn leveled(mut d: Diagnostic, levels: &Levels) -> Option<Diagnostic> {
    match levels.level(d.code) {
        Level::Allow => None,
        Level::Warn => Some(d),
        Level::Deny => {
            d.severity = Severity::Error;
            d.notes
                .push(format!("`{}` is denied by the lint configuration", d.code));
            Some(d)
        }
    }
}

/// [`apply`] with every warning at its default level, in place: what
/// `stpc check` does without a project file or flags (the book's examples
/// and the fixture harnesses use it).
pub fn apply_default(map: &SourceMap, files: &[FileId], diagnostics: &mut crate::Diagnostics) {
    let items = diagnostics.take();
    diagnostics.extend(apply(map, files, &|_| Levels::new(), items, true));
}

#[cfg(test)]
mod tests {
    #![allow(clippy::indexing_slicing, reason = "tests")]

    use super::*;

    fn warning(map: &SourceMap, file: FileId, line: usize, code: Code) -> Diagnostic {
        let text = map
            .get(file)
            .map(|f| f.text().to_owned())
            .unwrap_or_default();
        let start: usize = text
            .split_inclusive('\n')
            .take(line - 1)
            .map(str::len)
            .sum();
        Diagnostic::new(code, "w").primary(Span::new(file, start, start + 1), "")
    }

    fn codes(d: &[Diagnostic]) -> Vec<(Code, Severity)> {
        d.iter().map(|d| (d.code, d.severity)).collect()
    }

    #[test]
    fn codes_are_decided_by_their_own_settings_and_warnings_by_the_group() {
        let mut l = Levels::new();
        l.layer([
            (Target::Code(Code::W0001), Level::Allow),
            (Target::Code(Code::W0003), Level::Warn),
        ]);
        // `--deny warnings` on the command line denies what is reported and
        // never un-allows a code the project allows.
        l.layer([(Target::Warnings, Level::Deny)]);
        assert_eq!(l.level(Code::W0001), Level::Allow);
        assert_eq!(l.level(Code::W0002), Level::Deny);
        assert_eq!(l.level(Code::W0003), Level::Deny);
        l.layer([(Target::Code(Code::W0001), Level::Warn)]);
        assert_eq!(l.level(Code::W0001), Level::Deny);
        let mut quiet = Levels::new();
        quiet.layer([
            (Target::Warnings, Level::Allow),
            (Target::Code(Code::W0602), Level::Deny),
        ]);
        assert_eq!(quiet.level(Code::W0001), Level::Allow);
        assert_eq!(quiet.level(Code::W0602), Level::Deny);
    }

    #[test]
    fn targets_are_warning_codes_or_warnings() {
        assert_eq!(Target::parse("w0002"), Ok(Target::Code(Code::W0002)));
        assert_eq!(Target::parse("warnings"), Ok(Target::Warnings));
        assert!(Target::parse("E0601").is_err_and(|e| e.contains("errors cannot")));
        assert!(Target::parse("W9999").is_err());
    }

    #[test]
    fn suppressions_apply_to_their_line_or_the_next_code_line() {
        let mut map = SourceMap::new();
        let text = "a;\n\
                    b; // stpc: allow(W0002) -- covered by a\n\
                    // stpc: allow(W0602, W0001) -- legacy rule\n\
                    \n\
                    c;\n\
                    d; // stpc: allow(W0003) -- nothing here\n";
        let f = map.add("x.stpc", text);
        let ds = vec![
            warning(&map, f, 1, Code::W0002),
            warning(&map, f, 2, Code::W0002),
            warning(&map, f, 5, Code::W0602),
        ];
        let out = apply(&map, &[f], &|_| Levels::new(), ds, true);
        // Line 1 keeps its warning; lines 2 and 5 are suppressed; W0001 on
        // line 5 and W0003 on line 6 suppress nothing.
        assert_eq!(
            codes(&out),
            [
                (Code::W0002, Severity::Warning),
                (Code::W0010, Severity::Warning),
                (Code::W0010, Severity::Warning),
            ]
        );
        assert!(out[1].message.contains("W0001"));
        assert!(out[2].message.contains("W0003"));
    }

    #[test]
    fn a_suppression_without_reason_is_an_error_and_suppresses_nothing() {
        let mut map = SourceMap::new();
        let f = map.add(
            "x.stpc",
            "a; // stpc: allow(W0002)\nb; // stpc: allow(E0601) -- no\n",
        );
        let out = apply(
            &map,
            &[f],
            &|_| Levels::new(),
            vec![warning(&map, f, 1, Code::W0002)],
            true,
        );
        assert_eq!(
            codes(&out),
            [
                (Code::E0425, Severity::Error),
                (Code::E0425, Severity::Error),
                (Code::W0002, Severity::Warning),
            ]
        );
        assert!(out[0].message.contains("needs a reason"));
        assert!(out[1].message.contains("errors cannot"));
    }

    #[test]
    fn levels_allow_and_deny() {
        let mut map = SourceMap::new();
        let f = map.add("x.stpc", "a;\nb;\n");
        let mut levels = Levels::new();
        levels.layer([
            (Target::Code(Code::W0001), Level::Allow),
            (Target::Code(Code::W0002), Level::Deny),
        ]);
        let ds = vec![
            warning(&map, f, 1, Code::W0001),
            warning(&map, f, 2, Code::W0002),
        ];
        let out = apply(&map, &[f], &|_| levels.clone(), ds, true);
        assert_eq!(codes(&out), [(Code::W0002, Severity::Error)]);
        // A string that looks like a suppression is not a comment.
        let g = map.add("y.stpc", "a \"// stpc: allow(W0001) -- x\";\n");
        let out = apply(
            &map,
            &[g],
            &|_| Levels::new(),
            vec![warning(&map, g, 1, Code::W0001)],
            true,
        );
        assert_eq!(codes(&out), [(Code::W0001, Severity::Warning)]);
    }

    #[test]
    fn a_trailing_suppression_covers_a_warning_ending_on_its_line() {
        let mut map = SourceMap::new();
        let text = "rule\n    continued; // stpc: allow(W0002) -- wrapped by fmt\n";
        let f = map.add("x.stpc", text);
        let end = text.len() - 1;
        let d = Diagnostic::new(Code::W0002, "w").primary(Span::new(f, 0, end), "");
        let out = apply(&map, &[f], &|_| Levels::new(), vec![d], true);
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn block_and_doc_comments_are_not_suppressions() {
        let mut map = SourceMap::new();
        let f = map.add(
            "x.stpc",
            "a; /* stpc: allow(W0002) -- x */\n/// stpc: allow(W0002) -- y\nb;\n",
        );
        let ds = vec![
            warning(&map, f, 1, Code::W0002),
            warning(&map, f, 3, Code::W0002),
        ];
        let out = apply(&map, &[f], &|_| Levels::new(), ds, true);
        assert_eq!(
            codes(&out),
            [
                (Code::E0425, Severity::Error),
                (Code::E0425, Severity::Error),
                (Code::W0002, Severity::Warning),
                (Code::W0002, Severity::Warning),
            ]
        );
    }

    #[test]
    fn unused_suppressions_wait_for_every_stage() {
        let mut map = SourceMap::new();
        let f = map.add("x.stpc", "a; // stpc: allow(W0602) -- verified later\n");
        let error = Diagnostic::new(Code::E0201, "e").primary(Span::new(f, 0, 1), "");
        let out = apply(&map, &[f], &|_| Levels::new(), vec![error], true);
        assert_eq!(codes(&out), [(Code::E0201, Severity::Error)]);
        let out = apply(&map, &[f], &|_| Levels::new(), Vec::new(), false);
        assert!(out.is_empty());
        let out = apply(&map, &[f], &|_| Levels::new(), Vec::new(), true);
        assert_eq!(codes(&out), [(Code::W0010, Severity::Warning)]);
    }
}
