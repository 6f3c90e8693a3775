//! Frozen speculative frontiers: the input of a replay.
//!
//! A **frontier file** is JSON lines, one task per line (the format is
//! specified in the book's `replay.md` chapter):
//!
//! ```text
//! {"task":"lease-1","label":"legal","group":"lease","commit_t_ms":400,
//!  "candidates":[{"id":"e1","tool":"web_search","destination":"api.brave.com",
//!                 "args":{"q":"tenant rights lease termination penalty"},
//!                 "mode":"speculative","branch":"b1","confidence":0.8,"t_ms":100}, ...],
//!  "committed":{"branches":["b1"]}}
//! ```
//!
//! Blank lines and lines starting with `#` are comments; an optional first
//! line `{"stpc_frontier":1}` names the format version. Every other line must
//! be a valid task: a bad line is an error carrying its 1-based line number,
//! never skipped, so a run cannot silently drop input.
//!
//! Adapters read agent traces as they exist ([`Format`]): OpenAI chat
//! transcripts (`tool_calls` with arguments as a JSON string), MCP JSON-RPC
//! `tools/call` requests with the speculation fields in `params._meta`, and
//! AgentDojo run logs (`FunctionCall` objects: `function`, `args`, `id`). All
//! three produce the same [`Frontier`]. Where a source has no notion of
//! speculation (AgentDojo, plain OpenAI logs), calls are committed unless a
//! `speculation` object supplies branch, mode and confidence per call id.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The version written in and accepted from the optional header line.
pub const FRONTIER_VERSION: u64 = 1;

/// One speculative (or committed) candidate call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Candidate {
    /// Id, unique within the task.
    pub id: String,
    /// Tool name.
    pub tool: String,
    /// Destination: a host, a URL, a collection or a declared destination name.
    pub destination: String,
    /// Arguments: a JSON object of named fields.
    pub args: Value,
    /// Execution mode (`speculative`, `committed`, `prefetch`, ...).
    #[serde(default = "default_mode")]
    pub mode: String,
    /// Branch of the frontier; defaults to the candidate id.
    #[serde(default)]
    pub branch: String,
    /// Calibrated commit probability in `[0, 1]`; defaults to 1.0 for
    /// committed candidates and is required otherwise.
    #[serde(default)]
    pub confidence: Option<f64>,
    /// Issue time in milliseconds from the start of the task; defaults to
    /// `100 + 50 * index`.
    #[serde(default)]
    pub t_ms: Option<u64>,
}

fn default_mode() -> String {
    "speculative".to_owned()
}

impl Candidate {
    /// Whether the candidate is issued as part of the committed plan from the start.
    #[must_use]
    pub fn is_committed_mode(&self) -> bool {
        self.mode == "committed"
    }

    /// The confidence used for replay (1.0 when absent).
    #[must_use]
    pub fn confidence(&self) -> f64 {
        self.confidence.unwrap_or(1.0)
    }
}

/// The committed plan: branches and/or candidate ids.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Commit {
    /// Committed branch ids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<String>,
    /// Committed candidate ids (their branches are promoted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<String>,
}

/// One task of a frontier.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// Task id, unique within the file.
    pub task: String,
    /// Hidden label (topic) the adversaries try to recover.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Group for leave-one-out training (the same task under several seeds
    /// shares a group); defaults to the task id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Candidates in issue order.
    pub candidates: Vec<Candidate>,
    /// The committed plan.
    #[serde(default)]
    pub committed: Commit,
    /// When the agent commits (ms); defaults to 50 ms after the last issue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit_t_ms: Option<u64>,
}

impl Task {
    /// The group used for leave-one-out.
    #[must_use]
    pub fn group(&self) -> &str {
        self.group.as_deref().unwrap_or(&self.task)
    }

    /// Issue time of candidate `i`.
    #[must_use]
    pub fn issue_ms(&self, i: usize) -> u64 {
        self.candidates
            .get(i)
            .and_then(|c| c.t_ms)
            .unwrap_or(100 + 50 * i as u64)
    }

    /// Commit time.
    #[must_use]
    pub fn commit_ms(&self) -> u64 {
        self.commit_t_ms.unwrap_or_else(|| {
            (0..self.candidates.len())
                .map(|i| self.issue_ms(i))
                .max()
                .unwrap_or(0)
                + 50
        })
    }

    /// The committed branches, in order of first appearance among the candidates.
    #[must_use]
    pub fn committed_branches(&self) -> Vec<String> {
        let mut set: BTreeSet<&str> = self.committed.branches.iter().map(String::as_str).collect();
        for c in &self.candidates {
            if self.committed.candidates.contains(&c.id) {
                set.insert(&c.branch);
            }
        }
        let mut out: Vec<String> = Vec::new();
        for c in &self.candidates {
            if set.contains(c.branch.as_str()) && !out.contains(&c.branch) {
                out.push(c.branch.clone());
            }
        }
        out
    }

    /// Whether candidate `i` belongs to the committed plan `C`.
    #[must_use]
    pub fn in_plan(&self, i: usize, committed_branches: &[String]) -> bool {
        self.candidates
            .get(i)
            .is_some_and(|c| c.is_committed_mode() || committed_branches.contains(&c.branch))
    }
}

/// A whole frontier: tasks in file order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Frontier {
    /// Tasks.
    pub tasks: Vec<Task>,
}

/// What went wrong on a line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct FrontierError {
    /// 1-based line number (0 for whole-file problems).
    pub line: usize,
    /// What is wrong, naming fields, never argument values.
    pub message: String,
}

impl FrontierError {
    fn new(line: usize, message: impl Into<String>) -> FrontierError {
        FrontierError {
            line,
            message: message.into(),
        }
    }
}

/// Input formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// The native frontier format.
    Frontier,
    /// OpenAI chat transcripts, one task per line.
    Openai,
    /// MCP JSON-RPC messages, one per line.
    Mcp,
    /// AgentDojo run logs, one task per line.
    Agentdojo,
    /// Provider API responses as logged, one per line: OpenAI
    /// `chat.completion` and Responses-API objects (or `function_call`
    /// items), Anthropic messages (or `tool_use` blocks).
    Api,
    /// Decide from the first non-comment line.
    Auto,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "frontier" => Ok(Format::Frontier),
            "openai" => Ok(Format::Openai),
            "mcp" => Ok(Format::Mcp),
            "agentdojo" => Ok(Format::Agentdojo),
            "api" => Ok(Format::Api),
            "auto" => Ok(Format::Auto),
            _ => Err(format!(
                "unknown frontier format `{s}` (frontier, openai, mcp, agentdojo, api, auto)"
            )),
        }
    }
}

/// Options for the adapters.
#[derive(Clone, Debug, Default)]
pub struct AdapterOptions {
    /// Destination per tool for sources that do not name one.
    pub destinations: BTreeMap<String, String>,
}

fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

fn parse_json(line: usize, text: &str) -> Result<Value, FrontierError> {
    serde_json::from_str(text)
        .map_err(|e| FrontierError::new(line, format!("not valid JSON ({})", classify_json(&e))))
}

fn classify_json(e: &serde_json::Error) -> String {
    // Column only: serde_json's message can quote input text.
    format!("{:?} error at column {}", e.classify(), e.column())
}

fn is_header(v: &Value) -> bool {
    v.get("stpc_frontier").is_some()
}

impl Frontier {
    /// Parse `text` in `format`.
    ///
    /// # Errors
    ///
    /// The first bad line, with its line number.
    pub fn parse(
        text: &str,
        format: Format,
        opts: &AdapterOptions,
    ) -> Result<Frontier, FrontierError> {
        let format = if format == Format::Auto {
            detect(text)?
        } else {
            format
        };
        let f = match format {
            Format::Frontier | Format::Auto => Frontier::from_jsonl(text)?,
            Format::Openai => crate::adapters::openai(text, opts)?,
            Format::Mcp => crate::adapters::mcp(text, opts)?,
            Format::Agentdojo => crate::adapters::agentdojo(text, opts)?,
            Format::Api => crate::adapters::api(text, opts)?,
        };
        Ok(f)
    }

    /// Parse the native format.
    ///
    /// # Errors
    ///
    /// The first bad line, with its line number.
    pub fn from_jsonl(text: &str) -> Result<Frontier, FrontierError> {
        let mut tasks = Vec::new();
        let mut seen = HashMap::new();
        for (n, (line, l)) in lines(text).enumerate() {
            let v = parse_json(line, l)?;
            if n == 0 && is_header(&v) {
                let ver = v.get("stpc_frontier").and_then(Value::as_u64);
                if ver != Some(FRONTIER_VERSION) {
                    return Err(FrontierError::new(
                        line,
                        format!(
                            "unsupported frontier version (this reader accepts {FRONTIER_VERSION})"
                        ),
                    ));
                }
                continue;
            }
            let mut task: Task = serde_json::from_value(v).map_err(|e| {
                FrontierError::new(line, format!("not a frontier task: {}", scrub_serde(&e)))
            })?;
            normalize(&mut task).map_err(|m| FrontierError::new(line, m))?;
            if let Some(prev) = seen.insert(task.task.clone(), line) {
                return Err(FrontierError::new(
                    line,
                    format!("duplicate task id `{}` (first on line {prev})", task.task),
                ));
            }
            tasks.push(task);
        }
        Ok(Frontier { tasks })
    }

    /// The native format, with a header line.
    ///
    /// # Errors
    ///
    /// Serialization failed (a non-finite confidence).
    pub fn to_jsonl(&self) -> Result<String, serde_json::Error> {
        let mut out = format!("{{\"stpc_frontier\":{FRONTIER_VERSION}}}\n");
        for t in &self.tasks {
            out.push_str(&serde_json::to_string(t)?);
            out.push('\n');
        }
        Ok(out)
    }
}

/// Serde's messages name fields and expected types; they quote input only
/// for unknown enum variants and fields, which are names, not values.
fn scrub_serde(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.find(" at line ") {
        Some(i) => s.get(..i).unwrap_or(&s).to_owned(),
        None => s,
    }
}

/// Check a task and fill defaults. Errors name fields, never values.
pub(crate) fn normalize(task: &mut Task) -> Result<(), String> {
    if task.task.is_empty() {
        return Err("empty task id".into());
    }
    if task.candidates.is_empty() {
        return Err(format!("task `{}` has no candidates", task.task));
    }
    let mut ids = BTreeSet::new();
    for c in &mut task.candidates {
        if c.id.is_empty() {
            return Err(format!("task `{}`: a candidate has an empty id", task.task));
        }
        if !ids.insert(c.id.clone()) {
            return Err(format!(
                "task `{}`: duplicate candidate id `{}`",
                task.task, c.id
            ));
        }
        if c.branch.is_empty() {
            c.branch = if c.is_committed_mode() {
                "main".to_owned()
            } else {
                c.id.clone()
            };
        }
        if !c.args.is_object() {
            return Err(format!(
                "task `{}`, candidate `{}`: `args` must be a JSON object",
                task.task, c.id
            ));
        }
        match c.confidence {
            Some(x) if !(0.0..=1.0).contains(&x) => {
                return Err(format!(
                    "task `{}`, candidate `{}`: confidence must be in [0, 1]",
                    task.task, c.id
                ));
            }
            None if !c.is_committed_mode() => {
                return Err(format!(
                    "task `{}`, candidate `{}`: speculative candidate without `confidence`",
                    task.task, c.id
                ));
            }
            _ => {}
        }
    }
    let branches: BTreeSet<&str> = task.candidates.iter().map(|c| c.branch.as_str()).collect();
    for b in &task.committed.branches {
        if !branches.contains(b.as_str()) {
            return Err(format!(
                "task `{}`: committed branch `{b}` has no candidate",
                task.task
            ));
        }
    }
    for c in &task.committed.candidates {
        if !ids.contains(c) {
            return Err(format!(
                "task `{}`: committed candidate `{c}` does not exist",
                task.task
            ));
        }
    }
    Ok(())
}

/// Guess the format from the first non-comment line.
///
/// # Errors
///
/// The line is not JSON or matches no format.
pub fn detect(text: &str) -> Result<Format, FrontierError> {
    let Some((line, l)) = lines(text).next() else {
        return Ok(Format::Frontier);
    };
    let v = parse_json(line, l)?;
    if is_header(&v) || v.get("candidates").is_some() {
        Ok(Format::Frontier)
    } else if v.get("jsonrpc").is_some() {
        Ok(Format::Mcp)
    } else if crate::adapters::is_api_response(&v) {
        Ok(Format::Api)
    } else if v.get("user_task_id").is_some() || v.get("suite_name").is_some() {
        Ok(Format::Agentdojo)
    } else if v.get("messages").is_some() {
        Ok(Format::Openai)
    } else {
        Err(FrontierError::new(line, "cannot tell the format (expected `candidates`, `jsonrpc`, `user_task_id`, `messages`, or a provider response)"))
    }
}

/// Speculation fields for one call of a source without them.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Speculation {
    #[serde(default)]
    pub(crate) mode: Option<String>,
    #[serde(default)]
    pub(crate) branch: Option<String>,
    #[serde(default)]
    pub(crate) confidence: Option<f64>,
    #[serde(default)]
    pub(crate) destination: Option<String>,
    #[serde(default)]
    pub(crate) t_ms: Option<u64>,
}

/// Build a candidate from an adapter's parts.
pub(crate) fn candidate(
    id: String,
    tool: String,
    args: Map<String, Value>,
    spec: Speculation,
    opts: &AdapterOptions,
) -> Result<Candidate, String> {
    let destination = spec
        .destination
        .or_else(|| opts.destinations.get(&tool).cloned())
        .ok_or_else(|| format!("call `{id}` of tool `{tool}` has no destination (give one in the speculation fields or the adapter's tool destinations)"))?;
    let mode = spec.mode.unwrap_or_else(|| "committed".to_owned());
    Ok(Candidate {
        branch: spec.branch.unwrap_or_default(),
        confidence: spec.confidence,
        t_ms: spec.t_ms,
        id,
        tool,
        destination,
        args: Value::Object(args),
        mode,
    })
}

/// Summary statistics of a frontier (the paper's Table 19).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrontierStats {
    /// Tasks.
    pub tasks: usize,
    /// Mean candidates per task.
    pub mean_candidates: f64,
    /// Median candidates per task.
    pub median_candidates: f64,
    /// Fewest candidates.
    pub min_candidates: usize,
    /// Most candidates.
    pub max_candidates: usize,
    /// Share of candidates not in the committed plan.
    pub abandoned_rate: f64,
    /// Mean confidence of speculative candidates.
    pub mean_confidence: f64,
    /// Share of candidates per tool.
    pub tool_share: BTreeMap<String, f64>,
}

impl Frontier {
    /// Table-19-style statistics.
    #[must_use]
    pub fn stats(&self) -> FrontierStats {
        FrontierStats::of(self)
    }
}

/// Tasks read a chunk at a time: a [`Frontier`] in memory, or a corpus
/// generated on demand ([`crate::corpus::Corpus`]). A replay and an
/// evaluation hold one chunk of tasks, never all of them, when the source
/// does not.
pub trait Tasks: Sync {
    /// How many tasks.
    fn len(&self) -> usize;

    /// The tasks of `range` (clamped to the tasks there are), in order.
    fn chunk(&self, range: Range<usize>) -> Cow<'_, [Task]>;

    /// Whether there are no tasks.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Tasks for Frontier {
    fn len(&self) -> usize {
        self.tasks.len()
    }

    fn chunk(&self, range: Range<usize>) -> Cow<'_, [Task]> {
        let end = range.end.min(self.tasks.len());
        Cow::Borrowed(self.tasks.get(range.start.min(end)..end).unwrap_or(&[]))
    }
}

/// Tasks read in chunks of this many by [`for_each_task`] (and a replay).
pub const CHUNK: usize = 64;

/// Calls `f(index, task)` for every task in order, one chunk in memory at a
/// time.
pub fn for_each_task<T: Tasks + ?Sized>(tasks: &T, mut f: impl FnMut(usize, &Task)) {
    let n = tasks.len();
    for start in (0..n).step_by(CHUNK) {
        for (i, t) in (start..).zip(tasks.chunk(start..(start + CHUNK).min(n)).iter()) {
            f(i, t);
        }
    }
}

impl FrontierStats {
    /// The statistics of `tasks`, read a chunk at a time.
    #[must_use]
    pub fn of<T: Tasks + ?Sized>(tasks: &T) -> FrontierStats {
        let mut sizes: Vec<usize> = Vec::with_capacity(tasks.len());
        let mut abandoned = 0usize;
        let (mut conf_sum, mut conf_n) = (0.0, 0usize);
        let mut tools: BTreeMap<String, f64> = BTreeMap::new();
        for_each_task(tasks, |_, t| {
            sizes.push(t.candidates.len());
            let cb = t.committed_branches();
            for (i, c) in t.candidates.iter().enumerate() {
                if !t.in_plan(i, &cb) {
                    abandoned += 1;
                }
                if !c.is_committed_mode() {
                    conf_sum += c.confidence();
                    conf_n += 1;
                }
                *tools.entry(c.tool.clone()).or_default() += 1.0;
            }
        });
        sizes.sort_unstable();
        let total: usize = sizes.iter().sum();
        let median = crate::stats::median_usize(&sizes);
        let denom = total.max(1) as f64;
        for v in tools.values_mut() {
            *v /= denom;
        }
        FrontierStats {
            tasks: sizes.len(),
            mean_candidates: total as f64 / sizes.len().max(1) as f64,
            median_candidates: median,
            min_candidates: sizes.first().copied().unwrap_or(0),
            max_candidates: sizes.last().copied().unwrap_or(0),
            abandoned_rate: abandoned as f64 / denom,
            mean_confidence: if conf_n == 0 {
                0.0
            } else {
                conf_sum / conf_n as f64
            },
            tool_share: tools,
        }
    }
}
