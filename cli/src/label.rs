//! `stpc label --table TABLE [EVENTS]`: label events with a table's labelers,
//! without deciding them: one JSON line per event with the label of every
//! argument field and of the destination (`--explain` adds, per field and
//! for the destination, the rules that fired and on which part of the
//! value).
//!
//! Input is one event per line (`{"tool", "args", "destination"}`, an `id`
//! is copied through), from a file or standard input. This is how a labeler
//! is measured on a labeled set: the output is the prediction format of the
//! labeling dev set's scorer. A bad line yields an error object with its
//! line number and labeling goes on; the exit code is then 1. Nothing in an
//! error message quotes an argument value.

use std::io::{BufRead, Write};

use serde_json::{json, Map, Value};
use stpc_runtime::Engine;

use crate::{output, Global, Outcome};

/// Arguments of `stpc label`.
#[derive(clap::Args, Debug)]
pub struct LabelArgs {
    /// A compiled table (`.json`) or a contract (`.stpc`, compiled first).
    #[arg(long, value_name = "TABLE|CONTRACT")]
    pub table: String,
    /// The contract to compile when the file declares several.
    #[arg(long, value_name = "NAME")]
    pub contract: Option<String>,
    /// Events, one JSON object per line; `-` or nothing reads standard input.
    #[arg(value_name = "EVENTS", default_value = "-")]
    pub events: String,
    /// Also say which rules fired on each field and on the destination.
    #[arg(long)]
    pub explain: bool,
}

/// Runs `stpc label`.
pub fn run(global: &Global, args: LabelArgs) -> Outcome {
    let table =
        match crate::decide::table_or_contract(global, &args.table, args.contract.as_deref()) {
            Ok(t) => t,
            Err(outcome) => return outcome,
        };
    let engine = match crate::decide::engine(table, &args.table) {
        Ok(e) => e,
        Err(e) => {
            output::fail(global, &e);
            return Outcome::Failure;
        }
    };
    let reader: Box<dyn BufRead> = if args.events == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        match std::fs::File::open(&args.events) {
            Ok(f) => Box::new(std::io::BufReader::new(f)),
            Err(e) => {
                output::fail(global, &format!("cannot read `{}`: {e}", args.events));
                return Outcome::Failure;
            }
        }
    };
    let mut out = std::io::stdout().lock();
    let mut outcome = Outcome::Success;
    for (n, line) in reader.lines().enumerate() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                output::fail(global, &format!("cannot read line {}: {e}", n + 1));
                return Outcome::Failure;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let value = match label_line(&engine, &line, args.explain) {
            Ok(v) => v,
            Err(message) => {
                outcome = Outcome::Problems;
                json!({"line": n + 1, "error": message})
            }
        };
        if writeln!(out, "{value}").is_err() {
            // A closed pipe: the reader has what it wanted.
            return outcome;
        }
    }
    outcome
}

/// Labels one event line.
fn label_line(engine: &Engine, line: &str, explain: bool) -> Result<Value, String> {
    let event: Value =
        serde_json::from_str(line).map_err(|e| format!("not JSON (column {})", e.column()))?;
    let Value::Object(event) = event else {
        return Err("an event is a JSON object".to_owned());
    };
    let tool = event.get("tool").and_then(Value::as_str).unwrap_or("");
    let destination = event
        .get("destination")
        .and_then(Value::as_str)
        .ok_or("the event has no `destination` string")?;
    let args = event
        .get("args")
        .cloned()
        .unwrap_or(Value::Object(Map::new()));
    let table = engine.table();
    let known = engine.decider().destination_id(destination);
    let labeled = engine
        .labeler()
        .label_event(tool, &args, known, destination, explain);
    let arg_name = |l: u32| table.lattices.args.label_name(l).unwrap_or("<missing>");
    let fields: Map<String, Value> = labeled
        .labels
        .fields
        .iter()
        .map(|(f, l)| (f.clone(), json!(arg_name(*l))))
        .collect();
    let dest = labeled
        .labels
        .destination
        .and_then(|l| table.lattices.destination.label_name(l))
        .unwrap_or("<missing>");
    let mut out = Map::new();
    if let Some(id) = event.get("id") {
        out.insert("id".into(), id.clone());
    }
    out.insert("args".into(), Value::Object(fields));
    out.insert("destination".into(), json!(dest));
    if explain {
        out.insert("explain".into(), json!(labeled.explanation));
    }
    Ok(Value::Object(out))
}
