//! Contracts: allow-lists, cuts, thresholds, budgets, audit, the pipeline
//! and tests.

use super::decls::{observer_list, subject};
use super::guard::{self, Env};
use super::{errors, Cx};
use crate::hir::{self, Action};
use crate::resolve::{errors as rerrors, Kind};
use crate::source::Span;
use crate::syntax::ast;
use std::collections::HashMap;

/// What a contract inherits from.
pub(super) enum Parent {
    /// It extends nothing.
    None,
    /// The checked contract it extends.
    Contract(Box<hir::Contract>),
    /// It extends a contract that could not be resolved or is on a cycle,
    /// which was reported: check its own statements without asking for
    /// what it would have inherited.
    Broken,
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

pub(super) fn contract(
    cx: &mut Cx<'_>,
    m: usize,
    c: &ast::Contract,
    parent: Parent,
) -> hir::Contract {
    let span = c.name.loc.span();
    let inherits = !matches!(parent, Parent::None);
    // An extending contract starts as a copy of what it extends: every id
    // in it is program-wide, so its guards, cuts and thresholds mean the
    // same here. Tests are not inherited: they state what the parent
    // decides, which the child's additions may change.
    let mut out = match parent {
        Parent::Contract(p) => hir::Contract {
            name: c.name.name.clone(),
            extends: Some(p.name.clone()),
            tests: Vec::new(),
            span,
            ..*p
        },
        Parent::None | Parent::Broken => hir::Contract {
            name: c.name.name.clone(),
            extends: None,
            params: Vec::new(),
            tools: Vec::new(),
            destinations: Vec::new(),
            undeclared_destinations: false,
            labelers: None,
            forbids: Vec::new(),
            thresholds: Vec::new(),
            budgets: Vec::new(),
            audit: hir::Audit::default(),
            rules: Vec::new(),
            tests: Vec::new(),
            span,
        },
    };
    params(cx, &mut out, c);
    let (decide, tests) = statements(cx, m, &mut out, c, inherits);
    if !inherits {
        missing(cx, &out, c);
    }
    pipeline(cx, m, &mut out, c, decide, inherits);
    for t in tests {
        if let Some(t) = super::contract_tests::test(cx, m, &out, t) {
            out.tests.push(t);
        }
    }
    out
}

/// What a contract that extends nothing must say: its allow-lists and
/// its labelers.
fn missing(cx: &mut Cx<'_>, out: &hir::Contract, c: &ast::Contract) {
    let span = c.name.loc.span();
    if out.labelers.is_none() && !cx.program.labelers.is_empty() {
        let names: Vec<String> = cx.program.labelers.iter().map(|l| l.name.clone()).collect();
        let after = c.stmts.iter().rev().find_map(|s| match s {
            ast::ContractStmt::Destinations(list) | ast::ContractStmt::Tools(list) => {
                Some(list.loc.span())
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
}

/// The contract's parameters and their defaults, each in `[0, 1]`. A
/// parameter of the contract it extends keeps its place (thresholds refer
/// to it by position) and takes the new default.
fn params(cx: &mut Cx<'_>, out: &mut hir::Contract, c: &ast::Contract) {
    let inherited = out.params.len();
    for p in &c.params {
        if let Some(first) = out
            .params
            .iter()
            .skip(inherited)
            .find(|x| x.name == p.name.name)
        {
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
        let param = hir::Param {
            name: p.name.name.clone(),
            default: v,
            value: v,
            span: p.name.loc.span(),
        };
        match out.params.iter_mut().find(|x| x.name == p.name.name) {
            Some(old) => *old = param,
            None => out.params.push(param),
        }
    }
    for t in &mut out.thresholds {
        if let Some(p) = t.param.and_then(|p| out.params.get(p.index())) {
            t.value = p.value;
        }
    }
}

/// The contract's statements, vocabulary first so guards and tests can
/// refer to budgets and tools; returns its `decide` block and its tests.
///
/// In a contract that extends another, `tools +=` and `destinations +=`
/// add to the inherited lists, `forbid` and `budget` add to the inherited
/// ones, and every other statement (`tools`, `destinations`, `labelers`,
/// `audit`, a mode's `threshold`) takes the place of the inherited one.
fn statements<'a>(
    cx: &mut Cx<'_>,
    m: usize,
    out: &mut hir::Contract,
    c: &'a ast::Contract,
    inherits: bool,
) -> (Option<&'a ast::Decide>, Vec<&'a ast::Test>) {
    let mut once = Once::default();
    let mut decide: Option<&ast::Decide> = None;
    let mut tests = Vec::new();
    // Vocabulary first, so guards and tests can refer to budgets and tools.
    for stmt in &c.stmts {
        match stmt {
            ast::ContractStmt::Tools(list) => {
                if once.first(cx, "`tools`", list.loc.span()) {
                    let ids = allow_list(cx, m, c, list, inherits, "tools", Kind::Tool);
                    let ids = ids.into_iter().map(hir::ToolId);
                    if !list.extend {
                        out.tools.clear();
                    }
                    for id in ids {
                        if !out.tools.contains(&id) {
                            out.tools.push(id);
                        }
                    }
                }
            }
            ast::ContractStmt::Destinations(list) => {
                if once.first(cx, "`destinations`", list.loc.span()) {
                    let kind = Kind::Destination;
                    let ids = allow_list(cx, m, c, list, inherits, "destinations", kind);
                    let ids = ids.into_iter().map(hir::DestId);
                    if !list.extend {
                        out.destinations.clear();
                        out.undeclared_destinations = false;
                    }
                    if list.names.iter().any(|n| n.name == UNDECLARED) {
                        out.undeclared_destinations = true;
                    }
                    for id in ids {
                        if !out.destinations.contains(&id) {
                            out.destinations.push(id);
                        }
                    }
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
                let mut unless: Vec<hir::ModeId> = Vec::new();
                for mode in f.unless.iter().filter_map(|n| cx.mode(n)) {
                    if !unless.contains(&mode) {
                        unless.push(mode);
                    }
                }
                if let Some(cut) = cut {
                    out.forbids.push(hir::Forbid {
                        subject: subj,
                        cut,
                        observers,
                        unless,
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
                        withhold_destination: a
                            .withheld
                            .iter()
                            .any(|(w, _)| *w == ast::Withheld::Destination),
                        withhold_labels: a
                            .withheld
                            .iter()
                            .any(|(w, _)| *w == ast::Withheld::Labels),
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

/// The members of a `tools` or `destinations` statement; `E0426` for `+=`
/// with nothing inherited (the names still count, as if `+=` were not
/// there).
fn allow_list(
    cx: &mut Cx<'_>,
    m: usize,
    c: &ast::Contract,
    list: &ast::AllowList,
    inherits: bool,
    what: &str,
    kind: Kind,
) -> Vec<u32> {
    if list.extend && !inherits {
        cx.diags.push(errors::nothing_to_extend(
            &c.name.name,
            what,
            list.loc.span(),
        ));
    }
    // `undeclared` in a destinations list is not a name but the
    // destinations nobody declared (see `hir::Contract::undeclared_destinations`).
    let names: Vec<ast::Ident> = list
        .names
        .iter()
        .filter(|n| !(kind == Kind::Destination && n.name == UNDECLARED))
        .cloned()
        .collect();
    super::sets::expand(cx, m, &names, kind)
}

/// The word that, in a `destinations` list, allows undeclared destinations.
pub(crate) const UNDECLARED: &str = "undeclared";

/// The rules of the `decide` block, which must end with an unguarded default.
///
/// An extending contract's rules run after every inherited rule but the
/// inherited default, and a default of its own takes that one's place; its
/// guarded `block` rules alone run earlier, ahead of the first inherited
/// rule that can dispatch (ALLOW, REWRITE, SHADOW). So an extension can
/// tighten its parent anywhere (a BLOCK is never weaker than what it
/// pre-empts) and refine what the parent lets through, but nothing of it
/// that can dispatch sees an event before the parent's rules have. With no
/// `decide` block it keeps the inherited pipeline.
fn pipeline(
    cx: &mut Cx<'_>,
    m: usize,
    out: &mut hir::Contract,
    c: &ast::Contract,
    decide: Option<&ast::Decide>,
    inherits: bool,
) {
    let span = c.name.loc.span();
    let mut inherited = std::mem::take(&mut out.rules);
    let default = match inherited.last() {
        Some(last) if last.unguarded => inherited.pop(),
        _ => None,
    };
    let own = match decide {
        Some(d) => rules(cx, m, out, &inherited, d),
        None => Vec::new(),
    };
    let own_default = own.iter().any(|r| r.unguarded);
    // Guarded BLOCKs go ahead of the first inherited rule that can
    // dispatch: blocking is never weaker than what it pre-empts.
    let (blocks, rest): (Vec<hir::Rule>, Vec<hir::Rule>) = own
        .into_iter()
        .partition(|r| inherits && !r.unguarded && r.action == Action::Block);
    let at = inherited
        .iter()
        .position(|r| !matches!(r.action, Action::Block | Action::Defer))
        .unwrap_or(inherited.len());
    out.rules = inherited;
    out.rules.splice(at..at, blocks);
    out.rules.extend(rest);
    if !own_default {
        out.rules.extend(default);
    }
    if inherits {
        return;
    }
    // A default rule followed by more rules is still a total pipeline: the
    // rules after it are unreachable, which the lints report (W0002) with
    // the default's span, rather than "no final default rule".
    match (decide, out.rules.last()) {
        (None, _) => cx.diags.push(errors::no_default(&c.name.name, span, None)),
        (Some(d), None) => cx
            .diags
            .push(errors::no_default(&c.name.name, d.loc.span(), None)),
        (Some(d), Some(last)) => {
            if !own_default {
                cx.diags.push(errors::no_default(
                    &c.name.name,
                    d.loc.span(),
                    Some(last.span),
                ));
            }
        }
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
    // One threshold per mode: this one takes the place of an inherited one.
    out.thresholds.retain(|x| x.mode != mode);
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

fn rules(
    cx: &mut Cx<'_>,
    m: usize,
    c: &hir::Contract,
    inherited: &[hir::Rule],
    d: &ast::Decide,
) -> Vec<hir::Rule> {
    let env = Env {
        module: m,
        params: &c.params,
        budgets: &c.budgets,
        tools: &c.tools,
    };
    // Rule names are how tests, `stpc why` and audit records name a rule:
    // an extension may not reuse an inherited one.
    let mut names: HashMap<String, Span> = inherited
        .iter()
        .filter_map(|r| Some((r.name.clone()?, r.span)))
        .collect();
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
            ast::Action::Rewrite(rw, _) => Action::Rewrite(hir::Rewrite {
                transforms: rw
                    .transforms
                    .iter()
                    .filter_map(|t| cx.lookup(m, t, Kind::Transform).map(hir::TransformId))
                    .collect(),
                scope: rw
                    .scope
                    .as_ref()
                    .and_then(|l| cx.label(hir::Subject::Args, l)),
                reissue: matches!(rw.on_promote, Some((ast::PromoteMode::Reissue, _))),
            }),
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
