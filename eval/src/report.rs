//! Replay summaries: decisions, calls per task, ghost calls and each
//! observer's marginal exposure, per task and in total.

use std::collections::BTreeMap;
use std::io::IsTerminal;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::frontier::{Frontier, Tasks};
use crate::replay::{replay_task, Contract, ReplayError, ReplayOptions};
use crate::trace::{Observer, TaskTrace};

/// One observer's exposure over a replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObserverSummary {
    /// Observer.
    pub observer: Observer,
    /// Records in `O_i(S)`.
    pub issued: usize,
    /// Records in `O_i(C)`.
    pub committed: usize,
    /// Records in `Δ_i`.
    pub delta: usize,
    /// Mean `|Δ_i|` per task.
    pub delta_per_task: f64,
    /// Share of tasks with a non-empty `Δ_i`.
    pub tasks_exposed: f64,
    /// Records matched in C but seen before commit.
    pub precommit: usize,
    /// Labels of the fields in `Δ_i` (`label -> count`; destination labels
    /// as `destination:label`).
    pub leaked_labels: BTreeMap<String, usize>,
    /// Fields in `Δ_i` at each label (`field:label -> count`).
    pub leaked_fields: BTreeMap<String, usize>,
}

impl ObserverSummary {
    /// An empty summary.
    #[must_use]
    pub fn new(observer: Observer) -> ObserverSummary {
        ObserverSummary {
            observer,
            issued: 0,
            committed: 0,
            delta: 0,
            delta_per_task: 0.0,
            tasks_exposed: 0.0,
            precommit: 0,
            leaked_labels: BTreeMap::new(),
            leaked_fields: BTreeMap::new(),
        }
    }
}

/// One task's summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskSummary {
    /// Task id.
    pub task: String,
    /// Hidden label.
    pub label: Option<String>,
    /// Candidates.
    pub candidates: usize,
    /// External dispatches in S.
    pub calls: usize,
    /// Ghost calls.
    pub ghost_calls: usize,
    /// Decisions at issue (`action -> count`).
    pub decisions: BTreeMap<String, usize>,
    /// `|Δ_i|` per observer.
    pub delta: BTreeMap<String, usize>,
}

/// The result of replaying a frontier through one contract.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayReport {
    /// Policy name.
    pub policy: String,
    /// Contract name in the table.
    pub contract: String,
    /// Tasks.
    pub tasks: usize,
    /// Candidates.
    pub candidates: usize,
    /// Speculative candidates.
    pub speculative: usize,
    /// Decisions at issue (`action -> count`).
    pub decisions: BTreeMap<String, usize>,
    /// Decisions on promotion (`action -> count`).
    pub promoted_decisions: BTreeMap<String, usize>,
    /// Mean external dispatches per task in S.
    pub calls_per_task: f64,
    /// Mean external dispatches per task in C.
    pub committed_calls_per_task: f64,
    /// Ghost calls.
    pub ghost_calls: usize,
    /// Ghost calls over speculative candidates.
    pub ghost_call_rate: f64,
    /// Speculative candidates outside the committed plan, over speculative candidates.
    pub abandoned_rate: f64,
    /// Per observer.
    pub observers: Vec<ObserverSummary>,
    /// What happened to the committed plan's candidates.
    pub utility: crate::utility::Utility,
    /// Revealing ghosts and how many reached the provider revealing (set by
    /// `stpc eval`, which knows the baseline; absent in a lone replay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leakage: Option<crate::utility::Leakage>,
    /// Per task (empty unless asked for).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_task: Vec<TaskSummary>,
}

/// A progress bar on stderr when it is a terminal and `enabled`; hidden otherwise.
#[must_use]
pub fn progress(len: usize, message: &str, enabled: bool) -> indicatif::ProgressBar {
    if enabled && std::io::stderr().is_terminal() {
        let pb = indicatif::ProgressBar::with_draw_target(
            Some(len as u64),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{msg:>14} [{bar:30}] {pos}/{len} {elapsed}")
        {
            pb.set_style(style.progress_chars("=> "));
        }
        pb.set_message(message.to_owned());
        pb
    } else {
        indicatif::ProgressBar::hidden()
    }
}

/// Tasks replayed together by [`replay_chunks`]: enough to keep every core
/// busy, few enough that a chunk's traces (tens of kilobytes per task) stay
/// a few megabytes whatever the number of tasks.
pub use crate::frontier::CHUNK;

/// Replay every task (in parallel) and keep the traces, in task order.
/// Memory grows with the frontier; [`replay_chunks`] keeps one chunk.
///
/// # Errors
///
/// A task whose replay failed.
pub fn replay_traces(
    contract: &Contract,
    frontier: &Frontier,
    opts: &ReplayOptions,
    show_progress: bool,
) -> Result<Vec<TaskTrace>, ReplayError> {
    let mut out = Vec::with_capacity(frontier.tasks.len());
    replay_chunks(contract, frontier, opts, show_progress, |_, chunk| {
        out.extend(chunk);
        Ok::<(), ReplayError>(())
    })?;
    Ok(out)
}

/// Replay the frontier [`CHUNK`] tasks at a time (each chunk in parallel)
/// and hand each chunk's traces, in task order, to `each` with the index
/// of its first task; a chunk's traces are dropped before the next is
/// replayed, so what the caller keeps of them is all that stays.
///
/// # Errors
///
/// A task whose replay failed, or the first error of `each`.
pub fn replay_chunks<E: From<ReplayError>, T: Tasks + ?Sized>(
    contract: &Contract,
    tasks: &T,
    opts: &ReplayOptions,
    show_progress: bool,
    mut each: impl FnMut(usize, Vec<TaskTrace>) -> Result<(), E>,
) -> Result<(), E> {
    let n = tasks.len();
    let pb = progress(n, contract.name(), show_progress);
    for first in (0..n).step_by(CHUNK) {
        let chunk = tasks.chunk(first..(first + CHUNK).min(n));
        let traces: Result<Vec<TaskTrace>, ReplayError> = chunk
            .par_iter()
            .map(|t| {
                let r = replay_task(contract, t, opts);
                pb.inc(1);
                r
            })
            .collect();
        each(first, traces?)?;
    }
    pb.finish_and_clear();
    Ok(())
}

/// A [`ReplayReport`] built one task at a time ([`Summary::add`]), so a
/// replay need not keep its traces to be summarized.
#[derive(Clone, Debug)]
pub struct Summary {
    report: ReplayReport,
    per_task: bool,
    ghosts: usize,
    abandoned: usize,
    calls: usize,
    committed_calls: usize,
}

impl Summary {
    /// An empty summary of `policy` (contract `contract`); `per_task` keeps
    /// one [`TaskSummary`] per task.
    #[must_use]
    pub fn new(policy: &str, contract: &str, per_task: bool) -> Summary {
        Summary {
            report: ReplayReport {
                policy: policy.to_owned(),
                contract: contract.to_owned(),
                tasks: 0,
                candidates: 0,
                speculative: 0,
                decisions: BTreeMap::new(),
                promoted_decisions: BTreeMap::new(),
                calls_per_task: 0.0,
                committed_calls_per_task: 0.0,
                ghost_calls: 0,
                ghost_call_rate: 0.0,
                abandoned_rate: 0.0,
                observers: Observer::ALL
                    .iter()
                    .map(|o| ObserverSummary::new(*o))
                    .collect(),
                utility: crate::utility::Utility::default(),
                leakage: None,
                per_task: Vec::new(),
            },
            per_task,
            ghosts: 0,
            abandoned: 0,
            calls: 0,
            committed_calls: 0,
        }
    }

    /// Count one task's trace.
    pub fn add(&mut self, t: &TaskTrace) {
        let r = &mut self.report;
        r.tasks += 1;
        let mut td: BTreeMap<String, usize> = BTreeMap::new();
        for e in &t.events {
            r.candidates += 1;
            *r.decisions
                .entry(e.decision.as_str().to_owned())
                .or_default() += 1;
            *td.entry(e.decision.as_str().to_owned()).or_default() += 1;
            if let Some(p) = e.promoted_decision {
                *r.promoted_decisions
                    .entry(p.as_str().to_owned())
                    .or_default() += 1;
            }
            if e.speculative() {
                r.speculative += 1;
                if !e.in_plan {
                    self.abandoned += 1;
                }
            }
        }
        let g = t.events.iter().filter(|e| e.ghost()).count();
        self.ghosts += g;
        self.calls += t.issued.sent.len();
        self.committed_calls += t.committed.sent.len();
        r.utility.add(t);
        let mut deltas = BTreeMap::new();
        for s in &mut r.observers {
            let o = s.observer;
            let x = t.exposure(o);
            s.issued += x.issued.len();
            s.committed += x.committed.len();
            s.delta += x.delta.len();
            s.precommit += x.precommit.len();
            if !x.delta.is_empty() {
                // Counted here, divided by the task count in `finish`.
                s.tasks_exposed += 1.0;
            }
            for rec in x.delta_records() {
                for (f, l) in &rec.fields {
                    // Argument and destination lattices share label names.
                    let key = if f == "<destination>" {
                        format!("destination:{l}")
                    } else {
                        l.clone()
                    };
                    *s.leaked_labels.entry(key).or_default() += 1;
                    *s.leaked_fields.entry(format!("{f}:{l}")).or_default() += 1;
                }
            }
            deltas.insert(o.as_str().to_owned(), x.delta.len());
        }
        if self.per_task {
            r.per_task.push(TaskSummary {
                task: t.task.clone(),
                label: t.label.clone(),
                candidates: t.events.len(),
                calls: t.issued.sent.len(),
                ghost_calls: g,
                decisions: td,
                delta: deltas,
            });
        }
    }

    /// The report: totals, and means over the tasks added.
    #[must_use]
    pub fn finish(self) -> ReplayReport {
        let mut r = self.report;
        let n = r.tasks.max(1) as f64;
        for s in &mut r.observers {
            s.delta_per_task = s.delta as f64 / n;
            s.tasks_exposed /= n;
        }
        let spec = r.speculative.max(1) as f64;
        r.calls_per_task = self.calls as f64 / n;
        r.committed_calls_per_task = self.committed_calls as f64 / n;
        r.ghost_calls = self.ghosts;
        r.ghost_call_rate = self.ghosts as f64 / spec;
        r.abandoned_rate = self.abandoned as f64 / spec;
        r
    }
}

/// Summarize replayed traces.
#[must_use]
pub fn summarize(
    policy: &str,
    contract: &str,
    traces: &[TaskTrace],
    per_task: bool,
) -> ReplayReport {
    let mut s = Summary::new(policy, contract, per_task);
    for t in traces {
        s.add(t);
    }
    s.finish()
}

/// Replay a frontier through one contract and summarize it.
///
/// # Errors
///
/// A replay error.
pub fn replay<T: Tasks + ?Sized>(
    contract: &Contract,
    frontier: &T,
    opts: &ReplayOptions,
    per_task: bool,
    show_progress: bool,
) -> Result<ReplayReport, ReplayError> {
    let mut s = Summary::new(contract.name(), contract.table_contract(), per_task);
    replay_chunks(contract, frontier, opts, show_progress, |_, traces| {
        traces.iter().for_each(|t| s.add(t));
        Ok::<(), ReplayError>(())
    })?;
    Ok(s.finish())
}
