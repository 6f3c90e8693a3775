//! The `stpc` command-line tool: a thin shell over `stpc_compiler`.
//!
//! Parses arguments, dispatches to one `cli::<command>::run`, and maps the
//! outcome to an exit code: 0 success, 1 problems found (errors, failing
//! tests, unformatted files), 2 usage or I/O failure.

#![expect(
    clippy::disallowed_methods,
    reason = "the binary is the one place that does IO"
)]

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    cli::run(args).into()
}
