//! Replay summaries: decisions, calls per task, ghost calls and each
//! observer's marginal exposure, per task and in total.

use std::collections::BTreeMap;
use std::io::IsTerminal;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::frontier::Frontier;
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

/// Replay every task (in parallel) and keep the traces, in task order.
///
/// # Errors
///
/// The first task (in task order) whose replay failed.
pub fn replay_traces(
    contract: &Contract,
    frontier: &Frontier,
    opts: &ReplayOptions,
    show_progress: bool,
) -> Result<Vec<TaskTrace>, ReplayError> {
    let pb = progress(frontier.tasks.len(), contract.name(), show_progress);
    let out: Result<Vec<TaskTrace>, ReplayError> = frontier
        .tasks
        .par_iter()
        .map(|t| {
            let r = replay_task(contract, t, opts);
            pb.inc(1);
            r
        })
        .collect();
    pb.finish_and_clear();
    out
}

/// Summarize replayed traces.
#[must_use]
pub fn summarize(
    policy: &str,
    contract: &str,
    traces: &[TaskTrace],
    per_task: bool,
) -> ReplayReport {
    let n = traces.len().max(1) as f64;
    let mut decisions: BTreeMap<String, usize> = BTreeMap::new();
    let mut promoted: BTreeMap<String, usize> = BTreeMap::new();
    let (mut candidates, mut speculative, mut ghosts, mut abandoned, mut calls, mut ccalls) =
        (0, 0, 0, 0, 0, 0);
    let mut observers: Vec<ObserverSummary> = Observer::ALL
        .iter()
        .map(|o| ObserverSummary::new(*o))
        .collect();
    let mut tasks = Vec::new();
    for t in traces {
        let mut td: BTreeMap<String, usize> = BTreeMap::new();
        for e in &t.events {
            candidates += 1;
            *decisions.entry(e.decision.as_str().to_owned()).or_default() += 1;
            *td.entry(e.decision.as_str().to_owned()).or_default() += 1;
            if let Some(p) = e.promoted_decision {
                *promoted.entry(p.as_str().to_owned()).or_default() += 1;
            }
            if e.speculative() {
                speculative += 1;
                if !e.in_plan {
                    abandoned += 1;
                }
            }
        }
        let g = t.events.iter().filter(|e| e.ghost()).count();
        ghosts += g;
        calls += t.issued.sent.len();
        ccalls += t.committed.sent.len();
        let mut deltas = BTreeMap::new();
        for s in &mut observers {
            let o = s.observer;
            let x = t.exposure(o);
            s.issued += x.issued.len();
            s.committed += x.committed.len();
            s.delta += x.delta.len();
            s.precommit += x.precommit.len();
            if !x.delta.is_empty() {
                s.tasks_exposed += 1.0;
            }
            for r in x.delta_records() {
                for (f, l) in &r.fields {
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
        if per_task {
            tasks.push(TaskSummary {
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
    for s in &mut observers {
        s.delta_per_task = s.delta as f64 / n;
        s.tasks_exposed /= n;
    }
    let spec = speculative.max(1) as f64;
    ReplayReport {
        policy: policy.to_owned(),
        contract: contract.to_owned(),
        tasks: traces.len(),
        candidates,
        speculative,
        decisions,
        promoted_decisions: promoted,
        calls_per_task: calls as f64 / n,
        committed_calls_per_task: ccalls as f64 / n,
        ghost_calls: ghosts,
        ghost_call_rate: ghosts as f64 / spec,
        abandoned_rate: abandoned as f64 / spec,
        observers,
        utility: crate::utility::utility(traces),
        leakage: None,
        per_task: tasks,
    }
}

/// Replay a frontier through one contract and summarize it.
///
/// # Errors
///
/// A replay error.
pub fn replay(
    contract: &Contract,
    frontier: &Frontier,
    opts: &ReplayOptions,
    per_task: bool,
    show_progress: bool,
) -> Result<ReplayReport, ReplayError> {
    let traces = replay_traces(contract, frontier, opts, show_progress)?;
    Ok(summarize(
        contract.name(),
        contract.table_contract(),
        &traces,
        per_task,
    ))
}
