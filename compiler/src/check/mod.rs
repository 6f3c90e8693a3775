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
//! sets      named sets of tools or destinations (sets.rs)
//! contract  contracts: statements, guards (guard.rs), tests, each after
//!           the contract it extends (extend.rs)
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
mod extend;
mod guard;
pub mod lattice;
mod lints;
mod sets;
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
    /// The resolved modules the checker reads.
    pub(crate) resolved: &'a Resolved,
    /// The program being built.
    pub(crate) program: hir::Program,
    /// Where every finding goes.
    pub(crate) diags: &'a mut Diagnostics,
    pub(crate) modes: HashMap<String, hir::ModeId>,
    pub(crate) effects: HashMap<String, hir::EffectId>,
    pub(crate) channels: HashMap<String, hir::ChannelId>,
    role_reported: [bool; 2],
}

/// Checks every module and builds the program.
pub fn check(resolved: &Resolved, diagnostics: &mut Diagnostics) -> hir::Program {
    let mut cx = Cx {
        resolved,
        program: hir::Program::default(),
        diags: diagnostics,
        modes: HashMap::new(),
        effects: HashMap::new(),
        channels: HashMap::new(),
        role_reported: [false; 2],
    };
    vocab::check(&mut cx);
    decls::check(&mut cx);
    sets::check(&mut cx);
    extend::check(&mut cx);
    a3::check(&mut cx);
    lints::check(&mut cx);
    cx.program
}

impl Cx<'_> {
    /// The id of the next element of a list that holds `len`; E0900 at
    /// `span` past `u32`'s range, which no program reaches (a program
    /// declares far fewer than 2^32 items of a kind).
    pub(crate) fn next_id<I>(
        &mut self,
        len: usize,
        span: crate::Span,
        make: fn(usize) -> Option<I>,
    ) -> Option<I> {
        let id = make(len);
        if id.is_none() {
            self.diags.push(crate::Diagnostic::internal(
                span,
                "too many declarations of one kind",
            ));
        }
        id
    }

    /// Looks a name up in a module's scope (see [`Resolved::lookup`]).
    pub(crate) fn lookup(&mut self, module: usize, name: &ast::Ident, kind: Kind) -> Option<u32> {
        self.resolved
            .lookup(module, name, kind, self.diags)
            .map(|f| f.index)
    }

    /// The lattice with a role, reporting `E0305` once when there is none.
    fn role_lattice(
        &mut self,
        subject: hir::Subject,
        span: crate::source::Span,
    ) -> Option<hir::LatticeId> {
        let (id, slot, word) = match subject {
            hir::Subject::Args => (self.program.arg_lattice, 0, "args"),
            hir::Subject::Destination => (self.program.dest_lattice, 1, "destination"),
        };
        if id.is_none() {
            if let Some(flag) = self.role_reported.get_mut(slot) {
                if !*flag {
                    *flag = true;
                    self.diags.push(errors::no_role_lattice(word, span));
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
        let lattice = self.program.lattice(lat_id)?;
        if let Some(id) = lattice
            .labels
            .iter()
            .copied()
            .find(|l| self.program.label_name(*l) == name.name)
        {
            return Some(id);
        }
        let expected = lattice.name.clone();
        if let Some(other) = self.program.labels.iter().find(|l| l.name == name.name) {
            let found = self
                .program
                .lattice(other.lattice)
                .map_or("?", |l| l.name.as_str())
                .to_string();
            self.diags.push(errors::wrong_lattice(
                &name.name, &found, &expected, span, other.span,
            ));
            return None;
        }
        let candidates: Vec<&str> = lattice
            .labels
            .iter()
            .map(|l| self.program.label_name(*l))
            .collect();
        let diag = errors::unknown_label(&name.name, &expected, span, candidates);
        self.diags.push(diag);
        None
    }

    /// Resolves an execution mode (`E0201`).
    pub(crate) fn mode(&mut self, name: &ast::Ident) -> Option<hir::ModeId> {
        Self::value(&self.modes, name, "mode", self.diags)
    }

    /// Resolves an effect class (`E0201`).
    pub(crate) fn effect(&mut self, name: &ast::Ident) -> Option<hir::EffectId> {
        Self::value(&self.effects, name, "effect class", self.diags)
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
            None,
        ));
        None
    }
}
