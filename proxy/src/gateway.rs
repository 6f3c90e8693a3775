//! The decision core of the MCP gateway, independent of any transport: one
//! [`Monitor`] per task, each `tools/call` decided at issue time, deferred
//! calls held until their branch is promoted or abandoned.
//!
//! The transport (`crate::mcp`) turns a [`Verdict`] into protocol: forward
//! the (possibly rewritten) arguments, answer with a substitute's result,
//! answer a JSON-RPC error, or wait on a [`Held`] call.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};

use serde_json::{json, Map, Value};
use stpc_runtime::audit::{AuditRecord, AuditSink};
use stpc_runtime::{AuditError, Decided, Dispatched, Engine, Monitor, Outcome, ProposedEvent};
use tokio::sync::oneshot;

use crate::meta::Speculation;

/// JSON-RPC error code of a call the contract blocked.
pub const BLOCKED: i32 = -32001;
/// JSON-RPC error code of a deferred call whose branch was abandoned (or
/// whose task ended) before it was promoted.
pub const ABANDONED: i32 = -32002;
/// The internal marker of a call on an abandoned branch.
const ABANDONED_BRANCH: &str = "the branch was abandoned";

/// JSON-RPC error code of a call the gateway could not read.
pub const INVALID: i32 = -32602;

/// What the transport does with one `tools/call`.
#[derive(Debug)]
pub enum Verdict {
    /// Send the call upstream with these arguments (ALLOW: the client's;
    /// REWRITE: rewritten), then [`Gateway::complete`] it.
    Forward {
        /// The arguments to send.
        arguments: Map<String, Value>,
        /// The task the call belongs to.
        task: String,
        /// The monitor's record of the dispatch.
        dispatched: Box<Dispatched>,
        /// `{"action", "rule", "reason"}` of the decision.
        decision: Value,
    },
    /// Answer without touching the upstream: the substitute's result
    /// (SHADOW).
    Answer {
        /// The substitute's result.
        result: Value,
        /// `{"action", "rule", "reason"}` of the decision.
        decision: Value,
    },
    /// Answer a JSON-RPC error: the rule and reason, never the arguments.
    Refuse {
        /// JSON-RPC error code.
        code: i32,
        /// One line.
        message: String,
        /// `{"action", "rule", "reason"}`.
        data: Value,
    },
    /// The call is deferred: wait for its branch.
    Hold(Held),
}

/// A deferred call waiting on its branch.
#[derive(Debug)]
pub struct Held {
    /// Its sequence number in the task's monitor.
    pub seq: u64,
    /// `{"action": "defer", "rule", "reason"}` of the decision.
    pub decision: Value,
    /// Resolves when the branch is promoted (the new verdict) or abandoned.
    pub resolution: oneshot::Receiver<Verdict>,
}

struct Task {
    monitor: Monitor,
    /// Deferred calls: sequence number, branch, and who waits on them.
    held: Vec<(u64, String, oneshot::Sender<Verdict>)>,
    /// Branches already settled. A transport may decide a call after a
    /// settling notification that arrived later (requests run
    /// concurrently): a call on a promoted branch is then committed, one on
    /// an abandoned branch is refused, as it would have been in order.
    settled: HashMap<String, Settled>,
    /// Ended (and out of the map): a caller that found it before it ended
    /// starts the task anew instead.
    ended: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Settled {
    Promoted,
    Abandoned,
}

/// An audit sink shared by every task's monitor (one file for the gateway).
#[derive(Clone)]
pub struct SharedSink(pub Arc<Mutex<Box<dyn AuditSink + Send>>>);

impl AuditSink for SharedSink {
    fn record(&mut self, rec: &AuditRecord) -> Result<(), AuditError> {
        lock(&self.0).record(rec)
    }

    fn scrub(&mut self, task: &str) -> Result<(), AuditError> {
        lock(&self.0).scrub(task)
    }
}

fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every update of a task is one statement after its decision; a panic
    // elsewhere cannot leave it half-written.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A substitute's implementation, registered on every task's monitor.
pub type Substitute = Arc<dyn Fn(&stpc_runtime::ToolCall) -> Option<Value> + Send + Sync>;

/// The gateway: an engine, the upstream's destination, and the tasks.
pub struct Gateway {
    /// The table new tasks start on ([`Gateway::reload`] replaces it; a
    /// task keeps the engine it began with, so its budgets and held calls
    /// are never read against another table).
    engine: RwLock<Arc<Engine>>,
    destination: String,
    sink: SharedSink,
    substitutes: Vec<(String, Substitute)>,
    /// Each task behind a lock of its own: a decision that runs a slow
    /// substitute holds its task, not every task. Lock order: the map, then
    /// a task; the map is never taken while a task is held.
    tasks: Mutex<HashMap<String, Arc<Mutex<Task>>>>,
}

impl std::fmt::Debug for Gateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gateway")
            .field("contract", &self.engine().table().contract)
            .field("destination", &self.destination)
            .finish_non_exhaustive()
    }
}

/// `{"action", "rule", "reason"}` of a decision.
fn decision(d: &Decided) -> Value {
    json!({"action": d.action().as_str(), "rule": d.rule_name(), "reason": d.reason().code()})
}

fn refuse(d: &Decided) -> Verdict {
    let action = d.action().as_str();
    let (code, what) = if action == "defer" {
        (ABANDONED, "deferred")
    } else {
        (BLOCKED, "blocked")
    };
    Verdict::Refuse {
        code,
        message: format!(
            "stpc {what} this call (rule {}, reason {})",
            d.rule_name(),
            d.reason().code()
        ),
        data: json!({"action": action, "rule": d.rule_name(), "reason": d.reason().code()}),
    }
}

impl Gateway {
    /// A gateway deciding with `engine`, for an upstream reached at
    /// `destination` (a declared destination name, host or URL).
    pub fn new(
        engine: Arc<Engine>,
        destination: impl Into<String>,
        sink: Box<dyn AuditSink + Send>,
        substitutes: Vec<(String, Substitute)>,
    ) -> Gateway {
        Gateway {
            engine: RwLock::new(engine),
            destination: destination.into(),
            sink: SharedSink(Arc::new(Mutex::new(sink))),
            substitutes,
            tasks: Mutex::new(HashMap::new()),
        }
    }

    /// The engine new tasks start on.
    #[must_use]
    pub fn engine(&self) -> Arc<Engine> {
        Arc::clone(&self.engine.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Replace the table: every task begun from now on decides with
    /// `engine`; a task already begun ends on the table it began with.
    pub fn reload(&self, engine: Arc<Engine>) {
        *self.engine.write().unwrap_or_else(PoisonError::into_inner) = engine;
    }

    /// How many tasks are open, and how many of them on another table than
    /// the current one.
    #[must_use]
    pub fn tasks(&self) -> (usize, usize) {
        let current = self.engine();
        let tasks: Vec<Arc<Mutex<Task>>> = lock(&self.tasks).values().cloned().collect();
        let stale = tasks
            .iter()
            .filter(|t| !Arc::ptr_eq(lock(t).monitor.engine(), &current))
            .count();
        (tasks.len(), stale)
    }

    fn existing(&self, task: &str) -> Option<Arc<Mutex<Task>>> {
        lock(&self.tasks).get(task).cloned()
    }

    /// The table digest a task decides with (the current one for a task
    /// not begun yet).
    #[must_use]
    pub fn digest_of(&self, task: &str) -> String {
        self.existing(task).map_or_else(
            || self.engine().table().digest.clone(),
            |t| lock(&t).monitor.engine().table().digest.clone(),
        )
    }

    fn monitor(&self) -> Monitor {
        let mut m = Monitor::with_engine(self.engine(), Box::new(self.sink.clone()));
        for (name, f) in &self.substitutes {
            let f = Arc::clone(f);
            m.register_fallible_substitute(
                name.clone(),
                Box::new(move |call| f(call).ok_or(stpc_runtime::SubstituteFailed)),
            );
        }
        m
    }

    fn with_task<R>(&self, task: &str, f: impl FnOnce(&mut Task) -> R) -> Result<R, String> {
        // Twice at most: a task found just before it ended is started anew.
        for _ in 0..2 {
            let entry = {
                let mut tasks = lock(&self.tasks);
                match tasks.get(task) {
                    Some(t) => Arc::clone(t),
                    None => {
                        let mut monitor = self.monitor();
                        monitor.begin_task(task).map_err(|e| e.to_string())?;
                        let t = Arc::new(Mutex::new(Task {
                            monitor,
                            held: Vec::new(),
                            settled: HashMap::new(),
                            ended: false,
                        }));
                        tasks.insert(task.to_owned(), Arc::clone(&t));
                        t
                    }
                }
            };
            let mut t = lock(&entry);
            if !t.ended {
                return Ok(f(&mut t));
            }
        }
        Err("the task could not be started".to_owned())
    }

    /// Decide one `tools/call` to the gateway's upstream.
    pub fn call(
        &self,
        tool: &str,
        arguments: Option<Map<String, Value>>,
        spec: &Speculation,
    ) -> Verdict {
        self.call_to(tool, &self.destination, arguments, spec)
    }

    /// Decide one call to `destination` (a declared destination name, host
    /// or URL): `stpc serve`, whose callers reach many destinations.
    pub fn call_to(
        &self,
        tool: &str,
        destination: &str,
        arguments: Option<Map<String, Value>>,
        spec: &Speculation,
    ) -> Verdict {
        let mut event = ProposedEvent {
            tool: tool.to_owned(),
            destination: destination.to_owned(),
            mode: spec.mode.clone(),
            confidence: spec.confidence,
            branch: spec.branch.clone(),
            args: Value::Object(arguments.unwrap_or_default()),
        };
        let task = spec.task.clone();
        let decided = self.with_task(&task, |t| {
            match t.settled.get(&spec.branch) {
                Some(Settled::Abandoned) => return Err(ABANDONED_BRANCH.to_owned()),
                Some(Settled::Promoted) => {
                    event.mode = t.monitor.engine().committed_mode_name();
                    event.confidence = 1.0;
                }
                None => {}
            }
            t.monitor.submit(event).map_err(|e| e.to_string()).map(|d| {
                let seq = d.seq();
                let held = matches!(d.outcome(), Outcome::Deferred(_)).then(|| {
                    let (tx, rx) = oneshot::channel();
                    t.held.push((seq, spec.branch.clone(), tx));
                    rx
                });
                (d, held)
            })
        });
        match decided {
            Ok(Ok((d, Some(rx)))) => Verdict::Hold(Held {
                seq: d.seq(),
                decision: decision(&d),
                resolution: rx,
            }),
            Ok(Ok((d, None))) => self.verdict(&task, d),
            Ok(Err(e)) if e == ABANDONED_BRANCH => abandoned(),
            Ok(Err(e)) | Err(e) => Verdict::Refuse {
                code: BLOCKED,
                message: format!("stpc could not decide this call: {e}"),
                data: json!({"action": "block", "reason": "monitor"}),
            },
        }
    }

    fn verdict(&self, task: &str, d: Decided) -> Verdict {
        let refused = refuse(&d);
        let decision = decision(&d);
        match d.into_outcome() {
            Outcome::Dispatch(ticket) => {
                let sent = ticket.dispatch();
                match sent.call().args() {
                    Value::Object(m) => Verdict::Forward {
                        arguments: m.clone(),
                        task: task.to_owned(),
                        dispatched: Box::new(sent),
                        decision,
                    },
                    // A dispatch's arguments are the event's, an object.
                    _ => Verdict::Refuse {
                        code: BLOCKED,
                        message: "stpc blocked this call (arguments are not an object)".to_owned(),
                        data: json!({"action": "block", "reason": "invalid_event"}),
                    },
                }
            }
            Outcome::Shadowed(s) => Verdict::Answer {
                result: s.result().clone(),
                decision,
            },
            Outcome::Deferred(_) | Outcome::Blocked(_) => refused,
        }
    }

    /// Record that a forwarded call completed (in its task, if the task
    /// has not ended meanwhile: completion never starts a task).
    pub fn complete(&self, task: &str, dispatched: Dispatched) {
        // A failure to record completion cannot un-send the call; the
        // decision was audited before it left.
        if let Some(t) = self.existing(task) {
            let mut t = lock(&t);
            if !t.ended {
                let _ = t.monitor.complete(dispatched);
            }
        }
    }

    /// Promote a branch of a task: its held calls are decided again as
    /// committed and their waiters get the new verdicts. Returns how many.
    pub fn promote(&self, task: &str, branch: &str) -> usize {
        let promoted = self.with_task(task, |t| {
            t.settled.insert(branch.to_owned(), Settled::Promoted);
            let promoted = t.monitor.promote(branch).unwrap_or_default();
            let mut waiters: HashMap<u64, oneshot::Sender<Verdict>> = HashMap::new();
            let mut keep = Vec::new();
            for (seq, b, tx) in t.held.drain(..) {
                if b == branch {
                    waiters.insert(seq, tx);
                } else {
                    keep.push((seq, b, tx));
                }
            }
            t.held = keep;
            (promoted, waiters)
        });
        let Ok((promoted, mut waiters)) = promoted else {
            return 0;
        };
        let mut n = 0;
        for p in promoted {
            let (seq, verdict) = match p {
                stpc_runtime::Promoted::Decided(d) => {
                    let seq = d.seq();
                    let held = matches!(d.outcome(), Outcome::Deferred(_));
                    if held {
                        // Deferred again (a committed rewrite that still
                        // fails): it stays held on no branch; answer now.
                        (seq, refuse(&d))
                    } else {
                        (seq, self.verdict(task, *d))
                    }
                }
                stpc_runtime::Promoted::Reused(s) => (
                    s.seq(),
                    Verdict::Answer {
                        result: s.result().clone(),
                        decision: json!({"action": "shadow", "reason": "reused"}),
                    },
                ),
            };
            if let Some(tx) = waiters.remove(&seq) {
                let _ = tx.send(verdict);
                n += 1;
            }
        }
        // Held calls the monitor no longer had (shadowed ones resolve at
        // once; none should remain) are abandoned rather than left waiting.
        for (_, tx) in waiters {
            let _ = tx.send(abandoned());
        }
        n
    }

    /// Abandon a branch: its held calls are answered with the abandoned
    /// error and never reach the upstream. Returns how many.
    pub fn abandon(&self, task: &str, branch: &str) -> usize {
        let waiters = self.with_task(task, |t| {
            t.settled.insert(branch.to_owned(), Settled::Abandoned);
            let _ = t.monitor.abandon(branch);
            let (gone, keep): (Vec<_>, Vec<_>) =
                t.held.drain(..).partition(|(_, b, _)| b == branch);
            t.held = keep;
            gone
        });
        let gone = waiters.unwrap_or_default();
        let n = gone.len();
        for (_, _, tx) in gone {
            let _ = tx.send(abandoned());
        }
        n
    }

    /// End every task whose name starts with `prefix` (a session's, when
    /// the session closes). Returns how many held calls were dropped.
    pub fn end_tasks_under(&self, prefix: &str) -> usize {
        let names: Vec<String> = lock(&self.tasks)
            .keys()
            .filter(|t| t.starts_with(prefix))
            .cloned()
            .collect();
        names.iter().map(|t| self.end_task(t)).sum()
    }

    /// End a task: every held call is abandoned, budgets reset.
    pub fn end_task(&self, task: &str) -> usize {
        let Some(entry) = lock(&self.tasks).remove(task) else {
            return 0;
        };
        let mut t = lock(&entry);
        t.ended = true;
        let _ = t.monitor.end_task();
        let n = t.held.len();
        for (_, _, tx) in t.held.drain(..) {
            let _ = tx.send(abandoned());
        }
        n
    }
}

/// The verdict of a held call that was dropped (its branch abandoned, its
/// task ended): refused, never sent.
#[must_use]
pub fn dropped() -> Verdict {
    abandoned()
}

fn abandoned() -> Verdict {
    Verdict::Refuse {
        code: ABANDONED,
        message: "stpc dropped this deferred call: its branch was abandoned".to_owned(),
        data: json!({"action": "defer", "reason": "abandoned"}),
    }
}
