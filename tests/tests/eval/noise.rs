//! The label-noise sweep (the paper's Table 10) through the runtime's label
//! hook: rate 0 is no noise, the flipped share matches the rate, label-blind
//! policies (the Naive cluster) do not move while a label-dependent one
//! leaks more, noise applies on promotion too, and the same seed gives the
//! same report.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code"
)]

use serde_json::json;
use stpc_eval::corpus::{generate, Kind, Spec};
use stpc_eval::frontier::{Candidate, Commit, Task};
use stpc_eval::replay::{
    replay_task, Contract, LabelNoise, ReplayError, ReplayMode, ReplayOptions,
};
use stpc_eval::report::replay_traces;
use stpc_eval::{
    evaluate, render, Act, Adversary, Dispatch, EvalOptions, Frontier, NoiseStats, Observer,
};
use stpc_runtime::table::Action;
use stpc_tests::policy_tables::Point as _;

/// Destination label `sensitive` (and above: regulated, forbidden).
const SENSITIVE_DEST: u32 = 2;

/// A label-dependent policy: block sensitive arguments and sensitive
/// destinations, speculative or not.
fn taint(e: &stpc_tests::policy_tables::Coords) -> (Action, &'static str) {
    if e.unknown() {
        return (Action::Block, "known");
    }
    if e.missing() {
        return (
            if e.speculative() {
                Action::Defer
            } else {
                Action::Block
            },
            "labels_missing",
        );
    }
    if e.arg >= stpc_tests::policy_tables::SENSITIVE || e.dest_label >= SENSITIVE_DEST {
        return (Action::Block, "tainted");
    }
    (Action::Allow, "default")
}

/// Defer low-confidence speculation; block sensitive committed arguments.
fn gate_taint(e: &stpc_tests::policy_tables::Coords) -> (Action, &'static str) {
    if e.speculative() && e.conf == 0 {
        return (Action::Defer, "gate");
    }
    taint(e)
}

fn policies() -> Vec<(String, stpc_runtime::Table)> {
    let t = |n: &str, p: stpc_tests::policy_tables::Pipeline, scrub: bool| {
        (
            n.to_owned(),
            stpc_tests::policy_tables::table(n, p, 0.7, scrub),
        )
    };
    vec![
        t("naive", stpc_tests::policy_tables::naive, false),
        t("late_scrub", stpc_tests::policy_tables::naive, true),
        t("shadow", stpc_tests::policy_tables::shadow, false),
        t("gate", stpc_tests::policy_tables::gate, false),
        t("taint", taint, false),
    ]
}

/// The Naive cluster and the other label-blind policies of `policies()`.
const LABEL_BLIND: [&str; 5] = ["naive", "late_scrub", "shadow", "gate", "no_spec"];

fn corpus(tasks: usize) -> Frontier {
    generate(&Spec {
        tasks,
        seeds: vec![1, 2],
        kind: Kind::PairedReplay,
    })
}

fn options(rates: &[f64], seed: u64) -> EvalOptions {
    EvalOptions {
        resamples: 300,
        observers: vec![Observer::Provider],
        channel_ablation: false,
        noise_rates: rates.to_vec(),
        noise_seed: seed,
        ..EvalOptions::default()
    }
}

#[test]
fn noise_at_rate_zero_is_no_noise() {
    let frontier = corpus(20);
    for (name, table) in policies() {
        let c = Contract::new(name.clone(), table).unwrap();
        for mode in [ReplayMode::Speculative, ReplayMode::CommittedOnly] {
            let clean =
                replay_traces(&c, &frontier, &ReplayOptions { mode, noise: None }, false).unwrap();
            let zero = replay_traces(
                &c,
                &frontier,
                &ReplayOptions {
                    mode,
                    noise: Some(LabelNoise { rate: 0.0, seed: 3 }),
                },
                false,
            )
            .unwrap();
            let mut eligible = 0;
            for (a, mut b) in clean.into_iter().zip(zero) {
                assert_eq!(a.noise, NoiseStats::default());
                assert_eq!(b.noise.flipped, 0, "{name}");
                eligible += b.noise.eligible;
                b.noise = NoiseStats::default();
                assert_eq!(a, b, "{name} {mode:?}: task {}", a.task);
            }
            assert!(eligible > 0, "{name}: the hook saw the labels");
        }
    }
    let r = evaluate(policies(), &frontier, &options(&[0.0], 1)).unwrap();
    let n = r.noise.unwrap();
    assert_eq!(n.rows.len(), 6);
    for row in &n.rows {
        for x in &row.recovery {
            assert_eq!(
                (x.vs_clean.higher, x.vs_clean.lower),
                (0, 0),
                "{} {:?}",
                row.policy,
                x.adversary
            );
            assert_eq!(
                Some(&x.recovery),
                n.clean(&row.policy, x.adversary).map(|c| &c.recovery)
            );
        }
    }
}

#[test]
fn noise_flips_the_expected_share_of_labels() {
    let frontier = generate(&Spec {
        tasks: 150,
        seeds: vec![1, 2, 3],
        kind: Kind::PairedReplay,
    });
    let c = Contract::new(
        "naive",
        stpc_tests::policy_tables::table("naive", stpc_tests::policy_tables::naive, 0.7, false),
    )
    .unwrap();
    for rate in [0.05, 0.1, 0.2] {
        let mut total = NoiseStats::default();
        for seed in 1..=4 {
            let tr = replay_traces(
                &c,
                &frontier,
                &ReplayOptions {
                    mode: ReplayMode::Speculative,
                    noise: Some(LabelNoise { rate, seed }),
                },
                false,
            )
            .unwrap();
            total = total + tr.iter().map(|t| t.noise).sum();
        }
        // Binomial: at n ≈ 2,000 the standard deviation is under 0.01.
        assert!(total.eligible > 1500, "{total:?}");
        assert!(
            (total.share() - rate).abs() < 0.03,
            "rate {rate}: {total:?} share {}",
            total.share()
        );
    }
    let all = replay_traces(
        &c,
        &frontier,
        &ReplayOptions {
            mode: ReplayMode::Speculative,
            noise: Some(LabelNoise { rate: 1.0, seed: 1 }),
        },
        false,
    )
    .unwrap();
    let s: NoiseStats = all.iter().map(|t| t.noise).sum();
    assert_eq!(s.flipped, s.eligible, "rate 1 flips every eligible label");
}

#[test]
fn noise_leaves_the_naive_cluster_and_raises_a_label_dependent_policy() {
    let frontier = corpus(60);
    let rates = [0.05, 0.1, 0.2];
    let r = evaluate(policies(), &frontier, &options(&rates, 1)).unwrap();
    let n = r.noise.as_ref().unwrap();
    assert_eq!(
        (n.rates.as_slice(), n.observer, n.rows.len()),
        (&rates[..], Observer::Provider, 3 * 6)
    );
    for rate in rates {
        // Every policy sees the same issued labels.
        let stats: Vec<NoiseStats> = n
            .rows
            .iter()
            .filter(|x| x.rate == rate && x.policy != "no_spec")
            .map(|x| x.labels)
            .collect();
        assert!(stats.windows(2).all(|w| w[0] == w[1]), "{stats:?}");
        for a in Adversary::ALL {
            let naive = n.recovery(rate, "naive", a).unwrap().recovery.mean;
            // Label-blind policies do not move: the Naive cluster's recovery
            // does not increase.
            for p in LABEL_BLIND {
                let x = n.recovery(rate, p, a).unwrap();
                assert_eq!(
                    (x.vs_clean.higher, x.vs_clean.lower),
                    (0, 0),
                    "{p} {a:?} at {rate}"
                );
                assert!(x.recovery.mean <= n.clean(p, a).unwrap().recovery.mean);
            }
            // Taint leaks more under noise, never more than noisy Naive.
            let t = n.recovery(rate, "taint", a).unwrap();
            assert!(t.vs_clean.lower == 0, "{a:?} at {rate}: {:?}", t.vs_clean);
            assert!(t.recovery.mean <= naive + 1e-12, "{a:?} at {rate}");
        }
    }
    // The flips are nested across rates, so a monotone contract dispatches
    // at least as much at every higher rate, and leaks more at 20 %.
    let calls: Vec<f64> = rates
        .iter()
        .map(|x| n.row(*x, "taint").unwrap().calls_per_task)
        .collect();
    let flipped: Vec<usize> = rates
        .iter()
        .map(|x| n.row(*x, "taint").unwrap().labels.flipped)
        .collect();
    assert!(
        calls.windows(2).all(|w| w[0] <= w[1]) && flipped.windows(2).all(|w| w[0] < w[1]),
        "{calls:?} {flipped:?}"
    );
    assert!(
        calls[0] > r.policy("taint").unwrap().calls_per_task,
        "{calls:?}"
    );
    let kw = n.recovery(0.2, "taint", Adversary::Keyword).unwrap();
    assert!(
        kw.vs_clean.delta.mean > 0.0 && kw.vs_clean.higher > 0,
        "{kw:?}"
    );

    let md = render::eval_markdown(&r);
    assert!(
        md.contains("## Label noise (provider view; Table 10)"),
        "{md}"
    );
    assert!(md.contains("| policy | adversary | clean | 5 % | 10 % | 20 % | Δ vs clean | Δ vs noisy naive | sign p |"), "{md}");
    assert!(
        md.contains("| taint | keyword |") && md.contains("| 20 % | "),
        "{md}"
    );
    assert!(
        md.contains(
            "stays below noisy `naive` at every rate and for every adversary: `shadow`, `gate`"
        ),
        "{md}"
    );
    let json = render::json(&r).unwrap();
    let back: stpc_eval::EvalReport = serde_json::from_str(&json).unwrap();
    assert_eq!(back.noise, r.noise);
}

#[test]
fn the_same_seed_gives_the_same_report() {
    let frontier = corpus(20);
    let a = evaluate(policies(), &frontier, &options(&[0.2], 5)).unwrap();
    assert_eq!(
        evaluate(policies(), &frontier, &options(&[0.2], 5)).unwrap(),
        a
    );
    let b = evaluate(policies(), &frontier, &options(&[0.2], 6)).unwrap();
    let flips =
        |r: &stpc_eval::EvalReport| r.noise.as_ref().unwrap().row(0.2, "taint").unwrap().labels;
    assert_eq!(flips(&a).eligible, flips(&b).eligible);
    assert_ne!(a.noise, b.noise, "another seed draws other noise");
    // Without rates there is no sweep.
    assert!(evaluate(policies(), &frontier, &options(&[], 5))
        .unwrap()
        .noise
        .is_none());
}

fn cand(id: &str, q: &str, branch: &str, conf: f64, t: u64) -> Candidate {
    Candidate {
        id: id.into(),
        tool: "web_search".into(),
        destination: "api.brave.com".into(),
        args: json!({ "q": q }),
        mode: "speculative".into(),
        branch: branch.into(),
        confidence: Some(conf),
        t_ms: Some(t),
    }
}

#[test]
fn noise_applies_when_a_deferred_event_is_promoted() {
    // e1 and e3 are deferred at issue (low confidence) and re-decided as
    // committed on promotion, where taint blocks their intent-revealing
    // query, unless the noise downgraded it.
    let task = Task {
        task: "lease".into(),
        label: Some("legal".into()),
        group: None,
        candidates: vec![
            cand(
                "e1",
                "tenant rights lease termination penalty",
                "answer",
                0.3,
                100,
            ),
            cand("e2", "available apartments near me", "move", 0.4, 150),
            cand("e3", "weather tomorrow", "answer", 0.2, 200),
            cand(
                "e4",
                "lease termination letter template",
                "answer",
                0.1,
                250,
            ),
        ],
        committed: Commit {
            branches: vec!["answer".into()],
            candidates: vec![],
        },
        commit_t_ms: Some(400),
    };
    let c = Contract::new(
        "gate_taint",
        stpc_tests::policy_tables::table("gate_taint", gate_taint, 0.7, false),
    )
    .unwrap();
    let run = |rate: f64| {
        replay_task(
            &c,
            &task,
            &ReplayOptions {
                mode: ReplayMode::Speculative,
                noise: Some(LabelNoise { rate, seed: 1 }),
            },
        )
        .unwrap()
    };
    let clean = run(0.0);
    let dispatch = |t: &stpc_eval::TaskTrace| {
        t.events
            .iter()
            .map(|e| (e.promoted_decision, e.dispatch))
            .collect::<Vec<_>>()
    };
    let promoted = |rw| Dispatch::DeferredThenPromoted { rewritten: rw };
    assert_eq!(
        dispatch(&clean),
        [
            (Some(Act::Block), Dispatch::Blocked),
            (None, Dispatch::Withheld),
            (Some(Act::Allow), promoted(false)),
            (Some(Act::Block), Dispatch::Blocked)
        ]
    );
    let all = run(1.0);
    assert_eq!(
        dispatch(&all),
        [
            (Some(Act::Allow), promoted(false)),
            (None, Dispatch::Withheld),
            (Some(Act::Allow), promoted(false)),
            (Some(Act::Allow), promoted(false))
        ]
    );
    assert_eq!(
        all.noise,
        NoiseStats {
            eligible: 3,
            flipped: 3
        },
        "e1, e2 and e4 at issue (e3 is public)"
    );
    // C sees the same noise: the committed plan is dispatched in full.
    assert_eq!(all.committed.sent.len(), 3);
    assert_eq!(clean.committed.sent.len(), 1);
    // A bad rate is refused.
    let bad = replay_task(
        &c,
        &task,
        &ReplayOptions {
            mode: ReplayMode::Speculative,
            noise: Some(LabelNoise {
                rate: -0.1,
                seed: 1,
            }),
        },
    );
    assert_eq!(
        bad.unwrap_err(),
        ReplayError::NoiseRate {
            rate: "-0.1".into()
        }
    );
}

#[test]
fn noise_attributes_a_rewrite_kept_for_a_reissue_when_its_branch_is_promoted() {
    // std's Rewrite rewrites a sensitive speculative query (`ghost_scrub`)
    // and keeps the original to decide again, as committed, when its branch
    // is promoted (`on promote reissue`): under label noise that second
    // decision must be attributed to its candidate too.
    let table = stpc_tests::lowering::compile_file(
        "stdlib-contracts/policies/rewrite.stpc",
        &stpc_compiler::CompileOptions::default(),
    )
    .table()
    .clone();
    let c = Contract::new("rewrite", table).unwrap();
    let task = Task {
        task: "clinic".into(),
        label: Some("health".into()),
        group: None,
        candidates: vec![
            cand(
                "e1",
                "oncology clinic chemotherapy side effects",
                "answer",
                0.9,
                100,
            ),
            cand("e2", "weather tomorrow", "other", 0.4, 150),
        ],
        committed: Commit {
            branches: vec!["answer".into()],
            candidates: vec![],
        },
        commit_t_ms: Some(400),
    };
    let run = |noise| {
        replay_task(
            &c,
            &task,
            &ReplayOptions {
                mode: ReplayMode::Speculative,
                noise,
            },
        )
        .unwrap()
    };
    let clean = run(None);
    assert_eq!(
        clean.events[0].decision,
        Act::Rewrite,
        "{:?}",
        clean.events[0]
    );
    assert!(
        clean.events[0].promoted_decision.is_some(),
        "the rewritten ghost is decided again on promotion: {:?}",
        clean.events[0]
    );
    // No label flipped: the replay is the clean one, promotion included.
    let quiet = run(Some(LabelNoise { rate: 0.0, seed: 1 }));
    assert_eq!(quiet.events, clean.events);
    // Every label flipped: both decisions of e1 read the downgraded labels.
    let all = run(Some(LabelNoise { rate: 1.0, seed: 1 }));
    assert_eq!(all.events[0].decision, Act::Allow, "{:?}", all.events[0]);
    assert!(all.noise.flipped >= 1, "{:?}", all.noise);
}
