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
    let ast::LabelRule::Pattern { regex, .. } = &l.rules[0] else {
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
