//! `evaluate` end to end on hand-built tables (no compiler): the ordering of
//! the endpoint policies, the Gate sweep, the channel ablation, renderers.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code"
)]

use stpc_eval::corpus::{generate, Kind, Spec};
use stpc_eval::replay::ReplayError;
use stpc_eval::{evaluate, render, Adversary, EvalError, EvalOptions, Observer};

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
    ]
}

fn options() -> EvalOptions {
    EvalOptions {
        resamples: 1000,
        observers: vec![Observer::Provider, Observer::RuntimeLog],
        gate_sweep: [0.3, 0.6, 0.9]
            .iter()
            .map(|t| {
                (
                    *t,
                    stpc_tests::policy_tables::table(
                        "gate",
                        stpc_tests::policy_tables::gate,
                        *t,
                        false,
                    ),
                )
            })
            .collect(),
        ..EvalOptions::default()
    }
}

#[test]
fn endpoints_and_gate_order_as_expected() {
    let frontier = generate(&Spec {
        tasks: 60,
        seeds: vec![1, 2],
        kind: Kind::PairedReplay,
    });
    let r = evaluate(policies(), &frontier, &options()).unwrap();
    assert_eq!(r.tasks, 120);
    assert_eq!(r.labels.len(), 6);
    let rec = |p: &str, o: Observer, a: Adversary| r.row(p, o, a).unwrap();
    for a in Adversary::ALL {
        let naive = rec("naive", Observer::Provider, a).recovery.mean;
        let no_spec = rec("no_spec", Observer::Provider, a);
        assert!(
            no_spec.recovery.mean < naive && no_spec.vs_baseline.unwrap().p < 0.001,
            "{a:?}"
        );
        // Late-Scrub leaves the provider's view alone and clears the log's.
        assert_eq!(
            rec("late_scrub", Observer::Provider, a)
                .vs_baseline
                .unwrap()
                .higher
                + rec("late_scrub", Observer::Provider, a)
                    .vs_baseline
                    .unwrap()
                    .lower,
            0
        );
        assert!(
            rec("late_scrub", Observer::RuntimeLog, a).recovery.mean
                < rec("naive", Observer::RuntimeLog, a).recovery.mean
        );
        // Shadow keeps every speculative call local: no better than No-Spec.
        assert!(
            rec("shadow", Observer::Provider, a).recovery.mean <= no_spec.recovery.mean + 0.02,
            "{a:?}"
        );
    }
    let naive = r.policy("naive").unwrap();
    assert!((naive.ghost_call_rate - naive.abandoned_rate).abs() < 1e-12);
    assert_eq!(r.policy("shadow").unwrap().ghost_calls, 0);
    let calls: Vec<f64> = r.gate_sweep.iter().map(|g| g.calls_per_task).collect();
    assert!(calls.windows(2).all(|w| w[1] < w[0]), "{calls:?}");
    let d: Vec<f64> = r.gate_sweep.iter().map(|g| g.delta_per_task).collect();
    assert!(d.windows(2).all(|w| w[1] <= w[0]), "{d:?}");
    assert_eq!(r.channels.len(), 12);
    let tool = r
        .channels
        .iter()
        .find(|c| c.channels == "tool" && c.adversary == Adversary::Keyword)
        .unwrap();
    let args = r
        .channels
        .iter()
        .find(|c| c.channels == "arguments" && c.adversary == Adversary::Keyword)
        .unwrap();
    assert!(tool.recovery.mean < args.recovery.mean);

    let md = render::eval_markdown(&r);
    assert!(
        md.contains("## Recovery from the provider view") && md.contains("| shadow | keyword |"),
        "{md}"
    );
    assert!(md.contains("## Gate τ sweep"));
    let svg = render::figure2_svg(&r, Observer::Provider);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(
        svg.matches("<circle").count(),
        3 + 4 * 3,
        "legend + one marker per policy and adversary"
    );
    // The evaluation figure: policies ordered by effect, the Pareto front of
    // the privacy/utility plane exactly the undominated policies.
    let points = render::figure_points(&r, Observer::Provider);
    assert_eq!(points.len(), 5, "every policy, the baseline included");
    assert!(
        points.windows(2).all(|w| w[0].leakage <= w[1].leakage),
        "{points:?}"
    );
    for p in &points {
        let dominated = points.iter().any(|q| {
            q.leakage <= p.leakage
                && q.utility >= p.utility
                && (q.leakage < p.leakage || q.utility > p.utility)
        });
        assert_eq!(p.pareto, !dominated, "{p:?}");
        let mean = Adversary::ALL
            .iter()
            .map(|a| rec(&p.policy, Observer::Provider, *a).recovery.mean)
            .sum::<f64>()
            / 3.0;
        assert!(
            (p.leakage - mean).abs() < 1e-12,
            "leakage is the mean over adversaries"
        );
        assert_eq!(
            p.utility,
            r.policy(&p.policy).unwrap().committed_calls_per_task
        );
    }
    assert!(points.iter().any(|p| p.pareto));
    let naive_leak = points.iter().find(|p| p.policy == "naive").unwrap();
    assert!(!naive_leak.pareto || points.iter().all(|p| p.leakage >= naive_leak.leakage));
    let fig = render::figure_svg(&r, Observer::Provider);
    assert!(fig.starts_with("<svg") && fig.trim_end().ends_with("</svg>"));
    assert!(fig.contains("naive (baseline)"));
    // Panel A lists the policies in the order of `points`.
    let at = |name: &str| {
        fig.find(&format!(">{name}<"))
            .or_else(|| fig.find(&format!(">{name} (baseline)<")))
            .unwrap()
    };
    assert!(points
        .windows(2)
        .all(|w| at(&w[0].policy) < at(&w[1].policy)));
    assert!(fig.contains("chance 1/6"));
    assert!(fig.contains("on the Pareto front"));
    let json = render::json(&r).unwrap();
    let back: stpc_eval::EvalReport = serde_json::from_str(&json).unwrap();
    assert_eq!(back.recovery.len(), r.recovery.len());
    // Deterministic.
    assert_eq!(evaluate(policies(), &frontier, &options()).unwrap(), r);
    // The corpus drawn a chunk at a time as the replays read it (what
    // `stpc eval --generate` does) gives the same report.
    let lazy = stpc_eval::Corpus::new(Spec {
        tasks: 60,
        seeds: vec![1, 2],
        kind: Kind::PairedReplay,
    });
    assert_eq!(evaluate(policies(), &lazy, &options()).unwrap(), r);
}

#[test]
fn replay_report_markdown_and_json() {
    let frontier = generate(&Spec {
        tasks: 12,
        seeds: vec![7],
        kind: Kind::StaticPlan,
    });
    let c = stpc_eval::Contract::new(
        "naive",
        stpc_tests::policy_tables::table("naive", stpc_tests::policy_tables::naive, 0.7, false),
    )
    .unwrap();
    let r = stpc_eval::replay(
        &c,
        &frontier,
        &stpc_eval::ReplayOptions::default(),
        true,
        false,
    )
    .unwrap();
    assert_eq!(r.per_task.len(), 12);
    assert_eq!(r.decisions.get("allow").copied().unwrap_or(0), r.candidates);
    let md = render::replay_markdown(&r);
    assert!(md.contains("| provider |"), "{md}");
    assert!(render::json(&r).unwrap().contains("\"ghost_call_rate\""));
}

#[test]
fn refused_inputs() {
    let frontier = generate(&Spec {
        tasks: 6,
        seeds: vec![1],
        kind: Kind::PairedReplay,
    });
    for (rates, err) in [
        (
            vec![1.5],
            EvalError::Replay(ReplayError::NoiseRate { rate: "1.5".into() }),
        ),
        (
            vec![f64::NAN],
            EvalError::Replay(ReplayError::NoiseRate { rate: "NaN".into() }),
        ),
        (
            vec![0.1, 0.2, 0.1],
            EvalError::DuplicateNoiseRate("0.1".into()),
        ),
    ] {
        let noise = EvalOptions {
            noise_rates: rates,
            ..EvalOptions::default()
        };
        assert_eq!(evaluate(policies(), &frontier, &noise).unwrap_err(), err);
    }
    let base = EvalOptions {
        baseline: "nope".into(),
        ..EvalOptions::default()
    };
    assert_eq!(
        evaluate(policies(), &frontier, &base).unwrap_err(),
        EvalError::NoBaseline("nope".into())
    );
    let mut dup = policies();
    dup.push(dup[0].clone());
    assert_eq!(
        evaluate(dup, &frontier, &EvalOptions::default()).unwrap_err(),
        EvalError::DuplicatePolicy("naive".into())
    );
}
