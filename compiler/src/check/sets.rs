//! Named sets: `set search_engines { brave, duckduckgo, more_engines }`.
//!
//! A set names tools or destinations, directly or through other sets, so a
//! contract lists `tools std_tools, my_tool;` instead of repeating every
//! name. A set is checked where it is declared, whether or not a contract
//! uses it: every member names a tool, a destination or a set (`E0201`,
//! `E0203`, `E0206`), no set reaches itself (`E0207`), and a set holds tools
//! or destinations, not both (`E0208`). Where a contract lists it, a set
//! expands in the scope of the module that declares it (a set imported from
//! std names std's tools, whatever the importing file declares), and a
//! member reached twice counts once.

use super::Cx;
use crate::resolve::{errors, Binding, Decl, Kind, Resolved};
use crate::source::Span;
use crate::syntax::ast;
use std::collections::HashMap;

/// How deep sets may name sets, and contracts extend contracts.
pub(super) const MAX_DEPTH: usize = 256;

/// What a set's members are, once expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holds {
    Tools,
    Destinations,
    /// An error the set's declaration reports: a cycle, a mixture, or
    /// no member that resolves.
    Nothing,
}

impl Holds {
    fn of(kind: Kind) -> Option<Holds> {
        match kind {
            Kind::Tool => Some(Holds::Tools),
            Kind::Destination => Some(Holds::Destinations),
            _ => None,
        }
    }
}

/// Declaration `d` with its syntax, when it is a set.
fn set_decl(resolved: &Resolved, d: usize) -> Option<(&Decl, &ast::Set)> {
    let decl = resolved.decls.get(d)?;
    match resolved.item(decl)? {
        ast::Item::Set(set) => Some((decl, set)),
        _ => None,
    }
}

/// Checks every set's declaration.
pub(super) fn check(cx: &mut Cx<'_>) {
    let resolved = cx.resolved;
    let mut memo = HashMap::new();
    for d in 0..resolved.decls.len() {
        let Some((decl, set)) = set_decl(resolved, d) else {
            continue;
        };
        for m in &set.members {
            match resolved.binding(decl.module, &m.name) {
                Some(Binding::Decl(md)) => {
                    resolved.mark_used_from(decl.module, *md);
                    if let Some(found) = resolved.decls.get(*md) {
                        if !matches!(found.kind, Kind::Tool | Kind::Destination | Kind::Set) {
                            cx.diags.push(errors::wrong_kind(
                                &m.name,
                                "tool, destination or set",
                                found.kind.word(),
                                m.loc.span(),
                                found.span,
                            ));
                        }
                    }
                }
                // Both report through the resolver's own lookup: E0201 with
                // a suggestion among sets, E0206 with both declarations.
                None | Some(Binding::Ambiguous(..)) => {
                    resolved.lookup(decl.module, m, Kind::Set, cx.diags);
                }
            }
        }
        let kind = match holds(cx, d, true, &mut Vec::new(), &mut memo) {
            Holds::Tools => Kind::Tool,
            Holds::Destinations => Kind::Destination,
            Holds::Nothing => continue,
        };
        // Its members as a contract listing it gets them (`expand`), each
        // once; nothing is marked used, so an unused set stays W0001.
        let mut seen = vec![false; resolved.count(kind)];
        let mut ids = Vec::new();
        leaves(resolved, d, kind, &mut Vec::new(), &mut |i| {
            if let Some(s) = seen.get_mut(i as usize) {
                if !*s {
                    *s = true;
                    ids.push(i);
                }
            }
        });
        let (mut tools, mut destinations) = (Vec::new(), Vec::new());
        if kind == Kind::Tool {
            tools = ids.into_iter().map(crate::hir::ToolId).collect();
        } else {
            destinations = ids.into_iter().map(crate::hir::DestId).collect();
        }
        cx.program.sets.push(crate::hir::Set {
            name: set.name.name.clone(),
            tools,
            destinations,
            span: decl.span,
        });
    }
}

/// What set `d` holds; with `report`, reporting a cycle through it (once,
/// at the set of the cycle declared first) and a mixture of tools and
/// destinations.
fn holds(
    cx: &mut Cx<'_>,
    d: usize,
    report: bool,
    stack: &mut Vec<usize>,
    memo: &mut HashMap<usize, Holds>,
) -> Holds {
    if let Some(h) = memo.get(&d) {
        return *h;
    }
    let resolved = cx.resolved;
    // Sets are walked recursively: a chain of sets nested deeper than
    // `MAX_DEPTH` (generated or hostile; no deployment needs it) is E0118
    // instead of exhausting the stack, reported once per run.
    if stack.len() >= MAX_DEPTH {
        if report && memo.insert(usize::MAX, Holds::Nothing).is_none() {
            let span = resolved.decls.get(d).map(|s| s.span).unwrap_or_default();
            cx.diags
                .push(crate::syntax::too_deep_chain("sets", MAX_DEPTH, span));
        }
        return Holds::Nothing;
    }
    if let Some(at) = stack.iter().position(|s| *s == d) {
        let cycle = stack.get(at..).unwrap_or_default();
        if report && cycle.iter().min() == Some(&d) {
            let mut names: Vec<String> = cycle
                .iter()
                .filter_map(|s| resolved.decls.get(*s))
                .map(|s| s.name.clone())
                .collect();
            names.extend(names.first().cloned());
            let span = resolved.decls.get(d).map(|s| s.span).unwrap_or_default();
            cx.diags.push(errors::set_cycle(&names, span));
        }
        return Holds::Nothing;
    }
    let Some((decl, set)) = set_decl(resolved, d) else {
        return Holds::Nothing;
    };
    stack.push(d);
    let (mut tool, mut dest): (Option<Span>, Option<Span>) = (None, None);
    let mut broken = false;
    for m in &set.members {
        let Some(Binding::Decl(md)) = resolved.binding(decl.module, &m.name) else {
            continue;
        };
        let h = match resolved.decls.get(*md).map(|x| x.kind) {
            Some(Kind::Set) => holds(cx, *md, report, stack, memo),
            Some(k) => Holds::of(k).unwrap_or(Holds::Nothing),
            None => Holds::Nothing,
        };
        match h {
            Holds::Tools => tool = tool.or(Some(m.loc.span())),
            Holds::Destinations => dest = dest.or(Some(m.loc.span())),
            Holds::Nothing => {
                broken |= resolved.decls.get(*md).is_some_and(|x| x.kind == Kind::Set)
            }
        }
    }
    stack.pop();
    let h = match (tool, dest) {
        (Some(t), Some(ds)) => {
            if report {
                cx.diags
                    .push(errors::set_mixed(&decl.name, decl.span, t, ds));
            }
            Holds::Nothing
        }
        _ if broken => Holds::Nothing,
        (Some(_), None) => Holds::Tools,
        (None, Some(_)) => Holds::Destinations,
        (None, None) => Holds::Nothing,
    };
    memo.insert(d, h);
    h
}

/// The ids of the tools (`want` = [`Kind::Tool`]) or destinations a
/// contract's list names, with every set expanded, each id once, in the
/// order first reached. A name that is neither `want` nor a set is
/// reported by the resolver's lookup; a set of the other kind is `E0203`;
/// a set whose declaration has an error adds nothing (its declaration is
/// where the error is reported).
pub(super) fn expand(cx: &mut Cx<'_>, module: usize, names: &[ast::Ident], want: Kind) -> Vec<u32> {
    let resolved = cx.resolved;
    let mut seen = vec![false; resolved.count(want)];
    let mut out = Vec::new();
    let mut push = |i: u32, out: &mut Vec<u32>| {
        if let Some(s) = seen.get_mut(i as usize) {
            if !*s {
                *s = true;
                out.push(i);
            }
        }
    };
    let Some(holds_want) = Holds::of(want) else {
        return out;
    };
    for n in names {
        let set = match resolved.binding(module, &n.name) {
            Some(Binding::Decl(d)) => resolved
                .decls
                .get(*d)
                .filter(|x| x.kind == Kind::Set)
                .map(|x| (*d, x)),
            _ => None,
        };
        let Some((d, decl)) = set else {
            if let Some(i) = cx.lookup(module, n, want) {
                push(i, &mut out);
            }
            continue;
        };
        resolved.mark_used_from(module, d);
        // Quietly: the declaration's check reported its errors.
        let h = holds(cx, d, false, &mut Vec::new(), &mut HashMap::new());
        if h == holds_want {
            let mut visited = Vec::new();
            leaves(resolved, d, want, &mut visited, &mut |i| push(i, &mut out));
        } else if h != Holds::Nothing {
            let (expected, found) = match want {
                Kind::Tool => ("tool", "set of destinations"),
                _ => ("destination", "set of tools"),
            };
            cx.diags.push(errors::wrong_kind(
                &n.name,
                expected,
                found,
                n.loc.span(),
                decl.span,
            ));
        }
    }
    out
}

/// Calls `f` with each `want` id that set `d` reaches, in member order.
fn leaves(
    resolved: &Resolved,
    d: usize,
    want: Kind,
    visited: &mut Vec<usize>,
    f: &mut dyn FnMut(u32),
) {
    if visited.contains(&d) {
        return;
    }
    visited.push(d);
    let Some((decl, set)) = set_decl(resolved, d) else {
        return;
    };
    for m in &set.members {
        let Some(Binding::Decl(md)) = resolved.binding(decl.module, &m.name) else {
            continue;
        };
        match resolved.decls.get(*md) {
            Some(x) if x.kind == want => f(x.index),
            Some(x) if x.kind == Kind::Set => leaves(resolved, *md, want, visited, f),
            _ => {}
        }
    }
}
