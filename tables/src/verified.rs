//! `verify_on_load`: before a table decides anything, run on it the checks
//! `stpc verify TABLE` runs (soundness against every cut it declares,
//! fail-closed cells, totality, monotonicity), from what the table carries.
//!
//! The digest proves a table was not changed by accident and a signature
//! proves who issued it; neither proves it is sound. An embedder that loads
//! tables compiled elsewhere (a release, a tenant, another team) can ask for
//! this proof at load time: a table with any verification error is refused
//! with its codes and counterexamples, and nothing is decided with it.
//! Warnings (for example a rule that decides no event) do not refuse.
//!
//! Cost on the std tables (3 MB, 48,600 cells): about 0.05 s of CPU, once
//! per load (`/usr/bin/time stpc verify TABLE`; the book's table-format
//! chapter). Runtimes in other languages get the same proof by running
//! `stpc verify` in their release pipeline.

use std::sync::Arc;

use stpc_compiler::diagnostics::Severity;
use stpc_compiler::{Diagnostics, Span};
use stpc_runtime::signature::TrustedKeys;
use stpc_runtime::table::Table;
use stpc_runtime::{Engine, LoadError};

/// One verification error: its code and message, and the counterexample
/// notes (label and cell names only, never an argument value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The stable code (`E0601`, `E0603`, ...).
    pub code: String,
    /// The message.
    pub message: String,
    /// Notes: the counterexample event and the cell.
    pub notes: Vec<String>,
}

/// Why a table was refused on load.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The loader refused it (format, digest, signature, labelers).
    #[error("{0}")]
    Load(#[from] LoadError),
    /// It loaded but does not verify.
    #[error("the table does not verify: {}", summary(.0))]
    Unsound(Vec<Finding>),
}

fn summary(findings: &[Finding]) -> String {
    findings
        .iter()
        .map(|f| format!("{} {}", f.code, f.message))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The verification errors of a loaded table (empty when it verifies).
#[must_use]
pub fn findings(table: &Table) -> Vec<Finding> {
    let mut diagnostics = Diagnostics::new();
    let mut map = stpc_compiler::SourceMap::new();
    let file = map.add("<table>", String::new());
    stpc_compiler::verify::verify_table(table, Span::new(file, 0, 0), &mut diagnostics);
    diagnostics
        .sorted()
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| Finding {
            code: d.code.as_str().to_owned(),
            message: d.message,
            notes: d.notes,
        })
        .collect()
}

/// Checks a loaded table.
///
/// # Errors
///
/// [`Refused::Unsound`] with every verification error.
pub fn verify(table: &Table) -> Result<(), Refused> {
    let found = findings(table);
    if found.is_empty() {
        Ok(())
    } else {
        Err(Refused::Unsound(found))
    }
}

/// Loads a table from its bytes, requires its signature when `trusted` is
/// given (`(keys, signature file text)`), verifies it, and builds the engine.
///
/// # Errors
///
/// Whatever the loader refuses, or [`Refused::Unsound`].
pub fn load_verified(
    bytes: &[u8],
    trusted: Option<(&TrustedKeys, &str)>,
) -> Result<Engine, Refused> {
    load(bytes, trusted, true)
}

/// Loads a table from its bytes, requires its signature when `trusted` is
/// given, verifies it when `verify` is set, and builds the engine: the one
/// load path of embeddings that take both options (the Python package).
///
/// # Errors
///
/// Whatever the loader refuses, or [`Refused::Unsound`].
pub fn load(
    bytes: &[u8],
    trusted: Option<(&TrustedKeys, &str)>,
    verify: bool,
) -> Result<Engine, Refused> {
    Ok(load_with_index(bytes, None, trusted, verify)?.0)
}

/// [`load`] with the labeler index `stpc compile` wrote beside the table,
/// when there is one: the engine is then built from the index
/// ([`Engine::with_index`], about 11 ms on a std table) instead of from
/// the lexicons ([`Engine::new`], about 30 ms). The index is a cache: one
/// the table does not name (edited, truncated, from another compile) is
/// never used, the engine is built from the lexicons instead, the same
/// engine more slowly, and the index's refusal is returned beside it so the
/// embedder can report it.
///
/// # Errors
///
/// As [`load`]; a refused index is not an error.
pub fn load_with_index(
    bytes: &[u8],
    index: Option<&[u8]>,
    trusted: Option<(&TrustedKeys, &str)>,
    verify: bool,
) -> Result<(Engine, Option<LoadError>), Refused> {
    let table = Table::from_json(bytes)?;
    if let Some((keys, signature)) = trusted {
        keys.check(&table, signature)?;
    }
    if verify {
        self::verify(&table)?;
    }
    let table = Arc::new(table);
    let mut refused = None;
    if let (Some(index), Some(_)) = (index, &table.index) {
        match Engine::with_index(Arc::clone(&table), index) {
            Ok(engine) => return Ok((engine, None)),
            Err(e @ LoadError::Index(_)) => refused = Some(e),
            Err(e) => return Err(e.into()),
        }
    }
    Ok((Engine::new(table)?, refused))
}
