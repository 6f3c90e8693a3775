//! Inputs and outputs shared by the commands that replay and evaluate
//! (`stpc replay`, `stpc eval`): `KEY=VALUE` flags, loading a policy as a
//! table or a contract, reading a frontier, writing a report.

use std::collections::BTreeMap;
use std::path::Path;

use stpc_compiler::{CompileOptions, Diagnostics, NoFiles, SourceMap};
use stpc_eval::frontier::{AdapterOptions, Format as InputFormat, Frontier};
use stpc_runtime::Table;

use crate::{output, Global, Outcome};

/// `NAME=VALUE` with a number.
pub fn parse_param(s: &str) -> Result<(String, f64), String> {
    let (name, value) = parse_pair(s)?;
    let v: f64 = value
        .parse()
        .map_err(|_| format!("`{value}` is not a number"))?;
    if !v.is_finite() {
        return Err(format!("`{value}` is not a finite number"));
    }
    Ok((name, v))
}

/// `KEY=VALUE`.
pub fn parse_pair(s: &str) -> Result<(String, String), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("expected KEY=VALUE, found `{s}`"))?;
    Ok((k.trim().to_owned(), v.trim().to_owned()))
}

/// A policy load's result.
pub enum Loaded {
    /// The table.
    Table(Box<Table>),
    /// The contract has errors (diagnostics printed).
    Problems,
    /// I/O or a refused table (message printed).
    Failed,
}

/// Compiles a contract given as text (an embedded std policy).
pub fn compile_text(
    global: &Global,
    display: &str,
    text: &str,
    params: Vec<(String, f64)>,
) -> Loaded {
    let mut map = SourceMap::new();
    let mut diagnostics = Diagnostics::new();
    let root = map.add(display, text);
    let options = CompileOptions {
        contract: None,
        params,
    };
    match stpc_compiler::compile(&mut map, &[root], &mut NoFiles, &options, &mut diagnostics) {
        Some(t) if !diagnostics.has_errors() => Loaded::Table(Box::new(t)),
        _ => {
            output::emit(global, &map, &diagnostics.sorted());
            Loaded::Problems
        }
    }
}

/// Load a `.json` table, or compile a `.stpc` contract.
pub fn load_policy(
    global: &Global,
    path: &Path,
    contract: Option<String>,
    params: Vec<(String, f64)>,
) -> Loaded {
    let is_table = path.extension().is_some_and(|e| e == "json");
    if is_table {
        return match std::fs::read(path) {
            Ok(bytes) => match Table::from_json(&bytes) {
                Ok(t) => Loaded::Table(Box::new(t)),
                Err(e) => {
                    output::fail(global, &format!("`{}`: {e}", path.display()));
                    Loaded::Failed
                }
            },
            Err(e) => {
                output::fail(global, &format!("cannot read `{}`: {e}", path.display()));
                Loaded::Failed
            }
        };
    }
    let mut map = SourceMap::new();
    let mut diagnostics = Diagnostics::new();
    let root = match output::read_source(&path.to_string_lossy(), &mut map, &mut diagnostics) {
        Ok(root) => root,
        Err(m) => {
            output::fail(global, &m);
            return Loaded::Failed;
        }
    };
    let mut read = |p: &str| std::fs::read_to_string(p).ok();
    let options = CompileOptions { contract, params };
    let table = root.and_then(|id| {
        stpc_compiler::compile(&mut map, &[id], &mut read, &options, &mut diagnostics)
    });
    match table {
        Some(t) if !diagnostics.has_errors() => Loaded::Table(Box::new(t)),
        _ => {
            output::emit(global, &map, &diagnostics.sorted());
            Loaded::Problems
        }
    }
}

/// Write a rendered report to a file (atomically) or standard output.
pub fn write_output(global: &Global, text: Result<String, String>, path: Option<&Path>) -> Outcome {
    let text = match text {
        Ok(t) => t,
        Err(m) => {
            output::fail(global, &m);
            return Outcome::Failure;
        }
    };
    match path {
        Some(p) => {
            if let Err(e) = output::write_atomic(p, text.as_bytes()) {
                output::fail(global, &format!("cannot write `{}`: {e}", p.display()));
                return Outcome::Failure;
            }
        }
        None => {
            use std::io::Write;
            if let Err(e) = std::io::stdout().write_all(text.as_bytes()) {
                output::fail(global, &format!("cannot write standard output: {e}"));
                return Outcome::Failure;
            }
        }
    }
    Outcome::Success
}

/// The text of the file `path`, or of standard input for `-`.
///
/// # Errors
///
/// A message naming what could not be read.
pub fn read_text(path: &str) -> Result<String, String> {
    if path == "-" {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("cannot read standard input: {e}"))
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read `{path}`: {e}"))
    }
}

/// The destination of each of `table`'s tools that declares exactly one,
/// with `given` (`--destination TOOL=DEST`) taking precedence: what a trace
/// that does not say where a call went needs.
pub fn single_destinations(
    table: &stpc_runtime::table::Table,
    given: &[(String, String)],
) -> Vec<(String, String)> {
    let mut out = given.to_vec();
    for tool in &table.tools {
        if out.iter().any(|(t, _)| *t == tool.name) {
            continue;
        }
        if let [only] = tool.destinations.as_slice() {
            let name = usize::try_from(*only)
                .ok()
                .and_then(|i| table.destinations.get(i));
            if let Some(d) = name {
                out.push((tool.name.clone(), d.name.clone()));
            }
        }
    }
    out
}

/// Read and parse a frontier file (or standard input).
pub fn read_frontier(
    path: &str,
    format: InputFormat,
    destinations: &[(String, String)],
) -> Result<Frontier, String> {
    let text = read_text(path)?;
    let opts = AdapterOptions {
        destinations: destinations.iter().cloned().collect::<BTreeMap<_, _>>(),
    };
    Frontier::parse(&text, format, &opts).map_err(|e| format!("`{path}`, {e}"))
}

/// The contract files named by `paths`: a file as given, `-` for standard
/// input, and for a directory every `*.stpc` file under it (sorted, hidden
/// files and directories skipped, symbolic links not followed). `check`,
/// `fmt` and `test` all take paths this way.
///
/// # Errors
///
/// A directory that cannot be read, with its path.
pub fn contract_files(paths: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p == "-" || !std::path::Path::new(p).is_dir() {
            out.push(p.clone());
            continue;
        }
        let walk = walkdir::WalkDir::new(p)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
        for entry in walk {
            let entry = entry.map_err(|e| format!("cannot read directory `{p}`: {e}"))?;
            if entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "stpc")
            {
                out.push(entry.path().to_string_lossy().into_owned());
            }
        }
    }
    Ok(out)
}
