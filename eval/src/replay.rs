//! Replay: every task of a frontier through the runtime monitor.
//!
//! This is the only module that touches `stpc-runtime`'s API, so a change
//! there is a change here only. Per task:
//!
//! 1. **S.** `begin_task`; `issue`+`decide` every candidate in order with
//!    its mode, branch and confidence; dispatch every ticket at once (the
//!    replay is the embedder: a ticket is sent at issue time); `promote`
//!    each committed branch in order of first appearance (deferred events
//!    are re-decided as committed and, when dispatched, sent at commit
//!    time; shadowed ones are reused or re-issued as their substitute says);
//!    `abandon` every other branch; `end_task` (which also runs a
//!    `scrub after commit` audit policy).
//! 2. **C.** A fresh monitor over the same engine issues only the committed
//!    plan, each event `committed` with confidence 1.0, committed-mode
//!    candidates at their issue time and promoted ones at commit time.
//!
//! Every substitute the table declares is registered with a stand-in that
//! returns `{"substitute": name}`: a replay measures what leaves, not what
//! the substitute answers. The audit sink is a [`MemorySink`] per run.
//!
//! **No-Spec** is a contract that defers every speculative event; it needs
//! no special mode. [`ReplayMode::CommittedOnly`] also offers it as a
//! replay mode for any contract: S is then C itself.
//!
//! **Label noise** ([`ReplayOptions::noise`], the paper's Table 10) goes
//! through the monitor's label hook (`Monitor::set_label_hook`): every
//! decision, at issue and on promotion, in S and in C, first has its labels
//! perturbed by [`LabelNoise::downgrade`], keyed by the task and the
//! candidate id, so a candidate draws the same noise wherever it is decided
//! and under every policy. The replay tells the hook which candidate each
//! decision belongs to: the one being issued, or on promotion the branch's
//! candidates the monitor re-decides (deferred ones, and shadowed ones whose
//! substitute re-issues) in issue order, the order the monitor re-decides
//! them in. A decision the hook cannot attribute is an error
//! ([`ReplayError::NoiseLost`]), never a silent misattribution. The labels
//! recorded for what was sent stay the labeler's own: a replay measures
//! what leaked on the true labels.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde_json::{json, Value};
use stpc_runtime::table::{Action, Lattice, OnPromote, MISSING};
use stpc_runtime::{
    Engine, Labels, LoadError, MemorySink, Monitor, Outcome, Promoted, ProposedEvent, Table,
};

use crate::frontier::Task;
use crate::trace::{
    latency_ms, Act, AuditEntry, Dispatch, LogEntry, NoiseStats, Run, Sent, TaskTrace, TraceEvent,
    LOCAL_MS,
};

/// A contract ready to replay: a name and a compiled engine, shareable
/// across threads.
#[derive(Clone)]
pub struct Contract {
    name: String,
    engine: Arc<Engine>,
}

impl std::fmt::Debug for Contract {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Contract")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Contract {
    /// Compile a table's labeler and lookups once.
    ///
    /// # Errors
    ///
    /// The runtime refuses the table.
    pub fn new(name: impl Into<String>, table: Table) -> Result<Contract, ReplayError> {
        Contract::built(name.into(), Engine::new(Arc::new(table)))
    }

    fn built(name: String, engine: Result<Engine, LoadError>) -> Result<Contract, ReplayError> {
        let engine = engine.map_err(|e| ReplayError::Table {
            contract: name.clone(),
            message: e.to_string(),
        })?;
        Ok(Contract {
            name,
            engine: Arc::new(engine),
        })
    }

    /// A contract for `table` that shares `other`'s labeler when the two
    /// label alike ([`Engine::new_sharing`]).
    ///
    /// # Errors
    ///
    /// As [`Contract::new`].
    pub fn sharing(
        name: impl Into<String>,
        table: Table,
        other: &Contract,
    ) -> Result<Contract, ReplayError> {
        Contract::built(
            name.into(),
            Engine::new_sharing(Arc::new(table), &other.engine),
        )
    }

    /// Whether `table` labels exactly as this contract's table does.
    #[must_use]
    pub fn labels_like(&self, table: &Table) -> bool {
        self.engine.labels_like(table)
    }

    /// The same contract (the same engine) under another name.
    #[must_use]
    pub fn renamed(&self, name: impl Into<String>) -> Contract {
        Contract {
            name: name.into(),
            engine: Arc::clone(&self.engine),
        }
    }

    /// The policy name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the audit policy scrubs after commit (Late-Scrub).
    #[must_use]
    pub fn scrubs_after_commit(&self) -> bool {
        self.engine.table().audit.scrub_after_commit
    }

    /// The table.
    #[must_use]
    pub fn table(&self) -> &Table {
        self.engine.table()
    }

    /// The contract name inside the table.
    #[must_use]
    pub fn table_contract(&self) -> &str {
        &self.engine.table().contract
    }
}

/// How a task is replayed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReplayMode {
    /// Issue every candidate (the normal replay).
    #[default]
    Speculative,
    /// Issue only the committed plan (No-Spec as a replay mode).
    CommittedOnly,
}

/// False-negative label noise (the paper's Table 10).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelNoise {
    /// Probability of downgrading a sensitive or intent-revealing argument
    /// field, or a sensitive destination, to public.
    pub rate: f64,
    /// Seed.
    pub seed: u64,
}

impl LabelNoise {
    /// Argument labels the noise downgrades.
    pub const ARG_LABELS: [&'static str; 2] = ["sensitive", "intent_revealing"];
    /// Destination labels the noise downgrades.
    pub const DEST_LABELS: [&'static str; 1] = ["sensitive"];
    /// What they are downgraded to.
    pub const TO: &'static str = "public";

    /// Apply false-negative noise to one event's label names, in place;
    /// returns how many labels flipped. The draw for a field depends only on
    /// the seed, the task, the candidate and the field, never on the policy,
    /// so every policy of a paired comparison sees the same noisy labels.
    pub fn downgrade(
        &self,
        task: &str,
        candidate: &str,
        fields: &mut [(String, String)],
        destination: &mut String,
    ) -> usize {
        let mut flipped = 0;
        let draw = |what: &str| {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for b in task
                .bytes()
                .chain([0])
                .chain(candidate.bytes())
                .chain([0])
                .chain(what.bytes())
            {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
            crate::stats::Rng::stream(self.seed, h).chance(self.rate)
        };
        for (name, label) in fields.iter_mut() {
            if Self::ARG_LABELS.contains(&label.as_str()) && draw(name) {
                Self::TO.clone_into(label);
                flipped += 1;
            }
        }
        if Self::DEST_LABELS.contains(&destination.as_str()) && draw("\u{0}destination") {
            Self::TO.clone_into(destination);
            flipped += 1;
        }
        flipped
    }

    /// Whether the rate is a probability.
    ///
    /// # Errors
    ///
    /// [`ReplayError::NoiseRate`] for a rate outside `[0, 1]` or not a number.
    pub fn check(&self) -> Result<(), ReplayError> {
        if (0.0..=1.0).contains(&self.rate) {
            Ok(())
        } else {
            Err(ReplayError::NoiseRate {
                rate: self.rate.to_string(),
            })
        }
    }

    /// How many labels of an event [`LabelNoise::downgrade`] may flip.
    #[must_use]
    pub fn eligible(fields: &[(String, String)], destination: &str) -> usize {
        fields
            .iter()
            .filter(|(_, l)| Self::ARG_LABELS.contains(&l.as_str()))
            .count()
            + usize::from(Self::DEST_LABELS.contains(&destination))
    }
}

/// Replay options.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReplayOptions {
    /// Replay mode.
    pub mode: ReplayMode,
    /// Label noise, applied through the monitor's label hook (see the
    /// module docs).
    pub noise: Option<LabelNoise>,
}

/// What can go wrong in a replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The runtime refused the table.
    #[error("contract `{contract}`: the runtime refused the table: {message}")]
    Table {
        /// Policy name.
        contract: String,
        /// The runtime's error.
        message: String,
    },
    /// The monitor returned an error.
    #[error("task `{task}`: monitor error: {message}")]
    Monitor {
        /// Task id.
        task: String,
        /// The runtime's error.
        message: String,
    },
    /// A label-noise rate that is not a probability.
    #[error("label-noise rate {rate} is not a probability in [0, 1]")]
    NoiseRate {
        /// The rate, as given.
        rate: String,
    },
    /// A lattice without the label noise downgrades to.
    #[error(
        "contract `{contract}`: label noise downgrades to `{}`, which the {lattice} lattice lacks",
        LabelNoise::TO
    )]
    NoiseTarget {
        /// Policy name.
        contract: String,
        /// `argument` or `destination`.
        lattice: &'static str,
    },
    /// A noisy decision could not be attributed to its candidate.
    #[error("task `{task}`: label noise could not attribute a decision to its candidate (expected {expected:?}, decided {decided:?})")]
    NoiseLost {
        /// Task id.
        task: String,
        /// Candidate ids the replay expected to be decided.
        expected: Vec<String>,
        /// Candidate ids the label hook saw decided.
        decided: Vec<String>,
    },
}

fn act(a: Action) -> Act {
    match a {
        Action::Allow => Act::Allow,
        Action::Rewrite => Act::Rewrite,
        Action::Shadow => Act::Shadow,
        Action::Defer => Act::Defer,
        Action::Block => Act::Block,
    }
}

/// What the label hook shares with its replay: which candidates the next
/// decisions belong to, which ones it saw, and what it flipped.
#[derive(Debug)]
struct NoiseCursor {
    noise: LabelNoise,
    task: String,
    /// Candidate ids of the decisions to come, in order.
    queue: VecDeque<String>,
    /// Candidate ids decided since the last [`Recorder::expect`].
    decided: Vec<String>,
    /// Count the labels of these decisions (issue time in S).
    count: bool,
    stats: NoiseStats,
}

impl NoiseCursor {
    /// Perturb one decision's labels.
    fn apply(
        &mut self,
        args: &Lattice,
        destination: &Lattice,
        to: (u32, u32),
        labels: &mut Labels,
    ) {
        let Some(candidate) = self.queue.pop_front() else {
            // Unattributed: leave the labels; the replay reports the mismatch.
            self.decided.push(String::new());
            return;
        };
        let name = |lat: &Lattice, l: u32| lat.label_name(l).unwrap_or(MISSING).to_owned();
        let mut fields: Vec<(String, String)> = labels
            .fields
            .iter()
            .map(|(f, l)| (f.clone(), name(args, *l)))
            .collect();
        let mut dest = labels
            .destination
            .map_or_else(|| MISSING.to_owned(), |l| name(destination, l));
        let eligible = LabelNoise::eligible(&fields, &dest);
        let flipped = self
            .noise
            .downgrade(&self.task, &candidate, &mut fields, &mut dest);
        if flipped > 0 {
            for ((_, id), (_, l)) in labels.fields.iter_mut().zip(&fields) {
                if l == LabelNoise::TO {
                    *id = to.0;
                }
            }
            if dest == LabelNoise::TO {
                labels.destination = Some(to.1);
            }
        }
        if self.count {
            self.stats = self.stats + NoiseStats { eligible, flipped };
        }
        self.decided.push(candidate);
    }
}

fn lock(cursor: &Mutex<NoiseCursor>) -> MutexGuard<'_, NoiseCursor> {
    cursor.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One run over one monitor: collects sends, log entries and audit records.
struct Recorder<'a> {
    engine: &'a Engine,
    monitor: Monitor,
    sink: MemorySink,
    seq: HashMap<u64, usize>,
    run: Run,
    task: String,
    noise: Option<Arc<Mutex<NoiseCursor>>>,
}

impl<'a> Recorder<'a> {
    fn new(
        contract: &'a Contract,
        task: &str,
        suffix: &str,
        noise: Option<LabelNoise>,
    ) -> Result<Recorder<'a>, ReplayError> {
        let engine = &contract.engine;
        let sink = MemorySink::new();
        let mut monitor = Monitor::with_engine(Arc::clone(engine), Box::new(sink.handle()));
        for s in &engine.table().substitutes {
            let name = s.name.clone();
            monitor.register_substitute(
                s.name.clone(),
                Box::new(move |_| json!({ "substitute": name })),
            );
        }
        let noise = match noise {
            Some(n) => {
                let cursor = Arc::new(Mutex::new(NoiseCursor {
                    noise: n,
                    task: task.to_owned(),
                    queue: VecDeque::new(),
                    decided: Vec::new(),
                    count: false,
                    stats: NoiseStats::default(),
                }));
                let lattices = &engine.table().lattices;
                let (args, destination) = (lattices.args.clone(), lattices.destination.clone());
                let target = |lat: &Lattice, which: &'static str| {
                    lat.label_id(LabelNoise::TO)
                        .ok_or_else(|| ReplayError::NoiseTarget {
                            contract: contract.name.clone(),
                            lattice: which,
                        })
                };
                let to = (
                    target(&args, "argument")?,
                    target(&destination, "destination")?,
                );
                let shared = Arc::clone(&cursor);
                monitor.set_label_hook(Box::new(move |_, labels| {
                    lock(&shared).apply(&args, &destination, to, labels)
                }));
                Some(cursor)
            }
            None => None,
        };
        monitor
            .begin_task(format!("{task}{suffix}"))
            .map_err(|e| merr(task, &e))?;
        Ok(Recorder {
            engine: engine.as_ref(),
            monitor,
            sink,
            seq: HashMap::new(),
            run: Run::default(),
            task: task.to_owned(),
            noise,
        })
    }

    /// The next decisions belong to these candidates, in order; count their
    /// labels when `count`.
    fn expect(&self, candidates: Vec<String>, count: bool) {
        if let Some(c) = &self.noise {
            let mut c = lock(c);
            c.queue = candidates.into();
            c.decided.clear();
            c.count = count;
        }
    }

    /// The decisions since [`Recorder::expect`] were exactly `expected`.
    fn check(&self, expected: &[String]) -> Result<(), ReplayError> {
        let Some(c) = &self.noise else { return Ok(()) };
        let c = lock(c);
        if c.decided == expected && c.queue.is_empty() {
            Ok(())
        } else {
            Err(ReplayError::NoiseLost {
                task: self.task.clone(),
                expected: expected.to_vec(),
                decided: c.decided.clone(),
            })
        }
    }

    /// Issue and decide one candidate (the noise attributed to `id`).
    fn submit(
        &mut self,
        ev: ProposedEvent,
        index: usize,
        id: &str,
        count: bool,
    ) -> Result<stpc_runtime::Decided, ReplayError> {
        let issued = self.monitor.issue(ev).map_err(|e| merr(&self.task, &e))?;
        self.seq.insert(issued.seq(), index);
        let expected = [id.to_owned()];
        self.expect(expected.to_vec(), count);
        let d = self
            .monitor
            .decide(issued)
            .map_err(|e| merr(&self.task, &e))?;
        self.check(&expected)?;
        Ok(d)
    }

    fn noise_stats(&self) -> NoiseStats {
        self.noise
            .as_ref()
            .map_or_else(NoiseStats::default, |c| lock(c).stats)
    }

    fn labels(
        &self,
        tool: &str,
        args: &Value,
        destination: &str,
    ) -> (Vec<(String, String)>, String) {
        let t = self.engine.table();
        let (fields, _) = self.engine.labeler().label_args(tool, args);
        let named = fields
            .into_iter()
            .map(|(f, l)| {
                (
                    f,
                    t.lattices.args.label_name(l).unwrap_or(MISSING).to_owned(),
                )
            })
            .collect();
        let d = self.engine.decider().destination_id(destination);
        let dl = self.engine.labeler().label_destination(d, destination);
        (
            named,
            t.lattices
                .destination
                .label_name(dl)
                .unwrap_or(MISSING)
                .to_owned(),
        )
    }

    /// Handle an outcome; returns the dispatch kind (before promotion).
    fn outcome(
        &mut self,
        index: usize,
        tool: &str,
        outcome: Outcome,
        action: Act,
        t_ms: u64,
        task: &str,
    ) -> Result<Option<bool>, ReplayError> {
        match outcome {
            Outcome::Dispatch(ticket) => {
                let d = ticket.dispatch();
                let call = d.call();
                let args = call.args().clone();
                let destination = call.destination().to_owned();
                let (labels, dest_label) = self.labels(tool, &args, &destination);
                self.run.log.push(LogEntry {
                    index,
                    tool: tool.to_owned(),
                    args: Some(args.clone()),
                    tag: action,
                    t_ms,
                    duration_ms: latency_ms(tool),
                });
                self.run.sent.push(Sent {
                    index,
                    tool: tool.to_owned(),
                    destination,
                    dest_label,
                    args,
                    labels,
                    t_ms,
                });
                self.monitor.complete(d).map_err(|e| merr(task, &e))?;
                Ok(Some(action == Act::Rewrite))
            }
            Outcome::Shadowed(_) | Outcome::Deferred(_) | Outcome::Blocked(_) => Ok(None),
        }
    }

    fn log_local(&mut self, index: usize, tool: &str, args: Option<Value>, tag: Act, t_ms: u64) {
        let duration_ms = if tag == Act::Shadow { LOCAL_MS } else { 0 };
        self.run.log.push(LogEntry {
            index,
            tool: tool.to_owned(),
            args,
            tag,
            t_ms,
            duration_ms,
        });
    }

    fn finish(mut self, task: &str) -> Result<Run, ReplayError> {
        self.monitor.end_task().map_err(|e| merr(task, &e))?;
        let mut audit = Vec::new();
        for r in self.sink.records() {
            let index = self.seq.get(&r.seq).copied();
            let mut v = serde_json::to_value(&r).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut v {
                m.remove("task");
                m.remove("seq");
            }
            audit.push(AuditEntry { index, record: v });
        }
        self.run.audit = audit;
        Ok(self.run)
    }
}

fn merr(task: &str, e: &dyn std::fmt::Display) -> ReplayError {
    ReplayError::Monitor {
        task: task.to_owned(),
        message: e.to_string(),
    }
}

/// Replay one task through a contract.
///
/// # Errors
///
/// A monitor error; with label noise, a rate that is not a probability, a
/// lattice without `public`, or a decision the noise cannot attribute.
pub fn replay_task(
    contract: &Contract,
    task: &Task,
    opts: &ReplayOptions,
) -> Result<TaskTrace, ReplayError> {
    if let Some(n) = &opts.noise {
        n.check()?;
    }
    let branches = task.committed_branches();
    let commit_ms = task.commit_ms();
    let only = opts.mode == ReplayMode::CommittedOnly;
    let (committed, committed_noise) =
        run_committed(contract, task, &branches, commit_ms, opts.noise, only)?;
    let mut events = Vec::with_capacity(task.candidates.len());
    let mut noise = committed_noise;
    let issued = if only {
        for (i, c) in task.candidates.iter().enumerate() {
            let in_plan = task.in_plan(i, &branches);
            let sent = committed.sent.iter().find(|s| s.index == i);
            let dispatch = match sent {
                Some(_) if !c.is_committed_mode() => {
                    Dispatch::DeferredThenPromoted { rewritten: false }
                }
                Some(_) => Dispatch::Original,
                None => Dispatch::Withheld,
            };
            events.push(TraceEvent {
                id: c.id.clone(),
                tool: c.tool.clone(),
                destination: c.destination.clone(),
                mode: c.mode.clone(),
                branch: c.branch.clone(),
                confidence: c.confidence(),
                in_plan,
                issue_ms: task.issue_ms(i),
                decision: if in_plan { Act::Allow } else { Act::Defer },
                rule: "<no-spec replay>".to_owned(),
                promoted_decision: None,
                dispatch,
            });
        }
        committed.clone()
    } else {
        let (run, stats) = run_issued(
            contract,
            task,
            &branches,
            commit_ms,
            opts.noise,
            &mut events,
        )?;
        noise = stats;
        run
    };
    Ok(TaskTrace {
        task: task.task.clone(),
        label: task.label.clone(),
        group: task.group().to_owned(),
        commit_ms,
        events,
        issued,
        committed,
        scrub_after_commit: contract.scrubs_after_commit(),
        noise,
    })
}

/// Whether a shadowed event is re-decided when its branch is promoted.
fn reissues(table: &Table, substitute: &str) -> bool {
    table
        .substitutes
        .iter()
        .find(|s| s.name == substitute)
        .is_some_and(|s| s.on_promote == OnPromote::Reissue)
}

fn run_issued(
    contract: &Contract,
    task: &Task,
    branches: &[String],
    commit_ms: u64,
    noise: Option<LabelNoise>,
    events: &mut Vec<TraceEvent>,
) -> Result<(Run, NoiseStats), ReplayError> {
    let id = task.task.as_str();
    let mut rec = Recorder::new(contract, id, "", noise)?;
    // Candidates the monitor will re-decide on promotion, in issue order.
    let mut pending: Vec<usize> = Vec::new();
    for (i, c) in task.candidates.iter().enumerate() {
        let t_ms = task.issue_ms(i);
        let ev = ProposedEvent {
            tool: c.tool.clone(),
            destination: c.destination.clone(),
            mode: c.mode.clone(),
            confidence: c.confidence(),
            branch: c.branch.clone(),
            args: c.args.clone(),
        };
        let d = rec.submit(ev, i, &c.id, true)?;
        let action = act(d.action());
        let rule = d.rule_name().to_owned();
        let outcome = d.into_outcome();
        let redecided = match &outcome {
            Outcome::Deferred(_) => true,
            Outcome::Shadowed(s) => reissues(contract.table(), s.substitute()),
            Outcome::Dispatch(t) => t.reissues_on_promote(),
            Outcome::Blocked(_) => false,
        };
        if redecided {
            pending.push(i);
        }
        let dispatch = match rec.outcome(i, &c.tool, outcome, action, t_ms, id)? {
            Some(true) => Dispatch::Rewritten,
            Some(false) => Dispatch::Original,
            None => match action {
                Act::Shadow => {
                    rec.log_local(i, &c.tool, Some(c.args.clone()), Act::Shadow, t_ms);
                    Dispatch::ShadowedLocally
                }
                Act::Block => {
                    rec.log_local(i, &c.tool, None, Act::Block, t_ms);
                    Dispatch::Blocked
                }
                _ => {
                    rec.log_local(i, &c.tool, None, Act::Defer, t_ms);
                    Dispatch::Withheld
                }
            },
        };
        events.push(TraceEvent {
            id: c.id.clone(),
            tool: c.tool.clone(),
            destination: c.destination.clone(),
            mode: c.mode.clone(),
            branch: c.branch.clone(),
            confidence: c.confidence(),
            in_plan: task.in_plan(i, branches),
            issue_ms: t_ms,
            decision: action,
            rule,
            promoted_decision: None,
            dispatch,
        });
    }
    for b in branches {
        promote_branch(&mut rec, task, b, &pending, commit_ms, events)?;
    }
    let mut abandoned: Vec<&str> = Vec::new();
    for c in &task.candidates {
        if !branches.contains(&c.branch) && !abandoned.contains(&c.branch.as_str()) {
            abandoned.push(&c.branch);
        }
    }
    for b in abandoned {
        rec.monitor.abandon(b).map_err(|e| merr(id, &e))?;
    }
    let stats = rec.noise_stats();
    Ok((rec.finish(id)?, stats))
}

/// Promotes branch `b` of `task`: the monitor re-decides the pending
/// candidates on it as committed, and each trace event records what its
/// promotion dispatched.
fn promote_branch(
    rec: &mut Recorder,
    task: &Task,
    b: &str,
    pending: &[usize],
    commit_ms: u64,
    events: &mut [TraceEvent],
) -> Result<(), ReplayError> {
    let id = task.task.as_str();
    let expected: Vec<String> = pending
        .iter()
        .filter_map(|i| task.candidates.get(*i))
        .filter(|c| c.branch == *b)
        .map(|c| c.id.clone())
        .collect();
    rec.expect(expected.clone(), false);
    let promoted = rec.monitor.promote(b).map_err(|e| merr(id, &e))?;
    rec.check(&expected)?;
    for p in promoted {
        let Promoted::Decided(d) = p else { continue };
        let Some(i) = rec.seq.get(&d.seq()).copied() else {
            continue;
        };
        let tool = task
            .candidates
            .get(i)
            .map(|c| c.tool.clone())
            .unwrap_or_default();
        let action = act(d.action());
        let sent = rec.outcome(i, &tool, d.into_outcome(), action, commit_ms, id)?;
        if sent.is_none() {
            let args = if action == Act::Shadow {
                task.candidates.get(i).map(|c| c.args.clone())
            } else {
                None
            };
            rec.log_local(i, &tool, args, action, commit_ms);
        }
        if let Some(e) = events.get_mut(i) {
            let was_shadow = e.dispatch == Dispatch::ShadowedLocally;
            e.promoted_decision = Some(action);
            e.dispatch = match (sent, action, was_shadow) {
                (Some(rw), _, true) => Dispatch::ShadowThenReissued { rewritten: rw },
                (Some(rw), _, false) => Dispatch::DeferredThenPromoted { rewritten: rw },
                (None, Act::Block, _) => Dispatch::Blocked,
                (None, Act::Shadow, _) => Dispatch::ShadowedLocally,
                (None, _, _) => Dispatch::Withheld,
            };
        }
    }
    Ok(())
}

/// C; `count` the noise when C is also S (a committed-only replay).
fn run_committed(
    contract: &Contract,
    task: &Task,
    branches: &[String],
    commit_ms: u64,
    noise: Option<LabelNoise>,
    count: bool,
) -> Result<(Run, NoiseStats), ReplayError> {
    let id = task.task.as_str();
    let mut rec = Recorder::new(contract, id, "#committed", noise)?;
    let mut plan: Vec<(u64, usize)> = task
        .candidates
        .iter()
        .enumerate()
        .filter(|(i, _)| task.in_plan(*i, branches))
        .map(|(i, c)| {
            (
                if c.is_committed_mode() {
                    task.issue_ms(i)
                } else {
                    commit_ms
                },
                i,
            )
        })
        .collect();
    plan.sort_by_key(|(t, _)| *t);
    for (t_ms, i) in plan {
        let Some(c) = task.candidates.get(i) else {
            continue;
        };
        let mut ev =
            ProposedEvent::committed(c.tool.clone(), c.destination.clone(), c.args.clone());
        ev.branch.clone_from(&c.branch);
        let d = rec.submit(ev, i, &c.id, count)?;
        let action = act(d.action());
        if rec
            .outcome(i, &c.tool, d.into_outcome(), action, t_ms, id)?
            .is_none()
        {
            let args = (action == Act::Shadow).then(|| c.args.clone());
            rec.log_local(i, &c.tool, args, action, t_ms);
        }
    }
    let stats = rec.noise_stats();
    Ok((rec.finish(id)?, stats))
}
