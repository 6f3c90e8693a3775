//! The values an event passes through in the monitor (see [`crate::monitor`]).
//!
//! Every type that holds argument values has a hand-written `Debug` that
//! prints field names and sizes only. Types that unlock a dispatch have
//! private fields and no public constructor.

use serde_json::Value;

use crate::error::DecideError;
use crate::label::Labels;
use crate::table::{Action, OnPromote};

fn shape(v: &Value) -> String {
    match v {
        Value::Object(m) => format!("<object with {} fields>", m.len()),
        Value::Array(a) => format!("<array of {}>", a.len()),
        Value::String(s) => format!("<string of {} bytes>", s.len()),
        Value::Null => "<null>".to_owned(),
        Value::Bool(_) | Value::Number(_) => "<scalar>".to_owned(),
    }
}

/// An event the agent proposes to issue.
#[derive(Clone, PartialEq)]
pub struct ProposedEvent {
    /// Tool name.
    pub tool: String,
    /// Destination: a declared destination name, a host, a URL or a collection.
    pub destination: String,
    /// Execution mode (`committed`, `speculative`, ...).
    pub mode: String,
    /// Calibrated probability that the branch commits (1.0 for committed).
    pub confidence: f64,
    /// Branch of the speculative frontier the event belongs to.
    pub branch: String,
    /// Arguments: a JSON object of named fields.
    pub args: Value,
}

impl ProposedEvent {
    /// A committed event (confidence 1.0) on branch `main`.
    #[must_use]
    pub fn committed(
        tool: impl Into<String>,
        destination: impl Into<String>,
        args: Value,
    ) -> ProposedEvent {
        ProposedEvent {
            tool: tool.into(),
            destination: destination.into(),
            mode: "committed".to_owned(),
            confidence: 1.0,
            branch: "main".to_owned(),
            args,
        }
    }

    /// A speculative event on `branch` with `confidence`.
    #[must_use]
    pub fn speculative(
        tool: impl Into<String>,
        destination: impl Into<String>,
        branch: impl Into<String>,
        confidence: f64,
        args: Value,
    ) -> ProposedEvent {
        ProposedEvent {
            tool: tool.into(),
            destination: destination.into(),
            mode: "speculative".to_owned(),
            confidence,
            branch: branch.into(),
            args,
        }
    }
}

impl std::fmt::Debug for ProposedEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProposedEvent")
            .field("tool", &self.tool)
            .field("mode", &self.mode)
            .field("confidence", &self.confidence)
            .field("branch", &self.branch)
            .field("args", &format_args!("{}", shape(&self.args)))
            .finish_non_exhaustive()
    }
}

/// The payload the embedder sends: tool, destination and (possibly
/// rewritten) arguments.
#[derive(Clone, PartialEq)]
pub struct ToolCall {
    tool: String,
    destination: String,
    declared: Option<Box<crate::table::Destination>>,
    args: Value,
}

impl ToolCall {
    pub(crate) fn new(
        tool: String,
        destination: String,
        declared: Option<Box<crate::table::Destination>>,
        args: Value,
    ) -> ToolCall {
        ToolCall {
            tool,
            destination,
            declared,
            args,
        }
    }

    /// The declared destination the monitor resolved the call to (`None` for
    /// a destination the contract does not declare). Connect to its
    /// [`declared_address`](Self::declared_address), or check that the
    /// host your client connects to is that one: the raw string is what the
    /// agent wrote, and parsers disagree on strings such as
    /// `https://a.example\@b.example/` (the monitor refuses those).
    #[must_use]
    pub fn declared_destination(&self) -> Option<&str> {
        self.declared.as_ref().map(|d| d.name.as_str())
    }

    /// The declared destination's address: a host, a URL glob or a
    /// collection name.
    #[must_use]
    pub fn declared_address(&self) -> Option<&crate::table::Address> {
        self.declared.as_ref().map(|d| &d.address)
    }

    /// Tool name.
    #[must_use]
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// Destination as the agent gave it (see
    /// [`declared_address`](Self::declared_address) for what to connect to).
    #[must_use]
    pub fn destination(&self) -> &str {
        &self.destination
    }

    /// Arguments to send.
    #[must_use]
    pub fn args(&self) -> &Value {
        &self.args
    }
}

impl std::fmt::Debug for ToolCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolCall")
            .field("tool", &self.tool)
            .field("args", &format_args!("{}", shape(&self.args)))
            .finish_non_exhaustive()
    }
}

/// An event the monitor has taken in but not yet decided.
pub struct Issued {
    seq: u64,
    generation: u64,
    event: ProposedEvent,
}

impl Issued {
    pub(crate) fn new(seq: u64, generation: u64, event: ProposedEvent) -> Issued {
        Issued {
            seq,
            generation,
            event,
        }
    }

    pub(crate) fn into_parts(self) -> (u64, u64, ProposedEvent) {
        (self.seq, self.generation, self.event)
    }

    /// Sequence number.
    #[must_use]
    pub fn seq(&self) -> u64 {
        self.seq
    }
}

impl std::fmt::Debug for Issued {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Issued")
            .field("seq", &self.seq)
            .field("event", &self.event)
            .finish()
    }
}

/// Why the monitor took its action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The table's rule decided.
    Rule,
    /// The event could not be placed in the domain; failed closed.
    InvalidEvent(DecideError),
    /// A REWRITE left these fields at or above the cut (A3 failed at run time).
    RewriteInsufficient {
        /// Field names.
        fields: Vec<String>,
    },
    /// SHADOW needed a substitute that is not declared or not registered.
    NoSubstitute,
    /// SHADOW's substitute failed (a fallible substitute returned an error).
    SubstituteFailed,
    /// The audit sink failed, so nothing was dispatched.
    AuditFailed,
    /// The task already holds as many deferred events or shadowed results
    /// as its [`crate::monitor::Limits`] allow; the event is BLOCKed.
    QueueFull {
        /// `deferred` or `shadowed`.
        queue: &'static str,
    },
}

impl Reason {
    /// Stable code used in audit records.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Reason::Rule => "rule",
            Reason::InvalidEvent(_) => "invalid_event",
            Reason::RewriteInsufficient { .. } => "rewrite_insufficient",
            Reason::NoSubstitute => "no_substitute",
            Reason::SubstituteFailed => "substitute_failed",
            Reason::AuditFailed => "audit_failed",
            Reason::QueueFull { .. } => "queue_full",
        }
    }
}

/// A decided event.
#[derive(Debug)]
pub struct Decided {
    seq: u64,
    action: Action,
    rule_id: Option<u32>,
    rule_name: String,
    reason: Reason,
    outcome: Outcome,
    labels: Labels,
    cell: Option<u32>,
}

impl Decided {
    pub(crate) fn new(
        seq: u64,
        action: Action,
        rule_id: Option<u32>,
        rule_name: String,
        reason: Reason,
        outcome: Outcome,
    ) -> Decided {
        Decided {
            seq,
            action,
            rule_id,
            rule_name,
            reason,
            outcome,
            labels: Labels::default(),
            cell: None,
        }
    }

    /// The labels and table cell the decision was made on.
    pub(crate) fn with_basis(mut self, labels: Labels, cell: Option<u32>) -> Decided {
        self.labels = labels;
        self.cell = cell;
        self
    }

    /// The labels the decision was made on (before any rewrite): what an
    /// embedder reports without labeling the event a second time. Empty
    /// when the arguments were beyond the limits and were not read.
    #[must_use]
    pub fn labels(&self) -> &Labels {
        &self.labels
    }

    /// The table cell of the decision; `None` when it failed closed before
    /// reaching one.
    #[must_use]
    pub fn cell(&self) -> Option<u32> {
        self.cell
    }

    /// Sequence number.
    #[must_use]
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The action actually taken (a REWRITE that failed its re-label check
    /// reports DEFER or BLOCK here).
    #[must_use]
    pub fn action(&self) -> Action {
        self.action
    }

    /// Id of the rule whose cell was selected; `None` when the event could
    /// not be placed in the table (fail-closed BLOCK).
    #[must_use]
    pub fn rule_id(&self) -> Option<u32> {
        self.rule_id
    }

    /// Name of that rule.
    #[must_use]
    pub fn rule_name(&self) -> &str {
        &self.rule_name
    }

    /// Why.
    #[must_use]
    pub fn reason(&self) -> &Reason {
        &self.reason
    }

    /// The outcome, by reference.
    #[must_use]
    pub fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    /// The outcome; a ticket is only reachable this way.
    #[must_use]
    pub fn into_outcome(self) -> Outcome {
        self.outcome
    }
}

/// What the embedder does next.
#[derive(Debug)]
pub enum Outcome {
    /// ALLOW or REWRITE: dispatch with the ticket.
    Dispatch(DispatchTicket),
    /// SHADOW: the substitute's result, produced locally.
    Shadowed(Shadowed),
    /// DEFER: queued on its branch.
    Deferred(Deferred),
    /// BLOCK.
    Blocked(Denial),
}

/// Permission to dispatch one call. Only the monitor creates tickets.
pub struct DispatchTicket {
    seq: u64,
    generation: u64,
    branch: String,
    mode: String,
    destination_id: Option<u32>,
    call: ToolCall,
    reissue: bool,
}

impl DispatchTicket {
    pub(crate) fn new(
        seq: u64,
        generation: u64,
        (branch, mode): (String, String),
        destination_id: Option<u32>,
        call: ToolCall,
        reissue: bool,
    ) -> DispatchTicket {
        DispatchTicket {
            seq,
            generation,
            branch,
            mode,
            destination_id,
            call,
            reissue,
        }
    }

    /// Whether the monitor kept the original call to decide it again, as
    /// committed, when its branch is promoted (a speculative rewrite whose
    /// rule says `on promote reissue`): `Monitor::promote` of the branch
    /// then returns a decision for it, as it does for a deferred call.
    #[must_use]
    pub fn reissues_on_promote(&self) -> bool {
        self.reissue
    }

    /// Sequence number.
    #[must_use]
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// Tool name (for routing before dispatch).
    #[must_use]
    pub fn tool(&self) -> &str {
        self.call.tool()
    }

    /// Mark the call as sent and get its payload.
    #[must_use]
    pub fn dispatch(self) -> Dispatched {
        Dispatched { ticket: self }
    }
}

impl std::fmt::Debug for DispatchTicket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DispatchTicket")
            .field("seq", &self.seq)
            .field("call", &self.call)
            .finish_non_exhaustive()
    }
}

/// A call that is on its way; holds the payload.
#[derive(Debug)]
pub struct Dispatched {
    ticket: DispatchTicket,
}

impl Dispatched {
    /// The payload to send.
    #[must_use]
    pub fn call(&self) -> &ToolCall {
        &self.ticket.call
    }

    /// Sequence number.
    #[must_use]
    pub fn seq(&self) -> u64 {
        self.ticket.seq
    }

    pub(crate) fn generation(&self) -> u64 {
        self.ticket.generation
    }

    pub(crate) fn branch(&self) -> &str {
        &self.ticket.branch
    }

    pub(crate) fn mode(&self) -> &str {
        &self.ticket.mode
    }

    pub(crate) fn tool(&self) -> &str {
        self.ticket.call.tool()
    }

    pub(crate) fn destination_id(&self) -> Option<u32> {
        self.ticket.destination_id
    }

    pub(crate) fn complete(self) -> Completed {
        Completed {
            seq: self.ticket.seq,
            branch: self.ticket.branch,
        }
    }
}

/// A call whose completion the monitor recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completed {
    seq: u64,
    branch: String,
}

impl Completed {
    /// Sequence number.
    #[must_use]
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// Branch.
    #[must_use]
    pub fn branch(&self) -> &str {
        &self.branch
    }
}

/// A SHADOW result: produced by a trusted local substitute, never provider-visible.
#[derive(Clone, PartialEq)]
pub struct Shadowed {
    seq: u64,
    substitute: String,
    result: Value,
}

impl Shadowed {
    pub(crate) fn new(seq: u64, substitute: String, result: Value) -> Shadowed {
        Shadowed {
            seq,
            substitute,
            result,
        }
    }

    /// Sequence number.
    #[must_use]
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// Name of the substitute that ran.
    #[must_use]
    pub fn substitute(&self) -> &str {
        &self.substitute
    }

    /// Its result (marked non-provider-visible by construction).
    #[must_use]
    pub fn result(&self) -> &Value {
        &self.result
    }
}

impl std::fmt::Debug for Shadowed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shadowed")
            .field("seq", &self.seq)
            .field("substitute", &self.substitute)
            .field("result", &format_args!("{}", shape(&self.result)))
            .finish()
    }
}

/// A DEFERred event, queued on its branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deferred {
    seq: u64,
    branch: String,
}

impl Deferred {
    pub(crate) fn new(seq: u64, branch: String) -> Deferred {
        Deferred { seq, branch }
    }

    /// Sequence number.
    #[must_use]
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// Branch whose promotion re-decides it.
    #[must_use]
    pub fn branch(&self) -> &str {
        &self.branch
    }
}

/// A BLOCK.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Denial {
    seq: u64,
    reason: Reason,
}

impl Denial {
    pub(crate) fn new(seq: u64, reason: Reason) -> Denial {
        Denial { seq, reason }
    }

    /// Sequence number.
    #[must_use]
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// Why.
    #[must_use]
    pub fn reason(&self) -> &Reason {
        &self.reason
    }
}

/// The result of promoting one pending event.
#[derive(Debug)]
pub enum Promoted {
    /// Re-decided as committed (boxed: a decision is several times the
    /// size of a reused result).
    Decided(Box<Decided>),
    /// A shadowed event whose substitute result is reused.
    Reused(Shadowed),
}

/// A deferred event waiting for its branch.
pub(crate) struct Pending {
    pub(crate) seq: u64,
    pub(crate) event: ProposedEvent,
}

/// A shadowed event waiting for its branch.
pub(crate) struct ShadowPending {
    pub(crate) seq: u64,
    pub(crate) event: ProposedEvent,
    pub(crate) on_promote: OnPromote,
    pub(crate) result: Shadowed,
}
