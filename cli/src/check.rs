//! `stpc check FILE...`: parse and check contracts, report every problem.

use crate::{output, Global, Outcome};
use stpc_compiler::{Diagnostics, SourceMap};

/// Arguments of `stpc check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Contract files or directories to check (a directory: every `*.stpc`
    /// file under it); `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    pub files: Vec<String>,
    /// Lint levels (`--deny warnings`, `--allow W0002`, `--config`).
    #[command(flatten)]
    pub lints: crate::lints::LintArgs,
}

/// Runs `stpc check`.
pub fn run(global: &Global, args: CheckArgs) -> Outcome {
    let mut lints = match crate::lints::Lints::new(&args.lints) {
        Ok(l) => l,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let mut map = SourceMap::new();
    let mut diagnostics = Diagnostics::new();
    // Files that are not UTF-8 are in the map (so E0112 can show the line)
    // but are not parsed: their lossy text would only add noise.
    let mut readable = Vec::new();
    let files = match crate::inputs::contract_files(&args.files) {
        Ok(f) => f,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    for path in &files {
        match output::read_source(path, &mut map, &mut diagnostics) {
            Ok(Some(id)) => readable.push(id),
            Ok(None) => {}
            Err(message) => {
                output::fail(global, &message);
                return Outcome::Failure;
            }
        }
    }
    // Each file is its own program (with what it imports): two example
    // contracts that each declare a `web_default` do not clash. Imports
    // relative to a file are read from disk; `std` is embedded.
    let mut loader = |path: &str| std::fs::read_to_string(path).ok();
    for root in readable {
        let mut file_diagnostics = Diagnostics::new();
        let program = stpc_compiler::check(&mut map, &[root], &mut loader, &mut file_diagnostics);
        // Lowering and the exhaustive soundness check run only on error-free programs.
        stpc_compiler::verify_contracts(&program, &[root], &mut file_diagnostics);
        // Levels (stpc.toml, flags) and inline suppressions, per file.
        match lints.apply(&map, root, file_diagnostics.into_vec(), true) {
            Ok(items) => diagnostics.extend(items),
            Err(message) => {
                output::fail(global, &message);
                return Outcome::Failure;
            }
        }
    }
    output::emit(global, &map, &diagnostics.sorted());
    if diagnostics.has_errors() {
        Outcome::Problems
    } else {
        Outcome::Success
    }
}
