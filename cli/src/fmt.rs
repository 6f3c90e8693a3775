//! `stpc fmt [--check] PATH...`: rewrite contracts in the canonical layout.
//!
//! Directories are searched recursively for `*.stpc` files (hidden
//! directories are skipped); `-` formats standard input to standard output.
//! Files are rewritten atomically, and only when they change. A file with
//! syntax errors is reported and left untouched; so is a file the
//! formatter's safety net refuses (an internal error). `--check` writes
//! nothing, lists the files that would change and exits with 1 if there
//! are any.

use crate::{output, Format, Global, Outcome};
use std::io::Write;
use std::path::Path;
use stpc_compiler::diagnostics::github;
use stpc_compiler::{Diagnostics, SourceMap};

/// Arguments of `stpc fmt`.
#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// Files or directories to format; directories are searched for
    /// `*.stpc` files, and `-` formats standard input to standard output.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
    /// Write nothing: list the files that are not formatted, and exit with
    /// status 1 if there are any.
    #[arg(long)]
    pub check: bool,
}

/// Runs `stpc fmt`.
pub fn run(global: &Global, args: FmtArgs) -> Outcome {
    let files = match crate::inputs::contract_files(&args.paths) {
        Ok(f) => f,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let mut map = SourceMap::new();
    let mut diagnostics = Diagnostics::new();
    let mut unformatted = Vec::new();
    let mut failed = false;
    let mut wrote_stdout = false;
    for path in &files {
        let id = match output::read_source(path, &mut map, &mut diagnostics) {
            Ok(Some(id)) => id,
            Ok(None) => continue,
            Err(message) => {
                output::fail(global, &message);
                failed = true;
                continue;
            }
        };
        let text = map
            .get(id)
            .map(|f| f.text().to_string())
            .unwrap_or_default();
        let Some(formatted) = stpc_compiler::format(id, &text, &mut diagnostics) else {
            continue;
        };
        let name = map
            .get(id)
            .map(|f| f.name().to_string())
            .unwrap_or_default();
        if formatted == text {
            if path == "-" && !args.check {
                wrote_stdout = true;
                let _ = std::io::stdout().write_all(formatted.as_bytes());
            }
            continue;
        }
        if args.check {
            unformatted.push(name);
        } else if path == "-" {
            wrote_stdout = true;
            let _ = std::io::stdout().write_all(formatted.as_bytes());
        } else if let Err(e) = output::write_atomic(Path::new(path), formatted.as_bytes()) {
            output::fail(global, &format!("cannot write `{path}`: {e}"));
            failed = true;
        }
    }
    let sorted = diagnostics.sorted();
    // Standard output carries the formatted text: do not add an empty report.
    if !sorted.is_empty() || (global.format == Format::Sarif && !wrote_stdout) {
        output::emit(global, &map, &sorted);
    }
    list_unformatted(global, &unformatted);
    if failed {
        Outcome::Failure
    } else if diagnostics.has_errors() || !unformatted.is_empty() {
        Outcome::Problems
    } else {
        Outcome::Success
    }
}

/// Prints the files `--check` found unformatted.
///
/// One path per line on stdout (like `gofmt -l`); `{"unformatted": path}`
/// lines with `--format json`; annotations with `--format github`; and on
/// stderr with `--format sarif`, whose stdout is one SARIF document.
fn list_unformatted(global: &Global, files: &[String]) {
    let mut stdout = std::io::stdout();
    for file in files {
        let _ = match global.format {
            Format::Human | Format::Junit => writeln!(stdout, "{file}"),
            Format::Json => writeln!(stdout, "{}", serde_json::json!({ "unformatted": file })),
            Format::Sarif => writeln!(std::io::stderr(), "{file}"),
            Format::Github => writeln!(
                stdout,
                "::error file={},title=stpc fmt::{}",
                github::escape_property(file),
                github::escape_data("this file is not formatted; run `stpc fmt` on it")
            ),
        };
    }
}
