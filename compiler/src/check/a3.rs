//! Action preservation (A3), statically.
//!
//! Every REWRITE must name transforms whose declared output label is
//! strictly below each argument cut the rule serves: the contract's
//! `forbid args >= cut` statements, or, in a contract without one, the
//! labels its own guard tests with `args >= l`. Every SHADOW must run a
//! substitute that no external observer sees: the named one, or each
//! reachable tool's own. The rule's guard narrows the tools considered when
//! it tests `tool == t` or `substitute available` as a conjunct.

use super::{errors, Cx};
use crate::hir::{self, Action, CmpOp, Guard};
use crate::source::Span;

fn conjuncts(g: &Guard) -> Vec<&Guard> {
    match g {
        Guard::And(v) => v.iter().collect(),
        g => vec![g],
    }
}

/// Cuts served by a rule: the contract's arg cuts, else the guard's `args >= l`.
fn cuts(c: &hir::Contract, rule: &hir::Rule) -> Vec<(hir::LabelId, Span)> {
    let forbids: Vec<(hir::LabelId, Span)> = c.arg_cuts().map(|f| (f.cut, f.span)).collect();
    if !forbids.is_empty() {
        return forbids;
    }
    conjuncts(&rule.guard)
        .into_iter()
        .filter_map(|g| match g {
            Guard::ArgLabel {
                op: CmpOp::Ge,
                label,
                ..
            } => Some((*label, rule.span)),
            _ => None,
        })
        .collect()
}

/// The tools a rule can see: the allowed tools, narrowed by a `tool == t` conjunct.
fn tools(c: &hir::Contract, rule: &hir::Rule) -> Vec<hir::ToolId> {
    for g in conjuncts(&rule.guard) {
        if let Guard::ToolIs(ts) = g {
            return ts.clone();
        }
    }
    c.tools.clone()
}

pub(crate) fn check(cx: &mut Cx<'_>) {
    let mut diags = Vec::new();
    let p = &cx.program;
    for c in &p.contracts {
        for rule in &c.rules {
            match &rule.action {
                Action::Rewrite(rw) => {
                    let ts = &rw.transforms;
                    for (cut, cut_span) in cuts(c, rule) {
                        for t in ts {
                            let Some(tr) = p.transform(*t) else { continue };
                            let Some(output) = tr.output.filter(|o| p.label(*o).is_some()) else {
                                continue;
                            };
                            let below = p.leq(output, cut) == Some(true) && output != cut;
                            if !below {
                                diags.push(errors::a3_transform(
                                    &tr.name,
                                    p.label_name(output),
                                    p.label_name(cut),
                                    rule.span,
                                    tr.span,
                                    cut_span,
                                ));
                            }
                        }
                    }
                    rewrite_types(p, c, rule, ts, &mut diags);
                    let resolved = !ts.is_empty() && ts.iter().all(|t| p.transform(*t).is_some());
                    if resolved && rw.scope.is_none() && !cut_reaches(c, rule) {
                        diags.push(errors::rewrite_changes_nothing(
                            rule.name.as_deref(),
                            rule.span,
                        ));
                    }
                }
                Action::Shadow(sub) => shadow(p, c, rule, *sub, &mut diags),
                Action::Allow | Action::Block | Action::Defer => {}
            }
        }
    }
    cx.diags.extend(diags);
}

/// Whether an argument cut covers some mode the rule can fire in. A REWRITE
/// changes the fields at or above a cut that covers the event's mode, or at
/// or above the rule's own scope (`rewrite args >= L`); with neither, it
/// dispatches the arguments unchanged (`W0011`). A `mode` conjunct of the
/// guard narrows the modes; a cut scoped `unless committed` does not cover
/// a rule that fires only for committed events.
fn cut_reaches(c: &hir::Contract, rule: &hir::Rule) -> bool {
    let modes = conjuncts(&rule.guard).into_iter().find_map(|g| match g {
        Guard::ModeIs(ms) => Some(ms),
        _ => None,
    });
    c.arg_cuts().any(|f| match modes {
        Some(ms) => ms.iter().any(|m| !f.unless.contains(m)),
        None => true,
    })
}

fn rewrite_types(
    p: &hir::Program,
    c: &hir::Contract,
    rule: &hir::Rule,
    ts: &[hir::TransformId],
    diags: &mut Vec<crate::Diagnostic>,
) {
    let transforms: Vec<&hir::Transform> = ts.iter().filter_map(|t| p.transform(*t)).collect();
    if transforms.len() != ts.len() || ts.is_empty() {
        return;
    }
    let fields: Vec<&str> = conjuncts(&rule.guard)
        .into_iter()
        .filter_map(|g| match g {
            Guard::ArgLabel { field: Some(f), .. } => Some(f.name.as_str()),
            _ => None,
        })
        .collect();
    for tool in tools(c, rule).iter().filter_map(|t| p.tool(*t)) {
        let relevant: Vec<&hir::Field> = tool
            .fields
            .iter()
            .filter(|f| fields.is_empty() || fields.contains(&f.name.as_str()))
            .collect();
        let fits = |f: &&hir::Field| transforms.iter().any(|t| t.accepts(&f.ty));
        if fields.is_empty() {
            // The join over every field: some field must be rewritable.
            if !relevant.is_empty() && !relevant.iter().any(fits) {
                if let Some(f) = relevant.first() {
                    diags.push(errors::rewrite_type(
                        &tool.name,
                        &f.name,
                        &f.ty.display(),
                        rule.span,
                    ));
                }
            }
        } else {
            for f in relevant.iter().filter(|f| !fits(f)) {
                diags.push(errors::rewrite_type(
                    &tool.name,
                    &f.name,
                    &f.ty.display(),
                    rule.span,
                ));
            }
        }
    }
}

fn shadow(
    p: &hir::Program,
    c: &hir::Contract,
    rule: &hir::Rule,
    sub: Option<hir::SubstituteId>,
    diags: &mut Vec<crate::Diagnostic>,
) {
    let guarded = conjuncts(&rule.guard)
        .iter()
        .any(|g| matches!(g, Guard::SubstituteAvailable));
    let check_sub = |s: &hir::Substitute, diags: &mut Vec<crate::Diagnostic>| {
        for o in s.observers.iter().filter_map(|o| p.observer(*o)) {
            if o.external {
                diags.push(errors::a3_substitute(&s.name, &o.name, rule.span, s.span));
            }
        }
    };
    match sub {
        Some(s) => {
            let Some(s) = p.substitute(s) else { return };
            check_sub(s, diags);
            let reach = tools(c, rule);
            if !reach.is_empty() && !s.tool.is_some_and(|t| reach.contains(&t)) {
                let tool = s
                    .tool
                    .and_then(|t| p.tool(t))
                    .map_or("?", |t| t.name.as_str());
                diags.push(errors::no_substitute(
                    reach
                        .first()
                        .and_then(|t| p.tool(*t))
                        .map_or("?", |t| t.name.as_str()),
                    rule.span,
                    &format!(
                        "`{}` stands in for `{tool}`, which this rule never sees",
                        s.name
                    ),
                ));
            }
        }
        None => {
            for t in tools(c, rule).iter().filter_map(|t| p.tool(*t)) {
                match t.substitute.and_then(|s| p.substitute(s)) {
                    Some(s) => check_sub(s, diags),
                    None if !guarded => diags.push(errors::no_substitute(
                        &t.name,
                        rule.span,
                        &format!("`{}` declares no substitute and none is named", t.name),
                    )),
                    None => {}
                }
            }
        }
    }
}
