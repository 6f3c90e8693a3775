//! Parsing: source text to [`ast::File`], with precise, recoverable errors.
//!
//! The pipeline inside this stage:
//!
//! ```text
//! text ──lex──▶ tokens + lexical errors (strings, comments, delimiters, characters)
//!      ──split at top-level items──▶ chunks
//!      ──pest (grammar/stpc.pest), per chunk──▶ pairs ──from_pairs──▶ ast items
//!                                             └─▶ pest error ──classify──▶ E01xx
//! ```
//!
//! Recovery works at item granularity: the file is split before every
//! top-level keyword that starts a statement at bracket depth 0, and each
//! chunk is parsed on its own, so one broken declaration does not hide the
//! errors in the next. Lexical errors (an unterminated string, an unclosed
//! `{`) make every later position unreliable, so when the pre-pass finds
//! any, they are reported alone.
//!
//! pest's raw error names grammar rules; [`grammar::friendly`] maps each to
//! the words a user would type, and `classify` turns the common shapes
//! (a missing `;`, a misspelled keyword, a missing `,`) into their own codes
//! with a fix.

pub mod ast;
mod errors;
mod from_pairs;
mod grammar;
mod lex;
pub mod print;
pub mod trivia;
#[cfg(test)]
mod tests;

use crate::diagnostics::{suggest, Diagnostic, Diagnostics};
use crate::source::{FileId, Span};
use grammar::{friendly, Rule, StpcParser};
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
    "contract",
];

/// Words that begin a statement inside a contract.
const CONTRACT_KEYWORDS: &[&str] = &[
    "tools",
    "destinations",
    "forbid",
    "threshold",
    "budget",
    "audit",
    "decide",
    "test",
];

const ACTIONS: &[&str] = &["allow", "block", "defer", "rewrite", "shadow"];

const RESERVED: &[&str] = &["when", "unless", "and", "or", "not", "true", "false"];

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
                diagnostics.push(classify(file, text, start, &lexed.tokens, &error));
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

/// Checks that bytes are UTF-8, reporting `E0112` at the first bad byte.
pub fn decode(file: FileId, bytes: &[u8], diagnostics: &mut Diagnostics) -> Option<String> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Some(text.to_string()),
        Err(e) => {
            let at = e.valid_up_to();
            let len = e.error_len().unwrap_or(1);
            diagnostics.push(errors::invalid_utf8(Span::new(file, at, at + len)));
            None
        }
    }
}

/// Splits the text before each item keyword that starts a statement at depth 0.
fn chunks(text: &str, tokens: &[lex::Token]) -> Vec<(usize, usize)> {
    let mut starts = vec![0];
    let mut prev: Option<&str> = None;
    for t in tokens {
        let word = text.get(t.start..t.end).unwrap_or("");
        let at_statement_start = matches!(prev, None | Some(";") | Some("}"));
        if t.depth == 0 && at_statement_start && ITEM_KEYWORDS.contains(&word) && t.start > 0 {
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

/// Turns a pest error in the chunk at `offset` into one diagnostic.
fn classify(
    file: FileId,
    text: &str,
    offset: usize,
    tokens: &[lex::Token],
    error: &pest::error::Error<Rule>,
) -> Diagnostic {
    let located = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    // pest locates an error at the furthest *rule* it tried; the detailed
    // attempts also track literal tokens such as `;`, which often get further.
    let furthest = error.parse_attempts().map_or(0, |a| a.max_position);
    let pos = offset + located.max(furthest);
    let expected = expected_list(error, furthest > located);
    let expected_text = join_expected(&expected);
    // The token at the error position, and the one before it.
    let here = tokens.iter().find(|t| t.start >= pos);
    let before = tokens.iter().rev().find(|t| t.end <= pos);
    let span_of = |t: &lex::Token| Span::new(file, t.start, t.end);
    let Some(here) = here else {
        return errors::unexpected_eof(Span::new(file, text.len(), text.len()), &expected_text);
    };
    let word = text.get(here.start..here.end).unwrap_or("");
    let found = describe(word);
    let here_span = span_of(here);
    let expects = |s: &str| expected.iter().any(|e| e == s);
    let is_word = word.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let prev_word = before.and_then(|b| text.get(b.start..b.end)).unwrap_or("");

    // `when` / `unless` followed by no condition.
    if (prev_word == "when" || prev_word == "unless") && word == ";" {
        return errors::missing_condition(here_span, prev_word);
    }
    // A malformed number such as `0.` or `.5` or `1.2.3`.
    if looks_like_bad_number(text, here.start) {
        let end = text
            .get(here.start..)
            .and_then(|s| s.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-')))
            .map_or(text.len(), |n| here.start + n);
        let lit = text.get(here.start..end).unwrap_or("");
        return errors::invalid_number(Span::new(file, here.start, end), lit);
    }
    // A reserved word where a name is expected.
    if is_word && RESERVED.contains(&word) && expects("a name") {
        return errors::reserved_word(here_span, word, &expected_text);
    }
    // `alow;` in a pipeline: the word parsed as a rule name, then `:` was expected.
    if expects("`:`") && !expects("an action (`allow`, `block`, `defer`, `rewrite`, `shadow`)") {
        if let Some(b) = before {
            let prev_prev = tokens
                .iter()
                .rev()
                .find(|t| t.end <= b.start)
                .and_then(|t| text.get(t.start..t.end))
                .unwrap_or("");
            if matches!(prev_prev, "{" | ";") && !ACTIONS.contains(&prev_word) && in_decide(text, tokens, b.start) {
                let suggestion = suggest::did_you_mean(prev_word, ACTIONS.iter().copied());
                return errors::unknown_action(span_of(b), prev_word, suggestion);
            }
        }
    }
    // A word where an action is expected.
    if is_word && expects("an action (`allow`, `block`, `defer`, `rewrite`, `shadow`)") && !ACTIONS.contains(&word) {
        // `name:` may also start a rule, so only a close miss is an unknown action.
        let suggestion = suggest::did_you_mean(word, ACTIONS.iter().copied());
        if suggestion.is_some() || !text.get(here.end..).is_some_and(|r| r.trim_start().starts_with(':')) {
            return errors::unknown_action(here_span, word, suggestion);
        }
    }
    // A misspelled keyword where a declaration or statement is expected.
    if is_word {
        let keywords: Vec<&str> = expected
            .iter()
            .filter_map(|e| e.strip_prefix('`').and_then(|e| e.strip_suffix('`')))
            .filter(|e| e.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
            .chain(
                (here.depth == 0)
                    .then_some(ITEM_KEYWORDS)
                    .into_iter()
                    .flatten()
                    .copied(),
            )
            .chain(
                expects("`tools`")
                    .then_some(CONTRACT_KEYWORDS)
                    .into_iter()
                    .flatten()
                    .copied(),
            )
            .collect();
        if let Some(best) = suggest::best_match(word, keywords.iter().copied()) {
            return errors::unknown_keyword(
                here_span,
                word,
                Some(format!("did you mean `{best}`?")),
                &expected_text,
            );
        }
        if here.depth == 0 && prev_word.is_empty() || (here.depth == 0 && matches!(prev_word, ";" | "}")) {
            return errors::unknown_keyword(
                here_span,
                word,
                Some(format!(
                    "a file contains declarations starting with {}",
                    join_expected(&ITEM_KEYWORDS.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>())
                )),
                &expected_text,
            );
        }
    }
    // A missing `;`: expected here, and the next token starts a new line or closes a block.
    if expects("`;`") {
        if let Some(b) = before {
            let gap = text.get(b.end..here.start).unwrap_or("");
            if gap.contains('\n') || word == "}" {
                return errors::missing_semicolon(span_of(b), &found);
            }
        }
    }
    // A missing `,` between two list items.
    if expects("`,`") && (is_word || word.starts_with('"')) {
        if let Some(b) = before {
            return errors::missing_comma(span_of(b), &found);
        }
    }
    errors::unexpected(here_span, &found, &expected_text)
}

/// Whether the innermost open block at `at` is a `decide { ... }`.
fn in_decide(text: &str, tokens: &[lex::Token], at: usize) -> bool {
    let mut depth_words: Vec<&str> = Vec::new();
    let mut prev = "";
    for t in tokens.iter().take_while(|t| t.start < at) {
        let w = text.get(t.start..t.end).unwrap_or("");
        match w {
            "{" | "(" | "[" => depth_words.push(prev),
            "}" | ")" | "]" => {
                depth_words.pop();
            }
            _ => {}
        }
        prev = w;
    }
    depth_words.last() == Some(&"decide")
}

fn looks_like_bad_number(text: &str, at: usize) -> bool {
    let rest = text.get(at..).unwrap_or("");
    let lit: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let has_digit = lit.chars().any(|c| c.is_ascii_digit());
    has_digit && (lit.starts_with('.') || lit.ends_with('.') || lit.matches('.').count() > 1)
}

/// What the parser expected, in the user's words, sorted and deduplicated.
///
/// When the detailed attempts got further than pest's rule-level location,
/// only what was expected at that further position is listed.
fn expected_list(error: &pest::error::Error<Rule>, tokens_only: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if let pest::error::ErrorVariant::ParsingError { positives, .. } = &error.variant {
        if !tokens_only {
            out.extend(positives.iter().map(|r| friendly(*r).to_string()));
        }
    }
    if let Some(attempts) = error.parse_attempts() {
        for stack in &attempts.call_stacks {
            if let (true, Some(r)) = (tokens_only, stack.deepest.get_rule()) {
                out.push(friendly(*r).to_string());
            }
        }
        for token in attempts.expected_tokens() {
            // Punctuation only: keywords are reported through their rules.
            let token = token.to_string();
            let skipped = token.is_empty()
                || token.contains("..")
                || token.chars().any(|c| c.is_alphanumeric() || c.is_whitespace() || c == '_')
                || token == "//"
                || token == "/*";
            if !skipped {
                out.push(format!("`{token}`"));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

fn join_expected(items: &[String]) -> String {
    match items {
        [] => "something else".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn describe(word: &str) -> String {
    if word.starts_with('"') {
        "a string".to_string()
    } else {
        format!("`{word}`")
    }
}
