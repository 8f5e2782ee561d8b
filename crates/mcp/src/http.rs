//! The same server over Streamable HTTP (`x402-verdict mcp --listen ADDR`)
//! at `/mcp`, with `GET /healthz`, served by rmcp's own transport:
//! [`bind`], then [`Bound::serve`].
//!
//! - Stateless in every revision: no `Mcp-Session-Id` is issued, each POST
//!   is served on its own, `GET` and `DELETE /mcp` are 405 (no stream is
//!   offered: the tools send nothing unasked). Answers are
//!   `application/json`; closing the connection cancels the request.
//! - DNS rebinding (rmcp's checks): the `Host` must be a loopback name or
//!   one in [`HttpOptions::allowed_hosts`], and an `Origin`, when sent, must be a
//!   loopback origin or one in [`HttpOptions::allowed_origins`]; otherwise 403.
//! - Bounded: a body over 4 MiB is 413, connections (hence requests, one at
//!   a time on each HTTP/1.1 connection) are capped, and a client slow to
//!   send its request head is closed (the service's connection limits).
//! - rmcp checks the MCP headers of each revision (`MCP-Protocol-Version`;
//!   `Mcp-Method` and `Mcp-Name` against the body in 2026-07-28). What it
//!   does not do is a batch: a POST whose body is a JSON array, in a
//!   2025-03-26 request (that header, or none, which the specification
//!   reads as 2025-03-26), is split here, each message served by rmcp under
//!   the same headers, and the answers returned as one array.
//! - A POST rmcp (or the body limit) refuses in plain text is refused with
//!   the same status and a JSON-RPC error.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use futures_util::stream::{self, StreamExt};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::Value;

use super::framing::{self, Refusal, MAX_LINE_BYTES};
use super::{McpConfig, McpError, VerdictServer, BATCH_REVISION};
use x402_verdict_http::connections::{self, BodyError, ConnectionLimits, Limits};
use x402_verdict_http::host;

/// The largest request body, as the longest line on stdio.
const MAX_BODY_BYTES: u64 = MAX_LINE_BYTES;

/// How many messages of one batch are served at once.
const BATCH_CONCURRENCY: usize = 8;

/// The origins a browser page on this machine sends.
const LOOPBACK_ORIGINS: [&str; 3] = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

type Mcp = StreamableHttpService<VerdictServer, NeverSessionManager>;

/// Where and how the HTTP server listens.
pub struct HttpOptions {
    /// The address to bind.
    pub listen: SocketAddr,
    /// More `Host` values to answer, besides the loopback names.
    pub allowed_hosts: Vec<String>,
    /// More browser origins to accept, besides the loopback origins.
    pub allowed_origins: Vec<String>,
    /// The connection limits.
    pub connections: ConnectionLimits,
}

/// The routes: `/mcp` and `/healthz`.
fn router(server: VerdictServer, options: &HttpOptions) -> Router {
    let hosts = ["localhost", "127.0.0.1", "::1"]
        .into_iter()
        .map(str::to_owned)
        .chain(options.allowed_hosts.iter().cloned());
    let origins = LOOPBACK_ORIGINS
        .into_iter()
        .map(str::to_owned)
        .chain(options.allowed_origins.iter().cloned());
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
        .enforce_origin_validation()
        .with_max_request_body_bytes(MAX_BODY_BYTES as usize);
    let mcp = Mcp::new(
        move || Ok(server.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    Router::new()
        .route("/mcp", any(endpoint))
        .route("/healthz", get(|| async { "ok\n" }))
        .with_state(Arc::new(mcp))
        .layer(axum::middleware::from_fn(host::check_required))
        .layer(axum::middleware::from_fn(json_rpc_refusals))
}

/// The server bound to its address: [`Bound::serve`] serves it.
pub struct Bound {
    listener: tokio::net::TcpListener,
    addr: SocketAddr,
    app: Router,
    limits: Limits,
}

/// Checks the allowed hosts, makes the server (as [`VerdictServer::new`])
/// and binds `options.listen`: nothing is served yet. A listener beyond
/// this machine is warned about (no authentication).
///
/// # Errors
///
/// An allowed host that is no host with an optional port, an HTTP client
/// that cannot start, an address that cannot be bound.
pub async fn bind(config: McpConfig, options: HttpOptions) -> Result<Bound, McpError> {
    for allowed in &options.allowed_hosts {
        host::parse(allowed).map_err(McpError::AllowHost)?;
    }
    let server = VerdictServer::new(config)?;
    let listen = options.listen;
    let listen_error = |source| McpError::Listen {
        addr: listen,
        source,
    };
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(listen_error)?;
    let addr = listener.local_addr().map_err(listen_error)?;
    if !addr.ip().is_loopback() {
        tracing::warn!(%addr, "the MCP endpoint listens beyond this machine and has no authentication: put it behind a reverse proxy with TLS");
    }
    let app = router(server, &options);
    Ok(Bound {
        listener,
        addr,
        app,
        limits: options.connections.with_max_body(MAX_BODY_BYTES),
    })
}

impl Bound {
    /// The address it listens on (the port picked, when port 0 was asked);
    /// the endpoint is `/mcp` below it.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves until `shutdown` resolves (such as
    /// [`x402_verdict_http::shutdown_signal`]: Ctrl-C or SIGTERM).
    pub async fn serve(self, shutdown: impl std::future::Future<Output = ()>) {
        connections::serve(self.listener, self.app, self.limits, shutdown).await;
    }
}

/// `/mcp`: a 2025-03-26 batch is split here; everything else is rmcp's.
async fn endpoint(State(mcp): State<Arc<Mcp>>, request: Request) -> Response {
    if request.method() != Method::POST {
        return mcp.handle(request).await.into_response();
    }
    post(&mcp, request).await
}

/// Middleware: a POST to `/mcp` refused in plain text (by rmcp, the body
/// limits or the `Host` check) is refused in JSON-RPC.
async fn json_rpc_refusals(request: Request, next: axum::middleware::Next) -> Response {
    let post = request.method() == Method::POST && request.uri().path() == "/mcp";
    let response = next.run(request).await;
    if post {
        as_json_rpc(response).await
    } else {
        response
    }
}

/// rmcp refuses some requests with a plain-text body (an unsupported
/// `MCP-Protocol-Version`, a foreign `Host` or `Origin`, a wrong `Accept`
/// or `Content-Type`), as does the body limit: the same status, with the
/// text as a JSON-RPC error (`-32600`) a client can read.
async fn as_json_rpc(response: Response) -> Response {
    if !response.status().is_client_error() || is_json(response.headers()) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = to_bytes(body, 64 << 10).await.unwrap_or_default();
    let refusal = framing::error(Value::Null, -32600, String::from_utf8_lossy(&text).trim());
    (
        parts.status,
        [(header::CONTENT_TYPE, "application/json")],
        refusal.to_string(),
    )
        .into_response()
}

async fn post(mcp: &Mcp, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    // The connection bounds the body (its cap, the request timeout).
    let bytes = match to_bytes(body, usize::MAX).await {
        Ok(bytes) => bytes,
        Err(e) => {
            let (status, message) = match BodyError::of(&e) {
                Some(refusal) => (refusal.status(), refusal.to_string()),
                None => (StatusCode::BAD_REQUEST, format!("Bad Request: {e}")),
            };
            return (status, message).into_response();
        }
    };
    if is_json(&parts.headers) {
        if let Some(refusal) = framing::refusal_of(&bytes) {
            return refusal_response(refusal);
        }
    }
    let is_array = body_is_array(&bytes);
    if let Some(messages) = is_array.then(|| batch_of(&parts.headers, &bytes)).flatten() {
        return batch(mcp, &parts, messages).await;
    }
    let json = is_json(&parts.headers);
    let response = mcp
        .handle(Request::from_parts(parts, Body::from(bytes)))
        .await
        .into_response();
    // rmcp reads no array: past its Host, Origin and header checks, it
    // refuses the body as an unknown message. Say why, in JSON-RPC.
    if is_array && json && response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE {
        let refusal = framing::error(
            Value::Null,
            -32600,
            "Invalid Request: JSON-RPC batches are part of MCP revision 2025-03-26 only (send no MCP-Protocol-Version header, or that one)",
        );
        return (
            StatusCode::BAD_REQUEST,
            [(header::CONTENT_TYPE, "application/json")],
            refusal.to_string(),
        )
            .into_response();
    }
    response
}

/// A message framing answers itself, as stdio does: a parse error (400), or
/// an error response to a request (200).
fn refusal_response(refusal: Refusal) -> Response {
    let status = match refusal {
        Refusal::Unreadable(_) => StatusCode::BAD_REQUEST,
        Refusal::Answer(_) => StatusCode::OK,
    };
    let (Refusal::Unreadable(message) | Refusal::Answer(message)) = refusal;
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        message.to_string(),
    )
        .into_response()
}

fn body_is_array(body: &Bytes) -> bool {
    body.trim_ascii_start().first() == Some(&b'[')
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"))
}

/// The messages of a batch this server serves: a non-empty JSON array in a
/// 2025-03-26 request. Any other array goes to rmcp, which refuses it.
fn batch_of(headers: &HeaderMap, body: &Bytes) -> Option<Vec<Value>> {
    let revision = headers.get("mcp-protocol-version");
    if revision.is_some_and(|v| v.as_bytes() != BATCH_REVISION.as_str().as_bytes()) {
        return None;
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Array(messages)) if !messages.is_empty() => Some(messages),
        _ => None,
    }
}

/// Serves each message of a batch as its own POST, under the batch's
/// headers, and answers the responses as one array (202 when it held only
/// notifications). A refusal of the request itself (403 for its `Host` or
/// `Origin`, 406, 415) is the batch's answer.
async fn batch(mcp: &Mcp, parts: &axum::http::request::Parts, messages: Vec<Value>) -> Response {
    let answers: Vec<Result<Option<Value>, Response>> = stream::iter(messages)
        .map(|message| async move {
            if let Some(answer) = framing::invalid_tool_call(&message) {
                return Ok(Some(answer));
            }
            let mut request = Request::new(Body::from(message.to_string()));
            *request.method_mut() = Method::POST;
            *request.uri_mut() = parts.uri.clone();
            *request.headers_mut() = parts.headers.clone();
            request.headers_mut().remove(header::CONTENT_LENGTH);
            answer_of(mcp.handle(request).await.into_response()).await
        })
        .buffered(BATCH_CONCURRENCY)
        .collect()
        .await;
    let mut array = Vec::new();
    for answer in answers {
        match answer {
            Ok(Some(message)) => array.push(message),
            Ok(None) => {}
            Err(refusal) => return refusal,
        }
    }
    if array.is_empty() {
        return StatusCode::ACCEPTED.into_response();
    }
    (
        [(header::CONTENT_TYPE, "application/json")],
        Value::Array(array).to_string(),
    )
        .into_response()
}

/// The JSON-RPC message rmcp answered one batch member with (`None` for an
/// accepted notification), or the response itself when it is no message.
async fn answer_of(response: Response) -> Result<Option<Value>, Response> {
    if response.status() == StatusCode::ACCEPTED {
        return Ok(None);
    }
    if !is_json(response.headers()) {
        return Err(response);
    }
    let (parts, body) = response.into_parts();
    let bytes = to_bytes(body, usize::MAX).await.unwrap_or_default();
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(message) if message.get("jsonrpc").is_some() => Ok(Some(message)),
        _ => Err(Response::from_parts(parts, Body::from(bytes))),
    }
}
