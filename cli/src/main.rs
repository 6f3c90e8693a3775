//! The `stpc` command-line tool: parse arguments, run one command of
//! [`stpc_cli`], and map its outcome to an exit code (0 success, 1 problems
//! found, 2 usage or I/O failure).

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = match stpc_cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    stpc_cli::run(args).into()
}
