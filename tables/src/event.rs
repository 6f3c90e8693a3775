//! The event JSON that `stpc decide` and `stpc explain --event` read, and the
//! explanation of a decision: which cell decided it and which dimensions the
//! diagram looked at on the way.
//!
//! An event is one JSON object:
//!
//! ```json
//! {"tool": "web_search", "args": {"q": "..."}, "destination": "api.brave.com",
//!  "mode": "speculative", "confidence": 0.9, "branch": "b1"}
//! ```
//!
//! `args` may also be a string holding JSON, as OpenAI tool calls carry
//! them; `name` and `arguments` are accepted as aliases of `tool` and
//! `args`. `branch` defaults to `main`. Nothing that decides has a default:
//! an event without `mode` is refused, and so is a non-committed event
//! without `confidence` (a committed event's confidence is 1.0 by
//! definition), because the only value a reader could assume is the most
//! permissive one. Unknown fields are refused, so a misspelt `confidance` is
//! an error rather than a silent default.
//!
//! Errors never contain argument values: serde's messages quote the
//! offending value, so every quoted string in them is elided.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;
use stpc_runtime::decide::{Decider, Decision, LabelsIn, Point, Query};
use stpc_runtime::table::{DimensionKind, Node, Table, MISSING, UNKNOWN};
use stpc_runtime::{Engine, ProposedEvent};

/// Labels given with an event instead of computed by the labeler (read by
/// `stpc explain` and by conformance vectors, never by `stpc decide`, whose
/// monitor always labels).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabelsInput {
    /// The joined argument label; `null` is `<missing>`.
    #[serde(default)]
    pub args: Option<String>,
    /// The destination label; `null` is `<missing>`.
    #[serde(default)]
    pub destination: Option<String>,
    /// Per-field labels, read by `field_label` dimensions.
    #[serde(default)]
    pub fields: BTreeMap<String, String>,
}

/// One event as JSON.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(try_from = "RawEvent")]
pub struct EventInput {
    /// Echoed back in the decision, to match outputs to inputs.
    pub id: Option<Value>,
    /// Tool name.
    pub tool: String,
    /// Arguments: an object of named fields, or a string holding its JSON.
    pub args: Value,
    /// A declared destination name, a host, a URL or a collection.
    pub destination: String,
    /// Execution mode.
    pub mode: String,
    /// Branch confidence.
    pub confidence: f64,
    /// Branch of the speculative frontier.
    pub branch: String,
    /// Task id (`stpc decide --stream`: a new id ends the previous task).
    pub task: Option<String>,
    /// Explicit labels (`stpc explain` only).
    pub labels: Option<LabelsInput>,
    /// Budgets to read as exhausted, by name (`stpc explain` only).
    pub budgets_exhausted: Vec<String>,
}

/// The event as written, before the fields that decide are required.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEvent {
    /// Echoed back in the decision, to match outputs to inputs.
    #[serde(default)]
    id: Option<Value>,
    /// Tool name.
    #[serde(alias = "name")]
    tool: String,
    /// Arguments: an object of named fields, or a string holding its JSON.
    #[serde(default = "empty_object", alias = "arguments")]
    args: Value,
    /// A declared destination name, a host, a URL or a collection.
    destination: String,
    /// Execution mode: required.
    #[serde(default)]
    mode: Option<String>,
    /// Branch confidence: required unless the mode is `committed`.
    #[serde(default)]
    confidence: Option<f64>,
    /// Branch of the speculative frontier.
    #[serde(default = "main_branch")]
    branch: String,
    /// Task id (`stpc decide --stream`: a new id ends the previous task).
    #[serde(default)]
    task: Option<String>,
    /// Explicit labels (`stpc explain` only).
    #[serde(default)]
    labels: Option<LabelsInput>,
    /// Budgets to read as exhausted, by name (`stpc explain` only).
    #[serde(default)]
    budgets_exhausted: Vec<String>,
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

/// The mode whose confidence is 1.0 by definition.
const COMMITTED: &str = "committed";

impl TryFrom<RawEvent> for EventInput {
    type Error = String;

    fn try_from(raw: RawEvent) -> Result<EventInput, String> {
        let mode = raw.mode.ok_or(
            "the event has no `mode` (`committed` or `speculative`); stpc never assumes one",
        )?;
        let confidence =
            match raw.confidence {
                Some(c) => c,
                None if mode == COMMITTED => 1.0,
                None => return Err(
                    "the event is not committed but has no `confidence`; stpc never assumes one"
                        .to_owned(),
                ),
            };
        Ok(EventInput {
            id: raw.id,
            tool: raw.tool,
            args: raw.args,
            destination: raw.destination,
            mode,
            confidence,
            branch: raw.branch,
            task: raw.task,
            labels: raw.labels,
            budgets_exhausted: raw.budgets_exhausted,
        })
    }
}

fn main_branch() -> String {
    "main".to_owned()
}

/// Replace every `"…"` in a serde message by `"…"` with its content elided,
/// and drop serde's trailing position (callers report it).
pub fn elide_values(message: &str) -> String {
    let message = message.split(" at line ").next().unwrap_or(message);
    let mut out = String::with_capacity(message.len());
    let mut inside = false;
    for ch in message.chars() {
        if ch == '"' {
            if inside {
                out.push('…');
            }
            out.push('"');
            inside = !inside;
        } else if !inside {
            out.push(ch);
        }
    }
    out
}

impl EventInput {
    /// Parse one event from JSON text.
    ///
    /// # Errors
    ///
    /// A message without values: where the JSON is broken, which field is
    /// unknown or of the wrong type, or that `args` is a string that does not
    /// hold JSON.
    pub fn parse(text: &str) -> Result<EventInput, String> {
        let mut event: EventInput = serde_json::from_str(text).map_err(|e| {
            format!(
                "invalid event at line {}, column {}: {}",
                e.line(),
                e.column(),
                elide_values(&e.to_string())
            )
        })?;
        if let Value::String(s) = &event.args {
            event.args = serde_json::from_str(s).map_err(|e| {
                format!(
                    "`args` is a string but does not hold JSON (column {}: {})",
                    e.column(),
                    elide_values(&e.to_string())
                )
            })?;
        }
        if !event.confidence.is_finite() {
            return Err("`confidence` is not a finite number".to_owned());
        }
        Ok(event)
    }

    /// The event as the monitor takes it.
    #[must_use]
    pub fn proposed(&self) -> ProposedEvent {
        ProposedEvent {
            tool: self.tool.clone(),
            destination: self.destination.clone(),
            mode: self.mode.clone(),
            confidence: self.confidence,
            branch: self.branch.clone(),
            args: self.args.clone(),
        }
    }
}

/// Label names of one event.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LabelNames {
    /// The joined argument label, or `<missing>`.
    pub args: String,
    /// The destination label, or `<missing>`.
    pub destination: String,
    /// Per-field labels.
    pub fields: BTreeMap<String, String>,
}

/// Labels of an event as ids: what a [`Query`] needs (the runtime's
/// [`stpc_runtime::Labels`]).
pub use stpc_runtime::Labels as LabelIds;

/// Label names of an event's label ids.
pub trait NamedLabels {
    /// The names, with `<missing>` for absent labels.
    fn names(&self, table: &Table) -> LabelNames;
}

impl NamedLabels for LabelIds {
    fn names(&self, table: &Table) -> LabelNames {
        let arg = |l: Option<u32>| {
            l.and_then(|l| table.lattices.args.label_name(l))
                .unwrap_or(MISSING)
                .to_owned()
        };
        LabelNames {
            args: arg(self.args),
            destination: self
                .destination
                .and_then(|l| table.lattices.destination.label_name(l))
                .unwrap_or(MISSING)
                .to_owned(),
            fields: self
                .fields
                .iter()
                .map(|(f, l)| (f.clone(), arg(Some(*l))))
                .collect(),
        }
    }
}

/// The labels of an event: the explicit ones if given (a label name not in
/// its lattice is an error), else the engine's labeler.
///
/// # Errors
///
/// The name of a label that is not in its lattice.
pub fn labels_of(engine: &Engine, event: &EventInput) -> Result<LabelIds, String> {
    labels_why(engine, event, false).map(|(labels, _)| labels)
}

/// The event's labels, and when they come from the labelers and `explain`
/// is set, why: per field and for the destination, the rules that fired,
/// on which span, and the hard negatives that dropped one.
///
/// # Errors
///
/// A given label that is not a label of its lattice.
pub fn labels_why(
    engine: &Engine,
    event: &EventInput,
    explain: bool,
) -> Result<(LabelIds, Option<stpc_runtime::label::Explanation>), String> {
    let table = engine.table();
    match &event.labels {
        Some(given) => {
            let arg = |name: &str| {
                table.lattices.args.label_id(name).ok_or_else(|| {
                    format!("`{name}` is not a label of `{}`", table.lattices.args.name)
                })
            };
            let mut fields = Vec::new();
            for (f, l) in &given.fields {
                fields.push((f.clone(), arg(l)?));
            }
            let labels = LabelIds {
                args: given.args.as_deref().map(arg).transpose()?,
                destination: given
                    .destination
                    .as_deref()
                    .map(|name| {
                        table.lattices.destination.label_id(name).ok_or_else(|| {
                            format!(
                                "`{name}` is not a label of `{}`",
                                table.lattices.destination.name
                            )
                        })
                    })
                    .transpose()?,
                fields,
            };
            Ok((labels, None))
        }
        None => {
            let dest = engine.decider().destination_id(&event.destination);
            let labeled = engine.labeler().label_event(
                &event.tool,
                &event.args,
                dest,
                &event.destination,
                explain,
            );
            let l = labeled.labels;
            let labels = LabelIds {
                args: l.args,
                destination: l.destination,
                fields: l.fields,
            };
            Ok((labels, explain.then_some(labeled.explanation)))
        }
    }
}

/// Budget states in budget order from the names of exhausted budgets.
///
/// # Errors
///
/// A name that is not a budget of the table.
pub fn budget_states(table: &Table, exhausted: &[String]) -> Result<Vec<bool>, String> {
    for name in exhausted {
        if !table.budgets.iter().any(|b| &b.name == name) {
            return Err(format!(
                "`{name}` is not a budget of contract `{}`",
                table.contract
            ));
        }
    }
    Ok(table.budget_states(|b| exhausted.iter().any(|e| e == b)))
}

/// Decide an event with the decider alone (no monitor, no task state).
#[must_use]
pub fn query<'a>(
    event: &'a EventInput,
    labels: &'a LabelIds,
    field_refs: &'a [(&'a str, u32)],
    budgets: &'a [bool],
) -> Query<'a> {
    Query {
        tool: &event.tool,
        destination: &event.destination,
        mode: &event.mode,
        confidence: event.confidence,
        labels: LabelsIn {
            args: labels.args,
            destination: labels.destination,
            fields: field_refs,
        },
        budgets_exhausted: budgets,
    }
}

/// One coordinate of an explained point.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Coordinate {
    /// Dimension kind: `tool`, `destination`, `mode`, `arg_label`,
    /// `dest_label`, `confidence`, `budget` or `field_label`.
    pub dim: &'static str,
    /// The budget or field the dimension is about, if any.
    pub about: Option<String>,
    /// The value's name (`<unknown>`, `<missing>`, an interval `[0.7, +inf)`).
    pub value: String,
    /// Whether the diagram tested this dimension on the way to the cell.
    pub tested: bool,
}

/// Why an event got its decision.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Explanation {
    /// The contract.
    pub contract: String,
    /// The cell index; `None` when the decision failed closed.
    pub cell: Option<u32>,
    /// The action.
    pub action: &'static str,
    /// The deciding rule's index ([`FAIL_CLOSED_RULE_ID`] when failing closed).
    pub rule_id: Option<u32>,
    /// The rule's name.
    pub rule_name: String,
    /// Names of the cell's transforms (REWRITE).
    pub transforms: Vec<String>,
    /// Name of the cell's substitute (SHADOW); `None` is the tool's own.
    pub substitute: Option<String>,
    /// The point, one coordinate per dimension.
    pub coordinates: Vec<Coordinate>,
    /// Why the event could not be placed, when it failed closed.
    pub invalid: Option<String>,
    /// The labels used.
    pub labels: LabelNames,
    /// Why the labelers gave them (absent when the event gave its labels).
    pub labeling: Option<stpc_runtime::label::Explanation>,
}

fn dim_name(kind: &DimensionKind) -> (&'static str, Option<String>) {
    match kind {
        DimensionKind::Tool => ("tool", None),
        DimensionKind::Destination => ("destination", None),
        DimensionKind::Mode => ("mode", None),
        DimensionKind::ArgLabel => ("arg_label", None),
        DimensionKind::DestLabel => ("dest_label", None),
        DimensionKind::Confidence { .. } => ("confidence", None),
        DimensionKind::Budget { budget } => ("budget", Some(budget.to_string())),
        DimensionKind::FieldLabel { field } => ("field_label", Some(field.clone())),
    }
}

/// The walk of the diagram for a point: the cell reached (`None` when the
/// walk fails closed) and the dimensions tested on the way.
#[must_use]
pub fn trace(table: &Table, point: &Point) -> (Option<u32>, Vec<usize>) {
    let coords = point.coords();
    let mut tested = Vec::new();
    let mut node = table.diagram.root;
    for _ in 0..=table.dimensions.len() {
        match table.diagram.nodes.get(node as usize) {
            Some(Node::Leaf { cell }) => {
                let ok = (*cell as usize) < table.cells.len();
                return (ok.then_some(*cell), tested);
            }
            Some(Node::Branch { dim, children }) => {
                let d = usize::from(*dim);
                tested.push(d);
                match coords.get(d).and_then(|v| children.get(*v as usize)) {
                    Some(next) => node = *next,
                    None => return (None, tested),
                }
            }
            None => return (None, tested),
        }
    }
    (None, tested)
}

/// The display name of a dimension value (budget dimensions show the budget's
/// name in [`Coordinate::about`]).
fn value_name(table: &Table, dim: usize, value: u32) -> String {
    table
        .dimensions
        .get(dim)
        .and_then(|d| d.values.get(value as usize))
        .cloned()
        .unwrap_or_else(|| UNKNOWN.to_owned())
}

/// Explain the decision of an event against a table.
///
/// # Errors
///
/// An explicit label or budget name the table does not know.
pub fn explain(engine: &Engine, event: &EventInput) -> Result<Explanation, String> {
    let table = engine.table();
    let decider: &Decider = engine.decider();
    let (labels, labeling) = labels_why(engine, event, true)?;
    let budgets = budget_states(table, &event.budgets_exhausted)?;
    let field_refs = labels.field_refs();
    let q = query(event, &labels, &field_refs, &budgets);
    let (cell, coordinates, invalid) = match decider.point(&q) {
        Ok(point) => {
            let (cell, tested) = trace(table, &point);
            let coordinates = point
                .coords()
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let (dim, about) = table
                        .dimensions
                        .get(i)
                        .map_or(("?", None), |d| dim_name(&d.kind));
                    let about = match (&table.dimensions.get(i).map(|d| &d.kind), about) {
                        (Some(DimensionKind::Budget { budget }), _) => {
                            table.budgets.get(*budget as usize).map(|b| b.name.clone())
                        }
                        (_, about) => about,
                    };
                    Coordinate {
                        dim,
                        about,
                        value: value_name(table, i, *v),
                        tested: tested.contains(&i),
                    }
                })
                .collect();
            (cell, coordinates, None)
        }
        Err(e) => (None, Vec::new(), Some(e.to_string())),
    };
    let d = cell
        .and_then(|i| {
            table
                .cells
                .get(i as usize)
                .map(|c| Decision::from_cell(i, c))
        })
        .unwrap_or_else(Decision::fail_closed);
    Ok(Explanation {
        contract: table.contract.clone(),
        cell: d.cell,
        action: d.action.as_str(),
        rule_id: d.rule_id,
        rule_name: d.rule_name.to_owned(),
        transforms: d
            .transforms
            .iter()
            .filter_map(|t| table.transforms.get(*t as usize).map(|t| t.name.clone()))
            .collect(),
        substitute: d
            .substitute
            .and_then(|s| table.substitutes.get(s as usize).map(|s| s.name.clone())),
        coordinates,
        invalid,
        labels: labels.names(table),
        labeling,
    })
}
