//! Comments, kept in a side table for the formatter.
//!
//! The grammar skips comments, so the AST never sees them; this module finds
//! them again, with their spans, so `fmt` can put each one back next to the
//! node it precedes or follows. It understands strings and raw strings so
//! that `"//"` inside a string is not a comment.

use crate::source::{FileId, Span};

/// One comment, as written (including `//` or `/* */`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// Where it is.
    pub span: Span,
    /// Its text, including the comment markers.
    pub text: String,
    /// Whether code precedes it on the same line (a trailing comment).
    pub trailing: bool,
}

/// Every comment in a file, in order.
pub fn comments(file: FileId, text: &str) -> Vec<Comment> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    // A byte-order mark is not code.
    let mut i = super::lex::bom_len(text);
    let mut line_has_code = false;
    while i < bytes.len() {
        let c = bytes.get(i).copied().unwrap_or(0);
        let next = bytes.get(i + 1).copied();
        match c {
            b'\n' => {
                line_has_code = false;
                i += 1;
            }
            b'/' if next == Some(b'/') => {
                let end = text
                    .get(i..)
                    .and_then(|s| s.find('\n'))
                    .map_or(text.len(), |n| i + n);
                out.push(Comment {
                    span: Span::new(file, i, end),
                    text: text.get(i..end).unwrap_or("").trim_end().to_string(),
                    trailing: line_has_code,
                });
                i = end;
            }
            b'/' if next == Some(b'*') => {
                let end = text
                    .get(i + 2..)
                    .and_then(|s| s.find("*/"))
                    .map_or(text.len(), |n| i + 2 + n + 2);
                out.push(Comment {
                    span: Span::new(file, i, end),
                    text: text.get(i..end).unwrap_or("").to_string(),
                    trailing: line_has_code,
                });
                i = end;
            }
            b'"' => {
                line_has_code = true;
                i += 1;
                while i < bytes.len() {
                    match bytes.get(i).copied() {
                        Some(b'\\') => i += 2,
                        Some(b'"') | Some(b'\n') => {
                            i += 1;
                            break;
                        }
                        _ => i += 1,
                    }
                }
            }
            b'r' if matches!(next, Some(b'"') | Some(b'#'))
                && !i
                    .checked_sub(1)
                    .and_then(|p| bytes.get(p))
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_') =>
            {
                line_has_code = true;
                let hashes = text
                    .get(i + 1..)
                    .map_or(0, |s| s.chars().take_while(|&c| c == '#').count());
                let body = i + 1 + hashes + 1;
                let closer = format!("\"{}", "#".repeat(hashes));
                i = text
                    .get(body..)
                    .and_then(|s| s.find(&closer))
                    .map_or(i + 1, |n| body + n + closer.len());
            }
            b' ' | b'\t' | b'\r' => i += 1,
            _ => {
                line_has_code = true;
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_line_and_block_comments_but_not_in_strings() {
        let text = "// head\ntool t { /* inner */ effect x; } // tail\nlexicon l { \"a // b\" }\n";
        let found: Vec<(String, bool)> = comments(FileId(0), text)
            .into_iter()
            .map(|c| (c.text, c.trailing))
            .collect();
        assert_eq!(
            found,
            vec![
                ("// head".to_string(), false),
                ("/* inner */".to_string(), true),
                ("// tail".to_string(), true),
            ]
        );
    }
}
