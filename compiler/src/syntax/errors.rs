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

pub(crate) fn unexpected(
    span: Span,
    found: &str,
    expected: &[String],
    help: Option<String>,
) -> Diagnostic {
    let list = join_or(expected);
    // A long list is in the message already; the label stays short.
    let label = if expected.len() <= 3 {
        format!("expected {list}")
    } else {
        format!("unexpected {found}")
    };
    Diagnostic::new(Code::E0101, format!("expected {list}, found {found}"))
        .primary(span, label)
        .maybe_help(help)
}

/// `a`, `a or b`, `a, b or c`; "something else" for an empty list.
pub(crate) fn join_or(items: &[String]) -> String {
    match items {
        [] => "something else".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

pub(crate) fn missing_semicolon(after: Span, found: &str) -> Diagnostic {
    let at = Span {
        start: after.end,
        ..after
    };
    Diagnostic::new(Code::E0102, format!("missing `;` before {found}"))
        .primary(at, "expected `;` here")
        .help("end the statement with `;`")
        .fix(at, ";")
}

pub(crate) fn unclosed_delimiter(
    open_span: Span,
    open: char,
    eof: Span,
    item_inside: Option<(Span, &str)>,
) -> Diagnostic {
    let close = closer_of(open);
    let d = Diagnostic::new(Code::E0103, format!("this `{open}` is never closed"))
        .primary(open_span, "unclosed delimiter");
    match item_inside {
        Some((at, keyword)) => d
            .secondary(
                at,
                format!("`{keyword}` starts a new declaration inside the open block"),
            )
            .help(format!(
                "add `{close}` before this `{keyword}`, where the block should end"
            )),
        None => d
            .secondary(eof, format!("the file ends here, expected `{close}`"))
            .help(format!("add `{close}` where the block should end")),
    }
}

pub(crate) fn unclosed_before_semicolon(
    open_span: Span,
    open: char,
    semicolon: Span,
) -> Diagnostic {
    let close = closer_of(open);
    Diagnostic::new(Code::E0103, format!("this `{open}` is never closed"))
        .primary(open_span, "unclosed delimiter")
        .secondary(
            semicolon,
            format!("the statement ends here, expected `{close}` before it"),
        )
        .help(format!("add `{close}` before the `;`"))
}

pub(crate) fn unterminated_string(span: Span) -> Diagnostic {
    Diagnostic::new(Code::E0104, "unterminated string")
        .primary(span, "this string is never closed")
        .help("add a closing `\"` before the end of the line")
}

pub(crate) fn unknown_keyword(
    span: Span,
    word: &str,
    help: String,
    expected: &[String],
) -> Diagnostic {
    let d = Diagnostic::new(Code::E0105, format!("unknown keyword `{word}`"));
    if expected.len() <= 3 {
        d.primary(span, format!("expected {}", join_or(expected)))
    } else {
        d.primary(span, "not a keyword here")
            .note(format!("expected {}", join_or(expected)))
    }
    .help(help)
}

pub(crate) fn unexpected_eof(span: Span, expected: &[String], help: Option<String>) -> Diagnostic {
    Diagnostic::new(
        Code::E0106,
        format!("unexpected end of file, expected {}", join_or(expected)),
    )
    .primary(span, "the file ends here")
    .help(help.unwrap_or_else(|| "finish the declaration or remove it".to_string()))
}

pub(crate) fn invalid_escape(span: Span, written: &str) -> Diagnostic {
    let help = if written.starts_with("\\u") {
        "write a unicode escape as `\\u{...}` with 1 to 6 hex digits of a valid code point, such as `\\u{e9}`"
    } else {
        "strings support `\\\"`, `\\\\`, `\\n`, `\\t`, `\\r`, `\\0` and `\\u{...}`; for a regular expression use a raw string such as `r\"\\d+\"`"
    };
    Diagnostic::new(Code::E0107, format!("invalid escape sequence `{written}`"))
        .primary(span, "not a valid escape")
        .help(help)
}

pub(crate) fn invalid_number(span: Span, text: &str) -> Diagnostic {
    Diagnostic::new(Code::E0108, format!("invalid number `{text}`"))
        .primary(span, "not a number")
        .help("write numbers as digits with an optional fraction, such as `5` or `0.7`")
}

pub(crate) fn unmatched_close(span: Span, close: char) -> Diagnostic {
    Diagnostic::new(Code::E0109, format!("unmatched `{close}`"))
        .primary(span, "no block is open here")
        .help(format!(
            "remove this `{close}` or add the opening delimiter it closes"
        ))
}

pub(crate) fn unknown_characters(span: Span, chars: &str) -> Diagnostic {
    let shown: String = chars
        .chars()
        .map(|c| {
            // Invisible characters (zero-width, direction marks, a
            // byte-order mark) are named by code point.
            let invisible = matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{fffd}');
            if c.is_control() || c.is_whitespace() || invisible {
                format!("U+{:04X}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect();
    // A backtick is quoted with two, as in Markdown.
    let quoted = if shown.contains('`') {
        format!("`` {shown} ``")
    } else {
        format!("`{shown}`")
    };
    let message = if chars.chars().count() == 1 {
        format!("unknown character {quoted}")
    } else {
        format!("unknown characters {quoted}")
    };
    let label = "not part of the language";
    let help = match chars {
        "&&" | "&" => "write `and` to combine conditions".to_string(),
        "||" | "|" => "write `or` for either condition".to_string(),
        _ if chars.chars().any(|c| c.is_alphabetic()) => {
            "names use ASCII letters, digits and `_`; put other text in a string".to_string()
        }
        _ => "remove it; names use ASCII letters, digits and `_`, and other text goes in a string"
            .to_string(),
    };
    Diagnostic::new(Code::E0110, message)
        .primary(span, label)
        .help(help)
}

pub(crate) fn reserved_word(span: Span, word: &str) -> Diagnostic {
    Diagnostic::new(
        Code::E0111,
        format!("`{word}` is a reserved word and cannot be used as a name"),
    )
    .primary(span, "expected a name")
    .help(format!(
        "choose another name, such as `{word}_`; `when`, `unless`, `and`, `or`, `not`, `true` and `false` are reserved"
    ))
}

pub(crate) fn invalid_utf8(span: Span, bad: &[u8]) -> Diagnostic {
    let bytes: Vec<String> = bad.iter().map(|b| format!("0x{b:02X}")).collect();
    let label = match bytes.as_slice() {
        [one] => format!("byte {one} is not utf-8"),
        _ => format!("bytes {} are not utf-8", bytes.join(" ")),
    };
    Diagnostic::new(Code::E0112, "the input is not valid utf-8")
        .primary(span, label)
        .help("save the file as utf-8")
}

pub(crate) fn unterminated_raw_string(opener: Span, closer: &str) -> Diagnostic {
    Diagnostic::new(Code::E0104, "unterminated raw string")
        .primary(opener, "this raw string is never closed")
        .help(format!("close the raw string with `{closer}`"))
}

pub(crate) fn unterminated_comment(span: Span) -> Diagnostic {
    Diagnostic::new(Code::E0113, "unterminated block comment")
        .primary(span, "this comment is never closed")
        .help("close the comment with `*/`")
}

pub(crate) fn missing_comma(before: Span, found: &str) -> Diagnostic {
    let at = Span {
        start: before.end,
        ..before
    };
    Diagnostic::new(Code::E0114, format!("missing `,` before {found}"))
        .primary(at, "expected `,` here")
        .help("separate list items with `,`")
        .fix(at, ",")
}

/// `best` is the action the word most likely meant, if any.
pub(crate) fn unknown_action(span: Span, word: &str, best: Option<&str>) -> Diagnostic {
    let d = Diagnostic::new(Code::E0115, format!("unknown action `{word}`")).primary(
        span,
        "expected `allow`, `block`, `defer`, `rewrite` or `shadow`",
    );
    match best {
        Some(best) => d.help(format!("did you mean `{best}`?")).fix(span, best),
        None => d.help(
            "a rule starts with one of the five actions: `allow`, `block`, `defer`, `rewrite`, `shadow`",
        ),
    }
}

pub(crate) fn mismatched_delimiter(
    span: Span,
    close: char,
    open_span: Span,
    open: char,
) -> Diagnostic {
    Diagnostic::new(Code::E0116, format!("`{open}` closed by `{close}`"))
        .primary(span, format!("expected `{}`", closer_of(open)))
        .secondary(open_span, "opened here")
        .help(format!("replace `{close}` with `{}`", closer_of(open)))
        .fix(span, closer_of(open).to_string())
}

pub(crate) fn missing_inner_closer(
    span: Span,
    close: char,
    open_span: Span,
    open: char,
) -> Diagnostic {
    Diagnostic::new(
        Code::E0116,
        format!("`{open}` is not closed before `{close}`"),
    )
    .primary(span, format!("expected `{}` before this", closer_of(open)))
    .secondary(open_span, "opened here")
    .help(format!("add `{}` before this `{close}`", closer_of(open)))
}

pub(crate) fn missing_condition(span: Span, keyword: &str) -> Diagnostic {
    Diagnostic::new(Code::E0117, format!("`{keyword}` needs a condition"))
        .primary(span, format!("expected a condition after `{keyword}`"))
        .help(format!(
            "write a condition after `{keyword}`, such as `{keyword} args >= sensitive`, or remove `{keyword}`"
        ))
}

pub(crate) fn too_deep(span: Span, limit: usize) -> Diagnostic {
    Diagnostic::new(
        Code::E0118,
        format!("delimiters are nested more than {limit} deep"),
    )
    .primary(span, "too deep here")
    .help("split the condition into rules, or name its parts; contracts never need this depth")
}

/// `E0118` for a chain of declarations naming each other too deep: sets
/// naming sets, contracts extending contracts.
pub(crate) fn too_deep_chain(what: &str, limit: usize, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0118,
        format!("{what} are nested more than {limit} deep"),
    )
    .primary(span, "the chain passes the limit here")
    .help("name the members directly instead of through a chain of declarations; contracts never need this depth")
}

pub(crate) fn too_many_terms(span: Span, limit: usize) -> Diagnostic {
    Diagnostic::new(
        Code::E0118,
        format!("a condition has more than {limit} `and`, `or` and `not` operators"),
    )
    .primary(span, "the operator past the limit")
    .help("split the condition into several rules, or use `in {..}` for a list of values")
}
