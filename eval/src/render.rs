//! Renderers: JSON (serde), Markdown tables, and the paper's Figure 2 as a
//! hand-written SVG (per policy, recovery delta against the baseline with
//! 95 % bootstrap whiskers, one marker per adversary). A plotting crate
//! would pull in fonts and rasterizers for a dozen lines and circles.

use std::fmt::Write as _;

use crate::adversary::Adversary;
use crate::evaluate::{EvalReport, NoiseSweep};
use crate::report::ReplayReport;
use crate::stats::Estimate;
use crate::trace::Observer;

/// Pretty JSON of any report.
///
/// # Errors
///
/// Serialization failed (a non-finite number).
pub fn json<T: serde::Serialize>(report: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(report)
}

fn ci(e: &Estimate) -> String {
    format!("{:.3} [{:.3}, {:.3}]", e.mean, e.lo, e.hi)
}

fn signed_ci(e: &Estimate) -> String {
    format!("{:+.3} [{:+.3}, {:+.3}]", e.mean, e.lo, e.hi)
}

fn p(p: f64) -> String {
    if p < 0.0001 {
        "<0.0001".to_owned()
    } else {
        format!("{p:.4}")
    }
}

/// Markdown for one replay.
#[must_use]
pub fn replay_markdown(r: &ReplayReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "## Replay: `{}` (contract `{}`)\n", r.policy, r.contract);
    let _ = writeln!(s, "| tasks | candidates | speculative | calls/task | committed calls/task | ghost calls | ghost-call rate | abandoned rate |");
    let _ = writeln!(s, "|---:|---:|---:|---:|---:|---:|---:|---:|");
    let _ = writeln!(
        s,
        "| {} | {} | {} | {:.2} | {:.2} | {} | {:.3} | {:.3} |\n",
        r.tasks,
        r.candidates,
        r.speculative,
        r.calls_per_task,
        r.committed_calls_per_task,
        r.ghost_calls,
        r.ghost_call_rate,
        r.abandoned_rate
    );
    let dec: Vec<String> = r
        .decisions
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let _ = writeln!(s, "Decisions at issue: {}\n", dec.join(", "));
    let _ = writeln!(
        s,
        "| observer | O(S) | O(C) | Δ | Δ/task | tasks exposed | pre-commit | leaked labels |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---|");
    for o in &r.observers {
        let labels: Vec<String> = o
            .leaked_labels
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {:.2} | {:.3} | {} | {} |",
            o.observer.as_str(),
            o.issued,
            o.committed,
            o.delta,
            o.delta_per_task,
            o.tasks_exposed,
            o.precommit,
            labels.join(", ")
        );
    }
    s
}

/// Markdown for an evaluation.
#[must_use]
pub fn eval_markdown(r: &EvalReport) -> String {
    let mut s = String::new();
    overview_markdown(&mut s, r);
    policies_markdown(&mut s, r);
    tradeoff_markdown(&mut s, r);
    recovery_markdown(&mut s, r);
    gate_markdown(&mut s, r);
    if let Some(n) = &r.noise {
        noise_markdown(&mut s, r, n);
    }
    channels_markdown(&mut s, r);
    s
}

/// The title and the paragraph on the corpus and the statistics.
fn overview_markdown(s: &mut String, r: &EvalReport) {
    let f = &r.frontier;
    let _ = writeln!(s, "# Evaluation\n");
    let _ = writeln!(
        s,
        "{} tasks ({} labeled; labels: {}). Frontier: median {} candidates (range {}–{}), abandoned rate {:.3}, mean confidence {:.2}. Adversaries see {}; 95 % bootstrap intervals over {} resamples (seed {}); paired deltas against `{}` with a two-sided exact sign test.\n",
        r.tasks,
        r.labeled_tasks,
        r.labels.join(", "),
        f.median_candidates,
        f.min_candidates,
        f.max_candidates,
        f.abandoned_rate,
        f.mean_confidence,
        match r.view {
            crate::evaluate::View::Issued => "each observer's full record O_i(S)",
            crate::evaluate::View::Delta => "only the marginal exposure Δ_i",
        },
        r.resamples,
        r.seed,
        r.baseline
    );
}

/// Calls per task, ghost-call rate and marginal exposure per policy.
fn policies_markdown(s: &mut String, r: &EvalReport) {
    let _ = writeln!(s, "## Policies\n");
    let _ = writeln!(
        s,
        "| policy | calls/task | ghost-call rate | Δ provider/task | Δ runtime log/task |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|");
    for pr in &r.policies {
        let d = |o: Observer| {
            pr.observers
                .iter()
                .find(|x| x.observer == o)
                .map_or(0.0, |x| x.delta_per_task)
        };
        let _ = writeln!(
            s,
            "| {} | {:.2} | {:.3} | {:.2} | {:.2} |",
            pr.policy,
            pr.calls_per_task,
            pr.ghost_call_rate,
            d(Observer::Provider),
            d(Observer::RuntimeLog)
        );
    }
}

/// Privacy and utility side by side, with the Pareto front of the policies
/// (see `crate::utility`).
fn tradeoff_markdown(s: &mut String, r: &EvalReport) {
    let front = crate::utility::front_of(&r.policies);
    let revealing = r
        .policies
        .first()
        .and_then(|p| p.leakage)
        .map_or(0, |l| l.revealing);
    let _ = writeln!(s, "\n## Privacy and utility\n");
    let _ = writeln!(
        s,
        "Revealing ghosts: {revealing} abandoned speculative calls that `{}` sends with a field at or above `{}`; leakage is the share the provider still receives revealing. Utility is over the committed plan's calls: sent unchanged at issue, unchanged after waiting for their branch, altered (rewritten or answered by a substitute), withheld, blocked. ★: on the Pareto front (no policy has lower leakage and a higher unchanged share).\n",
        r.baseline,
        crate::utility::REVEALING
    );
    let _ = writeln!(
        s,
        "| policy | revealing-ghost leakage | committed calls | unchanged | late | altered | withheld | blocked | front |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|:-:|");
    for (i, p) in r.policies.iter().enumerate() {
        let u = &p.utility;
        let _ = writeln!(
            s,
            "| {} | {:.3} | {} | {:.3} | {} | {} | {} | {} | {} |",
            p.policy,
            p.leakage.map_or(0.0, |l| l.share()),
            u.committed,
            u.unchanged_share(),
            u.late,
            u.altered,
            u.withheld,
            u.blocked,
            if front.contains(&i) { "★" } else { "" }
        );
    }
}

/// Recovery per observer view, policy and adversary, against the baseline.
fn recovery_markdown(s: &mut String, r: &EvalReport) {
    let observers: Vec<Observer> = {
        let mut v: Vec<Observer> = r.recovery.iter().map(|x| x.observer).collect();
        v.dedup();
        v.sort();
        v.dedup();
        v
    };
    let advs: Vec<Adversary> = {
        let mut v: Vec<Adversary> = r.recovery.iter().map(|x| x.adversary).collect();
        v.sort();
        v.dedup();
        v
    };
    for o in observers {
        let _ = writeln!(s, "\n## Recovery from the {} view\n", o.as_str());
        let _ = writeln!(s, "| policy | adversary | recovery [95 % CI] | Δ vs {} [95 % CI] | higher / lower | sign p |", r.baseline);
        let _ = writeln!(s, "|---|---|---:|---:|---:|---:|");
        for pr in &r.policies {
            for a in &advs {
                let Some(row) = r.row(&pr.policy, o, *a) else {
                    continue;
                };
                let (d, hl, pv) = match &row.vs_baseline {
                    Some(x) => (
                        signed_ci(&x.delta),
                        format!("{} / {}", x.higher, x.lower),
                        p(x.p),
                    ),
                    None => ("(reference)".to_owned(), "–".to_owned(), "–".to_owned()),
                };
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} | {} |",
                    pr.policy,
                    a.as_str(),
                    ci(&row.recovery),
                    d,
                    hl,
                    pv
                );
            }
        }
    }
}

/// The Gate τ sweep, when there is one.
fn gate_markdown(s: &mut String, r: &EvalReport) {
    if !r.gate_sweep.is_empty() {
        let _ = writeln!(s, "\n## Gate τ sweep (provider)\n");
        let _ = writeln!(s, "| τ | calls/task | ghost-call rate | Δ/task | adversary | recovery [95 % CI] | Δ vs {} | sign p |", r.baseline);
        let _ = writeln!(s, "|---:|---:|---:|---:|---|---:|---:|---:|");
        for g in &r.gate_sweep {
            for row in &g.recovery {
                let (d, pv) = row
                    .vs_baseline
                    .as_ref()
                    .map_or(("–".to_owned(), "–".to_owned()), |x| {
                        (signed_ci(&x.delta), p(x.p))
                    });
                let _ = writeln!(
                    s,
                    "| {} | {:.2} | {:.3} | {:.2} | {} | {} | {} | {} |",
                    g.tau,
                    g.calls_per_task,
                    g.ghost_call_rate,
                    g.delta_per_task,
                    row.adversary.as_str(),
                    ci(&row.recovery),
                    d,
                    pv
                );
            }
        }
    }
}

/// The channel ablation, when there is one.
fn channels_markdown(s: &mut String, r: &EvalReport) {
    if !r.channels.is_empty() {
        let _ = writeln!(s, "\n## Channel ablation ({}, provider)\n", r.baseline);
        let _ = writeln!(s, "| channels | adversary | recovery [95 % CI] |");
        let _ = writeln!(s, "|---|---|---:|");
        for c in &r.channels {
            let _ = writeln!(
                s,
                "| {} | {} | {} |",
                c.channels,
                c.adversary.as_str(),
                ci(&c.recovery)
            );
        }
    }
}

/// A rate as a percentage: `0.05` is `5 %`.
fn pct(rate: f64) -> String {
    let t = format!("{:.2}", rate * 100.0);
    let t = t.trim_end_matches('0').trim_end_matches('.');
    format!("{t} %")
}

/// The label-noise sweep: the paper's Table 10.
fn noise_markdown(s: &mut String, r: &EvalReport, n: &NoiseSweep) {
    let base = r.baseline.as_str();
    let _ = writeln!(
        s,
        "\n## Label noise ({} view; Table 10)\n",
        n.observer.as_str()
    );
    let _ = writeln!(
        s,
        "False-negative label noise: before each decision the runtime's label hook downgrades every sensitive or intent-revealing argument field, and every sensitive destination, to `public` with probability p (noise seed {}). A candidate draws the same noise under every policy and wherever it is decided, and a label flipped at one rate is flipped at every higher one. Recovery [95 % CI]; the last columns pair each policy at {} noise with itself without noise and with `{base}` under the same noise.\n",
        n.seed,
        n.rates.last().map_or_else(String::new, |x| pct(*x)),
    );
    let _ = writeln!(
        s,
        "| rate | labels eligible at issue (`{base}`) | flipped | share |"
    );
    let _ = writeln!(s, "|---:|---:|---:|---:|");
    for rate in &n.rates {
        if let Some(row) = n.row(*rate, base) {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {:.3} |",
                pct(*rate),
                row.labels.eligible,
                row.labels.flipped,
                row.labels.share()
            );
        }
    }
    let rates: Vec<String> = n.rates.iter().map(|x| pct(*x)).collect();
    let last = n.rates.last().copied();
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "| policy | adversary | clean | {} | Δ vs clean | Δ vs noisy {base} | sign p |",
        rates.join(" | ")
    );
    let _ = writeln!(
        s,
        "|---|---|---:|{}---:|---:|---:|",
        "---:|".repeat(n.rates.len())
    );
    let mut advs: Vec<Adversary> = n.clean.iter().map(|x| x.adversary).collect();
    advs.sort();
    advs.dedup();
    for pr in &r.policies {
        for a in &advs {
            let Some(clean) = n.clean(&pr.policy, *a) else {
                continue;
            };
            let cells: Vec<String> = n
                .rates
                .iter()
                .map(|x| {
                    n.recovery(*x, &pr.policy, *a)
                        .map_or_else(|| "–".to_owned(), |y| ci(&y.recovery))
                })
                .collect();
            let top = last.and_then(|x| n.recovery(x, &pr.policy, *a));
            let vs_clean = top.map_or_else(|| "–".to_owned(), |y| signed_ci(&y.vs_clean.delta));
            let (vs_base, pv) = top.and_then(|y| y.vs_baseline.as_ref()).map_or_else(
                || ("(reference)".to_owned(), "–".to_owned()),
                |x| (signed_ci(&x.delta), p(x.p)),
            );
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} |",
                pr.policy,
                a.as_str(),
                ci(&clean.recovery),
                cells.join(" | "),
                vs_clean,
                vs_base,
                pv
            );
        }
    }
    // Which policies stay below the noisy baseline at every rate and adversary.
    let (mut below, mut not_below) = (Vec::new(), Vec::new());
    for pr in r.policies.iter().filter(|x| x.policy != base) {
        let mut any = false;
        let mut all = true;
        for rate in &n.rates {
            for a in &advs {
                if let (Some(x), Some(b)) = (
                    n.recovery(*rate, &pr.policy, *a),
                    n.recovery(*rate, base, *a),
                ) {
                    any = true;
                    all &= x.recovery.mean < b.recovery.mean;
                }
            }
        }
        if any {
            if all {
                below.push(format!("`{}`", pr.policy))
            } else {
                not_below.push(format!("`{}`", pr.policy))
            }
        }
    }
    let list = |v: &[String]| {
        if v.is_empty() {
            "none".to_owned()
        } else {
            v.join(", ")
        }
    };
    let _ = writeln!(
        s,
        "\nRecovery stays below noisy `{base}` at every rate and for every adversary: {}. Not at every rate and adversary: {}.",
        list(&below),
        list(&not_below)
    );
}

mod svg;
pub use svg::{figure2_svg, figure_points, figure_svg, FigurePoint};
