//! The trace model: issued trace `S`, committed trace `C`, observer
//! projections `O_i` and marginal exposure `Δ_i = O_i(S) \ O_i(C)`.
//!
//! A replayed task ([`TaskTrace`]) holds two runs of the same contract:
//!
//! - `issued` (S): every candidate issued in order, its branch promoted or
//!   abandoned; what actually left, as it left (original, rewritten, shadowed
//!   locally, deferred then promoted, blocked: see [`Dispatch`]);
//! - `committed` (C): the counterfactual of issuing only the committed plan
//!   from the start, every event as `committed` with confidence 1.0, through
//!   the same contract (so a committed call that the contract rewrites is
//!   rewritten in C too, and Δ measures what speculation added).
//!
//! **Timing.** Candidates are issued at their `t_ms`; the agent commits at the
//! task's commit time `T`. In S an event dispatched at issue carries its issue
//! time, one dispatched on promotion carries `T`. In C committed-mode events
//! keep their issue time and promoted speculative ones are issued at `T`.
//! Simulated latencies: web search 200 ms, document retrieval 100, calendar
//! 50, CRM 80, e-mail 120 ([`latency_ms`]); a local substitute 10.
//!
//! **Projections** ([`Observer`], the paper's Table 1). Each record has a
//! *content key* and a time:
//!
//! | observer | content key | time | adversary text |
//! |---|---|---|---|
//! | provider | tool, endpoint, arguments as dispatched, size | dispatch ms | arguments, destination, tool |
//! | network | host (a collection's service, not its name), size | dispatch ms | destination host |
//! | runtime log | tool, 20-char summary per argument value, decision tag, 100 ms duration bucket | decision ms | summary, tool, tag |
//! | co-tenant | tool and destination (cache key residue) | 100 ms bucket | destination, tool |
//! | auditor | the audit record minus its sequence number | - | transformed and raw values, destination, tool, labels |
//!
//! **Δ as a multiset difference.** For each record of `O_i(S)` in order, a
//! record of `O_i(C)` with the same content key is consumed if one is left;
//! unmatched records form `Δ_i`. A matched record whose time differs is
//! *pre-commit disclosure* (a promoted speculative event seen before commit)
//! and is reported separately rather than in `Δ_i`: the paper's worked trace
//! (Appendix A.1) counts the promoted e1 outside `Δ_provider`.
//!
//! **Late-Scrub.** When a contract's audit policy says `scrub after commit`,
//! the runtime-log records of events outside the committed plan lose their
//! argument summaries once the task ends; what external observers received
//! is unchanged, which is the point the paper makes about post-hoc scrubbing.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The five actions, mirrored from the runtime so the trace model does not
/// depend on the runtime's API (only `replay.rs` does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Act {
    /// Dispatched unchanged.
    Allow,
    /// Dispatched with transformed fields.
    Rewrite,
    /// Answered by a trusted local substitute.
    Shadow,
    /// Buffered on its branch.
    Defer,
    /// Dropped.
    Block,
}

impl Act {
    /// Lowercase name (the decision tag).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Act::Allow => "allow",
            Act::Rewrite => "rewrite",
            Act::Shadow => "shadow",
            Act::Defer => "defer",
            Act::Block => "block",
        }
    }

    /// All actions in order.
    pub const ALL: [Act; 5] = [
        Act::Allow,
        Act::Rewrite,
        Act::Shadow,
        Act::Defer,
        Act::Block,
    ];
}

/// What finally happened to a candidate in S.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dispatch {
    /// Sent unchanged at issue.
    Original,
    /// Sent with rewritten fields at issue.
    Rewritten,
    /// A local substitute answered; nothing external (promotion may reuse it).
    ShadowedLocally,
    /// Deferred, its branch promoted, re-decided and sent at commit time.
    DeferredThenPromoted {
        /// Whether the re-decision rewrote it.
        rewritten: bool,
    },
    /// Shadowed, its branch promoted, re-issued to the real provider.
    ShadowThenReissued {
        /// Whether the re-decision rewrote it.
        rewritten: bool,
    },
    /// Deferred (or re-decided into a deferral) and never sent.
    Withheld,
    /// Blocked at issue or at promotion.
    Blocked,
}

/// One candidate's path through the monitor in S.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceEvent {
    /// Candidate id.
    pub id: String,
    /// Tool.
    pub tool: String,
    /// Destination as given.
    pub destination: String,
    /// Mode at issue.
    pub mode: String,
    /// Branch.
    pub branch: String,
    /// Confidence at issue.
    pub confidence: f64,
    /// Whether the candidate is in the committed plan C.
    pub in_plan: bool,
    /// Issue time (ms).
    pub issue_ms: u64,
    /// Decision at issue.
    pub decision: Act,
    /// Rule that decided at issue.
    pub rule: String,
    /// Decision on promotion, if it was re-decided.
    pub promoted_decision: Option<Act>,
    /// What finally happened.
    pub dispatch: Dispatch,
}

impl TraceEvent {
    /// Whether it was a speculative (non-committed-mode) candidate.
    #[must_use]
    pub fn speculative(&self) -> bool {
        self.mode != "committed"
    }

    /// Whether something about it left the trusted boundary.
    #[must_use]
    pub fn external(&self) -> bool {
        matches!(
            self.dispatch,
            Dispatch::Original
                | Dispatch::Rewritten
                | Dispatch::DeferredThenPromoted { .. }
                | Dispatch::ShadowThenReissued { .. }
        )
    }

    /// A ghost call: abandoned speculative event with an external projection.
    #[must_use]
    pub fn ghost(&self) -> bool {
        self.speculative() && !self.in_plan && self.external()
    }
}

/// One external dispatch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sent {
    /// Candidate index.
    pub index: usize,
    /// Tool.
    pub tool: String,
    /// Destination as given.
    pub destination: String,
    /// Declared destination label (`<missing>` when unknown).
    pub dest_label: String,
    /// Arguments as dispatched.
    pub args: Value,
    /// Labels of the dispatched fields, `(field, label)`.
    pub labels: Vec<(String, String)>,
    /// Dispatch time (ms).
    pub t_ms: u64,
}

/// One decision as the runtime log sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Candidate index.
    pub index: usize,
    /// Tool.
    pub tool: String,
    /// Arguments acted on (dispatched or given to the substitute); `None`
    /// for DEFER and BLOCK, which act on nothing.
    pub args: Option<Value>,
    /// Decision tag.
    pub tag: Act,
    /// Decision time (ms).
    pub t_ms: u64,
    /// Simulated duration (ms).
    pub duration_ms: u64,
}

/// One audit record, as the audit sink holds it at the end of the task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditEntry {
    /// Candidate index, when known.
    pub index: Option<usize>,
    /// The record without task and sequence number.
    pub record: Value,
}

/// One run of a contract (S or C).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// External dispatches in order.
    pub sent: Vec<Sent>,
    /// Runtime-log entries in order.
    pub log: Vec<LogEntry>,
    /// Audit records.
    pub audit: Vec<AuditEntry>,
}

/// A replayed task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskTrace {
    /// Task id.
    pub task: String,
    /// Hidden label.
    pub label: Option<String>,
    /// Leave-one-out group.
    pub group: String,
    /// Commit time (ms).
    pub commit_ms: u64,
    /// Every candidate's path in S.
    pub events: Vec<TraceEvent>,
    /// S.
    pub issued: Run,
    /// The committed-only counterfactual C.
    pub committed: Run,
    /// The contract scrubs the runtime log after commit (Late-Scrub).
    pub scrub_after_commit: bool,
    /// What label noise did to the candidates' labels at issue (zero
    /// without noise).
    #[serde(default)]
    pub noise: NoiseStats,
}

/// Labels that false-negative label noise could flip, and flipped, counted
/// once per candidate at issue (the decisions of the issued run S).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoiseStats {
    /// Sensitive or intent-revealing argument fields and sensitive
    /// destinations among the labels of the issued candidates.
    pub eligible: usize,
    /// How many of them were downgraded to public.
    pub flipped: usize,
}

impl std::ops::Add for NoiseStats {
    type Output = NoiseStats;

    fn add(self, other: NoiseStats) -> NoiseStats {
        NoiseStats {
            eligible: self.eligible + other.eligible,
            flipped: self.flipped + other.flipped,
        }
    }
}

impl std::iter::Sum for NoiseStats {
    fn sum<I: Iterator<Item = NoiseStats>>(iter: I) -> NoiseStats {
        iter.fold(NoiseStats::default(), |a, b| a + b)
    }
}

impl NoiseStats {
    /// Flipped over eligible (0 when nothing was eligible).
    #[must_use]
    pub fn share(&self) -> f64 {
        if self.eligible == 0 {
            0.0
        } else {
            self.flipped as f64 / self.eligible as f64
        }
    }
}

/// Observer classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Observer {
    /// The tool's provider.
    Provider,
    /// On-path network observers.
    Network,
    /// The runtime's own log.
    RuntimeLog,
    /// Co-tenants of shared caches and queues.
    CoTenant,
    /// Whoever reads the audit sink.
    Auditor,
}

impl Observer {
    /// Every observer.
    pub const ALL: [Observer; 5] = [
        Observer::Provider,
        Observer::Network,
        Observer::RuntimeLog,
        Observer::CoTenant,
        Observer::Auditor,
    ];

    /// snake_case name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Observer::Provider => "provider",
            Observer::Network => "network",
            Observer::RuntimeLog => "runtime_log",
            Observer::CoTenant => "co_tenant",
            Observer::Auditor => "auditor",
        }
    }
}

impl std::str::FromStr for Observer {
    type Err = String;
    fn from_str(s: &str) -> Result<Observer, String> {
        Observer::ALL
            .into_iter()
            .find(|o| o.as_str() == s || o.as_str().replace('_', "-") == s)
            .ok_or_else(|| {
                format!(
                    "unknown observer `{s}` (provider, network, runtime_log, co_tenant, auditor)"
                )
            })
    }
}

/// Text of a record by disclosure channel, for the adversaries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Channels {
    /// Argument values (or their summaries).
    pub arguments: String,
    /// Destination.
    pub destination: String,
    /// Tool name.
    pub tool: String,
    /// Anything else (decision tags, labels).
    pub other: String,
}

/// One projected record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Content key used for the multiset difference.
    pub key: String,
    /// Time the observer records (ms; 0 when it records none).
    pub t_ms: u64,
    /// Candidate index, when known.
    pub index: Option<usize>,
    /// Channels, as text.
    pub text: Channels,
    /// `(field, label)` pairs the record discloses (`<destination>` for the
    /// destination label).
    pub fields: Vec<(String, String)>,
}

/// Simulated latency of a tool (ms).
#[must_use]
pub fn latency_ms(tool: &str) -> u64 {
    let t = tool.to_ascii_lowercase();
    if t.contains("mail") {
        120
    } else if t.contains("calendar") {
        50
    } else if t.contains("crm") {
        80
    } else if t.contains("retriev") || t.contains("doc") {
        100
    } else if t.contains("web") || t.contains("search") {
        200
    } else {
        100
    }
}

/// Latency of a trusted local substitute (ms).
pub const LOCAL_MS: u64 = 10;

/// The string leaves of a JSON value, in order (numbers and booleans as text).
#[must_use]
pub fn leaves(v: &Value) -> Vec<String> {
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Null => {}
            Value::Bool(b) => out.push(b.to_string()),
            Value::Number(n) => out.push(n.to_string()),
            Value::String(s) => out.push(s.clone()),
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            Value::Object(m) => m.values().for_each(|x| walk(x, out)),
        }
    }
    let mut out = Vec::new();
    walk(v, &mut out);
    out
}

/// The runtime-log probe's argument summary: each value cut to 20 characters.
#[must_use]
pub fn summary(v: &Value) -> String {
    leaves(v)
        .iter()
        .map(|s| s.chars().take(20).collect::<String>())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The host the network sees: a URL's or host's host part; a collection is
/// reached through its tool's service, whose name does not carry the collection.
#[must_use]
pub fn network_host(tool: &str, destination: &str) -> String {
    let d = destination.trim();
    let rest = d.split_once("://").map_or(d, |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    if host.contains('.') {
        host.to_ascii_lowercase()
    } else {
        format!("{tool}.service")
    }
}

fn size_of(s: &Sent) -> usize {
    s.tool.len() + s.destination.len() + serde_json::to_string(&s.args).map_or(0, |x| x.len())
}

/// Project a run onto an observer. `plan[i]` says whether candidate `i` is in
/// the committed plan (used by the runtime-log scrub).
#[must_use]
pub fn project(obs: Observer, run: &Run, scrub: bool, plan: &[bool]) -> Vec<Record> {
    match obs {
        Observer::Provider => run.sent.iter().map(provider_record).collect(),
        Observer::Network => run.sent.iter().map(network_record).collect(),
        Observer::CoTenant => run.sent.iter().map(co_tenant_record).collect(),
        Observer::RuntimeLog => run.log.iter().map(|e| log_record(e, scrub, plan)).collect(),
        Observer::Auditor => run.audit.iter().map(audit_entry_record).collect(),
    }
}

/// What the provider records of one dispatch: tool, destination, arguments, size, labels.
fn provider_record(s: &Sent) -> Record {
    let args = serde_json::to_string(&s.args).unwrap_or_default();
    let size = size_of(s);
    let mut fields = s.labels.clone();
    fields.push(("<destination>".to_owned(), s.dest_label.clone()));
    Record {
        key: format!("{}\u{1f}{}\u{1f}{args}\u{1f}{size}", s.tool, s.destination),
        t_ms: s.t_ms,
        index: Some(s.index),
        text: Channels {
            arguments: leaves(&s.args).join(" "),
            destination: s.destination.clone(),
            tool: s.tool.clone(),
            other: String::new(),
        },
        fields,
    }
}

/// What the network sees of one dispatch: the host and the size.
fn network_record(s: &Sent) -> Record {
    let host = network_host(&s.tool, &s.destination);
    Record {
        key: format!("{host}\u{1f}{}", size_of(s)),
        t_ms: s.t_ms,
        index: Some(s.index),
        text: Channels {
            destination: host,
            ..Channels::default()
        },
        fields: Vec::new(),
    }
}

/// What a co-tenant infers from shared caches: tool and destination, time in 100 ms buckets.
fn co_tenant_record(s: &Sent) -> Record {
    Record {
        key: format!("{}\u{1f}{}", s.tool, s.destination),
        t_ms: s.t_ms / 100 * 100,
        index: Some(s.index),
        text: Channels {
            destination: s.destination.clone(),
            tool: s.tool.clone(),
            ..Channels::default()
        },
        fields: vec![("<destination>".to_owned(), s.dest_label.clone())],
    }
}

/// One runtime-log entry: tool, a 20-character argument summary (empty once scrubbed), decision tag, duration bucket.
fn log_record(e: &LogEntry, scrub: bool, plan: &[bool]) -> Record {
    let scrubbed = scrub && !plan.get(e.index).copied().unwrap_or(false);
    let sum = match (&e.args, scrubbed) {
        (Some(a), false) => summary(a),
        _ => String::new(),
    };
    let bucket = e.duration_ms / 100;
    Record {
        key: format!(
            "{}\u{1f}{sum}\u{1f}{}\u{1f}{bucket}",
            e.tool,
            e.tag.as_str()
        ),
        t_ms: e.t_ms,
        index: Some(e.index),
        text: Channels {
            arguments: sum,
            destination: String::new(),
            tool: e.tool.clone(),
            other: e.tag.as_str().to_owned(),
        },
        fields: Vec::new(),
    }
}

/// One audit record as the auditor reads it.
fn audit_entry_record(a: &AuditEntry) -> Record {
    let r = &a.record;
    let mut args = Vec::new();
    if let Some(t) = r.get("transformed") {
        args.extend(leaves(t));
    }
    if let Some(t) = r.get("raw_args") {
        args.extend(leaves(t));
    }
    let s = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let fields = r
        .get("labels")
        .and_then(Value::as_array)
        .map(|ls| {
            ls.iter()
                .filter_map(|l| {
                    Some((
                        l.get("field")?.as_str()?.to_owned(),
                        l.get("label")?.as_str()?.to_owned(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    Record {
        key: serde_json::to_string(r).unwrap_or_default(),
        t_ms: 0,
        index: a.index,
        text: Channels {
            arguments: args.join(" "),
            destination: s("destination"),
            tool: s("tool"),
            other: format!("{} {} {}", s("action"), s("arg_label"), s("dest_label")),
        },
        fields,
    }
}

/// Marginal exposure of one observer for one task.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Exposure {
    /// `O_i(S)`.
    pub issued: Vec<Record>,
    /// `O_i(C)`.
    pub committed: Vec<Record>,
    /// Indices into `issued` of the records in `Δ_i`.
    pub delta: Vec<usize>,
    /// Indices into `issued` matched in C but seen at another time (pre-commit disclosure).
    pub precommit: Vec<usize>,
}

impl Exposure {
    /// The records of `Δ_i`.
    pub fn delta_records(&self) -> impl Iterator<Item = &Record> {
        self.delta.iter().filter_map(|i| self.issued.get(*i))
    }
}

/// `Δ = issued \ committed` as a multiset difference on content keys.
#[must_use]
pub fn delta(issued: Vec<Record>, committed: Vec<Record>) -> Exposure {
    let mut left: HashMap<&str, Vec<u64>> = HashMap::new();
    for r in &committed {
        left.entry(r.key.as_str()).or_default().push(r.t_ms);
    }
    for v in left.values_mut() {
        v.reverse();
    }
    let mut d = Vec::new();
    let mut pre = Vec::new();
    for (i, r) in issued.iter().enumerate() {
        match left.get_mut(r.key.as_str()).and_then(Vec::pop) {
            Some(t) if t != r.t_ms => pre.push(i),
            Some(_) => {}
            None => d.push(i),
        }
    }
    Exposure {
        issued,
        committed,
        delta: d,
        precommit: pre,
    }
}

impl TaskTrace {
    /// Whether each candidate is in the committed plan.
    #[must_use]
    pub fn plan(&self) -> Vec<bool> {
        self.events.iter().map(|e| e.in_plan).collect()
    }

    /// `O_i(S)`, `O_i(C)` and `Δ_i` for one observer.
    #[must_use]
    pub fn exposure(&self, obs: Observer) -> Exposure {
        let plan = self.plan();
        delta(
            project(obs, &self.issued, self.scrub_after_commit, &plan),
            project(obs, &self.committed, false, &plan),
        )
    }

    /// External dispatches in S.
    #[must_use]
    pub fn calls(&self) -> usize {
        self.issued.sent.len()
    }

    /// Decisions at issue, by action.
    #[must_use]
    pub fn decisions(&self) -> BTreeMap<Act, usize> {
        let mut m = BTreeMap::new();
        for e in &self.events {
            *m.entry(e.decision).or_insert(0) += 1;
        }
        m
    }
}
