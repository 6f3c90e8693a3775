//! The labeler, the entity recognisers, globbing and the REWRITE steps.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a panic is a test failure"
)]

use serde_json::json;
use stpc_runtime::address::{glob_match, host_of, without_query};
use stpc_runtime::entity::Recognisers;
use stpc_runtime::label::{at_word_boundaries, Labeler};
use stpc_runtime::table::{EntityKind, Granularity};
use stpc_runtime::transform::Rewriter;

const PUBLIC: u32 = 0;
const PERSONAL: u32 = 1;
const SENSITIVE: u32 = 2;
const INTENT: u32 = 3;

fn labeler() -> Labeler {
    Labeler::new(&stpc_tests::web_search_table::web_search_table(
        &stpc_tests::web_search_table::Options::default(),
    ))
    .unwrap()
}

#[test]
fn lexicon_hits_respect_word_boundaries_and_case() {
    let l = labeler();
    assert_eq!(
        l.label_value("q", &json!("how to BREAK MY LEASE early")),
        INTENT
    );
    assert_eq!(l.label_value("q", &json!("eviction")), INTENT);
    // `penalty` inside `penaltybox` is not a word hit; no rule matches -> fallback.
    assert_eq!(l.label_value("q", &json!("penaltybox scores")), PERSONAL);
    assert_eq!(l.label_value("q", &json!("weather in Lisbon")), PUBLIC);
}

#[test]
fn unless_lexicon_suppresses_hard_negatives() {
    let l = labeler();
    assert_eq!(
        l.label_value("q", &json!("oncology clinics near me")),
        SENSITIVE
    );
    assert_eq!(
        l.label_value("q", &json!("oncology public health statistics")),
        PERSONAL
    );
}

#[test]
fn unmatched_values_get_the_fallback_never_public() {
    let l = labeler();
    assert_eq!(
        l.label_value("q", &json!("something nobody listed")),
        PERSONAL
    );
    assert_eq!(l.label_value("q", &json!("")), PERSONAL);
    assert_eq!(l.label_value("q", &json!([])), PERSONAL);
    assert_eq!(l.label_value("q", &json!(42)), PERSONAL);
}

#[test]
fn leaves_are_labeled_one_by_one_and_joined() {
    let l = labeler();
    // A public leaf cannot hide an unlabeled one.
    assert_eq!(
        l.label_value("q", &json!(["weather", "my own thing"])),
        PERSONAL
    );
    assert_eq!(
        l.label_value("q", &json!({"filters": {"topic": "eviction"}})),
        INTENT
    );
    // Object keys are labeled too.
    assert_eq!(l.label_value("q", &json!({"eviction": true})), INTENT);
    // Numbers count as their text for patterns and entities.
    assert_eq!(
        l.label_value("q", &json!({"n": "ssn 123-45-6789"})),
        SENSITIVE
    );
    let (fields, joined) =
        l.label_args("web_search", &json!({"q": "weather", "note": "loan rates"}));
    assert_eq!(
        fields,
        vec![("note".to_owned(), SENSITIVE), ("q".to_owned(), PUBLIC)]
    );
    assert_eq!(joined, Some(SENSITIVE));
    assert_eq!(l.label_args("web_search", &json!({})).1, Some(PUBLIC));
    assert_eq!(l.label_args("web_search", &json!("not an object")).1, None);
}

#[test]
fn destinations_use_declared_labels_then_rules_then_fallback() {
    let l = labeler();
    assert_eq!(l.label_destination(Some(0), "brave"), 0);
    assert_eq!(
        l.label_destination(None, "https://records.health.gov/api"),
        3
    );
    assert_eq!(l.label_destination(None, "oncology_notes"), 2);
    assert_eq!(l.label_destination(None, "somewhere.example"), 2);
}

#[test]
fn entity_recognisers_find_typical_shapes() {
    let r = Recognisers::new().unwrap();
    let yes = [
        (
            EntityKind::Email,
            "write to jane.doe+x@mail.example.org now",
        ),
        (EntityKind::Phone, "call (415) 555-0100"),
        (EntityKind::Phone, "call +44 20 7946 0958"),
        (EntityKind::PersonName, "appointment with Dr. Alvarez"),
        (EntityKind::PersonName, "hi, my name is Priya"),
        (EntityKind::Date, "on 2024-03-15"),
        (EntityKind::Date, "March 15, 2024"),
        (EntityKind::Date, "the 3rd of May"),
        (EntityKind::Time, "at 14:30"),
        (EntityKind::Time, "at 3pm"),
        (EntityKind::Money, "owe $1,200.50"),
        (EntityKind::Money, "about 300 dollars"),
        (EntityKind::GovId, "ssn 123-45-6789"),
        (EntityKind::GovId, "NINO AB 12 34 56 C"),
        (EntityKind::GovId, "passport number X1234567"),
        (EntityKind::Address, "lives at 221 Baker Street"),
        (EntityKind::Url, "see https://example.com/a?b=c"),
        (EntityKind::Ip, "from 192.168.1.20"),
        (EntityKind::Ip, "from 2001:db8::1"),
        (EntityKind::Address, "Molenstraat 12, Utrecht"),
        (EntityKind::Address, "Hauptstraße 5a"),
        (EntityKind::Address, "12 rue de la Paix"),
        (EntityKind::Address, "calle Mayor 7"),
        (EntityKind::Secret, "token glpat-Q9wErTy7UiOp1AsDfGh"),
        (EntityKind::Secret, "key AKIAABCDEFGHIJKLMNOP"),
        (EntityKind::Secret, "password=hunter2!"),
        (EntityKind::Secret, "-----BEGIN OPENSSH PRIVATE KEY-----"),
        (EntityKind::Coordinates, "at 52.3676,4.9041"),
        (EntityKind::Coordinates, "-33.8688, 151.2093"),
        (EntityKind::AccountNumber, "NL91 ABNA 0417 1643 00"),
        (EntityKind::AccountNumber, "card 4111 1111 1111 1111"),
    ];
    for (k, text) in yes {
        assert!(r.is_match(k, text), "{k:?} should match {text:?}");
    }
    let no = [
        (EntityKind::Email, "no at sign here"),
        (EntityKind::PersonName, "the dr said"),
        (EntityKind::GovId, "call 555-0100"),
        (EntityKind::Ip, "version 1.2.3"),
        (EntityKind::Date, "page 12"),
        (EntityKind::Address, "Strasse 5"),
        (EntityKind::Secret, "how to rotate a password"),
        (EntityKind::Secret, "the sk-ip rope"),
        (EntityKind::Coordinates, "prices 3.50, 4.99 and 1.2.3"),
        (EntityKind::AccountNumber, "customs MRN 26NL0004471"),
        (EntityKind::AccountNumber, "ACCT-DE-01987"),
    ];
    for (k, text) in no {
        assert!(!r.is_match(k, text), "{k:?} should not match {text:?}");
    }
    assert_eq!(
        r.find(EntityKind::PersonName, "my name is Priya Patel"),
        vec![11..22]
    );
}

#[test]
fn globs_and_hosts() {
    assert!(glob_match("*.gov", "records.HEALTH.gov"));
    assert!(!glob_match("*.gov", "gov.example"));
    assert!(glob_match(
        "https://api.*.com/v?/*",
        "https://api.brave.com/v1/search"
    ));
    assert!(glob_match("*", ""));
    assert!(!glob_match("a?", "a"));
    assert_eq!(
        host_of("https://API.brave.com:443/x?q=1").as_deref(),
        Some("api.brave.com")
    );
    assert_eq!(host_of("api.brave.com").as_deref(), Some("api.brave.com"));
    assert_eq!(
        host_of("api.brave.com/res/v1/web/search").as_deref(),
        Some("api.brave.com")
    );
    assert_eq!(host_of("oncology"), None);
    // Userinfo and backslashes are read differently by HTTP clients: refused.
    assert_eq!(host_of("https://user@api.brave.com/x"), None);
    assert_eq!(host_of("https://evil.example\\@api.brave.com/"), None);
    assert_eq!(host_of("https://api.brave.com /x"), None);
    assert!(at_word_boundaries("a lease b", 2, 7));
    assert!(!at_word_boundaries("please", 1, 6));
}

#[test]
fn coarsening_dates_and_times() {
    let rw = Rewriter::new().unwrap();
    let c = |s: &str, g| rw.coarsen(s, g);
    assert_eq!(
        c("meet 2024-03-15T14:37:00Z", Granularity::Hour),
        "meet 2024-03-15 14:00"
    );
    assert_eq!(
        c("meet 2024-03-15T14:37", Granularity::Day),
        "meet 2024-03-15"
    );
    assert_eq!(
        c("on 2024-03-15", Granularity::Week),
        "on week of 2024-03-11"
    );
    assert_eq!(
        c("on 2024-01-01", Granularity::Week),
        "on week of 2024-01-01"
    );
    assert_eq!(
        c("on 2023-01-01", Granularity::Week),
        "on week of 2022-12-26"
    );
    assert_eq!(c("on March 15, 2024", Granularity::Month), "on 2024-03");
    assert_eq!(c("on 15 March 2024", Granularity::Year), "on 2024");
    assert_eq!(c("on 3/15/2024", Granularity::Month), "on 2024-03");
    assert_eq!(c("at 3:45 pm", Granularity::Hour), "at 15:00");
    assert_eq!(c("at 9am", Granularity::Day), "at [time]");
    assert_eq!(c("on 2024-02-30", Granularity::Day), "on [date]");
    assert_eq!(c("on March 15", Granularity::Month), "on march");
}

#[test]
fn destinations_as_agents_write_them() {
    for written in [
        "https://api.search.example/v2/query?q=my+private+question",
        "api.search.example/v2/query",
        "api.search.example",
        "HTTPS://Api.Search.Example:443/v2/query#frag",
    ] {
        assert_eq!(
            host_of(written).as_deref(),
            Some("api.search.example"),
            "{written}"
        );
    }
    assert_eq!(
        without_query("https://api.search.example/v2/query?q=secret").as_deref(),
        Some("https://api.search.example/v2/query")
    );
    assert_eq!(without_query("oncology?x=1").as_deref(), Some("oncology"));
    assert_eq!(without_query("a.example\\@b.example"), None);
}
