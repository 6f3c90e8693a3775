//! The table's vocabulary: lattices, tools, destinations, observers, cuts,
//! thresholds, budgets, audit policy, substitutes, transforms and lexicons,
//! each renumbered densely into the table.
//!
//! Only what the table can reach is kept: the tools and destinations of the
//! domain, the substitutes of those tools and of SHADOW rules, the
//! transforms REWRITE rules name, and the lexicons those transforms and the
//! labelers read. Observers are kept whole (they are few, and cuts, audit
//! sinks and substitutes all index them). Every list is in declaration order
//! of the program, so the output does not depend on hashing.

use std::collections::BTreeSet;

use super::domain::Domain;
use super::errors;
use crate::diagnostics::Diagnostic;
use crate::hir::{self, Subject};
use crate::source::Span;
use stpc_runtime::table as t;

/// Dense renumbering of program ids into table indices.
#[derive(Default)]
pub(crate) struct Index {
    pub(crate) substitutes: Vec<hir::SubstituteId>,
    pub(crate) transforms: Vec<hir::TransformId>,
    pub(crate) lexicons: Vec<hir::LexiconId>,
}

fn position<T: PartialEq>(v: &[T], x: &T) -> Option<u32> {
    v.iter()
        .position(|y| y == x)
        .and_then(|i| u32::try_from(i).ok())
}

/// A table index the checker guarantees (a label of a checked lattice, a
/// tool of the domain, ...). A checked program always has one; when it does
/// not, the compiler has a bug: report E0900 at `span` and give a
/// placeholder, since a lowering with errors builds no table.
pub(crate) fn must(v: Option<u32>, span: Span, what: &str, out: &mut Vec<Diagnostic>) -> u32 {
    v.unwrap_or_else(|| {
        out.push(Diagnostic::internal(
            span,
            format!("{what} has no table index"),
        ));
        0
    })
}

/// A local index as a table index.
fn small(i: usize) -> Option<u32> {
    u32::try_from(i).ok()
}

impl Index {
    pub(crate) fn substitute(&self, id: hir::SubstituteId) -> Option<u32> {
        position(&self.substitutes, &id)
    }

    pub(crate) fn transform(&self, id: hir::TransformId) -> Option<u32> {
        position(&self.transforms, &id)
    }

    pub(crate) fn lexicon(&self, id: hir::LexiconId) -> Option<u32> {
        position(&self.lexicons, &id)
    }
}

/// Chooses the substitutes, transforms and lexicons the table carries.
pub(crate) fn index(p: &hir::Program, c: &hir::Contract, d: &Domain) -> Index {
    let mut subs = BTreeSet::new();
    let mut trs = BTreeSet::new();
    for tool in d.tools.iter().filter_map(|id| p.tool(*id)) {
        subs.extend(tool.substitute);
    }
    for rule in &c.rules {
        match &rule.action {
            hir::Action::Shadow(Some(s)) => {
                subs.insert(*s);
            }
            hir::Action::Rewrite(rw) => trs.extend(rw.transforms.iter().copied()),
            hir::Action::Allow
            | hir::Action::Block
            | hir::Action::Defer
            | hir::Action::Shadow(None) => {}
        }
    }
    // Substitutes stand in for a tool of the table.
    subs.retain(|s| {
        p.substitute(*s)
            .and_then(|s| s.tool)
            .is_some_and(|t| d.tools.contains(&t))
    });
    let mut lex = BTreeSet::new();
    for tr in trs.iter().filter_map(|id| p.transform(*id)) {
        for step in &tr.steps {
            if let hir::Step::ReplaceLexicon(l, _) = step {
                lex.insert(*l);
            }
        }
    }
    let used = (0u32..)
        .zip(&p.labelers)
        .filter(|(id, _)| c.uses_labeler(hir::LabelerId(*id)))
        .map(|(_, l)| l);
    for labeler in used {
        for m in labeler
            .rules
            .iter()
            .flat_map(|r| r.when.iter().chain(&r.unless))
        {
            if let hir::Matcher::Lexicon(ls) | hir::Matcher::Terms(ls) | hir::Matcher::Parts(ls) = m
            {
                lex.extend(ls.iter().copied());
            }
        }
    }
    Index {
        substitutes: subs.into_iter().collect(),
        transforms: trs.into_iter().collect(),
        lexicons: lex.into_iter().collect(),
    }
}

/// A lattice with its dense join table (local indices).
pub(crate) fn lattice(l: &hir::Lattice, p: &hir::Program, out: &mut Vec<Diagnostic>) -> t::Lattice {
    let n = l.len();
    let mut join = Vec::with_capacity(n);
    for i in 0..n {
        let row = (0..n)
            .map(|j| {
                let what = format!("the join of labels {i} and {j} of `{}`", l.name);
                must(l.join_table.get(i * n + j).copied(), l.span, &what, out)
            })
            .collect();
        join.push(row);
    }
    t::Lattice {
        name: l.name.clone(),
        labels: l
            .labels
            .iter()
            .map(|id| p.label_name(*id).to_owned())
            .collect(),
        join,
        bottom: must(
            l.bottom.and_then(|b| l.local(b)).and_then(small),
            l.span,
            &format!("the bottom of `{}`", l.name),
            out,
        ),
    }
}

/// A label's index in its role lattice; `None` when it is not in it.
pub(crate) fn local(p: &hir::Program, subject: Subject, id: hir::LabelId) -> Option<u32> {
    let lat = match subject {
        Subject::Args => p.args(),
        Subject::Destination => p.dests(),
    };
    lat.and_then(|l| l.local(id)).and_then(small)
}

/// A label's index in its role lattice, or E0900 (see [`must`]).
pub(crate) fn label(
    p: &hir::Program,
    subject: Subject,
    id: hir::LabelId,
    span: Span,
    out: &mut Vec<Diagnostic>,
) -> u32 {
    let what = format!("label `{}`", p.label_name(id));
    must(local(p, subject, id), span, &what, out)
}

pub(crate) fn subject(s: Subject) -> t::Subject {
    match s {
        Subject::Args => t::Subject::Args,
        Subject::Destination => t::Subject::Destination,
    }
}

/// A field type, or `None` for the checker's recovery type.
pub(crate) fn field_type(ty: &hir::Type) -> Option<t::FieldType> {
    Some(match ty {
        hir::Type::Text => t::FieldType::Text,
        hir::Type::Entity => t::FieldType::Entity,
        hir::Type::Time => t::FieldType::Time,
        hir::Type::Number => t::FieldType::Number,
        hir::Type::Enum(values) => t::FieldType::Enum {
            values: values.clone(),
        },
        hir::Type::List(item) => t::FieldType::List {
            item: Box::new(field_type(item)?),
        },
        hir::Type::Error => return None,
    })
}

pub(crate) fn address_kind(k: hir::AddressKind) -> t::AddressKind {
    match k {
        hir::AddressKind::Host => t::AddressKind::Host,
        hir::AddressKind::Url => t::AddressKind::Url,
        hir::AddressKind::Collection => t::AddressKind::Collection,
    }
}

/// The tools of the domain.
pub(crate) fn tools(
    p: &hir::Program,
    d: &Domain,
    ix: &Index,
    out: &mut Vec<Diagnostic>,
) -> Vec<t::Tool> {
    let mut tools = Vec::with_capacity(d.tools.len());
    for tool in d.tools.iter().filter_map(|id| p.tool(*id)) {
        let mut args = Vec::with_capacity(tool.fields.len());
        for f in &tool.fields {
            match field_type(&f.ty) {
                Some(ty) => args.push(t::ArgField {
                    name: f.name.clone(),
                    ty,
                }),
                None => out.push(Diagnostic::internal(
                    f.span,
                    "a field type was not resolved",
                )),
            }
        }
        tools.push(t::Tool {
            name: tool.name.clone(),
            effect: tool
                .effect
                .and_then(|e| p.effects.get(e.index()))
                .map(|e| e.name.clone())
                .unwrap_or_default(),
            args,
            destinations: tool
                .destinations
                .iter()
                .filter_map(|x| position(&d.dests, x))
                .collect(),
            substitute: tool.substitute.and_then(|s| ix.substitute(s)),
        });
    }
    tools
}

/// The destinations of the domain.
pub(crate) fn destinations(
    p: &hir::Program,
    d: &Domain,
    out: &mut Vec<Diagnostic>,
) -> Vec<t::Destination> {
    let mut dests = Vec::with_capacity(d.dests.len());
    for dest in d.dests.iter().filter_map(|id| p.destination(*id)) {
        let label = dest.label.and_then(|l| local(p, Subject::Destination, l));
        let (Some(address), Some(label)) = (dest.addresses.first(), label) else {
            out.push(Diagnostic::internal(
                dest.span,
                "a destination has no address or no label",
            ));
            continue;
        };
        if dest.addresses.len() > 1 {
            out.push(errors::extra_addresses(&dest.name, dest.span));
        }
        dests.push(t::Destination {
            name: dest.name.clone(),
            address: t::Address {
                kind: address_kind(address.kind),
                value: address.value.clone(),
            },
            label,
            observers: dest.observers.iter().map(|o| o.0).collect(),
        });
    }
    dests
}

/// Every observer of the program.
pub(crate) fn observers(p: &hir::Program) -> Vec<t::Observer> {
    p.observers
        .iter()
        .map(|o| t::Observer {
            name: o.name.clone(),
            locality: if o.external {
                t::Locality::External
            } else {
                t::Locality::Internal
            },
            sees: o
                .sees
                .iter()
                .filter_map(|c| p.channels.get(c.index()))
                .map(|c| c.name.clone())
                .collect(),
        })
        .collect()
}

/// Forbidden cuts, thresholds, budgets and the audit policy.
pub(crate) fn policy(
    p: &hir::Program,
    c: &hir::Contract,
    out: &mut Vec<Diagnostic>,
) -> (
    Vec<t::ForbidCut>,
    Vec<t::Threshold>,
    Vec<t::Budget>,
    t::AuditPolicy,
) {
    let forbid = c
        .forbids
        .iter()
        .map(|f| t::ForbidCut {
            subject: subject(f.subject),
            label: label(p, f.subject, f.cut, f.span, out),
            observers: f.observers.iter().map(|o| o.0).collect(),
            unless: f.unless.iter().map(|m| m.0).collect(),
        })
        .collect();
    let thresholds = c
        .thresholds
        .iter()
        .map(|th| t::Threshold {
            mode: th.mode.0,
            value: th.value,
        })
        .collect();
    let budgets = c
        .budgets
        .iter()
        .map(|b| t::Budget {
            name: b.name.clone(),
            limit: b.limit,
            subject: subject(b.subject),
            at_least: label(p, b.subject, b.label, b.span, out),
        })
        .collect();
    let audit = t::AuditPolicy {
        sinks: c.audit.sinks.iter().map(|o| o.0).collect(),
        raw_args: c.audit.raw_args,
        withhold_destination: c.audit.withhold_destination,
        withhold_labels: c.audit.withhold_labels,
        scrub_after_commit: c.audit.scrub_after_commit,
    };
    (forbid, thresholds, budgets, audit)
}

/// The substitutes the table carries.
pub(crate) fn substitutes(
    p: &hir::Program,
    d: &Domain,
    ix: &Index,
    out: &mut Vec<Diagnostic>,
) -> Vec<t::Substitute> {
    ix.substitutes
        .iter()
        .filter_map(|id| p.substitute(*id))
        .map(|s| t::Substitute {
            name: s.name.clone(),
            tool: must(
                s.tool.and_then(|tool| position(&d.tools, &tool)),
                s.span,
                &format!("the tool of substitute `{}`", s.name),
                out,
            ),
            observers: s.observers.iter().map(|o| o.0).collect(),
            on_promote: match s.on_promote {
                hir::PromoteMode::Reuse => t::OnPromote::Reuse,
                hir::PromoteMode::Reissue => t::OnPromote::Reissue,
            },
        })
        .collect()
}

/// The transforms the table carries.
pub(crate) fn transforms(
    p: &hir::Program,
    ix: &Index,
    out: &mut Vec<Diagnostic>,
) -> Vec<t::Transform> {
    let mut trs = Vec::with_capacity(ix.transforms.len());
    for tr in ix.transforms.iter().filter_map(|id| p.transform(*id)) {
        let applies_to: Option<Vec<t::FieldType>> = tr.inputs.iter().map(field_type).collect();
        let Some(applies_to) = applies_to else {
            out.push(Diagnostic::internal(
                tr.span,
                "a transform input type was not resolved",
            ));
            continue;
        };
        let steps = tr
            .steps
            .iter()
            .map(|s| match s {
                hir::Step::ReplaceLexicon(l, with) => t::Step::ReplaceLexicon {
                    lexicon: must(ix.lexicon(*l), tr.span, "a lexicon of a transform", out),
                    with: with.clone(),
                },
                hir::Step::RedactEntity(k, with) => t::Step::RedactEntity {
                    kind: *k,
                    with: with.clone(),
                },
                hir::Step::CoarsenTime(g) => t::Step::CoarsenTime { to: *g },
                hir::Step::Constant(v) => t::Step::Constant { value: v.clone() },
            })
            .collect();
        trs.push(t::Transform {
            name: tr.name.clone(),
            applies_to,
            output_label: must(
                tr.output.and_then(|o| local(p, Subject::Args, o)),
                tr.span,
                &format!("the output label of `{}`", tr.name),
                out,
            ),
            steps,
        });
    }
    trs
}

/// The lexicons the table carries.
pub(crate) fn lexicons(p: &hir::Program, ix: &Index) -> Vec<t::Lexicon> {
    ix.lexicons
        .iter()
        .filter_map(|id| p.lexicons.get(id.index()))
        .map(|l| t::Lexicon {
            name: l.name.clone(),
            entries: l
                .entries
                .iter()
                .map(|(phrase, replacement)| t::LexiconEntry {
                    phrase: phrase.clone(),
                    replacement: replacement.clone(),
                })
                .collect(),
        })
        .collect()
}
