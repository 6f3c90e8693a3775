//! The `stpc` command-line tool: parse arguments, run one command of
//! [`stpc_cli`], and map its outcome to an exit code (0 success, 1 problems
//! found, 2 usage or I/O failure).

use clap::Parser;
use std::process::ExitCode;

/// mimalloc rather than the system allocator: a one-event `stpc decide`
/// on the std Rewrite table allocates tens of megabytes (the table, its
/// labeler index and what both decode to), and with glibc's allocator
/// every large block is a fresh mapping faulted in a 4 KB page at a time:
/// 8,400 page faults and 47 ms of CPU per process, against 380 faults and
/// 33 ms with mimalloc (`perf stat -r 20`; 32 to 25 ms wall, issue 15).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
