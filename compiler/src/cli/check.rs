//! `stpc check FILE...`: parse and check contracts, report every problem.

use super::{output, Global, Outcome};
use stpc_compiler::{Diagnostics, SourceMap};

/// Arguments of `stpc check`.
#[derive(clap::Args, Debug)]
pub(crate) struct CheckArgs {
    /// Contract files to check; `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub(crate) files: Vec<String>,
    /// Treat warnings as errors (`--deny warnings`).
    #[arg(long, value_name = "LINT", value_parser = ["warnings"])]
    pub(crate) deny: Vec<String>,
}

pub(crate) fn run(global: &Global, args: CheckArgs) -> Outcome {
    let mut map = SourceMap::new();
    let mut diagnostics = Diagnostics::new();
    for path in &args.files {
        if let Err(message) = output::read_source(path, &mut map, &mut diagnostics) {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    }
    let mut parsed = Diagnostics::new();
    let _ = stpc_compiler::parse_all(&map, &mut parsed);
    diagnostics.extend(parsed.into_vec());
    if !args.deny.is_empty() {
        diagnostics.deny_warnings();
    }
    output::emit(global, &map, &diagnostics.sorted());
    if diagnostics.has_errors() {
        Outcome::Problems
    } else {
        Outcome::Success
    }
}
