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

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const COLORS: [&str; 3] = ["#1b9e77", "#d95f02", "#7570b3"];

/// Figure 2: paired recovery deltas against the baseline for one observer.
#[must_use]
pub fn figure2_svg(r: &EvalReport, observer: Observer) -> String {
    let advs: Vec<Adversary> = {
        let mut v: Vec<Adversary> = r
            .recovery
            .iter()
            .filter(|x| x.observer == observer)
            .map(|x| x.adversary)
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let policies: Vec<&str> = r
        .policies
        .iter()
        .map(|p| p.policy.as_str())
        .filter(|p| *p != r.baseline)
        .collect();
    let rows: Vec<(usize, usize, Estimate)> = policies
        .iter()
        .enumerate()
        .flat_map(|(pi, pol)| {
            advs.iter().enumerate().filter_map(move |(ai, a)| {
                r.row(pol, observer, *a)
                    .and_then(|x| x.vs_baseline.map(|v| (pi, ai, v.delta)))
            })
        })
        .collect();
    let extent = rows
        .iter()
        .map(|(_, _, e)| e.lo.abs().max(e.hi.abs()))
        .fold(0.1f64, f64::max);
    let m = (extent * 10.0).ceil() / 10.0;
    let (left, right, top, row_h) = (150.0, 30.0, 70.0, 30.0);
    let width = 720.0;
    let plot_w = width - left - right;
    let height = top + row_h * policies.len() as f64 + 50.0;
    let x = |v: f64| left + (v + m) / (2.0 * m) * plot_w;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="20" text-anchor="middle" font-size="14">Recovery Δ vs {} ({} view), 95 % bootstrap CI</text>"#,
        width / 2.0,
        esc(&r.baseline),
        observer.as_str()
    );
    for (ai, a) in advs.iter().enumerate() {
        let lx = left + ai as f64 * 140.0;
        let c = COLORS.get(ai % COLORS.len()).copied().unwrap_or("black");
        let _ = writeln!(
            s,
            r#"<circle cx="{lx}" cy="40" r="4" fill="{c}"/><text x="{}" y="44">{}</text>"#,
            lx + 8.0,
            a.as_str()
        );
    }
    let bottom = top + row_h * policies.len() as f64;
    let _ = writeln!(
        s,
        r##"<line x1="{0}" y1="{1}" x2="{0}" y2="{bottom}" stroke="#888" stroke-dasharray="4 3"/>"##,
        x(0.0),
        top - 10.0
    );
    let _ = writeln!(
        s,
        r##"<line x1="{left}" y1="{bottom}" x2="{}" y2="{bottom}" stroke="#000"/>"##,
        left + plot_w
    );
    let steps = (m / 0.1).round() as i64;
    let stride = if steps > 5 { 2 } else { 1 };
    for k in (-steps..=steps).step_by(stride) {
        let v = k as f64 * 0.1;
        let _ = writeln!(
            s,
            r##"<line x1="{0}" y1="{bottom}" x2="{0}" y2="{1}" stroke="#000"/><text x="{0}" y="{2}" text-anchor="middle">{v:+.1}</text>"##,
            x(v),
            bottom + 4.0,
            bottom + 18.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">recovery − {} recovery</text>"#,
        left + plot_w / 2.0,
        bottom + 38.0,
        esc(&r.baseline)
    );
    for (pi, pol) in policies.iter().enumerate() {
        let y = top + row_h * pi as f64 + row_h / 2.0;
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            left - 10.0,
            y + 4.0,
            esc(pol)
        );
    }
    let n = advs.len().max(1) as f64;
    for (pi, ai, e) in &rows {
        let c = COLORS.get(ai % COLORS.len()).copied().unwrap_or("black");
        let y = top + row_h * *pi as f64 + row_h / 2.0 + (*ai as f64 - (n - 1.0) / 2.0) * 7.0;
        let _ = writeln!(
            s,
            r#"<line x1="{0:.1}" y1="{y:.1}" x2="{1:.1}" y2="{y:.1}" stroke="{c}"/><line x1="{0:.1}" y1="{2:.1}" x2="{0:.1}" y2="{3:.1}" stroke="{c}"/><line x1="{1:.1}" y1="{2:.1}" x2="{1:.1}" y2="{3:.1}" stroke="{c}"/><circle cx="{4:.1}" cy="{y:.1}" r="3.5" fill="{c}"/>"#,
            x(e.lo),
            x(e.hi),
            y - 3.0,
            y + 3.0,
            x(e.mean)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// One policy's place in the evaluation figure.
#[derive(Clone, Debug, PartialEq)]
pub struct FigurePoint {
    /// The policy.
    pub policy: String,
    /// Its mean recovery over the adversaries (the leakage).
    pub leakage: f64,
    /// External dispatches per task in the committed trace (the utility).
    pub utility: f64,
    /// External dispatches per task in the issued trace.
    pub calls: f64,
    /// Whether no other policy leaks no more with no less utility (and is
    /// strictly better on one).
    pub pareto: bool,
}

/// The policies of a report for one observer, ordered by effect: least
/// leakage first (ties by more utility, then name), with the Pareto front
/// of the privacy/utility plane marked.
#[must_use]
pub fn figure_points(r: &EvalReport, observer: Observer) -> Vec<FigurePoint> {
    let mut points: Vec<FigurePoint> = r
        .policies
        .iter()
        .filter_map(|p| {
            let rows: Vec<f64> = r
                .recovery
                .iter()
                .filter(|x| x.policy == p.policy && x.observer == observer)
                .map(|x| x.recovery.mean)
                .collect();
            (!rows.is_empty()).then(|| FigurePoint {
                policy: p.policy.clone(),
                leakage: rows.iter().sum::<f64>() / rows.len() as f64,
                utility: p.committed_calls_per_task,
                calls: p.calls_per_task,
                pareto: false,
            })
        })
        .collect();
    let snapshot = points.clone();
    for p in &mut points {
        p.pareto = !snapshot.iter().any(|q| {
            q.leakage <= p.leakage
                && q.utility >= p.utility
                && (q.leakage < p.leakage || q.utility > p.utility)
        });
    }
    points.sort_by(|a, b| {
        a.leakage
            .total_cmp(&b.leakage)
            .then(b.utility.total_cmp(&a.utility))
            .then(a.policy.cmp(&b.policy))
    });
    points
}

/// The evaluation figure for one observer, two panels:
///
/// - **A, absolute recovery**: one row per policy, ordered by effect (least
///   leakage first, the baseline marked), one marker per adversary at the
///   share of tasks whose topic it recovers, with the 95 % bootstrap
///   interval as whiskers and the chance rate (one label in `k`) dashed;
/// - **B, privacy against utility**: each policy at its committed external
///   dispatches per task (what the committed plan still gets done) and its
///   mean recovery; the Pareto front (no policy leaks less without doing
///   less) is joined and filled, dominated policies are hollow.
///
/// The paired deltas against the baseline are [`figure2_svg`].
#[must_use]
pub fn figure_svg(r: &EvalReport, observer: Observer) -> String {
    let points = figure_points(r, observer);
    let advs: Vec<Adversary> = {
        let mut v: Vec<Adversary> = r
            .recovery
            .iter()
            .filter(|x| x.observer == observer)
            .map(|x| x.adversary)
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let row_h = 26.0;
    let (a_left, a_width, top) = (150.0, 300.0, 80.0);
    let rows_h = row_h * points.len().max(1) as f64;
    let (b_left, b_width, b_height) = (a_left + a_width + 90.0, 300.0, rows_h.max(240.0));
    let width = b_left + b_width + 30.0;
    let height = top + rows_h.max(b_height) + 60.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="20" text-anchor="middle" font-size="14">What the {} learns: topic recovery per policy ({} tasks), 95 % bootstrap CI</text>"#,
        width / 2.0,
        observer.as_str(),
        r.labeled_tasks
    );
    for (ai, a) in advs.iter().enumerate() {
        let lx = a_left + ai as f64 * 110.0;
        let c = COLORS.get(ai % COLORS.len()).copied().unwrap_or("black");
        let _ = writeln!(
            s,
            r#"<circle cx="{lx}" cy="42" r="4" fill="{c}"/><text x="{}" y="46">{}</text>"#,
            lx + 8.0,
            a.as_str()
        );
    }
    // Panel A.
    let ax = |v: f64| a_left + v.clamp(0.0, 1.0) * a_width;
    let a_bottom = top + rows_h;
    let _ = writeln!(
        s,
        r#"<text x="{a_left}" y="{}" font-weight="bold">A  recovery (lower is better), least leakage first</text>"#,
        top - 14.0
    );
    let _ = writeln!(
        s,
        r##"<line x1="{a_left}" y1="{a_bottom}" x2="{}" y2="{a_bottom}" stroke="#000"/>"##,
        a_left + a_width
    );
    for k in 0..=4 {
        let v = f64::from(k) * 0.25;
        let _ = writeln!(
            s,
            r##"<line x1="{0}" y1="{a_bottom}" x2="{0}" y2="{1}" stroke="#000"/><line x1="{0}" y1="{top}" x2="{0}" y2="{a_bottom}" stroke="#eee"/><text x="{0}" y="{2}" text-anchor="middle">{v:.2}</text>"##,
            ax(v),
            a_bottom + 4.0,
            a_bottom + 18.0
        );
    }
    if !r.labels.is_empty() {
        let chance = 1.0 / r.labels.len() as f64;
        let _ = writeln!(
            s,
            r##"<line x1="{0:.1}" y1="{top}" x2="{0:.1}" y2="{a_bottom}" stroke="#888" stroke-dasharray="4 3"/><text x="{0:.1}" y="{1}" text-anchor="middle" fill="#555">chance 1/{2}</text>"##,
            ax(chance),
            top - 2.0,
            r.labels.len()
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">share of tasks whose topic the adversary recovers</text>"#,
        a_left + a_width / 2.0,
        a_bottom + 38.0
    );
    let n = advs.len().max(1) as f64;
    for (pi, p) in points.iter().enumerate() {
        let y = top + row_h * pi as f64 + row_h / 2.0;
        let name = if p.policy == r.baseline {
            format!("{} (baseline)", p.policy)
        } else {
            p.policy.clone()
        };
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            a_left - 10.0,
            y + 4.0,
            esc(&name)
        );
        for (ai, a) in advs.iter().enumerate() {
            let Some(e) = r.row(&p.policy, observer, *a).map(|x| x.recovery) else {
                continue;
            };
            let c = COLORS.get(ai % COLORS.len()).copied().unwrap_or("black");
            let yy = y + (ai as f64 - (n - 1.0) / 2.0) * 6.0;
            let _ = writeln!(
                s,
                r#"<g><title>{}, {}: {:.3} [{:.3}, {:.3}]</title><line x1="{:.1}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="{c}"/><circle cx="{:.1}" cy="{yy:.1}" r="3.5" fill="{c}"/></g>"#,
                esc(&p.policy),
                a.as_str(),
                e.mean,
                e.lo,
                e.hi,
                ax(e.lo),
                ax(e.hi),
                ax(e.mean)
            );
        }
    }
    // Panel B.
    let max_u = points
        .iter()
        .map(|p| p.utility)
        .fold(0.0f64, f64::max)
        .max(0.1);
    let (u_top, u_step) = nice_axis(max_u * 1.1);
    let max_l = points
        .iter()
        .map(|p| p.leakage)
        .fold(0.0f64, f64::max)
        .max(0.05);
    let (l_top, l_step) = nice_axis(max_l.min(1.0));
    let b_bottom = top + b_height;
    let bx = |u: f64| b_left + (u / u_top) * b_width;
    let by = |l: f64| b_bottom - (l / l_top) * b_height;
    let _ = writeln!(
        s,
        r#"<text x="{b_left}" y="{}" font-weight="bold">B  privacy against utility; Pareto front joined</text>"#,
        top - 14.0
    );
    let _ = writeln!(
        s,
        r##"<line x1="{b_left}" y1="{b_bottom}" x2="{}" y2="{b_bottom}" stroke="#000"/><line x1="{b_left}" y1="{top}" x2="{b_left}" y2="{b_bottom}" stroke="#000"/>"##,
        b_left + b_width
    );
    let ticks = |top: f64, step: f64| {
        let n = (top / step).round() as i64;
        (0..=n).map(move |k| k as f64 * step)
    };
    for u in ticks(u_top, u_step) {
        let _ = writeln!(
            s,
            r##"<line x1="{0:.1}" y1="{b_bottom}" x2="{0:.1}" y2="{1}" stroke="#000"/><text x="{0:.1}" y="{2}" text-anchor="middle">{u:.3$}</text>"##,
            bx(u),
            b_bottom + 4.0,
            b_bottom + 18.0,
            decimals(u_step)
        );
    }
    for l in ticks(l_top, l_step) {
        let _ = writeln!(
            s,
            r##"<line x1="{0}" y1="{1:.1}" x2="{b_left}" y2="{1:.1}" stroke="#000"/><line x1="{b_left}" y1="{1:.1}" x2="{3}" y2="{1:.1}" stroke="#eee"/><text x="{2}" y="{4:.1}" text-anchor="end">{l:.5$}</text>"##,
            b_left - 4.0,
            by(l),
            b_left - 7.0,
            b_left + b_width,
            by(l) + 4.0,
            decimals(l_step)
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">committed external dispatches per task (utility)</text>"#,
        b_left + b_width / 2.0,
        b_bottom + 38.0
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle" transform="rotate(-90 {} {})">mean recovery (leakage)</text>"#,
        b_left - 45.0,
        top + b_height / 2.0,
        b_left - 45.0,
        top + b_height / 2.0
    );
    let mut front: Vec<&FigurePoint> = points.iter().filter(|p| p.pareto).collect();
    front.sort_by(|a, b| a.utility.total_cmp(&b.utility));
    if front.len() > 1 {
        let path: Vec<String> = front
            .iter()
            .map(|p| format!("{:.1},{:.1}", bx(p.utility), by(p.leakage)))
            .collect();
        let _ = writeln!(
            s,
            r##"<polyline points="{}" fill="none" stroke="#1b9e77" stroke-width="1.5"/>"##,
            path.join(" ")
        );
    }
    // Policies at the same place share one marker and one label.
    let mut places: Vec<(f64, f64, bool, Vec<&FigurePoint>)> = Vec::new();
    for p in &points {
        match places
            .iter_mut()
            .find(|(u, l, _, _)| (u - p.utility).abs() < 1e-9 && (l - p.leakage).abs() < 0.005)
        {
            Some(place) => {
                place.2 |= p.pareto;
                place.3.push(p);
            }
            None => places.push((p.utility, p.leakage, p.pareto, vec![p])),
        }
    }
    for (utility, leakage, pareto, members) in &places {
        let names: Vec<&str> = members.iter().map(|p| p.policy.as_str()).collect();
        let (fill, stroke) = if *pareto {
            ("#1b9e77", "#1b9e77")
        } else {
            ("white", "#777")
        };
        let details: Vec<String> = members
            .iter()
            .map(|p| {
                format!(
                    "{}: leakage {:.3}, {:.2} committed and {:.2} issued dispatches per task{}",
                    p.policy,
                    p.leakage,
                    p.utility,
                    p.calls,
                    if p.pareto {
                        ", on the Pareto front"
                    } else {
                        ""
                    }
                )
            })
            .collect();
        // Labels of points in the right half go to their left, inside the plot.
        let (dx, anchor) = if bx(*utility) > b_left + b_width / 2.0 {
            (-6.0, "end")
        } else {
            (6.0, "start")
        };
        let _ = writeln!(
            s,
            r#"<g><title>{}</title><circle cx="{:.1}" cy="{:.1}" r="4" fill="{fill}" stroke="{stroke}"/><text x="{:.1}" y="{:.1}" font-size="11" text-anchor="{anchor}">{}</text></g>"#,
            esc(&details.join("; ")),
            bx(*utility),
            by(*leakage),
            bx(*utility) + dx,
            by(*leakage) - 5.0,
            esc(&names.join(", "))
        );
    }
    s.push_str("</svg>\n");
    s
}

/// An axis from 0 that ends on a round value at or above `max`, with 4 to
/// 8 steps of 1, 2, 2.5 or 5 times a power of ten.
fn nice_axis(max: f64) -> (f64, f64) {
    let max = if max.is_finite() && max > 0.0 {
        max
    } else {
        1.0
    };
    let raw = max / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| max / s <= 8.0)
        .unwrap_or(10.0 * magnitude);
    ((max / step).ceil() * step, step)
}

/// Decimal places that show every multiple of `step` exactly (at most 3).
fn decimals(step: f64) -> usize {
    (0..3)
        .find(|d| {
            let scaled = step * 10f64.powi(*d);
            (scaled - scaled.round()).abs() < 1e-9
        })
        .map_or(3, |d| d as usize)
}
