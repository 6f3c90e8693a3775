//! `stpc replay FRONTIER (--table T.json | --contract C.stpc)`: replay a
//! frozen speculative frontier through one contract and report decisions,
//! calls per task, ghost calls and each observer's marginal exposure.
//!
//! The frontier is read in full and parsed before anything runs: a bad line
//! is an error naming its line number (exit 2), never skipped. Output is
//! Markdown by default, or the JSON report (`--output-format json`).

use std::path::PathBuf;

use stpc_eval::frontier::Format as InputFormat;
use stpc_eval::replay::{Contract, ReplayMode, ReplayOptions};

use crate::inputs::{load_policy, parse_pair, parse_param, read_frontier, write_output, Loaded};

/// Report formats of `stpc replay`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayFormat {
    /// Markdown tables.
    Markdown,
    /// The whole report as JSON.
    Json,
}
use crate::{output, Global, Outcome};

/// Arguments of `stpc replay`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The frontier file (JSON lines); `-` reads standard input.
    #[arg(value_name = "FRONTIER")]
    pub frontier: String,
    /// A compiled table (`.json`) or a contract (`.stpc`, compiled first).
    #[arg(long, value_name = "TABLE|CONTRACT")]
    pub policy: PathBuf,
    /// The contract to compile when the file declares several.
    #[arg(long, value_name = "NAME")]
    pub contract: Option<String>,
    /// Override a contract parameter, such as `--param tau=0.5` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    pub params: Vec<(String, f64)>,
    /// Input format: frontier, openai, mcp, agentdojo, api (provider
    /// responses: OpenAI chat.completion and Responses, Anthropic messages)
    /// or auto.
    #[arg(long, value_name = "FORMAT", default_value = "auto")]
    pub input_format: InputFormat,
    /// Destination for a tool whose calls name none (`TOOL=DEST`, repeatable).
    #[arg(long = "destination", value_name = "TOOL=DEST", value_parser = parse_pair)]
    pub destinations: Vec<(String, String)>,
    /// Issue only the committed plan (No-Spec as a replay mode).
    #[arg(long)]
    pub committed_only: bool,
    /// Include one summary per task.
    #[arg(long)]
    pub per_task: bool,
    /// Report format.
    #[arg(long, value_enum, default_value_t = ReplayFormat::Markdown)]
    pub output_format: ReplayFormat,
    /// Write the report here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Never draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

/// Runs `stpc replay`.
pub fn run(global: &Global, args: ReplayArgs) -> Outcome {
    let table = match load_policy(
        global,
        &args.policy,
        args.contract.clone(),
        args.params.clone(),
    ) {
        Loaded::Table(t) => *t,
        Loaded::Problems => return Outcome::Problems,
        Loaded::Failed => return Outcome::Failure,
    };
    // A tool with one declared destination needs no `--destination`.
    let destinations = crate::inputs::single_destinations(&table, &args.destinations);
    let frontier = match read_frontier(&args.frontier, args.input_format, &destinations) {
        Ok(f) => f,
        Err(m) => {
            output::fail(global, &m);
            return Outcome::Failure;
        }
    };
    let name = args
        .policy
        .file_stem()
        .map_or_else(|| "policy".to_owned(), |s| s.to_string_lossy().into_owned());
    let contract = match Contract::new(name, table) {
        Ok(c) => c,
        Err(e) => {
            output::fail(global, &e.to_string());
            return Outcome::Failure;
        }
    };
    let mode = if args.committed_only {
        ReplayMode::CommittedOnly
    } else {
        ReplayMode::Speculative
    };
    let opts = ReplayOptions { mode, noise: None };
    let report = match stpc_eval::replay(
        &contract,
        &frontier,
        &opts,
        args.per_task,
        !args.no_progress,
    ) {
        Ok(r) => r,
        Err(e) => {
            output::fail(global, &e.to_string());
            return Outcome::Failure;
        }
    };
    let text = match args.output_format {
        ReplayFormat::Json => stpc_eval::render::json(&report).map_err(|e| e.to_string()),
        ReplayFormat::Markdown => Ok(stpc_eval::render::replay_markdown(&report)),
    };
    write_output(global, text, args.output.as_deref())
}
