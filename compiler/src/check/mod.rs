//! Checking: from resolved modules to a typed, proven [`hir::Program`].
//!
//! Consumes [`Resolved`] (modules, declarations, scopes) and produces the
//! `hir`, reporting `E02xx` for names that do not resolve, `E03xx` for orders
//! that are not lattices and `E04xx` for everything the contract language
//! types: labels against their lattice, field types against transforms,
//! thresholds, budgets, allow-lists, pipelines, and action preservation
//! (A3). `W0xxx` warnings (unused declarations, shadowed rules, thresholds
//! and budgets nothing reads) come last, from `lints`.
//!
//! Order of work, each a file:
//!
//! ```text
//! vocab     lattices (lattice.rs), Mode/Effect enums, channels
//! decls     observers, destinations, tools, substitutes, lexicons,
//!           labelers, transforms
//! contract  contracts: statements, guards (guard.rs), tests
//! a3        every REWRITE and SHADOW preserves the cut (A3)
//! lints     warnings
//! ```
//!
//! Every declaration gets its `hir` entry even when it has errors: ids are
//! the resolver's dense per-kind indices, so the vectors must line up. An
//! entry with an error holds a recovery value (`Type::Error`, a missing
//! label) and the checker keeps going, so one run reports every independent
//! mistake. The resulting program is only meant for lowering when the run
//! reported no errors.

mod a3;
mod contract;
mod contract_tests;
mod decls;
pub(crate) mod errors;
mod guard;
pub mod lattice;
mod lints;
#[cfg(test)]
mod tests;
mod vocab;

use crate::diagnostics::Diagnostics;
use crate::hir;
use crate::resolve::{Kind, Resolved};
use crate::syntax::ast;
use std::collections::HashMap;

/// The checker's state: the resolver's output, the program being built and
/// the diagnostics sink.
pub(crate) struct Cx<'a> {
    pub(crate) r: &'a Resolved,
    pub(crate) p: hir::Program,
    pub(crate) d: &'a mut Diagnostics,
    pub(crate) modes: HashMap<String, hir::ModeId>,
    pub(crate) effects: HashMap<String, hir::EffectId>,
    pub(crate) channels: HashMap<String, hir::ChannelId>,
    role_reported: [bool; 2],
}

/// Checks every module and builds the program.
pub fn check(resolved: &Resolved, diagnostics: &mut Diagnostics) -> hir::Program {
    let mut cx = Cx {
        r: resolved,
        p: hir::Program::default(),
        d: diagnostics,
        modes: HashMap::new(),
        effects: HashMap::new(),
        channels: HashMap::new(),
        role_reported: [false; 2],
    };
    vocab::check(&mut cx);
    decls::check(&mut cx);
    contract::check(&mut cx);
    a3::check(&mut cx);
    lints::check(&mut cx);
    cx.p
}

impl Cx<'_> {
    /// Looks a name up in a module's scope (see [`Resolved::lookup`]).
    pub(crate) fn lookup(&mut self, module: usize, name: &ast::Ident, kind: Kind) -> Option<u32> {
        self.r.lookup(module, name, kind, self.d).map(|f| f.index)
    }

    /// The lattice with a role, reporting `E0305` once when there is none.
    fn role_lattice(
        &mut self,
        subject: hir::Subject,
        span: crate::source::Span,
    ) -> Option<hir::LatticeId> {
        let (id, slot, word) = match subject {
            hir::Subject::Args => (self.p.arg_lattice, 0, "args"),
            hir::Subject::Destination => (self.p.dest_lattice, 1, "destination"),
        };
        if id.is_none() {
            if let Some(flag) = self.role_reported.get_mut(slot) {
                if !*flag {
                    *flag = true;
                    self.d.push(errors::no_role_lattice(word, span));
                }
            }
        }
        id
    }

    /// Resolves a label in the lattice of `subject`: `E0305`, `E0401`, `E0402`.
    pub(crate) fn label(
        &mut self,
        subject: hir::Subject,
        name: &ast::Ident,
    ) -> Option<hir::LabelId> {
        let span = name.loc.span();
        let lat_id = self.role_lattice(subject, span)?;
        let lattice = self.p.lattice(lat_id)?;
        if let Some(id) = lattice
            .labels
            .iter()
            .copied()
            .find(|l| self.p.label_name(*l) == name.name)
        {
            return Some(id);
        }
        let expected = lattice.name.clone();
        if let Some(other) = self.p.labels.iter().find(|l| l.name == name.name) {
            let found = self
                .p
                .lattice(other.lattice)
                .map_or("?", |l| l.name.as_str())
                .to_string();
            self.d.push(errors::wrong_lattice(
                &name.name, &found, &expected, span, other.span,
            ));
            return None;
        }
        let candidates: Vec<&str> = lattice
            .labels
            .iter()
            .map(|l| self.p.label_name(*l))
            .collect();
        let diag = errors::unknown_label(&name.name, &expected, span, candidates);
        self.d.push(diag);
        None
    }

    /// Resolves an execution mode (`E0201`).
    pub(crate) fn mode(&mut self, name: &ast::Ident) -> Option<hir::ModeId> {
        Self::value(&self.modes, name, "mode", self.d)
    }

    /// Resolves an effect class (`E0201`).
    pub(crate) fn effect(&mut self, name: &ast::Ident) -> Option<hir::EffectId> {
        Self::value(&self.effects, name, "effect class", self.d)
    }

    fn value<T: Copy>(
        map: &HashMap<String, T>,
        name: &ast::Ident,
        what: &str,
        d: &mut Diagnostics,
    ) -> Option<T> {
        if let Some(v) = map.get(&name.name) {
            return Some(*v);
        }
        let mut candidates: Vec<&str> = map.keys().map(String::as_str).collect();
        candidates.sort_unstable();
        d.push(crate::resolve::errors::unknown_name(
            what,
            &name.name,
            name.loc.span(),
            candidates,
        ));
        None
    }
}
