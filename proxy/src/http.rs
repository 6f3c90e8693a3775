//! The proxy on a streamable-HTTP listener (`stpc mcp-proxy --listen`).
//!
//! The SDK's HTTP server takes a [`ServerHandler`], one per session, while
//! the stdio proxy is a raw [`Service`] that sees every request whole.
//! [`HttpProxy`] is the adapter: each handler method rebuilds its request
//! (with the `_meta` the SDK took out of it) and hands it to the same
//! [`Proxy`], so both transports decide and forward with one code path.
//!
//! Sessions are the SDK's (protocol versions with the initialize handshake):
//! each session starts its own upstream with the client's initialize
//! parameters, and its tasks are its own. A request without a session (the
//! 2026-07-28 stateless mode) is refused: the proxy needs to know which
//! upstream and which tasks a call belongs to.

use std::sync::Arc;

#[allow(
    deprecated,
    reason = "logging/setLevel is deprecated, and still passed through for the servers that use it"
)]
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelledNotificationParam, ClientNotification,
    ClientRequest, CompleteRequestParams, CompleteResult, CustomNotification, CustomRequest,
    CustomResult, ErrorCode, ErrorData, Extensions, GetPromptRequestParams, GetPromptResponse,
    InitializeRequestParams, InitializeResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ReadResourceRequestParams, ReadResourceResponse, Request, RequestNoParam, RequestOptionalParam,
    ServerResult, SetLevelRequestParams, SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{RoleServer, ServerHandler, Service};

use crate::mcp::Proxy;

/// One session's proxy, as the SDK's HTTP server wants it.
pub struct HttpProxy(Proxy);

fn unexpected(what: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::INTERNAL_ERROR,
        format!("the upstream server answered {what} with another kind of result"),
        None,
    )
}

/// The request's `_meta` (progress token, `stpc/` keys), put back where
/// the SDK keeps it.
fn extensions(context: &RequestContext<RoleServer>) -> Extensions {
    let mut e = Extensions::default();
    e.insert(context.meta.clone());
    e
}

fn request<M: Default, P>(params: P, context: &RequestContext<RoleServer>) -> Request<M, P> {
    let mut r = Request::new(params);
    r.extensions = extensions(context);
    r
}

fn optional<M: Default, P>(
    params: Option<P>,
    context: &RequestContext<RoleServer>,
) -> RequestOptionalParam<M, P> {
    RequestOptionalParam {
        method: M::default(),
        params,
        extensions: extensions(context),
    }
}

fn no_param<M: Default>(context: &RequestContext<RoleServer>) -> RequestNoParam<M> {
    RequestNoParam {
        method: M::default(),
        extensions: extensions(context),
    }
}

/// Hand `request` to the session's proxy and take its result of kind
/// `$variant`.
macro_rules! through {
    ($self:ident, $context:ident, $request:expr, $variant:ident, $what:literal) => {
        match Service::<RoleServer>::handle_request(&$self.0, $request, $context).await? {
            ServerResult::$variant(r) => Ok(r),
            _ => Err(unexpected($what)),
        }
    };
}

impl ServerHandler for HttpProxy {
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let init = request_with(request, &context);
        through!(self, context, init, InitializeResult, "initialize")
    }

    async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        let r = ClientRequest::PingRequest(no_param(&context));
        Service::<RoleServer>::handle_request(&self.0, r, context)
            .await
            .map(|_| ())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let r = ClientRequest::CompleteRequest(self::request(request, &context));
        through!(self, context, r, CompleteResult, "completion/complete")
    }

    #[allow(deprecated, reason = "passed through for the servers that use it")]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let r = ClientRequest::SetLevelRequest(self::request(request, &context));
        Service::<RoleServer>::handle_request(&self.0, r, context)
            .await
            .map(|_| ())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let r = ClientRequest::GetPromptRequest(self::request(request, &context));
        match Service::<RoleServer>::handle_request(&self.0, r, context).await? {
            ServerResult::GetPromptResult(p) => Ok(GetPromptResponse::Complete(p)),
            ServerResult::InputRequiredResult(i) => Ok(GetPromptResponse::InputRequired(i)),
            _ => Err(unexpected("prompts/get")),
        }
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let r = ClientRequest::ListPromptsRequest(optional(request, &context));
        through!(self, context, r, ListPromptsResult, "prompts/list")
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let r = ClientRequest::ListResourcesRequest(optional(request, &context));
        through!(self, context, r, ListResourcesResult, "resources/list")
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let r = ClientRequest::ListResourceTemplatesRequest(optional(request, &context));
        through!(
            self,
            context,
            r,
            ListResourceTemplatesResult,
            "resources/templates/list"
        )
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let r = ClientRequest::ReadResourceRequest(self::request(request, &context));
        match Service::<RoleServer>::handle_request(&self.0, r, context).await? {
            ServerResult::ReadResourceResult(p) => Ok(ReadResourceResponse::Complete(p)),
            ServerResult::InputRequiredResult(i) => Ok(ReadResourceResponse::InputRequired(i)),
            _ => Err(unexpected("resources/read")),
        }
    }

    #[allow(deprecated, reason = "the sessions this proxy serves are legacy")]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let r = ClientRequest::SubscribeRequest(self::request(request, &context));
        Service::<RoleServer>::handle_request(&self.0, r, context)
            .await
            .map(|_| ())
    }

    #[allow(deprecated, reason = "the sessions this proxy serves are legacy")]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let r = ClientRequest::UnsubscribeRequest(self::request(request, &context));
        Service::<RoleServer>::handle_request(&self.0, r, context)
            .await
            .map(|_| ())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let r = ClientRequest::CallToolRequest(self::request(request, &context));
        match Service::<RoleServer>::handle_request(&self.0, r, context).await? {
            ServerResult::CallToolResult(c) => Ok(CallToolResponse::Complete(c)),
            ServerResult::InputRequiredResult(i) => Ok(CallToolResponse::InputRequired(i)),
            ServerResult::CreateTaskResult(t) => Ok(CallToolResponse::Task(t)),
            _ => Err(unexpected("tools/call")),
        }
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let r = ClientRequest::ListToolsRequest(optional(request, &context));
        through!(self, context, r, ListToolsResult, "tools/list")
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let r = ClientRequest::CustomRequest(request);
        through!(self, context, r, CustomResult, "a custom request")
    }

    async fn on_cancelled(
        &self,
        _notification: CancelledNotificationParam,
        _context: NotificationContext<RoleServer>,
    ) {
        // The SDK cancels the request's context, which the proxy passes on
        // upstream under the upstream request's id.
    }

    async fn on_progress(
        &self,
        notification: ProgressNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        let n =
            ClientNotification::ProgressNotification(rmcp::model::Notification::new(notification));
        let _ = Service::<RoleServer>::handle_notification(&self.0, n, context).await;
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let n = ClientNotification::InitializedNotification(rmcp::model::NotificationNoParam {
            method: Default::default(),
            extensions: Default::default(),
        });
        let _ = Service::<RoleServer>::handle_notification(&self.0, n, context).await;
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        let n =
            ClientNotification::RootsListChangedNotification(rmcp::model::NotificationNoParam {
                method: Default::default(),
                extensions: Default::default(),
            });
        let _ = Service::<RoleServer>::handle_notification(&self.0, n, context).await;
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleServer>,
    ) {
        let n = ClientNotification::CustomNotification(notification);
        let _ = Service::<RoleServer>::handle_notification(&self.0, n, context).await;
    }

    fn get_info(&self) -> InitializeResult {
        Service::<RoleServer>::get_info(&self.0)
    }
}

fn request_with(
    params: InitializeRequestParams,
    context: &RequestContext<RoleServer>,
) -> ClientRequest {
    ClientRequest::InitializeRequest(request(params, context))
}

/// Serve on `listener` (at `/mcp`) until interrupted, one [`Proxy`] per
/// session from `make` (given the session's number), to requests whose
/// `Host` is a loopback name or one of `allowed_hosts`.
///
/// # Errors
///
/// The listener failed.
pub async fn serve(
    listener: tokio::net::TcpListener,
    make: Arc<dyn Fn(u64) -> Proxy + Send + Sync>,
    allowed_hosts: &[String],
) -> std::io::Result<()> {
    let sessions = std::sync::atomic::AtomicU64::new(0);
    let mut config = StreamableHttpServerConfig::default();
    config.legacy_session_mode = true;
    // The SDK accepts loopback `Host`s only (against DNS rebinding); a
    // proxy served to other machines names its own.
    config.allowed_hosts.extend(allowed_hosts.iter().cloned());
    let service = StreamableHttpService::new(
        move || {
            let n = sessions.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(HttpProxy(make(n)))
        },
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
