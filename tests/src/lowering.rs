//! Shared helpers of the `lower_*` integration tests: compile a contract
//! file of the workspace (imports read relative to the workspace root) or a
//! source text, and evaluate the table with `stpc_runtime`.

#![expect(
    clippy::panic,
    clippy::expect_used,
    reason = "test helpers: an unreadable fixture or a missing table fails the test"
)]

use std::path::{Path, PathBuf};
use stpc_compiler::diagnostics::render::human_string;
use stpc_compiler::{CompileOptions, Diagnostics, SourceMap};
use stpc_runtime::table::Table;

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The result of compiling one text.
pub struct Compiled {
    /// The sources, standard library included.
    pub map: SourceMap,
    /// Every diagnostic of every stage.
    pub diagnostics: Diagnostics,
    /// The verified table, when no stage reported an error.
    pub table: Option<Table>,
}

impl Compiled {
    /// The sorted codes, such as `["E0601", "W0602"]`.
    pub fn codes(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .diagnostics
            .iter()
            .map(|d| d.code.as_str().to_owned())
            .collect();
        v.sort();
        v
    }

    /// The colourless rendering of every diagnostic.
    pub fn rendered(&self) -> String {
        human_string(&self.map, &self.diagnostics.sorted())
    }

    /// The table, or a panic showing the diagnostics.
    pub fn table(&self) -> &Table {
        match &self.table {
            Some(t) => t,
            None => panic!("no table:\n{}", self.rendered()),
        }
    }
}

/// Compiles `text`, named `rel` (relative to the workspace root).
pub fn compile_text(rel: &str, text: &str, options: &CompileOptions) -> Compiled {
    let mut map = SourceMap::new();
    let id = map.add(rel, text);
    let mut diagnostics = Diagnostics::new();
    let root = workspace();
    let mut loader = |path: &str| {
        std::fs::read(root.join(path))
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
    };
    let table = stpc_compiler::compile(&mut map, &[id], &mut loader, options, &mut diagnostics);
    Compiled {
        map,
        diagnostics,
        table,
    }
}

/// Compiles the workspace file `rel`.
pub fn compile_file(rel: &str, options: &CompileOptions) -> Compiled {
    let bytes = std::fs::read(workspace().join(rel)).expect("readable file");
    let text = String::from_utf8(bytes).expect("utf-8");
    compile_text(rel, &text, options)
}
