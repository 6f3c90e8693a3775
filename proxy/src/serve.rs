//! `stpc serve`: a local HTTP decision sidecar, for agents that do not
//! speak MCP (Go, TypeScript, Java, shell). The same [`Gateway`] as the MCP
//! proxy decides, so the semantics are the proxy's: one monitor per task,
//! deferred calls held until their branch is promoted or abandoned, a call
//! on a branch already settled following it, audit records from the
//! runtime and nothing raw from speculative calls.
//!
//! The difference is who dispatches. The proxy sends a call upstream
//! itself; the sidecar tells its caller what to send (`dispatch`, with the
//! arguments, rewritten or not), what to answer instead (`answer`, a
//! substitute's result), that the call is held (`held`: its release comes in
//! the answer to the `promote` that settles its branch), or that it is
//! refused (`refused`, with the rule and reason, never the arguments).
//!
//! The JSON API is described by `proxy/serve.openapi.json` (served at
//! `GET /openapi.json`); the book's `stpc serve` chapter walks through it.
//!
//! The table is reloaded when its file changes ([`watch`]): the new table is
//! checked as at start-up (digest, signature, verification) and replaces the
//! old one in one step, or is refused and the old one stays. A task keeps
//! the table it began with until it ends, so its budgets and held calls are
//! never read against another table; every response names the digest of
//! the table that decided it.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use axum::body::Bytes;
use axum::extract::{Path, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Map, Value};
use stpc_runtime::event::EventInput;
use stpc_runtime::{Dispatched, Engine};
use tokio::sync::oneshot;

use crate::gateway::{Gateway, Verdict};
use crate::meta::Speculation;

/// The OpenAPI description of this API.
pub const OPENAPI: &str = include_str!("../serve.openapi.json");

/// Forwarded calls whose completion is not reported yet, kept at most (the
/// longest waiting is forgotten first: its `completed` record is then never
/// written, which loses nothing that decides).
const MAX_UNCOMPLETED: usize = 65_536;

/// Largest request body read (an event is far smaller).
pub const MAX_BODY: usize = 1 << 20;

/// How the table file is reloaded.
pub type Loader = dyn Fn() -> Result<Arc<Engine>, String> + Send + Sync;

/// The sidecar's state.
pub struct Sidecar {
    gateway: Arc<Gateway>,
    /// Held calls: (task, seq) → where their release arrives.
    held: Mutex<HashMap<(String, u64), oneshot::Receiver<Verdict>>>,
    /// Forwarded calls not completed yet, by (task, seq), and the order
    /// they were dispatched in.
    dispatched: Mutex<Pending>,
    table: Mutex<TableState>,
    allowed_hosts: Vec<String>,
}

/// A call by its task and sequence number.
type CallKey = (String, u64);

/// Dispatched calls waiting for `complete`, and their order.
type Pending = (HashMap<CallKey, Dispatched>, VecDeque<CallKey>);

#[derive(Default)]
struct TableState {
    reloads: u64,
    last_error: Option<String>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Each update is one statement; a panic elsewhere cannot leave one
    // half-done.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A JSON response.
fn reply(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// An error response: `{"error": {"code", "message"}}`. Messages never
/// carry a request's values (the event reader elides them).
fn failure(status: StatusCode, code: &str, message: &str) -> Response {
    reply(
        status,
        &json!({"error": {"code": code, "message": message}}),
    )
}

impl Sidecar {
    /// A sidecar deciding with `gateway`. `allowed_hosts` are the `Host`
    /// header values accepted besides the loopback names (a browser page
    /// on another origin cannot reach a loopback sidecar through DNS
    /// rebinding).
    #[must_use]
    pub fn new(gateway: Arc<Gateway>, allowed_hosts: Vec<String>) -> Arc<Sidecar> {
        Arc::new(Sidecar {
            gateway,
            held: Mutex::new(HashMap::new()),
            dispatched: Mutex::new((HashMap::new(), VecDeque::new())),
            table: Mutex::new(TableState::default()),
            allowed_hosts,
        })
    }

    /// The gateway.
    #[must_use]
    pub fn gateway(&self) -> &Arc<Gateway> {
        &self.gateway
    }

    /// The HTTP routes.
    pub fn router(self: &Arc<Sidecar>) -> Router {
        Router::new()
            .route(
                "/v1/health",
                get(|| async { reply(StatusCode::OK, &json!({"status": "ok"})) }),
            )
            .route("/v1/table", get(table))
            .route("/v1/decide", post(decide))
            .route("/v1/tasks/{task}/complete", post(complete))
            .route("/v1/tasks/{task}/promote", post(promote))
            .route("/v1/tasks/{task}/abandon", post(abandon))
            .route("/v1/tasks/{task}/end", post(end))
            .route(
                "/openapi.json",
                get(|| async {
                    ([(header::CONTENT_TYPE, "application/json")], OPENAPI).into_response()
                }),
            )
            .fallback(|| async { failure(StatusCode::NOT_FOUND, "not_found", "no such route") })
            .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
            .layer(axum::middleware::from_fn_with_state(
                Arc::clone(self),
                check_host,
            ))
            .with_state(Arc::clone(self))
    }

    /// Replace the table (see the module's documentation).
    pub fn reload(&self, engine: Arc<Engine>) {
        self.gateway.reload(engine);
        let mut t = lock(&self.table);
        t.reloads += 1;
        t.last_error = None;
    }

    /// Record a table that was refused on reload.
    pub fn refused(&self, error: String) {
        lock(&self.table).last_error = Some(error);
    }

    /// One verdict as the API's `Decision`.
    fn decision(&self, task: &str, seq: Option<u64>, verdict: Verdict) -> Value {
        let mut out = Map::new();
        out.insert("task".into(), json!(task));
        out.insert("table".into(), json!(self.gateway.digest_of(task)));
        let mut put = |decision: &Value| {
            for key in ["action", "rule", "reason"] {
                if let Some(v) = decision.get(key) {
                    out.insert(key.into(), v.clone());
                }
            }
        };
        match verdict {
            Verdict::Forward {
                arguments,
                task,
                dispatched,
                decision,
            } => {
                put(&decision);
                let call = dispatched.call();
                out.insert("outcome".into(), json!("dispatch"));
                out.insert("seq".into(), json!(dispatched.seq()));
                out.insert(
                    "destination".into(),
                    json!(call.declared_destination().unwrap_or(call.destination())),
                );
                out.insert("arguments".into(), Value::Object(arguments));
                let mut pending = lock(&self.dispatched);
                let (calls, order) = &mut *pending;
                let key = (task, dispatched.seq());
                order.push_back(key.clone());
                calls.insert(key, *dispatched);
                while calls.len() > MAX_UNCOMPLETED {
                    match order.pop_front() {
                        Some(oldest) => {
                            calls.remove(&oldest);
                        }
                        None => break,
                    }
                }
            }
            Verdict::Answer { result, decision } => {
                put(&decision);
                out.insert("outcome".into(), json!("answer"));
                if let Some(seq) = seq {
                    out.insert("seq".into(), json!(seq));
                }
                out.insert("result".into(), result);
            }
            Verdict::Hold(mut held) => {
                // A promotion between the decision and now may have settled
                // the call already; looking under the lock the settling
                // answer takes closes that window.
                let mut waiting = lock(&self.held);
                match held.resolution.try_recv() {
                    Ok(settled) => {
                        drop(waiting);
                        return self.decision(task, Some(held.seq), settled);
                    }
                    Err(oneshot::error::TryRecvError::Closed) => {
                        drop(waiting);
                        return self.decision(task, Some(held.seq), crate::gateway::dropped());
                    }
                    Err(oneshot::error::TryRecvError::Empty) => {}
                }
                put(&held.decision);
                out.insert("outcome".into(), json!("held"));
                out.insert("seq".into(), json!(held.seq));
                waiting.insert((task.to_owned(), held.seq), held.resolution);
            }
            Verdict::Refuse {
                code,
                message,
                data,
            } => {
                put(&data);
                out.insert("outcome".into(), json!("refused"));
                if let Some(seq) = seq {
                    out.insert("seq".into(), json!(seq));
                }
                out.insert("error".into(), json!({"code": code, "message": message}));
            }
        }
        Value::Object(out)
    }

    /// The held calls of `task` whose verdict has arrived (they leave the
    /// held set); those still held stay. A verdict that arrived after an
    /// earlier settling response was taken is in the next one.
    fn released(&self, task: &str) -> Vec<(u64, Verdict)> {
        let mut held = lock(&self.held);
        let mine: Vec<(String, u64)> = held.keys().filter(|(t, _)| t == task).cloned().collect();
        let mut out = Vec::new();
        for key in mine {
            let Some(rx) = held.get_mut(&key) else {
                continue;
            };
            match rx.try_recv() {
                Ok(v) => {
                    held.remove(&key);
                    out.push((key.1, v));
                }
                Err(oneshot::error::TryRecvError::Closed) => {
                    held.remove(&key);
                }
                Err(oneshot::error::TryRecvError::Empty) => {}
            }
        }
        out.sort_by_key(|(seq, _)| *seq);
        out
    }
}

async fn check_host(State(sidecar): State<Arc<Sidecar>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    // The name without its port (`[::1]:8787`, `localhost:8787`).
    let name = if host.starts_with('[') {
        host.split_once(']')
            .map_or(host, |(n, _)| n)
            .trim_start_matches('[')
    } else {
        host.rsplit_once(':').map_or(host, |(n, _)| n)
    };
    let loopback = matches!(name, "localhost" | "127.0.0.1" | "::1");
    if loopback || sidecar.allowed_hosts.iter().any(|h| h == name || h == host) {
        next.run(request).await
    } else {
        failure(
            StatusCode::FORBIDDEN,
            "forbidden_host",
            "this Host is not allowed (stpc serve --allow-host)",
        )
    }
}

async fn table(State(sidecar): State<Arc<Sidecar>>) -> Response {
    on_blocking(move || table_info(&sidecar)).await
}

fn table_info(sidecar: &Sidecar) -> Response {
    let engine = sidecar.gateway.engine();
    let t = engine.table();
    let (tasks, stale) = sidecar.gateway.tasks();
    let state = lock(&sidecar.table);
    reply(
        StatusCode::OK,
        &json!({
            "contract": t.contract,
            "digest": t.digest,
            "tasks": tasks,
            "tasks_on_older_tables": stale,
            "reloads": state.reloads,
            "last_reload_error": state.last_error,
        }),
    )
}

/// A body that cannot be read (`invalid_body`), with one line why.
struct InvalidBody(String);

impl IntoResponse for InvalidBody {
    fn into_response(self) -> Response {
        failure(StatusCode::BAD_REQUEST, "invalid_body", &self.0)
    }
}

/// A JSON object body.
fn object(body: &Bytes) -> Result<Map<String, Value>, InvalidBody> {
    let text =
        std::str::from_utf8(body).map_err(|_| InvalidBody("the body is not UTF-8".to_owned()))?;
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(InvalidBody("the body must be a JSON object".to_owned())),
        Err(e) => Err(InvalidBody(format!(
            "the body is not JSON (line {}, column {})",
            e.line(),
            e.column()
        ))),
    }
}

async fn decide(State(sidecar): State<Arc<Sidecar>>, body: Bytes) -> Response {
    let text = match std::str::from_utf8(&body) {
        Ok(t) => t,
        Err(_) => {
            return failure(
                StatusCode::BAD_REQUEST,
                "invalid_event",
                "the body is not UTF-8",
            )
        }
    };
    // The runtime's event reader: the format `stpc decide` reads, its
    // fail-closed rules (no mode or confidence is ever assumed), and error
    // messages that never repeat a value.
    let event = match EventInput::parse(text) {
        Ok(e) => e,
        Err(message) => return failure(StatusCode::BAD_REQUEST, "invalid_event", &message),
    };
    if event.labels.is_some() || !event.budgets_exhausted.is_empty() {
        return failure(
            StatusCode::BAD_REQUEST,
            "invalid_event",
            "`labels` and `budgets_exhausted` are for `stpc explain`; a monitor labels every call itself",
        );
    }
    let task = event.task.clone().unwrap_or_else(|| "default".to_owned());
    let arguments = match event.args {
        Value::Object(m) => m,
        _ => {
            return failure(
                StatusCode::BAD_REQUEST,
                "invalid_event",
                "`args` must be an object of named fields",
            )
        }
    };
    let spec = Speculation {
        task: task.clone(),
        branch: event.branch,
        mode: event.mode,
        confidence: event.confidence,
    };
    let (tool, destination, id) = (event.tool, event.destination, event.id);
    on_blocking(move || {
        let verdict = sidecar
            .gateway
            .call_to(&tool, &destination, Some(arguments), &spec);
        let mut out = sidecar.decision(&task, None, verdict);
        if let (Some(id), Value::Object(m)) = (id, &mut out) {
            m.insert("id".into(), id);
        }
        reply(StatusCode::OK, &out)
    })
    .await
}

/// The `branch` of a settling request.
fn branch(body: &Bytes) -> Result<String, InvalidBody> {
    let m = object(body)?;
    match m.get("branch") {
        Some(Value::String(b)) => Ok(b.clone()),
        _ => Err(InvalidBody(
            "the body must name its `branch` (a string)".to_owned(),
        )),
    }
}

async fn promote(
    State(sidecar): State<Arc<Sidecar>>,
    Path(task): Path<String>,
    body: Bytes,
) -> Response {
    settle_branch(sidecar, task, &body, Gateway::promote).await
}

async fn abandon(
    State(sidecar): State<Arc<Sidecar>>,
    Path(task): Path<String>,
    body: Bytes,
) -> Response {
    settle_branch(sidecar, task, &body, Gateway::abandon).await
}

/// Settle the body's branch of `task` with `settle` (promote or abandon)
/// and answer what that released and dropped.
async fn settle_branch(
    sidecar: Arc<Sidecar>,
    task: String,
    body: &Bytes,
    settle: fn(&Gateway, &str, &str) -> usize,
) -> Response {
    let branch = match branch(body) {
        Ok(b) => b,
        Err(r) => return r.into_response(),
    };
    on_blocking(move || {
        settle(&sidecar.gateway, &task, &branch);
        settled(&sidecar, &task)
    })
    .await
}

/// What settling `task` released: the held calls decided again
/// (`released`, as decisions) and those dropped (`dropped`, by `seq`).
fn settled(sidecar: &Sidecar, task: &str) -> Response {
    let mut released = Vec::new();
    let mut dropped = Vec::new();
    for (seq, verdict) in sidecar.released(task) {
        match &verdict {
            Verdict::Refuse { data, .. } if data.get("reason") == Some(&json!("abandoned")) => {
                dropped.push(seq)
            }
            _ => released.push(sidecar.decision(task, Some(seq), verdict)),
        }
    }
    reply(
        StatusCode::OK,
        &json!({"released": released, "dropped": dropped}),
    )
}

/// Runs `f` off the async workers (it takes the gateway's lock, which a
/// decision running a substitute may hold).
async fn on_blocking(f: impl FnOnce() -> Response + Send + 'static) -> Response {
    tokio::task::spawn_blocking(f).await.unwrap_or_else(|_| {
        failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the request failed",
        )
    })
}

async fn end(State(sidecar): State<Arc<Sidecar>>, Path(task): Path<String>) -> Response {
    on_blocking(move || {
        sidecar.gateway.end_task(&task);
        let out = settled(&sidecar, &task);
        let mut pending = lock(&sidecar.dispatched);
        let (calls, order) = &mut *pending;
        calls.retain(|(t, _), _| *t != task);
        order.retain(|(t, _)| *t != task);
        out
    })
    .await
}

async fn complete(
    State(sidecar): State<Arc<Sidecar>>,
    Path(task): Path<String>,
    body: Bytes,
) -> Response {
    let m = match object(&body) {
        Ok(m) => m,
        Err(r) => return r.into_response(),
    };
    let Some(seq) = m.get("seq").and_then(Value::as_u64) else {
        return failure(
            StatusCode::BAD_REQUEST,
            "invalid_body",
            "the body must give the `seq` of a dispatched call",
        );
    };
    on_blocking(move || {
        let found = lock(&sidecar.dispatched).0.remove(&(task.clone(), seq));
        let completed = found.is_some();
        if let Some(d) = found {
            sidecar.gateway.complete(&task, d);
        }
        reply(StatusCode::OK, &json!({"completed": completed}))
    })
    .await
}

/// Reload the table whenever one of `files` changes (the table, and its
/// signature when one is required; checked every `every`), until the
/// process ends. A table the loader refuses is reported on standard error
/// and in `GET /v1/table`, and the old one stays; a change of any file
/// tries again (a table replaced before its signature loads once both are).
pub async fn watch(
    sidecar: Arc<Sidecar>,
    files: Vec<PathBuf>,
    every: Duration,
    loader: Arc<Loader>,
) {
    fn stamp(files: &[PathBuf]) -> Option<Vec<(SystemTime, u64)>> {
        files
            .iter()
            .map(|path| {
                let m = std::fs::metadata(path).ok()?;
                Some((m.modified().ok()?, m.len()))
            })
            .collect()
    }
    let mut seen = stamp(&files);
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let now = stamp(&files);
        if now.is_none() || now == seen {
            // A table being replaced may be missing for a moment; the old
            // one decides meanwhile.
            continue;
        }
        seen = now;
        let load = Arc::clone(&loader);
        let loaded = tokio::task::spawn_blocking(move || load()).await;
        match loaded {
            Ok(Ok(engine)) => {
                if engine.table().digest == sidecar.gateway.engine().table().digest {
                    // Back to the table in use: nothing to reload, and no
                    // refusal stands.
                    lock(&sidecar.table).last_error = None;
                } else {
                    eprintln!(
                        "stpc serve: reloaded the table (digest {})",
                        engine.table().digest
                    );
                    sidecar.reload(engine);
                }
            }
            Ok(Err(message)) => {
                eprintln!("stpc serve: kept the previous table: {message}");
                sidecar.refused(message);
            }
            Err(_) => sidecar.refused("the reload failed".to_owned()),
        }
    }
}

/// Serve `sidecar` on `listener` until the process is interrupted (SIGINT
/// or SIGTERM), letting requests in flight finish.
///
/// # Errors
///
/// The listener failed.
pub async fn serve(
    listener: tokio::net::TcpListener,
    sidecar: &Arc<Sidecar>,
) -> std::io::Result<()> {
    axum::serve(listener, sidecar.router())
        .with_graceful_shutdown(async {
            let interrupt = tokio::signal::ctrl_c();
            #[cfg(unix)]
            {
                let mut term =
                    tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
                let terminated = async {
                    match term.as_mut() {
                        Some(t) => {
                            t.recv().await;
                        }
                        None => std::future::pending::<()>().await,
                    }
                };
                tokio::select! {
                    _ = interrupt => {}
                    () = terminated => {}
                }
            }
            #[cfg(not(unix))]
            {
                let _ = interrupt.await;
            }
        })
        .await
}
