//! `stpc explain CODE`: the long form of a diagnostic code.

use super::{output, Global, Outcome};

/// Arguments of `stpc explain`.
#[derive(clap::Args, Debug)]
pub(crate) struct ExplainArgs {
    /// A diagnostic code such as `E0102`.
    pub(crate) code: String,
}

pub(crate) fn run(global: &Global, args: ExplainArgs) -> Outcome {
    match stpc_compiler::explanation(&args.code) {
        Some(text) => {
            print!("{text}");
            Outcome::Success
        }
        None => {
            output::fail(global, &format!("`{}` is not a known diagnostic code", args.code));
            Outcome::Failure
        }
    }
}
