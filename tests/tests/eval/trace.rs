//! The trace model on the paper's worked trace (Appendix A.1): a user asks
//! about breaking a lease; the frontier searches tenant rights (e1, later
//! promoted), apartments (e2) and personal loan rates (e3).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code"
)]

use serde_json::json;
use stpc_eval::frontier::{Candidate, Commit, Task};
use stpc_eval::replay::{replay_task, Contract, ReplayMode, ReplayOptions};
use stpc_eval::trace::{delta, Act, Channels, Dispatch, Observer, Record};

fn cand(id: &str, tool: &str, dest: &str, q: &str, branch: &str, conf: f64, t: u64) -> Candidate {
    Candidate {
        id: id.into(),
        tool: tool.into(),
        destination: dest.into(),
        args: json!({ "q": q }),
        mode: "speculative".into(),
        branch: branch.into(),
        confidence: Some(conf),
        t_ms: Some(t),
    }
}

fn lease_task() -> Task {
    Task {
        task: "lease".into(),
        label: Some("legal".into()),
        group: None,
        candidates: vec![
            cand(
                "e1",
                "web_search",
                "api.brave.com",
                "tenant rights lease termination penalty",
                "answer",
                0.9,
                100,
            ),
            cand(
                "e2",
                "web_search",
                "api.brave.com",
                "available apartments near me",
                "move",
                0.4,
                150,
            ),
            cand(
                "e3",
                "loan_rates",
                "api.loanrates.example",
                "current personal loan rates",
                "loan",
                0.3,
                250,
            ),
        ],
        committed: Commit {
            branches: vec!["answer".into()],
            candidates: vec![],
        },
        commit_t_ms: Some(400),
    }
}

fn contract(name: &str, p: stpc_tests::policy_tables::Pipeline) -> Contract {
    Contract::new(name, stpc_tests::policy_tables::table(name, p, 0.7, false)).unwrap()
}

fn ids(trace: &stpc_eval::TaskTrace, obs: Observer, which: &[usize]) -> Vec<String> {
    let x = trace.exposure(obs);
    which
        .iter()
        .map(|i| trace.events[x.issued[*i].index.unwrap()].id.clone())
        .collect()
}

#[test]
fn naive_provider_delta_is_the_two_ghost_calls() {
    let t = replay_task(
        &contract("naive", stpc_tests::policy_tables::naive),
        &lease_task(),
        &ReplayOptions::default(),
    )
    .unwrap();
    let x = t.exposure(Observer::Provider);
    assert_eq!(x.issued.len(), 3);
    assert_eq!(x.committed.len(), 1);
    assert_eq!(ids(&t, Observer::Provider, &x.delta), ["e2", "e3"]);
    // e1 was promoted: the provider saw it before commit (pre-commit
    // disclosure), not as marginal exposure.
    assert_eq!(ids(&t, Observer::Provider, &x.precommit), ["e1"]);
    assert_eq!(t.events.iter().filter(|e| e.ghost()).count(), 2);
    assert_eq!(t.calls(), 3);
    // The ghost calls disclose their arguments' labels.
    let leaked: Vec<_> = x.delta_records().flat_map(|r| r.fields.clone()).collect();
    assert!(
        leaked.contains(&("q".to_owned(), "intent_revealing".to_owned())),
        "{leaked:?}"
    );
    assert!(
        leaked.contains(&("q".to_owned(), "sensitive".to_owned())),
        "{leaked:?}"
    );
}

#[test]
fn shadow_provider_delta_is_empty_for_the_ghost_calls() {
    let t = replay_task(
        &contract("shadow", stpc_tests::policy_tables::shadow),
        &lease_task(),
        &ReplayOptions::default(),
    )
    .unwrap();
    let x = t.exposure(Observer::Provider);
    assert!(x.delta.is_empty(), "{:?}", x.delta);
    assert!(x.precommit.is_empty());
    assert_eq!(
        t.events[0].dispatch,
        Dispatch::ShadowThenReissued { rewritten: false }
    );
    assert_eq!(t.events[1].dispatch, Dispatch::ShadowedLocally);
    assert_eq!(t.events[2].dispatch, Dispatch::ShadowedLocally);
    assert_eq!(t.events.iter().filter(|e| e.ghost()).count(), 0);
    // The network and co-tenant see nothing extra either.
    assert!(t.exposure(Observer::Network).delta.is_empty());
    assert!(t.exposure(Observer::CoTenant).delta.is_empty());
    // The runtime log is inside the boundary: the substitutes ran there.
    assert_eq!(t.exposure(Observer::RuntimeLog).delta.len(), 3);
}

#[test]
fn committed_mode_e1_is_not_precommit_disclosure() {
    let mut task = lease_task();
    task.candidates[0].mode = "committed".into();
    task.candidates[0].branch = "main".into();
    task.committed = Commit::default();
    let t = replay_task(
        &contract("naive", stpc_tests::policy_tables::naive),
        &task,
        &ReplayOptions::default(),
    )
    .unwrap();
    let x = t.exposure(Observer::Provider);
    assert_eq!(ids(&t, Observer::Provider, &x.delta), ["e2", "e3"]);
    assert!(x.precommit.is_empty());
}

#[test]
fn no_spec_contract_and_replay_mode_expose_nothing() {
    let t = replay_task(
        &contract("no_spec", stpc_tests::policy_tables::no_spec),
        &lease_task(),
        &ReplayOptions::default(),
    )
    .unwrap();
    for o in Observer::ALL {
        if o != Observer::RuntimeLog && o != Observer::Auditor {
            assert!(t.exposure(o).delta.is_empty(), "{o:?}");
            assert!(t.exposure(o).precommit.is_empty(), "{o:?}");
        }
    }
    assert_eq!(
        t.events[0].dispatch,
        Dispatch::DeferredThenPromoted { rewritten: false }
    );
    assert_eq!(t.events[1].dispatch, Dispatch::Withheld);
    let opts = ReplayOptions {
        mode: ReplayMode::CommittedOnly,
        noise: None,
    };
    let t = replay_task(
        &contract("naive", stpc_tests::policy_tables::naive),
        &lease_task(),
        &opts,
    )
    .unwrap();
    for o in Observer::ALL {
        assert!(t.exposure(o).delta.is_empty(), "{o:?}");
    }
}

#[test]
fn rewrite_sends_generic_ghost_queries() {
    let t = replay_task(
        &contract("rewrite", stpc_tests::policy_tables::rewrite),
        &lease_task(),
        &ReplayOptions::default(),
    )
    .unwrap();
    assert_eq!(t.events[1].decision, Act::Rewrite);
    let x = t.exposure(Observer::Provider);
    // Still two ghost calls on the wire, but with generic arguments.
    assert_eq!(ids(&t, Observer::Provider, &x.delta), ["e2", "e3"]);
    for r in x.delta_records() {
        assert!(
            !r.text.arguments.contains("apartments") && !r.text.arguments.contains("loan"),
            "{}",
            r.text.arguments
        );
        assert!(r
            .fields
            .iter()
            .filter(|(f, _)| f == "q")
            .all(|(_, l)| l == "public"));
    }
}

#[test]
fn late_scrub_clears_ghost_summaries_from_the_runtime_log_only() {
    let c = Contract::new(
        "late_scrub",
        stpc_tests::policy_tables::table("late_scrub", stpc_tests::policy_tables::naive, 0.7, true),
    )
    .unwrap();
    let t = replay_task(&c, &lease_task(), &ReplayOptions::default()).unwrap();
    assert_eq!(
        ids(
            &t,
            Observer::Provider,
            &t.exposure(Observer::Provider).delta
        ),
        ["e2", "e3"]
    );
    let log = t.exposure(Observer::RuntimeLog);
    for r in log.delta_records() {
        assert!(r.text.arguments.is_empty());
    }
    // Raw arguments of the committed search were scrubbed from the audit sink too.
    assert!(t.issued.audit.iter().all(|a| a
        .record
        .get("raw_args")
        .is_none_or(serde_json::Value::is_null)));
}

#[test]
fn gate_defers_low_confidence_branches() {
    let t = replay_task(
        &contract("gate", stpc_tests::policy_tables::gate),
        &lease_task(),
        &ReplayOptions::default(),
    )
    .unwrap();
    assert_eq!(t.events[0].dispatch, Dispatch::Original);
    assert_eq!(t.events[1].dispatch, Dispatch::Withheld);
    assert_eq!(t.events[2].dispatch, Dispatch::Withheld);
    assert!(t.exposure(Observer::Provider).delta.is_empty());
}

fn rec(key: &str, t: u64) -> Record {
    Record {
        key: key.into(),
        t_ms: t,
        index: None,
        text: Channels::default(),
        fields: vec![],
    }
}

#[test]
fn delta_is_a_multiset_difference() {
    let s = vec![rec("a", 1), rec("a", 2), rec("b", 3), rec("a", 9)];
    let c = vec![rec("a", 1), rec("b", 5)];
    let x = delta(s, c);
    assert_eq!(x.delta, [1, 3]);
    assert_eq!(x.precommit, [2]);
}

#[test]
fn label_noise_downgrades_at_its_rate_and_identically_across_policies() {
    use stpc_eval::LabelNoise;
    let noise = LabelNoise { rate: 0.2, seed: 9 };
    let mut flipped = 0;
    let mut total = 0;
    for i in 0..2000 {
        let mut fields = vec![
            ("q".to_owned(), "intent_revealing".to_owned()),
            ("n".to_owned(), "personal".to_owned()),
        ];
        let mut dest = "sensitive".to_owned();
        let again = (fields.clone(), dest.clone());
        flipped += noise.downgrade("t", &format!("c{i}"), &mut fields, &mut dest);
        total += 2;
        assert_eq!(
            fields[1].1, "personal",
            "only sensitive and intent-revealing labels flip"
        );
        let (mut f2, mut d2) = again;
        noise.downgrade("t", &format!("c{i}"), &mut f2, &mut d2);
        assert_eq!(
            (f2, d2),
            (fields, dest),
            "the same event draws the same noise"
        );
    }
    let rate = flipped as f64 / total as f64;
    assert!((0.18..0.22).contains(&rate), "{rate}");
}
