//! Properties of `stpc fmt` on generated contracts (STYLE 7.6, property 3):
//! formatting keeps the AST, keeps every comment exactly once, and is
//! idempotent.
//!
//! The generator writes source text directly: items and statements drawn
//! from every kind of declaration, as token lists, joined with random
//! layout (spaces, newlines, blank lines) and with a unique comment
//! (`// cN` or `/* cN */`) at random token boundaries: at line ends, on
//! their own lines, in the middle of statements and around blank lines.

#![expect(
    clippy::indexing_slicing,
    clippy::panic,
    reason = "helpers read `PROPTEST_CASES` and fail the property with the offending input"
)]

use proptest::prelude::*;
use stpc_compiler::syntax::{self, trivia};
use stpc_compiler::{Diagnostics, FileId};

/// A token list written as one string, tokens separated by spaces (so
/// string literals in templates contain no spaces).
fn t(tokens: &'static str) -> Vec<&'static str> {
    tokens.split_whitespace().collect()
}

/// Statements of a contract body, as token lists.
fn contract_stmt() -> impl Strategy<Value = Vec<&'static str>> {
    prop_oneof![
        Just(t("tools web_search , calendar ;")),
        Just(t("destinations brave ;")),
        Just(t("forbid args >= sensitive at provider , network ;")),
        Just(t("forbid destination >= regulated at network ;")),
        Just(t("threshold speculative 0.7 ;")),
        Just(t("threshold prefetch tau ;")),
        Just(t("budget b 5 per task counting args >= sensitive ;")),
        Just(t("audit none ;")),
        Just(t(
            "audit to log , auditor with raw args scrub after commit ;"
        )),
        Just(t("decide { \
            gate : defer when speculative and confidence < threshold ; \
            rewrite using g , h when ( args . q >= personal or not tool allowed ) ; \
            shadow unless mode in { speculative , prefetch } ; \
            block when budget b exhausted and labels missing ; \
            allow ; \
        }")),
        Just(t("decide { }")),
        Just(t("test \"spec_query\" { \
            call web_search ( q : \"a_b\" , n : [ 1 , true ] , o : { k : -2.5 } ) \
            to brave speculative confidence 0.9 branch \"b1\" after 5 dispatches of b \
            labels { q : sensitive , destination : public } \
            expect rewrite by gate ; \
        }")),
        Just(t(
            "test \"t\" { call t ( ) to \"api.x.com\" mode committed expect allow ; }"
        )),
        // Statements long enough to wrap.
        Just(t(
            "tools web_search , doc_retrieval , calendar_lookup , crm_lookup , \
            email_search , loan_rates , email_send , calendar_create_event , notes_lookup ;"
        )),
        Just(t(
            "destinations brave , duckduckgo , bing , google_search , docs_public_kb , \
            docs_general , docs_engineering , docs_product , docs_hr_policies , docs_hr_leave , \
            docs_employee_relations , docs_legal , docs_finance ;"
        )),
        Just(t(
            "forbid args >= sensitive at provider , network , co_tenant , runtime_log , \
            auditor , clinic_staff , covered_entity , bank_core , tenant_admin ;"
        )),
        Just(t(
            "audit to runtime_log , auditor , compliance_archive , security_team , \
            incident_response , tenant_admin with raw args scrub after commit ;"
        )),
        Just(t("decide { \
            no_speculative_payments : block when not committed and effect in \
            { irreversible , external_write , semi_stateful } ; \
            ghost_search : shadow when not committed and destination external and \
            substitute available and args >= sensitive or ( tool allowed and \
            confidence < threshold ) and not labels missing ; \
            depersonalize : rewrite using depersonalize_intent , redact_person unless \
            args >= intent_revealing and destination external ; \
            allow ; \
        }")),
        Just(t("test \"a_long_call\" { \
            call transfer_funds ( from_account : \"ACC-0042117\" , to_iban : \"DE89_3704_0044\" , \
            amount : 950 , reference : \"rent_May\" , tags : [ 1 , 2 ] ) \
            to core_api speculative confidence 0.92 branch \"plan_b_second_option\" \
            after 5 dispatches of money_topics labels { from_account : sensitive , \
            destination : regulated } \
            expect block by no_speculative_payments ; \
        }")),
    ]
}

/// Top-level items, as token lists.
fn item() -> impl Strategy<Value = Vec<&'static str>> {
    let contract = prop::collection::vec(contract_stmt(), 0..6).prop_map(|stmts| {
        let mut tokens = t("contract c ( tau = 0.5 ) {");
        tokens.extend(stmts.into_iter().flatten());
        tokens.push("}");
        tokens
    });
    prop_oneof![
        Just(t("use std :: labels ;")),
        Just(t("use std :: tools :: { web_search , brave , } ;")),
        Just(t("use std :: tools :: { web_search , brave , duckduckgo , local_web_search , \
            calendar_lookup , google_calendar , local_calendar_cache } ;")),
        Just(t("lattice Long for destination { public < tenant_internal < sensitive < \
            regulated < forbidden < beyond_forbidden < very_far_beyond } ")),
        Just(t("enum Effect { pure_local , local_read , external_read , external_write , \
            semi_stateful , irreversible , catastrophic , }")),
        Just(t("channels { arguments , destination , tool_name , timing , sizes , cache , \
            audit , retries , traffic_shape }")),
        Just(t("observer runtime_log internal sees arguments , destination , tool_name , \
            timing , sizes , cache , audit , retries ;")),
        Just(t("lexicon long { \"cancer\" => \"a_condition\" , \"tumor\" => \"a_condition\" , \
            \"tumour\" , \"malignant\" => \"a_condition\" , \"melanoma\" , \"lymphoma\" , \
            \"leukemia\" => \"a_condition\" , \"sarcoma\" , \"carcinoma\" => \"a_condition\" , \
            \"diabetes\" , \"insulin\" => \"a_medication\" , \"asthma\" , }")),
        Just(t(
            "tool book { effect irreversible ; args { patient_id : text , resource : enum ( \
            condition , medication , observation , allergy , encounter ) , since : time , \
            notes : list ( text ) } destinations clinic_fhir , clinic_pharmacy , openfda , \
            docs_oncology , docs_mental_health , docs_immigration , anon_retrieve ; }"
        )),
        Just(t(
            "labeler long for args { pattern r\"(?i)\\b(?:password|passwd|pwd|passwort|secret|\
            api[_-]?key|access[_-]?token)\\s*[:=]\" -> sensitive unless lexicon credentials_public ; \
            fallback public ; }"
        )),
        Just(t("lattice L for args { a < b <= c }")),
        Just(t(
            "lattice D { bottom < left < top , bottom < right < top , }"
        )),
        Just(t("enum Mode { committed , speculative , }")),
        Just(t("channels { arguments , timing }")),
        Just(t("observer provider external sees arguments , timing ;")),
        Just(t(
            "destination brave { host \"api.brave.com\" ; label public ; \
            observed by provider , network ; }"
        )),
        Just(t("destination empty { }")),
        Just(t(
            "tool t { effect external_read ; args { q : text , n : list ( enum ( a , b ) ) } \
            destinations brave ; substitute s ; }"
        )),
        Just(t("tool u { args { } }")),
        Just(t(
            "substitute s for t { observed by log ; on promote reuse ; }"
        )),
        Just(t(
            "lexicon l { \"break_lease\" => \"rental\" , \"eviction\" , }"
        )),
        Just(t("lexicon e { }")),
        Just(t(
            "labeler lb for args { lexicon l -> sensitive unless lexicon m ; \
            pattern r#\"\\d+\"x\"\"# -> personal ; entity email -> personal ; \
            host \"*.gov\" -> regulated ; fallback public ; }"
        )),
        Just(t(
            "transform g ( text , entity ) -> public { replace lexicon l with \"x\" ; \
            redact entity email ; coarsen time to day ; constant \"c\" ; }"
        )),
        contract,
    ]
}

/// A generated file: its source text and the comments written into it.
#[derive(Debug, Clone)]
struct Generated {
    text: String,
    comments: Vec<String>,
}

fn generated() -> impl Strategy<Value = Generated> {
    (
        prop::collection::vec(item(), 0..5),
        prop::collection::vec(0u8..12, 0..600),
    )
        .prop_map(|(items, gaps)| {
            let tokens: Vec<&str> = items.into_iter().flatten().collect();
            let mut text = String::new();
            let mut comments = Vec::new();
            // Boundary 0 is before the first token; boundary n after the last.
            for i in 0..=tokens.len() {
                let gap = gaps.get(i).copied().unwrap_or(0);
                let n = comments.len();
                let (sep, comment) = match gap {
                    0..=3 => (
                        [" ", "\n", "  ", "\n\n"][usize::from(gap)].to_string(),
                        None,
                    ),
                    4 => (format!(" // c{n}\n"), Some(format!("// c{n}"))),
                    5 => (format!(" /* c{n} */ "), Some(format!("/* c{n} */"))),
                    6 => (format!("\n/* c{n} */\n"), Some(format!("/* c{n} */"))),
                    7 => (format!("\n// c{n}\n"), Some(format!("// c{n}"))),
                    8 => (format!("\n\n// c{n}\n\n"), Some(format!("// c{n}"))),
                    9 => (
                        format!(" /* c{n}\n   more */\n"),
                        Some(format!("/* c{n}\n   more */")),
                    ),
                    _ => ("\n\t".to_string(), None),
                };
                if i > 0 || comment.is_some() {
                    text.push_str(&sep);
                }
                comments.extend(comment);
                if let Some(t) = tokens.get(i) {
                    text.push_str(t);
                }
            }
            Generated { text, comments }
        })
}

fn parse(text: &str) -> stpc_compiler::syntax::ast::File {
    let mut d = Diagnostics::new();
    let mut ast = syntax::parse(FileId(0), text, &mut d)
        .unwrap_or_else(|| panic!("does not parse: {:?}\n{text}", d.sorted()));
    // fmt keeps the AST up to the deprecated spellings it rewrites.
    syntax::modernize::modernize(&mut ast);
    ast
}

fn format(text: &str) -> String {
    let mut d = Diagnostics::new();
    stpc_compiler::format(FileId(0), text, &mut d)
        .unwrap_or_else(|| panic!("fmt refused: {:?}\n--- input\n{text}", d.sorted()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn fmt_keeps_the_ast_and_every_comment_and_is_idempotent(g in generated()) {
        let before = parse(&g.text);
        let once = format(&g.text);
        prop_assert_eq!(&parse(&once), &before, "--- input\n{}\n--- output\n{}", g.text, once);
        let found: Vec<String> = trivia::comments(FileId(0), &once).into_iter().map(|c| c.text).collect();
        for c in &g.comments {
            let count = found.iter().filter(|f| *f == c).count();
            prop_assert_eq!(count, 1, "comment `{}` appears {} times\n--- input\n{}\n--- output\n{}", c, count, g.text, once);
        }
        prop_assert_eq!(found.len(), g.comments.len());
        let twice = format(&once);
        prop_assert_eq!(&twice, &once, "not idempotent\n--- input\n{}", g.text);
    }

    #[test]
    fn fmt_never_panics_and_never_refuses_what_parses(
        g in generated(),
        cut in any::<prop::sample::Index>(),
        len in 0usize..12,
    ) {
        // Delete a few bytes at a random char boundary: the result often
        // does not parse, but when it does, fmt must format it.
        let chars: Vec<(usize, char)> = g.text.char_indices().collect();
        let at = if chars.is_empty() { 0 } else { chars[cut.index(chars.len())].0 };
        let end = g.text[at..].char_indices().nth(len).map_or(g.text.len(), |(i, _)| at + i);
        let text = format!("{}{}", &g.text[..at], &g.text[end..]);
        let mut d = Diagnostics::new();
        let parses = syntax::parse(FileId(0), &text, &mut Diagnostics::new()).is_some();
        let out = stpc_compiler::format(FileId(0), &text, &mut d);
        prop_assert_eq!(out.is_some(), parses, "{:?}\n--- input\n{}", d.sorted(), text);
        prop_assert!(!d.codes().contains(&stpc_compiler::Code::E0900), "{:?}\n--- input\n{}", d.sorted(), text);
    }

    #[test]
    fn without_comments_fmt_is_the_canonical_printer(items in prop::collection::vec(item(), 0..5)) {
        // One token per line: the layout fmt must not take from its input.
        // (A tool or destination written on one line stays on one line
        // when it fits, by design; the fmt unit tests cover that case.)
        let text = items.into_iter().flatten().collect::<Vec<_>>().join("\n");
        let ast = parse(&text);
        let formatted = format(&text);
        prop_assert_eq!(&formatted, &syntax::print::print(&ast));
        // Only a string can make a line longer than the width.
        for line in formatted.lines() {
            prop_assert!(
                line.chars().count() <= syntax::print::WIDTH || line.contains('"'),
                "line too long: {}\n--- output\n{}", line, formatted
            );
        }
    }
}
