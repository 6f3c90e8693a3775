//! The order contracts are checked in: each after the contract it
//! `extends`, so an extension starts from its checked parent
//! (`contract::contract`). A cycle of `extends` is `E0209`, once per cycle;
//! a chain deeper than `sets::MAX_DEPTH` is `E0118`, since the walk is
//! recursive. The program keeps the contracts in declaration order.

use super::contract::{contract, Parent};
use super::Cx;
use crate::diagnostics::Diagnostic;
use crate::hir;
use crate::resolve::{errors as rerrors, Kind};
use crate::source::Span;
use crate::syntax::ast;

/// Checks every contract, each after the one it extends.
pub(crate) fn check(cx: &mut Cx<'_>) {
    let r = cx.resolved;
    let decls: Vec<(usize, Span, Option<&ast::Contract>)> = r
        .of_kind(Kind::Contract)
        .map(|d| match r.item(d) {
            Some(ast::Item::Contract(c)) => (d.module, d.span, Some(c)),
            _ => (d.module, d.span, None),
        })
        .collect();
    let parents = parents(cx, &decls);
    // Each contract is checked after the one it extends: `done[i]` is its
    // result, `Parent::Broken` when what it extends could not be checked.
    let mut done: Vec<Option<hir::Contract>> = vec![None; decls.len()];
    let mut state = vec![Visit::New; decls.len()];
    for i in 0..decls.len() {
        visit(cx, &decls, &parents, &mut done, &mut state, i, 0);
    }
    cx.program.contracts = done.into_iter().flatten().collect();
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    New,
    /// On the path being checked: reaching it again is a cycle (`E0209`).
    Open,
    /// Checked, or found on a cycle and checked without a parent.
    Closed,
}

fn set(state: &mut [Visit], i: usize, to: Visit) {
    if let Some(s) = state.get_mut(i) {
        *s = to;
    }
}

/// The contract each contract's `extends` names, by contract index
/// (`Some(None)` when it names one that does not resolve).
fn parents(
    cx: &mut Cx<'_>,
    decls: &[(usize, Span, Option<&ast::Contract>)],
) -> Vec<Option<Option<usize>>> {
    decls
        .iter()
        .map(|(m, _, c)| {
            let path = c.and_then(|c| c.extends.as_ref())?;
            let found = cx.resolved.extended(*m, path, cx.diags);
            Some(found.map(|f| f.index as usize))
        })
        .collect()
}

fn visit(
    cx: &mut Cx<'_>,
    decls: &[(usize, Span, Option<&ast::Contract>)],
    parents: &[Option<Option<usize>>],
    done: &mut [Option<hir::Contract>],
    state: &mut [Visit],
    i: usize,
    depth: usize,
) {
    if state.get(i) != Some(&Visit::New) {
        return;
    }
    let Some(&(module, span, c)) = decls.get(i) else {
        return;
    };
    let Some(c) = c else {
        cx.diags.push(Diagnostic::internal(span, "not a contract"));
        set(state, i, Visit::Closed);
        return;
    };
    set(state, i, Visit::Open);
    let parent = match parents.get(i).copied().flatten() {
        None => Some(None),
        Some(None) => None,
        Some(Some(p)) => {
            if state.get(p) == Some(&Visit::Open) {
                cycle(cx, decls, parents, i);
                None
            } else if depth >= super::sets::MAX_DEPTH && state.get(p) == Some(&Visit::New) {
                // The walk is recursive: a chain of `extends` deeper than
                // any deployment needs is E0118, not an exhausted stack.
                let at = c
                    .extends
                    .as_ref()
                    .and_then(|p| Some(p.first()?.loc.span().to(p.last()?.loc.span())))
                    .unwrap_or(span);
                cx.diags.push(crate::syntax::too_deep_chain(
                    "contracts extending contracts",
                    super::sets::MAX_DEPTH,
                    at,
                ));
                None
            } else {
                visit(cx, decls, parents, done, state, p, depth + 1);
                done.get(p).and_then(Option::as_ref).map(Some)
            }
        }
    };
    let parent = match parent {
        Some(None) => Parent::None,
        Some(Some(p)) => Parent::Contract(Box::new(p.clone())),
        None => Parent::Broken,
    };
    // `visit` of the parent may have closed this one on a cycle through it.
    if state.get(i) == Some(&Visit::Open) {
        let out = contract(cx, module, c, parent);
        if let Some(slot) = done.get_mut(i) {
            *slot = Some(out);
        }
        set(state, i, Visit::Closed);
    }
}

/// `E0209`, once per cycle: `to` extends a contract still being checked,
/// so the chain of `extends` from `to` comes back to it. Reported at the
/// contract of the cycle declared first, whichever was reached first.
fn cycle(
    cx: &mut Cx<'_>,
    decls: &[(usize, Span, Option<&ast::Contract>)],
    parents: &[Option<Option<usize>>],
    to: usize,
) {
    let mut members = vec![to];
    while let Some(Some(Some(p))) = members.last().and_then(|m| parents.get(*m)) {
        if *p == to || members.len() > decls.len() {
            break;
        }
        members.push(*p);
    }
    let first = members
        .iter()
        .position(|m| Some(m) == members.iter().min())
        .unwrap_or(0);
    members.rotate_left(first);
    let contract = |i: usize| decls.get(i).and_then(|d| d.2);
    let mut chain: Vec<String> = members
        .iter()
        .filter_map(|i| contract(*i).map(|c| c.name.name.clone()))
        .collect();
    if let Some(head) = chain.first().cloned() {
        chain.push(head);
    }
    let span = members
        .first()
        .and_then(|i| contract(*i))
        .and_then(|c| c.extends.as_ref())
        .and_then(|p| Some(p.first()?.loc.span().to(p.last()?.loc.span())))
        .unwrap_or_default();
    cx.diags.push(rerrors::extends_cycle(&chain, span));
}
