//! Turning a pest error into one `E01xx` diagnostic, in the user's words,
//! with a fix where one is likely.
//!
//! pest reports two things about a failure: the rules it tried at the
//! rule-level error position (`positives`), and, with error detail on, the
//! literal tokens and token-like rules it tried at the furthest position any
//! attempt reached. Neither alone is a good "expected" list: the first
//! misses punctuation such as `;`, and the second is stated in characters
//! (`a..z`) and lookaheads. [`expected`] merges them into [`Expected`]
//! items, each named through [`friendly`], so no rule id reaches users.
//!
//! The classification then tries, in order: a missing condition after
//! `when`/`unless` (E0117), a reserved word used as a name (E0111), an
//! unknown action (E0115), a misspelled keyword (E0105), and finally small
//! *repairs*: the chunk is re-parsed with a `;` or `,` inserted (E0102,
//! E0114), with one expected token inserted, the offending token replaced
//! or deleted (help lines for E0101). A repair counts when the parser then
//! gets past the offending token and the one after it, so a repair is only
//! suggested when it demonstrably helps. Each repair is one re-parse of one
//! top-level item, which only happens on an error.

use super::grammar::{friendly, Rule, StpcParser};
use super::lex::Token;
use super::{errors, ACTIONS, CONTRACT_KEYWORDS, ITEM_KEYWORDS, RESERVED};
use crate::diagnostics::{suggest, Diagnostic};
use crate::source::{FileId, Span};
use pest::Parser;

/// Something the parser expected, in the user's words.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Expected {
    /// A keyword or keyword phrase, such as `at` or `observed by`.
    Keyword(String),
    /// Punctuation such as `;`.
    Punct(String),
    /// A class of tokens, such as "a name".
    Class(String),
}

impl Expected {
    fn render(&self) -> String {
        match self {
            Expected::Keyword(k) | Expected::Punct(k) => format!("`{k}`"),
            Expected::Class(c) => c.clone(),
        }
    }
}

const ACTION_CLASS: &str = "an action (`allow`, `block`, `defer`, `rewrite`, `shadow`)";
const NAME: &str = "a name";
const CONDITION: &str = "a condition";

/// Splits a friendly name into items: "`host`, `url` or `collection`" is
/// three keywords; anything not made only of backticked words is a class.
fn items_of(friendly: &str) -> Vec<Expected> {
    let mut out = Vec::new();
    let mut rest = friendly;
    while let Some(after_tick) = rest.strip_prefix('`') {
        let Some(close) = after_tick.find('`') else {
            break;
        };
        let word = after_tick.get(..close).unwrap_or("");
        out.push(
            if word
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == ' ' || c == '_')
            {
                Expected::Keyword(word.to_string())
            } else {
                Expected::Punct(word.to_string())
            },
        );
        rest = after_tick.get(close + 1..).unwrap_or("");
        rest = rest
            .strip_prefix(", ")
            .or_else(|| rest.strip_prefix(" or "))
            .unwrap_or(rest);
    }
    if rest.is_empty() && !out.is_empty() {
        out
    } else {
        vec![Expected::Class(friendly.to_string())]
    }
}

/// Rules that stand for one token, so that trying them at a position means
/// that token was expected there.
fn is_token_rule(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::ident
            | Rule::number
            | Rule::string
            | Rule::raw_string
            | Rule::op_cmp
            | Rule::op_lt
            | Rule::lit_bool
            | Rule::flag
    ) || format!("{rule:?}").starts_with("kw_")
}

/// The expected items at the error, merged and simplified.
fn expected(
    error: &pest::error::Error<Rule>,
    rule_level: bool,
    token_level: bool,
) -> Vec<Expected> {
    let mut out: Vec<Expected> = Vec::new();
    if rule_level {
        if let pest::error::ErrorVariant::ParsingError { positives, .. } = &error.variant {
            for r in positives {
                out.extend(items_of(friendly(*r)));
            }
        }
    }
    if let (true, Some(attempts)) = (token_level, error.parse_attempts()) {
        for stack in attempts.call_stacks() {
            if let Some(r) = stack.deepest.get_rule().filter(|r| is_token_rule(**r)) {
                out.extend(items_of(friendly(*r)));
            }
        }
        for token in attempts.expected_tokens() {
            let token = token.to_string();
            if token.is_empty() || matches!(token.as_str(), "//" | "/*" | "-" | "_") {
                continue;
            }
            if token.chars().all(|c| c.is_ascii_lowercase()) {
                out.push(Expected::Keyword(token));
            } else if !token
                .chars()
                .any(|c| c.is_alphanumeric() || c.is_whitespace() || c == '_')
            {
                out.push(Expected::Punct(token));
            }
        }
    }
    simplify(out)
}

/// Removes items that a broader item in the list already covers.
fn simplify(mut items: Vec<Expected>) -> Vec<Expected> {
    let has_class = |items: &[Expected], prefix: &str| {
        items
            .iter()
            .any(|e| matches!(e, Expected::Class(c) if c.starts_with(prefix)))
    };
    // Anything that can start a guard is "a condition".
    let is_condition_part =
        |c: &str| c == "a comparison" || c == CONDITION || c.starts_with("a subject");
    let condition = items
        .iter()
        .any(|e| matches!(e, Expected::Class(c) if is_condition_part(c)))
        || items.contains(&Expected::Keyword("not".into()))
            && items.contains(&Expected::Punct("(".into()));
    if condition {
        let starts = [
            "not",
            "true",
            "false",
            "tool",
            "destination",
            "budget",
            "labels",
            "substitute",
            "mode",
            "effect",
            "confidence",
            "args",
        ];
        items.retain(|e| match e {
            Expected::Keyword(k) => !starts.contains(&k.as_str()),
            Expected::Punct(p) => p != "(",
            Expected::Class(c) => !(is_condition_part(c) || c == NAME),
        });
        items.push(Expected::Class(CONDITION.into()));
    }
    if has_class(&items, "a label, name or number") {
        items.retain(|e| {
            !matches!(e, Expected::Class(c) if c == NAME || c == "a number")
                && *e != Expected::Keyword("threshold".into())
        });
    }
    if has_class(&items, "an action") {
        items.retain(|e| !matches!(e, Expected::Keyword(k) if ACTIONS.contains(&k.as_str())));
    }
    if has_class(&items, "a comparison operator") {
        items.retain(
            |e| !matches!(e, Expected::Punct(p) if ["==", "!=", "<", "<=", ">", ">="].contains(&p.as_str())),
        );
    }
    if has_class(&items, "a number or parameter name") {
        items.retain(|e| !matches!(e, Expected::Class(c) if c == NAME || c == "a number"));
    }
    // Every declaration keyword: "a declaration".
    let declaration_keywords = ITEM_KEYWORDS
        .iter()
        .all(|k| items.contains(&Expected::Keyword((*k).to_string())));
    if declaration_keywords {
        items.retain(|e| !matches!(e, Expected::Keyword(k) if ITEM_KEYWORDS.contains(&k.as_str())));
        items.push(Expected::Class("a declaration".into()));
    }
    // A `"` is the start of "a string".
    if items.contains(&Expected::Punct("\"".into())) {
        items.retain(|e| *e != Expected::Punct("\"".into()));
        items.push(Expected::Class("a string".into()));
    }
    // What a broader class already names.
    let covered: &[(&str, &[&str])] = &[
        (
            "a value",
            &["\"", "[", "{", "true", "false", "a string", "a number"],
        ),
        (
            "a rule",
            &[
                NAME,
                "a rule name",
                "allow",
                "block",
                "defer",
                "rewrite",
                "shadow",
            ],
        ),
        ("a label binding (`field: label`)", &[NAME, "destination"]),
        ("an argument", &[NAME]),
        ("a field", &[NAME]),
        ("a parameter", &[NAME]),
    ];
    for (class, parts) in covered {
        if items.contains(&Expected::Class((*class).to_string())) {
            items.retain(|e| match e {
                Expected::Keyword(k) | Expected::Punct(k) | Expected::Class(k) => {
                    !parts.contains(&k.as_str())
                }
            });
        }
    }
    // `observed` is only ever the start of `observed by`.
    for e in &mut items {
        if *e == Expected::Keyword("observed".into()) {
            *e = Expected::Keyword("observed by".into());
        }
    }
    items.sort();
    items.dedup();
    items
}

/// Everything `classify` needs to know about the text around an error.
pub(super) struct Context<'a> {
    pub(super) file: FileId,
    /// The whole file.
    pub(super) text: &'a str,
    /// Where the chunk that failed starts in the file.
    pub(super) offset: usize,
    /// The chunk that failed.
    pub(super) chunk: &'a str,
    /// Every token of the file.
    pub(super) tokens: &'a [Token],
}

impl Context<'_> {
    fn word(&self, t: &Token) -> &str {
        self.text.get(t.start..t.end).unwrap_or("")
    }

    fn span(&self, t: &Token) -> Span {
        Span::new(self.file, t.start, t.end)
    }

    /// The first token that ends after `pos`: the one containing `pos`, or
    /// the next one.
    fn token_at(&self, pos: usize) -> Option<&Token> {
        self.tokens.iter().find(|t| t.end > pos)
    }

    fn token_before(&self, pos: usize) -> Option<&Token> {
        self.tokens.iter().rev().find(|t| t.end <= pos)
    }

    fn token_after(&self, t: &Token) -> Option<&Token> {
        self.tokens.iter().find(|u| u.start >= t.end)
    }

    /// The end of the `n`-th token after `t`; `usize::MAX` (only a full
    /// parse reaches it) when the text ends sooner.
    fn tokens_after(&self, t: &Token, n: usize) -> usize {
        self.tokens
            .iter()
            .filter(|u| u.start >= t.end)
            .nth(n.saturating_sub(1))
            .map_or(usize::MAX, |u| u.end)
    }

    /// Whether the chunk, with `range` (file offsets) replaced by `insert`,
    /// parses at least up to `must_pass` (a file offset in the original).
    fn repairs(&self, range: (usize, usize), insert: &str, must_pass: usize) -> bool {
        let (Some(a), Some(b)) = (
            range.0.checked_sub(self.offset),
            range.1.checked_sub(self.offset),
        ) else {
            return false;
        };
        let (Some(head), Some(tail)) = (self.chunk.get(..a), self.chunk.get(b..)) else {
            return false;
        };
        let candidate = format!("{head}{insert}{tail}");
        match StpcParser::parse(Rule::file, &candidate) {
            Ok(_) => true,
            Err(e) => {
                // Offsets in the candidate, relative to the chunk; text after
                // the insertion maps back to the original after `b`.
                let reached = furthest(&e);
                let past_insert = a + insert.len();
                reached >= past_insert && b + (reached - past_insert) + self.offset >= must_pass
            }
        }
    }
}

fn located(error: &pest::error::Error<Rule>) -> usize {
    match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    }
}

fn furthest(error: &pest::error::Error<Rule>) -> usize {
    let at = located(error);
    error
        .parse_attempts()
        .map_or(at, |a| a.max_position.max(at))
}

fn describe(word: &str) -> String {
    if word.starts_with('"') || word.starts_with("r\"") || word.starts_with("r#") {
        "a string".to_string()
    } else {
        format!("`{word}`")
    }
}

fn is_word(word: &str) -> bool {
    word.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
}

/// Turns a pest error in the chunk `cx.chunk` into one diagnostic: a
/// reserved word used as a name, an error at the end of the file, a wrong
/// word (missing condition, unknown action, misspelled keyword), a missing
/// `;` or `,`, and otherwise an "unexpected" error with a repair if one works.
pub(super) fn classify(cx: &Context<'_>, error: &pest::error::Error<Rule>) -> Diagnostic {
    let site = Site::locate(cx, error);
    if let Some(d) = site.reserved_at_rule(cx) {
        return d;
    }
    let Some(here) = site.here else {
        return site.at_end(cx);
    };
    site.wrong_word(cx, here)
        .or_else(|| site.missing_punct(cx, here))
        .unwrap_or_else(|| {
            let repair = repair_help(cx, here, site.prev, &site.items);
            let (help, edit) = match repair {
                Some((help, edit)) => (Some(help), edit),
                None => (None, None),
            };
            let d = errors::unexpected(cx.span(here), &describe(cx.word(here)), &site.list, help);
            match edit {
                Some((start, end, text)) => d.fix(Span::new(cx.file, start, end), text),
                None => d,
            }
        })
}

/// Where a pest error is, what was expected there, and the token before.
struct Site<'c> {
    /// The rule-level position (where the failing rule started).
    rule_pos: usize,
    /// The furthest position any attempt reached.
    far: usize,
    /// The token at the error; `None` at the end of the file.
    here: Option<&'c Token>,
    /// What was expected, deduplicated.
    items: Vec<Expected>,
    /// `items` rendered for messages.
    list: Vec<String>,
    /// The token before the error.
    prev: Option<&'c Token>,
    /// Its text (empty when there is none).
    prev_word: &'c str,
}

impl<'c> Site<'c> {
    fn locate(cx: &'c Context<'_>, error: &pest::error::Error<Rule>) -> Site<'c> {
        let rule_pos = cx.offset + located(error);
        let far = cx.offset + furthest(error);
        let (here, items) = if far > rule_pos {
            match cx.token_at(far) {
                // The furthest attempt stopped inside a token (`allowed`
                // after matching `allow`): the token is wrong as a whole.
                Some(t) if t.start < far => (Some(t), expected(error, true, false)),
                t => {
                    let items = expected(error, false, true);
                    if items.is_empty() {
                        (t, expected(error, true, false))
                    } else {
                        (t, items)
                    }
                }
            }
        } else {
            (
                cx.token_at(rule_pos),
                expected(error, true, far == rule_pos),
            )
        };
        let list = items.iter().map(Expected::render).collect();
        let prev = here.map_or_else(
            || cx.token_before(cx.text.len()),
            |h| cx.token_before(h.start),
        );
        Site {
            rule_pos,
            far,
            here,
            items,
            list,
            prev,
            prev_word: prev.map_or("", |p| cx.word(p)),
        }
    }

    fn expects_punct(&self, p: &str) -> bool {
        self.items.contains(&Expected::Punct(p.to_string()))
    }

    fn expects_class(&self, c: &str) -> bool {
        self.items
            .iter()
            .any(|e| matches!(e, Expected::Class(x) if x == c))
    }

    /// A reserved word that pest rejected as a name: the rule-level position
    /// is at the word, and the name's lookahead stopped at its end.
    fn reserved_at_rule(&self, cx: &Context<'_>) -> Option<Diagnostic> {
        let r = cx
            .token_at(self.rule_pos)
            .filter(|r| r.start == self.rule_pos)?;
        let word = cx.word(r);
        (RESERVED.contains(&word) && (self.far == r.end || self.expects_class(NAME)))
            .then(|| errors::reserved_word(cx.span(r), word))
    }

    /// The end of the file: a missing condition, a missing `;`, or an
    /// unexpected end.
    fn at_end(&self, cx: &Context<'_>) -> Diagnostic {
        let eof = self.prev.map_or(cx.text.len(), |p| p.end);
        if matches!(self.prev_word, "when" | "unless") {
            return errors::missing_condition(Span::new(cx.file, eof, eof), self.prev_word);
        }
        if self.expects_punct(";") && cx.repairs((eof, eof), ";", cx.text.len()) {
            if let Some(p) = self.prev {
                return errors::missing_semicolon(cx.span(p), "the end of the file");
            }
        }
        errors::unexpected_eof(Span::new(cx.file, eof, eof), &self.list, None)
    }

    /// A word where another was needed: no condition after `when`, a
    /// reserved word as a name, an unknown action, a misspelled keyword.
    fn wrong_word(&self, cx: &Context<'_>, here: &Token) -> Option<Diagnostic> {
        let word = cx.word(here);
        let here_span = cx.span(here);
        // `when` / `unless` followed by no condition.
        if let Some(p) = self
            .prev
            .filter(|_| matches!(self.prev_word, "when" | "unless") && matches!(word, ";" | "}"))
        {
            return Some(errors::missing_condition(
                Span::new(cx.file, p.end, p.end),
                self.prev_word,
            ));
        }
        if is_word(word) && RESERVED.contains(&word) && self.expects_class(NAME) {
            return Some(errors::reserved_word(here_span, word));
        }
        if let Some(d) = self.unknown_action(cx, here) {
            return Some(d);
        }
        if is_word(word) {
            return self.misspelled_keyword(cx, here);
        }
        None
    }

    /// An action the pipeline does not know (`alow;`, `permit when ...`).
    fn unknown_action(&self, cx: &Context<'_>, here: &Token) -> Option<Diagnostic> {
        let word = cx.word(here);
        // `alow;` in a pipeline: the word parsed as a rule name, then `:`
        // was expected after it.
        if self.expects_punct(":") && !self.expects_class(ACTION_CLASS) {
            if let Some(b) = self.prev {
                let before_b = cx.token_before(b.start).map_or("", |t| cx.word(t));
                if matches!(before_b, "{" | ";")
                    && is_word(self.prev_word)
                    && !ACTIONS.contains(&self.prev_word)
                    && in_decide(cx, b.start)
                {
                    let best = suggest::best_match(self.prev_word, ACTIONS.iter().copied());
                    return Some(errors::unknown_action(cx.span(b), self.prev_word, best));
                }
            }
        }
        // A word where an action is expected. `name:` also starts a rule, so
        // a far miss followed by `:` is not an unknown action.
        if is_word(word) && self.expects_class(ACTION_CLASS) && !ACTIONS.contains(&word) {
            let best = suggest::best_match(word, ACTIONS.iter().copied());
            let followed_by_colon = cx.token_after(here).is_some_and(|n| cx.word(n) == ":");
            if best.is_some() || !followed_by_colon {
                return Some(errors::unknown_action(cx.span(here), word, best));
            }
        }
        None
    }

    /// A keyword spelled wrong, or a word where a declaration must start.
    fn misspelled_keyword(&self, cx: &Context<'_>, here: &Token) -> Option<Diagnostic> {
        let word = cx.word(here);
        let at_item_start = here.depth == 0 && matches!(self.prev_word, "" | ";" | "}");
        let in_contract = self.items.contains(&Expected::Keyword("tools".into()));
        let keywords: Vec<&str> = self
            .items
            .iter()
            .filter_map(|e| match e {
                Expected::Keyword(k) => Some(k.as_str()),
                _ => None,
            })
            .chain(
                at_item_start
                    .then_some(ITEM_KEYWORDS)
                    .into_iter()
                    .flatten()
                    .copied(),
            )
            .chain(
                in_contract
                    .then_some(CONTRACT_KEYWORDS)
                    .into_iter()
                    .flatten()
                    .copied(),
            )
            .collect();
        // Only keywords that are single words can be misspelled as one.
        let single = keywords.iter().copied().filter(|k| !k.contains(' '));
        let declaration = ["a declaration".to_string()];
        if let Some(best) = suggest::best_match(word, single) {
            let expected = if at_item_start {
                &declaration[..]
            } else {
                &self.list[..]
            };
            return Some(
                errors::unknown_keyword(
                    cx.span(here),
                    word,
                    format!("did you mean `{best}`?"),
                    expected,
                )
                .fix(cx.span(here), best),
            );
        }
        at_item_start.then(|| {
            let all: Vec<String> = ITEM_KEYWORDS.iter().map(|k| format!("`{k}`")).collect();
            errors::unknown_keyword(
                cx.span(here),
                word,
                format!("a declaration starts with {}", errors::join_or(&all)),
                &declaration,
            )
        })
    }

    /// A missing `;` or `,`: inserting it after the previous token repairs
    /// the parse. A repair must get past the token after the error; at the
    /// end of the text, only a full parse counts.
    fn missing_punct(&self, cx: &Context<'_>, here: &Token) -> Option<Diagnostic> {
        let p = self.prev?;
        let must_pass = cx.tokens_after(here, 3);
        let found = describe(cx.word(here));
        if self.expects_punct(";") && cx.repairs((p.end, p.end), ";", must_pass) {
            return Some(errors::missing_semicolon(cx.span(p), &found));
        }
        if self.expects_punct(",") && cx.repairs((p.end, p.end), ", ", must_pass) {
            return Some(errors::missing_comma(cx.span(p), &found));
        }
        None
    }
}

/// A help line from a small repair that works: replace a token typed by
/// habit from another language, insert an expected token, replace the
/// offending punctuation, or delete the offending token, in that order.
///
/// A repair must get the parser three tokens past the error (or through
/// the whole item), and an insertion is only suggested when at most two
/// candidates work, so a suggestion is a fix and not a guess.
///
/// Returns the help line and, when the repair is one edit, that edit (byte
/// range and replacement) for editors to apply.
fn repair_help(
    cx: &Context<'_>,
    here: &Token,
    prev: Option<&Token>,
    items: &[Expected],
) -> Option<(String, Option<Edit>)> {
    let word = cx.word(here);
    let must_pass = cx.tokens_after(here, 3);
    // Delimiters are balanced already; a repair never adds or removes one.
    let is_delimiter = |t: &str| matches!(t, "{" | "}" | "(" | ")" | "[" | "]");
    let is_string = word.starts_with('"') || word.starts_with('r');
    let punctuation = !is_word(word) && !is_string && !is_delimiter(word);
    // Connectives are never the missing word: `a and b` parses for any two
    // names, so inserting one proves nothing.
    let connective = |k: &str| matches!(k, "and" | "or" | "in" | "not");
    let candidates: Vec<&str> = items
        .iter()
        .filter_map(|e| match e {
            // A keyword is only missing before a word or a string
            // (`at provider`, `to "api.brave.com"`).
            Expected::Keyword(k) if !punctuation && !connective(k) && !k.contains(' ') => {
                Some(k.as_str())
            }
            Expected::Punct(p) if !is_delimiter(p) => Some(p.as_str()),
            _ => None,
        })
        .take(10)
        .collect();
    // Symbols typed by habit from other languages.
    let habits: &[(&str, &str)] = &[
        ("=", "=="),
        ("!", "not"),
        ("=>", ">="),
        ("=<", "<="),
        ("::", ":"),
    ];
    // Two adjacent punctuation tokens read as one (`=<`).
    let next = cx.token_after(here);
    let joined = next
        .filter(|n| n.start == here.end && punctuation)
        .filter(|n| {
            let w = cx.word(n);
            !is_word(w) && !w.starts_with('"') && !is_delimiter(w)
        })
        .map(|n| (format!("{word}{}", cx.word(n)), n.end));
    for (written, end) in joined.into_iter().chain([(word.to_string(), here.end)]) {
        for (typed, meant) in habits {
            if written == *typed && cx.repairs((here.start, end), meant, must_pass.max(end)) {
                return Some((
                    format!("did you mean `{meant}`?"),
                    Some((here.start, end, (*meant).to_owned())),
                ));
            }
        }
    }
    let inserted: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|t| {
            let insert = if is_word(t) {
                format!("{t} ")
            } else {
                (*t).to_string()
            };
            cx.repairs((here.start, here.start), &insert, must_pass)
        })
        .collect();
    if (1..=2).contains(&inserted.len()) {
        let what = inserted
            .iter()
            .map(|t| format!("`{t}`"))
            .collect::<Vec<_>>()
            .join(" or ");
        let help = match prev {
            Some(p) => format!("add {what} after {}", describe(cx.word(p))),
            None => format!("add {what} before {}", describe(word)),
        };
        // One candidate is a fix; two are a choice left to the user.
        let edit = match inserted.as_slice() {
            [t] if is_word(t) => Some((here.start, here.start, format!("{t} "))),
            [t] => Some((here.start, here.start, (*t).to_owned())),
            _ => None,
        };
        return Some((help, edit));
    }
    if punctuation {
        for t in &candidates {
            if cx.repairs((here.start, here.end), t, must_pass) {
                return Some((
                    format!("replace `{word}` with `{t}`"),
                    Some((here.start, here.end, (*t).to_owned())),
                ));
            }
        }
    }
    // `;` ends statements; removing one is never the fix.
    if !is_delimiter(word) && word != ";" && cx.repairs((here.start, here.end), "", must_pass) {
        let help = if is_string {
            "remove this string".to_string()
        } else {
            format!("remove `{word}`")
        };
        return Some((help, Some((here.start, here.end, String::new()))));
    }
    // A trailing `,` before the end of a list.
    if let Some(p) = prev.filter(|p| cx.word(p) == ",") {
        if cx.repairs((p.start, p.end), "", must_pass) {
            return Some((
                "remove the trailing `,`".to_string(),
                Some((p.start, p.end, String::new())),
            ));
        }
    }
    None
}

/// A repair as one edit: replace bytes `start..end` by the text.
type Edit = (usize, usize, String);

/// Whether the innermost open block at `at` is a `decide { ... }`.
fn in_decide(cx: &Context<'_>, at: usize) -> bool {
    let mut depth_words: Vec<&str> = Vec::new();
    let mut prev = "";
    for t in cx.tokens.iter().take_while(|t| t.start < at) {
        let w = cx.word(t);
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
