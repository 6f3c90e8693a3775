use super::format;
use crate::diagnostics::{Code, Diagnostics};
use crate::source::FileId;
use crate::syntax::{parse, print};

fn fmt(text: &str) -> String {
    let mut d = Diagnostics::new();
    let out = format(FileId(0), text, &mut d);
    assert!(d.is_empty(), "diagnostics: {:?}", d.sorted());
    let out = out.unwrap();
    let mut d2 = Diagnostics::new();
    let again = format(FileId(0), &out, &mut d2).unwrap();
    assert_eq!(again, out, "not idempotent");
    out
}

const CONTRACT: &str = r#"use std::labels;
use std::tools::{web_search, brave};
lattice L { a < b, a < c }
lexicon l { "x" => "y", "z" }
contract c(tau = 0.5) {
  tools web_search; destinations brave;
  forbid args >= b at provider;
  decide { gate: defer when speculative and confidence < threshold; allow; }
  test "t" { call web_search(q: "a") to brave speculative confidence 0.9 expect defer by gate; }
}
"#;

#[test]
fn without_comments_the_output_is_the_printers() {
    let mut d = Diagnostics::new();
    let ast = parse(FileId(0), CONTRACT, &mut d).unwrap();
    assert_eq!(fmt(CONTRACT), print::print(&ast));
}

#[test]
fn leading_and_trailing_comments_stay_with_their_statements() {
    let src = "// head\ntool t { // about t\n  effect x; // why\n  // before args\n  args { q: text }\n}\n";
    assert_eq!(
        fmt(src),
        "// head\ntool t { // about t\n    effect x; // why\n    // before args\n    args { q: text }\n}\n"
    );
}

#[test]
fn a_comment_inside_a_one_line_statement_moves_above_it() {
    let src = "contract c {\n    forbid args >= /* cut */ sensitive\n        // still forbid\n        at provider;\n}\n";
    assert_eq!(
        fmt(src),
        "contract c {\n    /* cut */\n    // still forbid\n    forbid args >= sensitive at provider;\n}\n"
    );
}

#[test]
fn comments_before_a_closing_brace_stay_in_the_block() {
    let src = "contract c {\n    tools a;\n    // last words\n} // after\n// eof\n";
    assert_eq!(
        fmt(src),
        "contract c {\n    tools a;\n    // last words\n} // after\n// eof\n"
    );
}

#[test]
fn blank_lines_around_own_line_comments_are_kept_once() {
    let src = "// licence\n\n\n// the uses\nuse a;\n\n\n\nuse b;\ncontract c {\n\n    // first\n    tools a;\n\n\n    // second group\n\n    forbid args >= x at p;\n\n}\n";
    assert_eq!(
        fmt(src),
        "// licence\n\n// the uses\nuse a;\nuse b;\n\ncontract c {\n    // first\n    tools a;\n\n    // second group\n\n    forbid args >= x at p;\n}\n"
    );
}

#[test]
fn code_after_a_comment_on_its_line_pushes_it_up() {
    let src = "contract c { tools a; /* x */ forbid args >= y at p; }\n";
    assert_eq!(
        fmt(src),
        "contract c {\n    tools a;\n    /* x */\n    forbid args >= y at p;\n}\n"
    );
}

#[test]
fn comments_in_tests_decide_lexicons_and_lattices() {
    let src = r#"lattice L {
    a < b, // low
    a < c
}
lexicon l {
    // first
    "x" => "y", // trailing
    "z"
}
contract c {
    decide {
        // gate
        gate: defer when speculative; // deferred
        allow;
    }
    test "t" {
        // the call
        call t(q: "a") // args
            to brave // where
            speculative
        // expectation
        expect defer;
    }
}
"#;
    let out = fmt(src);
    assert_eq!(
        out,
        r#"lattice L {
    a < b, // low
    a < c,
}

lexicon l {
    // first
    "x" => "y", // trailing
    "z",
}

contract c {
    decide {
        // gate
        gate: defer when speculative; // deferred
        allow;
    }

    test "t" {
        // the call
        call t(q: "a") // args
            // where
            to brave speculative
        // expectation
        expect defer;
    }
}
"#
    );
}

#[test]
fn a_file_of_comments_only_keeps_them() {
    assert_eq!(fmt("// a\n\n/* b */\n"), "// a\n\n/* b */\n");
    assert_eq!(fmt(""), "");
}

#[test]
fn strings_that_look_like_comments_are_not_comments() {
    let src = "destination d { host \"a//b;{\"; label x;\n}\n";
    assert_eq!(
        fmt(src),
        "destination d {\n    host \"a//b;{\";\n    label x;\n}\n"
    );
    let one = "destination d { host \"a//b;{\"; label x; }\n";
    assert_eq!(fmt(one), one);
}

#[test]
fn syntax_errors_are_reported_and_nothing_is_returned() {
    let mut d = Diagnostics::new();
    assert!(format(FileId(0), "contract c { tools a }", &mut d).is_none());
    assert!(d.has_errors());
    assert!(!d.codes().contains(&Code::E0900));
}

#[test]
fn crlf_input_formats_to_lf() {
    let src = "// head\r\ncontract c {\r\n    tools a; // why\r\n}\r\n";
    assert_eq!(fmt(src), "// head\ncontract c {\n    tools a; // why\n}\n");
}

#[test]
fn the_safety_net_refuses_a_changed_ast_or_a_lost_comment() {
    let src = "contract c {\n    tools a; // why\n}\n";
    let mut d = Diagnostics::new();
    let ast = parse(FileId(0), src, &mut d).unwrap();
    let comments = crate::syntax::trivia::comments(FileId(0), src);
    assert!(super::verify(FileId(0), &ast, &comments, src).is_ok());
    let changed = super::verify(
        FileId(0),
        &ast,
        &comments,
        "contract c {\n    tools b; // why\n}\n",
    );
    assert_eq!(changed.unwrap_err().code, Code::E0900);
    let lost = super::verify(
        FileId(0),
        &ast,
        &comments,
        "contract c {\n    tools a;\n}\n",
    );
    let lost = lost.unwrap_err();
    assert_eq!(lost.code, Code::E0900);
    assert!(lost.message.contains("comment"));
    let broken = super::verify(FileId(0), &ast, &comments, "contract c {");
    assert_eq!(broken.unwrap_err().code, Code::E0900);
}

#[test]
fn runs_of_one_line_items_of_a_kind_stay_together() {
    let src = "use a;\nuse b::{c, d};\nobserver o external sees x;\nobserver p internal sees y;\n\
               enum A { a }\nenum B { b }\nlattice L { a < b }\nlexicon l { \"x\" }\n";
    assert_eq!(
        fmt(src),
        "use a;\nuse b::{c, d};\n\nobserver o external sees x;\nobserver p internal sees y;\n\n\
         enum A { a }\nenum B { b }\n\nlattice L { a < b }\n\nlexicon l { \"x\" }\n"
    );
}

#[test]
fn a_wrapped_statement_keeps_its_trailing_comment_and_hoists_inner_ones() {
    let src =
        "contract c {\n    tools aaaaaaaaaa, bbbbbbbbbb, /* inner */ cccccccccc, dddddddddd, \
               eeeeeeeeee, ffffffffff, gggggggggg, hhhhhhhhhh; // why\n}\n";
    assert_eq!(
        fmt(src),
        "contract c {\n    /* inner */\n    tools aaaaaaaaaa, bbbbbbbbbb, cccccccccc, dddddddddd, \
         eeeeeeeeee, ffffffffff, gggggggggg,\n        hhhhhhhhhh; // why\n}\n"
    );
}

#[test]
fn a_comment_in_a_lexicon_starts_a_new_row() {
    let src = "lexicon l {\n    // English\n    \"a\" => \"b\", \"c\",\n    // German\n    \"d\", \"e\"\n}\n";
    assert_eq!(
        fmt(src),
        "lexicon l {\n    // English\n    \"a\" => \"b\", \"c\",\n    // German\n    \"d\", \"e\",\n}\n"
    );
    // Without the comments the same lexicon fits on one line.
    assert_eq!(
        fmt("lexicon l { \"a\" => \"b\", \"c\", \"d\", \"e\" }\n"),
        "lexicon l { \"a\" => \"b\", \"c\", \"d\", \"e\" }\n"
    );
}

#[test]
fn long_rules_break_before_the_guard_and_long_calls_take_a_line_per_argument() {
    let src = "contract c { decide { long_rule_name: rewrite using generic_query, redact_person \
               when args >= sensitive and destination external; allow; } \
               test \"t\" { call transfer(from_account: \"ACC-0042117\", to_iban: \"DE89 3704 0044 0532\", \
               amount: 950, reference: \"rent\") to bank speculative confidence 0.9 expect block; } }\n";
    assert_eq!(
        fmt(src),
        r#"contract c {
    decide {
        long_rule_name: rewrite using generic_query, redact_person
            when args >= sensitive and destination external;
        allow;
    }

    test "t" {
        call transfer(
            from_account: "ACC-0042117",
            to_iban: "DE89 3704 0044 0532",
            amount: 950,
            reference: "rent",
        )
            to bank speculative confidence 0.9
        expect block;
    }
}
"#
    );
}

#[test]
fn a_tool_or_destination_written_on_one_line_stays_on_one_line_when_it_fits() {
    let src = "destination d {host \"a.example\";label public;observed by provider;}\n\
               destination e { host \"b.example\"; label public; observed by provider; }\n\
               tool t {effect x; args {q:text} destinations d;}\n";
    assert_eq!(
        fmt(src),
        "destination d { host \"a.example\"; label public; observed by provider; }\n\
         destination e { host \"b.example\"; label public; observed by provider; }\n\n\
         tool t { effect x; args { q: text } destinations d; }\n"
    );
    // Written over several lines, a block stays a block.
    let block = "tool t {\n    effect x;\n    args { q: text }\n}\n";
    assert_eq!(fmt(block), block);
    // Too wide for one line, or with a comment inside: a block.
    let long = format!(
        "tool t {{ effect x; args {{ {} }} }}\n",
        (0..12)
            .map(|i| format!("field{i}: text"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert!(fmt(&long).starts_with("tool t {\n"), "{}", fmt(&long));
    let commented = "tool t { effect x; /* why */ args { q: text } }\n";
    assert!(
        fmt(commented).starts_with("tool t {\n"),
        "{}",
        fmt(commented)
    );
}

#[test]
fn extends_and_plus_equals_are_kept() {
    let src = "contract mine(tau = 0.4) extends std::policies::rewrite {\n\
               tools += a, b;\n destinations c;\n}\n";
    assert_eq!(
        fmt(src),
        "contract mine(tau = 0.4) extends std::policies::rewrite {\n    tools += a, b;\n    destinations c;\n}\n"
    );
}
