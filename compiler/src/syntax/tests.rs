//! Unit tests of the parser: shapes of the AST and of syntax errors.

use super::*;
use crate::source::SourceMap;

fn parse_ok(text: &str) -> ast::File {
    let mut map = SourceMap::new();
    let id = map.add("t.stpc", text);
    let mut d = Diagnostics::new();
    let file = parse(id, text, &mut d);
    assert!(d.is_empty(), "unexpected diagnostics: {:?}", d.sorted());
    file.expect("parsed")
}

fn codes(text: &str) -> Vec<crate::diagnostics::Code> {
    let mut map = SourceMap::new();
    let id = map.add("t.stpc", text);
    let mut d = Diagnostics::new();
    let _ = parse(id, text, &mut d);
    d.codes()
}

#[test]
fn guards_bind_not_tighter_than_and_tighter_than_or() {
    let f = parse_ok("contract c { decide { block when not a and b or c; allow; } }");
    let ast::Item::Contract(c) = &f.items[0] else {
        panic!()
    };
    let ast::ContractStmt::Decide(d) = &c.stmts[0] else {
        panic!()
    };
    let g = d.rules[0].guard.as_ref().unwrap();
    assert_eq!(print::expr(&g.expr), "not a and b or c");
    let ast::Expr::Or(lhs, _, _) = &g.expr else {
        panic!("or at the root")
    };
    assert!(matches!(**lhs, ast::Expr::And(..)));
}

#[test]
fn spans_do_not_affect_equality() {
    let a = parse_ok("enum Mode { committed, speculative }");
    let b = parse_ok("enum   Mode {\n committed,\n   speculative, }");
    assert_eq!(a, b);
}

#[test]
fn strings_are_unescaped() {
    let f = parse_ok(r#"lexicon l { "a \"b\" \u{e9}" => "x\ny" }"#);
    let ast::Item::Lexicon(l) = &f.items[0] else {
        panic!()
    };
    assert_eq!(l.entries[0].phrase.value, "a \"b\" \u{e9}");
    assert_eq!(l.entries[0].replacement.as_ref().unwrap().value, "x\ny");
}

#[test]
fn raw_strings_keep_backslashes() {
    let f = parse_ok(
        r##"labeler l for args { pattern r#"\d{3}-"x""# -> sensitive; fallback public; }"##,
    );
    let ast::Item::Labeler(l) = &f.items[0] else {
        panic!()
    };
    let ast::LabelRule::Match(m) = &l.rules[0] else {
        panic!()
    };
    let ast::Matcher::Pattern(regex) = &m.when[0] else {
        panic!()
    };
    assert_eq!(regex.value, r#"\d{3}-"x""#);
    assert!(regex.raw);
}

#[test]
fn independent_errors_in_separate_items_are_all_reported() {
    let text = "tool a { effect x }\ntool b { effect y; }\ncontract c { tools a b; }\n";
    assert_eq!(codes(text).len(), 2, "{:?}", codes(text));
}

#[test]
fn lexical_errors_are_reported_together() {
    let text = "lexicon a { \"x\\q\" }\nlexicon b { @ }\n";
    use crate::diagnostics::Code;
    assert_eq!(codes(text), vec![Code::E0107, Code::E0110]);
}

/// The one diagnostic of `text`: its code, the text its primary label
/// underlines, and its help (Cedar's `ExpectedErrorMessageBuilder`).
fn only_error(text: &str) -> (crate::diagnostics::Code, String, String) {
    let mut map = SourceMap::new();
    let id = map.add("t.stpc", text);
    let mut d = Diagnostics::new();
    assert!(parse(id, text, &mut d).is_none(), "parsed: {text}");
    let all = d.sorted();
    assert_eq!(all.len(), 1, "{all:?}");
    let e = &all[0];
    let span = e.primary_span().expect("a primary label");
    (
        e.code,
        map.slice(span).to_string(),
        e.help.clone().unwrap_or_default(),
    )
}

fn assert_error(text: &str, code: crate::diagnostics::Code, underlined: &str, help_prefix: &str) {
    let (c, u, h) = only_error(text);
    assert_eq!(c, code, "{text}");
    assert_eq!(u, underlined, "{text}");
    assert!(h.starts_with(help_prefix), "{text}: help was {h:?}");
}

#[test]
fn budget_exhausted_parses_with_and_without_a_name() {
    for text in [
        "contract c { decide { defer when budget exhausted; allow; } }",
        "contract c { decide { defer when budget b exhausted; allow; } }",
        "contract c { decide { defer when budget exhausted exhausted; allow; } }",
    ] {
        let f = parse_ok(text);
        assert_eq!(parse_ok(&print::print(&f)), f);
    }
}

#[test]
fn the_printer_adds_parentheses_the_grammar_needs() {
    use crate::source::Loc;
    let flag = |n: &str| {
        ast::Expr::Flag(ast::Ident {
            name: n.into(),
            loc: Loc::default(),
        })
    };
    let l = Loc::default();
    let or = ast::Expr::Or(Box::new(flag("a")), Box::new(flag("b")), l);
    let and = ast::Expr::And(Box::new(or.clone()), Box::new(flag("c")), l);
    assert_eq!(print::expr(&and), "(a or b) and c");
    let not = ast::Expr::Not(Box::new(and), l);
    assert_eq!(print::expr(&not), "not ((a or b) and c)");
    let right = ast::Expr::And(
        Box::new(flag("x")),
        Box::new(ast::Expr::And(Box::new(flag("y")), Box::new(flag("z")), l)),
        l,
    );
    assert_eq!(print::expr(&right), "x and (y and z)");
}

#[test]
fn a_mismatched_closer_is_read_by_what_follows() {
    use crate::diagnostics::Code;
    // A typo for `)`: everything after balances once `}` is read as `)`.
    assert_error(
        "tool t {\n args { q: list(text} }\n}\n",
        Code::E0116,
        "}",
        "replace `}` with `)`",
    );
    // A forgotten `)`: the `}` closes the enclosing block.
    assert_error(
        "tool t {\n args { q: list(text }\n}\n",
        Code::E0116,
        "}",
        "add `)` before",
    );
    // A stray closer.
    assert_error("enum E { a ] }\n", Code::E0109, "]", "remove this `]`");
}

#[test]
fn a_parenthesis_open_at_a_semicolon_is_unclosed() {
    use crate::diagnostics::Code;
    assert_error(
        "contract c { decide { block when (a or b; allow; } }",
        Code::E0103,
        "(",
        "add `)` before the `;`",
    );
}

#[test]
fn malformed_numbers_are_lexical_errors() {
    use crate::diagnostics::Code;
    for (text, bad) in [
        ("contract c { threshold s 0.; }", "0."),
        ("contract c { threshold s .5; }", ".5"),
        ("contract c { threshold s 1.2.3; }", "1.2.3"),
    ] {
        assert_error(text, Code::E0108, bad, "write numbers as digits");
    }
    // A field access is not a number.
    parse_ok("contract c { decide { block when args.q >= s; allow; } }");
}

#[test]
fn habits_from_other_languages_get_a_did_you_mean() {
    use crate::diagnostics::Code;
    assert_error(
        "contract c { decide { block when mode = s; allow; } }",
        Code::E0101,
        "=",
        "did you mean `==`?",
    );
    assert_error(
        "contract c { decide { block when args => s; allow; } }",
        Code::E0101,
        "=>",
        "did you mean `>=`?",
    );
    assert_error(
        "contract c { decide { block when a && b; allow; } }",
        Code::E0110,
        "&&",
        "write `and`",
    );
}

#[test]
fn missing_keywords_are_suggested_only_when_they_repair() {
    use crate::diagnostics::Code;
    assert_error(
        "contract c { forbid args >= s provider; }",
        Code::E0101,
        "provider",
        "add `at` after `s`",
    );
    assert_error(
        "contract c { decide { rewrite t when args >= s; allow; } }",
        Code::E0101,
        "t",
        "add `using` after `rewrite`",
    );
}

#[test]
fn invalid_utf8_points_at_the_first_bad_byte_in_the_lossy_text() {
    use crate::diagnostics::Code;
    let bytes = b"enum A { b }\n\xffx\n";
    let lossy = String::from_utf8_lossy(bytes).into_owned();
    let mut map = SourceMap::new();
    let id = map.add("t.stpc", lossy);
    let mut d = Diagnostics::new();
    assert!(decode(id, bytes, &mut d).is_none());
    let e = &d.sorted()[0];
    assert_eq!(e.code, Code::E0112);
    let span = e.primary_span().expect("located");
    assert_eq!(map.slice(span), "\u{fffd}");
    assert_eq!(
        map.get(id).map(|f| f.line_col(span.start as usize)),
        Some((2, 1))
    );
}

#[test]
fn every_rule_has_a_friendly_name_without_rule_ids() {
    for rule in grammar::Rule::all_rules() {
        let entries = grammar::FRIENDLY.iter().filter(|(r, _)| r == rule).count();
        assert_eq!(entries, 1, "{rule:?} has {entries} friendly names");
        let name = grammar::friendly(*rule);
        let id = format!("{rule:?}");
        assert!(!name.is_empty(), "{id}");
        // A friendly name never shows the grammar's identifiers.
        let leaks =
            name.contains("kw_") || name.contains("op_") || id.contains('_') && name.contains(&id);
        assert!(!leaks, "{id} is shown as {name:?}");
    }
}

#[test]
fn a_leading_byte_order_mark_is_ignored() {
    let f = parse_ok("\u{feff}enum A { b }\nenum C { d }\n");
    assert_eq!(f.items.len(), 2);
    let comments = trivia::comments(crate::source::FileId(0), "\u{feff}// head\nenum A { b }\n");
    assert!(!comments[0].trailing);
}

/// The grammar's text, parsed just enough to read rule alternatives.
mod grammar_text {
    const GRAMMAR: &str = include_str!("../../../grammar/stpc.pest");

    /// The body of rule `name` (between its outermost braces).
    pub(super) fn body(name: &str) -> String {
        let start = GRAMMAR
            .lines()
            .position(|l| {
                l.strip_prefix(name)
                    .is_some_and(|r| r.trim_start().starts_with('='))
            })
            .unwrap_or_else(|| panic!("no rule `{name}` in the grammar"));
        let text: String = GRAMMAR
            .lines()
            .skip(start)
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join(" ");
        let open = text.find('{').expect("rule body");
        let mut depth = 0;
        for (i, c) in text[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return text[open + 1..open + i].to_owned();
                    }
                }
                _ => {}
            }
        }
        panic!("unbalanced rule `{name}`")
    }

    /// The top-level alternatives of rule `name`, as rule names.
    pub(super) fn alternatives(name: &str) -> Vec<String> {
        body(name).split('|').map(|a| a.trim().to_owned()).collect()
    }

    /// The keyword a rule starts with: the literal of its first `kw_` rule.
    pub(super) fn first_keyword(name: &str) -> String {
        let first = body(name)
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_start_matches('(')
            .to_owned();
        let kw = first
            .strip_prefix("kw_")
            .unwrap_or_else(|| panic!("`{name}` starts with `{first}`, not a keyword"));
        let literal = body(&format!("kw_{kw}"));
        literal
            .split('"')
            .nth(1)
            .unwrap_or_else(|| panic!("`kw_{kw}` has no literal"))
            .to_owned()
    }
}

#[test]
fn keyword_lists_are_the_grammars() {
    use grammar_text::{alternatives, body, first_keyword};
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let own = |v: &[&str]| sorted(v.iter().map(|s| (*s).to_owned()).collect());
    let items: Vec<String> = alternatives("item")
        .iter()
        .map(|a| first_keyword(a))
        .collect();
    assert_eq!(sorted(items), own(ITEM_KEYWORDS), "ITEM_KEYWORDS");
    let stmts: Vec<String> = alternatives("contract_stmt")
        .iter()
        .map(|a| first_keyword(a))
        .collect();
    assert_eq!(sorted(stmts), own(CONTRACT_KEYWORDS), "CONTRACT_KEYWORDS");
    let actions: Vec<String> = alternatives("action")
        .iter()
        .map(|a| first_keyword(a))
        .collect();
    assert_eq!(sorted(actions), own(ACTIONS), "ACTIONS");
    let reserved: Vec<String> = body("reserved")
        .split('|')
        .map(|w| w.trim().trim_matches('"').to_owned())
        .collect();
    assert_eq!(sorted(reserved), own(RESERVED), "RESERVED");
}

#[test]
fn labeler_rules_combine_conditions_and_scopes() {
    let f = parse_ok(
        "labeler l for args { tool t field a, b: terms x and entity email -> sensitive unless terms y or lexicon z; fallback public; }",
    );
    let ast::Item::Labeler(l) = &f.items[0] else {
        panic!()
    };
    let ast::LabelRule::Match(m) = &l.rules[0] else {
        panic!()
    };
    assert_eq!(m.tools.len(), 1);
    assert_eq!(m.fields.len(), 2);
    assert!(matches!(
        &m.when[..],
        [ast::Matcher::Terms(_), ast::Matcher::Entity(_)]
    ));
    assert!(matches!(
        &m.unless[..],
        [ast::Matcher::Terms(_), ast::Matcher::Lexicon(_)]
    ));
}
