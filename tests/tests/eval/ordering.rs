//! The paper's policy ordering, reproduced end to end: the stdlib policies
//! compiled by `stpc_compiler::compile`, a generated 150-task corpus under
//! three seeds (450 paired trials), every adversary on the provider's view.
//!
//! Nothing here is tuned to the generator: the thresholds are the
//! acceptance criteria (significance at 0.05 and 0.001, Shadow within 0.02
//! of No-Spec) and the corpus and adversaries are the shipped ones.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code"
)]
use std::path::Path;

use stpc_compiler::{compile, CompileOptions, Diagnostics, SourceMap};
use stpc_eval::corpus::{generate, Kind, Spec};
use stpc_eval::{evaluate, Adversary, EvalOptions, Observer};
use stpc_runtime::Table;

fn policy(name: &str, params: Vec<(String, f64)>) -> Table {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../stdlib-contracts/policies")
        .join(format!("{name}.stpc"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut map = SourceMap::new();
    let id = map.add(path.to_string_lossy().into_owned(), text);
    let mut diagnostics = Diagnostics::new();
    let mut read = |p: &str| std::fs::read_to_string(p).ok();
    let table = compile(
        &mut map,
        &[id],
        &mut read,
        &CompileOptions {
            contract: None,
            params,
        },
        &mut diagnostics,
    );
    table.unwrap_or_else(|| {
        panic!(
            "`{name}` does not compile: {:?}",
            diagnostics
                .sorted()
                .iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
        )
    })
}

fn run(names: &[&str], gate: bool) -> stpc_eval::EvalReport {
    let policies: Vec<(String, Table)> = names
        .iter()
        .map(|n| ((*n).to_owned(), policy(n, Vec::new())))
        .collect();
    let taus = [0.3, 0.5, 0.7, 0.9];
    let gate_sweep = if gate {
        taus.iter()
            .map(|t| (*t, policy("gate", vec![("tau".to_owned(), *t)])))
            .collect()
    } else {
        Vec::new()
    };
    let frontier = generate(&Spec {
        tasks: 150,
        seeds: vec![1, 2, 3],
        kind: Kind::PairedReplay,
    });
    let opts = EvalOptions {
        observers: vec![Observer::Provider],
        add_no_spec: false,
        channel_ablation: false,
        gate_sweep,
        ..EvalOptions::default()
    };
    evaluate(policies, &frontier, &opts).unwrap()
}

/// Rewrite below Naive at p < 0.001 for every adversary (the acceptance
/// criterion). It holds because the std Rewrite contract replaces a
/// speculative call's forbidden fields with a fixed generic value: with
/// phrase-level paraphrase alone (its committed-mode rewrite), the words
/// left around each replaced phrase still named the topic and a naive-Bayes
/// adversary stayed within 0.01 of Naive (p 0.125).
#[test]
fn rewrite_is_below_naive() {
    let r = run(&["naive", "rewrite"], false);
    for a in Adversary::ALL {
        let x = r
            .row("rewrite", Observer::Provider, a)
            .unwrap()
            .vs_baseline
            .unwrap();
        assert!(
            x.delta.mean < 0.0 && x.p < 0.001,
            "{a:?}: rewrite {:+.3} (p {:.4})\n{}",
            x.delta.mean,
            x.p,
            stpc_eval::render::eval_markdown(&r)
        );
    }
}

#[test]
fn policies_order_as_in_the_paper() {
    let r = run(
        &[
            "naive",
            "no_spec",
            "late_scrub",
            "acl",
            "sia",
            "pre_scrub",
            "shadow",
        ],
        true,
    );
    let rec = |p: &str, a: Adversary| r.row(p, Observer::Provider, a).unwrap();
    let mut failures = Vec::new();
    for a in Adversary::ALL {
        let naive = rec("naive", a).recovery.mean;
        let no_spec = rec("no_spec", a);
        let ns = no_spec.vs_baseline.unwrap();
        if !(ns.delta.mean < 0.0 && ns.p < 0.05) {
            failures.push(format!(
                "{a:?}: naive {naive:.3} not significantly above no_spec {:.3} (p {:.4})",
                no_spec.recovery.mean, ns.p
            ));
        }
        for p in ["late_scrub", "acl", "sia", "pre_scrub"] {
            let x = rec(p, a).vs_baseline.unwrap();
            if x.delta.mean < 0.0 && x.p < 0.05 {
                failures.push(format!(
                    "{a:?}: {p} significantly below naive ({:+.3}, p {:.4})",
                    x.delta.mean, x.p
                ));
            }
        }
        let x = rec("shadow", a).vs_baseline.unwrap();
        if !(x.delta.mean < 0.0 && x.p < 0.001) {
            failures.push(format!(
                "{a:?}: shadow not below naive at p < 0.001 ({:+.3}, p {:.4})",
                x.delta.mean, x.p
            ));
        }
        let shadow = rec("shadow", a).recovery.mean;
        if shadow > no_spec.recovery.mean + 0.02 {
            failures.push(format!(
                "{a:?}: shadow {shadow:.3} above no_spec {:.3} + 0.02",
                no_spec.recovery.mean
            ));
        }
        let gate: Vec<f64> = r
            .gate_sweep
            .iter()
            .map(|g| {
                g.recovery
                    .iter()
                    .find(|x| x.adversary == a)
                    .unwrap()
                    .recovery
                    .mean
            })
            .collect();
        if gate.windows(2).any(|w| w[1] > w[0] + 1e-9) || gate.first() <= gate.last() {
            failures.push(format!(
                "{a:?}: gate leakage does not fall as tau rises: {gate:?}"
            ));
        }
    }
    let calls: Vec<f64> = r.gate_sweep.iter().map(|g| g.calls_per_task).collect();
    let delta: Vec<f64> = r.gate_sweep.iter().map(|g| g.delta_per_task).collect();
    if calls.windows(2).any(|w| w[1] >= w[0]) {
        failures.push(format!(
            "gate calls/task do not fall as tau rises: {calls:?}"
        ));
    }
    if delta.windows(2).any(|w| w[1] > w[0]) {
        failures.push(format!(
            "gate provider exposure does not fall as tau rises: {delta:?}"
        ));
    }
    assert!(
        failures.is_empty(),
        "{}\n\n{}",
        failures.join("\n"),
        stpc_eval::render::eval_markdown(&r)
    );
}

/// The recommended policy is on the Pareto front of the std policies for
/// revealing-ghost leakage and the committed plan's unchanged share: no std
/// policy leaks less *and* sends more of the plan unchanged. It also loses
/// no more of the plan than it must: every committed call it does not send
/// unchanged is a sensitive one, rewritten, deferred or (when the rewrite
/// cannot lower it) refused.
#[test]
fn the_recommended_policy_is_on_the_pareto_front_of_the_std_policies() {
    let names: Vec<String> = stpc_compiler::resolve::std_policies()
        .into_iter()
        .map(|(n, _, _)| n)
        .collect();
    assert!(names.iter().any(|n| n == "recommended"), "{names:?}");
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let r = run(&refs, false);
    assert!(
        r.policies.iter().all(|p| p.leakage.is_some()),
        "eval measures leakage"
    );
    let front = stpc_eval::utility::front_of(&r.policies);
    let at = r
        .policies
        .iter()
        .position(|p| p.policy == "recommended")
        .unwrap();
    let table = stpc_eval::render::eval_markdown(&r);
    assert!(front.contains(&at), "not on the front:\n{table}");
    let rec = &r.policies[at];
    let naive = r.policies.iter().find(|p| p.policy == "naive").unwrap();
    // Something is revealing, Naive leaks all of it, Recommended none.
    assert!(rec.leakage.unwrap().revealing > 0, "{table}");
    assert!(
        (naive.leakage.unwrap().share() - 1.0).abs() < 1e-9,
        "{table}"
    );
    assert_eq!(rec.leakage.unwrap().leaked, 0, "{table}");
    // And it serves the plan: more than 60 % unchanged at issue, and
    // fewer than one in twenty committed calls refused.
    assert!(rec.utility.unchanged_share() > 0.6, "{table}");
    assert!(rec.utility.blocked * 20 < rec.utility.committed, "{table}");
}
