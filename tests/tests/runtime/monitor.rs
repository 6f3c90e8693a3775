//! The monitor: scenarios from the paper's worked contract and the runtime's
//! safety properties.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a panic is a test failure"
)]

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{json, Value};
use stpc_runtime::audit::Stage;
use stpc_runtime::table::{Action, OnPromote};
use stpc_runtime::{
    AuditError, AuditRecord, AuditSink, Decided, JsonLinesSink, MemorySink, Monitor, MonitorError,
    Outcome, Promoted, ProposedEvent, Reason,
};

const QUERY: &str = "tenant rights lease termination penalty";

fn monitor_with(opts: &stpc_tests::web_search_table::Options) -> (Monitor, MemorySink) {
    let sink = MemorySink::new();
    let handle = sink.handle();
    let mut m = Monitor::new(
        Arc::new(stpc_tests::web_search_table::web_search_table(opts)),
        Box::new(sink),
    )
    .unwrap();
    m.register_substitute(
        "local_search",
        Box::new(|call| json!({"results": [], "tool": call.tool()})),
    );
    m.begin_task("t1").unwrap();
    (m, handle)
}

fn monitor() -> (Monitor, MemorySink) {
    monitor_with(&stpc_tests::web_search_table::Options::default())
}

fn spec(q: &str, branch: &str, conf: f64) -> ProposedEvent {
    ProposedEvent::speculative(
        "web_search",
        "api.brave.com",
        branch,
        conf,
        json!({ "q": q }),
    )
}

fn committed(q: &str) -> ProposedEvent {
    ProposedEvent::committed("web_search", "brave", json!({ "q": q }))
}

fn payload(d: Decided) -> Value {
    match d.into_outcome() {
        Outcome::Dispatch(t) => t.dispatch().call().args().clone(),
        other => panic!("expected a dispatch, got {other:?}"),
    }
}

#[test]
fn speculative_intent_query_is_rewritten_to_a_generic_query() {
    let (mut m, audit) = monitor();
    let d = m.submit(spec(QUERY, "b1", 0.9)).unwrap();
    assert_eq!(
        (d.action(), d.rule_name()),
        (Action::Rewrite, "rewrite_sensitive")
    );
    assert_eq!(
        payload(d),
        json!({"q": "housing information general information general information"})
    );
    let recs = audit.records();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].labels[0].label, "intent_revealing");
    assert!(recs[0].raw_args.is_none());
    assert_eq!(recs[0].transformed["q"], json!(["generic_query"]));
}

/// Issue 16: a REWRITE's audit record kept the new value, and with it every
/// part of the raw value the transform did not replace. It now keeps the
/// transforms' names only.
#[test]
fn a_rewrite_leaves_no_raw_text_in_the_audit_record() {
    let (mut m, audit) = monitor();
    let d = m
        .submit(spec(&format!("{QUERY} early CNRY15"), "b1", 0.9))
        .unwrap();
    assert_eq!(d.action(), Action::Rewrite);
    let sent = payload(d);
    assert!(
        sent["q"].as_str().unwrap().contains("CNRY15"),
        "the transform keeps what it does not replace: {sent}"
    );
    let recs = audit.records();
    let record = serde_json::to_string(&recs[0]).unwrap();
    for raw in ["CNRY15", "early", "tenant", "lease"] {
        assert!(!record.contains(raw), "{raw} in {record}");
    }
    assert_eq!(recs[0].transformed["q"], json!(["generic_query"]));
}

#[test]
fn committed_intent_query_is_rewritten_too() {
    let (mut m, _) = monitor();
    let d = m.submit(committed(QUERY)).unwrap();
    assert_eq!(d.action(), Action::Rewrite);
}

#[test]
fn everyday_query_is_allowed_unchanged_and_completes() {
    let (mut m, audit) = monitor();
    let d = m.submit(committed("weather in Lisbon")).unwrap();
    assert_eq!(d.action(), Action::Allow);
    let Outcome::Dispatch(ticket) = d.into_outcome() else {
        panic!()
    };
    let sent = ticket.dispatch();
    assert_eq!(sent.call().args(), &json!({"q": "weather in Lisbon"}));
    let done = m.complete(sent).unwrap();
    assert_eq!(done.branch(), "main");
    let stages: Vec<Stage> = audit.records().iter().map(|r| r.stage).collect();
    assert_eq!(stages, vec![Stage::Decided, Stage::Completed]);
}

#[test]
fn a_rewrite_that_leaves_the_label_fails_closed() {
    let (mut m, _) = monitor();
    let d = m.submit(committed("personal loan rates")).unwrap();
    assert_eq!(d.action(), Action::Block);
    assert_eq!(
        d.reason(),
        &Reason::RewriteInsufficient {
            fields: vec!["q".into()]
        }
    );
    let d = m.submit(spec("personal loan rates", "b1", 0.9)).unwrap();
    assert_eq!(d.action(), Action::Defer);
    assert_eq!(m.pending("b1"), 1);
}

#[test]
fn blocked_tools_destinations_and_invalid_events() {
    let (mut m, _) = monitor();
    let mut ev = committed("weather");
    ev.tool = "send_email".into();
    assert_eq!(m.submit(ev).unwrap().action(), Action::Block);
    let mut ev = committed("weather");
    ev.destination = "https://api.bing.microsoft.com/v7/search".into();
    assert_eq!(m.submit(ev).unwrap().action(), Action::Block);
    let mut ev = committed("weather");
    ev.mode = "dreaming".into();
    let d = m.submit(ev).unwrap();
    assert_eq!(d.action(), Action::Block);
    assert!(matches!(d.reason(), Reason::InvalidEvent(_)));
    let mut ev = committed("weather");
    ev.args = json!("a bare string");
    assert_eq!(m.submit(ev).unwrap().action(), Action::Block);
}

#[test]
fn low_confidence_is_deferred_then_promoted_as_committed() {
    let (mut m, _) = monitor();
    assert_eq!(
        m.submit(spec("weather", "b1", 0.3)).unwrap().action(),
        Action::Defer
    );
    assert_eq!(
        m.submit(spec(QUERY, "b1", 0.2)).unwrap().action(),
        Action::Defer
    );
    assert_eq!(
        m.submit(spec("news", "b2", 0.2)).unwrap().action(),
        Action::Defer
    );
    let promoted = m.promote("b1").unwrap();
    let actions: Vec<Action> = promoted
        .iter()
        .map(|p| match p {
            Promoted::Decided(d) => d.action(),
            Promoted::Reused(_) => panic!("nothing was shadowed"),
        })
        .collect();
    assert_eq!(actions, vec![Action::Allow, Action::Rewrite]);
    assert_eq!(m.pending("b1"), 0);
    assert_eq!(m.abandon("b2").unwrap(), 1);
    assert_eq!(m.promote("b2").unwrap().len(), 0);
}

#[test]
fn shadow_reuse_and_reissue() {
    for (on_promote, reissued) in [(OnPromote::Reuse, false), (OnPromote::Reissue, true)] {
        let opts = stpc_tests::web_search_table::Options {
            shadow: true,
            on_promote,
            ..Default::default()
        };
        let (mut m, _) = monitor_with(&opts);
        let d = m.submit(spec(QUERY, "b1", 0.9)).unwrap();
        assert_eq!(d.action(), Action::Shadow);
        let Outcome::Shadowed(s) = d.into_outcome() else {
            panic!()
        };
        assert_eq!(s.substitute(), "local_search");
        assert_eq!(s.result()["tool"], json!("web_search"));
        let p = m.promote("b1").unwrap();
        assert_eq!(p.len(), 1);
        match (&p[0], reissued) {
            (Promoted::Reused(r), false) => assert_eq!(r.seq(), s.seq()),
            (Promoted::Decided(d), true) => assert_eq!(d.action(), Action::Rewrite),
            (other, _) => panic!("unexpected {other:?}"),
        }
    }
}

#[test]
fn shadow_without_a_registered_substitute_fails_closed() {
    let opts = stpc_tests::web_search_table::Options {
        shadow: true,
        ..Default::default()
    };
    let sink = MemorySink::new();
    let mut m = Monitor::new(
        Arc::new(stpc_tests::web_search_table::web_search_table(&opts)),
        Box::new(sink),
    )
    .unwrap();
    m.begin_task("t").unwrap();
    let d = m.submit(spec(QUERY, "b1", 0.9)).unwrap();
    assert_eq!(
        (d.action(), d.reason()),
        (Action::Defer, &Reason::NoSubstitute)
    );
}

#[test]
fn a_failing_substitute_fails_closed_and_a_working_one_shadows() {
    let opts = stpc_tests::web_search_table::Options {
        shadow: true,
        ..Default::default()
    };
    let mut m = Monitor::new(
        Arc::new(stpc_tests::web_search_table::web_search_table(&opts)),
        Box::new(MemorySink::new()),
    )
    .unwrap();
    m.register_fallible_substitute(
        "local_search",
        Box::new(|_| Err(stpc_runtime::SubstituteFailed)),
    );
    m.begin_task("t").unwrap();
    let d = m.submit(spec(QUERY, "b1", 0.9)).unwrap();
    assert_eq!(
        (d.action(), d.reason(), d.reason().code()),
        (
            Action::Defer,
            &Reason::SubstituteFailed,
            "substitute_failed"
        )
    );
    assert!(matches!(d.outcome(), Outcome::Deferred(_)));
    m.register_fallible_substitute("local_search", Box::new(|_| Ok(json!({"local": true}))));
    let d = m.submit(spec(QUERY, "b2", 0.9)).unwrap();
    assert_eq!(d.action(), Action::Shadow);
    match d.into_outcome() {
        Outcome::Shadowed(s) => assert_eq!(s.result(), &json!({"local": true})),
        other => panic!("expected a shadow, got {other:?}"),
    }
}

struct FailingSink;
impl AuditSink for FailingSink {
    fn record(&mut self, _: &AuditRecord) -> Result<(), AuditError> {
        Err(AuditError::Io {
            kind: "disk full".into(),
        })
    }
}

#[test]
fn an_audit_failure_blocks_dispatch() {
    let mut m = Monitor::new(
        Arc::new(stpc_tests::web_search_table::web_search_table(
            &Default::default(),
        )),
        Box::new(FailingSink),
    )
    .unwrap();
    m.begin_task("t").unwrap();
    let d = m.submit(committed("weather")).unwrap();
    assert_eq!(
        (d.action(), d.reason()),
        (Action::Block, &Reason::AuditFailed)
    );
    // `audit none` never calls the sink.
    let opts = stpc_tests::web_search_table::Options {
        audit_none: true,
        ..Default::default()
    };
    let mut m = Monitor::new(
        Arc::new(stpc_tests::web_search_table::web_search_table(&opts)),
        Box::new(FailingSink),
    )
    .unwrap();
    m.begin_task("t").unwrap();
    assert_eq!(
        m.submit(committed("weather")).unwrap().action(),
        Action::Allow
    );
}

#[test]
fn budget_exhaustion_defers_and_resets_at_task_end() {
    let (mut m, _) = monitor();
    for _ in 0..5 {
        assert_eq!(
            m.submit(committed(QUERY)).unwrap().action(),
            Action::Rewrite
        );
    }
    assert_eq!(m.budget_used(0), Some(5));
    assert_eq!(
        m.submit(committed("weather")).unwrap().action(),
        Action::Defer
    );
    m.end_task().unwrap();
    m.begin_task("t2").unwrap();
    assert_eq!(m.budget_used(0), Some(0));
    assert_eq!(
        m.submit(committed("weather")).unwrap().action(),
        Action::Allow
    );
}

#[test]
fn task_protocol_errors() {
    let (mut m, _) = monitor();
    assert_eq!(m.begin_task("again"), Err(MonitorError::TaskActive));
    let d = m.submit(committed("weather")).unwrap();
    let Outcome::Dispatch(t) = d.into_outcome() else {
        panic!()
    };
    let issued = m.issue(committed("news")).unwrap();
    m.end_task().unwrap();
    assert_eq!(
        m.submit(committed("weather")).unwrap_err(),
        MonitorError::NoTask
    );
    m.begin_task("t2").unwrap();
    assert!(matches!(
        m.complete(t.dispatch()),
        Err(MonitorError::StaleEvent { .. })
    ));
    assert!(matches!(
        m.decide(issued),
        Err(MonitorError::StaleEvent { .. })
    ));
}

#[test]
fn monitors_move_between_threads_and_engines_are_shared() {
    fn send<T: Send>() {}
    fn send_sync<T: Send + Sync>() {}
    send::<Monitor>();
    send::<stpc_runtime::DispatchTicket>();
    send_sync::<stpc_runtime::Engine>();
    send_sync::<stpc_runtime::Table>();
}

#[test]
fn debug_output_never_shows_values() {
    let ev = spec("my secret diagnosis", "b", 0.9);
    assert!(!format!("{ev:?}").contains("secret"));
    let (mut m, audit) = monitor_with(&stpc_tests::web_search_table::Options {
        raw_args: true,
        ..Default::default()
    });
    let d = m.submit(committed("my secret recipe")).unwrap();
    assert!(!format!("{d:?}").contains("secret"));
    let recs = audit.records();
    assert!(recs[0].raw_args.is_some());
    assert!(!format!("{recs:?}").contains("secret"));
}

/// A monitor of the test table with `with raw args` and `scrub after
/// commit`, auditing to a JSON-lines file.
fn scrubbing_jsonl_monitor(path: &std::path::Path) -> Monitor {
    let opts = stpc_tests::web_search_table::Options {
        raw_args: true,
        scrub: true,
        ..Default::default()
    };
    Monitor::new(
        Arc::new(stpc_tests::web_search_table::web_search_table(&opts)),
        Box::new(JsonLinesSink::open(path).unwrap()),
    )
    .unwrap()
}

#[test]
fn jsonl_sink_records_and_scrubs_raw_args_after_commit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let mut m = scrubbing_jsonl_monitor(&path);
    m.begin_task("t1").unwrap();
    m.submit(committed("weather in Porto")).unwrap();
    m.submit(spec("recipe for bread", "b1", 0.9)).unwrap();
    let before = std::fs::read_to_string(&path).unwrap();
    assert!(before.contains("weather in Porto"));
    assert!(!before.contains("recipe for bread"));
    m.end_task().unwrap();
    let after = std::fs::read_to_string(&path).unwrap();
    assert_eq!(after.lines().count(), 2);
    assert!(!after.contains("weather in Porto"));
    for line in after.lines() {
        let _: AuditRecord = serde_json::from_str(line).unwrap();
    }
}

/// Issue 16: a record torn by a full disk (or a crash) made every later
/// scrub fail on the unparsable line, and the stream stopped beginning
/// tasks. Scrub drops and counts lines that are not records, leaves no
/// temporary file, and the next task begins.
#[test]
fn a_torn_audit_line_never_wedges_scrub_or_the_next_task() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    // An earlier run died mid-record: half a line with part of a raw value.
    std::fs::write(&path, "{\"task\":\"t0\",\"raw_args\":{\"q\":\"my evic").unwrap();
    let mut m = scrubbing_jsonl_monitor(&path);
    for task in ["t1", "t2"] {
        m.begin_task(task).unwrap();
        m.submit(committed("weather in Porto")).unwrap();
        m.end_task().unwrap();
    }
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(!after.contains("my evic"), "{after}");
    assert!(!after.contains("weather in Porto"), "{after}");
    assert_eq!(after.lines().count(), 2);
    for line in after.lines() {
        let _: AuditRecord = serde_json::from_str(line).unwrap();
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "audit.jsonl")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A scrub that cannot write its temporary file fails, ends the task
/// anyway and leaves nothing behind; the next task begins.
#[test]
fn a_failed_scrub_still_ends_the_task() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let mut m = scrubbing_jsonl_monitor(&path);
    m.begin_task("t1").unwrap();
    m.submit(committed("weather in Porto")).unwrap();
    // The audit file is replaced by a directory: scrub cannot read it.
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    assert!(m.end_task().is_err());
    m.begin_task("t2").expect("the failed scrub ended the task");
}

// ---------------------------------------------------------------- properties

const PHRASES: &[&str] = &[
    "weather",
    "news",
    "recipe",
    "eviction",
    "break my lease",
    "tenant rights",
    "oncology",
    "public health statistics",
    "loan",
    "ssn 123-45-6789",
    "jane@example.com",
    "on 2024-03-15",
    "lisbon",
    "chemotherapy",
    "penalty",
    "cheap flights",
];

fn query() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PHRASES), 1..4).prop_map(|w| w.join(" "))
}

fn args() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => query().prop_map(|q| json!({ "q": q })),
        1 => (query(), query()).prop_map(|(a, b)| json!({ "q": a, "extra": [b] })),
        1 => Just(json!(null)),
        1 => query().prop_map(Value::String),
    ]
}

fn tool() -> impl Strategy<Value = String> {
    prop_oneof![3 => Just("web_search".to_owned()), 1 => Just("send_email".to_owned()), 1 => "[a-z_]{1,12}"]
}

fn destination() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => Just("brave".to_owned()),
        2 => Just("api.duckduckgo.com".to_owned()),
        1 => Just("https://api.brave.com/res/v1/web/search".to_owned()),
        1 => Just("bing".to_owned()),
        1 => "[a-z]{1,8}\\.[a-z]{2,3}",
    ]
}

fn mode() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => Just("committed".to_owned()),
        3 => Just("speculative".to_owned()),
        1 => Just("prefetch".to_owned()),
        1 => Just("bogus".to_owned()),
    ]
}

prop_compose! {
    fn event()(tool in tool(), destination in destination(), mode in mode(), confidence in prop_oneof![0.0..=1.0f64, Just(f64::NAN)],
               branch in prop::sample::select(&["b1", "b2", "b3"][..]), args in args()) -> ProposedEvent {
        ProposedEvent { tool, destination, mode, confidence, branch: branch.to_owned(), args }
    }
}

fn known(ev: &ProposedEvent) -> bool {
    ev.tool == "web_search"
        && [
            "brave",
            "api.duckduckgo.com",
            "https://api.brave.com/res/v1/web/search",
            "bing",
        ]
        .contains(&ev.destination.as_str())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Unknown tools or destinations, invalid modes and missing labels never ALLOW.
    #[test]
    fn unknown_or_missing_never_allows(events in prop::collection::vec(event(), 1..12)) {
        let (mut m, _) = monitor();
        for ev in events {
            let suspicious = !known(&ev) || !ev.args.is_object() || ev.mode == "bogus" || ev.confidence.is_nan();
            let d = m.submit(ev).unwrap();
            if suspicious {
                prop_assert!(!matches!(d.action(), Action::Allow | Action::Rewrite));
                prop_assert!(!matches!(d.outcome(), Outcome::Dispatch(_)));
            }
        }
    }

    /// No dispatched payload carries a field at or above the cut.
    #[test]
    fn dispatched_payloads_are_below_the_cut(events in prop::collection::vec(event(), 1..12), promote in any::<bool>()) {
        let (mut m, _) = monitor();
        let engine = Arc::clone(m.engine());
        let mut decided = Vec::new();
        for ev in events {
            decided.push(m.submit(ev).unwrap());
        }
        for b in ["b1", "b2", "b3"] {
            let ps = if promote { m.promote(b).unwrap() } else { Vec::new() };
            decided.extend(ps.into_iter().filter_map(|p| match p { Promoted::Decided(d) => Some(*d), Promoted::Reused(_) => None }));
        }
        for d in decided {
            if let Outcome::Dispatch(t) = d.into_outcome() {
                let sent = t.dispatch();
                let call = sent.call();
                let dest = engine.decider().destination_id(call.destination());
                let (fields, joined) = engine.labeler().label_args("web_search", call.args());
                prop_assert!(joined.is_some());
                for (f, l) in fields {
                    prop_assert!(!engine.is_forbidden(None, dest, Some(l)), "field {} at label {}", f, l);
                }
            }
        }
    }

    /// Abandoned branches dispatch nothing, now or later.
    #[test]
    fn abandoned_branches_never_dispatch(events in prop::collection::vec(event(), 1..12)) {
        let (mut m, _) = monitor_with(&stpc_tests::web_search_table::Options { shadow: true, ..Default::default() });
        let mut deferred = 0;
        for mut ev in events {
            ev.branch = "doomed".into();
            if matches!(m.submit(ev).unwrap().action(), Action::Defer | Action::Shadow) {
                deferred += 1;
            }
        }
        prop_assert_eq!(m.pending("doomed"), deferred);
        prop_assert_eq!(m.abandon("doomed").unwrap(), deferred);
        prop_assert!(m.promote("doomed").unwrap().is_empty());
        prop_assert_eq!(m.end_task().unwrap(), 0);
    }

    /// A promoted deferral is decided exactly as the same event issued committed.
    #[test]
    fn promoted_deferrals_are_decided_as_committed(qs in prop::collection::vec(query(), 1..6)) {
        let (mut m, _) = monitor();
        let (mut reference, _) = monitor();
        let mut expected = Vec::new();
        for q in &qs {
            prop_assert_eq!(m.submit(spec(q, "b1", 0.1)).unwrap().action(), Action::Defer);
            let d = reference.submit(committed(q)).unwrap();
            expected.push((d.action(), d.rule_id()));
        }
        let got: Vec<(Action, Option<u32>)> = m.promote("b1").unwrap().into_iter().map(|p| match p {
            Promoted::Decided(d) => (d.action(), d.rule_id()),
            Promoted::Reused(_) => (Action::Shadow, None),
        }).collect();
        prop_assert_eq!(got, expected);
    }

    /// Audit records never contain a raw speculative argument value.
    #[test]
    fn speculative_raw_values_never_reach_the_audit(qs in prop::collection::vec((query(), 0.0..=1.0f64, any::<bool>()), 1..10)) {
        let (mut m, audit) = monitor_with(&stpc_tests::web_search_table::Options { raw_args: true, shadow: true, ..Default::default() });
        let mut secrets = Vec::new();
        for (i, (q, conf, is_spec)) in qs.iter().enumerate() {
            if *is_spec {
                let secret = format!("{q} zq{i}x");
                m.submit(spec(&secret, "b1", *conf)).unwrap();
                secrets.push(secret);
            } else {
                m.submit(committed(q)).unwrap();
            }
        }
        // Abandoned (not promoted: a promoted event is committed, and the
        // policy grants raw arguments of committed events).
        m.abandon("b1").unwrap();
        let records = audit.records();
        let log = serde_json::to_string(&records).unwrap();
        for s in &secrets {
            prop_assert!(!log.contains(s.as_str()));
        }
        for r in &records {
            if r.mode != "committed" {
                prop_assert!(r.raw_args.is_none());
            }
        }
    }

    /// Budgets start fresh in every task.
    #[test]
    fn budgets_reset_at_task_boundaries(n in 0usize..9, limit in 1u32..4) {
        let (mut m, _) = monitor_with(&stpc_tests::web_search_table::Options { budget_limit: limit, ..Default::default() });
        for _ in 0..n {
            m.submit(committed(QUERY)).unwrap();
        }
        let exhausted = n as u32 >= limit;
        let want = if exhausted { Action::Defer } else { Action::Allow };
        prop_assert_eq!(m.submit(committed("weather")).unwrap().action(), want);
        m.end_task().unwrap();
        m.begin_task("next").unwrap();
        prop_assert_eq!(m.budget_used(0), Some(0));
        prop_assert_eq!(m.submit(committed("weather")).unwrap().action(), Action::Allow);
    }

    /// Serializing and loading a table gives it back unchanged.
    #[test]
    fn serialize_then_load_is_identity(raw in any::<bool>(), scrub in any::<bool>(), shadow in any::<bool>(), limit in 1u32..50, reissue in any::<bool>()) {
        let opts = stpc_tests::web_search_table::Options { raw_args: raw, scrub, shadow, budget_limit: limit,
            on_promote: if reissue { OnPromote::Reissue } else { OnPromote::Reuse }, audit_none: false };
        let t = stpc_tests::web_search_table::web_search_table(&opts);
        let back = stpc_runtime::Table::from_json(t.to_json_pretty().unwrap().as_bytes()).unwrap();
        prop_assert_eq!(back, t);
    }
}

// ---------------------------------------------------------------------------
// The label hook (evaluation only: labeler errors injected before decisions).

fn label_names(recs: &[AuditRecord]) -> Vec<(String, String)> {
    recs.iter()
        .filter(|r| r.stage == Stage::Decided)
        .map(|r| {
            (
                r.labels
                    .iter()
                    .map(|l| l.label.clone())
                    .collect::<Vec<_>>()
                    .join(","),
                r.arg_label.clone().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn a_label_hook_that_downgrades_labels_changes_the_decision() {
    let (mut m, audit) = monitor();
    assert_eq!(
        m.submit(spec(QUERY, "b1", 0.9)).unwrap().action(),
        Action::Rewrite
    );
    m.set_label_hook(Box::new(|_, labels| {
        for (_, l) in &mut labels.fields {
            *l = 0;
        }
    }));
    let d = m.submit(spec(QUERY, "b1", 0.9)).unwrap();
    assert_eq!((d.action(), d.rule_name()), (Action::Allow, "default"));
    assert_eq!(payload(d), json!({ "q": QUERY }), "nothing rewritten");
    // The audit record carries the labels the decision used.
    assert_eq!(
        label_names(&audit.records()),
        [
            ("intent_revealing".to_owned(), "intent_revealing".to_owned()),
            ("public".to_owned(), "public".to_owned()),
        ]
    );
    // Cleared, the labeler's labels decide again.
    assert!(m.clear_label_hook().is_some());
    assert!(m.clear_label_hook().is_none());
    assert_eq!(
        m.submit(spec(QUERY, "b1", 0.9)).unwrap().action(),
        Action::Rewrite
    );
}

#[test]
fn the_monitor_recomputes_the_argument_join_after_the_hook() {
    let (mut m, audit) = monitor();
    // The hook raises a field but claims a public join: the join is recomputed.
    m.set_label_hook(Box::new(|_, labels| {
        for (_, l) in &mut labels.fields {
            *l = stpc_tests::web_search_table::INTENT;
        }
        labels.args = Some(0);
    }));
    let d = m.submit(spec("weather", "b1", 0.9)).unwrap();
    assert_eq!(
        (d.action(), d.rule_name()),
        (Action::Rewrite, "rewrite_sensitive")
    );
    assert_eq!(
        label_names(&audit.records()),
        [("intent_revealing".to_owned(), "intent_revealing".to_owned())]
    );
    // A hook cannot lower the join below its fields either, nor give
    // non-object arguments a label.
    m.set_label_hook(Box::new(|_, labels| labels.args = Some(0)));
    assert_eq!(
        m.submit(spec(QUERY, "b1", 0.9)).unwrap().action(),
        Action::Rewrite
    );
    let mut ev = committed("weather");
    ev.args = json!("a bare string");
    assert_eq!(m.submit(ev).unwrap().action(), Action::Block);
    // A label outside the lattice fails closed.
    m.set_label_hook(Box::new(|_, labels| {
        for (_, l) in &mut labels.fields {
            *l = 99;
        }
    }));
    let d = m.submit(committed("weather")).unwrap();
    assert_eq!(d.action(), Action::Block);
    assert!(
        matches!(d.reason(), Reason::InvalidEvent(_)),
        "{:?}",
        d.reason()
    );
    m.set_label_hook(Box::new(|_, labels| labels.destination = Some(99)));
    let d = m.submit(spec("weather", "b1", 0.9)).unwrap();
    assert_eq!(d.action(), Action::Block);
    assert!(
        matches!(d.reason(), Reason::InvalidEvent(_)),
        "{:?}",
        d.reason()
    );
}

#[test]
fn the_label_hook_runs_on_promotion_too() {
    use std::sync::Mutex;
    let seen: Arc<Mutex<Vec<(String, f64)>>> = Arc::default();
    let (mut m, _) = monitor();
    let log = Arc::clone(&seen);
    // Raise the label only for committed decisions: the promoted re-decision
    // must see the hook.
    m.set_label_hook(Box::new(move |ev, labels| {
        log.lock().unwrap().push((ev.mode.clone(), ev.confidence));
        if ev.mode == "committed" {
            for (_, l) in &mut labels.fields {
                *l = stpc_tests::web_search_table::SENSITIVE;
            }
        }
    }));
    assert_eq!(
        m.submit(spec("weather", "b1", 0.3)).unwrap().action(),
        Action::Defer
    );
    let promoted = m.promote("b1").unwrap();
    let [Promoted::Decided(d)] = promoted.as_slice() else {
        panic!("{promoted:?}")
    };
    assert_eq!(d.action(), Action::Rewrite, "the hook raised the label");
    assert_eq!(
        *seen.lock().unwrap(),
        [
            ("speculative".to_owned(), 0.3),
            ("committed".to_owned(), 1.0)
        ]
    );
    // A re-issued shadowed event is re-decided through the hook; a reused
    // one is not decided again.
    for (on_promote, calls) in [(OnPromote::Reissue, 2), (OnPromote::Reuse, 1)] {
        let opts = stpc_tests::web_search_table::Options {
            shadow: true,
            on_promote,
            ..Default::default()
        };
        let (mut m, _) = monitor_with(&opts);
        let n = Arc::new(Mutex::new(0usize));
        let count = Arc::clone(&n);
        m.set_label_hook(Box::new(move |_, _| *count.lock().unwrap() += 1));
        assert_eq!(
            m.submit(spec(QUERY, "b1", 0.9)).unwrap().action(),
            Action::Shadow
        );
        m.promote("b1").unwrap();
        assert_eq!(*n.lock().unwrap(), calls, "{on_promote:?}");
    }
}

/// Issue 16: deeply nested arguments overflowed the labeler's stack and a
/// 1 MB argument took seconds to label. Past the labeler's limits an event
/// is not read and fails closed (BLOCK), with the limit as its reason.
#[test]
fn arguments_past_the_depth_and_size_limits_fail_closed_with_a_reason() {
    use stpc_runtime::label::{MAX_BYTES, MAX_DEPTH};
    use stpc_runtime::{DecideError, Reason};
    let (mut m, _) = monitor();
    let mut deep = json!("weather");
    for _ in 0..(MAX_DEPTH + 5) {
        deep = json!([deep]);
    }
    let d = m
        .submit(ProposedEvent::committed(
            "web_search",
            "brave",
            json!({ "q": deep }),
        ))
        .unwrap();
    assert_eq!(d.action(), Action::Block);
    assert_eq!(
        *d.reason(),
        Reason::InvalidEvent(DecideError::ArgumentsTooDeep { limit: MAX_DEPTH })
    );
    assert_eq!(d.rule_id(), None);
    let large = "weather ".repeat(MAX_BYTES / 8 + 1);
    let d = m.submit(committed(&large)).unwrap();
    assert_eq!(d.action(), Action::Block);
    assert_eq!(
        *d.reason(),
        Reason::InvalidEvent(DecideError::ArgumentsTooLarge { limit: MAX_BYTES })
    );
    // Within the limits, nesting is read as usual.
    let mut nested = json!("weather");
    for _ in 0..8 {
        nested = json!({ "inner": nested });
    }
    let d = m
        .submit(ProposedEvent::committed(
            "web_search",
            "brave",
            json!({ "q": nested }),
        ))
        .unwrap();
    assert_ne!(d.reason().code(), "invalid_event");
}

/// Issue 16: a confidence outside [0, 1] was decided as if it were in the
/// top (or bottom) interval. It is a bug upstream, and fails closed.
#[test]
fn confidences_outside_the_unit_interval_fail_closed() {
    use stpc_runtime::{DecideError, Reason};
    let (mut m, _) = monitor();
    for c in [1.5, -0.1, 7.0] {
        let d = m.submit(spec("weather in Lisbon", "b1", c)).unwrap();
        assert_eq!(d.action(), Action::Block, "{c}");
        assert_eq!(
            *d.reason(),
            Reason::InvalidEvent(DecideError::ConfidenceOutOfRange)
        );
    }
    for c in [0.0, 1.0] {
        let d = m.submit(spec("weather in Lisbon", "b1", c)).unwrap();
        assert_ne!(d.reason().code(), "invalid_event", "{c}");
    }
}

#[test]
fn a_task_holds_no_more_deferred_events_than_its_limit() {
    let (mut m, audit) = monitor();
    m.set_limits(stpc_runtime::Limits {
        deferred: 3,
        ..Default::default()
    });
    let actions: Vec<(Action, String)> = (0..5)
        .map(|_| {
            let d = m
                .submit(spec("weather in Lisbon tomorrow", "b1", 0.2))
                .unwrap();
            (d.action(), d.reason().code().to_owned())
        })
        .collect();
    let defer = (Action::Defer, "rule".to_owned());
    let full = (Action::Block, "queue_full".to_owned());
    assert_eq!(
        actions,
        vec![
            defer.clone(),
            defer.clone(),
            defer.clone(),
            full.clone(),
            full
        ]
    );
    assert_eq!(m.pending("b1"), 3);
    let last = audit.records().pop().unwrap();
    assert_eq!(
        (last.action, last.reason.as_deref()),
        (Some(Action::Block), Some("queue_full"))
    );
    // Room again once the branch is settled.
    m.abandon("b1").unwrap();
    let d = m
        .submit(spec("weather in Lisbon tomorrow", "b2", 0.2))
        .unwrap();
    assert_eq!(d.action(), Action::Defer);
}

#[test]
fn a_task_holds_no_more_shadowed_results_than_its_limit() {
    let (mut m, _) = monitor_with(&stpc_tests::web_search_table::Options {
        shadow: true,
        ..Default::default()
    });
    m.set_limits(stpc_runtime::Limits {
        shadowed: 1,
        ..Default::default()
    });
    let first = m.submit(spec(QUERY, "b1", 0.9)).unwrap();
    assert_eq!(first.action(), Action::Shadow);
    let second = m.submit(spec(QUERY, "b1", 0.9)).unwrap();
    assert_eq!(
        (second.action(), second.reason()),
        (Action::Block, &Reason::QueueFull { queue: "shadowed" })
    );
}

#[test]
fn a_decision_carries_the_labels_and_cell_it_was_made_on() {
    let (mut m, _) = monitor();
    let engine = Arc::clone(m.engine());
    let ev = spec(QUERY, "b1", 0.9);
    let expected = engine.labeler().label(
        &ev.tool,
        &ev.args,
        engine.decider().destination_id(&ev.destination),
        &ev.destination,
    );
    let d = m.submit(ev).unwrap();
    assert_eq!(d.labels(), &expected);
    assert!(d.cell().is_some());
    // Arguments beyond the limits are not read: no labels, no cell.
    let mut deep = json!("x");
    for _ in 0..70 {
        deep = json!([deep]);
    }
    let d = m
        .submit(ProposedEvent::speculative(
            "web_search",
            "api.brave.com",
            "b1",
            0.9,
            json!({ "q": deep }),
        ))
        .unwrap();
    assert_eq!((d.action(), d.cell()), (Action::Block, None));
    assert!(d.labels().fields.is_empty());
}

/// Issue 12 (finding 5): a text transform applies to each element of a
/// `list(text)` field, as the checker now accepts it, and the rewritten
/// field stays a list (a constant replaced the whole list by one string).
#[test]
fn a_rewrite_of_a_list_field_rewrites_each_element_and_keeps_the_list() {
    let compiled = stpc_tests::lowering::compile_file(
        "tests/fixtures/diagnostics/E0412-list-elements.stpc",
        &Default::default(),
    );
    let mut m = Monitor::new(
        Arc::new(compiled.table.unwrap()),
        Box::new(MemorySink::new()),
    )
    .unwrap();
    m.begin_task("t1").unwrap();
    let d = m
        .submit(ProposedEvent::speculative(
            "tag_search",
            "tags.example",
            "b1",
            0.9,
            json!({"tags": ["my HIV diagnosis came back positive", "cooking"]}),
        ))
        .unwrap();
    assert_eq!(d.action(), Action::Rewrite);
    assert_eq!(payload(d), json!({"tags": ["a topic", "a topic"]}));
}

/// Finding 7 (issue 12): std Rewrite scrubs a ghost call to a fixed generic
/// value, and reissues it as committed, with its original arguments, when
/// its branch is promoted; an abandoned branch reissues nothing.
#[test]
fn std_rewrite_reissues_a_promoted_ghost_as_committed() {
    let compiled = stpc_tests::lowering::compile_text(
        "r.stpc",
        "contract r extends std::policies::rewrite {}\n",
        &stpc_compiler::CompileOptions::default(),
    );
    assert!(compiled.codes().is_empty(), "{}", compiled.rendered());
    let mut m = Monitor::new(
        Arc::new(compiled.table().clone()),
        Box::new(MemorySink::new()),
    )
    .unwrap();
    m.begin_task("t").unwrap();
    let q = "side effects of chemotherapy for breast cancer";
    let ghost = |branch: &str| {
        ProposedEvent::speculative(
            "web_search",
            "api.brave.com",
            branch,
            0.9,
            json!({ "q": q }),
        )
    };
    let d = m.submit(ghost("b1")).unwrap();
    assert_eq!(
        (d.action(), d.rule_name()),
        (Action::Rewrite, "ghost_scrub")
    );
    let sent = payload(d);
    assert_ne!(sent["q"], json!(q));
    let d = m.submit(ghost("b2")).unwrap();
    assert_eq!(d.action(), Action::Rewrite);
    let promoted = m.promote("b1").unwrap();
    assert_eq!(promoted.len(), 1, "{promoted:?}");
    let Promoted::Decided(again) = &promoted[0] else {
        panic!("{promoted:?}")
    };
    assert_eq!(
        (again.action(), again.rule_name()),
        (Action::Rewrite, "scrub")
    );
    // The abandoned ghost was dispatched rewritten; nothing of it remains.
    m.abandon("b2").unwrap();
    assert!(m.promote("b2").unwrap().is_empty());
}

/// Finding 8 (issue 12): std's audit policy withholds the destination and
/// the labels of events that never left (deferred, then abandoned), and
/// keeps them for a dispatched one.
#[test]
fn std_audit_records_of_ghosts_that_never_left_name_no_destination_or_labels() {
    let compiled = stpc_tests::lowering::compile_text(
        "n.stpc",
        "contract n extends std::policies::no_spec {}\n",
        &stpc_compiler::CompileOptions::default(),
    );
    assert!(compiled.codes().is_empty(), "{}", compiled.rendered());
    let sink = MemorySink::new();
    let audit = sink.handle();
    let mut m = Monitor::new(Arc::new(compiled.table().clone()), Box::new(sink)).unwrap();
    m.begin_task("t").unwrap();
    let q = json!({ "q": "chemotherapy side effects" });
    let ghost = ProposedEvent::speculative("web_search", "api.brave.com", "b1", 0.9, q.clone());
    assert_eq!(m.submit(ghost).unwrap().action(), Action::Defer);
    m.abandon("b1").unwrap();
    let committed = ProposedEvent::committed("web_search", "api.brave.com", q);
    let d = m.submit(committed).unwrap();
    assert!(
        matches!(d.action(), Action::Allow | Action::Rewrite),
        "{d:?}"
    );
    let recs = audit.records();
    assert_eq!(recs.len(), 3, "{recs:?}");
    for r in &recs[..2] {
        assert_eq!(r.destination, stpc_runtime::monitor::WITHHELD, "{r:?}");
        assert!(
            r.labels.is_empty() && r.arg_label.is_none() && r.dest_label.is_none(),
            "{r:?}"
        );
    }
    assert_eq!(recs[1].stage, Stage::Abandoned);
    assert_eq!(recs[2].destination, "brave");
    assert!(!recs[2].labels.is_empty() && recs[2].arg_label.is_some());
}
