//! The stdio MCP proxy on the official Rust SDK (`rmcp`): the client talks
//! to us as to its server; we talk to the real server as its client, and
//! pass every message through, except that each `tools/call` is decided by
//! the [`Gateway`] first and the `stpc/` notifications settle branches.
//!
//! The upstream is started when the client initializes, with the client's
//! own initialize parameters (so the server sees the client's name and
//! capabilities), and its initialize result is the client's. Requests the
//! server sends the client (sampling, roots, elicitation) and its
//! notifications are passed back the same way.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use rmcp::model::{
    CallToolRequest, CallToolResult, CancelledNotification, CancelledNotificationParam,
    ClientNotification, ClientRequest, ClientResult, ContentBlock, ErrorCode, ErrorData,
    InitializeRequestParams, InitializeResult, ProgressToken, RequestMetaObject,
    ServerNotification, ServerPeerInfo, ServerRequest, ServerResult,
};
use rmcp::service::{
    NotificationContext, PeerRequestOptions, RequestContext, RunningService, RxJsonRpcMessage,
    TxJsonRpcMessage,
};
use rmcp::transport::{IntoTransport, Transport};
use rmcp::{Peer, RoleClient, RoleServer, Service};
use serde_json::{Map, Value};
use std::sync::{Mutex, PoisonError};
use tokio::sync::OnceCell;

use crate::gateway::{Gateway, Verdict};
use crate::meta;

/// How to reach the upstream server.
#[derive(Clone, Debug)]
pub enum Upstream {
    /// A command (and its arguments) to start, spoken to on its stdio.
    Command(Vec<String>),
    /// A streamable-HTTP server's MCP endpoint (`http://…/mcp`).
    Http(String),
}

/// Options of the proxy.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Hide from `tools/list` the tools the contract does not declare (it
    /// never allows them: the verifier proves unknown tools fail closed).
    pub hide_undeclared: bool,
    /// The contract's name of a server tool, where they differ (MCP names
    /// such as `get-sum` are not identifiers): server name → contract name.
    /// A call is decided under the contract's name and forwarded under the
    /// server's.
    pub aliases: HashMap<String, String>,
}

impl Options {
    /// The contract's name of the server's tool `name`.
    #[must_use]
    pub fn contract_name<'a>(&'a self, name: &'a str) -> &'a str {
        self.aliases.get(name).map_or(name, String::as_str)
    }
}

/// The client-facing side.
pub struct Proxy {
    gateway: Arc<Gateway>,
    upstream: Upstream,
    options: Options,
    session_task: String,
    /// Put before every task name (empty on stdio, where the session is
    /// the process).
    task_prefix: String,
    server: OnceCell<RunningService<RoleClient, ToClient>>,
    progress: Progress,
}

/// The progress tokens of requests in flight upstream, each with the
/// client's own: the SDK gives every request it sends a token of its own,
/// so the server's progress notifications name the proxy's token and are
/// passed back under the client's.
type Progress = Arc<Mutex<HashMap<ProgressToken, ProgressToken>>>;

/// The server-facing side: what the server sends is passed to the client.
pub struct ToClient {
    info: InitializeRequestParams,
    client: Peer<RoleServer>,
}

fn error(code: i32, message: impl Into<String>, data: Option<Value>) -> ErrorData {
    ErrorData {
        code: ErrorCode(code),
        message: message.into().into(),
        data,
    }
}

fn upstream_error(e: &rmcp::ServiceError) -> ErrorData {
    match e {
        rmcp::ServiceError::McpError(e) => e.clone(),
        other => error(
            ErrorCode::INTERNAL_ERROR.0,
            format!("the upstream server failed: {other}"),
            None,
        ),
    }
}

impl Proxy {
    /// A proxy in front of `upstream`, deciding with `gateway`.
    #[must_use]
    pub fn new(gateway: Arc<Gateway>, upstream: Upstream, options: Options) -> Proxy {
        Proxy {
            gateway,
            upstream,
            options,
            session_task: "session".to_owned(),
            task_prefix: String::new(),
            server: OnceCell::new(),
            progress: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// A proxy for one session among several (the HTTP listener's): its
    /// tasks are its own, even where another session names a task alike.
    #[must_use]
    pub fn for_session(mut self, session: &str) -> Proxy {
        self.task_prefix = format!("{session}/");
        self
    }

    /// The gateway's name of the session's task `task`.
    fn task(&self, task: &str) -> String {
        format!("{}{task}", self.task_prefix)
    }

    async fn start(
        &self,
        info: InitializeRequestParams,
        client: Peer<RoleServer>,
    ) -> Result<&RunningService<RoleClient, ToClient>, ErrorData> {
        self.server
            .get_or_try_init(|| async {
                let to_client = ToClient {
                    info,
                    client: client.clone(),
                };
                let progress = Arc::clone(&self.progress);
                let did_not_initialize = |e: rmcp::service::ClientInitializeError| {
                    error(
                        ErrorCode::INTERNAL_ERROR.0,
                        format!("the upstream server did not initialize: {e}"),
                        None,
                    )
                };
                match &self.upstream {
                    Upstream::Command(command) => {
                        let Some((program, args)) = command.split_first() else {
                            return Err(error(
                                ErrorCode::INTERNAL_ERROR.0,
                                "no upstream command",
                                None,
                            ));
                        };
                        let mut cmd = tokio::process::Command::new(program);
                        cmd.args(args);
                        let transport =
                            rmcp::transport::TokioChildProcess::new(cmd).map_err(|e| {
                                error(
                                    ErrorCode::INTERNAL_ERROR.0,
                                    format!("cannot start the upstream server: {e}"),
                                    None,
                                )
                            })?;
                        let transport = in_order(transport, client, progress);
                        rmcp::serve_client(to_client, transport)
                            .await
                            .map_err(did_not_initialize)
                    }
                    Upstream::Http(url) => {
                        // TLS through ring (see Cargo.toml); installing it
                        // twice is not an error.
                        let _ = rustls::crypto::ring::default_provider().install_default();
                        let transport =
                            rmcp::transport::StreamableHttpClientTransport::from_uri(url.as_str());
                        let transport = in_order(transport, client, progress);
                        rmcp::serve_client(to_client, transport)
                            .await
                            .map_err(did_not_initialize)
                    }
                }
            })
            .await
    }

    fn server(&self) -> Result<&Peer<RoleClient>, ErrorData> {
        self.server.get().map(RunningService::peer).ok_or_else(|| {
            error(
                ErrorCode::INVALID_REQUEST.0,
                "the session is not initialized",
                None,
            )
        })
    }

    /// Send `request` upstream for the client's request `context`: the
    /// client's progress token is mapped, and the client's cancellation is
    /// passed on as the cancellation of the upstream request (request ids
    /// differ on the two sides, so the client's own notification is not).
    async fn forward(
        &self,
        request: ClientRequest,
        context: &RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        let server = self.server()?;
        if context.ct.is_cancelled() {
            return Err(error(
                ErrorCode::INTERNAL_ERROR.0,
                "the request was cancelled",
                None,
            ));
        }
        let client_token = context.meta.get_progress_token();
        let handle = server
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
            .map_err(|e| upstream_error(&e))?;
        let ours = handle.progress_token.clone();
        let id = handle.id.clone();
        if let Some(theirs) = client_token {
            lock(&self.progress).insert(ours.clone(), theirs);
        }
        let out = tokio::select! {
            r = handle.await_response() => r.map_err(|e| upstream_error(&e)),
            () = context.ct.cancelled() => {
                let cancel = CancelledNotification::new(CancelledNotificationParam::new(
                    Some(id),
                    Some("the client cancelled the request".to_owned()),
                ));
                let _ = server
                    .send_notification(ClientNotification::CancelledNotification(cancel))
                    .await;
                Err(error(ErrorCode::INTERNAL_ERROR.0, "the request was cancelled", None))
            }
        };
        lock(&self.progress).remove(&ours);
        out
    }

    async fn call_tool(
        &self,
        request: CallToolRequest,
        context: &RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        // Nothing is decided for a session without an upstream (a request
        // that skipped the initialize handshake): it could not be sent, and
        // its budgets and audit would be charged for nothing.
        self.server()?;
        let context_meta = &context.meta;
        let params = &request.params;
        // rmcp moves `params._meta` into the request's extensions (the
        // context's `meta`); a copy left in the params is read too.
        let mut meta: Map<String, Value> = context_meta.0 .0.clone();
        if let Some(m) = &params.meta {
            for (k, v) in &m.0 .0 {
                meta.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        let meta = Some(meta);
        let mut spec = meta::speculation(meta.as_ref(), &self.session_task)
            .map_err(|e| error(crate::gateway::INVALID, e, None))?;
        spec.task = self.task(&spec.task);
        let gateway = Arc::clone(&self.gateway);
        let tool = self.options.contract_name(&params.name).to_owned();
        let arguments = params.arguments.clone();
        let mut verdict =
            tokio::task::spawn_blocking(move || gateway.call(&tool, arguments, &spec))
                .await
                .map_err(|_| error(ErrorCode::INTERNAL_ERROR.0, "the decision failed", None))?;
        loop {
            match verdict {
                Verdict::Hold(held) => {
                    // A client that cancels a held call is answered now; its
                    // release, if it comes, is dropped (never sent).
                    let resolution = tokio::select! {
                        r = held.resolution => r,
                        () = context.ct.cancelled() => {
                            return Err(error(
                                ErrorCode::INTERNAL_ERROR.0,
                                "the request was cancelled",
                                None,
                            ));
                        }
                    };
                    verdict = resolution.unwrap_or_else(|_| Verdict::Refuse {
                        code: crate::gateway::ABANDONED,
                        message: "stpc dropped this deferred call".to_owned(),
                        data: serde_json::json!({"action": "defer", "reason": "abandoned"}),
                    });
                }
                Verdict::Refuse {
                    code,
                    message,
                    data,
                } => return Err(error(code, message, Some(data))),
                Verdict::Answer { result, .. } => {
                    let text = match &result {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
                    // Structured content is an object by the protocol; a
                    // substitute's string or list is the text alone.
                    if result.is_object() {
                        r.structured_content = Some(result);
                    }
                    return Ok(ServerResult::CallToolResult(r));
                }
                Verdict::Forward {
                    arguments,
                    task,
                    dispatched,
                    ..
                } => {
                    let mut forwarded = request.clone();
                    forwarded.params.arguments = Some(arguments.into_iter().collect());
                    // The server never sees the speculation keys.
                    if let Some(m) = forwarded.params.meta.as_mut() {
                        m.0 .0.retain(|k, _| !k.starts_with("stpc/"));
                    }
                    if let Some(m) = forwarded.extensions.get_mut::<RequestMetaObject>() {
                        m.0 .0.retain(|k, _| !k.starts_with("stpc/"));
                    }
                    let out = self
                        .forward(ClientRequest::CallToolRequest(forwarded), context)
                        .await;
                    let gateway = Arc::clone(&self.gateway);
                    // Off the async workers: the gateway's lock may be held
                    // by a decision running a substitute.
                    let _ = tokio::task::spawn_blocking(move || {
                        gateway.complete(&task, *dispatched);
                    })
                    .await;
                    return out;
                }
            }
        }
    }

    async fn list_tools(
        &self,
        request: ClientRequest,
        context: &RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        let out = self.forward(request, context).await?;
        match out {
            ServerResult::ListToolsResult(mut list) if self.options.hide_undeclared => {
                let engine = self.gateway.engine();
                let declared = &engine.table().tools;
                list.tools.retain(|t| {
                    let name = self.options.contract_name(&t.name);
                    declared.iter().any(|d| d.name == name)
                });
                Ok(ServerResult::ListToolsResult(list))
            }
            other => Ok(other),
        }
    }

    async fn settle(&self, method: &str, params: Option<&Value>) {
        let needs_branch = method != meta::END_TASK;
        let Ok((task, branch)) = meta::settle(params, &self.session_task, needs_branch) else {
            // A malformed notification cannot be answered; it settles nothing.
            return;
        };
        let task = self.task(&task);
        let gateway = Arc::clone(&self.gateway);
        let method = method.to_owned();
        // Off the async workers: a promotion decides again, and a decision
        // may run a substitute (which may itself need the runtime).
        let _ = tokio::task::spawn_blocking(move || match method.as_str() {
            meta::PROMOTE => {
                gateway.promote(&task, &branch);
            }
            meta::ABANDON => {
                gateway.abandon(&task, &branch);
            }
            _ => {
                gateway.end_task(&task);
            }
        })
        .await;
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        // A session of the HTTP listener ends: its tasks end with it (their
        // held calls are dropped, never sent).
        if !self.task_prefix.is_empty() {
            let gateway = Arc::clone(&self.gateway);
            let prefix = std::mem::take(&mut self.task_prefix);
            match tokio::runtime::Handle::try_current() {
                Ok(handle) => {
                    handle.spawn_blocking(move || gateway.end_tasks_under(&prefix));
                }
                Err(_) => {
                    gateway.end_tasks_under(&prefix);
                }
            }
        }
    }
}

impl Service<RoleServer> for Proxy {
    async fn handle_request(
        &self,
        request: ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        match request {
            ClientRequest::InitializeRequest(init) => {
                let running = self
                    .start(init.params.clone(), context.peer.clone())
                    .await?;
                let info = running.peer().peer_info().ok_or_else(|| {
                    error(
                        ErrorCode::INTERNAL_ERROR.0,
                        "the upstream server sent no initialize result",
                        None,
                    )
                })?;
                Ok(ServerResult::InitializeResult(initialize_result(&info)))
            }
            ClientRequest::CallToolRequest(call) => self.call_tool(call, &context).await,
            r @ ClientRequest::ListToolsRequest(_) => self.list_tools(r, &context).await,
            other => self.forward(other, &context).await,
        }
    }

    async fn handle_notification(
        &self,
        notification: ClientNotification,
        _context: NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if let ClientNotification::CustomNotification(n) = &notification {
            if n.method.starts_with("notifications/stpc/") {
                let gateway_side = [meta::PROMOTE, meta::ABANDON, meta::END_TASK];
                if gateway_side.contains(&n.method.as_str()) {
                    self.settle(&n.method, n.params.as_ref()).await;
                }
                // `stpc/` notifications are the gateway's; never forwarded.
                return Ok(());
            }
        }
        if matches!(notification, ClientNotification::CancelledNotification(_)) {
            // Passed on by `forward`, with the upstream request's id.
            return Ok(());
        }
        if let Ok(server) = self.server() {
            // A notification cannot be answered: a failure to pass it on
            // is dropped, as the server going away ends the session anyway.
            let _ = server.send_notification(notification).await;
        }
        Ok(())
    }

    fn get_info(&self) -> InitializeResult {
        self.server
            .get()
            .and_then(|s| s.peer().peer_info())
            .map_or_else(
                || InitializeResult::new(rmcp::model::ServerCapabilities::default()),
                |i| initialize_result(&i),
            )
    }
}

impl Service<RoleClient> for ToClient {
    async fn handle_request(
        &self,
        request: ServerRequest,
        _context: RequestContext<RoleClient>,
    ) -> Result<ClientResult, ErrorData> {
        self.client
            .send_request(request)
            .await
            .map_err(|e| upstream_error(&e))
    }

    async fn handle_notification(
        &self,
        notification: ServerNotification,
        _context: NotificationContext<RoleClient>,
    ) -> Result<(), ErrorData> {
        // Progress never gets here: `InOrder` passed it on as it arrived.
        if matches!(notification, ServerNotification::ProgressNotification(_)) {
            return Ok(());
        }
        let _ = self.client.send_notification(notification).await;
        Ok(())
    }

    fn get_info(&self) -> InitializeRequestParams {
        self.info.clone()
    }
}

/// The upstream transport, with the server's progress notifications passed
/// to the client as they are read, in the order the server sent them.
///
/// The SDK runs each notification handler on a task of its own, so a
/// handler can run after the response that followed its notification: the
/// client would get the last progress after the result (or, its token
/// mapping removed with the response, not at all). Passing progress on here,
/// before the next message is read, keeps the server's order: a progress
/// notification reaches the client before the response that followed it.
struct InOrder<T> {
    inner: T,
    client: Peer<RoleServer>,
    progress: Progress,
}

/// `transport`, keeping the server's progress in order (see [`InOrder`]).
fn in_order<E, A>(
    transport: impl IntoTransport<RoleClient, E, A> + 'static,
    client: Peer<RoleServer>,
    progress: Progress,
) -> InOrder<impl Transport<RoleClient, Error = E> + 'static>
where
    E: std::error::Error + Send + Sync + 'static,
{
    InOrder {
        inner: transport.into_transport(),
        client,
        progress,
    }
}

impl<T> Transport<RoleClient> for InOrder<T>
where
    T: Transport<RoleClient>,
{
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            let message = self.inner.receive().await?;
            let rmcp::model::JsonRpcMessage::Notification(n) = &message else {
                return Some(message);
            };
            let ServerNotification::ProgressNotification(p) = &n.notification else {
                return Some(message);
            };
            // The SDK puts a token on every request it sends; progress for
            // a request whose client asked for none is not passed on.
            let theirs = lock(&self.progress).get(&p.params.progress_token).cloned();
            if let Some(theirs) = theirs {
                let mut p = p.clone();
                p.params.progress_token = theirs;
                // Awaited: sent to the client before the next message is read.
                let _ = self
                    .client
                    .send_notification(ServerNotification::ProgressNotification(p))
                    .await;
            }
        }
    }

    fn close(&mut self) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // One insert or remove per request: never left half-done.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The upstream's initialize result, as the client receives it.
fn initialize_result(info: &ServerPeerInfo) -> InitializeResult {
    let mut r = InitializeResult::new(info.capabilities.clone())
        .with_protocol_version(info.protocol_version.clone());
    if let Some(server) = &info.server_info {
        r = r.with_server_info(server.clone());
    }
    r.instructions.clone_from(&info.instructions);
    r.meta.clone_from(&info.meta);
    r
}

/// Serve the proxy on this process's standard input and output until the
/// client goes away.
///
/// # Errors
///
/// The client did not initialize.
pub async fn serve_stdio(proxy: Proxy) -> Result<(), String> {
    let running = rmcp::serve_server(proxy, rmcp::transport::stdio())
        .await
        .map_err(|e| format!("the client did not initialize: {e}"))?;
    let _ = running.waiting().await;
    Ok(())
}

/// How long a local MCP substitute may take to start.
const SUBSTITUTE_START: std::time::Duration = std::time::Duration::from_secs(10);
/// How long it may take to answer one call (decisions of other calls wait
/// meanwhile).
const SUBSTITUTE_CALL: std::time::Duration = std::time::Duration::from_secs(30);

/// One call for a local MCP substitute's thread, and where its answer goes.
type SubstituteCall = (
    rmcp::model::CallToolRequestParams,
    std::sync::mpsc::Sender<Option<Value>>,
);

/// A substitute answered by a local MCP server: `command` (run with
/// `sh -c`) is started on the first SHADOWed call and kept; each call is
/// sent to it as a `tools/call` of the same tool (under the server's name
/// where `aliases` maps the contract's, server name → contract name) with
/// the same arguments (it runs on this machine: the arguments reach no
/// provider). Its structured result is the answer, or its text when it has
/// none; a server that cannot start, answers an error or takes longer than
/// [`SUBSTITUTE_CALL`] fails the substitute (closed).
///
/// The server is driven by a runtime of its own on a thread of its own: a
/// substitute runs inside a decision, which may be on any thread, and it
/// must neither start a runtime inside the proxy's nor wait for the
/// proxy's workers.
#[must_use]
pub fn mcp_substitute(
    command: String,
    aliases: &HashMap<String, String>,
) -> crate::gateway::Substitute {
    let server_name: HashMap<String, String> = aliases
        .iter()
        .map(|(server, contract)| (contract.clone(), server.clone()))
        .collect();
    let calls: Arc<OnceLock<Option<tokio::sync::mpsc::UnboundedSender<SubstituteCall>>>> =
        Arc::new(OnceLock::new());
    Arc::new(move |call: &stpc_runtime::ToolCall| {
        let sender = calls.get_or_init(|| start_substitute(command.clone()));
        let tool = server_name
            .get(call.tool())
            .cloned()
            .unwrap_or_else(|| call.tool().to_owned());
        let mut params = rmcp::model::CallToolRequestParams::new(tool);
        params.arguments = call.args().as_object().cloned();
        let (reply, answer) = std::sync::mpsc::channel();
        sender.as_ref()?.send((params, reply)).ok()?;
        answer.recv_timeout(SUBSTITUTE_CALL).ok().flatten()
    })
}

/// Starts a local MCP server on a thread with its own runtime; `None` when
/// it does not start and initialize in time.
fn start_substitute(command: String) -> Option<tokio::sync::mpsc::UnboundedSender<SubstituteCall>> {
    let (calls, mut inbox) = tokio::sync::mpsc::unbounded_channel::<SubstituteCall>();
    let (ready, started) = std::sync::mpsc::channel::<bool>();
    std::thread::Builder::new()
        .name("stpc-substitute".to_owned())
        .spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                let _ = ready.send(false);
                return;
            };
            runtime.block_on(async move {
                let mut cmd = tokio::process::Command::new("sh");
                cmd.arg("-c").arg(&command);
                let Ok(transport) = rmcp::transport::TokioChildProcess::new(cmd) else {
                    let _ = ready.send(false);
                    return;
                };
                // A server that exits before initializing is not always
                // noticed by the transport: the start is bounded.
                let running =
                    tokio::time::timeout(SUBSTITUTE_START, rmcp::serve_client((), transport)).await;
                let Ok(Ok(running)) = running else {
                    let _ = ready.send(false);
                    return;
                };
                let _ = ready.send(true);
                let peer = running.peer().clone();
                // One call at a time, in order; the thread ends when the
                // proxy drops the substitute.
                while let Some((params, reply)) = inbox.recv().await {
                    let result =
                        tokio::time::timeout(SUBSTITUTE_CALL, peer.call_tool(params)).await;
                    let _ = reply.send(match result {
                        Ok(Ok(r)) => answer_of(r),
                        _ => None,
                    });
                }
                drop(running);
            });
        })
        .ok()?;
    started
        .recv_timeout(SUBSTITUTE_START + std::time::Duration::from_secs(1))
        .ok()
        .filter(|ok| *ok)
        .map(|_| calls)
}

/// A local server's result as a substitute's answer.
fn answer_of(result: CallToolResult) -> Option<Value> {
    if result.is_error == Some(true) {
        return None;
    }
    if let Some(structured) = result.structured_content {
        return Some(structured);
    }
    let text: String = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect();
    Some(Value::String(text))
}
