//! The comparison: many policies over one frontier, the adversaries on each
//! observer's view, bootstrap intervals, paired sign tests against the
//! baseline, the Gate τ sweep and the channel ablation.
//!
//! Every policy replays the same frontier (a paired design: the same task
//! and seed under every policy); the unit of resampling is the task. The
//! adversary sees `O_i(S)` by default ([`View::Issued`], what the observer
//! actually holds, as in the paper) or only `Δ_i` ([`View::Delta`]).
//!
//! A Gate sweep is a list of `(τ, table)`: the caller (the CLI) recompiles
//! the gate contract per τ, so this crate never needs the compiler.
//!
//! The **label-noise sweep** (the paper's Table 10) replays every policy
//! again per rate with false-negative noise ([`LabelNoise`]) injected through
//! the monitor's label hook, and scores the provider view: recovery per
//! policy and adversary, paired against the same policy without noise and
//! against the baseline under the same noise. The draws depend only on the
//! noise seed, the task, the candidate and the field, so every policy sees
//! the same noisy labels, and a label flipped at one rate is flipped at
//! every higher rate.

use std::collections::HashSet;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use stpc_runtime::Table;

use crate::adversary::{view_tokens, Adversary, ChannelMask};
use crate::docs::{DocWriter, Vocab};
use crate::frontier::{FrontierStats, Tasks};
use crate::replay::{Contract, LabelNoise, ReplayError, ReplayMode, ReplayOptions};
use crate::report::{replay_chunks, ReplayReport, Summary};
use crate::stats::{bootstrap_mean, paired, Estimate, Outcomes, Paired, RESAMPLES, SEED};
use crate::trace::{NoiseStats, Observer, TaskTrace};
use crate::utility::{add_leaked, add_revealing_ghosts, Leakage, Revealing};

mod score;

use score::{channel_ablation, task_labels, Model, Scorer, Views, ABLATION};

/// The paper's label-noise rates (Table 10): 5, 10 and 20 %.
pub const NOISE_RATES: [f64; 3] = [0.05, 0.1, 0.2];

/// What the adversary sees of an observer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum View {
    /// `O_i(S)`: everything the observer recorded.
    #[default]
    Issued,
    /// `Δ_i` only.
    Delta,
}

/// Options of [`evaluate`].
#[derive(Clone, Debug)]
pub struct EvalOptions {
    /// Baseline policy name for paired deltas and naive-Bayes training.
    pub baseline: String,
    /// Observers to attack.
    pub observers: Vec<Observer>,
    /// Adversaries.
    pub adversaries: Vec<Adversary>,
    /// View.
    pub view: View,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// Add a `no_spec` policy (committed-only replay through the baseline's
    /// table) when no policy of that name is given.
    pub add_no_spec: bool,
    /// Gate sweep: `(τ, table)` pairs.
    pub gate_sweep: Vec<(f64, Table)>,
    /// False-negative label-noise rates of the noise sweep; empty (the
    /// default) skips it. The paper's sweep is [`NOISE_RATES`], the default
    /// of `stpc eval`. Each rate replays every policy once more.
    pub noise_rates: Vec<f64>,
    /// Noise seed.
    pub noise_seed: u64,
    /// Run the channel ablation on the baseline's provider view.
    pub channel_ablation: bool,
    /// Include per-task summaries in the replay reports.
    pub per_task: bool,
    /// Progress bar on stderr (only when it is a terminal).
    pub progress: bool,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            baseline: "naive".to_owned(),
            observers: Observer::ALL.to_vec(),
            adversaries: Adversary::ALL.to_vec(),
            view: View::Issued,
            resamples: RESAMPLES,
            seed: SEED,
            add_no_spec: true,
            gate_sweep: Vec::new(),
            noise_rates: Vec::new(),
            noise_seed: 1,
            channel_ablation: true,
            per_task: false,
            progress: false,
        }
    }
}

/// Recovery of one (policy, observer, adversary).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecoveryRow {
    /// Policy.
    pub policy: String,
    /// Observer.
    pub observer: Observer,
    /// Adversary.
    pub adversary: Adversary,
    /// Share of tasks whose label was recovered.
    pub recovery: Estimate,
    /// Paired against the baseline (absent for the baseline itself).
    pub vs_baseline: Option<Paired>,
}

/// One τ of the Gate sweep (provider view).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GateRow {
    /// Threshold.
    pub tau: f64,
    /// External dispatches per task.
    pub calls_per_task: f64,
    /// Ghost-call rate.
    pub ghost_call_rate: f64,
    /// Mean `|Δ_provider|` per task.
    pub delta_per_task: f64,
    /// Recovery per adversary, paired against the baseline.
    pub recovery: Vec<RecoveryRow>,
}

/// One row of the channel ablation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelRow {
    /// Channels seen.
    pub channels: String,
    /// Adversary.
    pub adversary: Adversary,
    /// Recovery.
    pub recovery: Estimate,
}

/// One adversary's recovery of one policy under one noise rate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NoiseRecovery {
    /// Adversary.
    pub adversary: Adversary,
    /// Share of tasks whose label was recovered under noise.
    pub recovery: Estimate,
    /// Paired against the same policy without noise (what the noise added).
    pub vs_clean: Paired,
    /// Paired against the baseline under the same noise (absent for the
    /// baseline itself).
    pub vs_baseline: Option<Paired>,
}

/// One policy under one noise rate (provider view).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NoiseRow {
    /// Noise rate.
    pub rate: f64,
    /// Policy.
    pub policy: String,
    /// Labels of the issued candidates the noise could flip, and flipped.
    pub labels: NoiseStats,
    /// External dispatches per task.
    pub calls_per_task: f64,
    /// Mean `|Δ_provider|` per task.
    pub delta_per_task: f64,
    /// Recovery per adversary.
    pub recovery: Vec<NoiseRecovery>,
}

/// The label-noise sweep (the paper's Table 10).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NoiseSweep {
    /// Noise seed.
    pub seed: u64,
    /// The observer whose view is attacked.
    pub observer: Observer,
    /// Rates, in the order given.
    pub rates: Vec<f64>,
    /// Recovery without noise per policy and adversary (the reference
    /// column), paired against the baseline.
    pub clean: Vec<RecoveryRow>,
    /// Per rate, then per policy.
    pub rows: Vec<NoiseRow>,
}

impl NoiseSweep {
    /// The row of a (rate, policy).
    #[must_use]
    pub fn row(&self, rate: f64, policy: &str) -> Option<&NoiseRow> {
        self.rows
            .iter()
            .find(|r| r.rate.to_bits() == rate.to_bits() && r.policy == policy)
    }

    /// The clean recovery of a (policy, adversary).
    #[must_use]
    pub fn clean(&self, policy: &str, adversary: Adversary) -> Option<&RecoveryRow> {
        self.clean
            .iter()
            .find(|r| r.policy == policy && r.adversary == adversary)
    }

    /// The noisy recovery of a (rate, policy, adversary).
    #[must_use]
    pub fn recovery(
        &self,
        rate: f64,
        policy: &str,
        adversary: Adversary,
    ) -> Option<&NoiseRecovery> {
        self.row(rate, policy)
            .and_then(|r| r.recovery.iter().find(|x| x.adversary == adversary))
    }
}

/// The whole evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalReport {
    /// Tasks.
    pub tasks: usize,
    /// Tasks with a hidden label (the ones scored).
    pub labeled_tasks: usize,
    /// The label set.
    pub labels: Vec<String>,
    /// Baseline policy.
    pub baseline: String,
    /// View.
    pub view: View,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// Frontier statistics.
    pub frontier: FrontierStats,
    /// Replay summary per policy.
    pub policies: Vec<ReplayReport>,
    /// Recovery per policy, observer and adversary.
    pub recovery: Vec<RecoveryRow>,
    /// Gate sweep.
    pub gate_sweep: Vec<GateRow>,
    /// Channel ablation (baseline, provider).
    pub channels: Vec<ChannelRow>,
    /// Label-noise sweep (absent when no rate was asked for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noise: Option<NoiseSweep>,
}

impl EvalReport {
    /// The recovery row of a (policy, observer, adversary).
    #[must_use]
    pub fn row(
        &self,
        policy: &str,
        observer: Observer,
        adversary: Adversary,
    ) -> Option<&RecoveryRow> {
        self.recovery
            .iter()
            .find(|r| r.policy == policy && r.observer == observer && r.adversary == adversary)
    }

    /// The replay summary of a policy.
    #[must_use]
    pub fn policy(&self, policy: &str) -> Option<&ReplayReport> {
        self.policies.iter().find(|p| p.policy == policy)
    }
}

/// What can go wrong in an evaluation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// A replay failed.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The baseline is not among the policies.
    #[error("baseline policy `{0}` is not among the policies")]
    NoBaseline(String),
    /// Two policies share a name.
    #[error("policy `{0}` is given twice")]
    DuplicatePolicy(String),
    /// A noise rate is given twice.
    #[error("label-noise rate {0} is given twice")]
    DuplicateNoiseRate(String),
    /// The temporary file the observer documents are kept in failed.
    #[error("the evaluation's temporary document store failed: {0}")]
    Store(String),
}

impl From<std::io::Error> for EvalError {
    fn from(e: std::io::Error) -> EvalError {
        EvalError::Store(e.to_string())
    }
}

/// What an adversary reads of one observer in one task's trace.
fn view_doc(t: &TaskTrace, obs: Observer, view: View, mask: ChannelMask) -> Vec<String> {
    let x = t.exposure(obs);
    match view {
        View::Issued => view_tokens(&x.issued, mask),
        View::Delta => view_tokens(x.delta_records(), mask),
    }
}

/// What a [`pass`] does with revealing ghosts.
#[derive(Clone, Copy)]
enum Leak<'a> {
    /// The baseline: find them (and count its own).
    Find(&'a Revealing),
    /// Another policy: count those it sends revealing.
    Count(&'a HashSet<(usize, usize)>, &'a Revealing),
    /// Neither (the sweeps).
    Skip,
}

/// What one replay of a policy leaves once its traces are gone.
struct Pass {
    /// Its summary (with leakage unless [`Leak::Skip`]).
    report: ReplayReport,
    views: Views,
    /// [`Leak::Find`]: the revealing ghosts.
    ghosts: HashSet<(usize, usize)>,
    noise: NoiseStats,
}

/// Replay one policy over the tasks a chunk at a time ([`replay_chunks`]),
/// reducing each chunk's traces to the summary, the ghost counts and the
/// documents of the views `keys` (written to disk as ids of `vocab`) before
/// the next chunk is replayed: memory holds one chunk of traces and one
/// chunk of tasks, whatever the number of tasks.
fn pass<T: Tasks + ?Sized>(
    c: &Contract,
    ropts: &ReplayOptions,
    tasks: &T,
    opts: &EvalOptions,
    keys: &[(Observer, ChannelMask)],
    leak: Leak<'_>,
    vocab: &mut Vocab,
) -> Result<Pass, EvalError> {
    let mut summary = Summary::new(c.name(), c.table_contract(), opts.per_task);
    let mut writers: Vec<DocWriter> = keys
        .iter()
        .map(|_| DocWriter::new())
        .collect::<Result<_, _>>()?;
    let (mut ghosts, mut leaked) = (HashSet::new(), HashSet::new());
    let mut noise = NoiseStats::default();
    replay_chunks(c, tasks, ropts, opts.progress, |first, traces| {
        for ((obs, mask), out) in keys.iter().zip(&mut writers) {
            let docs: Vec<Vec<String>> = traces
                .par_iter()
                .map(|t| view_doc(t, *obs, opts.view, *mask))
                .collect();
            for d in &docs {
                out.push(&vocab.intern_all(d))?;
            }
        }
        for (ti, t) in (first..).zip(&traces) {
            summary.add(t);
            noise = noise + t.noise;
            match leak {
                Leak::Find(revealing) => {
                    add_revealing_ghosts(ti, t, revealing, &mut ghosts);
                    add_leaked(ti, t, &ghosts, revealing, &mut leaked);
                }
                Leak::Count(found, revealing) => add_leaked(ti, t, found, revealing, &mut leaked),
                Leak::Skip => {}
            }
        }
        Ok::<(), EvalError>(())
    })?;
    let mut report = summary.finish();
    report.leakage = match leak {
        Leak::Find(_) => Some(Leakage {
            revealing: ghosts.len(),
            leaked: leaked.len(),
        }),
        Leak::Count(found, _) => Some(Leakage {
            revealing: found.len(),
            leaked: leaked.len(),
        }),
        Leak::Skip => None,
    };
    Ok(Pass {
        report,
        views: Views {
            keys: keys.to_vec(),
            docs: writers
                .into_iter()
                .map(DocWriter::finish)
                .collect::<Result<_, _>>()?,
        },
        ghosts,
        noise,
    })
}

/// Replay every policy over the frontier and score the adversaries.
///
/// # Errors
///
/// A replay error, a missing baseline, a duplicate policy name, or a noise
/// rate that is not a probability or is given twice.
pub fn evaluate<T: Tasks + ?Sized>(
    policies: Vec<(String, Table)>,
    frontier: &T,
    opts: &EvalOptions,
) -> Result<EvalReport, EvalError> {
    check_rates(opts)?;
    let contracts = contracts(policies, opts)?;
    let labels = task_labels(frontier);
    let mut vocab = Vocab::new();
    let scorer = Scorer::new(&labels, frontier, &mut vocab);
    // Memory: one chunk of tasks and of one policy's traces at a time
    // ([`pass`]). The baseline is replayed first, keeping its summary, its
    // revealing ghosts and the views its models and the channel ablation
    // read; every other policy then keeps its summary and the views its
    // scores read. Views are on disk ([`Docs`]): what stays in memory per
    // task is a label, a group, a file offset per view and the outcomes.
    let base_ix = contracts
        .iter()
        .position(|(c, _)| c.name() == opts.baseline)
        .ok_or_else(|| EvalError::NoBaseline(opts.baseline.clone()))?;
    let sweeps = !(opts.noise_rates.is_empty() && opts.gate_sweep.is_empty());
    let mut keys: Vec<(Observer, ChannelMask)> = opts
        .observers
        .iter()
        .map(|o| (*o, ChannelMask::FULL))
        .collect();
    let add_key = |keys: &mut Vec<(Observer, ChannelMask)>, k| {
        if !keys.contains(&k) {
            keys.push(k);
        }
    };
    if sweeps {
        add_key(&mut keys, (Observer::Provider, ChannelMask::FULL));
    }
    let mut base_keys = keys.clone();
    if opts.channel_ablation {
        for mask in ABLATION {
            add_key(&mut base_keys, (Observer::Provider, mask));
        }
    }
    let run = |i: usize,
               keys: &[(Observer, ChannelMask)],
               leak,
               vocab: &mut Vocab|
     -> Result<Pass, EvalError> {
        let (c, mode) = contracts
            .get(i)
            .ok_or_else(|| EvalError::NoBaseline(opts.baseline.clone()))?;
        let ropts = ReplayOptions {
            mode: *mode,
            noise: None,
        };
        pass(c, &ropts, frontier, opts, keys, leak, vocab)
    };
    // Revealing ghosts: what the baseline sends of abandoned branches with
    // a field at or above `sensitive` (see `utility`).
    let revealing = contracts
        .get(base_ix)
        .map(|(c, _)| Revealing::of(&c.table().lattices))
        .unwrap_or_default();
    let mut base_pass = run(base_ix, &base_keys, Leak::Find(&revealing), &mut vocab)?;
    let ghosts = std::mem::take(&mut base_pass.ghosts);
    // The models read the baseline's documents for as long as they score.
    let base_views = std::mem::take(&mut base_pass.views);
    let model = |obs: Observer| Model::new(&scorer, &base_views, obs);
    let models: Vec<Model> = opts
        .observers
        .iter()
        .map(|o| model(*o))
        .collect::<Result<_, _>>()?;
    // The provider's model: the noise sweep's and the Gate sweep's.
    let provider = if sweeps {
        Some(model(Observer::Provider)?)
    } else {
        None
    };
    let channels = channel_ablation(&scorer, &base_views, opts, &vocab)?;
    let reduce = |report: ReplayReport, views: &Views, vocab: &Vocab| -> Result<Reduced, _> {
        Ok::<Reduced, EvalError>(Reduced {
            outcomes: models
                .iter()
                .map(|m| m.score(&scorer, views, opts, vocab))
                .collect::<Result<_, _>>()?,
            provider: provider
                .as_ref()
                .map(|m| m.score(&scorer, views, opts, vocab))
                .transpose()?,
            report,
        })
    };
    let mut base = Some(reduce(base_pass.report, &base_views, &vocab)?);
    let mut reports = Vec::new();
    // Per policy: per observer, per adversary, the outcomes.
    let mut outcomes: Vec<Vec<Vec<Outcomes>>> = Vec::new();
    // Per policy: the provider's outcomes per adversary.
    let mut provider_clean: Vec<Vec<Outcomes>> = Vec::new();
    for i in 0..contracts.len() {
        let r = if i == base_ix {
            base.take()
        } else {
            let p = run(i, &keys, Leak::Count(&ghosts, &revealing), &mut vocab)?;
            Some(reduce(p.report, &p.views, &vocab)?)
        };
        let Some(r) = r else { continue };
        reports.push(r.report);
        outcomes.push(r.outcomes);
        if let Some(p) = r.provider {
            provider_clean.push(p);
        }
    }
    let mut recovery = Vec::new();
    for (oi, m) in models.iter().enumerate() {
        let base_out = outcomes.get(base_ix).and_then(|o| o.get(oi));
        for (ai, adv) in opts.adversaries.iter().enumerate() {
            let base = base_out.and_then(|b| b.get(ai));
            for ((c, _), per_obs) in contracts.iter().zip(&outcomes) {
                let Some(out) = per_obs.get(oi).and_then(|o| o.get(ai)) else {
                    continue;
                };
                let vs = (c.name() != opts.baseline).then_some(base).flatten();
                recovery.push(row(c.name(), m.observer, *adv, out, vs, opts));
            }
        }
    }
    let gate_sweep = gate_sweep(
        &scorer,
        &contracts,
        provider.as_ref().zip(provider_clean.get(base_ix)),
        frontier,
        opts,
        &mut vocab,
    )?;
    let noise = match &provider {
        Some(m) => Some(noise_sweep(
            &scorer,
            &contracts,
            base_ix,
            m,
            &provider_clean,
            frontier,
            opts,
            &mut vocab,
        )?),
        None => None,
    };
    Ok(EvalReport {
        tasks: frontier.len(),
        labeled_tasks: scorer.truth.iter().filter(|t| t.is_some()).count(),
        labels: labels.clone(),
        baseline: opts.baseline.clone(),
        view: opts.view,
        resamples: opts.resamples,
        seed: opts.seed,
        frontier: FrontierStats::of(frontier),
        policies: reports,
        recovery,
        gate_sweep,
        channels,
        noise,
    })
}

fn row(
    policy: &str,
    observer: Observer,
    adversary: Adversary,
    out: &Outcomes,
    base: Option<&Outcomes>,
    opts: &EvalOptions,
) -> RecoveryRow {
    RecoveryRow {
        policy: policy.to_owned(),
        observer,
        adversary,
        recovery: bootstrap_mean(out, opts.resamples, opts.seed),
        vs_baseline: base.map(|b| paired(out, b, opts.resamples, opts.seed)),
    }
}

fn gate_sweep<T: Tasks + ?Sized>(
    scorer: &Scorer<'_>,
    contracts: &[(Contract, ReplayMode)],
    provider: Option<(&Model<'_>, &Vec<Outcomes>)>,
    frontier: &T,
    opts: &EvalOptions,
    vocab: &mut Vocab,
) -> Result<Vec<GateRow>, EvalError> {
    let mut rows = Vec::new();
    let Some((model, base_out)) = provider.filter(|_| !opts.gate_sweep.is_empty()) else {
        return Ok(rows);
    };
    for (tau, table) in &opts.gate_sweep {
        let c = sharing_with(contracts, format!("gate@{tau}"), table.clone())?;
        let keys = [(Observer::Provider, ChannelMask::FULL)];
        let sweep_opts = EvalOptions {
            per_task: false,
            ..opts.clone()
        };
        let p = pass(
            &c,
            &ReplayOptions::default(),
            frontier,
            &sweep_opts,
            &keys,
            Leak::Skip,
            vocab,
        )?;
        let s = p.report;
        let d = p.views.get(Observer::Provider, ChannelMask::FULL)?;
        let mut rec = Vec::new();
        for (adv, base) in opts.adversaries.iter().zip(base_out) {
            let out = scorer.outcomes(*adv, d, Some(model), vocab)?;
            rec.push(row(
                c.name(),
                Observer::Provider,
                *adv,
                &out,
                Some(base),
                opts,
            ));
        }
        rows.push(GateRow {
            tau: *tau,
            calls_per_task: s.calls_per_task,
            ghost_call_rate: s.ghost_call_rate,
            delta_per_task: s
                .observers
                .iter()
                .find(|o| o.observer == Observer::Provider)
                .map_or(0.0, |o| o.delta_per_task),
            recovery: rec,
        });
    }
    Ok(rows)
}

/// The label-noise sweep on the provider view: every policy replayed again
/// per rate, scored with the naive-Bayes model trained on the clean
/// baseline (as the Gate sweep is).
#[allow(
    clippy::too_many_arguments,
    reason = "the sweep's inputs, each from a different stage of `evaluate`"
)]
fn noise_sweep<T: Tasks + ?Sized>(
    scorer: &Scorer<'_>,
    contracts: &[(Contract, ReplayMode)],
    base_ix: usize,
    provider: &Model<'_>,
    clean_out: &[Vec<Outcomes>],
    frontier: &T,
    opts: &EvalOptions,
    vocab: &mut Vocab,
) -> Result<NoiseSweep, EvalError> {
    let obs = provider.observer;
    let base_clean_out = clean_out.get(base_ix);
    let mut clean = Vec::new();
    for ((c, _), outs) in contracts.iter().zip(clean_out) {
        let name = c.name();
        for (ai, (adv, out)) in opts.adversaries.iter().zip(outs).enumerate() {
            let base = (name != opts.baseline)
                .then(|| base_clean_out.and_then(|b| b.get(ai)))
                .flatten();
            clean.push(row(name, obs, *adv, out, base, opts));
        }
    }
    let mut rows = Vec::new();
    let keys = [(obs, ChannelMask::FULL)];
    let sweep_opts = EvalOptions {
        per_task: false,
        ..opts.clone()
    };
    for rate in &opts.noise_rates {
        let noise = LabelNoise {
            rate: *rate,
            seed: opts.noise_seed,
        };
        // One policy's noisy traces at a time: the baseline's first (the
        // others are paired against it), then every policy in order.
        let replay = |i: usize, vocab: &mut Vocab| -> Result<Option<Scored>, EvalError> {
            let Some((c, mode)) = contracts.get(i) else {
                return Ok(None);
            };
            let ropts = ReplayOptions {
                mode: *mode,
                noise: Some(noise),
            };
            let p = pass(c, &ropts, frontier, &sweep_opts, &keys, Leak::Skip, vocab)?;
            let out = provider.score(scorer, &p.views, opts, vocab)?;
            Ok(Some((p.report, p.noise, out)))
        };
        let mut base = replay(base_ix, vocab)?;
        for (i, ((c, _), clean_out)) in contracts.iter().zip(clean_out).enumerate() {
            let name = c.name();
            let this = if i == base_ix {
                base.take()
            } else {
                replay(i, vocab)?
            };
            let Some((s, noise_stats, out)) = this else {
                continue;
            };
            let base_out = if i == base_ix {
                None
            } else {
                base.as_ref().map(|b| &b.2)
            };
            let recovery = opts
                .adversaries
                .iter()
                .enumerate()
                .filter_map(|(ai, adv)| {
                    let (o, c) = (out.get(ai)?, clean_out.get(ai)?);
                    let vs_baseline = if name == opts.baseline {
                        None
                    } else {
                        base_out
                            .and_then(|b| b.get(ai))
                            .map(|b| paired(o, b, opts.resamples, opts.seed))
                    };
                    Some(NoiseRecovery {
                        adversary: *adv,
                        recovery: bootstrap_mean(o, opts.resamples, opts.seed),
                        vs_clean: paired(o, c, opts.resamples, opts.seed),
                        vs_baseline,
                    })
                })
                .collect();
            rows.push(NoiseRow {
                rate: *rate,
                policy: name.to_owned(),
                labels: noise_stats,
                calls_per_task: s.calls_per_task,
                delta_per_task: s
                    .observers
                    .iter()
                    .find(|o| o.observer == obs)
                    .map_or(0.0, |o| o.delta_per_task),
                recovery,
            });
            if i == base_ix {
                // Keep the baseline's outcomes for the policies after it.
                base = Some((s, noise_stats, out));
            }
        }
    }
    Ok(NoiseSweep {
        seed: opts.noise_seed,
        observer: obs,
        rates: opts.noise_rates.clone(),
        clean,
        rows,
    })
}

/// Fails before any work on a noise rate that is not a probability or is
/// given twice.
fn check_rates(opts: &EvalOptions) -> Result<(), EvalError> {
    // Fail before any work on a bad rate.
    for (i, rate) in opts.noise_rates.iter().enumerate() {
        LabelNoise {
            rate: *rate,
            seed: opts.noise_seed,
        }
        .check()?;
        if opts.noise_rates.iter().take(i).any(|r| r == rate) {
            return Err(EvalError::DuplicateNoiseRate(rate.to_string()));
        }
    }
    Ok(())
}

/// The policies as replayable contracts (No-Spec added as a replay mode of
/// the baseline when asked), refusing duplicate names and a missing
/// baseline.
fn contracts(
    policies: Vec<(String, Table)>,
    opts: &EvalOptions,
) -> Result<Vec<(Contract, ReplayMode)>, EvalError> {
    let mut contracts: Vec<(Contract, ReplayMode)> = Vec::new();
    for (name, table) in policies {
        if contracts.iter().any(|(c, _)| c.name() == name) {
            return Err(EvalError::DuplicatePolicy(name));
        }
        // Policies that label alike (the std ones) share one labeler.
        let c = sharing_with(&contracts, name, table)?;
        contracts.push((c, ReplayMode::Speculative));
    }
    let base = contracts
        .iter()
        .find(|(c, _)| c.name() == opts.baseline)
        .map(|(c, _)| c.clone())
        .ok_or_else(|| EvalError::NoBaseline(opts.baseline.clone()))?;
    if opts.add_no_spec && !contracts.iter().any(|(c, _)| c.name() == "no_spec") {
        // The baseline's own engine, replayed committed-only.
        contracts.push((base.renamed("no_spec"), ReplayMode::CommittedOnly));
    }
    Ok(contracts)
}

/// A contract for `table` that shares the labeler of the first of
/// `contracts` that labels alike (the std policies all do).
fn sharing_with(
    contracts: &[(Contract, ReplayMode)],
    name: String,
    table: Table,
) -> Result<Contract, ReplayError> {
    match contracts.iter().find(|(c, _)| c.labels_like(&table)) {
        Some((other, _)) => Contract::sharing(name, table, other),
        None => Contract::new(name, table),
    }
}

/// What the evaluation keeps of one policy's replay.
struct Reduced {
    report: ReplayReport,
    /// Per observer, per adversary, the outcomes.
    outcomes: Vec<Vec<Outcomes>>,
    /// The provider's outcomes per adversary, when a sweep needs them.
    provider: Option<Vec<Outcomes>>,
}

/// A policy's noisy summary, its label-noise counts and each adversary's
/// outcomes.
type Scored = (ReplayReport, NoiseStats, Vec<Outcomes>);
