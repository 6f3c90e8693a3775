//! Name resolution: modules, imports and scopes.
//!
//! Consumes the root files' ASTs and produces [`Resolved`]: every module the
//! roots transitively import (loaded, parsed, cycle-checked), every
//! declaration with a dense per-kind index, and one scope per module. The
//! `check` stage turns that into `hir` by looking names up here.
//!
//! Modules. `use std::a::b` resolves against the standard library embedded in
//! the binary at build time (`stdlib-contracts/**.stpc`); any other path is
//! relative to the importing file and read through a [`Loader`] supplied by
//! the caller, because the library does no IO. `use a::b;` imports the whole
//! module `a/b.stpc` when it exists, else the item `b` of module `a`;
//! `use a::{x, y};` imports selected items. Loading is a depth-first walk
//! that keeps the stack of modules being loaded, so an import of a module
//! still on the stack is a cycle, reported with every module on it.
//!
//! Scopes. A module sees its own declarations, then the items it imports by
//! name, then the declarations of the modules it imports whole. A module
//! exports only its own declarations (no re-exports), which keeps the origin
//! of every name one hop away. Two whole-module imports providing the same
//! name are an error only where the name is used (`E0206`), as in Rust.
//!
//! Not everything is scoped: labels are looked up in the lattice the context
//! requires, and modes, effect classes and channels form one program-wide
//! vocabulary (the values of `enum Mode`, `enum Effect` and `channels`),
//! which `check` owns.

pub(crate) mod errors;
mod imports;
mod scope;
mod stdlib;

use crate::diagnostics::{suggest, Diagnostics};
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::ast;
use std::cell::Cell;
use std::collections::HashMap;

pub use imports::{Loader, NoFiles};

/// Every file of the embedded standard library, as `(name in the source
/// map, text)`: `<std>/labels.stpc`, `<std>/policies/paper.stpc`, ... (editors
/// show them as read-only documents).
pub fn std_files() -> impl Iterator<Item = (String, &'static str)> {
    stdlib::files()
        .iter()
        .map(|(path, text)| (format!("{}{path}", stdlib::PREFIX), *text))
}

/// The paper's policies shipped in the embedded standard library, as
/// `(name, display path, source text)`, sorted by name: the default set of
/// `stpc eval`.
pub fn std_policies() -> Vec<(String, String, &'static str)> {
    let mut out: Vec<(String, String, &'static str)> = stdlib::files()
        .iter()
        .filter_map(|(path, text)| {
            let name = path.strip_prefix("policies/")?.strip_suffix(".stpc")?;
            (!name.contains('/')).then(|| (name.to_string(), format!("<std>/{path}"), *text))
        })
        .collect();
    out.sort();
    out
}
pub(crate) use scope::{Binding, Scope};

/// What a top-level name declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `lattice`
    Lattice,
    /// `enum`
    Enum,
    /// `observer`
    Observer,
    /// `destination`
    Destination,
    /// `tool`
    Tool,
    /// `substitute`
    Substitute,
    /// `lexicon`
    Lexicon,
    /// `labeler`
    Labeler,
    /// `transform`
    Transform,
    /// `set` (of tools or destinations)
    Set,
    /// `contract`
    Contract,
}

impl Kind {
    /// The word used in messages.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Lattice => "lattice",
            Kind::Enum => "enum",
            Kind::Observer => "observer",
            Kind::Destination => "destination",
            Kind::Tool => "tool",
            Kind::Substitute => "substitute",
            Kind::Lexicon => "lexicon",
            Kind::Labeler => "labeler",
            Kind::Transform => "transform",
            Kind::Set => "set",
            Kind::Contract => "contract",
        }
    }

    fn of(item: &ast::Item) -> Option<Kind> {
        Some(match item {
            ast::Item::Use(_) | ast::Item::Channels(_) => return None,
            ast::Item::Lattice(_) => Kind::Lattice,
            ast::Item::Enum(_) => Kind::Enum,
            ast::Item::Observer(_) => Kind::Observer,
            ast::Item::Destination(_) => Kind::Destination,
            ast::Item::Tool(_) => Kind::Tool,
            ast::Item::Substitute(_) => Kind::Substitute,
            ast::Item::Lexicon(_) => Kind::Lexicon,
            ast::Item::Labeler(_) => Kind::Labeler,
            ast::Item::Transform(_) => Kind::Transform,
            ast::Item::Set(_) => Kind::Set,
            ast::Item::Contract(_) => Kind::Contract,
        })
    }
}

/// One loaded module.
#[derive(Debug)]
pub struct Module {
    /// Its file in the source map.
    pub file: FileId,
    /// Its file name (`<std>/labels.stpc` for the standard library).
    pub name: String,
    /// Its path as first imported (`std::labels`, `modules::health`), or
    /// its file name for roots.
    pub path: String,
    /// Whether it comes from the embedded standard library.
    pub is_std: bool,
    /// Whether another module imports it.
    pub imported: bool,
    /// Its syntax tree.
    pub ast: ast::File,
    /// What it can see.
    pub(crate) scope: Scope,
    /// Items it imports by name, with the declaration each one binds.
    pub(crate) item_imports: Vec<(ast::Ident, usize)>,
}

/// One named declaration.
#[derive(Debug)]
pub struct Decl {
    /// The module that declares it.
    pub module: usize,
    /// Its position in that module's items.
    pub item: usize,
    /// What it declares.
    pub kind: Kind,
    /// Dense index among declarations of the same kind (the `hir` id).
    pub index: u32,
    /// Its name.
    pub name: String,
    /// Where the name is written.
    pub span: Span,
}

/// Every loaded module and declaration, with scopes.
#[derive(Debug, Default)]
pub struct Resolved {
    /// Modules in load order (roots first, each before its imports' users).
    pub modules: Vec<Module>,
    /// Declarations in module order, then source order.
    pub decls: Vec<Decl>,
    used: Vec<Cell<bool>>,
    /// `used_from[module][decl]`: the module refers to the declaration.
    used_from: Vec<Vec<Cell<bool>>>,
    by_kind: HashMap<Kind, Vec<usize>>,
    /// The module each `extends a::b::c` path names (see `imports::extend`).
    extended: imports::Extended,
}

/// A successful lookup.
#[derive(Clone, Copy, Debug)]
pub struct Found {
    /// The declaration's index in [`Resolved::decls`].
    pub decl: usize,
    /// Its dense per-kind index.
    pub index: u32,
}

impl Resolved {
    /// The declarations of one kind, in id order.
    pub fn of_kind(&self, kind: Kind) -> impl Iterator<Item = &Decl> {
        self.by_kind
            .get(&kind)
            .into_iter()
            .flatten()
            .filter_map(|i| self.decls.get(*i))
    }

    /// Number of declarations of a kind.
    pub fn count(&self, kind: Kind) -> usize {
        self.by_kind.get(&kind).map_or(0, Vec::len)
    }

    /// The AST item a declaration refers to.
    pub fn item(&self, decl: &Decl) -> Option<&ast::Item> {
        self.modules.get(decl.module)?.ast.items.get(decl.item)
    }

    /// Whether a declaration was ever looked up.
    pub fn is_used(&self, decl: usize) -> bool {
        self.used.get(decl).is_some_and(Cell::get)
    }

    /// Marks a declaration used.
    pub fn mark_used(&self, decl: usize) {
        if let Some(c) = self.used.get(decl) {
            c.set(true);
        }
    }

    /// Marks a declaration used by a module's own text.
    pub fn mark_used_from(&self, module: usize, decl: usize) {
        self.mark_used(decl);
        if let Some(c) = self.used_from.get(module).and_then(|m| m.get(decl)) {
            c.set(true);
        }
    }

    /// Whether a module's own text refers to a declaration.
    pub fn is_used_from(&self, module: usize, decl: usize) -> bool {
        self.used_from
            .get(module)
            .and_then(|m| m.get(decl))
            .is_some_and(Cell::get)
    }

    /// What `name` is bound to in `module`'s scope, without reporting
    /// anything or marking it used.
    pub(crate) fn binding(&self, module: usize, name: &str) -> Option<&Binding> {
        self.modules.get(module)?.scope.get(name)
    }

    /// The contract an `extends` clause of `module` names, by its dense
    /// index: a name in scope, or a path loaded for it (the module
    /// `a::b::c` or `a::b`, declaring the contract `c`). Reports like
    /// [`Resolved::lookup`] and returns `None`.
    pub(crate) fn extended(
        &self,
        module: usize,
        path: &[ast::Ident],
        diagnostics: &mut Diagnostics,
    ) -> Option<Found> {
        let (first, last) = (path.first()?, path.last()?);
        if path.len() == 1 {
            return self.lookup(module, first, Kind::Contract, diagnostics);
        }
        let joined: Vec<&str> = path.iter().map(|i| i.name.as_str()).collect();
        let joined = joined.join("::");
        // Not loaded: the loader has reported why.
        let target = *self.extended.get(&(module, joined.clone()))?;
        let span = first.loc.span().to(last.loc.span());
        let in_target = || {
            self.decls
                .iter()
                .enumerate()
                .filter(move |(_, d)| d.module == target)
        };
        match in_target().find(|(_, d)| d.name == last.name) {
            Some((i, d)) if d.kind == Kind::Contract => {
                self.mark_used_from(module, i);
                Some(Found {
                    decl: i,
                    index: d.index,
                })
            }
            Some((_, d)) => {
                diagnostics.push(errors::wrong_kind(
                    &joined,
                    Kind::Contract.word(),
                    d.kind.word(),
                    span,
                    d.span,
                ));
                None
            }
            None => {
                let contracts: Vec<&str> = in_target()
                    .filter(|(_, d)| d.kind == Kind::Contract)
                    .map(|(_, d)| d.name.as_str())
                    .collect();
                diagnostics.push(errors::unresolved_import(
                    &joined,
                    span,
                    suggest::did_you_mean(&last.name, contracts),
                ));
                None
            }
        }
    }

    /// Looks `name` up in `module`'s scope, expecting a declaration of `kind`.
    ///
    /// Reports `E0201` (unknown, with a suggestion among names of that kind),
    /// `E0203` (another kind) or `E0206` (ambiguous) and returns `None`.
    pub fn lookup(
        &self,
        module: usize,
        name: &ast::Ident,
        kind: Kind,
        diagnostics: &mut Diagnostics,
    ) -> Option<Found> {
        let span = name.loc.span();
        let scope = self.modules.get(module).map(|m| &m.scope)?;
        match scope.get(&name.name) {
            None => {
                let candidates: Vec<&str> = scope
                    .names()
                    .filter(|(_, d)| self.decls.get(*d).is_some_and(|d| d.kind == kind))
                    .map(|(n, _)| n)
                    .collect();
                // A name std declares but this file does not import gets
                // the import as its help, unless std is where we look.
                let in_std = self
                    .modules
                    .get(module)
                    .filter(|m| !m.is_std)
                    .and_then(|_| stdlib::declaring(&name.name, kind));
                diagnostics.push(errors::unknown_name(
                    kind.word(),
                    &name.name,
                    span,
                    candidates,
                    in_std,
                ));
                None
            }
            Some(Binding::Ambiguous(a, b)) => {
                let m = |d: usize| {
                    self.decls
                        .get(d)
                        .and_then(|d| self.modules.get(d.module))
                        .map_or(String::new(), |m| m.path.clone())
                };
                let (sa, sb) = (
                    self.decls.get(*a).map(|d| d.span).unwrap_or_default(),
                    self.decls.get(*b).map(|d| d.span).unwrap_or_default(),
                );
                diagnostics.push(errors::ambiguous(&name.name, span, &m(*a), &m(*b), sa, sb));
                None
            }
            Some(Binding::Decl(d)) => {
                let decl = self.decls.get(*d)?;
                self.mark_used_from(module, *d);
                if decl.kind == kind {
                    Some(Found {
                        decl: *d,
                        index: decl.index,
                    })
                } else {
                    diagnostics.push(errors::wrong_kind(
                        &name.name,
                        kind.word(),
                        decl.kind.word(),
                        span,
                        decl.span,
                    ));
                    None
                }
            }
        }
    }
}

/// Loads every module the roots import and builds their scopes.
///
/// `roots` are parsed files already in `map`; imported files are added to
/// `map` as they are loaded, so diagnostics can point into them.
pub fn resolve(
    map: &mut SourceMap,
    roots: Vec<(FileId, ast::File)>,
    loader: &mut dyn Loader,
    diagnostics: &mut Diagnostics,
) -> Resolved {
    let (modules, imports, extended) = imports::load(map, roots, loader, diagnostics);
    let mut resolved = Resolved {
        modules,
        extended,
        ..Resolved::default()
    };
    for (m, module) in resolved.modules.iter().enumerate() {
        for (i, item) in module.ast.items.iter().enumerate() {
            let (Some(kind), Some(name)) = (Kind::of(item), item.name()) else {
                continue;
            };
            let ids = resolved.by_kind.entry(kind).or_default();
            // Fewer than 2^32 declarations of a kind fit in any source map.
            let Ok(index) = u32::try_from(ids.len()) else {
                continue;
            };
            ids.push(resolved.decls.len());
            resolved.decls.push(Decl {
                module: m,
                item: i,
                kind,
                index,
                name: name.name.clone(),
                span: name.loc.span(),
            });
        }
    }
    resolved.used = resolved.decls.iter().map(|_| Cell::new(false)).collect();
    resolved.used_from = resolved
        .modules
        .iter()
        .map(|_| resolved.decls.iter().map(|_| Cell::new(false)).collect())
        .collect();
    scope::build(&mut resolved, &imports, diagnostics);
    resolved
}
