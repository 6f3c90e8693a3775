//! The evaluation's figures as SVG: the paper's Figure 2 (paired deltas
//! against the baseline) and the evaluation figure (absolute recovery per
//! policy and adversary, and the privacy/utility plane). Written by hand:
//! a few dozen elements each, and no plotting crate renders to plain SVG
//! without a font stack.

use std::fmt::Write as _;

use crate::adversary::Adversary;
use crate::evaluate::EvalReport;
use crate::stats::Estimate;
use crate::trace::Observer;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const COLORS: [&str; 3] = ["#1b9e77", "#d95f02", "#7570b3"];

/// The adversaries a report has rows for at `observer`, in order.
fn adversaries(r: &EvalReport, observer: Observer) -> Vec<Adversary> {
    let mut v: Vec<Adversary> = r
        .recovery
        .iter()
        .filter(|x| x.observer == observer)
        .map(|x| x.adversary)
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The colour of the `i`-th adversary.
fn color(i: usize) -> &'static str {
    COLORS.get(i % COLORS.len()).copied().unwrap_or("black")
}

/// The opening of a figure: the `<svg>` element, a white background and the
/// centred title.
fn open(s: &mut String, width: f64, height: f64, title: &str) {
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="20" text-anchor="middle" font-size="14">{title}</text>"#,
        width / 2.0
    );
}

/// One coloured marker and name per adversary, from `x` every `step`, at `y`.
fn legend(s: &mut String, advs: &[Adversary], x: f64, step: f64, y: f64) {
    for (ai, a) in advs.iter().enumerate() {
        let lx = x + ai as f64 * step;
        let _ = writeln!(
            s,
            r#"<circle cx="{lx}" cy="{y}" r="4" fill="{}"/><text x="{}" y="{}">{}</text>"#,
            color(ai),
            lx + 8.0,
            y + 4.0,
            a.as_str()
        );
    }
}

/// Figure 2: paired recovery deltas against the baseline for one observer.
#[must_use]
pub fn figure2_svg(r: &EvalReport, observer: Observer) -> String {
    let advs = adversaries(r, observer);
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
    open(
        &mut s,
        width,
        height,
        &format!(
            "Recovery Δ vs {} ({} view), 95 % bootstrap CI",
            esc(&r.baseline),
            observer.as_str()
        ),
    );
    legend(&mut s, &advs, left, 140.0, 40.0);
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
        let c = color(*ai);
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
    let advs = adversaries(r, observer);
    let row_h = 26.0;
    let (a_left, a_width, top) = (150.0, 300.0, 80.0);
    let rows_h = row_h * points.len().max(1) as f64;
    let (b_left, b_width, b_height) = (a_left + a_width + 90.0, 300.0, rows_h.max(240.0));
    let width = b_left + b_width + 30.0;
    let height = top + rows_h.max(b_height) + 60.0;
    let mut s = String::new();
    open(
        &mut s,
        width,
        height,
        &format!(
            "What the {} learns: topic recovery per policy ({} tasks), 95 % bootstrap CI",
            observer.as_str(),
            r.labeled_tasks
        ),
    );
    legend(&mut s, &advs, a_left, 110.0, 42.0);
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
            let c = color(ai);
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
