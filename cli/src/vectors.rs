//! `stpc vectors INPUT [-o FILE]`: conformance vectors of a table (or of a
//! contract, compiled first), for runtimes in other languages. The format is
//! described in `stpc_tables::vectors` and in the book
//! (`python.md`). `stpc compile --emit vectors` writes the same file beside
//! the table.

use std::path::{Path, PathBuf};

use stpc_runtime::Table;

use crate::{decide, output, Global, Outcome};

/// Arguments of `stpc vectors`.
#[derive(clap::Args, Debug)]
pub struct VectorsArgs {
    /// A compiled table (`.json`) or a contract (`.stpc`); `-` reads standard input.
    #[arg(value_name = "INPUT")]
    pub input: String,
    /// Where to write the vectors (JSON lines); standard output when absent.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The contract to compile when a contract file declares several.
    #[arg(long, value_name = "NAME")]
    pub contract: Option<String>,
}

/// The vectors of a table as JSON lines.
pub fn render(table: &Table) -> Result<String, String> {
    stpc_tables::vectors::vectors(table)
        .map(|v| stpc_tables::vectors::to_jsonl(&v))
        .map_err(|e| format!("cannot compile the table's labelers: {e}"))
}

/// `NAME.vectors.jsonl` beside `TABLE`: `web.table.json` and `web.json`
/// both give `web.vectors.jsonl`.
pub fn beside(table_path: &Path) -> PathBuf {
    let name = table_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name
        .strip_suffix(".table.json")
        .or_else(|| name.strip_suffix(".json"))
        .unwrap_or(&name);
    table_path.with_file_name(format!("{stem}.vectors.jsonl"))
}

/// Write the vectors of `table` beside `table_path`, atomically.
pub fn write_beside(table: &Table, table_path: &Path) -> Result<PathBuf, String> {
    let text = render(table)?;
    let path = beside(table_path);
    output::write_atomic(&path, text.as_bytes())
        .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    Ok(path)
}

/// Runs `stpc vectors`.
pub fn run(global: &Global, args: VectorsArgs) -> Outcome {
    let table = match decide::table_or_contract(global, &args.input, args.contract.as_deref()) {
        Ok(t) => t,
        Err(outcome) => return outcome,
    };
    let text = match render(&table) {
        Ok(t) => t,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    match &args.output {
        Some(path) => {
            if let Err(e) = output::write_atomic(path, text.as_bytes()) {
                output::fail(global, &format!("cannot write `{}`: {e}", path.display()));
                return Outcome::Failure;
            }
        }
        None => crate::out!("{text}"),
    }
    Outcome::Success
}
