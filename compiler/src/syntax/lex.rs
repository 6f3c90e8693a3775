//! A lexical pre-pass: strings, comments, numbers, delimiters and stray
//! characters.
//!
//! pest reports the first failure of the whole grammar, which for a missing
//! `"` or `}` is often far from the mistake. This pass runs first, over the
//! raw text, and finds those mistakes precisely, several per run: an
//! unterminated string or block comment, an invalid escape, a malformed
//! number, an unknown character, and unbalanced or mismatched delimiters. It
//! also yields the significant tokens the recovery in `mod.rs` uses to split
//! a file into top-level items. It is hand-written because it must
//! understand exactly the grammar's string, raw-string and comment forms,
//! and nothing else.
//!
//! Delimiters are balanced in a second pass over the tokens ([`balance`]).
//! A closer that does not match the innermost opener has three readings: a
//! typo for the right closer (`list(text}`), a missing closer for the inner
//! opener (`list(text }` where `}` closes the enclosing block), or a stray
//! closer. Each reading is tried on the rest of the file with the simplest
//! policy, and the one that leaves the fewest later delimiter errors wins,
//! so one mistake is reported once and not as a cascade.

use super::errors;
use super::ITEM_KEYWORDS;
use crate::diagnostics::{Code, Diagnostic};
use crate::source::{FileId, Span};

/// A significant token: a word, a number, a string, a delimiter or other
/// punctuation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// Bracket depth before this token.
    pub(crate) depth: usize,
}

/// The result of the pre-pass.
pub(crate) struct Lexed {
    pub(crate) tokens: Vec<Token>,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

const PUNCT: &str = "{}()[];:,.<>=!-#";

/// Punctuation of two characters, one token each (`=>` included, so a
/// mistyped `>=` is one token in messages).
const OPERATORS: &[&str] = &["::", "->", "=>", "==", "!=", "<=", ">=", "+="];

/// Scans `text` into tokens and lexical diagnostics.
pub(crate) fn lex(file: FileId, text: &str) -> Lexed {
    let bytes = text.as_bytes();
    let span = |a: usize, b: usize| Span::new(file, a, b);
    let mut tokens = Vec::new();
    let mut diagnostics = Vec::new();
    // A byte-order mark some editors write first is not text.
    let mut i = bom_len(text);
    let at = |i: usize| bytes.get(i).copied().map(char::from);
    let push = |tokens: &mut Vec<Token>, start: usize, end: usize| {
        tokens.push(Token {
            start,
            end,
            depth: 0,
        });
    };
    // Unknown characters are collected into runs, reported once per run.
    let mut unknown: Option<(usize, usize)> = None;
    while i < bytes.len() {
        let Some(ch) = text.get(i..).and_then(|s| s.chars().next()) else {
            i += 1;
            continue;
        };
        let next = at(i + 1);
        let known = ch.is_whitespace()
            || ch == '"'
            || ch == '/' && matches!(next, Some('/') | Some('*'))
            || is_ident_char(ch)
            || PUNCT.contains(ch)
            || ch == '+' && next == Some('=');
        if known {
            flush_unknown(text, file, unknown.take(), &mut diagnostics);
        }
        let prev_is_word = i.checked_sub(1).and_then(at).is_some_and(is_ident_char);
        if ch.is_whitespace() {
            i += ch.len_utf8();
        } else if ch == '/' && next == Some('/') {
            i = text
                .get(i..)
                .and_then(|s| s.find('\n'))
                .map_or(text.len(), |n| i + n);
        } else if ch == '/' && next == Some('*') {
            i = block_comment(text, file, i, &mut diagnostics);
        } else if ch == '"' {
            i = string(text, file, i, &mut tokens, &mut diagnostics);
        } else if let Some((hashes, body)) =
            (ch == 'r').then(|| raw_string_start(text, i)).flatten()
        {
            i = raw_string(text, file, (i, hashes, body), &mut tokens, &mut diagnostics);
        } else if ch.is_ascii_digit() {
            i = number(text, file, i, &mut tokens, &mut diagnostics);
        } else if ch == '.' && next.is_some_and(|c| c.is_ascii_digit()) && !prev_is_word {
            // `.5`: a fraction with no integer part.
            let end = number_run_end(text, i);
            diagnostics.push(errors::invalid_number(
                span(i, end),
                text.get(i..end).unwrap_or(""),
            ));
            i = end;
        } else if is_ident_char(ch) {
            let mut end = i;
            while at(end).is_some_and(is_ident_char) {
                end += 1;
            }
            push(&mut tokens, i, end);
            i = end;
        } else if let Some(op) = OPERATORS
            .iter()
            .find(|op| text.get(i..).is_some_and(|r| r.starts_with(*op)))
        {
            push(&mut tokens, i, i + op.len());
            i += op.len();
        } else if PUNCT.contains(ch) {
            push(&mut tokens, i, i + 1);
            i += 1;
        } else {
            let end = i + ch.len_utf8();
            unknown = Some(match unknown {
                Some((a, _)) => (a, end),
                None => (i, end),
            });
            i = end;
        }
    }
    flush_unknown(text, file, unknown, &mut diagnostics);
    // An unterminated string or comment swallows the delimiters after it,
    // so delimiter errors would only be its echo.
    let balanced = balance(file, text, &mut tokens);
    let swallowed = diagnostics
        .iter()
        .any(|d| matches!(d.code, Code::E0104 | Code::E0113));
    if !swallowed {
        diagnostics.extend(balanced);
    }
    Lexed {
        tokens,
        diagnostics,
    }
}

/// Reports a run of unknown characters, if there is one.
fn flush_unknown(
    text: &str,
    file: FileId,
    run: Option<(usize, usize)>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if let Some((a, b)) = run {
        diagnostics.push(errors::unknown_characters(
            Span::new(file, a, b),
            text.get(a..b).unwrap_or(""),
        ));
    }
}

/// Skips a `/* ... */` comment starting at `i`; returns where scanning
/// resumes (the end of the text when it is unterminated).
fn block_comment(text: &str, file: FileId, i: usize, diagnostics: &mut Vec<Diagnostic>) -> usize {
    match text.get(i + 2..).and_then(|s| s.find("*/")) {
        Some(n) => i + 2 + n + 2,
        None => {
            diagnostics.push(errors::unterminated_comment(Span::new(file, i, i + 2)));
            text.len()
        }
    }
}

/// Scans a raw string `r#"..."#` whose opener spans `start..body` with
/// `hashes` hashes; returns where scanning resumes.
fn raw_string(
    text: &str,
    file: FileId,
    (start, hashes, body): (usize, usize, usize),
    tokens: &mut Vec<Token>,
    diagnostics: &mut Vec<Diagnostic>,
) -> usize {
    let closer = format!("\"{}", "#".repeat(hashes));
    match text.get(body..).and_then(|s| s.find(&closer)) {
        Some(n) => {
            let end = body + n + closer.len();
            tokens.push(Token {
                start,
                end,
                depth: 0,
            });
            end
        }
        None => {
            diagnostics.push(errors::unterminated_raw_string(
                Span::new(file, start, body),
                &closer,
            ));
            text.len()
        }
    }
}

/// The length of a leading byte-order mark (U+FEFF), or 0.
pub(crate) fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    }
}

/// Scans a number starting at a digit; reports `1.2.3` and `0.` as E0108.
fn number(
    text: &str,
    file: FileId,
    start: usize,
    tokens: &mut Vec<Token>,
    diagnostics: &mut Vec<Diagnostic>,
) -> usize {
    let bytes = text.as_bytes();
    let at = |i: usize| bytes.get(i).copied().map(char::from);
    let digits = |mut i: usize| {
        while at(i).is_some_and(|c| c.is_ascii_digit()) {
            i += 1;
        }
        i
    };
    let mut end = digits(start);
    if at(end) == Some('.') && at(end + 1).is_some_and(|c| c.is_ascii_digit()) {
        end = digits(end + 1);
    }
    if at(end) == Some('.') {
        // A second `.`, or a `.` with no digits after it.
        let bad_end = number_run_end(text, start);
        diagnostics.push(errors::invalid_number(
            Span::new(file, start, bad_end),
            text.get(start..bad_end).unwrap_or(""),
        ));
        return bad_end;
    }
    // Letters glued to a number (`5x`) stay in the token, so the parser
    // reports the whole word.
    while at(end).is_some_and(is_ident_char) {
        end += 1;
    }
    tokens.push(Token {
        start,
        end,
        depth: 0,
    });
    end
}

/// The end of a run of digits and dots starting at `start`.
fn number_run_end(text: &str, start: usize) -> usize {
    text.get(start..)
        .and_then(|s| s.find(|c: char| !(c.is_ascii_digit() || c == '.')))
        .map_or(text.len(), |n| start + n)
}

/// Scans a `"..."` string starting at `start`; returns the offset after it.
fn string(
    text: &str,
    file: FileId,
    start: usize,
    tokens: &mut Vec<Token>,
    diagnostics: &mut Vec<Diagnostic>,
) -> usize {
    let mut chars = text.get(start + 1..).unwrap_or("").char_indices();
    while let Some((off, c)) = chars.next() {
        let pos = start + 1 + off;
        match c {
            '"' => {
                tokens.push(Token {
                    start,
                    end: pos + 1,
                    depth: 0,
                });
                return pos + 1;
            }
            '\n' => {
                let line_end = if text.get(..pos).is_some_and(|t| t.ends_with('\r')) {
                    pos - 1
                } else {
                    pos
                };
                diagnostics.push(errors::unterminated_string(Span::new(
                    file, start, line_end,
                )));
                return pos;
            }
            '\\' => match chars.next() {
                Some((_, '"' | '\\' | 'n' | 't' | 'r' | '0')) => {}
                Some((uoff, 'u')) => {
                    let rest = text.get(start + 1 + uoff + 1..).unwrap_or("");
                    let close = rest.find('}').filter(|_| rest.starts_with('{'));
                    let ok = close.is_some_and(|close| {
                        let hex = rest.get(1..close).unwrap_or("");
                        (1..=6).contains(&hex.len())
                            && u32::from_str_radix(hex, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .is_some()
                    });
                    if !ok {
                        // Underline the whole `\u{...}` when it is on this line.
                        let end = close
                            .filter(|&c| !rest.get(..c).unwrap_or("").contains(['\n', '"']))
                            .map_or(pos + 2, |c| start + 1 + uoff + 1 + c + 1);
                        diagnostics.push(errors::invalid_escape(
                            Span::new(file, pos, end),
                            text.get(pos..end).unwrap_or("\\u"),
                        ));
                    }
                }
                Some((_, '\n')) => {
                    diagnostics.push(errors::unterminated_string(Span::new(file, start, pos + 1)));
                    return pos + 1;
                }
                Some((eoff, other)) => {
                    let end = start + 1 + eoff + other.len_utf8();
                    diagnostics.push(errors::invalid_escape(
                        Span::new(file, pos, end),
                        text.get(pos..end).unwrap_or("\\"),
                    ));
                }
                None => {}
            },
            _ => {}
        }
    }
    diagnostics.push(errors::unterminated_string(Span::new(
        file,
        start,
        text.len(),
    )));
    text.len()
}

/// For `r"`, `r#"`, ... at `start`: the number of `#` and where the body starts.
fn raw_string_start(text: &str, start: usize) -> Option<(usize, usize)> {
    let rest = text.get(start + 1..)?;
    let hashes = rest.chars().take_while(|&c| c == '#').count();
    let quote = start + 1 + hashes;
    (text.get(quote..quote + 1) == Some("\"")).then_some((hashes, quote + 1))
}

fn closer_of(open: char) -> char {
    match open {
        '{' => '}',
        '(' => ')',
        _ => ']',
    }
}

fn delimiter(text: &str, t: &Token) -> Option<char> {
    match text.get(t.start..t.end)? {
        "{" => Some('{'),
        "(" => Some('('),
        "[" => Some('['),
        "}" => Some('}'),
        ")" => Some(')'),
        "]" => Some(']'),
        _ => None,
    }
}

/// How a closer that does not match the innermost opener is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// A typo for the innermost opener's closer: pop that opener.
    Replace,
    /// The innermost opener(s) were never closed; this closes a deeper one.
    CloseOuter,
    /// A stray closer: ignore it.
    Stray,
}

/// The open delimiters, innermost last, with where each kind was last
/// opened: the nearest opener a closer could close is found at once, not
/// by a scan (a file of 60,000 `(` and 2,000 `]` made every `]` scan and
/// copy the whole stack).
#[derive(Default)]
struct Open {
    stack: Vec<(char, usize)>,
    /// Indexes into `stack` of its `(`, `[` and `{`.
    by_kind: [Vec<usize>; 3],
}

fn kind(open: char) -> usize {
    match open {
        '(' => 0,
        '[' => 1,
        _ => 2,
    }
}

impl Open {
    fn push(&mut self, open: char, at: usize) {
        if let Some(k) = self.by_kind.get_mut(kind(open)) {
            k.push(self.stack.len());
        }
        self.stack.push((open, at));
    }

    fn pop(&mut self) -> Option<(char, usize)> {
        let top = self.stack.pop()?;
        if let Some(k) = self.by_kind.get_mut(kind(top.0)) {
            k.pop();
        }
        Some(top)
    }

    fn last(&self) -> Option<(char, usize)> {
        self.stack.last().copied()
    }

    fn len(&self) -> usize {
        self.stack.len()
    }

    /// Where the innermost opener that `close` closes is, if any is open.
    fn nearest(&self, close: char) -> Option<usize> {
        let open = match close {
            ')' => '(',
            ']' => '[',
            _ => '{',
        };
        self.by_kind.get(kind(open))?.last().copied()
    }

    /// The stack after `reading`, as the length it keeps.
    fn kept(&self, close: char, reading: Reading) -> usize {
        match reading {
            Reading::Replace => self.len().saturating_sub(1),
            Reading::CloseOuter => self.nearest(close).unwrap_or(0),
            Reading::Stray => self.len(),
        }
    }

    /// Applies `reading`.
    fn apply(&mut self, close: char, reading: Reading) {
        let keep = self.kept(close, reading);
        while self.len() > keep {
            self.pop();
        }
    }
}

/// The errors `rest` makes after a stack of which the first `keep` entries
/// remain: the lookahead can only pop `rest.len()` of them, so only those
/// are simulated and the rest is counted as unclosed.
fn cost_after(stack: &[(char, usize)], keep: usize, rest: &[char]) -> usize {
    let kept = stack.get(..keep).unwrap_or(stack);
    let below = kept.len().saturating_sub(rest.len() + 1);
    let window = kept.get(below..).unwrap_or(&[]).to_vec();
    below + errors_after(window, rest)
}

/// Counts the delimiter errors in `rest`, starting from `stack`, with the
/// simplest policy (every mismatch is a typo).
fn errors_after(mut stack: Vec<(char, usize)>, rest: &[char]) -> usize {
    let mut count = 0;
    for &c in rest {
        match c {
            '{' | '(' | '[' => stack.push((c, 0)),
            _ => match stack.last() {
                None => count += 1,
                Some(&(open, _)) if closer_of(open) == c => {
                    stack.pop();
                }
                Some(_) => {
                    count += 1;
                    stack.pop();
                }
            },
        }
    }
    count + stack.len()
}

/// The delimiter errors found while reading (mismatched and stray closers,
/// openers a `;` leaves open): the first [`MAX_PER_FILE`] are built, the
/// rest only counted. They come in the order of the text, and a report
/// shows a file's first [`MAX_PER_FILE`], so none that would be shown is
/// lost; 60,000 stray `]` built 60,000 diagnostics (most of 190 ms) for 100
/// to be shown.
///
/// [`MAX_PER_FILE`]: crate::diagnostics::MAX_PER_FILE
#[derive(Default)]
struct Flood {
    /// Where the last one built is in the output.
    last: Option<usize>,
    built: usize,
    counted: usize,
}

impl Flood {
    fn push(&mut self, out: &mut Vec<Diagnostic>, make: impl FnOnce() -> Diagnostic) {
        if self.built < crate::diagnostics::MAX_PER_FILE {
            self.last = Some(out.len());
            out.push(make());
            self.built += 1;
        } else {
            self.counted += 1;
        }
    }

    /// Says on the last one built how many more there are.
    fn finish(self, out: &mut [Diagnostic]) {
        if self.counted == 0 {
            return;
        }
        if let Some(d) = self.last.and_then(|i| out.get_mut(i)) {
            d.notes.push(format!(
                "{} more delimiter errors after this one are not reported",
                self.counted
            ));
        }
    }
}

/// Delimiters read ahead when choosing how to read a mismatched closer.
const LOOKAHEAD: usize = 256;

/// Balances delimiters: sets every token's depth and reports E0103, E0109
/// and E0116.
fn balance(file: FileId, text: &str, tokens: &mut [Token]) -> Vec<Diagnostic> {
    let span = |a: usize, b: usize| Span::new(file, a, b);
    let delims: Vec<char> = tokens.iter().filter_map(|t| delimiter(text, t)).collect();
    let mut seen = 0;
    let mut stack = Open::default();
    let mut out = Vec::new();
    let mut flood = Flood::default();
    for t in tokens.iter_mut() {
        t.depth = stack.len();
        // `(` and `[` never contain a `;`: one still open at a `;` was
        // never closed, and the `;` is where its closer belongs.
        if text.get(t.start..t.end) == Some(";") {
            // Reported outermost first, in the order of the text (see `Flood`).
            let run = stack
                .stack
                .iter()
                .rev()
                .take_while(|(o, _)| matches!(o, '(' | '['))
                .count();
            let first = stack.len() - run;
            for &(open, at_open) in stack.stack.get(first..).unwrap_or(&[]) {
                flood.push(&mut out, || {
                    errors::unclosed_before_semicolon(
                        span(at_open, at_open + 1),
                        open,
                        span(t.start, t.end),
                    )
                });
            }
            for _ in 0..run {
                stack.pop();
            }
            t.depth = stack.len();
            continue;
        }
        let Some(c) = delimiter(text, t) else {
            continue;
        };
        seen += 1;
        if matches!(c, '{' | '(' | '[') {
            stack.push(c, t.start);
            continue;
        }
        // How the rest reads after each choice, judged on a bounded
        // lookahead so that many mismatches stay linear in the input.
        let rest = delims
            .get(seen..(seen + LOOKAHEAD).min(delims.len()))
            .unwrap_or(&[]);
        match stack.last() {
            None => flood.push(&mut out, || {
                errors::unmatched_close(span(t.start, t.end), c)
            }),
            Some((open, _)) if closer_of(open) == c => {
                stack.pop();
                t.depth = stack.len();
            }
            Some((open, at_open)) => {
                let outer = stack.nearest(c).is_some();
                let mut best = (Reading::Replace, usize::MAX);
                for reading in [Reading::Replace, Reading::CloseOuter, Reading::Stray] {
                    if reading == Reading::CloseOuter && !outer {
                        continue;
                    }
                    let cost = cost_after(&stack.stack, stack.kept(c, reading), rest);
                    if cost < best.1 {
                        best = (reading, cost);
                    }
                }
                let close = span(t.start, t.end);
                let open_span = span(at_open, at_open + 1);
                flood.push(&mut out, || match best.0 {
                    Reading::Replace => errors::mismatched_delimiter(close, c, open_span, open),
                    Reading::CloseOuter => errors::missing_inner_closer(close, c, open_span, open),
                    Reading::Stray => errors::unmatched_close(close, c),
                });
                stack.apply(c, best.0);
                t.depth = stack.len();
            }
        }
    }
    flood.finish(&mut out);
    // The end of the last significant text, where a missing closer belongs.
    let eof = span(text.trim_end().len(), text.trim_end().len());
    let starts = item_starts(text, tokens);
    // At most as many as a report shows, the first opened, and a count of
    // the rest: 117,000 unclosed `(` built 117,000 diagnostics for 100 to be
    // shown (most of 130 ms of formatting 120 KB).
    let unclosed = stack.stack;
    let shown = unclosed.len().min(crate::diagnostics::MAX_PER_FILE);
    let more = unclosed.len() - shown;
    for (i, &(open, at_open)) in unclosed.iter().take(shown).enumerate().rev() {
        let hint = (open == '{')
            .then(|| {
                let i = starts.partition_point(|t| t.start <= at_open);
                starts.get(i).copied()
            })
            .flatten();
        let mut d = errors::unclosed_delimiter(
            span(at_open, at_open + 1),
            open,
            eof,
            hint.map(|t| (span(t.start, t.end), text.get(t.start..t.end).unwrap_or(""))),
        );
        if i + 1 == shown && more > 0 {
            d = d.note(format!(
                "{more} more delimiters opened after this one are never closed either"
            ));
        }
        out.push(d);
    }
    out
}

/// Every top-level keyword that starts a line after a `;` or `}`, in
/// order: the first one after an unclosed `{` suggests the block should have
/// closed before it. One pass, so many unclosed blocks stay linear.
fn item_starts(text: &str, tokens: &[Token]) -> Vec<Token> {
    let mut prev = "";
    let mut out = Vec::new();
    for t in tokens {
        let word = text.get(t.start..t.end).unwrap_or("");
        let at_column_one = t.start == 0
            || text
                .as_bytes()
                .get(t.start.wrapping_sub(1))
                .is_some_and(|b| *b == b'\n');
        if at_column_one && matches!(prev, ";" | "}") && ITEM_KEYWORDS.contains(&word) {
            out.push(*t);
        }
        prev = word;
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "tests")]

    use crate::diagnostics::{Code, Diagnostics, MAX_PER_FILE};
    use crate::source::SourceMap;

    fn unclosed(text: &str) -> Vec<crate::diagnostics::Diagnostic> {
        let mut map = SourceMap::new();
        let id = map.add("u.stpc", text);
        let mut d = Diagnostics::new();
        let _ = crate::syntax::parse(id, text, &mut d);
        d.take()
            .into_iter()
            .filter(|d| d.code == Code::E0103)
            .collect()
    }

    #[test]
    fn a_flood_of_unclosed_delimiters_is_reported_as_the_first_ones_and_a_count() {
        let found = unclosed(&"(".repeat(5_000));
        assert_eq!(found.len(), MAX_PER_FILE);
        let firsts: Vec<u32> = found
            .iter()
            .filter_map(|d| d.primary_span().map(|s| s.start))
            .collect();
        assert!(
            firsts.iter().all(|&s| (s as usize) < MAX_PER_FILE),
            "{firsts:?}"
        );
        let counted: Vec<&String> = found.iter().flat_map(|d| d.notes.iter()).collect();
        assert_eq!(
            counted,
            [&format!(
                "{} more delimiters opened after this one are never closed either",
                5_000 - MAX_PER_FILE
            )]
        );
    }

    fn coded(text: &str, code: Code) -> Vec<crate::diagnostics::Diagnostic> {
        let mut map = SourceMap::new();
        let id = map.add("f.stpc", text);
        let mut d = Diagnostics::new();
        let _ = crate::syntax::parse(id, text, &mut d);
        d.take().into_iter().filter(|d| d.code == code).collect()
    }

    #[test]
    fn a_flood_of_stray_closers_is_reported_as_the_first_ones_and_a_count() {
        let found = coded(&"]".repeat(5_000), Code::E0109);
        assert_eq!(found.len(), MAX_PER_FILE);
        assert!(found.iter().all(|d| d
            .primary_span()
            .is_some_and(|s| (s.start as usize) < MAX_PER_FILE)));
        let notes: Vec<&String> = found.iter().flat_map(|d| d.notes.iter()).collect();
        assert_eq!(
            notes,
            [&format!(
                "{} more delimiter errors after this one are not reported",
                5_000 - MAX_PER_FILE
            )]
        );
    }

    #[test]
    fn openers_a_semicolon_leaves_open_are_the_first_ones_and_a_count() {
        let text = format!("contract c {{ decide {{ a: {}; }} }}", "(".repeat(3_000));
        let found = coded(&text, Code::E0103);
        assert_eq!(found.len(), MAX_PER_FILE);
        let first = text.find('(').unwrap();
        let starts: Vec<usize> = found
            .iter()
            .filter_map(|d| d.primary_span().map(|s| s.start as usize - first))
            .collect();
        assert_eq!(starts, (0..MAX_PER_FILE).collect::<Vec<_>>());
        let notes: Vec<&String> = found.iter().flat_map(|d| d.notes.iter()).collect();
        assert_eq!(
            notes,
            [&format!(
                "{} more delimiter errors after this one are not reported",
                3_000 - MAX_PER_FILE
            )]
        );
    }

    #[test]
    fn a_few_unclosed_delimiters_are_each_reported() {
        let found = unclosed("contract c { decide { a: ( ( ");
        assert_eq!(found.len(), 4);
        assert!(found.iter().all(|d| d.notes.is_empty()));
    }
}
