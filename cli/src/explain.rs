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

fn explain_event(global: &Global, table_path: &str, event_path: &str) -> Outcome {
    let result = decide::load_table(table_path)
        .and_then(|t| decide::engine(t, table_path))
        .and_then(|engine| {
            let ev = EventInput::parse(&crate::inputs::read_text(event_path)?)?;
            let engine = Arc::new(engine);
            let x = event::explain(&engine, &ev)?;
            let runtime = runtime_outcome(engine, &ev)?;
            Ok((x, runtime))
        });
    match result {
        Ok((x, runtime)) => {
            match global.format {
                Format::Human | Format::Junit => crate::out!("{}", human(&x, runtime.as_ref())),
                _ => {
                    let mut v = serde_json::to_value(&x).unwrap_or_default();
                    if let serde_json::Value::Object(m) = &mut v {
                        m.insert(
                            "runtime".into(),
                            runtime
                                .as_ref()
                                .map_or(serde_json::Value::Null, Runtime::json),
                        );
                    }
                    crate::outln!("{}", serde_json::to_string(&v).unwrap_or_default());
                }
            }
            Outcome::Success
        }
        Err(message) => {
            output::fail(global, &message);
            Outcome::Failure
        }
    }
}

/// What the monitor does with the event, which can differ from the cell:
/// a REWRITE whose output the labeler still places at the cut is refused
/// (`rewrite_insufficient`), a SHADOW without a substitute is deferred, a
/// full queue blocks.
struct Runtime {
    action: &'static str,
    reason: &'static str,
    rule_id: Option<u32>,
    rule_name: String,
}

impl Runtime {
    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "action": self.action,
            "reason": self.reason,
            "rule_id": self.rule_id,
            "rule_name": self.rule_name,
        })
    }
}

/// The event submitted to a fresh monitor (a task of its own, the CLI's
/// substitute stubs, nothing audited). `None` when the event pins labels
/// or exhausted budgets, which only the cell lookup reads: the monitor
/// labels and counts for itself.
fn runtime_outcome(engine: Arc<Engine>, ev: &EventInput) -> Result<Option<Runtime>, String> {
    if ev.labels.is_some() || !ev.budgets_exhausted.is_empty() {
        return Ok(None);
    }
    let mut monitor =
        decide::monitor_with(engine, decide::discard(), stpc_runtime::Limits::default());
    monitor
        .begin_task(ev.task.as_deref().unwrap_or("explain"))
        .map_err(|e| e.to_string())?;
    let decided = monitor.submit(ev.proposed()).map_err(|e| e.to_string())?;
    Ok(Some(Runtime {
        action: decided.action().as_str(),
        reason: decided.reason().code(),
        rule_id: decided.rule_id(),
        rule_name: decided.rule_name().to_owned(),
    }))
}

/// The explanation as text: the decision, then the point.
fn human(x: &Explanation, runtime: Option<&Runtime>) -> String {
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
    match runtime {
        Some(r) if r.action != x.action || r.reason != "rule" || r.rule_id != x.rule_id => s.push_str(&format!(
            "  the runtime decides {} (reason `{}`): the cell says {}, but {}\n",
            r.action.to_ascii_uppercase(),
            r.reason,
            x.action.to_ascii_uppercase(),
            runtime_why(r.reason)
        )),
        Some(_) => {}
        None => s.push_str(
            "  (the cell only: this event pins labels or budgets, which the monitor computes itself)\n",
        ),
    }
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

/// Why the monitor's outcome can differ from the cell's action, by reason.
fn runtime_why(reason: &str) -> &'static str {
    match reason {
        "rewrite_insufficient" => {
            "the labeler still places a rewritten field at or above the cut, so it is not dispatched"
        }
        "no_substitute" => "no substitute is declared or registered for this tool",
        "queue_full" => "the task holds as many deferred or shadowed events as its limits allow",
        "audit_failed" => "the audit sink could not record it, so nothing was dispatched",
        "invalid_event" => "the event could not be placed in the domain",
        _ => "the monitor decided differently",
    }
}
