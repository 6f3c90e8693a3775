//! The runtime's module graph: `table` (the wire format) is a leaf that
//! imports nothing from the deciding modules, and no two modules import
//! each other, directly or through others. Read from the sources, so a new
//! `crate::` path that closes a circle fails here.

#![expect(
    clippy::unwrap_used,
    reason = "a test reading the sources: a failure fails the test"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module name -> the crate modules its files name as `crate::<module>`.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/src");
    // Every `.rs` file under a directory, at any depth, as its module's.
    fn sources(dir: &Path, module: &str, files: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, module, files);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push((module.to_owned(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut files: Vec<(String, String)> = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            let module = path.file_name().unwrap().to_string_lossy().into_owned();
            sources(&path, &module, &mut files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let module = path.file_stem().unwrap().to_string_lossy().into_owned();
            files.push((module, std::fs::read_to_string(&path).unwrap()));
        }
    }
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, text) in files {
        if module == "lib" {
            continue;
        }
        let deps = g.entry(module.clone()).or_default();
        // Code only: doc links (`[`crate::monitor`]`) are not imports.
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != module {
                deps.insert(name);
            }
        }
    }
    g
}

#[test]
fn the_table_module_is_a_leaf() {
    let g = graph();
    let table = &g["table"];
    for forbidden in [
        "decide",
        "label",
        "monitor",
        "engine",
        "transform",
        "audit",
        "state",
    ] {
        assert!(
            !table.contains(forbidden),
            "runtime/src/table imports `crate::{forbidden}`: {table:?}"
        );
    }
}

#[test]
fn runtime_modules_import_no_circle() {
    let g = graph();
    // Depth-first search for a back edge.
    fn visit(
        g: &BTreeMap<String, BTreeSet<String>>,
        m: &str,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if done.contains(m) {
            return;
        }
        if let Some(at) = stack.iter().position(|s| s == m) {
            panic!("import circle: {} -> {m}", stack[at..].join(" -> "));
        }
        stack.push(m.to_owned());
        for d in g.get(m).into_iter().flatten() {
            visit(g, d, stack, done);
        }
        stack.pop();
        done.insert(m.to_owned());
    }
    let mut done = BTreeSet::new();
    for m in g.keys() {
        visit(&g, m, &mut Vec::new(), &mut done);
    }
    assert!(g.len() >= 10, "read only {g:?}");
}
