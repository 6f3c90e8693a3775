//! Loading modules: `use` paths to files, depth first, with cycle detection.

use super::{errors, stdlib, Module, Scope};
use crate::diagnostics::{suggest, Diagnostics};
use crate::source::{FileId, SourceMap};
use crate::syntax::{self, ast};
use std::collections::HashMap;

/// Reads imported files for the library, which does no IO itself.
///
/// `path` is the importing file's directory joined with the module path,
/// normalised (`a/../b` becomes `b`), with `/` separators and the `.stpc`
/// extension. Return `None` when there is no such file.
pub trait Loader {
    /// The text of the file at `path`, if it exists.
    fn read(&mut self, path: &str) -> Option<String>;
}

impl<F: FnMut(&str) -> Option<String>> Loader for F {
    fn read(&mut self, path: &str) -> Option<String> {
        self(path)
    }
}

impl Loader for HashMap<String, String> {
    fn read(&mut self, path: &str) -> Option<String> {
        self.get(path).cloned()
    }
}

/// A loader that finds nothing: only `std` imports resolve.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoFiles;

impl Loader for NoFiles {
    fn read(&mut self, _: &str) -> Option<String> {
        None
    }
}

/// One resolved `use`.
#[derive(Clone, Debug)]
pub(crate) struct Import {
    /// The imported module.
    pub(crate) module: usize,
    /// Selected items, or `None` for the whole module.
    pub(crate) items: Option<Vec<ast::Ident>>,
}

struct Loading<'a> {
    map: &'a mut SourceMap,
    loader: &'a mut dyn Loader,
    modules: Vec<Module>,
    by_file: HashMap<String, usize>,
    stack: Vec<usize>,
    visited: Vec<bool>,
    imports: Vec<Vec<Import>>,
    extended: Extended,
}

/// Where each `extends a::b::c` with a path finds its contract:
/// `(extending module, "a::b::c")` to the module that declares `c`.
pub(crate) type Extended = HashMap<(usize, String), usize>;

/// Parses a std module, once per process for each file id it is given.
///
/// Std texts are fixed at build time, and `lexicons.stpc` alone is a
/// megabyte: parsing it is most of what checking a contract costs. A
/// process that checks many times (the language server on every change,
/// `stpc check DIR`) parses each std module once. Spans carry their file id,
/// so the cache is keyed by name *and* id; the ids a program gives its
/// imports follow the order of its `use`s, which edits rarely change. Only
/// parses without diagnostics are kept, so a cached parse reports nothing
/// that a fresh one would.
fn parse_std(id: FileId, name: &str, text: &str, diagnostics: &mut Diagnostics) -> ast::File {
    type Cache = std::sync::Mutex<HashMap<(String, FileId), ast::File>>;
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    let key = (name.to_owned(), id);
    if let Some(ast) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return ast;
    }
    let mut own = Diagnostics::new();
    let ast = syntax::parse(id, text, &mut own).unwrap_or_default();
    if own.is_empty() {
        if let Ok(mut c) = cache.lock() {
            c.insert(key, ast.clone());
        }
    }
    diagnostics.extend(own.into_vec());
    ast
}

/// Normalises `a/./b/../c` to `a/c`.
fn normalise(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else {
                    parts.push("..");
                }
            }
            p => parts.push(p),
        }
    }
    let joined = parts.join("/");
    if path.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    }
}

fn dir_of(name: &str) -> &str {
    name.rsplit_once('/').map_or("", |(d, _)| d)
}

impl Loading<'_> {
    /// The file name a module path maps to, seen from `importer`.
    fn file_for(&self, importer: &str, segments: &[&str]) -> String {
        if segments.first() == Some(&"std") {
            let rest: Vec<&str> = segments.iter().skip(1).copied().collect();
            return format!("{}{}.stpc", stdlib::PREFIX, rest.join("/"));
        }
        let rel = format!("{}.stpc", segments.join("/"));
        let dir = dir_of(importer);
        if dir.is_empty() {
            normalise(&rel)
        } else {
            normalise(&format!("{dir}/{rel}"))
        }
    }

    /// The index of the module in `file`, loading and parsing it if needed.
    fn find_or_load(
        &mut self,
        file: &str,
        segments: &[&str],
        diagnostics: &mut Diagnostics,
    ) -> Option<usize> {
        if let Some(i) = self.by_file.get(file) {
            return Some(*i);
        }
        if segments.len() < 2 && segments.first() == Some(&"std") {
            return None;
        }
        let text = if file.starts_with(stdlib::PREFIX) {
            stdlib::get(file).map(str::to_string)
        } else {
            self.loader.read(file)
        }?;
        let id = self.map.add(file, text.clone());
        let ast = if file.starts_with(stdlib::PREFIX) {
            parse_std(id, file, &text, diagnostics)
        } else {
            syntax::parse(id, &text, diagnostics).unwrap_or_default()
        };
        Some(self.add(id, file.to_string(), segments.join("::"), file, ast))
    }

    fn add(
        &mut self,
        file: FileId,
        name: String,
        path: String,
        key: &str,
        ast: ast::File,
    ) -> usize {
        let index = self.modules.len();
        self.modules.push(Module {
            file,
            path,
            is_std: key.starts_with(stdlib::PREFIX),
            imported: false,
            name,
            ast,
            scope: Scope::default(),
            item_imports: Vec::new(),
        });
        self.imports.push(Vec::new());
        self.visited.push(false);
        self.by_file.insert(key.to_string(), index);
        index
    }

    fn visit(&mut self, m: usize, diagnostics: &mut Diagnostics) {
        if let Some(v) = self.visited.get_mut(m) {
            *v = true;
        }
        self.stack.push(m);
        let uses: Vec<ast::Use> = self
            .modules
            .get(m)
            .map(|module| {
                module
                    .ast
                    .items
                    .iter()
                    .filter_map(|i| match i {
                        ast::Item::Use(u) => Some(u.clone()),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let importer = self
            .modules
            .get(m)
            .and_then(|module| self.map.get(module.file))
            .map(|f| f.name().to_string())
            .unwrap_or_default();
        for u in uses {
            self.import(m, &importer, &u, diagnostics);
        }
        let extended: Vec<(Vec<ast::Ident>, crate::source::Span)> = self
            .modules
            .get(m)
            .map(|module| {
                module
                    .ast
                    .items
                    .iter()
                    .filter_map(|i| match i {
                        ast::Item::Contract(c) => c.extends.as_ref().filter(|p| p.len() > 1),
                        _ => None,
                    })
                    .map(|p| {
                        let span = match (p.first(), p.last()) {
                            (Some(a), Some(b)) => a.loc.span().to(b.loc.span()),
                            _ => crate::source::Span::default(),
                        };
                        (p.clone(), span)
                    })
                    .collect()
            })
            .unwrap_or_default();
        for (path, span) in extended {
            self.extend(m, &importer, &path, span, diagnostics);
        }
        self.stack.pop();
    }

    fn import(&mut self, m: usize, importer: &str, u: &ast::Use, diagnostics: &mut Diagnostics) {
        let segments: Vec<&str> = u.path.iter().map(|i| i.name.as_str()).collect();
        let span = u.loc.span();
        let whole = self.file_for(importer, &segments);
        let (target, items, file) = if u.group.is_some() {
            (
                self.find_or_load(&whole, &segments, diagnostics),
                u.group.clone(),
                whole.clone(),
            )
        } else {
            match self.find_or_load(&whole, &segments, diagnostics) {
                Some(t) => (Some(t), None, whole.clone()),
                None => {
                    let parent: Vec<&str> = segments
                        .iter()
                        .take(segments.len().saturating_sub(1))
                        .copied()
                        .collect();
                    let item = u.path.last().cloned();
                    if parent.is_empty() {
                        (None, None, whole.clone())
                    } else {
                        let file = self.file_for(importer, &parent);
                        (
                            self.find_or_load(&file, &parent, diagnostics),
                            item.map(|i| vec![i]),
                            file,
                        )
                    }
                }
            }
        };
        let Some(target) = target else {
            let files = format!("no file `{file}` or `{whole}` was found");
            diagnostics.push(unresolved(&segments, span, files));
            return;
        };
        self.link(m, target, items, span, diagnostics);
    }

    /// Records that `m` imports `target`, loading `target`'s own imports
    /// first; `false` when that would close a cycle (reported).
    fn link(
        &mut self,
        m: usize,
        target: usize,
        items: Option<Vec<ast::Ident>>,
        span: crate::source::Span,
        diagnostics: &mut Diagnostics,
    ) -> bool {
        if let Some(pos) = self.stack.iter().position(|s| *s == target) {
            let mut cycle: Vec<String> = self
                .stack
                .iter()
                .skip(pos)
                .filter_map(|s| self.modules.get(*s).map(|m| m.name.clone()))
                .collect();
            if let Some(first) = cycle.first().cloned() {
                cycle.push(first);
            }
            diagnostics.push(errors::import_cycle(&cycle, span));
            return false;
        }
        if !self.visited.get(target).copied().unwrap_or(true) {
            self.visit(target, diagnostics);
        }
        if let Some(t) = self.modules.get_mut(target) {
            t.imported = true;
        }
        if let Some(list) = self.imports.get_mut(m) {
            list.push(Import {
                module: target,
                items,
            });
        }
        true
    }

    /// `contract c extends a::b::name`: loads the module `a::b::name` (a
    /// std policy's module is named after its contract), else `a::b`, and
    /// records where `name` is to be found. Nothing is bound in the
    /// extending module's scope, so the contract may reuse the name it
    /// extends (`contract rewrite extends std::policies::rewrite`).
    fn extend(
        &mut self,
        m: usize,
        importer: &str,
        path: &[ast::Ident],
        span: crate::source::Span,
        diagnostics: &mut Diagnostics,
    ) {
        let segments: Vec<&str> = path.iter().map(|i| i.name.as_str()).collect();
        let whole = self.file_for(importer, &segments);
        let parent = segments.split_last().map_or(&[][..], |(_, p)| p);
        let target = self
            .find_or_load(&whole, &segments, diagnostics)
            .or_else(|| {
                let file = self.file_for(importer, parent);
                self.find_or_load(&file, parent, diagnostics)
            });
        let Some(target) = target else {
            let files = format!("no file `{whole}` was found");
            diagnostics.push(unresolved(&segments, span, files));
            return;
        };
        if self.link(m, target, Some(Vec::new()), span, diagnostics) {
            self.extended.insert((m, segments.join("::")), target);
        }
    }
}

/// `E0204` for a path that names no module: a suggestion among std's
/// modules for a `std::` path, else the files that were looked for.
fn unresolved(segments: &[&str], span: crate::source::Span, files: String) -> crate::Diagnostic {
    let path = segments.join("::");
    let help = if segments.first() == Some(&"std") {
        let paths: Vec<String> = stdlib::module_paths().collect();
        suggest::did_you_mean(&path, paths.iter().map(String::as_str))
    } else {
        Some(files)
    };
    errors::unresolved_import(&path, span, help)
}

/// Loads the roots and everything they import, depth first.
pub(crate) fn load(
    map: &mut SourceMap,
    roots: Vec<(FileId, ast::File)>,
    loader: &mut dyn Loader,
    diagnostics: &mut Diagnostics,
) -> (Vec<Module>, Vec<Vec<Import>>, Extended) {
    let mut loading = Loading {
        map,
        loader,
        modules: Vec::new(),
        by_file: HashMap::new(),
        stack: Vec::new(),
        visited: Vec::new(),
        imports: Vec::new(),
        extended: HashMap::new(),
    };
    let mut root_ids = Vec::new();
    for (file, ast) in roots {
        let name = loading
            .map
            .get(file)
            .map(|f| f.name().to_string())
            .unwrap_or_default();
        let key = normalise(&name);
        root_ids.push(loading.add(file, name.clone(), name, &key, ast));
    }
    for r in root_ids {
        if !loading.visited.get(r).copied().unwrap_or(true) {
            loading.visit(r, diagnostics);
        }
    }
    (loading.modules, loading.imports, loading.extended)
}
