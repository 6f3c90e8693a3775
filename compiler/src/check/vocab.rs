//! The program-wide vocabulary: lattices, modes, effect classes, channels.

use super::{errors, lattice, Cx};
use crate::diagnostics::Diagnostic;
use crate::hir::{self, LabelId, LatticeId};
use crate::resolve::{errors as rerrors, Kind};
use crate::source::Span;
use crate::syntax::ast;
use std::collections::HashMap;

pub(crate) fn check(cx: &mut Cx<'_>) {
    lattices(cx);
    enums(cx);
    channels(cx);
}

fn lattices(cx: &mut Cx<'_>) {
    let decls: Vec<_> = cx.resolved.of_kind(Kind::Lattice).collect();
    let mut claims: Vec<(LatticeId, bool)> = Vec::new();
    for decl in decls {
        let Some(ast::Item::Lattice(l)) = cx.resolved.item(decl) else {
            cx.diags.push(Diagnostic::internal(
                decl.span,
                "a lattice declaration is not a lattice",
            ));
            continue;
        };
        let Some(id) = cx.next_id(cx.program.lattices.len(), decl.span, LatticeId::from_index)
        else {
            continue;
        };
        let first = cx.program.labels.len();
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut names: Vec<&ast::Ident> = Vec::new();
        let mut edges = Vec::new();
        for chain in &l.chains {
            for (pair, op) in chain.labels.windows(2).zip(&chain.ops) {
                if let ([below, above], "<=") = (pair, op.as_str()) {
                    let (b, a) = (below.loc.span(), above.loc.span());
                    let between = crate::Span::new(b.file, b.end as usize, a.start as usize);
                    cx.diags.push(errors::chain_leq(between));
                }
            }
            let mut prev: Option<usize> = None;
            for label in &chain.labels {
                let i = *index.entry(label.name.as_str()).or_insert_with(|| {
                    names.push(label);
                    names.len() - 1
                });
                if let Some(p) = prev {
                    edges.push((p, i));
                }
                prev = Some(i);
            }
        }
        for name in &names {
            cx.program.labels.push(hir::Label {
                name: name.name.clone(),
                lattice: id,
                span: name.loc.span(),
            });
        }
        let labels: Vec<LabelId> = (first..cx.program.labels.len())
            .filter_map(LabelId::from_index)
            .collect();
        let word = |i: usize| names.get(i).map_or("?".to_string(), |n| n.name.clone());
        let span = l.name.loc.span();
        let tables = match lattice::build(names.len(), &edges) {
            Ok(t) => Some(t),
            Err(errs) => {
                for e in errs {
                    cx.diags.push(lattice_error(&l.name.name, &e, span, &word));
                }
                None
            }
        };
        let role = l.role.map(|r| match r {
            ast::Subject::Args => hir::Subject::Args,
            ast::Subject::Destination => hir::Subject::Destination,
        });
        if role.is_some() {
            let is_std = cx
                .resolved
                .modules
                .get(decl.module)
                .is_some_and(|m| m.is_std);
            claims.push((id, is_std));
        }
        let at = |i: Option<usize>| i.and_then(|i| labels.get(i).copied());
        let lattice = match tables {
            Some(t) => hir::Lattice {
                name: l.name.name.clone(),
                role,
                bottom: at(t.bottom()),
                top: at(t.top()),
                total: t.is_total(),
                leq_table: t.leq,
                join_table: t.join,
                meet_table: t.meet,
                labels,
                span,
            },
            None => hir::Lattice {
                name: l.name.name.clone(),
                role,
                labels,
                leq_table: Vec::new(),
                join_table: Vec::new(),
                meet_table: Vec::new(),
                bottom: None,
                top: None,
                total: false,
                span,
            },
        };
        cx.program.lattices.push(lattice);
    }
    assign_roles(cx, &claims);
}

/// Gives each role to one lattice: the standard library's when it declares
/// one (so a conflict is reported in the user's file), else the first.
fn assign_roles(cx: &mut Cx<'_>, claims: &[(LatticeId, bool)]) {
    for (role, word) in [
        (hir::Subject::Args, "args"),
        (hir::Subject::Destination, "destination"),
    ] {
        let mine: Vec<(LatticeId, bool)> = claims
            .iter()
            .copied()
            .filter(|(id, _)| {
                cx.program
                    .lattice(*id)
                    .is_some_and(|l| l.role == Some(role))
            })
            .collect();
        let Some((chosen, _)) = mine
            .iter()
            .find(|(_, s)| *s)
            .or_else(|| mine.first())
            .copied()
        else {
            continue;
        };
        match role {
            hir::Subject::Args => cx.program.arg_lattice = Some(chosen),
            hir::Subject::Destination => cx.program.dest_lattice = Some(chosen),
        }
        let Some(first) = cx.program.lattice(chosen).cloned() else {
            continue;
        };
        for (other, _) in mine.iter().filter(|(id, _)| *id != chosen) {
            if let Some(l) = cx.program.lattice(*other) {
                let d = errors::second_role_lattice(word, &l.name, l.span, &first.name, first.span);
                cx.diags.push(d);
            }
        }
    }
}

fn lattice_error(
    name: &str,
    e: &lattice::LatticeError,
    span: Span,
    word: &dyn Fn(usize) -> String,
) -> Diagnostic {
    let why = |w: &lattice::Why, up: bool| match w {
        lattice::Why::NoBound => {
            if up {
                "have no common upper bound".to_string()
            } else {
                "have no common lower bound".to_string()
            }
        }
        lattice::Why::Ambiguous(x, y) => format!(
            "have two {} common {} bounds, `{}` and `{}`",
            if up { "minimal" } else { "maximal" },
            if up { "upper" } else { "lower" },
            word(*x),
            word(*y)
        ),
    };
    match e {
        lattice::LatticeError::Cycle(c) => {
            let mut labels: Vec<String> = c.iter().map(|i| word(*i)).collect();
            if let Some(first) = labels.first().cloned() {
                labels.push(first);
            }
            errors::lattice_cycle(name, &labels, span)
        }
        lattice::LatticeError::NoJoin(a, b, w) => {
            errors::no_join(name, &word(*a), &word(*b), &why(w, true), span)
        }
        lattice::LatticeError::NoMeet(a, b, w) => {
            errors::no_meet(name, &word(*a), &word(*b), &why(w, false), span)
        }
    }
}

fn enums(cx: &mut Cx<'_>) {
    let decls: Vec<_> = cx.resolved.of_kind(Kind::Enum).collect();
    let mut special: HashMap<&str, Span> = HashMap::new();
    for decl in decls {
        let Some(ast::Item::Enum(e)) = cx.resolved.item(decl) else {
            cx.diags.push(Diagnostic::internal(
                decl.span,
                "an enum declaration is not an enum",
            ));
            continue;
        };
        let mut seen: HashMap<&str, Span> = HashMap::new();
        let mut values = Vec::new();
        for v in &e.values {
            if let Some(first) = seen.get(v.name.as_str()) {
                cx.diags
                    .push(rerrors::duplicate("value", &v.name, v.loc.span(), *first));
                continue;
            }
            seen.insert(&v.name, v.loc.span());
            values.push(v);
        }
        let span = e.name.loc.span();
        if matches!(e.name.name.as_str(), "Mode" | "Effect") {
            if let Some(first) = special.get(e.name.name.as_str()) {
                cx.diags.push(errors::repeated(
                    &format!("`enum {}`", e.name.name),
                    span,
                    *first,
                ));
            } else {
                special.insert(&e.name.name, span);
                for v in &values {
                    let (name, span) = (v.name.clone(), v.loc.span());
                    if e.name.name == "Mode" {
                        let Some(id) =
                            cx.next_id(cx.program.modes.len(), span, hir::ModeId::from_index)
                        else {
                            continue;
                        };
                        if name == "committed" {
                            cx.program.committed = Some(id);
                        }
                        cx.modes.insert(name.clone(), id);
                        cx.program.modes.push(hir::Mode { name, span });
                    } else if let Some(id) =
                        cx.next_id(cx.program.effects.len(), span, hir::EffectId::from_index)
                    {
                        cx.effects.insert(name.clone(), id);
                        cx.program.effects.push(hir::Effect { name, span });
                    }
                }
            }
        }
        cx.program.enums.push(hir::Enum {
            name: e.name.name.clone(),
            values: values.iter().map(|v| v.name.clone()).collect(),
            span,
        });
    }
}

fn channels(cx: &mut Cx<'_>) {
    let mut first: Option<Span> = None;
    for module in &cx.resolved.modules {
        for item in &module.ast.items {
            let ast::Item::Channels(c) = item else {
                continue;
            };
            let span = c.loc.span();
            if let Some(f) = first {
                cx.diags
                    .push(errors::repeated("`channels { ... }`", span, f));
                continue;
            }
            first = Some(span);
            let mut seen: HashMap<&str, Span> = HashMap::new();
            for n in &c.names {
                if let Some(f) = seen.get(n.name.as_str()) {
                    cx.diags
                        .push(rerrors::duplicate("channel", &n.name, n.loc.span(), *f));
                    continue;
                }
                seen.insert(&n.name, n.loc.span());
                let Some(id) = cx.next_id(
                    cx.program.channels.len(),
                    n.loc.span(),
                    hir::ChannelId::from_index,
                ) else {
                    continue;
                };
                cx.channels.insert(n.name.clone(), id);
                cx.program.channels.push(hir::Channel {
                    name: n.name.clone(),
                    span: n.loc.span(),
                });
            }
        }
    }
}
