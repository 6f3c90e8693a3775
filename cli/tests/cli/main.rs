//! Process-level tests of the `stpc` binary, one test target: exit codes,
//! standard input, output formats and colour, every subcommand's
//! transcript. Each module was once its own target; together they link the
//! workspace once.

mod decide;
mod eval;
mod fmt;
mod general;
mod import;
mod lints;
mod lower;
mod lsp;
mod lsp_client;
mod reference;
mod sarif;
mod support;
mod test;
mod traces;
