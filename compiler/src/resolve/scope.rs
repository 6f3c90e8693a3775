//! Scopes: what each module can name, and duplicate detection.

use super::imports::Import;
use super::{errors, Resolved};
use crate::diagnostics::{suggest, Diagnostics};
use std::collections::{HashMap, HashSet};

/// What a name in scope refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Binding {
    /// One declaration (an index into [`Resolved::decls`]).
    Decl(usize),
    /// Two whole-module imports provide different declarations.
    Ambiguous(usize, usize),
}

/// The names one module can use.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scope {
    names: HashMap<String, Binding>,
}

impl Scope {
    pub(crate) fn get(&self, name: &str) -> Option<&Binding> {
        self.names.get(name)
    }

    /// Every unambiguous name with its declaration, sorted by name.
    pub(crate) fn names(&self) -> impl Iterator<Item = (&str, usize)> {
        let mut v: Vec<(&str, usize)> = self
            .names
            .iter()
            .filter_map(|(n, b)| match b {
                Binding::Decl(d) => Some((n.as_str(), *d)),
                Binding::Ambiguous(..) => None,
            })
            .collect();
        v.sort_unstable();
        v.into_iter()
    }
}

/// Builds every module's scope: locals, then named imports, then globs.
pub(crate) fn build(
    resolved: &mut Resolved,
    imports: &[Vec<Import>],
    diagnostics: &mut Diagnostics,
) {
    let mut scopes = Vec::with_capacity(resolved.modules.len());
    let mut item_imports = Vec::with_capacity(resolved.modules.len());
    for m in 0..resolved.modules.len() {
        let mut names: HashMap<String, Binding> = HashMap::new();
        for (d, decl) in resolved
            .decls
            .iter()
            .enumerate()
            .filter(|(_, d)| d.module == m)
        {
            match names.get(&decl.name) {
                Some(Binding::Decl(first)) => {
                    let first = resolved
                        .decls
                        .get(*first)
                        .map(|f| f.span)
                        .unwrap_or_default();
                    diagnostics.push(errors::duplicate(
                        decl.kind.word(),
                        &decl.name,
                        decl.span,
                        first,
                    ));
                }
                _ => {
                    names.insert(decl.name.clone(), Binding::Decl(d));
                }
            }
        }
        let list: &[Import] = imports.get(m).map_or(&[], Vec::as_slice);
        let mut named = Vec::new();
        for import in list {
            let Some(items) = &import.items else { continue };
            let target = resolved
                .modules
                .get(import.module)
                .map(|t| t.path.clone())
                .unwrap_or_default();
            for item in items {
                let found = resolved
                    .decls
                    .iter()
                    .position(|d| d.module == import.module && d.name == item.name);
                let Some(d) = found else {
                    let candidates: Vec<&str> = resolved
                        .decls
                        .iter()
                        .filter(|d| d.module == import.module)
                        .map(|d| d.name.as_str())
                        .collect();
                    diagnostics.push(errors::unresolved_import(
                        &format!("{target}::{}", item.name),
                        item.loc.span(),
                        suggest::did_you_mean(&item.name, candidates),
                    ));
                    continue;
                };
                match names.get(&item.name) {
                    Some(Binding::Decl(existing)) if *existing != d => {
                        let first = resolved
                            .decls
                            .get(*existing)
                            .map(|f| f.span)
                            .unwrap_or_default();
                        let word = resolved.decls.get(d).map_or("item", |x| x.kind.word());
                        diagnostics.push(errors::duplicate(
                            word,
                            &item.name,
                            item.loc.span(),
                            first,
                        ));
                    }
                    _ => {
                        names.insert(item.name.clone(), Binding::Decl(d));
                        named.push((item.clone(), d));
                    }
                }
            }
        }
        let explicit: HashSet<String> = names.keys().cloned().collect();
        for import in list.iter().filter(|i| i.items.is_none()) {
            for (d, decl) in resolved
                .decls
                .iter()
                .enumerate()
                .filter(|(_, x)| x.module == import.module)
            {
                if explicit.contains(&decl.name) {
                    continue;
                }
                let entry = names.get(&decl.name).copied();
                match entry {
                    Some(Binding::Decl(existing)) if existing != d => {
                        names.insert(decl.name.clone(), Binding::Ambiguous(existing, d));
                    }
                    Some(_) => {}
                    None => {
                        names.insert(decl.name.clone(), Binding::Decl(d));
                    }
                }
            }
        }
        scopes.push(Scope { names });
        item_imports.push(named);
    }
    for ((module, scope), named) in resolved.modules.iter_mut().zip(scopes).zip(item_imports) {
        module.scope = scope;
        module.item_imports = named;
    }
}
