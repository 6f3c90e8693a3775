//! Warnings: unused declarations, rules that can never fire, thresholds and
//! budgets nothing reads.
//!
//! Unused declarations are reported only in files that declare a contract
//! and that no other file imports: there is no `pub`, so a vocabulary module
//! (the `std` library, a shared tools file) exports everything it declares.
//! A duplicate declaration (already `E0202`) is not also reported unused.
//! The same files get `W0005` for items imported by name (`use a::{x};`)
//! that the file itself never refers to; whole-module imports are exempt,
//! since they also bring the program-wide vocabulary (lattices, modes), and
//! so are substitutes of tools the file uses (`shadow` runs them unnamed).
//!
//! Rule shadowing is a sound but incomplete subsumption check: rule `j` is
//! reported when an earlier rule `i` is unguarded, or when every conjunct of
//! `i`'s guard is also a conjunct of `j`'s guard (then `j`'s guard implies
//! `i`'s, so `i` fires first on every event `j` matches). It never reports a
//! rule that can fire; it misses covers that need reasoning about labels or
//! disjunctions, which the exhaustive table check in `verify` finds.

use super::{errors, Cx};
use crate::hir::{Guard, Rule};
use crate::resolve::{Binding, Kind};
use std::collections::HashSet;

pub(crate) fn check(cx: &mut Cx<'_>) {
    // Lints run on an error-free program only, as rustc's do: a misspelled
    // name would make its intended target look unused, and recovery nodes
    // (an unresolved atom becomes `false`) would make rules look shadowed.
    if cx.diags.has_errors() {
        return;
    }
    unused(cx);
    let mut diags = Vec::new();
    for c in &cx.program.contracts {
        if !user_span(cx, c.span) {
            continue;
        }
        for (j, rule) in c.rules.iter().enumerate() {
            if let Some((i, why)) = c
                .rules
                .iter()
                .take(j)
                .enumerate()
                .find_map(|(i, e)| covers(e, rule).map(|w| (i, w)))
            {
                let Some(earlier) = c.rules.get(i) else {
                    continue;
                };
                diags.push(if earlier.unguarded {
                    errors::after_default(
                        &describe(rule, j),
                        rule.span,
                        &describe(earlier, i),
                        earlier.span,
                    )
                } else {
                    errors::shadowed_rule(&describe(rule, j), rule.span, earlier.span, why)
                });
            }
        }
        let reads_threshold = c.rules.iter().any(|r| {
            reads(&r.guard, &|g| {
                matches!(g, Guard::Confidence(_, crate::hir::Bound::ThresholdOfMode))
            })
        });
        if !reads_threshold {
            for t in &c.thresholds {
                let mode = cx
                    .program
                    .modes
                    .get(t.mode.index())
                    .map_or("?", |m| m.name.as_str());
                diags.push(errors::unread_threshold(mode, t.span));
            }
        }
        for (b, budget) in c.budgets.iter().enumerate() {
            let read = c.rules.iter().any(|r| {
                reads(&r.guard, &|g| match g {
                    Guard::BudgetExhausted(None) => true,
                    Guard::BudgetExhausted(Some(x)) => x.index() == b,
                    _ => false,
                })
            });
            if !read {
                diags.push(errors::unread_budget(&budget.name, budget.span));
            }
        }
    }
    cx.diags.extend(diags);
}

fn user_span(cx: &Cx<'_>, span: crate::source::Span) -> bool {
    cx.resolved
        .modules
        .iter()
        .find(|m| m.file == span.file)
        .is_some_and(|m| !m.is_std)
}

fn describe(rule: &Rule, index: usize) -> String {
    match &rule.name {
        Some(n) => format!("`{n}`"),
        None => format!("#{} (`{}`)", index + 1, rule.action.keyword()),
    }
}

fn conjuncts(g: &Guard) -> Vec<&Guard> {
    match g {
        Guard::And(v) => v.iter().collect(),
        Guard::Bool(true) => Vec::new(),
        g => vec![g],
    }
}

/// Whether `earlier` fires on every event `later` matches, and why.
fn covers(earlier: &Rule, later: &Rule) -> Option<&'static str> {
    if matches!(earlier.guard, Guard::Bool(true)) {
        return Some("this earlier rule has no guard, so it decides every event");
    }
    let mine = conjuncts(&later.guard);
    let theirs = conjuncts(&earlier.guard);
    (theirs.iter().all(|g| mine.contains(g)))
        .then_some("this earlier rule's condition holds whenever the later one's does")
}

fn reads(g: &Guard, pred: &dyn Fn(&Guard) -> bool) -> bool {
    pred(g)
        || match g {
            Guard::Not(x) => reads(x, pred),
            Guard::And(v) | Guard::Or(v) => v.iter().any(|x| reads(x, pred)),
            _ => false,
        }
}

fn unused(cx: &mut Cx<'_>) {
    let mut diags = Vec::new();
    let checked: HashSet<usize> = cx
        .resolved
        .modules
        .iter()
        .enumerate()
        .filter(|(m, module)| {
            !module.is_std
                && !module.imported
                && cx
                    .resolved
                    .decls
                    .iter()
                    .any(|d| d.module == *m && d.kind == Kind::Contract)
        })
        .map(|(m, _)| m)
        .collect();
    for (i, d) in cx.resolved.decls.iter().enumerate() {
        if !checked.contains(&d.module) || cx.resolved.is_used(i) {
            continue;
        }
        let bound = cx
            .resolved
            .modules
            .get(d.module)
            .and_then(|m| m.scope.get(&d.name));
        if bound != Some(&Binding::Decl(i)) {
            continue;
        }
        let skip = match d.kind {
            Kind::Contract | Kind::Labeler => true,
            Kind::Lattice => cx
                .program
                .lattices
                .get(d.index as usize)
                .is_some_and(|l| l.role.is_some()),
            Kind::Enum => matches!(d.name.as_str(), "Mode" | "Effect"),
            Kind::Observer
            | Kind::Destination
            | Kind::Tool
            | Kind::Substitute
            | Kind::Lexicon
            | Kind::Transform
            | Kind::Set => false,
        };
        if !skip {
            diags.push(errors::unused(d.kind.word(), &d.name, d.span));
        }
    }
    for m in &checked {
        let Some(module) = cx.resolved.modules.get(*m) else {
            continue;
        };
        for (ident, d) in &module.item_imports {
            if !cx.resolved.is_used_from(*m, *d) && !documents_shadow(cx, *m, *d) {
                diags.push(errors::unused_import(&ident.name, ident.loc.span()));
            }
        }
    }
    cx.diags.extend(diags);
}

/// Whether `decl` is a substitute for a tool that module `m` uses: `shadow`
/// without `using` runs it implicitly, so importing it documents the rule.
fn documents_shadow(cx: &Cx<'_>, m: usize, decl: usize) -> bool {
    let Some(d) = cx
        .resolved
        .decls
        .get(decl)
        .filter(|d| d.kind == Kind::Substitute)
    else {
        return false;
    };
    let Some(tool) = cx
        .program
        .substitutes
        .get(d.index as usize)
        .and_then(|s| s.tool)
    else {
        return false;
    };
    cx.resolved
        .decls
        .iter()
        .position(|t| t.kind == Kind::Tool && t.index == tool.0)
        .is_some_and(|t| cx.resolved.is_used_from(m, t))
}
