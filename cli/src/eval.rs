//! `stpc eval`: the paper's comparison as one command. Every policy replays
//! the same frontier (a file, or a generated corpus), the adversaries attack
//! each observer's view, and the report gives recovery with bootstrap
//! intervals and paired sign tests against the baseline, the Gate τ sweep
//! (the gate contract recompiled per τ), the channel ablation, and the
//! false-negative label-noise sweep (5, 10 and 20 % by default: the paper's
//! Table 10, through the runtime's label hook).
//!
//! Policies are compiled tables (`.json`) or contracts (`.stpc`), compiled
//! here; a contract that does not compile prints its diagnostics and exits
//! with code 1. Frontier and I/O failures exit with code 2.

use std::path::{Path, PathBuf};

use stpc_eval::corpus::{generate, Corpus, Kind, Spec};
use stpc_eval::frontier::Format as InputFormat;
use stpc_eval::{evaluate, Adversary, EvalOptions, Observer, Tasks, View};

use crate::inputs::{compile_text, load_policy, parse_pair, read_frontier, write_output, Loaded};
use crate::{output, Global, Outcome};

/// Report formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// Markdown tables.
    Markdown,
    /// The whole report as JSON.
    Json,
    /// The evaluation figure (provider view): absolute recovery with
    /// intervals per policy and adversary, ordered by effect, and the
    /// privacy/utility plane with its Pareto front.
    Svg,
    /// The paper's Figure 2: recovery deltas against the baseline
    /// (provider view).
    SvgDelta,
}

/// Corpus kinds for `--generate`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorpusKind {
    /// The whole frontier redrawn per seed.
    Paired,
    /// The committed plan fixed across seeds.
    Static,
}

/// What the adversaries see.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewArg {
    /// Everything the observer recorded, O_i(S).
    Issued,
    /// Only the marginal exposure Δ_i.
    Delta,
}

/// Arguments of `stpc eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// The frontier file (JSON lines); `-` reads standard input. Omit with `--generate`.
    #[arg(value_name = "FRONTIER", required_unless_present = "generate")]
    pub frontier: Option<String>,
    /// A policy, `NAME=PATH` (a `.json` table or a `.stpc` contract; repeatable).
    #[arg(long = "policy", value_name = "NAME=PATH", value_parser = parse_pair)]
    pub policies: Vec<(String, String)>,
    /// Every `.stpc` and `.json` file in a directory, named by file stem.
    /// With neither `--policy` nor `--policies-dir`, the paper's policies
    /// from the standard library are compared (and its Gate is swept).
    #[arg(long, value_name = "DIR")]
    pub policies_dir: Option<PathBuf>,
    /// Baseline policy for paired deltas and naive-Bayes training.
    #[arg(long, value_name = "NAME", default_value = "naive")]
    pub baseline: String,
    /// The gate contract for the τ sweep.
    #[arg(long, value_name = "CONTRACT")]
    pub gate: Option<PathBuf>,
    /// Thresholds of the sweep (comma-separated).
    #[arg(
        long,
        value_name = "TAU,...",
        value_delimiter = ',',
        default_value = "0.3,0.5,0.7,0.9"
    )]
    pub gate_tau: Vec<f64>,
    /// Name of the gate contract's threshold parameter.
    #[arg(long, value_name = "NAME", default_value = "tau")]
    pub gate_param: String,
    /// Generate a corpus of this many tasks (per seed) instead of reading a file.
    #[arg(long, value_name = "TASKS")]
    pub generate: Option<usize>,
    /// Seeds of the generated corpus (comma-separated).
    #[arg(
        long,
        value_name = "SEED,...",
        value_delimiter = ',',
        default_value = "1,2,3"
    )]
    pub seeds: Vec<u64>,
    /// Kind of generated corpus.
    #[arg(long, value_enum, default_value_t = CorpusKind::Paired)]
    pub corpus: CorpusKind,
    /// Also write the generated corpus as a frontier file.
    #[arg(long, value_name = "FILE")]
    pub write_frontier: Option<PathBuf>,
    /// Input format: frontier, openai, mcp, agentdojo, api (provider
    /// responses: OpenAI chat.completion and Responses, Anthropic messages)
    /// or auto.
    #[arg(long, value_name = "FORMAT", default_value = "auto")]
    pub input_format: InputFormat,
    /// Destination for a tool whose calls name none (`TOOL=DEST`, repeatable).
    #[arg(long = "destination", value_name = "TOOL=DEST", value_parser = parse_pair)]
    pub destinations: Vec<(String, String)>,
    /// Observers to attack (repeatable; default: all five).
    #[arg(long = "observer", value_name = "OBSERVER", value_parser = |s: &str| s.parse::<Observer>())]
    pub observers: Vec<Observer>,
    /// What the adversaries see.
    #[arg(long, value_enum, default_value_t = ViewArg::Issued)]
    pub view: ViewArg,
    /// Bootstrap resamples.
    #[arg(long, default_value_t = stpc_eval::stats::RESAMPLES)]
    pub resamples: usize,
    /// Bootstrap seed.
    #[arg(long, default_value_t = stpc_eval::stats::SEED)]
    pub seed: u64,
    /// The label-noise sweep (boxed: it keeps `Command` small).
    #[command(flatten)]
    pub noise: Box<NoiseArgs>,
    /// Skip the channel ablation.
    #[arg(long)]
    pub no_channels: bool,
    /// Include per-task summaries (JSON output).
    #[arg(long)]
    pub per_task: bool,
    /// Report format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Markdown)]
    pub output_format: OutputFormat,
    /// Write the report here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Never draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

/// The false-negative label-noise sweep of `stpc eval`.
#[derive(clap::Args, Debug)]
pub struct NoiseArgs {
    /// False-negative label-noise rates of the noise sweep (comma-separated
    /// probabilities; the paper's Table 10).
    #[arg(
        long,
        visible_alias = "noise",
        value_name = "RATE,...",
        value_delimiter = ',',
        default_value = "0.05,0.1,0.2",
        value_parser = parse_rate
    )]
    pub label_noise: Vec<f64>,
    /// Skip the label-noise sweep.
    #[arg(long, conflicts_with = "label_noise")]
    pub no_label_noise: bool,
    /// Seed of the label noise.
    #[arg(long, value_name = "SEED", default_value_t = 1)]
    pub noise_seed: u64,
}

/// A probability in `[0, 1]`.
fn parse_rate(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("`{s}` is not a probability in [0, 1]"))
    }
}

fn policy_files(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
    let mut out = Vec::new();
    for e in entries {
        let p = e
            .map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?
            .path();
        if p.extension().is_some_and(|x| x == "stpc" || x == "json") {
            if let Some(stem) = p.file_stem() {
                out.push((stem.to_string_lossy().into_owned(), p));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Runs `stpc eval`.
pub fn run(global: &Global, args: EvalArgs) -> Outcome {
    let mut files: Vec<(String, PathBuf)> = args
        .policies
        .iter()
        .map(|(n, p)| (n.clone(), PathBuf::from(p)))
        .collect();
    if let Some(dir) = &args.policies_dir {
        match policy_files(dir) {
            Ok(f) => files.extend(f),
            Err(m) => {
                output::fail(global, &m);
                return Outcome::Failure;
            }
        }
    }
    let mut policies = Vec::new();
    let mut outcome = Outcome::Success;
    // With no policy given, compare the paper's policies from the embedded
    // standard library (and sweep its Gate unless another gate was named).
    let defaults = files.is_empty();
    if defaults {
        for (name, display, text) in stpc_compiler::resolve::std_policies() {
            match compile_text(global, &display, text, Vec::new()) {
                Loaded::Table(t) => policies.push((name, *t)),
                Loaded::Problems => outcome = Outcome::Problems,
                Loaded::Failed => return Outcome::Failure,
            }
        }
    }
    for (name, path) in files {
        match load_policy(global, &path, None, Vec::new()) {
            Loaded::Table(t) => policies.push((name, *t)),
            Loaded::Problems => outcome = Outcome::Problems,
            Loaded::Failed => return Outcome::Failure,
        }
    }
    let mut gate_sweep = Vec::new();
    if defaults && args.gate.is_none() {
        let gate = stpc_compiler::resolve::std_policies()
            .into_iter()
            .find(|(name, _, _)| name == "gate");
        for tau in &args.gate_tau {
            let Some((_, display, text)) = &gate else {
                break;
            };
            match compile_text(global, display, text, vec![(args.gate_param.clone(), *tau)]) {
                Loaded::Table(t) => gate_sweep.push((*tau, *t)),
                Loaded::Problems => outcome = Outcome::Problems,
                Loaded::Failed => return Outcome::Failure,
            }
        }
    }
    if let Some(gate) = &args.gate {
        for tau in &args.gate_tau {
            match load_policy(global, gate, None, vec![(args.gate_param.clone(), *tau)]) {
                Loaded::Table(t) => gate_sweep.push((*tau, *t)),
                Loaded::Problems => outcome = Outcome::Problems,
                Loaded::Failed => return Outcome::Failure,
            }
        }
    }
    if outcome != Outcome::Success {
        return outcome;
    }
    // A tool with one declared destination needs no `--destination`: the
    // policies' tables say where it goes (the first policy that declares
    // the tool decides, after the ones given on the command line).
    let mut destinations = args.destinations.clone();
    for (_, table) in &policies {
        destinations = crate::inputs::single_destinations(table, &destinations);
    }
    // A generated corpus is drawn a chunk of tasks at a time as the
    // replays read it (memory does not grow with `--generate`); a frontier
    // file is read whole.
    let frontier: Box<dyn Tasks> = match (&args.frontier, args.generate) {
        (Some(path), _) => match read_frontier(path, args.input_format, &destinations) {
            Ok(f) => {
                if let Some(out) = &args.write_frontier {
                    let text = f.to_jsonl().map_err(|e| e.to_string());
                    if write_output(global, text, Some(out)) != Outcome::Success {
                        return Outcome::Failure;
                    }
                }
                Box::new(f)
            }
            Err(m) => {
                output::fail(global, &m);
                return Outcome::Failure;
            }
        },
        (None, Some(n)) => {
            let kind = match args.corpus {
                CorpusKind::Paired => Kind::PairedReplay,
                CorpusKind::Static => Kind::StaticPlan,
            };
            let spec = Spec {
                tasks: n,
                seeds: args.seeds.clone(),
                kind,
            };
            if let Some(path) = &args.write_frontier {
                // Written whole: the file is the whole corpus anyway.
                let text = generate(&spec).to_jsonl().map_err(|e| e.to_string());
                if write_output(global, text, Some(path)) != Outcome::Success {
                    return Outcome::Failure;
                }
            }
            Box::new(Corpus::new(spec))
        }
        (None, None) => {
            output::fail(global, "give a frontier file or `--generate TASKS`");
            return Outcome::Failure;
        }
    };
    let opts = EvalOptions {
        baseline: args.baseline.clone(),
        observers: if args.observers.is_empty() {
            Observer::ALL.to_vec()
        } else {
            args.observers.clone()
        },
        adversaries: Adversary::ALL.to_vec(),
        view: match args.view {
            ViewArg::Issued => View::Issued,
            ViewArg::Delta => View::Delta,
        },
        resamples: args.resamples,
        seed: args.seed,
        add_no_spec: true,
        gate_sweep,
        noise_rates: if args.noise.no_label_noise {
            Vec::new()
        } else {
            args.noise.label_noise.clone()
        },
        noise_seed: args.noise.noise_seed,
        channel_ablation: !args.no_channels,
        per_task: args.per_task,
        progress: !args.no_progress,
    };
    let report = match evaluate(policies, frontier.as_ref(), &opts) {
        Ok(r) => r,
        Err(e) => {
            output::fail(global, &e.to_string());
            return Outcome::Failure;
        }
    };
    let text = match args.output_format {
        OutputFormat::Json => stpc_eval::render::json(&report).map_err(|e| e.to_string()),
        OutputFormat::Markdown => Ok(stpc_eval::render::eval_markdown(&report)),
        OutputFormat::Svg => Ok(stpc_eval::render::figure_svg(&report, Observer::Provider)),
        OutputFormat::SvgDelta => Ok(stpc_eval::render::figure2_svg(&report, Observer::Provider)),
    };
    write_output(global, text, args.output.as_deref())
}
