//! Guards: `when`/`unless` expressions to typed [`hir::Guard`] trees.
//!
//! Sugar expands here: a bare mode is `ModeIs`, `x != y` is `Not(x == y)`,
//! `subject in {..}` is a set test (or, for labels, an `Or` of equalities),
//! and `and`/`or` chains are flattened so that the shadowing lint can
//! compare conjunct sets.

use super::{errors, Cx};
use crate::hir::{self, Bound, CmpOp, Guard};
use crate::resolve::{Binding, Kind};
use crate::source::Span;
use crate::syntax::ast;

/// What a guard may refer to: the contract's module, parameters, budgets and
/// allowed tools (for `args.f`).
pub(crate) struct Env<'e> {
    pub(crate) module: usize,
    pub(crate) params: &'e [hir::Param],
    pub(crate) budgets: &'e [hir::Budget],
    pub(crate) tools: &'e [hir::ToolId],
}

fn flatten(and: bool, parts: Vec<Guard>) -> Vec<Guard> {
    parts
        .into_iter()
        .flat_map(|g| match g {
            Guard::And(v) if and => v,
            Guard::Or(v) if !and => v,
            g => vec![g],
        })
        .collect()
}

/// Types a guard; errors are reported and the failing atom becomes `false`
/// (a recovery value: it is never lowered, because the run has errors).
pub(crate) fn guard(cx: &mut Cx<'_>, env: &Env<'_>, g: &ast::Guard) -> Guard {
    let e = expr(cx, env, &g.expr);
    if g.negated {
        Guard::Not(Box::new(e))
    } else {
        e
    }
}

pub(crate) fn expr(cx: &mut Cx<'_>, env: &Env<'_>, e: &ast::Expr) -> Guard {
    match e {
        ast::Expr::Bool(b, _) => Guard::Bool(*b),
        ast::Expr::Not(x, _) => Guard::Not(Box::new(expr(cx, env, x))),
        ast::Expr::And(a, b, _) => {
            Guard::And(flatten(true, vec![expr(cx, env, a), expr(cx, env, b)]))
        }
        ast::Expr::Or(a, b, _) => {
            Guard::Or(flatten(false, vec![expr(cx, env, a), expr(cx, env, b)]))
        }
        ast::Expr::Paren(x, _) => expr(cx, env, x),
        ast::Expr::Flag(i) => cx
            .mode(i)
            .map_or(Guard::Bool(false), |m| Guard::ModeIs(vec![m])),
        ast::Expr::Predicate(p, loc) => predicate(cx, env, p, loc.span()),
        ast::Expr::Compare(c) => compare(cx, env, c),
    }
}

fn predicate(cx: &mut Cx<'_>, env: &Env<'_>, p: &ast::Predicate, span: Span) -> Guard {
    match p {
        ast::Predicate::ToolAllowed => Guard::ToolAllowed,
        ast::Predicate::DestinationAllowed => Guard::DestinationAllowed,
        ast::Predicate::DestinationExternal => Guard::DestinationExternal,
        ast::Predicate::DestinationUndeclared => Guard::DestinationUndeclared,
        ast::Predicate::LabelsMissing => Guard::LabelsMissing,
        ast::Predicate::SubstituteAvailable => Guard::SubstituteAvailable,
        ast::Predicate::BudgetExhausted(None) => {
            if env.budgets.is_empty() {
                cx.diags.push(errors::no_budgets(span));
                return Guard::Bool(false);
            }
            Guard::BudgetExhausted(None)
        }
        ast::Predicate::BudgetExhausted(Some(name)) => match budget(env, &name.name) {
            Some(b) => Guard::BudgetExhausted(Some(b)),
            None => {
                if env.budgets.is_empty() {
                    cx.diags.push(errors::no_budgets(span));
                } else {
                    let names = env.budgets.iter().map(|b| b.name.as_str());
                    cx.diags.push(crate::resolve::errors::unknown_name(
                        "budget",
                        &name.name,
                        name.loc.span(),
                        names,
                        None,
                    ));
                }
                Guard::Bool(false)
            }
        },
    }
}

pub(crate) fn budget(env: &Env<'_>, name: &str) -> Option<hir::BudgetId> {
    env.budgets
        .iter()
        .position(|b| b.name == name)
        .and_then(hir::BudgetId::from_index)
}

fn negate_if(ne: bool, g: Guard) -> Guard {
    if ne {
        Guard::Not(Box::new(g))
    } else {
        g
    }
}

/// The names of a set test or an equality, with whether it was `!=`.
fn names_of<'a>(
    cx: &mut Cx<'_>,
    test: &'a ast::CompareTest,
    subject: &str,
    span: Span,
) -> Option<(Vec<&'a ast::Ident>, bool)> {
    match test {
        ast::CompareTest::In(v) => Some((v.iter().collect(), false)),
        ast::CompareTest::Op(o @ (ast::CmpOp::Eq | ast::CmpOp::Ne), ast::Operand::Name(n)) => {
            Some((vec![n], *o == ast::CmpOp::Ne))
        }
        ast::CompareTest::Op(o, ast::Operand::Name(_)) => {
            cx.diags.push(errors::bad_comparison(
                &format!(
                    "`{subject}` is not ordered, so `{}` does not apply",
                    o.symbol()
                ),
                span,
                &format!("compare `{subject}` with `==`, `!=` or `in {{...}}`"),
            ));
            None
        }
        ast::CompareTest::Op(_, _) => {
            cx.diags.push(errors::bad_comparison(
                &format!("`{subject}` compared with a number"),
                span,
                &format!("compare `{subject}` with a name, such as `{subject} == x`"),
            ));
            None
        }
    }
}

fn compare(cx: &mut Cx<'_>, env: &Env<'_>, c: &ast::Compare) -> Guard {
    let span = c.loc.span();
    match &c.subject {
        ast::CompareSubject::Tool => {
            let Some((names, ne)) = names_of(cx, &c.test, "tool", span) else {
                return Guard::Bool(false);
            };
            let ids: Vec<hir::ToolId> = names
                .iter()
                .filter_map(|n| cx.lookup(env.module, n, Kind::Tool).map(hir::ToolId))
                .collect();
            negate_if(ne, Guard::ToolIs(ids))
        }
        ast::CompareSubject::Mode => {
            let Some((names, ne)) = names_of(cx, &c.test, "mode", span) else {
                return Guard::Bool(false);
            };
            if let ast::CompareTest::Op(_, ast::Operand::Name(n)) = &c.test {
                cx.diags.push(errors::mode_comparison(span, &n.name, ne));
            }
            let ids = names.iter().filter_map(|n| cx.mode(n)).collect();
            negate_if(ne, Guard::ModeIs(ids))
        }
        ast::CompareSubject::Effect => {
            let Some((names, ne)) = names_of(cx, &c.test, "effect", span) else {
                return Guard::Bool(false);
            };
            let ids = names.iter().filter_map(|n| cx.effect(n)).collect();
            negate_if(ne, Guard::EffectIs(ids))
        }
        ast::CompareSubject::Destination => destination(cx, env, c, span),
        ast::CompareSubject::Confidence => confidence(cx, env, c, span),
        ast::CompareSubject::Args(field) => args(cx, env, field.as_ref(), c, span),
    }
}

fn is_destination(cx: &Cx<'_>, module: usize, name: &str) -> bool {
    let scope = cx.resolved.modules.get(module).map(|m| &m.scope);
    matches!(scope.and_then(|s| s.get(name)), Some(Binding::Decl(d))
        if cx.resolved.decls.get(*d).is_some_and(|d| d.kind == Kind::Destination))
}

fn destination(cx: &mut Cx<'_>, env: &Env<'_>, c: &ast::Compare, span: Span) -> Guard {
    let is_label = |cx: &Cx<'_>, n: &ast::Ident| {
        !is_destination(cx, env.module, &n.name)
            && cx
                .program
                .dests()
                .is_some_and(|l| l.labels.iter().any(|x| cx.program.label_name(*x) == n.name))
    };
    match &c.test {
        ast::CompareTest::Op(o, ast::Operand::Name(n)) => {
            let o = *o;
            if matches!(o, CmpOp::Eq | CmpOp::Ne) && !is_label(cx, n) {
                let ids = cx
                    .lookup(env.module, n, Kind::Destination)
                    .map(hir::DestId)
                    .into_iter()
                    .collect();
                return negate_if(o == CmpOp::Ne, Guard::DestinationIs(ids));
            }
            cx.label(hir::Subject::Destination, n)
                .map_or(Guard::Bool(false), |l| Guard::DestLabel(o, l))
        }
        ast::CompareTest::In(names) => {
            if names.iter().all(|n| is_label(cx, n)) {
                let parts = names
                    .iter()
                    .filter_map(|n| cx.label(hir::Subject::Destination, n))
                    .map(|l| Guard::DestLabel(CmpOp::Eq, l))
                    .collect();
                return Guard::Or(parts);
            }
            let ids = names
                .iter()
                .filter_map(|n| cx.lookup(env.module, n, Kind::Destination).map(hir::DestId))
                .collect();
            Guard::DestinationIs(ids)
        }
        ast::CompareTest::Op(..) => {
            cx.diags.push(errors::bad_comparison(
                "`destination` compared with a number",
                span,
                "compare the destination with a destination or a destination label",
            ));
            Guard::Bool(false)
        }
    }
}

fn confidence(cx: &mut Cx<'_>, env: &Env<'_>, c: &ast::Compare, span: Span) -> Guard {
    let ast::CompareTest::Op(o, operand) = &c.test else {
        cx.diags.push(errors::bad_comparison(
            "`confidence in {...}`",
            span,
            "compare confidence with a number, a parameter or `threshold`, such as `confidence < 0.7`",
        ));
        return Guard::Bool(false);
    };
    let bound = match operand {
        ast::Operand::Threshold(_) => Bound::ThresholdOfMode,
        ast::Operand::Number(n) => {
            let v = n.value();
            if !(0.0..=1.0).contains(&v) {
                cx.diags
                    .push(errors::out_of_unit("confidence", &n.text, n.loc.span()));
            }
            Bound::Value(v)
        }
        ast::Operand::Name(name) => match env
            .params
            .iter()
            .position(|p| p.name == name.name)
            .and_then(hir::ParamId::from_index)
        {
            Some(id) => Bound::Param(id),
            None => {
                let names = env.params.iter().map(|p| p.name.as_str());
                cx.diags
                    .push(errors::unknown_param(&name.name, name.loc.span(), names));
                return Guard::Bool(false);
            }
        },
    };
    Guard::Confidence(*o, bound)
}

fn args(
    cx: &mut Cx<'_>,
    env: &Env<'_>,
    field: Option<&ast::Ident>,
    c: &ast::Compare,
    span: Span,
) -> Guard {
    let field_ref = field.map(|f| {
        let tools: Vec<&hir::Tool> = if env.tools.is_empty() {
            cx.program.tools.iter().collect()
        } else {
            env.tools
                .iter()
                .filter_map(|t| cx.program.tool(*t))
                .collect()
        };
        if !tools.iter().any(|t| t.field(&f.name).is_some()) {
            let mut names: Vec<&str> = tools
                .iter()
                .flat_map(|t| t.fields.iter().map(|f| f.name.as_str()))
                .collect();
            names.sort_unstable();
            names.dedup();
            let why = format!("no allowed tool has a field `{}`", f.name);
            cx.diags
                .push(errors::unknown_field(&f.name, &why, f.loc.span(), names));
        }
        hir::FieldRef {
            name: f.name.clone(),
        }
    });
    match &c.test {
        ast::CompareTest::Op(o, ast::Operand::Name(n)) => {
            cx.label(hir::Subject::Args, n)
                .map_or(Guard::Bool(false), |l| Guard::ArgLabel {
                    field: field_ref,
                    op: *o,
                    label: l,
                })
        }
        ast::CompareTest::In(names) => Guard::Or(
            names
                .iter()
                .filter_map(|n| cx.label(hir::Subject::Args, n))
                .map(|l| Guard::ArgLabel {
                    field: field_ref.clone(),
                    op: CmpOp::Eq,
                    label: l,
                })
                .collect(),
        ),
        ast::CompareTest::Op(..) => {
            cx.diags.push(errors::bad_comparison(
                "`args` compared with a number or `threshold`",
                span,
                "compare argument labels with a label, such as `args >= sensitive`",
            ));
            Guard::Bool(false)
        }
    }
}
