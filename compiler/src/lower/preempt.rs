//! Why a rule decides no event, for `W0602`.
//!
//! The verifier finds the rules no cell comes from; this module says why,
//! from the same guard semantics the table was built with: either the
//! rule's condition holds for no point of the domain (and which of its
//! conditions is the one that never holds), or every point it matches is
//! decided by earlier rules (and which ones). Both are computed by building
//! a small decision diagram, so the answer is exact, not a syntactic guess.

use super::diagram;
use super::domain;
use super::expr::Expr;
use super::guard;
use crate::hir::{self, Bound, Guard};

/// Why a rule decides no event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Preemption {
    /// The condition holds for no event; each string describes one of its
    /// conditions that is false on its own (empty when only their
    /// combination is impossible).
    Never(Vec<String>),
    /// Every event the rule matches is decided by these earlier rules
    /// (indices into the pipeline, in order).
    By(Vec<usize>),
}

/// A rule index no diagram cell uses.
const NONE: u32 = u32::MAX;

/// The rule being explained, in the diagram of its pre-emption.
const OWN: u32 = u32::MAX - 1;

/// Why rule `rule` of `c` decides no event; `None` when it does decide
/// some, or the rule does not exist.
pub fn preemption(p: &hir::Program, c: &hir::Contract, rule: usize) -> Option<Preemption> {
    let target = c.rules.get(rule)?;
    let domain = domain::build(p, c);
    let cx = guard::Cx {
        program: p,
        contract: c,
        domain: &domain,
    };
    let own = cx.translate(&target.guard);
    if !decides_any(&domain, vec![(0, own.clone())]) {
        let conjuncts: Vec<&Guard> = match &target.guard {
            Guard::And(v) => v.iter().collect(),
            g => vec![g],
        };
        let mut never: Vec<String> = conjuncts
            .iter()
            .filter(|g| !decides_any(&domain, vec![(0, cx.translate(g))]))
            .map(|g| describe(p, c, g))
            .collect();
        // No condition is false on its own: the usual culprit is a
        // threshold comparison under modes that have no threshold.
        if never.is_empty() {
            never = conjuncts
                .iter()
                .filter(|g| matches!(g, Guard::Confidence(_, Bound::ThresholdOfMode)))
                .map(|g| {
                    format!(
                        "{}, and the rule's other conditions exclude those modes",
                        describe(p, c, g)
                    )
                })
                .collect();
        }
        return Some(Preemption::Never(never));
    }
    // One earlier rule whose condition holds whenever this one's does is
    // the whole answer.
    for (i, r) in c.rules.iter().enumerate().take(rule) {
        let uncovered = Expr::and(vec![own.clone(), cx.translate(&r.guard).not()]);
        if !decides_any(&domain, vec![(0, uncovered)]) {
            return Some(Preemption::By(vec![i]));
        }
    }
    // Otherwise the earlier rules restricted to this rule's events, in order: the
    // cells of that diagram name the rules that take them first.
    let earlier: Vec<(u32, Expr)> = c
        .rules
        .iter()
        .take(rule)
        .zip(0u32..)
        .map(|(r, i)| (i, Expr::and(vec![cx.translate(&r.guard), own.clone()])))
        .collect();
    // Then the rule itself: a cell of its own means it does decide some
    // event; points it does not match fall to the default.
    let mut rules = earlier;
    rules.push((OWN, own.clone()));
    let built = diagram::build(&domain, with_default(rules)).ok()?;
    if built.cell_rules.contains(&OWN) {
        return None;
    }
    let mut by: Vec<usize> = built
        .cell_rules
        .iter()
        .filter(|r| **r != NONE)
        .map(|r| *r as usize)
        .collect();
    by.sort_unstable();
    by.dedup();
    // Name the rules that alone take some of its events (removing one would
    // let the rule fire); the others only overlap them. The fail-closed
    // prelude usually overlaps a later label rule, so this keeps the answer
    // to the rules that matter.
    let guards: Vec<Expr> = c
        .rules
        .iter()
        .take(rule)
        .map(|r| cx.translate(&r.guard))
        .collect();
    let essential: Vec<usize> = by
        .iter()
        .copied()
        .filter(|i| {
            let others = guards
                .iter()
                .enumerate()
                .filter(|(j, _)| j != i)
                .map(|(_, g)| g.clone().not())
                .collect::<Vec<_>>();
            let alone = Expr::and([vec![own.clone()], others].concat());
            decides_any(&domain, vec![(0, alone)])
        })
        .collect();
    Some(Preemption::By(if essential.is_empty() {
        by
    } else {
        essential
    }))
}

fn with_default(mut rules: Vec<(u32, Expr)>) -> Vec<(u32, Expr)> {
    rules.push((NONE, Expr::Const(true)));
    rules
}

/// Whether some point satisfies one of `rules`.
fn decides_any(domain: &domain::Domain, rules: Vec<(u32, Expr)>) -> bool {
    diagram::build(domain, with_default(rules))
        .map_or(true, |b| b.cell_rules.iter().any(|r| *r != NONE))
}

/// A condition as the contract writes it, with why it can be false.
fn describe(p: &hir::Program, c: &hir::Contract, g: &Guard) -> String {
    match g {
        Guard::Confidence(op, Bound::ThresholdOfMode) => {
            let set: Vec<String> = c
                .thresholds
                .iter()
                .filter_map(|t| {
                    p.modes
                        .get(t.mode.index())
                        .map(|m| format!("`{}` {}", m.name, t.value))
                })
                .collect();
            let why = if set.is_empty() {
                "the contract sets no threshold".to_owned()
            } else {
                format!(
                    "it compares with the threshold of the event's mode, set only for {}",
                    set.join(", ")
                )
            };
            format!("`confidence {} threshold`: {why}", op.symbol())
        }
        Guard::Confidence(op, Bound::Value(v)) => {
            format!(
                "`confidence {} {v}`: no confidence in [0, 1] is {} {v}",
                op.symbol(),
                op.symbol()
            )
        }
        Guard::Confidence(op, Bound::Param(id)) => {
            let param = c.params.get(id.index());
            let name = param.map_or("?", |x| x.name.as_str());
            let value = param.map_or(f64::NAN, |x| x.value);
            format!(
                "`confidence {} {name}`: `{name}` is {value}, and no confidence in [0, 1] is {} {value}",
                op.symbol(),
                op.symbol()
            )
        }
        Guard::ArgLabel { op, label, .. } => format!(
            "`args {} {}`: no argument label is {} `{}`",
            op.symbol(),
            p.label_name(*label),
            op.symbol(),
            p.label_name(*label)
        ),
        Guard::DestLabel(op, label) => format!(
            "`destination {} {}`: no allowed destination's label is {} `{}`",
            op.symbol(),
            p.label_name(*label),
            op.symbol(),
            p.label_name(*label)
        ),
        Guard::SubstituteAvailable => {
            "`substitute available`: no allowed tool has a substitute".to_owned()
        }
        Guard::BudgetExhausted(_) => {
            "`budget exhausted`: the contract has no such budget".to_owned()
        }
        Guard::Bool(false) => "`false`".to_owned(),
        _ => "a condition on the tool, destination, mode or effect that no allowed event meets"
            .to_owned(),
    }
}
