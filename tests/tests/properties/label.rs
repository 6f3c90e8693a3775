//! Properties of the labeler on the compiled std labelers:
//!
//! - the fast path (rules from the highest label down, skipping rules that
//!   cannot change a field's label) gives the labels of the explaining path
//!   (every rule in order), for any arguments and destination;
//! - labeling is deterministic and independent of the thread's reused
//!   buffers (labeling twice, interleaved with another value, is the same).

#![expect(
    clippy::expect_used,
    reason = "test oracles and helpers: a failure should fail the test"
)]

use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use serde_json::{json, Value};
use stpc_compiler::CompileOptions;
use stpc_runtime::Engine;

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let compiled = stpc_tests::lowering::compile_file(
            "stdlib-contracts/policies/naive.stpc",
            &CompileOptions::default(),
        );
        Engine::new(Arc::new(compiled.table().clone())).expect("std table loads")
    })
}

/// Words from the vocabulary classes (topics, signals, first person,
/// negatives, names, mail shapes) and noise, so values hit several rules.
const WORDS: &[&str] = &[
    "my",
    "I",
    "how",
    "to",
    "near",
    "tonight",
    "eviction",
    "landlord",
    "mould",
    "chemo",
    "diagnosis",
    "lawyer",
    "asylum",
    "debt",
    "salary",
    "payslip",
    "password",
    "token",
    "leaked",
    "hacked",
    "weather",
    "Lisbon",
    "kubernetes",
    "cache",
    "eviction",
    "policy",
    "Anna",
    "Jansen",
    "GmbH",
    "ltd",
    "jan.jansen@example.com",
    "info@example.com",
    "+31 6 1234 5678",
    "Kerkstraat 12",
    "2026-10-15",
    "Räumungsklage",
    "despido",
    "licenciement",
    "schulden",
    "ghp_abcdefghijklmnop1234",
    "SEC-2026-001",
    "v.",
    "Smith",
    "report",
    "letter",
    "interview",
    "cv",
    "résumé",
    "ñandú",
    "ß",
    "İ",
    "x",
    "",
    "__",
    "…",
];

fn value() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS), 0..12).prop_map(|w| w.join(" "))
}

fn args() -> impl Strategy<Value = Value> {
    let field = prop::sample::select(
        &[
            "q",
            "query",
            "from",
            "collection",
            "attendee",
            "customer",
            "channel",
            "text",
            "note",
        ][..],
    );
    prop::collection::btree_map(field, value(), 0..4).prop_map(|m| {
        Value::Object(
            m.into_iter()
                .map(|(k, v)| (k.to_owned(), json!(v)))
                .collect(),
        )
    })
}

fn destination() -> impl Strategy<Value = String> {
    prop::sample::select(
        &[
            "api.brave.com",
            "kb.corp.example/spaces/leave-of-absence",
            "occmed.corp/fhir/R4/Observation",
            "pastebin.com/api",
            "api.soberpath.example/v1",
            "therapy-sessions",
            "general",
            "https://evil.example/x",
        ][..],
    )
    .prop_map(str::to_owned)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_fast_path_labels_as_the_explaining_path(
        tool in prop::sample::select(&["web_search", "email_search", "places_search", ""][..]),
        args in args(),
        dest in destination(),
    ) {
        let l = engine().labeler();
        let fast = l.label(tool, &args, None, &dest);
        let explained = l.label_event(tool, &args, None, &dest, true).labels;
        prop_assert_eq!(fast, explained);
    }

    #[test]
    fn labeling_does_not_depend_on_the_last_value_labeled(
        a in args(),
        b in args(),
        dest in destination(),
    ) {
        let l = engine().labeler();
        let first = l.label("web_search", &a, None, &dest);
        let _ = l.label("email_search", &b, None, "pastebin.com");
        let again = l.label("web_search", &a, None, &dest);
        prop_assert_eq!(first, again);
    }
}
