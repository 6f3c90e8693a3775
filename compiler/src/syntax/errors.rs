//! One constructor per syntax diagnostic code.

use crate::diagnostics::{Code, Diagnostic};
use crate::source::Span;

fn closer_of(open: char) -> char {
    match open {
        '{' => '}',
        '(' => ')',
        _ => ']',
    }
}

pub(crate) fn unexpected(span: Span, found: &str, expected: &str) -> Diagnostic {
    Diagnostic::new(Code::E0101, format!("expected {expected}, found {found}"))
        .primary(span, format!("expected {expected}"))
}

pub(crate) fn missing_semicolon(after: Span, found: &str) -> Diagnostic {
    let at = Span { start: after.end, ..after };
    Diagnostic::new(Code::E0102, format!("missing `;` before {found}"))
        .primary(at, "expected `;` here")
        .help("end the statement with `;`")
}

pub(crate) fn unclosed_delimiter(open_span: Span, open: char, eof: Span) -> Diagnostic {
    Diagnostic::new(Code::E0103, format!("this `{open}` is never closed"))
        .primary(open_span, "unclosed delimiter")
        .secondary(eof, format!("the file ends here, expected `{}`", closer_of(open)))
        .help(format!("add `{}` where the block should end", closer_of(open)))
}

pub(crate) fn unterminated_string(span: Span) -> Diagnostic {
    Diagnostic::new(Code::E0104, "unterminated string")
        .primary(span, "this string is never closed")
        .help("add a closing `\"` before the end of the line")
}

pub(crate) fn unknown_keyword(span: Span, word: &str, suggestion: Option<String>, expected: &str) -> Diagnostic {
    Diagnostic::new(Code::E0105, format!("unknown keyword `{word}`"))
        .primary(span, format!("expected {expected}"))
        .maybe_help(suggestion)
}

pub(crate) fn unexpected_eof(span: Span, expected: &str) -> Diagnostic {
    Diagnostic::new(Code::E0106, format!("unexpected end of file, expected {expected}"))
        .primary(span, "the file ends here")
        .help("finish the declaration or remove it")
}

pub(crate) fn invalid_escape(span: Span, escape: char) -> Diagnostic {
    let shown: String = escape.escape_default().collect();
    Diagnostic::new(Code::E0107, format!("invalid escape sequence `\\{shown}`"))
        .primary(span, "not a valid escape")
        .help("strings support `\\\"`, `\\\\`, `\\n`, `\\t`, `\\r`, `\\0` and `\\u{...}`; for regular expressions use a raw string such as r\"\\d+\"")
}

pub(crate) fn invalid_number(span: Span, text: &str) -> Diagnostic {
    Diagnostic::new(Code::E0108, format!("invalid number `{text}`"))
        .primary(span, "not a number")
        .help("write numbers as digits with an optional fraction, such as `5` or `0.7`")
}

pub(crate) fn unmatched_close(span: Span, close: char) -> Diagnostic {
    Diagnostic::new(Code::E0109, format!("unmatched `{close}`"))
        .primary(span, "no block is open here")
        .help(format!("remove this `{close}` or add the opening delimiter it closes"))
}

pub(crate) fn unknown_character(span: Span, ch: char) -> Diagnostic {
    let shown: String = ch.escape_default().collect();
    Diagnostic::new(Code::E0110, format!("unknown character `{shown}`"))
        .primary(span, "not part of the language")
        .help("remove it; names use letters, digits and `_`, and text goes in quotes")
}

pub(crate) fn reserved_word(span: Span, word: &str, expected: &str) -> Diagnostic {
    Diagnostic::new(Code::E0111, format!("`{word}` is a reserved word and cannot be used as a name"))
        .primary(span, format!("expected {expected}"))
        .help(format!("choose another name, such as `{word}_`"))
}

pub(crate) fn invalid_utf8(span: Span) -> Diagnostic {
    Diagnostic::new(Code::E0112, "the input is not valid utf-8")
        .primary(span, "invalid byte sequence here")
        .help("save the file as utf-8")
}

pub(crate) fn unterminated_comment(span: Span) -> Diagnostic {
    Diagnostic::new(Code::E0113, "unterminated block comment")
        .primary(span, "this comment is never closed")
        .help("close the comment with `*/`")
}

pub(crate) fn missing_comma(before: Span, found: &str) -> Diagnostic {
    let at = Span { start: before.end, ..before };
    Diagnostic::new(Code::E0114, format!("missing `,` before {found}"))
        .primary(at, "expected `,` here")
        .help("separate list items with `,`")
}

pub(crate) fn unknown_action(span: Span, word: &str, suggestion: Option<String>) -> Diagnostic {
    Diagnostic::new(Code::E0115, format!("unknown action `{word}`"))
        .primary(span, "expected `allow`, `block`, `defer`, `rewrite` or `shadow`")
        .help(suggestion.unwrap_or_else(|| {
            "a rule starts with one of the five actions: `allow`, `block`, `defer`, `rewrite`, `shadow`".into()
        }))
}

pub(crate) fn mismatched_delimiter(span: Span, close: char, open_span: Span, open: char) -> Diagnostic {
    Diagnostic::new(Code::E0116, format!("`{open}` closed by `{close}`"))
        .primary(span, format!("expected `{}`", closer_of(open)))
        .secondary(open_span, "opened here")
        .help(format!("replace `{close}` with `{}`", closer_of(open)))
}

pub(crate) fn missing_condition(span: Span, keyword: &str) -> Diagnostic {
    Diagnostic::new(Code::E0117, format!("`{keyword}` needs a condition"))
        .primary(span, "expected a condition here")
        .help(format!("write a condition after `{keyword}`, such as `{keyword} args >= sensitive`, or remove `{keyword}`"))
}
