//! `stpc verify TABLE`: re-check a compiled table on its own, without its
//! source: soundness against every cut it declares, fail-closed cells,
//! totality and monotonicity, with the same codes and counterexamples as
//! `stpc compile`. For tables received from elsewhere (a release, another
//! team), after the loader has checked their format and digest (and, with
//! `--trusted-key`, their signature).

use stpc_compiler::{Diagnostics, SourceMap, Span};

use crate::{output, Global, Outcome};

/// Arguments of `stpc verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The compiled table.
    #[arg(value_name = "TABLE")]
    pub table: String,
    /// Treat warnings as errors (`--deny warnings`).
    #[arg(long, value_name = "LINT", value_parser = ["warnings"])]
    pub deny: Vec<String>,
    /// Signature requirements.
    #[command(flatten)]
    pub trust: crate::sign::TrustArgs,
}

/// Runs `stpc verify`.
pub fn run(global: &Global, args: VerifyArgs) -> Outcome {
    let table = match crate::decide::load_table(&args.table).and_then(|t| {
        args.trust.check(&args.table, &t)?;
        Ok(t)
    }) {
        Ok(t) => t,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    // Diagnostics point at where the table names its contract.
    let text = std::fs::read_to_string(&args.table).unwrap_or_default();
    let mut map = SourceMap::new();
    let at = text.find("\"contract\"").unwrap_or(0);
    let end = at + text.get(at..).and_then(|r| r.find('\n')).unwrap_or(0);
    let file = map.add(args.table.clone(), text);
    let mut diagnostics = Diagnostics::new();
    stpc_compiler::verify::verify_table(&table, Span::new(file, at, end), &mut diagnostics);
    if !args.deny.is_empty() {
        diagnostics.deny_warnings();
    }
    output::emit(global, &map, &diagnostics.sorted());
    if diagnostics.has_errors() {
        Outcome::Problems
    } else {
        if global.format == crate::Format::Human && diagnostics.is_empty() {
            let undeclared = if table.undeclared_destinations {
                " (undeclared destinations decided by label)"
            } else {
                ""
            };
            crate::errln!(
                "verified `{}`: sound for its {} cut(s), fail-closed{undeclared}, total and monotone",
                table.contract,
                table.forbid.len()
            );
        }
        Outcome::Success
    }
}
