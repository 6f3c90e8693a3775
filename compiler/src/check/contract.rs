//! Contracts: allow-lists, cuts, thresholds, budgets, audit, the pipeline
//! and tests.

use super::decls::{observer_list, subject};
use super::guard::{self, Env};
use super::{errors, Cx};
use crate::diagnostics::Diagnostic;
use crate::hir::{self, Action};
use crate::resolve::{errors as rerrors, Kind};
use crate::source::Span;
use crate::syntax::ast;
use std::collections::HashMap;

pub(crate) fn check(cx: &mut Cx<'_>) {
    let decls: Vec<(usize, Span, usize)> = cx
        .resolved
        .of_kind(Kind::Contract)
        .enumerate()
        .map(|(i, d)| (d.module, d.span, i))
        .collect();
    for (module, span, i) in decls {
        let r = cx.resolved;
        let Some(ast::Item::Contract(c)) = r.of_kind(Kind::Contract).nth(i).and_then(|d| r.item(d))
        else {
            cx.diags.push(Diagnostic::internal(span, "not a contract"));
            continue;
        };
        let out = contract(cx, module, c);
        cx.program.contracts.push(out);
    }
}

/// Remembers the first place a once-only statement was given (`E0418`).
#[derive(Default)]
struct Once(HashMap<String, Span>);

impl Once {
    fn first(&mut self, cx: &mut Cx<'_>, what: &str, span: Span) -> bool {
        if let Some(first) = self.0.get(what) {
            cx.diags.push(errors::repeated(what, span, *first));
            return false;
        }
        self.0.insert(what.to_string(), span);
        true
    }
}

fn contract(cx: &mut Cx<'_>, m: usize, c: &ast::Contract) -> hir::Contract {
    let span = c.name.loc.span();
    let mut out = hir::Contract {
        name: c.name.name.clone(),
        params: Vec::new(),
        tools: Vec::new(),
        destinations: Vec::new(),
        labelers: None,
        forbids: Vec::new(),
        thresholds: Vec::new(),
        budgets: Vec::new(),
        audit: hir::Audit::default(),
        rules: Vec::new(),
        tests: Vec::new(),
        span,
    };
    params(cx, &mut out, c);
    let (decide, tests) = statements(cx, m, &mut out, c);
    if out.labelers.is_none() && !cx.program.labelers.is_empty() {
        let names: Vec<String> = cx.program.labelers.iter().map(|l| l.name.clone()).collect();
        let after = c.stmts.iter().rev().find_map(|s| match s {
            ast::ContractStmt::Destinations(_, loc) | ast::ContractStmt::Tools(_, loc) => {
                Some(loc.span())
            }
            _ => None,
        });
        let insert = after.map(|s| crate::Span::new(s.file, s.end as usize, s.end as usize));
        cx.diags
            .push(errors::unnamed_labelers(&c.name.name, &names, span, insert));
    }
    if !c
        .stmts
        .iter()
        .any(|s| matches!(s, ast::ContractStmt::Tools(..)))
    {
        cx.diags
            .push(errors::empty_allow_list(&c.name.name, "tools", span));
    }
    if !c
        .stmts
        .iter()
        .any(|s| matches!(s, ast::ContractStmt::Destinations(..)))
    {
        cx.diags
            .push(errors::empty_allow_list(&c.name.name, "destinations", span));
    }
    pipeline(cx, m, &mut out, c, decide);
    for t in tests {
        if let Some(t) = super::contract_tests::test(cx, m, &out, t) {
            out.tests.push(t);
        }
    }
    out
}

/// The contract's parameters and their defaults, each in `[0, 1]`.
fn params(cx: &mut Cx<'_>, out: &mut hir::Contract, c: &ast::Contract) {
    for p in &c.params {
        if let Some(first) = out.params.iter().find(|x| x.name == p.name.name) {
            cx.diags.push(rerrors::duplicate(
                "parameter",
                &p.name.name,
                p.name.loc.span(),
                first.span,
            ));
            continue;
        }
        let v = p.default.value();
        if !(0.0..=1.0).contains(&v) {
            let what = format!(
                "the default `{}` of parameter `{}`",
                p.default.text, p.name.name
            );
            cx.diags
                .push(errors::out_of_unit_msg(&what, p.default.loc.span()));
        }
        out.params.push(hir::Param {
            name: p.name.name.clone(),
            default: v,
            value: v,
            span: p.name.loc.span(),
        });
    }
}

/// The contract's statements, vocabulary first so guards and tests can
/// refer to budgets and tools; returns its `decide` block and its tests.
fn statements<'a>(
    cx: &mut Cx<'_>,
    m: usize,
    out: &mut hir::Contract,
    c: &'a ast::Contract,
) -> (Option<&'a ast::Decide>, Vec<&'a ast::Test>) {
    let mut once = Once::default();
    let mut decide: Option<&ast::Decide> = None;
    let mut tests = Vec::new();
    // Vocabulary first, so guards and tests can refer to budgets and tools.
    for stmt in &c.stmts {
        match stmt {
            ast::ContractStmt::Tools(names, loc) => {
                if once.first(cx, "`tools`", loc.span()) {
                    out.tools = super::sets::expand(cx, m, names, Kind::Tool)
                        .into_iter()
                        .map(hir::ToolId)
                        .collect();
                }
            }
            ast::ContractStmt::Destinations(names, loc) => {
                if once.first(cx, "`destinations`", loc.span()) {
                    out.destinations = super::sets::expand(cx, m, names, Kind::Destination)
                        .into_iter()
                        .map(hir::DestId)
                        .collect();
                }
            }
            ast::ContractStmt::Labelers(names, loc) => {
                if once.first(cx, "`labelers`", loc.span()) {
                    out.labelers = Some(
                        names
                            .iter()
                            .filter_map(|n| cx.lookup(m, n, Kind::Labeler).map(hir::LabelerId))
                            .collect(),
                    );
                }
            }
            ast::ContractStmt::Forbid(f) => {
                let subj = subject(f.subject);
                let cut = cx.label(subj, &f.label);
                let observers = observer_list(cx, m, &f.observers);
                if let Some(cut) = cut {
                    out.forbids.push(hir::Forbid {
                        subject: subj,
                        cut,
                        observers,
                        span: f.loc.span(),
                    });
                }
            }
            ast::ContractStmt::Threshold(t) => threshold(cx, out, &mut once, t),
            ast::ContractStmt::Budget(b) => budget(cx, out, b),
            ast::ContractStmt::Audit(a) => {
                if once.first(cx, "`audit`", a.loc.span()) {
                    out.audit = hir::Audit {
                        sinks: observer_list(cx, m, &a.sinks),
                        raw_args: a.raw_args == Some(true),
                        scrub_after_commit: a.scrub_after_commit,
                        span: Some(a.loc.span()),
                    };
                }
            }
            ast::ContractStmt::Decide(d) => {
                if once.first(cx, "`decide`", d.loc.span()) {
                    decide = Some(d);
                }
            }
            ast::ContractStmt::Test(t) => tests.push(t),
        }
    }
    (decide, tests)
}

/// The rules of the `decide` block, which must end with an unguarded default.
fn pipeline(
    cx: &mut Cx<'_>,
    m: usize,
    out: &mut hir::Contract,
    c: &ast::Contract,
    decide: Option<&ast::Decide>,
) {
    let span = c.name.loc.span();
    match decide {
        Some(d) => out.rules = rules(cx, m, out, d),
        None => cx.diags.push(errors::no_default(&c.name.name, span, None)),
    }
    // A default rule followed by more rules is still a total pipeline: the
    // rules after it are unreachable, which the lints report (W0002) with
    // the default's span, rather than "no final default rule".
    if let (Some(d), Some(last)) = (decide, out.rules.last()) {
        if !last.unguarded && !out.rules.iter().any(|r| r.unguarded) {
            cx.diags.push(errors::no_default(
                &c.name.name,
                d.loc.span(),
                Some(last.span),
            ));
        }
    } else if let Some(d) = decide {
        cx.diags
            .push(errors::no_default(&c.name.name, d.loc.span(), None));
    }
}

fn threshold(cx: &mut Cx<'_>, out: &mut hir::Contract, once: &mut Once, t: &ast::Threshold) {
    let span = t.loc.span();
    let Some(mode) = cx.mode(&t.mode) else { return };
    if !once.first(cx, &format!("the threshold for `{}`", t.mode.name), span) {
        return;
    }
    let (value, param) = match &t.value {
        ast::NumberOrParam::Number(n) => {
            let v = n.value();
            if !(0.0..=1.0).contains(&v) {
                cx.diags
                    .push(errors::out_of_unit("threshold", &n.text, n.loc.span()));
            }
            (v, None)
        }
        ast::NumberOrParam::Param(p) => match out.params.iter().position(|x| x.name == p.name) {
            Some(i) => (
                out.params.get(i).map_or(0.0, |x| x.value),
                hir::ParamId::from_index(i),
            ),
            None => {
                let names = out.params.iter().map(|x| x.name.as_str());
                cx.diags
                    .push(errors::unknown_param(&p.name, p.loc.span(), names));
                return;
            }
        },
    };
    out.thresholds.push(hir::Threshold {
        mode,
        value,
        param,
        span,
    });
}

fn budget(cx: &mut Cx<'_>, out: &mut hir::Contract, b: &ast::Budget) {
    let span = b.loc.span();
    if let Some(first) = out.budgets.iter().find(|x| x.name == b.name.name) {
        cx.diags.push(rerrors::duplicate(
            "budget",
            &b.name.name,
            b.name.loc.span(),
            first.span,
        ));
        return;
    }
    let limit = match b.limit.text.parse::<u32>() {
        Ok(n) if n >= 1 => n,
        _ => {
            cx.diags.push(errors::bad_budget(
                &b.name.name,
                &b.limit.text,
                b.limit.loc.span(),
            ));
            1
        }
    };
    let subj = subject(b.subject);
    let Some(label) = cx.label(subj, &b.label) else {
        return;
    };
    out.budgets.push(hir::Budget {
        name: b.name.name.clone(),
        limit,
        subject: subj,
        label,
        span,
    });
}

fn rules(cx: &mut Cx<'_>, m: usize, c: &hir::Contract, d: &ast::Decide) -> Vec<hir::Rule> {
    let env = Env {
        module: m,
        params: &c.params,
        budgets: &c.budgets,
        tools: &c.tools,
    };
    let mut names: HashMap<String, Span> = HashMap::new();
    let mut out = Vec::new();
    for r in &d.rules {
        if let Some(n) = &r.name {
            if let Some(first) = names.get(&n.name) {
                cx.diags
                    .push(rerrors::duplicate("rule", &n.name, n.loc.span(), *first));
            } else {
                names.insert(n.name.clone(), n.loc.span());
            }
        }
        let action = match &r.action {
            ast::Action::Allow(_) => Action::Allow,
            ast::Action::Block(_) => Action::Block,
            ast::Action::Defer(_) => Action::Defer,
            ast::Action::Rewrite(ts, _) => Action::Rewrite(
                ts.iter()
                    .filter_map(|t| cx.lookup(m, t, Kind::Transform).map(hir::TransformId))
                    .collect(),
            ),
            ast::Action::Shadow(s, _) => Action::Shadow(
                s.as_ref()
                    .and_then(|s| cx.lookup(m, s, Kind::Substitute).map(hir::SubstituteId)),
            ),
        };
        let guard = r
            .guard
            .as_ref()
            .map_or(hir::Guard::Bool(true), |g| guard::guard(cx, &env, g));
        out.push(hir::Rule {
            name: r.name.as_ref().map(|n| n.name.clone()),
            action,
            guard,
            unguarded: r.guard.is_none(),
            span: r.loc.span(),
        });
    }
    out
}
