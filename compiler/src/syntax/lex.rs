//! A lexical pre-pass: strings, comments, delimiters and stray characters.
//!
//! pest reports the first failure of the whole grammar, which for a missing
//! `"` or `}` is often far from the mistake. This pass runs first, over the
//! raw text, and finds those mistakes precisely, several per run: an
//! unterminated string or block comment, an invalid escape, an unknown
//! character, and unbalanced or mismatched delimiters. It also yields the
//! significant tokens the recovery in `mod.rs` uses to split a file into
//! top-level items. It is hand-written because it must understand exactly
//! the grammar's string, raw-string and comment forms, and nothing else.

use super::errors;
use crate::diagnostics::Diagnostic;
use crate::source::{FileId, Span};

/// A significant token: a word, a delimiter or other punctuation.
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

pub(crate) fn lex(file: FileId, text: &str) -> Lexed {
    let bytes = text.as_bytes();
    let span = |a: usize, b: usize| Span::new(file, a, b);
    let mut tokens = Vec::new();
    let mut diagnostics = Vec::new();
    let mut stack: Vec<(char, usize)> = Vec::new();
    let mut i = 0;
    let at = |i: usize| bytes.get(i).copied().map(char::from);
    while i < bytes.len() {
        let Some(ch) = text.get(i..).and_then(|s| s.chars().next()) else {
            i += 1;
            continue;
        };
        let next = at(i + 1);
        if ch.is_whitespace() {
            i += ch.len_utf8();
        } else if ch == '/' && next == Some('/') {
            i = text.get(i..).and_then(|s| s.find('\n')).map_or(text.len(), |n| i + n);
        } else if ch == '/' && next == Some('*') {
            match text.get(i + 2..).and_then(|s| s.find("*/")) {
                Some(n) => i = i + 2 + n + 2,
                None => {
                    diagnostics.push(errors::unterminated_comment(span(i, i + 2)));
                    i = text.len();
                }
            }
        } else if ch == '"' {
            i = string(text, file, i, &mut tokens, &mut diagnostics, stack.len());
        } else if ch == 'r'
            && matches!(next, Some('"') | Some('#'))
            && raw_string_end(text, i).is_some()
        {
            let end = raw_string_end(text, i).unwrap_or(text.len());
            tokens.push(Token {
                start: i,
                end,
                depth: stack.len(),
            });
            i = end;
        } else if is_ident_char(ch) {
            let mut end = i;
            while let Some(c) = at(end) {
                if is_ident_char(c) || (c == '.' && at(end + 1).is_some_and(|d| d.is_ascii_digit()) && text.get(i..end).is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()))) {
                    end += 1;
                } else {
                    break;
                }
            }
            tokens.push(Token {
                start: i,
                end,
                depth: stack.len(),
            });
            i = end;
        } else if matches!(ch, '{' | '(' | '[') {
            tokens.push(Token {
                start: i,
                end: i + 1,
                depth: stack.len(),
            });
            stack.push((ch, i));
            i += 1;
        } else if matches!(ch, '}' | ')' | ']') {
            let open = match ch {
                '}' => '{',
                ')' => '(',
                _ => '[',
            };
            match stack.last().copied() {
                None => diagnostics.push(errors::unmatched_close(span(i, i + 1), ch)),
                Some((o, at_open)) if o != open => {
                    diagnostics.push(errors::mismatched_delimiter(
                        span(i, i + 1),
                        ch,
                        span(at_open, at_open + 1),
                        o,
                    ));
                    stack.pop();
                }
                Some(_) => {
                    stack.pop();
                }
            }
            tokens.push(Token {
                start: i,
                end: i + 1,
                depth: stack.len(),
            });
            i += 1;
        } else if PUNCT.contains(ch) {
            tokens.push(Token {
                start: i,
                end: i + 1,
                depth: stack.len(),
            });
            i += 1;
        } else {
            diagnostics.push(errors::unknown_character(span(i, i + ch.len_utf8()), ch));
            i += ch.len_utf8();
        }
    }
    for (open, at_open) in stack.into_iter().rev() {
        diagnostics.push(errors::unclosed_delimiter(
            span(at_open, at_open + 1),
            open,
            span(text.len(), text.len()),
        ));
    }
    Lexed {
        tokens,
        diagnostics,
    }
}

/// Scans a `"..."` string starting at `start`; returns the offset after it.
fn string(
    text: &str,
    file: FileId,
    start: usize,
    tokens: &mut Vec<Token>,
    diagnostics: &mut Vec<Diagnostic>,
    depth: usize,
) -> usize {
    let mut chars = text.get(start + 1..).unwrap_or("").char_indices();
    while let Some((off, c)) = chars.next() {
        let pos = start + 1 + off;
        match c {
            '"' => {
                tokens.push(Token {
                    start,
                    end: pos + 1,
                    depth,
                });
                return pos + 1;
            }
            '\n' => {
                diagnostics.push(errors::unterminated_string(Span::new(file, start, pos)));
                return pos;
            }
            '\\' => match chars.next() {
                Some((_, '"' | '\\' | 'n' | 't' | 'r' | '0')) => {}
                Some((uoff, 'u')) => {
                    let rest = text.get(start + 1 + uoff + 1..).unwrap_or("");
                    let ok = rest.starts_with('{')
                        && rest.find('}').is_some_and(|close| {
                            let hex = rest.get(1..close).unwrap_or("");
                            (1..=6).contains(&hex.len())
                                && u32::from_str_radix(hex, 16)
                                    .ok()
                                    .and_then(char::from_u32)
                                    .is_some()
                        });
                    if !ok {
                        diagnostics.push(errors::invalid_escape(Span::new(file, pos, pos + 2), 'u'));
                    }
                }
                Some((eoff, other)) => {
                    let end = start + 1 + eoff + other.len_utf8();
                    diagnostics.push(errors::invalid_escape(Span::new(file, pos, end), other));
                }
                None => {}
            },
            _ => {}
        }
    }
    diagnostics.push(errors::unterminated_string(Span::new(file, start, text.len())));
    text.len()
}

/// The end of a raw string `r#*"..."#*` starting at `start`, if it closes.
fn raw_string_end(text: &str, start: usize) -> Option<usize> {
    let rest = text.get(start + 1..)?;
    let hashes = rest.chars().take_while(|&c| c == '#').count();
    let body_start = start + 1 + hashes;
    if text.get(body_start..body_start + 1) != Some("\"") {
        return None;
    }
    let closer = format!("\"{}", "#".repeat(hashes));
    let body = text.get(body_start + 1..)?;
    body.find(&closer)
        .map(|n| body_start + 1 + n + closer.len())
}
