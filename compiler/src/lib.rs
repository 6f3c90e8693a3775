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

pub mod diagnostics;
pub mod fmt;
pub mod check;
pub mod hir;
pub mod resolve;
pub mod source;
pub mod syntax;

pub use diagnostics::{Code, Diagnostic, Diagnostics, Label, Severity};
pub use resolve::{Loader, NoFiles};
pub use fmt::format;
pub use source::{FileId, Loc, SourceMap, Span};

/// Parses every file in the map, reporting into `diagnostics`.
///
/// Returns the ASTs of the files that parsed, by file id.
pub fn parse_all(map: &SourceMap, diagnostics: &mut Diagnostics) -> Vec<(FileId, syntax::ast::File)> {
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

/// The long-form explanation of a code, such as `E0102`.
pub fn explanation(code: &str) -> Option<&'static str> {
    Code::parse(code).map(Code::explanation)
}
