//! Parsing: source text to [`ast::File`], with precise, recoverable errors.
//!
//! The pipeline inside this stage:
//!
//! ```text
//! text ──lex──▶ tokens + lexical errors (strings, comments, numbers,
//!      │        characters, delimiters)
//!      ──split at top-level items──▶ chunks
//!      ──pest (grammar/stpc.pest), per chunk──▶ pairs ──from_pairs──▶ ast items
//!                                             └─▶ pest error ──classify──▶ E01xx
//! ```
//!
//! Recovery works at item granularity: the file is split before every word
//! that follows a `;` or `}` at bracket depth 0 (where only a new
//! declaration can start, misspelled or not), and each chunk is parsed on
//! its own, so one broken declaration does not hide the errors in the next.
//! Lexical errors (an unterminated string, an unclosed `{`) make every later
//! position unreliable, so when the pre-pass finds any, they are reported
//! alone.
//!
//! pest's raw error names grammar rules; [`grammar::friendly`] maps each to
//! the words a user would type, and `classify` turns the error into one
//! code with a fix: the common shapes (a missing `;`, a misspelled keyword,
//! a missing `,`) get their own codes, and the help of the rest comes from
//! small repairs that are re-parsed to prove they work.
//!
//! Alternatives rejected: a hand-written recursive-descent parser would give
//! full control over recovery, but the grammar would then live in two
//! places; pest's built-in `into_miette` and its default messages name rule
//! ids and stop at the first error of the file.

pub mod ast;
mod classify;
mod errors;
pub(crate) use errors::too_deep_chain;
mod from_pairs;
mod grammar;
pub(crate) mod lex;
pub mod modernize;
pub mod print;
#[cfg(test)]
mod tests;
pub mod trivia;

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::source::{FileId, Span};
use grammar::{Rule, StpcParser};
use pest::Parser;

pub use trivia::Comment;

/// Words that begin a top-level declaration.
pub const ITEM_KEYWORDS: &[&str] = &[
    "use",
    "lattice",
    "enum",
    "channels",
    "observer",
    "destination",
    "tool",
    "substitute",
    "lexicon",
    "labeler",
    "transform",
    "set",
    "contract",
];

/// Words that begin a statement inside a contract.
pub(crate) const CONTRACT_KEYWORDS: &[&str] = &[
    "tools",
    "destinations",
    "labelers",
    "forbid",
    "threshold",
    "budget",
    "audit",
    "decide",
    "test",
];

/// The five actions of a `decide` pipeline.
pub(crate) const ACTIONS: &[&str] = &["allow", "block", "defer", "rewrite", "shadow"];

/// Words that can never be names.
pub(crate) const RESERVED: &[&str] = &["when", "unless", "and", "or", "not", "true", "false"];

/// Parses one file. Returns the AST when there were no syntax errors.
pub fn parse(file: FileId, text: &str, diagnostics: &mut Diagnostics) -> Option<ast::File> {
    let lexed = lex::lex(file, text);
    if !lexed.diagnostics.is_empty() {
        diagnostics.extend(lexed.diagnostics);
        return None;
    }
    pest::set_error_detail(true);
    let mut out = ast::File::default();
    let mut ok = true;
    for (start, end) in chunks(text, &lexed.tokens) {
        let chunk = text.get(start..end).unwrap_or("");
        if let Some(d) = beyond_limits(file, text, &lexed.tokens, start, end) {
            diagnostics.push(d);
            ok = false;
            continue;
        }
        match StpcParser::parse(Rule::file, chunk) {
            Ok(mut pairs) => {
                let builder = from_pairs::Builder {
                    file,
                    offset: u32::try_from(start).unwrap_or(u32::MAX),
                };
                let Some(root) = pairs.next() else {
                    diagnostics.push(Diagnostic::internal(
                        Span::new(file, start, end),
                        "the parser returned no tree",
                    ));
                    ok = false;
                    continue;
                };
                match builder.file(root) {
                    Ok(f) => out.items.extend(f.items),
                    Err(e) => {
                        diagnostics.push(Diagnostic::internal(e.span, e.what));
                        ok = false;
                    }
                }
            }
            Err(error) => {
                let cx = classify::Context {
                    file,
                    text,
                    offset: start,
                    chunk,
                    tokens: &lexed.tokens,
                };
                diagnostics.push(classify::classify(&cx, &error));
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

/// Checks that bytes are UTF-8, reporting `E0112` at the first bad byte.
///
/// The diagnostic's span points into `String::from_utf8_lossy(bytes)`, in
/// which the first invalid sequence became one U+FFFD (three bytes): add that
/// lossy text to the [`crate::SourceMap`] under `file` so renderers can show
/// the line. The offsets before the bad sequence are the same in both.
pub fn decode(file: FileId, bytes: &[u8], diagnostics: &mut Diagnostics) -> Option<String> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Some(text.to_string()),
        Err(e) => {
            let at = e.valid_up_to();
            let len = e.error_len().unwrap_or(bytes.len().saturating_sub(at));
            let bad = bytes.get(at..at + len).unwrap_or(&[]);
            diagnostics.push(errors::invalid_utf8(
                Span::new(file, at, at + '\u{fffd}'.len_utf8()),
                bad,
            ));
            None
        }
    }
}

/// Splits the text before each word that starts a statement at depth 0.
///
/// A leading byte-order mark is not part of the first chunk.
/// Deepest delimiter nesting the parser accepts.
///
/// Every later stage (the parser's own recursion, the AST builder, checker,
/// lowering, printer and formatter) walks nested expressions recursively,
/// so depth is bounded once, here, before any of them runs: the limits are
/// far beyond what a contract needs and far below what overflows a stack.
pub const MAX_NESTING: usize = 64;

/// Most `and`/`or`/`not` operators in one statement: each one is a level of
/// the binary expression tree.
pub const MAX_OPERATORS: usize = 1024;

/// The first place a chunk exceeds [`MAX_NESTING`] or [`MAX_OPERATORS`].
fn beyond_limits(
    file: FileId,
    text: &str,
    tokens: &[lex::Token],
    start: usize,
    end: usize,
) -> Option<Diagnostic> {
    let mut operators = 0;
    // Tokens are in text order: the chunk's are one run, found by binary
    // search (a scan of every token per chunk was quadratic in the file,
    // 65 % of compiling 10,000 tools).
    let from = tokens.partition_point(|t| t.start < start);
    let run = tokens.get(from..).unwrap_or(&[]);
    for t in run
        .iter()
        .take_while(|t| t.start < end)
        .filter(|t| t.end <= end)
    {
        let word = text.get(t.start..t.end).unwrap_or("");
        if t.depth >= MAX_NESTING && matches!(word, "(" | "[" | "{") {
            return Some(errors::too_deep(
                Span::new(file, t.start, t.end),
                MAX_NESTING,
            ));
        }
        match word {
            ";" | "{" | "}" => operators = 0,
            "and" | "or" | "not" => {
                operators += 1;
                if operators > MAX_OPERATORS {
                    return Some(errors::too_many_terms(
                        Span::new(file, t.start, t.end),
                        MAX_OPERATORS,
                    ));
                }
            }
            _ => {}
        }
    }
    None
}

fn chunks(text: &str, tokens: &[lex::Token]) -> Vec<(usize, usize)> {
    let first = lex::bom_len(text);
    let mut starts = vec![first];
    let mut prev: Option<&str> = None;
    for t in tokens {
        let word = text.get(t.start..t.end).unwrap_or("");
        let at_statement_start = matches!(prev, None | Some(";") | Some("}"));
        // After a top-level `;` or `}`, a word always starts a new item
        // (a misspelled keyword too, so its error stays its own).
        let is_word = word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        if t.depth == 0 && at_statement_start && is_word && t.start > first {
            starts.push(t.start);
        }
        prev = Some(word);
    }
    starts.dedup();
    let mut out = Vec::new();
    for (i, &s) in starts.iter().enumerate() {
        let e = starts.get(i + 1).copied().unwrap_or(text.len());
        out.push((s, e));
    }
    out
}
