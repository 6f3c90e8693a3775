//! `stpc compile CONTRACT.stpc [-o TABLE.json]`: check, lower and verify one
//! contract, then write its decision table.
//!
//! The table is written atomically (a temporary file, then a rename), so an
//! error or an interrupted run leaves a previous table untouched. Without
//! `-o` the table goes to standard output. Any error diagnostic means exit
//! code 1 and nothing written.

use crate::{output, Global, Outcome};
use stpc_compiler::{CompileOptions, Diagnostics, SourceMap};

/// Arguments of `stpc compile`.
#[derive(clap::Args, Debug)]
pub struct CompileArgs {
    /// The contract file; `-` reads standard input.
    #[arg(value_name = "CONTRACT")]
    pub file: String,
    /// Where to write the table (JSON); standard output when absent.
    #[arg(short, long, value_name = "TABLE")]
    pub output: Option<std::path::PathBuf>,
    /// The contract to compile when the file declares several.
    #[arg(long, value_name = "NAME")]
    pub contract: Option<String>,
    /// Override a contract parameter, such as `--param tau=0.5` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    pub params: Vec<(String, f64)>,
    /// Lint levels (`--deny warnings`, `--allow W0002`, `--config`).
    #[command(flatten)]
    pub lints: crate::lints::LintArgs,
    /// Also write conformance vectors beside the table
    /// (`NAME.vectors.jsonl`; needs `-o`).
    #[arg(long, value_name = "WHAT", value_parser = ["vectors"], requires = "output")]
    pub emit: Vec<String>,
}

fn parse_param(s: &str) -> Result<(String, f64), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=VALUE, found `{s}`"))?;
    let value: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("`{value}` is not a number"))?;
    if !value.is_finite() {
        return Err(format!("`{value}` is not a finite number"));
    }
    Ok((name.trim().to_owned(), value))
}

/// Reads imported modules relative to the working directory (the resolver
/// joins each import to its importer's directory).
fn read_file(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// Runs `stpc compile`.
pub fn run(global: &Global, args: CompileArgs) -> Outcome {
    let mut map = SourceMap::new();
    let mut diagnostics = Diagnostics::new();
    let root = match output::read_source(&args.file, &mut map, &mut diagnostics) {
        Ok(root) => root,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let mut lints = match crate::lints::Lints::new(&args.lints) {
        Ok(l) => l,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let options = CompileOptions {
        contract: args.contract,
        params: args.params,
    };
    let table = match root {
        Some(id) => {
            stpc_compiler::compile(&mut map, &[id], &mut read_file, &options, &mut diagnostics)
        }
        None => None,
    };
    // Levels and suppressions: a denied warning is an error, so no table.
    // Unused suppressions are `stpc check`'s to report: `compile` verifies
    // one contract of the file.
    match lints.apply(
        &map,
        root.unwrap_or(stpc_compiler::FileId(0)),
        diagnostics.take(),
        false,
    ) {
        Ok(items) => diagnostics.extend(items),
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    }
    output::emit(global, &map, &diagnostics.sorted());
    let table = match table {
        Some(t) if !diagnostics.has_errors() => t,
        _ => return Outcome::Problems,
    };
    // With `-o`, the labeler index goes beside the table and the table
    // names it (inside what the digest covers), so every process that
    // loads the table from the file skips building the lexicon automata.
    let (table, index) = match &args.output {
        Some(_) => match stpc_runtime::label::index::attach(table) {
            Ok((t, ix)) => (t, Some(ix)),
            Err(e) => {
                output::fail(
                    global,
                    &format!(
                        "the compiled table does not load in the runtime ({e}); nothing was \
                         written. This is a compiler bug: please report it with the contract"
                    ),
                );
                return Outcome::Failure;
            }
        },
        None => (table, None),
    };
    let json = match table.to_json_pretty() {
        Ok(mut json) => {
            json.push('\n');
            json
        }
        Err(e) => {
            output::fail(global, &format!("cannot serialise the table: {e}"));
            return Outcome::Failure;
        }
    };
    // What is written is what every runtime will load: refuse to write a
    // table the runtime's own loader (format, digest, labelers, patterns)
    // refuses.
    if let Err(e) = stpc_runtime::table::Table::from_json(json.as_bytes()).and_then(|t| {
        let t = std::sync::Arc::new(t);
        match &index {
            Some(ix) => stpc_runtime::Engine::with_index(t, ix),
            None => stpc_runtime::Engine::new(t),
        }
    }) {
        output::fail(
            global,
            &format!(
                "the compiled table does not load in the runtime ({e}); nothing was written. \
                 This is a compiler bug: please report it with the contract"
            ),
        );
        return Outcome::Failure;
    }
    match &args.output {
        Some(path) => {
            // The index first: a table on disk never names an index that
            // is not there yet.
            if let Some(ix) = &index {
                let ix_path = crate::decide::index_path(path);
                if let Err(e) = output::write_atomic(&ix_path, ix) {
                    output::fail(
                        global,
                        &format!("cannot write `{}`: {e}", ix_path.display()),
                    );
                    return Outcome::Failure;
                }
            }
            if let Err(e) = output::write_atomic(path, json.as_bytes()) {
                output::fail(global, &format!("cannot write `{}`: {e}", path.display()));
                return Outcome::Failure;
            }
            if args.emit.iter().any(|e| e == "vectors") {
                if let Err(message) = crate::vectors::write_beside(&table, path) {
                    output::fail(global, &message);
                    return Outcome::Failure;
                }
            }
        }
        None => {
            use std::io::Write;
            if let Err(e) = std::io::stdout().write_all(json.as_bytes()) {
                output::fail(global, &format!("cannot write standard output: {e}"));
                return Outcome::Failure;
            }
        }
    }
    Outcome::Success
}
