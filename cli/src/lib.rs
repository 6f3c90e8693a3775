//! `stpc`, the command-line tool of Speculative Tool Privacy Contracts.
//!
//! One module per subcommand, each with a clap `…Args` struct whose doc
//! comments are the help text and a `run` function returning an
//! [`Outcome`] (the layout of Cedar's `cedar-policy-cli`). The binary
//! (`main.rs`) only parses arguments and maps the outcome to an exit code,
//! so tests and other programs can run a command in-process:
//!
//! ```no_run
//! use clap::Parser;
//! let cli = stpc_cli::Cli::parse_from(["stpc", "check", "examples/paper_web_search.stpc"]);
//! assert_eq!(stpc_cli::run(cli), stpc_cli::Outcome::Success);
//! ```
//!
//! This crate is the one place that does IO: it reads contracts, tables
//! and events, and writes tables, reports and diagnostics. The libraries it
//! drives (`stpc-compiler`, `stpc-tables`, `stpc-eval`, `stpc-runtime`)
//! take and return values.

/// `print!` that survives a closed standard output: see [`output::write_stdout`].
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_stdout(::std::format_args!($($arg)*), false)
    };
}

/// `println!` that survives a closed standard output: see [`output::write_stdout`].
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::output::write_stdout(::std::format_args!($($arg)*), true)
    };
}

/// `eprintln!` that survives a closed standard error.
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output::write_stderr(::std::format_args!($($arg)*))
    };
}

pub mod check;
pub mod compile;
pub mod completions;
pub mod decide;
pub mod diff;
pub mod eval;
pub mod explain;
pub mod fmt;
pub mod graph;
pub mod import;
pub mod inputs;
pub mod label;
pub mod lints;
pub mod lsp;
pub mod mcp_proxy;
pub mod output;
pub mod reference;
pub mod replay;
pub mod serve;
pub mod sign;
pub mod test;
pub mod test_report;
pub mod vectors;
pub mod verify;
pub mod why;

use clap::{Parser, Subcommand, ValueEnum};

/// Speculative Tool Privacy Contracts: check, compile and test `.stpc` files.
#[derive(Parser, Debug)]
#[command(name = "stpc", version, about, long_about = None)]
pub struct Cli {
    /// Flags every subcommand accepts.
    #[command(flatten)]
    pub global: Global,
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// Flags every subcommand accepts.
#[derive(clap::Args, Debug, Clone)]
pub struct Global {
    /// How to print diagnostics and results.
    #[arg(long, global = true, value_enum, default_value_t = Format::Human, env = "STPC_FORMAT", hide_env_values = true)]
    pub format: Format,
    /// When to use colour (`NO_COLOR` turns it off under `auto`).
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// Output formats.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// rustc-style text with source snippets.
    Human,
    /// One JSON object per line (the schema is in the book).
    Json,
    /// One SARIF 2.1.0 log on stdout, for code-scanning upload.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…::…`) on stdout.
    Github,
    /// A JUnit XML report on stdout (`stpc test`); other commands print
    /// their diagnostics as `human`.
    Junit,
}

/// Colour choices.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// Colour when stderr is a terminal and `NO_COLOR` is unset.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse and check contracts; report every problem found.
    Check(check::CheckArgs),
    /// Check, lower and verify a contract; write its decision table.
    Compile(compile::CompileArgs),
    /// Decide events against a compiled table, as the runtime would.
    Decide(decide::DecideArgs),
    /// Label events with a table's labelers (and say why with `--explain`).
    Label(label::LabelArgs),
    /// Turn a tool list (MCP `tools/list`, OpenAI or Anthropic tool
    /// definitions) into `.stpc` declarations and a contract to start from.
    Import(import::ImportArgs),
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
    /// Run a language server over stdio: diagnostics, hover, definitions,
    /// completion, formatting and quick fixes in editors.
    Lsp(lsp::LspArgs),
    /// An MCP gateway on stdio: start the real server (after `--`) and
    /// decide every `tools/call` at issue time with a table.
    McpProxy(mcp_proxy::McpProxyArgs),
    /// A local HTTP decision sidecar (JSON API, OpenAPI at /openapi.json):
    /// the proxy's decisions for agents that do not speak MCP.
    Serve(serve::ServeArgs),
    /// Re-verify a compiled table on its own (soundness, fail-closed,
    /// totality, monotonicity), without its source.
    Verify(verify::VerifyArgs),
    /// Write a new Ed25519 key pair for signing tables.
    Keygen(sign::KeygenArgs),
    /// Sign a compiled table (writes TABLE.sig); `decide --trusted-key`
    /// then refuses any table not signed by a trusted key.
    Sign(sign::SignArgs),
    /// Print a shell completion script.
    Completions(completions::CompletionsArgs),
    /// Print the CLI reference page of the book (Markdown).
    #[command(name = "__cli-reference", hide = true)]
    CliReference,
}

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
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

/// Runs one parsed command line.
pub fn run(cli: Cli) -> Outcome {
    match cli.command {
        Command::Check(args) => check::run(&cli.global, args),
        Command::Compile(args) => compile::run(&cli.global, args),
        Command::Graph(args) => graph::run(&cli.global, args),
        Command::Import(args) => import::run(&cli.global, args),
        Command::Decide(args) => decide::run(&cli.global, args),
        Command::Label(args) => label::run(&cli.global, args),
        Command::Diff(args) => diff::run(&cli.global, args),
        Command::Explain(args) => explain::run(&cli.global, args),
        Command::Fmt(args) => fmt::run(&cli.global, args),
        Command::Test(args) => test::run(&cli.global, args),
        Command::Vectors(args) => vectors::run(&cli.global, args),
        Command::Replay(args) => replay::run(&cli.global, args),
        Command::Eval(args) => eval::run(&cli.global, args),
        Command::Lsp(args) => lsp::run(&cli.global, args),
        Command::Verify(args) => verify::run(&cli.global, args),
        Command::McpProxy(args) => mcp_proxy::run(&cli.global, args),
        Command::Serve(args) => serve::run(&cli.global, args),
        Command::Keygen(args) => sign::keygen(&cli.global, args),
        Command::Sign(args) => sign::sign(&cli.global, args),
        Command::Completions(args) => completions::run(args),
        Command::CliReference => reference::run(),
    }
}
