//! `stpc replay FRONTIER (--table T.json | --contract C.stpc)`: replay a
//! frozen speculative frontier through one contract and report decisions,
//! calls per task, ghost calls and each observer's marginal exposure.
//!
//! The frontier is read in full and parsed before anything runs: a bad line
//! is an error naming its line number (exit 2), never skipped. Output is
//! Markdown by default, or the JSON report (`--output-format json`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use stpc_eval::frontier::{AdapterOptions, Format as InputFormat, Frontier};
use stpc_eval::replay::{Contract, ReplayMode, ReplayOptions};

use super::eval::{load_policy, write_output, Loaded};

/// Report formats of `stpc replay`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReplayFormat {
    /// Markdown tables.
    Markdown,
    /// The whole report as JSON.
    Json,
}
use super::{output, Global, Outcome};

/// Arguments of `stpc replay`.
#[derive(clap::Args, Debug)]
pub(crate) struct ReplayArgs {
    /// The frontier file (JSON lines); `-` reads standard input.
    #[arg(value_name = "FRONTIER")]
    pub(crate) frontier: String,
    /// A compiled table (`.json`) or a contract (`.stpc`, compiled first).
    #[arg(long, value_name = "TABLE|CONTRACT")]
    pub(crate) policy: PathBuf,
    /// The contract to compile when the file declares several.
    #[arg(long, value_name = "NAME")]
    pub(crate) contract: Option<String>,
    /// Override a contract parameter, such as `--param tau=0.5` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = super::eval::parse_param)]
    pub(crate) params: Vec<(String, f64)>,
    /// Input format: frontier, openai, mcp, agentdojo or auto.
    #[arg(long, value_name = "FORMAT", default_value = "auto")]
    pub(crate) input_format: InputFormat,
    /// Destination for a tool whose calls name none (`TOOL=DEST`, repeatable).
    #[arg(long = "destination", value_name = "TOOL=DEST", value_parser = super::eval::parse_pair)]
    pub(crate) destinations: Vec<(String, String)>,
    /// Issue only the committed plan (No-Spec as a replay mode).
    #[arg(long)]
    pub(crate) committed_only: bool,
    /// Include one summary per task.
    #[arg(long)]
    pub(crate) per_task: bool,
    /// Report format.
    #[arg(long, value_enum, default_value_t = ReplayFormat::Markdown)]
    pub(crate) output_format: ReplayFormat,
    /// Write the report here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Never draw a progress bar.
    #[arg(long)]
    pub(crate) no_progress: bool,
}

/// Read and parse a frontier file (or standard input).
pub(crate) fn read_frontier(
    path: &str,
    format: InputFormat,
    destinations: &[(String, String)],
) -> Result<Frontier, String> {
    let text = if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        s
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read `{path}`: {e}"))?
    };
    let opts = AdapterOptions {
        destinations: destinations.iter().cloned().collect::<BTreeMap<_, _>>(),
    };
    Frontier::parse(&text, format, &opts).map_err(|e| format!("`{path}`, {e}"))
}

pub(crate) fn run(global: &Global, args: ReplayArgs) -> Outcome {
    let frontier = match read_frontier(&args.frontier, args.input_format, &args.destinations) {
        Ok(f) => f,
        Err(m) => {
            output::fail(global, &m);
            return Outcome::Failure;
        }
    };
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
