//! The table's two labelers, merged from the labelers the contract names
//! (`labelers a, b;`; every labeler of the program when it names none).
//!
//! A value's label is the join of every matching rule's label, so the rules
//! of several labelers for one subject concatenate (in declaration order)
//! without changing what any of them says. The merged fallback is the join
//! of the fallbacks. A labeler without a fallback, or a subject with no
//! labeler at all, is an error (`E0502`): a value no rule recognises would
//! otherwise have no label, and the one thing a missing label must never
//! become is the bottom (`public`).

use super::{errors, vocab};
use crate::diagnostics::Diagnostic;
use crate::hir::{self, Subject};
use stpc_runtime::table as t;

/// Both labelers; `None` after reporting when one has no fallback.
pub(crate) fn labelers(
    p: &hir::Program,
    ix: &vocab::Index,
    c: &hir::Contract,
    out: &mut Vec<Diagnostic>,
) -> Option<t::Labelers> {
    let mut absent = Vec::new();
    let args = merge(p, ix, c, Subject::Args, &mut absent, out);
    let destination = merge(p, ix, c, Subject::Destination, &mut absent, out);
    if !absent.is_empty() {
        out.push(errors::no_labeler(&absent, c.span));
    }
    Some(t::Labelers {
        args: args?,
        destination: destination?,
    })
}

fn merge(
    p: &hir::Program,
    ix: &vocab::Index,
    c: &hir::Contract,
    subject: Subject,
    absent: &mut Vec<Subject>,
    out: &mut Vec<Diagnostic>,
) -> Option<t::Labeler> {
    let lattice = match subject {
        Subject::Args => p.args(),
        Subject::Destination => p.dests(),
    }?;
    let mut rules = Vec::new();
    let mut fallback: Option<hir::LabelId> = None;
    let mut ok = true;
    let mut any = false;
    let used = (0u32..)
        .zip(&p.labelers)
        .filter(|(id, l)| l.subject == subject && c.uses_labeler(hir::LabelerId(*id)))
        .map(|(_, l)| l);
    for l in used {
        any = true;
        match l.fallback {
            Some(f) => fallback = Some(fallback.and_then(|g| lattice.join(f, g)).unwrap_or(f)),
            None => {
                out.push(errors::no_fallback(&l.name, l.span));
                ok = false;
            }
        }
        for r in &l.rules {
            let label = vocab::label(p, subject, r.label, l.span, out);
            let mut cond = |m: &hir::Matcher| condition(ix, m, l.span, out);
            let when = r.when.iter().map(&mut cond).collect();
            let unless = r.unless.iter().map(&mut cond).collect();
            rules.push(t::LabelRule {
                when,
                unless,
                fields: r.fields.clone(),
                tools: r.tools.clone(),
                label,
            });
        }
    }
    if !any {
        absent.push(subject);
        return None;
    }
    let fallback = fallback.filter(|_| ok)?;
    let span = lattice.span;
    Some(t::Labeler {
        rules,
        fallback: vocab::label(p, subject, fallback, span, out),
    })
}

/// A condition of the table, its lexicon renumbered.
fn condition(
    ix: &vocab::Index,
    m: &hir::Matcher,
    span: crate::Span,
    out: &mut Vec<Diagnostic>,
) -> t::Condition {
    let lex = |ids: &[hir::LexiconId], out: &mut Vec<Diagnostic>| {
        ids.iter()
            .map(|id| vocab::must(ix.lexicon(*id), span, "a labeler's lexicon", out))
            .collect()
    };
    match m {
        hir::Matcher::Lexicon(l) => t::Condition::Lexicon {
            lexicons: lex(l, out),
        },
        hir::Matcher::Terms(l) => t::Condition::Terms {
            lexicons: lex(l, out),
        },
        hir::Matcher::Parts(l) => t::Condition::Parts {
            lexicons: lex(l, out),
        },
        hir::Matcher::Pattern(re) => t::Condition::Pattern { regex: re.clone() },
        hir::Matcher::Entity(k) => t::Condition::Entity { kind: *k },
        hir::Matcher::Address(k, glob) => t::Condition::Address {
            kind: vocab::address_kind(*k),
            glob: glob.clone(),
        },
    }
}
