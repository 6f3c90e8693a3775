//! The monitor: complete mediation by construction (assumption A1).
//!
//! Events move `Issued -> Decided -> Dispatched -> Completed`, each state a
//! distinct type:
//!
//! ```text
//! ProposedEvent --issue--> Issued --decide--> Decided --into_outcome--> Outcome
//!   Outcome::Dispatch(DispatchTicket) --dispatch--> Dispatched --complete--> Completed
//!   Outcome::Shadowed(Shadowed)     substitute result, nothing left the boundary
//!   Outcome::Deferred(Deferred)     queued on its branch: promote or abandon
//!   Outcome::Blocked(Denial)        dropped
//! ```
//!
//! Only the monitor constructs a [`DispatchTicket`] (no public constructor,
//! private fields), and only for ALLOW or a REWRITE whose output re-labels
//! below the cut; the call payload ([`ToolCall`]) is reachable only from a
//! [`Dispatched`], which only a ticket turns into. Skipping a state does not
//! compile; handing back a value from an earlier task is an error.
//!
//! Fail-closed rules: an event the table cannot place (unknown mode, NaN
//! confidence) is BLOCKed; unknown tools and destinations and missing labels
//! go through the table's `<unknown>`/`<missing>` values, which the compiler
//! proves never reach ALLOW; a rewrite that leaves a field at or above the cut,
//! a SHADOW without a registered substitute, and an audit sink failure all end
//! in DEFER (speculative events) or BLOCK (committed ones; audit failures
//! always BLOCK).
//!
//! An evaluation can install a label hook ([`Monitor::set_label_hook`]) that
//! changes the labeler's labels before each decision, at issue and on
//! promotion, to measure a contract under labeler errors; the guarantees
//! then hold only for the labels the hook leaves (assumption A2).
//!
//! Budgets count tickets handed out (ALLOW or successful REWRITE) whose
//! pre-rewrite label meets the budget's condition, when the ticket is handed
//! out rather than when the embedder dispatches, so holding tickets cannot
//! overrun a budget. They reset at `end_task`.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde_json::Value;

use crate::audit::{AuditRecord, AuditSink, FieldLabel, Stage};
use crate::decide::{Decision, LabelsIn, Query};
use crate::engine::{Engine, RewriteCell, Rewritten};
use crate::error::{DecideError, LoadError, MonitorError};
use crate::label::Labels;
use crate::table::{Action, OnPromote, Subject, Table, MISSING, UNKNOWN};

pub use crate::state::{
    Completed, Decided, Deferred, Denial, DispatchTicket, Dispatched, Issued, Outcome, Promoted,
    ProposedEvent, Reason, Shadowed, ToolCall,
};
use crate::state::{Pending, ShadowPending};

/// The declared destination with this id.
fn declared(engine: &Engine, dest: Option<u32>) -> Option<Box<crate::table::Destination>> {
    dest.and_then(|d| engine.table().destinations.get(d as usize))
        .map(|d| Box::new(d.clone()))
}

/// How an audit record names a field the tool does not declare.
pub const UNDECLARED: &str = "<undeclared>";

/// How an audit record names a destination the audit policy withholds
/// (`without destination unless dispatched`) from the record of an event
/// that never left.
pub const WITHHELD: &str = "<withheld>";

/// A trusted local substitute: a function of the call that never touches an
/// external observer.
pub type SubstituteFn = Box<dyn Fn(&ToolCall) -> Value + Send + Sync>;

/// A substitute that can fail (an embedder's callback in another language
/// that raised, say). A failure is treated as a missing substitute: the
/// event is DEFERred when speculative and BLOCKed when committed, with
/// [`Reason::SubstituteFailed`], and nothing leaves the boundary.
pub type FallibleSubstituteFn =
    Box<dyn Fn(&ToolCall) -> Result<Value, SubstituteFailed> + Send + Sync>;

/// A substitute's failure. It carries nothing: what a substitute saw is the
/// call's raw arguments, and its error text could quote them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubstituteFailed;

/// An evaluation hook on the labels of each decision (see
/// [`Monitor::set_label_hook`]).
///
/// It receives the event as decided (on promotion: with the committed mode
/// and confidence 1.0) and the labeler's labels, and may change the field
/// labels and the destination label in place. The monitor then recomputes
/// [`Labels::args`] as the join of the field labels, so the two never
/// disagree.
pub type LabelHook = Box<dyn FnMut(&ProposedEvent, &mut Labels) + Send>;

struct Task {
    id: String,
    used: Vec<u32>,
    deferred: Vec<Pending>,
    shadowed: Vec<ShadowPending>,
    /// Rewritten speculative calls whose rule says `on promote reissue`:
    /// their original arguments, kept until the branch ends.
    reissue: Vec<Pending>,
}

/// Bounds on what one task holds in memory: events waiting on their branch
/// (DEFER) and substitute results waiting for promotion (SHADOW). An event
/// that would go past a bound is BLOCKed with [`Reason::QueueFull`] instead
/// of growing memory (fail closed: it is neither dispatched nor kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deferred events per task, with the rewritten calls kept for a
    /// reissue on promotion (`on promote reissue`).
    pub deferred: usize,
    /// Shadowed results per task.
    pub shadowed: usize,
}

impl Default for Limits {
    /// 4,096 of each: far beyond any speculative frontier an agent keeps
    /// open, and a few megabytes at most.
    fn default() -> Limits {
        Limits {
            deferred: 4096,
            shadowed: 4096,
        }
    }
}

/// The runtime monitor of one agent session.
pub struct Monitor {
    engine: Arc<Engine>,
    sink: Box<dyn AuditSink + Send>,
    substitutes: HashMap<String, FallibleSubstituteFn>,
    task: Option<Task>,
    generation: u64,
    next_seq: u64,
    label_hook: Option<LabelHook>,
    limits: Limits,
}

impl std::fmt::Debug for Monitor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Monitor")
            .field("contract", &self.engine.table().contract)
            .field("task", &self.task.as_ref().map(|t| t.id.as_str()))
            .field("next_seq", &self.next_seq)
            .field("label_hook", &self.label_hook.is_some())
            .finish_non_exhaustive()
    }
}

impl Monitor {
    /// A monitor over a table, recording to `sink`.
    ///
    /// # Errors
    ///
    /// The table's labeler does not compile or has no `committed` mode.
    pub fn new(table: Arc<Table>, sink: Box<dyn AuditSink + Send>) -> Result<Monitor, LoadError> {
        Ok(Monitor::with_engine(Arc::new(Engine::new(table)?), sink))
    }

    /// A monitor over an already compiled engine (shared between sessions).
    #[must_use]
    pub fn with_engine(engine: Arc<Engine>, sink: Box<dyn AuditSink + Send>) -> Monitor {
        Monitor {
            engine,
            sink,
            substitutes: HashMap::new(),
            task: None,
            generation: 0,
            next_seq: 0,
            label_hook: None,
            limits: Limits::default(),
        }
    }

    /// Sets the bounds on a task's queues (see [`Limits`]); they apply to
    /// the events decided from now on.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The bounds on a task's queues.
    #[must_use]
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The engine.
    #[must_use]
    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    /// Register the implementation of a substitute named in the table.
    pub fn register_substitute(&mut self, name: impl Into<String>, f: SubstituteFn) {
        self.substitutes
            .insert(name.into(), Box::new(move |call| Ok(f(call))));
    }

    /// Register a substitute that can fail (see [`FallibleSubstituteFn`]).
    pub fn register_fallible_substitute(
        &mut self,
        name: impl Into<String>,
        f: FallibleSubstituteFn,
    ) {
        self.substitutes.insert(name.into(), f);
    }

    /// Install an **evaluation hook** on labels, replacing any previous one.
    ///
    /// The hook runs in every decision, right after the labeler and before
    /// the decision point is built: when an event is decided at issue and
    /// when a promoted branch re-decides a deferred or re-issued shadowed
    /// event. It may change [`Labels::fields`] and [`Labels::destination`];
    /// the monitor then recomputes [`Labels::args`] as the join of the field
    /// labels (`None`, read as `<missing>`, when the arguments are not a JSON
    /// object), so a hook moves the argument label only through the fields.
    /// A label id outside its lattice fails closed (BLOCK), as any invalid
    /// label does.
    ///
    /// It exists to measure a contract under labeler errors (the paper's
    /// false-negative label noise), not for production: it changes the
    /// labels *before* the decision, so the contract's guarantees hold only
    /// for the labels it leaves (assumption A2, a sound labeler, is the
    /// hook's responsibility). The decision, the budgets, which fields a
    /// REWRITE transforms, and the audit record's labels all use the hooked
    /// labels; the check after a REWRITE re-labels the rewritten arguments
    /// with the labeler itself, not the hook. The hook sees the event (raw
    /// arguments included) in memory only: it has no access to the audit
    /// sink, and nothing of it reaches a log except the label names the
    /// decision used.
    pub fn set_label_hook(&mut self, hook: LabelHook) {
        self.label_hook = Some(hook);
    }

    /// Remove the label hook; returns it, if one was installed.
    pub fn clear_label_hook(&mut self) -> Option<LabelHook> {
        self.label_hook.take()
    }

    /// Start a task: fresh budgets, empty queues.
    ///
    /// # Errors
    ///
    /// [`MonitorError::TaskActive`] if a task is already running.
    pub fn begin_task(&mut self, task_id: impl Into<String>) -> Result<(), MonitorError> {
        if self.task.is_some() {
            return Err(MonitorError::TaskActive);
        }
        self.generation += 1;
        self.task = Some(Task {
            id: task_id.into(),
            used: vec![0; self.engine.table().budgets.len()],
            deferred: Vec::new(),
            shadowed: Vec::new(),
            reissue: Vec::new(),
        });
        Ok(())
    }

    /// Counts `n` dispatches against budget `budget` in the current task,
    /// made before this monitor saw the task: a task resumed in another
    /// process, or a contract test's `after n dispatches of budget`. It
    /// only ever adds, so it can exhaust a budget, never refill one.
    ///
    /// # Errors
    ///
    /// [`MonitorError::NoTask`] outside a task; [`MonitorError::UnknownBudget`]
    /// for a name the table does not declare.
    pub fn record_prior_dispatches(&mut self, budget: &str, n: u32) -> Result<(), MonitorError> {
        let i = self
            .engine
            .table()
            .budgets
            .iter()
            .position(|b| b.name == budget)
            .ok_or(MonitorError::UnknownBudget)?;
        let task = self.task.as_mut().ok_or(MonitorError::NoTask)?;
        if let Some(u) = task.used.get_mut(i) {
            *u = u.saturating_add(n);
        }
        Ok(())
    }

    /// End the task: abandon every branch still pending, reset budgets, and
    /// scrub raw arguments from the audit sink when the policy says so.
    /// Returns how many pending events were dropped.
    ///
    /// # Errors
    ///
    /// [`MonitorError::NoTask`], or the sink failed to record or scrub.
    pub fn end_task(&mut self) -> Result<usize, MonitorError> {
        let branches: Vec<String> = {
            let task = self.task.as_ref().ok_or(MonitorError::NoTask)?;
            let mut b: Vec<String> = task
                .deferred
                .iter()
                .map(|p| p.event.branch.clone())
                .collect();
            b.extend(task.shadowed.iter().map(|s| s.event.branch.clone()));
            b.sort();
            b.dedup();
            b
        };
        // The task ends whatever fails on the way: a failed abandon record
        // or scrub is reported, and the next task can begin.
        let mut dropped = 0;
        let mut first_error = None;
        for b in branches {
            match self.abandon(&b) {
                Ok(n) => dropped += n,
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        let task = self.task.take().ok_or(MonitorError::NoTask)?;
        if self.engine.table().audit.scrub_after_commit && self.audits() {
            if let Err(e) = self.sink.scrub(&task.id) {
                first_error.get_or_insert(e.into());
            }
        }
        first_error.map_or(Ok(dropped), Err)
    }

    /// Times budget `i` has been charged in this task.
    #[must_use]
    pub fn budget_used(&self, i: usize) -> Option<u32> {
        self.task.as_ref().and_then(|t| t.used.get(i).copied())
    }

    /// Events waiting on a branch (deferred or shadowed).
    #[must_use]
    pub fn pending(&self, branch: &str) -> usize {
        self.task.as_ref().map_or(0, |t| {
            t.deferred
                .iter()
                .filter(|p| p.event.branch == branch)
                .count()
                + t.shadowed
                    .iter()
                    .filter(|s| s.event.branch == branch)
                    .count()
        })
    }

    /// Take in a proposed event. Nothing about it is recorded yet.
    ///
    /// # Errors
    ///
    /// [`MonitorError::NoTask`] outside a task.
    pub fn issue(&mut self, event: ProposedEvent) -> Result<Issued, MonitorError> {
        if self.task.is_none() {
            return Err(MonitorError::NoTask);
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        Ok(Issued::new(seq, self.generation, event))
    }

    /// Decide an issued event.
    ///
    /// # Errors
    ///
    /// [`MonitorError::StaleEvent`] for an event of an earlier task;
    /// [`MonitorError::NoTask`] outside a task.
    pub fn decide(&mut self, issued: Issued) -> Result<Decided, MonitorError> {
        let (seq, generation, event) = issued.into_parts();
        if generation != self.generation {
            return Err(MonitorError::StaleEvent { seq });
        }
        self.decide_event(seq, event)
    }

    /// `issue` then `decide`.
    ///
    /// # Errors
    ///
    /// As [`Monitor::issue`].
    pub fn submit(&mut self, event: ProposedEvent) -> Result<Decided, MonitorError> {
        let issued = self.issue(event)?;
        self.decide(issued)
    }

    /// Record that a dispatched call completed.
    ///
    /// # Errors
    ///
    /// [`MonitorError::StaleEvent`] for a call of an earlier task;
    /// [`MonitorError::NoTask`] outside a task.
    pub fn complete(&mut self, dispatched: Dispatched) -> Result<Completed, MonitorError> {
        if dispatched.generation() != self.generation || self.task.is_none() {
            return Err(MonitorError::StaleEvent {
                seq: dispatched.seq(),
            });
        }
        let rec = self.record_base(
            dispatched.seq(),
            dispatched.branch(),
            dispatched.tool(),
            dispatched.destination_id(),
            dispatched.mode(),
            Stage::Completed,
        );
        if self.audits() {
            self.sink.record(&rec)?;
        }
        Ok(dispatched.complete())
    }

    /// Promote a branch: re-decide its deferred events as `committed` with
    /// confidence 1.0, resolve its shadowed events as their substitute
    /// says (reuse the local result, or re-decide as committed), and
    /// re-decide as committed, with their original arguments, its rewritten
    /// calls whose rule says `on promote reissue`. A re-decided event keeps
    /// its sequence number: its [`Promoted::Decided`] replaces what the
    /// agent got for it at issue (the substitute's or the rewritten call's
    /// result).
    ///
    /// # Errors
    ///
    /// [`MonitorError::NoTask`] outside a task.
    pub fn promote(&mut self, branch: &str) -> Result<Vec<Promoted>, MonitorError> {
        let task = self.task.as_mut().ok_or(MonitorError::NoTask)?;
        let (deferred, keep): (Vec<Pending>, Vec<Pending>) = std::mem::take(&mut task.deferred)
            .into_iter()
            .partition(|p| p.event.branch == branch);
        task.deferred = keep;
        let (shadowed, keep): (Vec<ShadowPending>, Vec<ShadowPending>) =
            std::mem::take(&mut task.shadowed)
                .into_iter()
                .partition(|s| s.event.branch == branch);
        task.shadowed = keep;
        let (reissue, keep): (Vec<Pending>, Vec<Pending>) = std::mem::take(&mut task.reissue)
            .into_iter()
            .partition(|p| p.event.branch == branch);
        task.reissue = keep;
        let mut work: Vec<(u64, Option<Pending>, Option<ShadowPending>)> = deferred
            .into_iter()
            .chain(reissue)
            .map(|p| (p.seq, Some(p), None))
            .collect();
        work.extend(shadowed.into_iter().map(|s| (s.seq, None, Some(s))));
        work.sort_by_key(|(seq, _, _)| *seq);
        let committed = self.engine.committed_mode_name();
        let mut out = Vec::with_capacity(work.len());
        for (seq, pending, shadow) in work {
            match (pending, shadow) {
                (Some(p), _) => {
                    let mut ev = p.event;
                    ev.mode.clone_from(&committed);
                    ev.confidence = 1.0;
                    out.push(Promoted::Decided(Box::new(self.decide_event(seq, ev)?)));
                }
                (None, Some(s)) => match s.on_promote {
                    OnPromote::Reuse => out.push(Promoted::Reused(s.result)),
                    OnPromote::Reissue => {
                        let mut ev = s.event;
                        ev.mode.clone_from(&committed);
                        ev.confidence = 1.0;
                        out.push(Promoted::Decided(Box::new(self.decide_event(seq, ev)?)));
                    }
                },
                (None, None) => {}
            }
        }
        Ok(out)
    }

    /// Abandon a branch: drop its deferred and shadowed events with no
    /// external dispatch, and forget the original arguments of its
    /// rewritten calls kept for a reissue (those calls were dispatched,
    /// rewritten, and are not counted). Returns how many were dropped.
    ///
    /// # Errors
    ///
    /// [`MonitorError::NoTask`] outside a task, or the sink failed.
    pub fn abandon(&mut self, branch: &str) -> Result<usize, MonitorError> {
        let task = self.task.as_mut().ok_or(MonitorError::NoTask)?;
        task.reissue.retain(|p| p.event.branch != branch);
        let mut dropped: Vec<(u64, String, String, String)> = Vec::new();
        task.deferred.retain(|p| {
            let keep = p.event.branch != branch;
            if !keep {
                dropped.push((
                    p.seq,
                    p.event.tool.clone(),
                    p.event.destination.clone(),
                    p.event.mode.clone(),
                ));
            }
            keep
        });
        task.shadowed.retain(|s| {
            let keep = s.event.branch != branch;
            if !keep {
                dropped.push((
                    s.seq,
                    s.event.tool.clone(),
                    s.event.destination.clone(),
                    s.event.mode.clone(),
                ));
            }
            keep
        });
        if self.audits() {
            let withhold = self.engine.table().audit.withhold_destination;
            for (seq, tool, dest, mode) in &dropped {
                let d = self.engine.decider().destination_id(dest);
                let mut rec = self.record_base(*seq, branch, tool, d, mode, Stage::Abandoned);
                if withhold {
                    WITHHELD.clone_into(&mut rec.destination);
                }
                self.sink.record(&rec)?;
            }
        }
        Ok(dropped.len())
    }

    fn audits(&self) -> bool {
        !self.engine.table().audit.sinks.is_empty()
    }

    fn record_base(
        &self,
        seq: u64,
        branch: &str,
        tool: &str,
        dest: Option<u32>,
        mode: &str,
        stage: Stage,
    ) -> AuditRecord {
        let t = self.engine.table();
        AuditRecord {
            task: self.task.as_ref().map(|t| t.id.clone()).unwrap_or_default(),
            branch: branch.to_owned(),
            seq,
            stage,
            tool: if self.engine.decider().tool_id(tool).is_some() {
                tool.to_owned()
            } else {
                UNKNOWN.to_owned()
            },
            destination: dest
                .and_then(|d| t.destinations.get(d as usize))
                .map_or_else(|| UNKNOWN.to_owned(), |d| d.name.clone()),
            mode: mode.to_owned(),
            action: None,
            rule_id: None,
            rule_name: None,
            reason: None,
            labels: Vec::new(),
            arg_label: None,
            dest_label: None,
            transformed: BTreeMap::new(),
            raw_args: None,
        }
    }

    fn budgets_exhausted(&self) -> Vec<bool> {
        let t = self.engine.table();
        let used = self.task.as_ref().map(|t| t.used.as_slice()).unwrap_or(&[]);
        t.budgets
            .iter()
            .enumerate()
            .map(|(i, b)| used.get(i).is_none_or(|u| *u >= b.limit))
            .collect()
    }

    /// Does this event's pre-rewrite labelling count against budget `b`?
    fn counts(&self, b: usize, labels: &Labels) -> bool {
        let t = self.engine.table();
        let Some(budget) = t.budgets.get(b) else {
            return true;
        };
        let (lat, l) = match budget.subject {
            Subject::Args => (&t.lattices.args, labels.args),
            Subject::Destination => (&t.lattices.destination, labels.destination),
        };
        l.is_none_or(|l| lat.leq(budget.at_least, l))
    }

    /// The whole decision path for one event: label, decide, act, audit,
    /// then charge the budgets and hand out the outcome. Each step is a
    /// method with a typed result, so the path reads as the paper's
    /// pipeline and nothing leaves before the audit record is written.
    fn decide_event(&mut self, seq: u64, event: ProposedEvent) -> Result<Decided, MonitorError> {
        let engine = Arc::clone(&self.engine);
        let labeled = self.label(&engine, &event);
        let verdict = self.cell(&engine, &event, &labeled);
        let acted = self.act(&engine, &event, &labeled, &verdict);
        let acted = self.audit(&engine, seq, &event, &labeled, &verdict, acted);
        let (action, reason, outcome) = self.settle(seq, event, &labeled, acted)?;
        let (rule_id, rule_name, cell) = (
            verdict.decision.rule_id,
            verdict.decision.rule_name.to_owned(),
            verdict.decision.cell,
        );
        Ok(
            Decided::new(seq, action, rule_id, rule_name, reason, outcome)
                .with_basis(labeled.labels, cell),
        )
    }

    /// Step 1: resolve the tool and destination and label the event (then
    /// the evaluation hook, if any).
    fn label(&mut self, engine: &Engine, event: &ProposedEvent) -> Labeled {
        let decider = engine.decider();
        let tool = decider.tool_id(&event.tool);
        let dest = decider.destination_id(&event.destination);
        // Arguments beyond the limits are not read at all: the event is
        // refused on the limit, before any labeler pass over them.
        let beyond_limits = crate::label::check_limits(&event.args).err();
        let mut labels = if beyond_limits.is_some() {
            Labels::default()
        } else {
            engine
                .labeler()
                .label(&event.tool, &event.args, dest, &event.destination)
        };
        if let Some(hook) = self.label_hook.as_mut().filter(|_| beyond_limits.is_none()) {
            hook(event, &mut labels);
            labels.args = rejoin(
                &engine.table().lattices.args,
                &labels.fields,
                event.args.is_object(),
            );
        }
        let mode = decider.mode_id(&event.mode);
        let speculative = mode != Some(engine.committed_mode());
        Labeled {
            tool,
            dest,
            labels,
            mode,
            speculative,
            beyond_limits,
        }
    }

    /// Step 2: the table's cell for the event (fail-closed BLOCK when the
    /// event cannot be placed), with the reason to report.
    fn cell<'e>(
        &self,
        engine: &'e Engine,
        event: &ProposedEvent,
        labeled: &Labeled,
    ) -> Verdict<'e> {
        let decider = engine.decider();
        if let Some(e) = labeled.beyond_limits {
            return Verdict {
                decision: Decision::fail_closed(),
                invalid: Some(e),
            };
        }
        let exhausted = self.budgets_exhausted();
        let field_refs = labeled.labels.field_refs();
        let query = Query {
            tool: &event.tool,
            destination: &event.destination,
            mode: &event.mode,
            confidence: event.confidence,
            labels: LabelsIn {
                args: labeled.labels.args,
                destination: labeled.labels.destination,
                fields: &field_refs,
            },
            budgets_exhausted: &exhausted,
        };
        match decider.point_resolved(labeled.tool, labeled.dest, &query) {
            Ok(p) => Verdict {
                decision: decider.decide_point(&p),
                invalid: None,
            },
            Err(e) => Verdict {
                decision: Decision::fail_closed(),
                invalid: Some(e),
            },
        }
    }

    /// Step 3: carry out the cell's action in memory: the outgoing arguments
    /// of ALLOW and REWRITE (re-labelled below the cut, A3), the substitute's
    /// result of SHADOW. A rewrite that leaves a forbidden field, or a
    /// SHADOW without a registered substitute, falls back to DEFER
    /// (speculative) or BLOCK (committed); an event that would overfill its
    /// task's queue is BLOCKed.
    fn act(
        &self,
        engine: &Engine,
        event: &ProposedEvent,
        labeled: &Labeled,
        verdict: &Verdict<'_>,
    ) -> Acted {
        let acted = self.act_on_cell(engine, event, labeled, verdict);
        let Some(task) = &self.task else {
            return acted;
        };
        let waiting = task.deferred.len() + task.reissue.len();
        let full = match (acted.action, &acted.payload) {
            (Action::Defer, _) | (Action::Rewrite, Payload::Dispatch { reissue: true, .. }) => {
                (waiting >= self.limits.deferred).then_some("deferred")
            }
            (Action::Shadow, Payload::Shadow { .. }) => {
                (task.shadowed.len() >= self.limits.shadowed).then_some("shadowed")
            }
            _ => None,
        };
        match full {
            Some(queue) => Acted {
                action: Action::Block,
                reason: Reason::QueueFull { queue },
                payload: Payload::Nothing,
            },
            None => acted,
        }
    }

    fn act_on_cell(
        &self,
        engine: &Engine,
        event: &ProposedEvent,
        labeled: &Labeled,
        verdict: &Verdict<'_>,
    ) -> Acted {
        let decision = &verdict.decision;
        let reason = verdict.invalid.map_or(Reason::Rule, Reason::InvalidEvent);
        let fallback = |reason: Reason| Acted {
            action: if labeled.speculative {
                Action::Defer
            } else {
                Action::Block
            },
            reason,
            payload: Payload::Nothing,
        };
        let payload = match decision.action {
            Action::Allow => Payload::Dispatch {
                args: event.args.clone(),
                transformed: BTreeMap::new(),
                reissue: false,
            },
            Action::Rewrite => match engine.rewrite(
                labeled.tool,
                labeled.mode,
                labeled.dest,
                RewriteCell {
                    transforms: decision.transforms,
                    scope: decision.scope,
                },
                &event.args,
                &labeled.labels,
            ) {
                Rewritten::Done { args, applied, .. } => {
                    // The audit keeps which transforms ran on which field,
                    // never the new value: it keeps every part of the raw
                    // value the transform did not replace.
                    let transformed = applied
                        .into_iter()
                        .map(|(f, names)| (f, Value::from(names)))
                        .collect();
                    Payload::Dispatch {
                        args,
                        transformed,
                        // Only a speculative call has a branch to promote.
                        reissue: decision.reissue && labeled.speculative,
                    }
                }
                Rewritten::Insufficient { fields } => {
                    return fallback(Reason::RewriteInsufficient { fields })
                }
            },
            Action::Shadow => match self.substitute(engine, labeled.tool, decision) {
                Some((name, on_promote, f)) => {
                    let call = ToolCall::new(
                        event.tool.clone(),
                        event.destination.clone(),
                        declared(engine, labeled.dest),
                        event.args.clone(),
                    );
                    match f(&call) {
                        Ok(result) => Payload::Shadow {
                            name,
                            on_promote,
                            result,
                        },
                        Err(SubstituteFailed) => return fallback(Reason::SubstituteFailed),
                    }
                }
                None => return fallback(Reason::NoSubstitute),
            },
            Action::Defer | Action::Block => Payload::Nothing,
        };
        Acted {
            action: decision.action,
            reason,
            payload,
        }
    }

    /// The substitute a SHADOW cell names (the tool's own when the cell names
    /// none) and its registered implementation.
    fn substitute(
        &self,
        engine: &Engine,
        tool: Option<u32>,
        decision: &Decision<'_>,
    ) -> Option<(String, OnPromote, &FallibleSubstituteFn)> {
        let t = engine.table();
        let sub = decision
            .substitute
            .or_else(|| {
                tool.and_then(|i| t.tools.get(i as usize))
                    .and_then(|x| x.substitute)
            })
            .and_then(|s| t.substitutes.get(s as usize))?;
        let f = self.substitutes.get(&sub.name)?;
        Some((sub.name.clone(), sub.on_promote, f))
    }

    /// Step 4: write the audit record before anything leaves; a record the
    /// sink refuses blocks the event.
    fn audit(
        &mut self,
        engine: &Engine,
        seq: u64,
        event: &ProposedEvent,
        labeled: &Labeled,
        verdict: &Verdict<'_>,
        acted: Acted,
    ) -> Acted {
        if !self.audits() {
            return acted;
        }
        let t = engine.table();
        let labels = &labeled.labels;
        let mut rec = self.record_base(
            seq,
            &event.branch,
            &event.tool,
            labeled.dest,
            &event.mode,
            Stage::Decided,
        );
        rec.action = Some(acted.action);
        rec.rule_id = verdict.decision.rule_id;
        rec.rule_name = Some(verdict.decision.rule_name.to_owned());
        rec.reason = Some(acted.reason.code().to_owned());
        let arg_name = |l: Option<u32>| {
            l.and_then(|l| t.lattices.args.label_name(l))
                .unwrap_or(MISSING)
                .to_owned()
        };
        // Only names the tool declares are recorded: an undeclared key is
        // the agent's text (a whole question can be a key) and is recorded
        // as `<undeclared>`, with its label.
        let declared = |f: &str| {
            labeled
                .tool
                .and_then(|i| t.tools.get(i as usize))
                .is_some_and(|d| d.args.iter().any(|a| a.name == f))
        };
        rec.labels = labels
            .fields
            .iter()
            .map(|(f, l)| FieldLabel {
                field: if declared(f) {
                    f.clone()
                } else {
                    UNDECLARED.to_owned()
                },
                label: arg_name(Some(*l)),
            })
            .collect();
        rec.arg_label = Some(arg_name(labels.args));
        rec.dest_label = Some(
            labels
                .destination
                .and_then(|l| t.lattices.destination.label_name(l))
                .unwrap_or(MISSING)
                .to_owned(),
        );
        if let Payload::Dispatch { transformed, .. } = &acted.payload {
            rec.transformed.clone_from(transformed);
        }
        // What the policy withholds from the record of an event that does
        // not leave now: the auditor is an observer too, and a deferred
        // ghost's destination or labels can name what the user never said.
        let leaves = matches!(acted.action, Action::Allow | Action::Rewrite);
        if !leaves && t.audit.withhold_destination {
            WITHHELD.clone_into(&mut rec.destination);
            rec.dest_label = None;
        }
        if !leaves && t.audit.withhold_labels {
            rec.labels.clear();
            rec.arg_label = None;
            rec.dest_label = None;
        }
        if t.audit.raw_args && !labeled.speculative {
            rec.raw_args = Some(event.args.clone());
        }
        match self.sink.record(&rec) {
            Ok(()) => acted,
            Err(_) => Acted {
                action: Action::Block,
                reason: Reason::AuditFailed,
                payload: Payload::Nothing,
            },
        }
    }

    /// Step 5: charge the budgets for a ticket, queue a shadowed or deferred
    /// event on its branch, and build the outcome.
    fn settle(
        &mut self,
        seq: u64,
        event: ProposedEvent,
        labeled: &Labeled,
        acted: Acted,
    ) -> Result<(Action, Reason, Outcome), MonitorError> {
        let Acted {
            action,
            mut reason,
            payload,
        } = acted;
        let outcome = match (action, payload) {
            (
                Action::Allow | Action::Rewrite,
                Payload::Dispatch {
                    args,
                    reissue: keep_original,
                    ..
                },
            ) => {
                let charge: Vec<bool> = (0..self.engine.table().budgets.len())
                    .map(|b| self.counts(b, &labeled.labels))
                    .collect();
                let task = self.task.as_mut().ok_or(MonitorError::NoTask)?;
                for (u, c) in task.used.iter_mut().zip(charge) {
                    if c {
                        *u = u.saturating_add(1);
                    }
                }
                let call = ToolCall::new(
                    event.tool.clone(),
                    event.destination.clone(),
                    declared(&self.engine, labeled.dest),
                    args,
                );
                let (branch, mode) = (event.branch.clone(), event.mode.clone());
                if keep_original {
                    task.reissue.push(Pending { seq, event });
                }
                Outcome::Dispatch(DispatchTicket::new(
                    seq,
                    self.generation,
                    (branch, mode),
                    labeled.dest,
                    call,
                    keep_original,
                ))
            }
            (
                Action::Shadow,
                Payload::Shadow {
                    name,
                    on_promote,
                    result,
                },
            ) => {
                let shadowed = Shadowed::new(seq, name, result);
                let task = self.task.as_mut().ok_or(MonitorError::NoTask)?;
                task.shadowed.push(ShadowPending {
                    seq,
                    event,
                    on_promote,
                    result: shadowed.clone(),
                });
                Outcome::Shadowed(shadowed)
            }
            (Action::Defer, _) => {
                let task = self.task.as_mut().ok_or(MonitorError::NoTask)?;
                let branch = event.branch.clone();
                task.deferred.push(Pending { seq, event });
                Outcome::Deferred(Deferred::new(seq, branch))
            }
            (action, _) => {
                if matches!(reason, Reason::Rule) && action != Action::Block {
                    // An action without its payload cannot happen; block.
                    reason = Reason::InvalidEvent(DecideError::LabelOutOfRange);
                }
                return Ok((
                    Action::Block,
                    reason.clone(),
                    Outcome::Blocked(Denial::new(seq, reason)),
                ));
            }
        };
        Ok((action, reason, outcome))
    }
}

/// What the labeling step found for one event.
struct Labeled {
    /// Tool id; `None` is `<unknown>`.
    tool: Option<u32>,
    /// Destination id; `None` is `<unknown>`.
    dest: Option<u32>,
    /// The labels the decision uses.
    labels: Labels,
    /// The mode's value id; `None` for a mode the table does not know.
    mode: Option<u32>,
    /// Any mode but `committed`.
    speculative: bool,
    /// The arguments were too deep or too large to read: fail closed.
    beyond_limits: Option<DecideError>,
}

/// The table's decision for one event, and why it could not be placed if
/// it could not.
struct Verdict<'e> {
    decision: Decision<'e>,
    invalid: Option<DecideError>,
}

/// An action carried out in memory, before anything leaves.
struct Acted {
    action: Action,
    reason: Reason,
    payload: Payload,
}

/// What an action hands on.
enum Payload {
    /// The arguments to dispatch, the fields a REWRITE changed, and
    /// whether the original is kept for a reissue on promotion.
    Dispatch {
        args: Value,
        transformed: BTreeMap<String, Value>,
        reissue: bool,
    },
    /// A substitute's result.
    Shadow {
        name: String,
        on_promote: OnPromote,
        result: Value,
    },
    /// Nothing (DEFER, BLOCK).
    Nothing,
}

/// The argument label after a label hook: the join of the field labels (the
/// bottom for an object without fields), `None` for arguments that are not
/// an object. An id outside the lattice wins the join (the larger id), so the
/// decision fails closed on it.
fn rejoin(lattice: &crate::table::Lattice, fields: &[(String, u32)], object: bool) -> Option<u32> {
    if !object {
        return None;
    }
    let joined = fields.iter().fold(None, |acc: Option<u32>, (_, l)| {
        Some(acc.map_or(*l, |a| lattice.join(a, *l).unwrap_or(a.max(*l))))
    });
    Some(joined.unwrap_or(lattice.bottom))
}
