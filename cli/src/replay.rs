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
    /// Report each candidate instead: its decision and rule at issue, the
    /// decision on promotion, what finally happened, whether it was a
    /// ghost call, and the labels each observer received of it (labels,
    /// never values).
    #[arg(long, conflicts_with = "per_task")]
    pub per_call: bool,
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
    if args.per_call {
        let traces = match stpc_eval::report::replay_traces(
            &contract,
            &frontier,
            &opts,
            !args.no_progress,
        ) {
            Ok(t) => t,
            Err(e) => {
                output::fail(global, &e.to_string());
                return Outcome::Failure;
            }
        };
        let rows = per_call(&traces);
        let text = match args.output_format {
            ReplayFormat::Json => serde_json::to_string_pretty(&rows)
                .map(|t| t + "\n")
                .map_err(|e| e.to_string()),
            ReplayFormat::Markdown => Ok(per_call_markdown(&rows)),
        };
        return write_output(global, text, args.output.as_deref());
    }
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

/// One candidate of `stpc replay --per-call`.
#[derive(serde::Serialize)]
struct CallRow {
    task: String,
    id: String,
    tool: String,
    destination: String,
    mode: String,
    decision: &'static str,
    rule: String,
    promoted: Option<&'static str>,
    dispatch: &'static str,
    ghost: bool,
    /// Observer → the `field=label` pairs its records of this call carry.
    received: std::collections::BTreeMap<&'static str, Vec<String>>,
}

fn dispatch_name(d: stpc_eval::Dispatch) -> &'static str {
    use stpc_eval::Dispatch as D;
    match d {
        D::Original => "sent",
        D::Rewritten => "sent rewritten",
        D::ShadowedLocally => "answered locally",
        D::DeferredThenPromoted { rewritten: false } => "deferred, sent on promotion",
        D::DeferredThenPromoted { rewritten: true } => "deferred, sent rewritten on promotion",
        D::ShadowThenReissued { rewritten: false } => "answered locally, reissued on promotion",
        D::ShadowThenReissued { rewritten: true } => {
            "answered locally, reissued rewritten on promotion"
        }
        D::Withheld => "withheld",
        D::Blocked => "blocked",
    }
}

fn per_call(traces: &[stpc_eval::TaskTrace]) -> Vec<CallRow> {
    let mut rows = Vec::new();
    for t in traces {
        let plan: Vec<bool> = t.events.iter().map(|e| e.in_plan).collect();
        let views: Vec<(stpc_eval::Observer, Vec<stpc_eval::trace::Record>)> =
            stpc_eval::Observer::ALL
                .into_iter()
                .map(|o| {
                    (
                        o,
                        stpc_eval::trace::project(o, &t.issued, t.scrub_after_commit, &plan),
                    )
                })
                .collect();
        for (i, e) in t.events.iter().enumerate() {
            let mut received = std::collections::BTreeMap::new();
            for (o, records) in &views {
                let mut fields: Vec<String> = records
                    .iter()
                    .filter(|r| r.index == Some(i))
                    .flat_map(|r| r.fields.iter().map(|(f, l)| format!("{f}={l}")))
                    .collect();
                if records.iter().any(|r| r.index == Some(i)) && fields.is_empty() {
                    // A record with no labelled field (the network's host
                    // and size, a log line): it still saw the call.
                    fields.push("(a record)".to_owned());
                }
                if !fields.is_empty() {
                    received.insert(o.as_str(), fields);
                }
            }
            rows.push(CallRow {
                task: t.task.clone(),
                id: e.id.clone(),
                tool: e.tool.clone(),
                destination: e.destination.clone(),
                mode: e.mode.clone(),
                decision: e.decision.as_str(),
                rule: e.rule.clone(),
                promoted: e.promoted_decision.map(stpc_eval::Act::as_str),
                dispatch: dispatch_name(e.dispatch),
                ghost: e.ghost(),
                received,
            });
        }
    }
    rows
}

fn per_call_markdown(rows: &[CallRow]) -> String {
    use std::fmt::Write as _;
    let cell = |s: &str| s.replace('|', "\\|");
    let mut out = String::from(
        "| task | call | tool | destination | mode | decision | rule | on promotion | outcome | ghost | received |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let received = r
            .received
            .iter()
            .map(|(o, f)| format!("{o}: {}", f.join(", ")))
            .collect::<Vec<_>>()
            .join("; ");
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&r.task),
            cell(&r.id),
            cell(&r.tool),
            cell(&r.destination),
            cell(&r.mode),
            r.decision,
            cell(&r.rule),
            r.promoted.unwrap_or(""),
            r.dispatch,
            if r.ghost { "yes" } else { "" },
            cell(&received),
        );
    }
    out
}
