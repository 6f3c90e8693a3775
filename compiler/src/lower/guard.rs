//! From `hir::Guard` to [`Expr`] over the domain's dimensions.
//!
//! This file is the semantics of every guard atom on the abstract domain
//! (the book's "Lowering" chapter states the same rules):
//!
//! - `tool allowed` / `destination allowed`: membership in the contract's
//!   allow-lists; `<unknown>` is never allowed.
//! - `destination external`: some external observer records the
//!   destination; an `<unknown>` destination counts as external (fail-safe).
//! - `substitute available`, `effect == e`: properties of the declared tool;
//!   false for `<unknown>`.
//! - a bare mode (`speculative`) is `mode == speculative`.
//! - `confidence op threshold` uses the threshold of the event's mode; for a
//!   mode without a threshold the comparison is false.
//! - `labels missing`: the argument or the destination label is `<missing>`.
//! - every label comparison (`args >= l`, `args.f == l`, `destination < l`)
//!   is false on `<missing>`, including `!=`: a missing label compares with
//!   nothing, so a fail-closed pipeline must test `labels missing` itself.
//! - `budget b exhausted`: budget `b`'s dimension is `exhausted`; without a
//!   name, any budget of the contract.

use super::domain::{self, Domain};
use super::expr::{Expr, Set};
use crate::hir::{self, Bound, CmpOp, Guard};

/// What a translation needs to know.
pub(crate) struct Cx<'a> {
    /// The checked program.
    pub(crate) program: &'a hir::Program,
    /// The contract being lowered.
    pub(crate) contract: &'a hir::Contract,
    /// Its abstract domain.
    pub(crate) domain: &'a Domain,
}

impl Cx<'_> {
    fn tools(&self, pred: impl Fn(Option<&hir::Tool>, hir::ToolId) -> bool) -> Expr {
        let set = Set::from_fn(self.domain.size(domain::TOOL), |v| {
            match self.domain.tools.get(v) {
                Some(id) => pred(self.program.tool(*id), *id),
                None => false,
            }
        });
        Expr::atom(domain::TOOL, set)
    }

    fn dests(&self, unknown: bool, pred: impl Fn(hir::DestId) -> bool) -> Expr {
        let set = Set::from_fn(self.domain.size(domain::DEST), |v| {
            match self.domain.dests.get(v) {
                Some(id) => pred(*id),
                None => unknown,
            }
        });
        Expr::atom(domain::DEST, set)
    }

    fn confidence(&self, op: CmpOp, bound: f64) -> Expr {
        let set = Set::from_fn(self.domain.size(domain::CONF), |i| {
            compare(self.domain.representative(i), op, bound)
        });
        Expr::atom(domain::CONF, set)
    }

    fn label(
        &self,
        dim: usize,
        lattice: Option<&hir::Lattice>,
        op: CmpOp,
        label: hir::LabelId,
    ) -> Expr {
        let Some(lat) = lattice else {
            return Expr::Const(false);
        };
        let set = Set::from_fn(self.domain.size(dim), |v| match lat.at(v) {
            Some(x) => label_cmp(lat, x, op, label),
            None => false,
        });
        Expr::atom(dim, set)
    }

    /// The formula of a guard.
    pub(crate) fn translate(&self, g: &Guard) -> Expr {
        let d = self.domain;
        match g {
            Guard::Bool(b) => Expr::Const(*b),
            Guard::Not(x) => self.translate(x).not(),
            Guard::And(v) => Expr::and(v.iter().map(|x| self.translate(x)).collect()),
            Guard::Or(v) => Expr::or(v.iter().map(|x| self.translate(x)).collect()),
            Guard::ToolAllowed => self.tools(|_, id| self.contract.tools.contains(&id)),
            Guard::DestinationAllowed => self.dests(self.contract.undeclared_destinations, |id| {
                self.contract.destinations.contains(&id)
            }),
            Guard::DestinationExternal => self.dests(true, |id| self.program.is_external(id)),
            Guard::DestinationUndeclared => self.dests(true, |_| false),
            Guard::SubstituteAvailable => {
                self.tools(|t, _| t.is_some_and(|t| t.substitute.is_some()))
            }
            Guard::ToolIs(ts) => self.tools(|_, id| ts.contains(&id)),
            Guard::DestinationIs(ds) => self.dests(false, |id| ds.contains(&id)),
            Guard::EffectIs(es) => {
                self.tools(|t, _| t.and_then(|t| t.effect).is_some_and(|e| es.contains(&e)))
            }
            Guard::ModeIs(ms) => Expr::atom(
                domain::MODE,
                Set::from_fn(d.modes, |m| {
                    hir::ModeId::from_index(m).is_some_and(|m| ms.contains(&m))
                }),
            ),
            Guard::BudgetExhausted(Some(b)) => budget(d, b.index()),
            Guard::BudgetExhausted(None) => {
                Expr::or((0..d.budgets).map(|b| budget(d, b)).collect())
            }
            Guard::LabelsMissing => Expr::or(vec![
                Expr::atom(
                    domain::ARG,
                    Set::from_fn(d.size(domain::ARG), |v| v == d.arg_labels),
                ),
                Expr::atom(
                    domain::DLABEL,
                    Set::from_fn(d.size(domain::DLABEL), |v| v == d.dest_labels),
                ),
            ]),
            Guard::Confidence(op, Bound::Value(v)) => self.confidence(*op, *v),
            Guard::Confidence(op, Bound::Param(id)) => match self.contract.params.get(id.index()) {
                Some(p) => self.confidence(*op, p.value),
                None => Expr::Const(false),
            },
            Guard::Confidence(op, Bound::ThresholdOfMode) => Expr::or(
                self.contract
                    .thresholds
                    .iter()
                    .map(|t| {
                        let mode = Set::from_fn(d.modes, |m| m == t.mode.index());
                        Expr::and(vec![
                            Expr::atom(domain::MODE, mode),
                            self.confidence(*op, t.value),
                        ])
                    })
                    .collect(),
            ),
            Guard::ArgLabel {
                field: None,
                op,
                label,
            } => self.label(domain::ARG, self.program.args(), *op, *label),
            Guard::ArgLabel {
                field: Some(f),
                op,
                label,
            } => match d.field_dim(&f.name) {
                Some(dim) => self.label(dim, self.program.args(), *op, *label),
                None => Expr::Const(false),
            },
            Guard::DestLabel(op, label) => {
                self.label(domain::DLABEL, self.program.dests(), *op, *label)
            }
        }
    }
}

fn budget(d: &Domain, b: usize) -> Expr {
    if b >= d.budgets {
        return Expr::Const(false);
    }
    Expr::atom(domain::BUDGETS + b, Set::from_fn(2, |v| v == 1))
}

/// `c op bound` on floats.
pub(crate) fn compare(c: f64, op: CmpOp, bound: f64) -> bool {
    match op {
        CmpOp::Eq => c == bound,
        CmpOp::Ne => c != bound,
        CmpOp::Lt => c < bound,
        CmpOp::Le => c <= bound,
        CmpOp::Gt => c > bound,
        CmpOp::Ge => c >= bound,
    }
}

/// `x op l` in a (possibly partial) lattice.
pub(crate) fn label_cmp(lat: &hir::Lattice, x: hir::LabelId, op: CmpOp, l: hir::LabelId) -> bool {
    let le = lat.leq(x, l) == Some(true);
    let ge = lat.leq(l, x) == Some(true);
    match op {
        CmpOp::Eq => x == l,
        CmpOp::Ne => x != l,
        CmpOp::Lt => le && x != l,
        CmpOp::Le => le,
        CmpOp::Gt => ge && x != l,
        CmpOp::Ge => ge,
    }
}
