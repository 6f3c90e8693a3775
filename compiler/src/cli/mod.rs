//! Subcommands, one file each: a clap `…Args` struct and a `run` function.

pub(crate) mod check;
pub(crate) mod compile;
pub(crate) mod completions;
pub(crate) mod decide;
pub(crate) mod diff;
pub(crate) mod eval;
pub(crate) mod explain;
pub(crate) mod fmt;
pub(crate) mod graph;
pub(crate) mod output;
pub(crate) mod reference;
pub(crate) mod replay;
pub(crate) mod test;
pub(crate) mod vectors;

use clap::{Parser, Subcommand, ValueEnum};

/// Speculative Tool Privacy Contracts: check, compile and test `.stpc` files.
#[derive(Parser, Debug)]
#[command(name = "stpc", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) global: Global,
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// Flags every subcommand accepts.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct Global {
    /// How to print diagnostics and results.
    #[arg(long, global = true, value_enum, default_value_t = Format::Human, env = "STPC_FORMAT", hide_env_values = true)]
    pub(crate) format: Format,
    /// When to use colour (`NO_COLOR` turns it off under `auto`).
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,
}

/// Output formats.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// rustc-style text with source snippets.
    Human,
    /// One JSON object per line (the schema is in the book).
    Json,
    /// One SARIF 2.1.0 log on stdout, for code-scanning upload.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…::…`) on stdout.
    Github,
}

/// Colour choices.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ColorChoice {
    /// Colour when stderr is a terminal and `NO_COLOR` is unset.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Parse and check contracts; report every problem found.
    Check(check::CheckArgs),
    /// Check, lower and verify a contract; write its decision table.
    Compile(compile::CompileArgs),
    /// Decide events against a compiled table, as the runtime would.
    Decide(decide::DecideArgs),
    /// Write a lattice or a contract's decision diagram as Graphviz DOT.
    Graph(graph::GraphArgs),
    /// Show which decisions change between two contracts or tables.
    Diff(diff::DiffArgs),
    /// Print the long explanation of a diagnostic code, or why an event
    /// gets its decision (`--table T --event E`).
    Explain(explain::ExplainArgs),
    /// Rewrite contracts in the canonical layout, keeping comments.
    Fmt(fmt::FmtArgs),
    /// Run the `test` blocks of contracts against their compiled tables.
    Test(test::TestArgs),
    /// Write conformance vectors of a table for readers in other languages.
    Vectors(vectors::VectorsArgs),
    /// Replay a frozen speculative frontier through one contract.
    Replay(replay::ReplayArgs),
    /// Compare policies on a frontier: adversaries, bootstrap CIs, sign tests.
    Eval(eval::EvalArgs),
    /// Print a shell completion script.
    Completions(completions::CompletionsArgs),
    /// Print the CLI reference page of the book (Markdown).
    #[command(name = "__cli-reference", hide = true)]
    CliReference,
}

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Everything was fine.
    Success,
    /// The command ran and found problems.
    Problems,
    /// Bad usage or an I/O failure.
    Failure,
}

impl From<Outcome> for std::process::ExitCode {
    fn from(o: Outcome) -> Self {
        std::process::ExitCode::from(match o {
            Outcome::Success => 0,
            Outcome::Problems => 1,
            Outcome::Failure => 2,
        })
    }
}

pub(crate) fn run(cli: Cli) -> Outcome {
    match cli.command {
        Command::Check(args) => check::run(&cli.global, args),
        Command::Compile(args) => compile::run(&cli.global, args),
        Command::Graph(args) => graph::run(&cli.global, args),
        Command::Decide(args) => decide::run(&cli.global, args),
        Command::Diff(args) => diff::run(&cli.global, args),
        Command::Explain(args) => explain::run(&cli.global, args),
        Command::Fmt(args) => fmt::run(&cli.global, args),
        Command::Test(args) => test::run(&cli.global, args),
        Command::Vectors(args) => vectors::run(&cli.global, args),
        Command::Replay(args) => replay::run(&cli.global, args),
        Command::Eval(args) => eval::run(&cli.global, args),
        Command::Completions(args) => completions::run(args),
        Command::CliReference => reference::run(),
    }
}
