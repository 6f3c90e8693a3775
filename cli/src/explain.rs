//! `stpc explain CODE`: the long form of a diagnostic code.
//!
//! `stpc explain --table TABLE.json --event EVENT.json`: why an event gets
//! its decision: the point of the domain it falls on (one value per
//! dimension, marking the dimensions the decision diagram tested), the cell,
//! the rule that produced it, and the cell's transforms or substitute. The
//! event is the JSON `stpc decide` reads; it may also pin `labels` and name
//! `budgets_exhausted`, which `decide` (whose monitor labels and counts)
//! does not accept. Budgets are otherwise available.

use std::sync::Arc;

use stpc_runtime::Engine;
use stpc_tables::event::{self, EventInput, Explanation};

use crate::{decide, output, Format, Global, Outcome};

/// Arguments of `stpc explain`.
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// A diagnostic code such as `E0102`.
    #[arg(required_unless_present = "event", conflicts_with_all = ["table", "event"])]
    pub code: Option<String>,
    /// The compiled table to explain a decision of.
    #[arg(long, value_name = "TABLE", requires = "event")]
    pub table: Option<String>,
    /// The event (JSON) whose decision to explain; `-` reads standard input.
    #[arg(long, value_name = "EVENT", requires = "table")]
    pub event: Option<String>,
}

/// Runs `stpc explain`.
pub fn run(global: &Global, args: ExplainArgs) -> Outcome {
    if let (Some(table), Some(event)) = (&args.table, &args.event) {
        return explain_event(global, table, event);
    }
    let code = args.code.unwrap_or_default();
    match stpc_compiler::explanation(&code) {
        Some(text) => {
            crate::out!("{text}");
            Outcome::Success
        }
        None => {
            output::fail(global, &format!("`{code}` is not a known diagnostic code"));
            Outcome::Failure
        }
    }
}

fn read_text(path: &str) -> Result<String, String> {
    if path == "-" {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("cannot read standard input: {e}"))
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read `{path}`: {e}"))
    }
}

fn explain_event(global: &Global, table_path: &str, event_path: &str) -> Outcome {
    let result = decide::load_table(table_path)
        .and_then(|t| {
            Engine::new(Arc::new(t)).map_err(|e| format!("cannot compile the table: {e}"))
        })
        .and_then(|engine| {
            let ev = EventInput::parse(&read_text(event_path)?)?;
            event::explain(&engine, &ev)
        });
    match result {
        Ok(x) => {
            match global.format {
                Format::Human => crate::out!("{}", human(&x)),
                _ => crate::outln!("{}", serde_json::to_string(&x).unwrap_or_default()),
            }
            Outcome::Success
        }
        Err(message) => {
            output::fail(global, &message);
            Outcome::Failure
        }
    }
}

/// The explanation as text: the decision, then the point.
fn human(x: &Explanation) -> String {
    let mut s = String::new();
    let cell = x.cell.map_or_else(
        || "no cell (failed closed)".to_owned(),
        |c| format!("cell {c}"),
    );
    s.push_str(&format!(
        "{} by {} ({cell} of contract `{}`)\n",
        x.action.to_ascii_uppercase(),
        crate::output::rule_text(x.rule_id, &x.rule_name),
        x.contract
    ));
    if !x.transforms.is_empty() {
        s.push_str(&format!(
            "  rewrite using {}\n",
            x.transforms.join(", then ")
        ));
    }
    if x.action == "shadow" {
        let sub = x
            .substitute
            .clone()
            .unwrap_or_else(|| "the tool's own substitute".to_owned());
        s.push_str(&format!("  shadow with {sub}\n"));
    }
    if let Some(why) = &x.invalid {
        s.push_str(&format!(
            "  the event could not be placed in the domain: {why}\n"
        ));
    }
    if !x.coordinates.is_empty() {
        s.push_str("point (* = tested by the decision diagram on the way to the cell):\n");
        let names: Vec<String> = x
            .coordinates
            .iter()
            .map(|c| match &c.about {
                Some(a) => format!("{} `{a}`", c.dim),
                None => c.dim.to_owned(),
            })
            .collect();
        let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        for (c, name) in x.coordinates.iter().zip(&names) {
            let mark = if c.tested { '*' } else { ' ' };
            s.push_str(&format!("  {mark} {name:<width$}  {}\n", c.value));
        }
    }
    let mut labels = vec![
        format!("args {}", x.labels.args),
        format!("destination {}", x.labels.destination),
    ];
    labels.extend(x.labels.fields.iter().map(|(f, l)| format!("{f}: {l}")));
    s.push_str(&format!("labels: {}\n", labels.join(", ")));
    if let Some(why) = &x.labeling {
        s.push_str(&crate::why::labeling(why));
    }
    s
}
