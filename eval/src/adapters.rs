//! Adapters from agent traces as they exist to a [`Frontier`].
//!
//! - **OpenAI chat** (one transcript per line): `{"task", "label"?,
//!   "messages": [...], "speculation"?: {call id: fields}, "committed"?}`.
//!   Candidates are the assistant messages' `tool_calls`, whose
//!   `function.arguments` is a JSON *string*, parsed here.
//! - **MCP** (one JSON-RPC message per line): every `tools/call` request is a
//!   candidate; the speculation fields travel in `params._meta` under
//!   `stpc/task`, `stpc/branch`, `stpc/mode`, `stpc/confidence`,
//!   `stpc/destination`, `stpc/t_ms`, `stpc/id`, `stpc/label`. A
//!   `notifications/stpc/commit` notification with `params: {task,
//!   branches?, candidates?, label?}` names the committed plan. Other
//!   messages (handshake, `tools/list`, responses) carry no call and are
//!   counted as such, not errors.
//! - **AgentDojo** (one run log per line): `{"suite_name", "user_task_id",
//!   "injection_task_id"?, "messages": [...]}` whose assistant messages hold
//!   `tool_calls: [{"function", "args", "id"}]` (AgentDojo's `FunctionCall`).
//!   The destination defaults to the suite name: AgentDojo's tools are
//!   simulated per suite.
//!
//! Sources without speculation fields yield committed calls unless a
//! `speculation` object (keyed by call id) gives `mode`, `branch`,
//! `confidence`, `destination`, `t_ms`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::frontier::{
    candidate, normalize, AdapterOptions, Commit, Frontier, FrontierError, Speculation, Task,
};

fn err(line: usize, m: impl Into<String>) -> FrontierError {
    FrontierError {
        line,
        message: m.into(),
    }
}

fn json_lines(text: &str) -> impl Iterator<Item = (usize, Result<Value, FrontierError>)> + '_ {
    text.lines().enumerate().filter_map(|(i, l)| {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') {
            return None;
        }
        Some((
            i + 1,
            serde_json::from_str(l).map_err(|e| {
                err(
                    i + 1,
                    format!(
                        "not valid JSON ({:?} error at column {})",
                        e.classify(),
                        e.column()
                    ),
                )
            }),
        ))
    })
}

fn str_field<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

fn speculation_map(line: usize, v: &Value) -> Result<BTreeMap<String, Speculation>, FrontierError> {
    match v.get("speculation") {
        None | Some(Value::Null) => Ok(BTreeMap::new()),
        Some(s) => serde_json::from_value(s.clone()).map_err(|_| {
            err(
                line,
                "`speculation` must map call ids to {mode, branch, confidence, destination, t_ms}",
            )
        }),
    }
}

fn commit_of(line: usize, v: &Value) -> Result<Commit, FrontierError> {
    match v.get("committed") {
        None | Some(Value::Null) => Ok(Commit::default()),
        Some(Value::Array(ids)) => Ok(Commit {
            branches: Vec::new(),
            candidates: ids
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        }),
        Some(c) => serde_json::from_value(c.clone()).map_err(|_| {
            err(
                line,
                "`committed` must be a list of call ids or {branches, candidates}",
            )
        }),
    }
}

fn finish(line: usize, mut task: Task, tasks: &mut Vec<Task>) -> Result<(), FrontierError> {
    normalize(&mut task).map_err(|m| err(line, m))?;
    if tasks.iter().any(|t| t.task == task.task) {
        return Err(err(line, format!("duplicate task id `{}`", task.task)));
    }
    tasks.push(task);
    Ok(())
}

/// OpenAI chat transcripts.
///
/// # Errors
///
/// The first bad line.
pub fn openai(text: &str, opts: &AdapterOptions) -> Result<Frontier, FrontierError> {
    let mut tasks = Vec::new();
    for (line, v) in json_lines(text) {
        let v = v?;
        let id = str_field(&v, "task")
            .or_else(|| str_field(&v, "id"))
            .ok_or_else(|| err(line, "transcript without `task` id"))?
            .to_owned();
        let spec = speculation_map(line, &v)?;
        let messages = v
            .get("messages")
            .and_then(Value::as_array)
            .ok_or_else(|| err(line, "`messages` must be an array"))?;
        let mut candidates = Vec::new();
        for (mi, m) in messages.iter().enumerate() {
            let Some(calls) = m.get("tool_calls").and_then(Value::as_array) else {
                continue;
            };
            for (ci, call) in calls.iter().enumerate() {
                let cid =
                    str_field(call, "id").map_or_else(|| format!("m{mi}c{ci}"), str::to_owned);
                let f = call
                    .get("function")
                    .ok_or_else(|| err(line, format!("tool call `{cid}` has no `function`")))?;
                let name = str_field(f, "name")
                    .ok_or_else(|| err(line, format!("tool call `{cid}` has no function name")))?;
                let args = match f.get("arguments") {
                    Some(Value::String(s)) if s.trim().is_empty() => Map::new(),
                    Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
                        Ok(Value::Object(m)) => m,
                        _ => {
                            return Err(err(
                                line,
                                format!(
                                    "tool call `{cid}`: `arguments` is not a JSON object string"
                                ),
                            ))
                        }
                    },
                    Some(Value::Object(m)) => m.clone(),
                    None => Map::new(),
                    Some(_) => {
                        return Err(err(
                            line,
                            format!("tool call `{cid}`: `arguments` must be a JSON string"),
                        ))
                    }
                };
                let s = spec.get(&cid).cloned().unwrap_or_default();
                candidates.push(
                    candidate(cid, name.to_owned(), args, s, opts).map_err(|m| err(line, m))?,
                );
            }
        }
        let task = Task {
            task: id,
            label: str_field(&v, "label").map(str::to_owned),
            group: str_field(&v, "group").map(str::to_owned),
            candidates,
            committed: commit_of(line, &v)?,
            commit_t_ms: v.get("commit_t_ms").and_then(Value::as_u64),
        };
        finish(line, task, &mut tasks)?;
    }
    Ok(Frontier { tasks })
}

/// AgentDojo run logs.
///
/// # Errors
///
/// The first bad line.
pub fn agentdojo(text: &str, opts: &AdapterOptions) -> Result<Frontier, FrontierError> {
    let mut tasks = Vec::new();
    for (line, v) in json_lines(text) {
        let v = v?;
        let suite =
            str_field(&v, "suite_name").ok_or_else(|| err(line, "run log without `suite_name`"))?;
        let user = str_field(&v, "user_task_id")
            .ok_or_else(|| err(line, "run log without `user_task_id`"))?;
        let mut id = format!("{suite}/{user}");
        if let Some(inj) = str_field(&v, "injection_task_id") {
            id.push('/');
            id.push_str(inj);
        }
        let spec = speculation_map(line, &v)?;
        let messages = v
            .get("messages")
            .and_then(Value::as_array)
            .ok_or_else(|| err(line, "`messages` must be an array"))?;
        let mut candidates = Vec::new();
        let mut n = 0usize;
        for m in messages {
            if str_field(m, "role") != Some("assistant") {
                continue;
            }
            let Some(calls) = m.get("tool_calls").and_then(Value::as_array) else {
                continue;
            };
            for call in calls {
                n += 1;
                let cid = str_field(call, "id").map_or_else(|| format!("call_{n}"), str::to_owned);
                let name = str_field(call, "function")
                    .ok_or_else(|| err(line, format!("function call `{cid}` has no `function`")))?;
                let args = match call.get("args") {
                    Some(Value::Object(m)) => m.clone(),
                    None | Some(Value::Null) => Map::new(),
                    Some(_) => {
                        return Err(err(
                            line,
                            format!("function call `{cid}`: `args` must be an object"),
                        ))
                    }
                };
                let mut s = spec.get(&cid).cloned().unwrap_or_default();
                if s.destination.is_none() && !opts.destinations.contains_key(name) {
                    s.destination = Some(suite.to_owned());
                }
                candidates.push(
                    candidate(cid, name.to_owned(), args, s, opts).map_err(|m| err(line, m))?,
                );
            }
        }
        let task = Task {
            task: id,
            label: str_field(&v, "label").map(str::to_owned),
            group: str_field(&v, "group").map(str::to_owned),
            candidates,
            committed: commit_of(line, &v)?,
            commit_t_ms: None,
        };
        finish(line, task, &mut tasks)?;
    }
    Ok(Frontier { tasks })
}

fn meta_str(meta: Option<&Map<String, Value>>, k: &str) -> Option<String> {
    meta.and_then(|m| m.get(k))
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// MCP JSON-RPC messages.
///
/// # Errors
///
/// The first bad line.
pub fn mcp(text: &str, opts: &AdapterOptions) -> Result<Frontier, FrontierError> {
    let mut order: Vec<String> = Vec::new();
    let mut by_task: BTreeMap<String, (usize, Task)> = BTreeMap::new();
    for (line, v) in json_lines(text) {
        let v = v?;
        if str_field(&v, "jsonrpc") != Some("2.0") {
            return Err(err(line, "not a JSON-RPC 2.0 message"));
        }
        let method = str_field(&v, "method");
        let params = v.get("params");
        match method {
            Some("tools/call") => {
                let p = params
                    .and_then(Value::as_object)
                    .ok_or_else(|| err(line, "`tools/call` without `params`"))?;
                let name = p
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| err(line, "`tools/call` without `params.name`"))?;
                let meta = p.get("_meta").and_then(Value::as_object);
                let task_id = meta_str(meta, "stpc/task").ok_or_else(|| {
                    err(line, "`tools/call` without `params._meta[\"stpc/task\"]`")
                })?;
                let args = match p.get("arguments") {
                    Some(Value::Object(m)) => m.clone(),
                    None => Map::new(),
                    Some(_) => return Err(err(line, "`params.arguments` must be an object")),
                };
                let rpc_id = match v.get("id") {
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(Value::Number(n)) => Some(n.to_string()),
                    _ => None,
                };
                let entry = by_task.entry(task_id.clone()).or_insert_with(|| {
                    order.push(task_id.clone());
                    (
                        line,
                        Task {
                            task: task_id.clone(),
                            label: None,
                            group: None,
                            candidates: Vec::new(),
                            committed: Commit::default(),
                            commit_t_ms: None,
                        },
                    )
                });
                let cid = meta_str(meta, "stpc/id")
                    .or(rpc_id)
                    .unwrap_or_else(|| format!("c{}", entry.1.candidates.len() + 1));
                let spec = Speculation {
                    mode: meta_str(meta, "stpc/mode"),
                    branch: meta_str(meta, "stpc/branch"),
                    confidence: meta
                        .and_then(|m| m.get("stpc/confidence"))
                        .and_then(Value::as_f64),
                    destination: meta_str(meta, "stpc/destination"),
                    t_ms: meta
                        .and_then(|m| m.get("stpc/t_ms"))
                        .and_then(Value::as_u64),
                };
                if let Some(l) = meta_str(meta, "stpc/label") {
                    entry.1.label = Some(l);
                }
                entry.0 = line;
                entry.1.candidates.push(
                    candidate(cid, name.to_owned(), args, spec, opts).map_err(|m| err(line, m))?,
                );
            }
            Some("notifications/stpc/commit") => {
                let p = params.ok_or_else(|| err(line, "commit notification without `params`"))?;
                let task_id = str_field(p, "task")
                    .ok_or_else(|| err(line, "commit notification without `params.task`"))?;
                let commit: Commit = serde_json::from_value(serde_json::json!({
                    "branches": p.get("branches").cloned().unwrap_or(Value::Array(Vec::new())),
                    "candidates": p.get("candidates").cloned().unwrap_or(Value::Array(Vec::new())),
                }))
                .map_err(|_| err(line, "`branches` and `candidates` must be lists of strings"))?;
                let entry = by_task.get_mut(task_id).ok_or_else(|| {
                    err(
                        line,
                        format!("commit for task `{task_id}` before any of its calls"),
                    )
                })?;
                entry.1.committed.branches.extend(commit.branches);
                entry.1.committed.candidates.extend(commit.candidates);
                if let Some(l) = str_field(p, "label") {
                    entry.1.label = Some(l.to_owned());
                }
                entry.1.commit_t_ms = p.get("t_ms").and_then(Value::as_u64);
                entry.0 = line;
            }
            // Handshake, listings, other notifications and responses carry
            // no tool call: they are part of a valid MCP log, not input lost.
            _ => {}
        }
    }
    let mut tasks = Vec::new();
    for id in order {
        if let Some((line, task)) = by_task.remove(&id) {
            finish(line, task, &mut tasks)?;
        }
    }
    Ok(Frontier { tasks })
}
