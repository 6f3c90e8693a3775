//! `stpc-eval`: replay frozen speculative frontiers through compiled
//! contracts and measure what each observer learns.
//!
//! ```text
//!  frontier file ──frontier::Frontier::parse──▶ Frontier (tasks, candidates, committed plan)
//!        (native JSONL, OpenAI, MCP, AgentDojo)        │
//!                                                       ▼
//!  Table ──replay::Contract::new──▶ Contract ──replay::replay_task──▶ TaskTrace (S, C)
//!                                                       │
//!                      trace::TaskTrace::exposure ──▶ O_i(S), O_i(C), Δ_i per observer
//!                                                       │
//!            report::summarize ──▶ ReplayReport    evaluate ──▶ EvalReport
//!                                  (calls, ghosts, Δ)    (adversaries, bootstrap, sign test,
//!                                                         Gate sweep, channel ablation,
//!                                                         label-noise sweep)
//!                                                       │
//!                                   render ──▶ JSON, Markdown, SVG (Figure 2)
//! ```
//!
//! Tasks are read a chunk at a time through `frontier::Tasks`: a loaded
//! `Frontier`, or a `corpus::Corpus` drawn on demand. An evaluation holds
//! one chunk of one policy's traces, and keeps the observer documents its
//! adversaries read on disk (`docs`), so its memory does not follow the
//! number of tasks.
//!
//! The crate depends on `stpc-runtime` only, and only in [`replay`](mod@replay); the
//! compiler's CLI passes compiled tables in.

pub mod adapters;
pub mod adversary;
pub mod corpus;
pub mod docs;
pub mod evaluate;
pub mod frontier;
pub mod render;
pub mod replay;
pub mod report;
pub mod stats;
pub mod trace;
pub mod utility;

pub use adversary::{Adversary, ChannelMask};
pub use corpus::Corpus;
pub use evaluate::{evaluate, EvalError, EvalOptions, EvalReport, NoiseSweep, View, NOISE_RATES};
pub use frontier::{
    AdapterOptions, Candidate, Commit, Format, Frontier, FrontierError, Task, Tasks,
};
pub use replay::{Contract, LabelNoise, ReplayError, ReplayMode, ReplayOptions};
pub use report::{replay, ReplayReport};
pub use trace::{Act, Dispatch, NoiseStats, Observer, TaskTrace};
