//! The finite abstract domain of a contract: which values each dimension of
//! the table ranges over.
//!
//! Dimensions come in the runtime's fixed order (see
//! `stpc_runtime::table::Dimension`): tool, destination, mode, arg_label,
//! dest_label, confidence, one budget dimension per budget, then one
//! field_label dimension per argument field a guard reads as `args.f`.
//!
//! - **tool**: the contract's allowed tools, the tools a guard names
//!   (`tool == t`) and the tools of substitutes a rule names, in declaration
//!   order, then `<unknown>`. Every tool a guard can distinguish has its own
//!   value, so `<unknown>` stands for tools no guard mentions.
//! - **destination**: the allowed destinations, every destination of the
//!   tools above and those a guard names, in declaration order, then
//!   `<unknown>`.
//! - **mode**: every value of `enum Mode`.
//! - **labels**: the lattice's labels, then `<missing>`.
//! - **confidence**: cut at every threshold and at every literal or parameter
//!   a guard compares with, so every comparison is constant on each interval
//!   `[cuts[i-1], cuts[i])`. `c <= v`, `c > v` and `c == v` need the cut just
//!   above `v` (the next float), which is added for them.

use std::collections::BTreeSet;

use crate::hir::{self, Bound, CmpOp, DestId, Guard, ToolId};
use stpc_runtime::table::{domain, Dimension, DimensionKind, MISSING, UNKNOWN};

// The fixed dimension order is the wire format's (`table::domain`).
pub(crate) use stpc_runtime::table::domain::{
    ARG_LABEL as ARG, CONFIDENCE as CONF, DESTINATION as DEST, DEST_LABEL as DLABEL,
    FIXED as BUDGETS, MODE, TOOL,
};

/// The values of every dimension, with their meaning in the program.
#[derive(Clone, Debug)]
pub(crate) struct Domain {
    /// Tool values (the last, `<unknown>`, is not listed).
    pub(crate) tools: Vec<ToolId>,
    /// Destination values (the last, `<unknown>`, is not listed).
    pub(crate) dests: Vec<DestId>,
    /// Number of modes.
    pub(crate) modes: usize,
    /// Labels of the argument lattice (without `<missing>`).
    pub(crate) arg_labels: usize,
    /// Labels of the destination lattice (without `<missing>`).
    pub(crate) dest_labels: usize,
    /// Confidence cuts, strictly increasing.
    pub(crate) cuts: Vec<f64>,
    /// Number of budgets.
    pub(crate) budgets: usize,
    /// Fields with their own label dimension, sorted by name.
    pub(crate) fields: Vec<String>,
}

impl Domain {
    /// Number of dimensions.
    pub(crate) fn len(&self) -> usize {
        BUDGETS + self.budgets + self.fields.len()
    }

    /// Number of values of dimension `dim`.
    pub(crate) fn size(&self, dim: usize) -> usize {
        match dim {
            TOOL => self.tools.len() + 1,
            DEST => self.dests.len() + 1,
            MODE => self.modes,
            ARG => self.arg_labels + 1,
            DLABEL => self.dest_labels + 1,
            CONF => self.cuts.len() + 1,
            d if d < BUDGETS + self.budgets => 2,
            _ => self.arg_labels + 1,
        }
    }

    /// Index of the field_label dimension of `field`.
    pub(crate) fn field_dim(&self, field: &str) -> Option<usize> {
        self.fields
            .iter()
            .position(|f| f == field)
            .map(|i| BUDGETS + self.budgets + i)
    }

    /// A representative confidence of interval `i`: its lower end (`-inf`
    /// for the first), at which every comparison the guards make has the
    /// value it has on the whole interval.
    pub(crate) fn representative(&self, interval: usize) -> f64 {
        match interval.checked_sub(1) {
            None => f64::NEG_INFINITY,
            Some(i) => self.cuts.get(i).copied().unwrap_or(f64::INFINITY),
        }
    }

    /// The table's dimension list.
    pub(crate) fn dimensions(&self, p: &hir::Program) -> Vec<Dimension> {
        let labels = |l: Option<&hir::Lattice>| -> Vec<String> {
            l.map(|l| {
                l.labels
                    .iter()
                    .map(|id| p.label_name(*id).to_owned())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
            .into_iter()
            .chain([MISSING.to_owned()])
            .collect()
        };
        let arg_values = labels(p.args());
        let mut dims = vec![
            Dimension {
                kind: DimensionKind::Tool,
                values: self
                    .tools
                    .iter()
                    .map(|t| p.tool(*t).map_or("?", |t| t.name.as_str()).to_owned())
                    .chain([UNKNOWN.to_owned()])
                    .collect(),
            },
            Dimension {
                kind: DimensionKind::Destination,
                values: self
                    .dests
                    .iter()
                    .map(|d| {
                        p.destination(*d)
                            .map_or("?", |d| d.name.as_str())
                            .to_owned()
                    })
                    .chain([UNKNOWN.to_owned()])
                    .collect(),
            },
            Dimension {
                kind: DimensionKind::Mode,
                values: p.modes.iter().map(|m| m.name.clone()).collect(),
            },
            Dimension {
                kind: DimensionKind::ArgLabel,
                values: arg_values.clone(),
            },
            Dimension {
                kind: DimensionKind::DestLabel,
                values: labels(p.dests()),
            },
            Dimension {
                kind: DimensionKind::Confidence {
                    cuts: self.cuts.clone(),
                },
                values: self.interval_names(),
            },
        ];
        for budget in (0u32..).take(self.budgets) {
            dims.push(Dimension {
                kind: DimensionKind::Budget { budget },
                values: domain::BUDGET_VALUES.map(str::to_owned).to_vec(),
            });
        }
        for f in &self.fields {
            dims.push(Dimension {
                kind: DimensionKind::FieldLabel { field: f.clone() },
                values: arg_values.clone(),
            });
        }
        dims
    }

    /// Interval names such as `[0.7, 1)`; the ends are `-inf` and `+inf`.
    fn interval_names(&self) -> Vec<String> {
        domain::interval_names(&self.cuts)
    }
}

/// Builds the domain of `c`.
pub(crate) fn build(p: &hir::Program, c: &hir::Contract) -> Domain {
    let mut tools: BTreeSet<ToolId> = c.tools.iter().copied().collect();
    let mut dests: BTreeSet<DestId> = c.destinations.iter().copied().collect();
    let mut cuts: Vec<f64> = c.thresholds.iter().map(|t| t.value).collect();
    let mut fields = BTreeSet::new();
    for rule in &c.rules {
        if let hir::Action::Shadow(Some(s)) = &rule.action {
            if let Some(s) = p.substitute(*s) {
                tools.extend(s.tool);
            }
        }
        visit(&rule.guard, &mut |g| match g {
            Guard::ToolIs(ts) => tools.extend(ts.iter().copied()),
            Guard::DestinationIs(ds) => dests.extend(ds.iter().copied()),
            Guard::Confidence(op, bound) => {
                let v = match bound {
                    Bound::Value(v) => Some(*v),
                    Bound::Param(id) => c.params.get(id.index()).map(|p| p.value),
                    Bound::ThresholdOfMode => None,
                };
                let values: Vec<f64> = match v {
                    Some(v) => vec![v],
                    None => c.thresholds.iter().map(|t| t.value).collect(),
                };
                for v in values {
                    match op {
                        CmpOp::Lt | CmpOp::Ge => cuts.push(v),
                        CmpOp::Le | CmpOp::Gt => cuts.push(next_up(v)),
                        CmpOp::Eq | CmpOp::Ne => cuts.extend([v, next_up(v)]),
                    }
                }
            }
            Guard::ArgLabel { field: Some(f), .. } => {
                fields.insert(f.name.clone());
            }
            _ => {}
        });
    }
    for t in &tools {
        if let Some(tool) = p.tool(*t) {
            dests.extend(tool.destinations.iter().copied());
        }
    }
    cuts.retain(|c| c.is_finite());
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    Domain {
        tools: tools.into_iter().collect(),
        dests: dests.into_iter().collect(),
        modes: p.modes.len(),
        arg_labels: p.args().map_or(0, hir::Lattice::len),
        dest_labels: p.dests().map_or(0, hir::Lattice::len),
        cuts,
        budgets: c.budgets.len(),
        fields: fields.into_iter().collect(),
    }
}

/// Calls `f` on every sub-guard.
pub(crate) fn visit(g: &Guard, f: &mut dyn FnMut(&Guard)) {
    f(g);
    match g {
        Guard::Not(x) => visit(x, f),
        Guard::And(v) | Guard::Or(v) => v.iter().for_each(|x| visit(x, f)),
        _ => {}
    }
}

/// The least float above `v` (for finite `v >= 0`, which confidences are).
///
/// `f64::next_up` needs Rust 1.86; the workspace supports 1.85.
pub(crate) fn next_up(v: f64) -> f64 {
    if v.is_nan() || v == f64::INFINITY {
        return v;
    }
    if v == 0.0 {
        return f64::from_bits(1);
    }
    let bits = v.to_bits();
    f64::from_bits(if v > 0.0 { bits + 1 } else { bits - 1 })
}
