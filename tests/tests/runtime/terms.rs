//! `terms` and `parts` conditions: folding, endings, compounds, typos, and
//! the limits that keep short entries from matching inside other words.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    reason = "test code: a panic is a test failure"
)]

use serde_json::json;
use stpc_runtime::label::Labeler;
use stpc_runtime::table::Condition;
use stpc_tests::table_builder::{lexicon, rule, skeleton};

const PUBLIC: u32 = 0;
const SENSITIVE: u32 = 2;

/// A labeler with one lexicon matched by one condition.
fn labeler(entries: &[&str], parts: bool) -> Labeler {
    let mut table = skeleton("terms");
    let pairs: Vec<(&str, Option<&str>)> = entries.iter().map(|e| (*e, None)).collect();
    table.lexicons.push(lexicon("topic", &pairs));
    let condition = if parts {
        Condition::Parts { lexicons: vec![0] }
    } else {
        Condition::Terms { lexicons: vec![0] }
    };
    table
        .labelers
        .args
        .rules
        .push(rule(vec![condition], Vec::new(), SENSITIVE));
    Labeler::new(&table).unwrap()
}

fn hits(l: &Labeler, text: &str) -> bool {
    l.label_value("q", &json!(text)) == SENSITIVE
}

#[test]
fn case_accents_and_endings_are_folded() {
    let l = labeler(&["evict", "schulden", "despido", "cáncer"], false);
    for text in [
        "EVICTED last week",
        "eviction notice",
        "Schulden abbezahlen",
        "despidos colectivos",
        "cancer ward",
        "CÁNCER de mama",
    ] {
        assert!(hits(&l, text), "{text}");
    }
    for text in ["evictor", "schuldenfrei", "predespido"] {
        assert!(!hits(&l, text), "{text}");
    }
}

#[test]
fn a_final_vowel_may_give_way_to_an_ending() {
    let l = labeler(&["divorce", "allergy"], false);
    assert!(hits(&l, "divorcing soon"));
    assert!(hits(&l, "food allergies"));
    assert!(hits(&l, "divorce"));
    // The cut stem alone is not the word.
    assert!(!hits(&l, "divorc"));
}

#[test]
fn stars_open_compounds() {
    let l = labeler(&["*schulden", "cardiolog*"], false);
    assert!(hits(&l, "Mietschulden seit März"));
    assert!(hits(&l, "cardiologue"));
    assert!(hits(&l, "cardiology referral"));
    assert!(hits(&l, "cardiologist"));
    assert!(!hits(&l, "schuld"));
}

#[test]
fn multi_word_entries_match_in_order() {
    let l = labeler(&["blood test"], false);
    assert!(hits(&l, "Blood-Test results"));
    assert!(hits(&l, "blood tests"));
    assert!(!hits(&l, "test blood"));
    assert!(!hits(&l, "blood type test"));
}

#[test]
fn long_words_tolerate_one_typo_after_the_first_letter() {
    let l = labeler(&["diagnosis", "nuestra", "eviction"], false);
    assert!(hits(&l, "diagnosys"));
    assert!(hits(&l, "evictoin"));
    assert!(
        !hits(&l, "muestra gratis"),
        "a different first letter is another word"
    );
    assert!(!hits(&l, "diagnostic"), "two edits");
}

#[test]
fn short_entries_take_no_ending() {
    let l = labeler(&["me", "ivf"], false);
    assert!(hits(&l, "help me"));
    assert!(hits(&l, "IVF clinic"));
    assert!(!hits(&l, "men only"));
    assert!(!hits(&l, "met yesterday"));
    assert!(!hits(&l, "ivfs"));
}

#[test]
fn parts_match_inside_words() {
    let l = labeler(&["sober", "debt"], true);
    assert!(hits(&l, "api.soberpath.example"));
    assert!(hits(&l, "mydebtfree"));
    assert!(!hits(&l, "weather today"));
    let words = labeler(&["sober", "debt"], false);
    assert!(!hits(&words, "api.soberpath.example"));
}

#[test]
fn unmatched_text_keeps_the_fallback() {
    let l = labeler(&["evict"], false);
    assert_eq!(l.label_value("q", &json!("weather in Lisbon")), PUBLIC);
}

#[test]
fn identifiers_split_into_words_but_acronyms_stay_whole() {
    let l = labeler(&["sick days", "gmbh"], false);
    assert!(hits(&l, "sickDaysTotal"));
    assert!(hits(&l, "sick_days_total"));
    assert!(hits(&l, "Nordlicht Werkzeuge GmbH"));
}

#[test]
fn hard_negatives_take_no_typo() {
    let mut table = skeleton("unless");
    table.lexicons.push(lexicon("topic", &[("impagos", None)]));
    table
        .lexicons
        .push(lexicon("negatives", &[("historical", None)]));
    table.labelers.args.rules.push(rule(
        vec![Condition::Terms { lexicons: vec![0] }],
        vec![Condition::Terms { lexicons: vec![1] }],
        SENSITIVE,
    ));
    let l = Labeler::new(&table).unwrap();
    // `historial` is one edit from `historical`: it does not cancel.
    assert!(hits(&l, "historial de impagos"));
    assert!(!hits(&l, "historical impagos"));
}
