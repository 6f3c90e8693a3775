//! The event JSON every embedding reads: `stpc decide`, `stpc explain
//! --event`, the conformance vectors and the Python package all parse an
//! event here, so they accept and refuse the same inputs.
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

use crate::ProposedEvent;
use serde::Deserialize;
use serde_json::Value;

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
/// elide a field name in backticks unless it is a short plain identifier (a
/// misspelt key helps and cannot carry anything; an argument sentence used
/// as a key could), and drop serde's trailing position (callers report it).
#[must_use]
pub fn elide_values(message: &str) -> String {
    crate::error::elide_quoted(message)
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
        let event: EventInput = serde_json::from_str(text).map_err(|e| {
            format!(
                "invalid event at line {}, column {}: {}",
                e.line(),
                e.column(),
                elide_values(&e.to_string())
            )
        })?;
        event.finish()
    }

    /// Read one event from a JSON value already parsed (an embedding's
    /// dictionary or object), with the rules of [`EventInput::parse`].
    ///
    /// # Errors
    ///
    /// As [`EventInput::parse`], without a position.
    pub fn from_value(value: Value) -> Result<EventInput, String> {
        let event: EventInput = serde_json::from_value(value)
            .map_err(|e| format!("invalid event: {}", elide_values(&e.to_string())))?;
        event.finish()
    }

    /// `args` given as a string holding JSON are parsed; the confidence
    /// must be finite.
    fn finish(self) -> Result<EventInput, String> {
        let mut event = self;
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

    /// The event as the monitor takes it, moved out of the input.
    #[must_use]
    pub fn into_proposed(self) -> ProposedEvent {
        ProposedEvent {
            tool: self.tool,
            destination: self.destination,
            mode: self.mode,
            confidence: self.confidence,
            branch: self.branch,
            args: self.args,
        }
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
