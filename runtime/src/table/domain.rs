//! The layout of the abstract domain: the one definition of the fixed
//! dimension order, of confidence intervals and of budget states, shared by
//! the compiler (which lowers over the domain), every runtime reader, the
//! table tools and the tests.
//!
//! A table's dimensions are, in this order: `tool`, `destination`, `mode`,
//! `arg_label`, `dest_label`, `confidence` ([`FIXED`] of them), then one
//! `budget` dimension per budget in budget order, then one `field_label`
//! dimension per field the contract guards on.

use super::{Dimension, DimensionKind};

/// Index of the tool dimension.
pub const TOOL: usize = 0;
/// Index of the destination dimension.
pub const DESTINATION: usize = 1;
/// Index of the mode dimension.
pub const MODE: usize = 2;
/// Index of the joined argument-label dimension.
pub const ARG_LABEL: usize = 3;
/// Index of the destination-label dimension.
pub const DEST_LABEL: usize = 4;
/// Index of the confidence dimension.
pub const CONFIDENCE: usize = 5;
/// Number of dimensions every table has before its budgets.
pub const FIXED: usize = 6;

/// Value of a budget dimension while dispatches remain.
pub const BUDGET_AVAILABLE: u32 = 0;
/// Value of a budget dimension once the limit is reached.
pub const BUDGET_EXHAUSTED: u32 = 1;
/// Names of the two budget values, in value order.
pub const BUDGET_VALUES: [&str; 2] = ["available", "exhausted"];

/// Index of budget `i`'s dimension.
#[must_use]
pub const fn budget(i: usize) -> usize {
    FIXED + i
}

/// Index of field dimension `i` in a table with `budgets` budgets.
#[must_use]
pub const fn field(budgets: usize, i: usize) -> usize {
    FIXED + budgets + i
}

/// The kind every fixed dimension must have, by index; `None` past the
/// fixed ones.
#[must_use]
pub fn fixed_kind(i: usize) -> Option<&'static str> {
    [
        "tool",
        "destination",
        "mode",
        "arg_label",
        "dest_label",
        "confidence",
    ]
    .get(i)
    .copied()
}

/// The snake_case name of a dimension kind, as in the wire format's `dim`.
#[must_use]
pub fn kind_name(kind: &DimensionKind) -> &'static str {
    match kind {
        DimensionKind::Tool => "tool",
        DimensionKind::Destination => "destination",
        DimensionKind::Mode => "mode",
        DimensionKind::ArgLabel => "arg_label",
        DimensionKind::DestLabel => "dest_label",
        DimensionKind::Confidence { .. } => "confidence",
        DimensionKind::Budget { .. } => "budget",
        DimensionKind::FieldLabel { .. } => "field_label",
    }
}

/// The confidence interval of `c`: value `i` is `[cuts[i-1], cuts[i])`,
/// with `cuts[-1] = -inf` and `cuts[len] = +inf`. `None` for NaN or an
/// infinity.
#[inline]
#[must_use]
pub fn interval(cuts: &[f64], c: f64) -> Option<usize> {
    // For strictly increasing cuts (what `Table::from_json` accepts) the
    // interval is the number of cuts at or below `c`: counted without a
    // data-dependent branch, which a random stream of confidences would
    // mispredict half the time. Unsorted cuts (a table that skipped
    // validation) still give an interval in range.
    c.is_finite()
        .then(|| cuts.iter().map(|cut| usize::from(c >= *cut)).sum())
}

/// A readable confidence in `[0, 1]` inside interval `i` of `cuts`: the
/// midpoint of the interval clipped to `[0, 1]`, rounded to two decimals
/// when the rounded value stays inside, else the interval's lower end; `1.0`
/// for the top interval when nothing cuts it. `None` when the interval holds
/// no confidence in `[0, 1]` (below a cut at 0, above a cut past 1), so no
/// valid event reaches it.
#[must_use]
pub fn confidence_in(cuts: &[f64], i: usize) -> Option<f64> {
    if i > cuts.len() {
        return None;
    }
    let lo = i
        .checked_sub(1)
        .and_then(|j| cuts.get(j))
        .copied()
        .unwrap_or(0.0)
        .max(0.0);
    let hi = cuts.get(i).copied();
    let inside = |c: f64| c >= lo && c <= 1.0 && hi.is_none_or(|h| c < h);
    if !inside(lo) {
        return None;
    }
    let top = hi.unwrap_or(1.0).min(1.0);
    if hi.is_none() && lo == 0.0 {
        return Some(1.0);
    }
    let mid = ((lo + top) / 2.0 * 100.0).round() / 100.0;
    Some(if inside(mid) { mid } else { lo })
}

/// Interval names `[-inf, a)`, `[a, b)`, …, `[z, +inf)`, one per value of a
/// confidence dimension over `cuts`.
#[must_use]
pub fn interval_names(cuts: &[f64]) -> Vec<String> {
    let ends: Vec<String> = std::iter::once("-inf".to_owned())
        .chain(cuts.iter().map(|c| format!("{c}")))
        .chain(["+inf".to_owned()])
        .collect();
    ends.windows(2)
        .map(|w| match w {
            [a, b] => format!("[{a}, {b})"),
            _ => String::new(),
        })
        .collect()
}

/// The confidence cuts of a table's dimensions (empty when it has none).
#[must_use]
pub fn cuts(dimensions: &[Dimension]) -> &[f64] {
    match dimensions.get(CONFIDENCE).map(|d| &d.kind) {
        Some(DimensionKind::Confidence { cuts }) => cuts,
        _ => &[],
    }
}
