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
//!   Without `stpc/task` a call belongs to the task `session` (a log is one
//!   session), and without `stpc/mode` it is committed.
//! - **Provider API responses** (one per line, as an SDK logs them): OpenAI
//!   `chat.completion` objects (`choices[].message.tool_calls`), Responses
//!   API responses (`output[]` items of type `function_call`) or those
//!   items alone, and Anthropic messages (`content[]` blocks of type
//!   `tool_use`) or those blocks alone. Each response is one model turn;
//!   the turns of one task share `metadata.task` (both APIs carry request
//!   metadata), and a turn without it is a task of its own, named by its
//!   id.
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

/// Tasks built up over many lines (a log interleaves its tasks), in the
/// order they first appear; each remembers its last line for errors.
#[derive(Default)]
struct Tasks {
    order: Vec<String>,
    by_id: BTreeMap<String, (usize, Task)>,
}

impl Tasks {
    /// The task `id`, begun empty if it is new; `line` is its latest line.
    fn at(&mut self, id: &str, line: usize) -> &mut Task {
        let order = &mut self.order;
        let entry = self.by_id.entry(id.to_owned()).or_insert_with(|| {
            order.push(id.to_owned());
            (
                line,
                Task {
                    task: id.to_owned(),
                    label: None,
                    group: None,
                    candidates: Vec::new(),
                    committed: Commit::default(),
                    commit_t_ms: None,
                },
            )
        });
        entry.0 = line;
        &mut entry.1
    }

    /// The task `id` if it has begun.
    fn get(&mut self, id: &str, line: usize) -> Option<&mut Task> {
        self.by_id.get_mut(id).map(|e| {
            e.0 = line;
            &mut e.1
        })
    }

    fn finish(mut self) -> Result<Frontier, FrontierError> {
        let mut tasks = Vec::new();
        for id in self.order {
            if let Some((line, task)) = self.by_id.remove(&id) {
                finish(line, task, &mut tasks)?;
            }
        }
        Ok(Frontier { tasks })
    }
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
    let mut tasks = Tasks::default();
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
                // A log without stpc metadata is one session: one task.
                let task_id = meta_str(meta, "stpc/task").unwrap_or_else(|| "session".to_owned());
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
                let task = tasks.at(&task_id, line);
                let cid = meta_str(meta, "stpc/id")
                    .or(rpc_id)
                    .unwrap_or_else(|| format!("c{}", task.candidates.len() + 1));
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
                    task.label = Some(l);
                }
                task.candidates.push(
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
                let task = tasks.get(task_id, line).ok_or_else(|| {
                    err(
                        line,
                        format!("commit for task `{task_id}` before any of its calls"),
                    )
                })?;
                task.committed.branches.extend(commit.branches);
                task.committed.candidates.extend(commit.candidates);
                if let Some(l) = str_field(p, "label") {
                    task.label = Some(l.to_owned());
                }
                task.commit_t_ms = p.get("t_ms").and_then(Value::as_u64);
            }
            // Handshake, listings, other notifications and responses carry
            // no tool call: they are part of a valid MCP log, not input lost.
            _ => {}
        }
    }
    tasks.finish()
}

/// One tool call of a provider response: id, name, arguments.
type ApiCall = (String, String, Map<String, Value>);

/// Arguments given as an object, or as the JSON string OpenAI sends.
fn api_arguments(
    line: usize,
    id: &str,
    v: Option<&Value>,
) -> Result<Map<String, Value>, FrontierError> {
    match v {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(m)) => Ok(m.clone()),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(Map::new()),
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(m)) => Ok(m),
            _ => Err(err(
                line,
                format!("tool call `{id}`: `arguments` is not a JSON object string"),
            )),
        },
        Some(_) => Err(err(
            line,
            format!("tool call `{id}`: arguments must be an object"),
        )),
    }
}

/// The tool calls read from one line of provider responses.
struct ApiCalls {
    line: usize,
    out: Vec<ApiCall>,
}

impl ApiCalls {
    fn push(
        &mut self,
        id: Option<&str>,
        name: Option<&str>,
        args: Option<&Value>,
    ) -> Result<(), FrontierError> {
        let line = self.line;
        let id = id.map_or_else(
            || format!("line{line}c{}", self.out.len() + 1),
            str::to_owned,
        );
        let name = name.ok_or_else(|| err(line, format!("tool call `{id}` has no name")))?;
        let args = api_arguments(line, &id, args)?;
        self.out.push((id, name.to_owned(), args));
        Ok(())
    }

    /// A Responses-API output item or an Anthropic content block: a call
    /// if it is one (text and other items carry none).
    fn item(&mut self, i: &Value) -> Result<(), FrontierError> {
        match str_field(i, "type") {
            // Responses API: `call_id` is what the tool's result names.
            Some("function_call") => self.push(
                str_field(i, "call_id").or_else(|| str_field(i, "id")),
                str_field(i, "name"),
                i.get("arguments"),
            ),
            Some("tool_use") => self.push(str_field(i, "id"), str_field(i, "name"), i.get("input")),
            _ => Ok(()),
        }
    }
}

/// The tool calls of one response (or of one bare item or block), in order.
fn api_calls(line: usize, v: &Value) -> Result<Vec<ApiCall>, FrontierError> {
    let mut calls = ApiCalls {
        line,
        out: Vec::new(),
    };
    let items = |key: &str| v.get(key).and_then(Value::as_array).into_iter().flatten();
    if str_field(v, "object") == Some("chat.completion") {
        for choice in items("choices") {
            let tool_calls = choice
                .get("message")
                .and_then(|m| m.get("tool_calls"))
                .and_then(Value::as_array);
            for call in tool_calls.into_iter().flatten() {
                let f = call.get("function");
                calls.push(
                    str_field(call, "id"),
                    f.and_then(|f| str_field(f, "name")),
                    f.and_then(|f| f.get("arguments")),
                )?;
            }
        }
    } else if str_field(v, "object") == Some("response") {
        for i in items("output") {
            calls.item(i)?;
        }
    } else if str_field(v, "type") == Some("message") {
        for b in items("content") {
            calls.item(b)?;
        }
    } else if matches!(str_field(v, "type"), Some("function_call" | "tool_use")) {
        calls.item(v)?;
    } else {
        return Err(err(
            line,
            "not a provider response: expected an OpenAI `chat.completion` or `response` object, \
             a `function_call` item, an Anthropic `message` or a `tool_use` block",
        ));
    }
    Ok(calls.out)
}

/// Whether `v` is a provider API response (or one of its tool-call items).
pub(crate) fn is_api_response(v: &Value) -> bool {
    matches!(str_field(v, "object"), Some("chat.completion" | "response"))
        || matches!(
            str_field(v, "type"),
            Some("message" | "function_call" | "tool_use")
        )
}

/// Provider API responses as logged (see the module documentation).
///
/// # Errors
///
/// The first bad line.
pub fn api(text: &str, opts: &AdapterOptions) -> Result<Frontier, FrontierError> {
    let mut tasks = Tasks::default();
    for (line, v) in json_lines(text) {
        let v = v?;
        let calls = api_calls(line, &v)?;
        let task_id = v
            .get("metadata")
            .and_then(|m| str_field(m, "task"))
            .or_else(|| str_field(&v, "id"))
            .map_or_else(|| format!("line {line}"), str::to_owned);
        let task = tasks.at(&task_id, line);
        for (id, name, args) in calls {
            task.candidates.push(
                candidate(id, name, args, Speculation::default(), opts)
                    .map_err(|m| err(line, m))?,
            );
        }
    }
    tasks.finish()
}
