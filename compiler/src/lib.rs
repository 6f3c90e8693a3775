//! `stpc-compiler`: Speculative Tool Privacy Contracts, from source to table.
//!
//! ```text
//!  .stpc text ──syntax::parse──▶ ast::File ──(imports)──▶ ast files
//!        │                                       │
//!        │ E01xx                                  ▼
//!        ▼                               check ──▶ hir::Program   E02xx–E04xx, W0xxx
//!   Diagnostics ◀────────────────────────────┤
//!        │                                    ▼
//!        │                          lower ──▶ table::Table        E05xx
//!        │                                    ▼
//!        └──render (codespan / json / miette) verify ─▶ ok | counterexamples  E06xx
//! ```
//!
//! Every stage takes `&mut Diagnostics`, reports as much as it can and
//! returns its best partial output. The library does no IO: callers hand it
//! texts through a [`SourceMap`]; only the `stpc` binary reads and writes
//! files.

pub mod check;
pub mod diagnostics;
pub mod fmt;
pub mod hir;
pub mod lint;
pub mod lower;
pub mod resolve;
pub mod samples;
pub mod source;
pub mod syntax;
pub mod verify;

pub use diagnostics::{Code, Diagnostic, Diagnostics, Label, Severity};
pub use fmt::format;
pub use resolve::{Loader, NoFiles};
pub use source::{FileId, Loc, SourceMap, Span};

/// Parses every file in the map, reporting into `diagnostics`.
///
/// Returns the ASTs of the files that parsed, by file id.
pub fn parse_all(
    map: &SourceMap,
    diagnostics: &mut Diagnostics,
) -> Vec<(FileId, syntax::ast::File)> {
    map.iter()
        .filter_map(|(id, file)| syntax::parse(id, file.text(), diagnostics).map(|ast| (id, ast)))
        .collect()
}

/// Parses, resolves and checks the root files, reporting into `diagnostics`.
///
/// Imports are loaded through `loader` (relative files) or from the embedded
/// standard library (`use std::...`) and added to `map`, so diagnostics can
/// point into them. Returns the best program the checker could build; it is
/// fit for lowering only when `diagnostics` holds no errors.
pub fn check(
    map: &mut SourceMap,
    roots: &[FileId],
    loader: &mut dyn Loader,
    diagnostics: &mut Diagnostics,
) -> hir::Program {
    let parsed: Vec<(FileId, syntax::ast::File)> = roots
        .iter()
        .filter_map(|id| {
            let text = map.get(*id)?.text().to_string();
            syntax::parse(*id, &text, diagnostics).map(|ast| (*id, ast))
        })
        .collect();
    let resolved = resolve::resolve(map, parsed, loader, diagnostics);
    check::check(&resolved, diagnostics)
}

/// What [`compile`] lowers: a contract (required when the root files
/// declare several) and parameter overrides (`--param tau=0.5`).
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// The contract to compile, by name.
    pub contract: Option<String>,
    /// `name = value` overrides of contract parameters.
    pub params: Vec<(String, f64)>,
}

/// Parses, resolves, checks, lowers and verifies one contract of the root
/// files, reporting into `diagnostics`.
///
/// Returns the sealed decision table when no stage reported an error.
/// `lower` and `verify` run only when the checker found no errors.
pub fn compile(
    map: &mut SourceMap,
    roots: &[FileId],
    loader: &mut dyn Loader,
    options: &CompileOptions,
    diagnostics: &mut Diagnostics,
) -> Option<stpc_runtime::table::Table> {
    let program = check(map, roots, loader, diagnostics);
    if diagnostics.has_errors() {
        return None;
    }
    compile_program(&program, roots, options, diagnostics)
}

/// Lowers and verifies one contract of a checked, error-free program.
pub fn compile_program(
    program: &hir::Program,
    roots: &[FileId],
    options: &CompileOptions,
    diagnostics: &mut Diagnostics,
) -> Option<stpc_runtime::table::Table> {
    let contract = lower::select(
        program,
        roots,
        options.contract.as_deref(),
        &options.params,
        diagnostics,
    )?;
    let table = lower::lower(program, &contract, diagnostics)?;
    verify::verify(program, &contract, &table, diagnostics);
    (!diagnostics.has_errors()).then_some(table)
}

/// Lowers and verifies every contract declared in the root files, for
/// `stpc check` and test harnesses; tables are discarded.
///
/// Does nothing when `diagnostics` already holds errors: `lower` and
/// `verify` run only on a program the checker accepted.
pub fn verify_contracts(program: &hir::Program, roots: &[FileId], diagnostics: &mut Diagnostics) {
    if diagnostics.has_errors() {
        return;
    }
    for contract in program
        .contracts
        .iter()
        .filter(|c| roots.contains(&c.span.file))
    {
        if let Some(table) = lower::lower(program, contract, diagnostics) {
            verify::verify(program, contract, &table, diagnostics);
        }
    }
}

/// The long-form explanation of a code, such as `E0102`.
pub fn explanation(code: &str) -> Option<&'static str> {
    Code::parse(code).map(Code::explanation)
}
