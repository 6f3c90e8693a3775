//! One run of the compiler's own stages over a document, and what the editor
//! asks of it: diagnostics, the declarations behind a name, hovers and
//! completions.
//!
//! The document is checked exactly as `stpc check` checks a file (parse,
//! resolve with `std` embedded and relative imports read from the editor's
//! open documents or the disk, check, then lowering and the exhaustive
//! verification when the checker found no errors), so the editor never says
//! something the command line would not.
//!
//! Names are looked up by identity of text, not by scope: the HIR keeps each
//! declaration's span but not the spans of its uses, and a contract's names
//! are global per kind, so "every declaration called `sensitive`" is the
//! right answer for hover and definition. Several kinds may share a name (a
//! label and a tool field); all of them are offered.

use std::collections::HashMap;
use std::fmt::Write as _;

use stpc_compiler::hir::{self, Program};
use stpc_compiler::{Diagnostic, Diagnostics, FileId, SourceMap, Span};

/// A declaration the editor can point at.
#[derive(Clone, Debug)]
pub struct Symbol {
    /// What it is, in the language's words (`label`, `tool`, ...).
    pub kind: &'static str,
    /// The file it is declared in.
    pub file: FileId,
    /// The byte range of its name in that file.
    pub start: usize,
    /// End of the name.
    pub end: usize,
    /// Markdown shown on hover.
    pub hover: String,
}

/// The result of one analysis.
pub struct Analysis {
    /// Every text the run read: the document, its imports, std modules.
    pub map: SourceMap,
    /// The document's id in `map`.
    pub root: FileId,
    /// Every diagnostic, sorted as `stpc check` prints them.
    pub diagnostics: Vec<Diagnostic>,
    /// Declarations by name.
    pub symbols: HashMap<String, Vec<Symbol>>,
}

/// Checks one document named `name` (a file path, so relative imports
/// resolve) with `text`; `read` gives the text of an imported file.
pub fn analyze(name: &str, text: &str, read: &mut dyn FnMut(&str) -> Option<String>) -> Analysis {
    let mut map = SourceMap::new();
    let root = map.add(name, text);
    let mut diagnostics = Diagnostics::new();
    let mut loader = |path: &str| read(path);
    let program = stpc_compiler::check(&mut map, &[root], &mut loader, &mut diagnostics);
    stpc_compiler::verify_contracts(&program, &[root], &mut diagnostics);
    // The editor shows what `stpc check` reports: the levels of the
    // `stpc.toml` above the document and its inline suppressions. A project
    // file that does not parse is shown as `stpc check` would fail on it,
    // while the document's own diagnostics keep their default levels.
    let items = diagnostics.take();
    let applied = crate::lints::Lints::new(&crate::lints::LintArgs::default())
        .and_then(|mut lints| lints.apply(&map, root, items.clone(), true));
    let items = match applied {
        Ok(applied) => applied,
        Err(message) => {
            let mut defaults = Diagnostics::new();
            defaults.extend(items);
            stpc_compiler::lint::apply_default(&map, &[root], &mut defaults);
            crate::errln!("stpc lsp: {message}");
            defaults.into_vec()
        }
    };
    diagnostics.extend(items);
    let symbols = index(&map, &program);
    Analysis {
        map,
        root,
        diagnostics: diagnostics.sorted(),
        symbols,
    }
}

impl Analysis {
    /// The declarations called `name`, those of the document first.
    pub fn lookup(&self, name: &str) -> Vec<&Symbol> {
        let mut found: Vec<&Symbol> = self.symbols.get(name).into_iter().flatten().collect();
        found.sort_by_key(|s| (s.file != self.root, s.file.0, s.start));
        found
    }
}

/// Where a declaration's name is inside its span: the first whole-word
/// occurrence of the name, else the span's start.
fn name_range(map: &SourceMap, span: Span, name: &str) -> (usize, usize) {
    let range = span.range();
    let text = map.slice(span);
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices(name) {
        let before = i.checked_sub(1).and_then(|j| bytes.get(j)).copied();
        let after = bytes.get(i + name.len()).copied();
        if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
            return (range.start + i, range.start + i + name.len());
        }
    }
    (range.start, range.start)
}

fn where_declared(map: &SourceMap, span: Span) -> String {
    map.get(span.file)
        .map(|f| format!("\n\n*declared in `{}`*", f.name()))
        .unwrap_or_default()
}

fn list(names: impl IntoIterator<Item = String>, empty: &str) -> String {
    let v: Vec<String> = names.into_iter().map(|n| format!("`{n}`")).collect();
    if v.is_empty() {
        empty.to_owned()
    } else {
        v.join(", ")
    }
}

/// Builds the name index of a program.
fn index(map: &SourceMap, p: &Program) -> HashMap<String, Vec<Symbol>> {
    let mut out: HashMap<String, Vec<Symbol>> = HashMap::new();
    let mut add = |name: &str, kind: &'static str, span: Span, body: String| {
        let (start, end) = name_range(map, span, name);
        let hover = format!(
            "**{kind}** `{name}`{}{}",
            if body.is_empty() {
                String::new()
            } else {
                format!("\n\n{body}")
            },
            where_declared(map, span)
        );
        out.entry(name.to_owned()).or_default().push(Symbol {
            kind,
            file: span.file,
            start,
            end,
            hover,
        });
    };
    let label_name = |id: hir::LabelId| p.label_name(id).to_owned();
    for lattice in &p.lattices {
        let role = match lattice.role {
            Some(hir::Subject::Args) => " for args",
            Some(hir::Subject::Destination) => " for destination",
            None => "",
        };
        let chain = list(lattice.labels.iter().map(|l| label_name(*l)), "no labels");
        add(
            &lattice.name,
            "lattice",
            lattice.span,
            format!(
                "lattice{role} of {} labels: {chain}{}",
                lattice.len(),
                if lattice.total { " (a chain)" } else { "" }
            ),
        );
    }
    for (i, label) in p.labels.iter().enumerate() {
        let Some(id) = hir::LabelId::from_index(i) else {
            continue;
        };
        let Some(lattice) = p.lattice(label.lattice) else {
            continue;
        };
        let below = lattice
            .labels
            .iter()
            .filter(|l| **l != id && lattice.leq(**l, id) == Some(true))
            .map(|l| label_name(*l));
        let above = lattice
            .labels
            .iter()
            .filter(|l| **l != id && lattice.leq(id, **l) == Some(true))
            .map(|l| label_name(*l));
        let position = match (lattice.bottom == Some(id), lattice.top == Some(id)) {
            (true, _) => " (its bottom)",
            (_, true) => " (its top)",
            _ => "",
        };
        add(
            &label.name,
            "label",
            label.span,
            format!(
                "in lattice `{}`{position}\n\nbelow it: {}  \nabove it: {}",
                lattice.name,
                list(below, "nothing"),
                list(above, "nothing")
            ),
        );
    }
    for m in &p.modes {
        let note = if p.committed.and_then(|c| p.modes.get(c.index())) == Some(m) {
            "the mode a deferred call is re-decided in when its branch is promoted"
        } else {
            "an execution mode"
        };
        add(&m.name, "mode", m.span, note.to_owned());
    }
    for e in &p.effects {
        add(&e.name, "effect", e.span, "an effect class".to_owned());
    }
    for e in &p.enums {
        add(
            &e.name,
            "enum",
            e.span,
            format!("values: {}", list(e.values.iter().cloned(), "none")),
        );
    }
    for c in &p.channels {
        add(&c.name, "channel", c.span, String::new());
    }
    for o in &p.observers {
        let sees = o
            .sees
            .iter()
            .filter_map(|c| p.channels.get(c.index()).map(|c| c.name.clone()));
        add(
            &o.name,
            "observer",
            o.span,
            format!(
                "{}; sees {}",
                if o.external { "external" } else { "internal" },
                list(sees, "no channel")
            ),
        );
    }
    for d in &p.destinations {
        let addresses = d.addresses.iter().map(|a| a.value.clone());
        let observers = d
            .observers
            .iter()
            .filter_map(|o| p.observer(*o).map(|o| o.name.clone()));
        add(
            &d.name,
            "destination",
            d.span,
            format!(
                "addresses: {}  \nlabel: {}  \nobservers: {}",
                list(addresses, "none"),
                d.label
                    .map_or("none".to_owned(), |l| format!("`{}`", label_name(l))),
                list(observers, "none")
            ),
        );
    }
    for t in &p.tools {
        let fields = t
            .fields
            .iter()
            .map(|f| format!("{}: {}", f.name, f.ty.display()));
        let dests = t
            .destinations
            .iter()
            .filter_map(|d| p.destination(*d).map(|d| d.name.clone()));
        let effect = t
            .effect
            .and_then(|e| p.effects.get(e.index()))
            .map_or("none".to_owned(), |e| format!("`{}`", e.name));
        let substitute = t
            .substitute
            .and_then(|s| p.substitute(s))
            .map_or("none".to_owned(), |s| format!("`{}`", s.name));
        add(
            &t.name,
            "tool",
            t.span,
            format!(
                "effect: {effect}  \nfields: {}  \ndestinations: {}  \nsubstitute: {substitute}",
                list(fields, "none"),
                list(dests, "none")
            ),
        );
        for f in &t.fields {
            add(
                &f.name,
                "field",
                f.span,
                format!("of tool `{}`: `{}`", t.name, f.ty.display()),
            );
        }
    }
    for s in &p.substitutes {
        let tool = s
            .tool
            .and_then(|t| p.tool(t))
            .map_or("none".to_owned(), |t| format!("`{}`", t.name));
        add(
            &s.name,
            "substitute",
            s.span,
            format!("stands in for {tool}"),
        );
    }
    for l in &p.lexicons {
        let sample: Vec<String> = l.entries.iter().take(6).map(|(e, _)| e.clone()).collect();
        add(
            &l.name,
            "lexicon",
            l.span,
            format!(
                "{} entries; sample: {}{}",
                l.entries.len(),
                list(sample, "none"),
                if l.entries.len() > 6 { ", …" } else { "" }
            ),
        );
    }
    for l in &p.labelers {
        let mut body = format!(
            "for {}; {} rules",
            match l.subject {
                hir::Subject::Args => "args",
                hir::Subject::Destination => "destination",
            },
            l.rules.len()
        );
        let labels: Vec<String> = l
            .rules
            .iter()
            .take(6)
            .map(|r| label_name(r.label))
            .collect();
        if !labels.is_empty() {
            let _ = write!(body, " giving {}", list(labels, ""));
        }
        if let Some(f) = l.fallback {
            let _ = write!(body, "; otherwise `{}`", label_name(f));
        }
        add(&l.name, "labeler", l.span, body);
    }
    for t in &p.transforms {
        let inputs = t.inputs.iter().map(hir::Type::display);
        add(
            &t.name,
            "transform",
            t.span,
            format!(
                "applies to {}; {} steps; output label: {}",
                list(inputs, "nothing"),
                t.steps.len(),
                t.output
                    .map_or("unresolved".to_owned(), |l| format!("`{}`", label_name(l)))
            ),
        );
    }
    for set in &p.sets {
        let (what, names): (&str, Vec<String>) = if set.tools.is_empty() {
            (
                "destinations",
                set.destinations
                    .iter()
                    .filter_map(|d| p.destination(*d))
                    .map(|d| d.name.clone())
                    .collect(),
            )
        } else {
            (
                "tools",
                set.tools
                    .iter()
                    .filter_map(|t| p.tool(*t))
                    .map(|t| t.name.clone())
                    .collect(),
            )
        };
        let count = names.len();
        add(
            &set.name,
            "set",
            set.span,
            format!("of {count} {what}: {}", list(names, "none")),
        );
    }
    for c in &p.contracts {
        let extends = c
            .extends
            .as_ref()
            .map_or(String::new(), |e| format!("extends `{e}`; "));
        let body = format!(
            "{extends}{} tools, {} destinations{}, {} cuts, {} budgets, {} rules, {} tests",
            c.tools.len(),
            c.destinations.len(),
            if c.undeclared_destinations {
                " and undeclared ones by label"
            } else {
                ""
            },
            c.forbids.len(),
            c.budgets.len(),
            c.rules.len(),
            c.tests.len()
        );
        add(&c.name, "contract", c.span, body);
        for param in &c.params {
            add(
                &param.name,
                "parameter",
                param.span,
                format!(
                    "of contract `{}`: {} (default {})",
                    c.name, param.value, param.default
                ),
            );
        }
        for b in &c.budgets {
            add(
                &b.name,
                "budget",
                b.span,
                format!(
                    "of contract `{}`: {} dispatches per task at or above `{}`",
                    c.name,
                    b.limit,
                    label_name(b.label)
                ),
            );
        }
        for r in &c.rules {
            if let Some(name) = &r.name {
                add(name, "rule", r.span, format!("of contract `{}`", c.name));
            }
        }
    }
    // Modules: the last segment of a `use` path names its file.
    for (id, file) in map.iter() {
        let stem = file
            .name()
            .rsplit('/')
            .next()
            .and_then(|f| f.strip_suffix(".stpc"));
        if let Some(stem) = stem {
            out.entry(stem.to_owned()).or_default().push(Symbol {
                kind: "module",
                file: id,
                start: 0,
                end: 0,
                hover: format!("**module** `{stem}`\n\n*file `{}`*", file.name()),
            });
        }
    }
    out
}
