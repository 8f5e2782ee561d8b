//! The MCP server's Streamable HTTP under slow, numerous and lying
//! clients, over real sockets on loopback: a declared body over the cap,
//! bodies sent a byte a second, heads that never end past the connection
//! cap, `Host` values that are no authority, requests without `Host`
//! (HTTP/1.0 and 1.1), and the JSON-RPC codes it shares with stdio. In
//! every case other clients go on being served. (The service's own are in
//! crates/service/tests.)

#[path = "../../http/tests/clients/mod.rs"]
mod clients;

use std::time::{Duration, Instant};

use clients::*;
use serde_json::{json, Value};
use tokio::sync::oneshot;
use x402_verdict_http::connections::ConnectionLimits;
use x402_verdict_mcp::http::HttpOptions;
use x402_verdict_mcp::McpConfig;

/// The server, serving Streamable HTTP in this process until dropped.
struct Server {
    addr: String,
    _stop: oneshot::Sender<()>,
}

impl Server {
    fn addr(&self) -> &str {
        &self.addr
    }
}

/// The server on a free loopback port, without a verification service,
/// under the command's default connection limits changed by `change`.
async fn mcp_with(change: impl FnOnce(&mut ConnectionLimits)) -> Server {
    let config = McpConfig::from_env(|_| None).unwrap();
    let mut connections = ConnectionLimits {
        header_timeout: Duration::from_secs(10),
        request_timeout: Duration::from_secs(10),
        max_connections: 512,
    };
    change(&mut connections);
    let options = HttpOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        allowed_hosts: Vec::new(),
        allowed_origins: Vec::new(),
        connections,
    };
    let bound = x402_verdict_mcp::http::bind(config, options).await.unwrap();
    let addr = bound.local_addr().to_string();
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(bound.serve(async move {
        let _ = stopped.await;
    }));
    Server { addr, _stop: stop }
}

async fn mcp() -> Server {
    mcp_with(|_| {}).await
}

/// A POST to `/mcp` with this body, `Host` and extra header lines.
fn mcp_post(host: &str, body: &str, extra: &str) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n{extra}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// The JSON-RPC error of a body: its code and message.
fn rpc_error(body: &str) -> (i64, String) {
    let value: Value = serde_json::from_str(body.trim()).unwrap_or_else(|_| panic!("{body:?}"));
    (
        value["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("{value}")),
        value["error"]["message"].as_str().unwrap().to_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_declared_over_the_cap_is_refused_before_it_is_read() {
    let server = mcp().await;
    let request =
        mcp_post("localhost", "", "").replace("Content-Length: 0", "Content-Length: 1000000000000");
    let started = Instant::now();
    let (status, body) = exchange(server.addr(), request.as_bytes(), Duration::from_secs(5)).await;
    assert_eq!(status, 413, "{body}");
    assert!(started.elapsed() < SERVED_WITHIN, "{:?}", started.elapsed());
    let (code, message) = rpc_error(&body);
    assert_eq!(code, -32600);
    assert_eq!(
        message,
        "Payload Too Large: the request body exceeds 4194304 bytes"
    );
    // A client that sends such a body whole still reads the refusal: the
    // connection reads what follows before it closes, instead of a reset.
    for _ in 0..5 {
        let body = " ".repeat(5 << 20);
        let request = mcp_post("localhost", &body, "");
        let (status, _) = exchange(server.addr(), request.as_bytes(), Duration::from_secs(5)).await;
        assert_eq!(status, 413);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_sent_a_byte_a_second_are_cut_while_others_are_served() {
    let server = mcp().await;
    let head = mcp_post("localhost", "", "").replace("Content-Length: 0", "Content-Length: 1000");
    let give_up = Duration::from_secs(12);
    let mut slow = trickle(server.addr(), 100, head, Duration::from_secs(1), give_up).await;
    // A fresh client is served at once, again and again, while they trickle.
    for _ in 0..5 {
        served(server.addr(), "/healthz").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    while let Some(cut) = slow.join_next().await {
        let (status, after) = cut.unwrap();
        // The minimum rate applies after 2 s, checked each second; never
        // later than the 10 s request timeout.
        assert_eq!(status, 408, "answered {status} after {after:?}");
        assert!(after < Duration::from_secs(6), "cut after {after:?}");
    }
    // A body sent slowly but whole, within the rate's grace, is read.
    let call = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }).to_string();
    let request = mcp_post("localhost", &call, "MCP-Protocol-Version: 2025-06-18\r\n");
    let answer = sent_slowly(server.addr(), &request, call.len()).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_faster_than_the_rate_is_still_cut_at_the_request_timeout() {
    let server = mcp_with(|l| {
        l.header_timeout = Duration::from_millis(1000);
        l.request_timeout = Duration::from_millis(2000);
    })
    .await;
    let head =
        mcp_post("localhost", "", "").replace("Content-Length: 0", "Content-Length: 4000000");
    cut_at_the_request_timeout(server.addr(), &head).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_cap_the_oldest_incomplete_requests_make_way_for_new_clients() {
    let server = mcp_with(|l| l.max_connections = 40).await;
    the_cap_makes_way(server.addr(), "/healthz").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_must_be_an_authority() {
    let server = mcp().await;
    let port = server.addr().rsplit(':').next().unwrap().to_owned();
    let list = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }).to_string();
    let extra = "MCP-Protocol-Version: 2025-06-18\r\n";
    for host in not_authorities(&port) {
        let (status, body) = exchange(
            server.addr(),
            mcp_post(&host, &list, extra).as_bytes(),
            Duration::from_secs(5),
        )
        .await;
        assert_eq!(status, 400, "Host: {host}: {body}");
        let (code, message) = rpc_error(&body);
        assert_eq!(code, -32600, "{host}");
        assert!(message.starts_with("Bad Request: "), "{message}");
    }
    // What is an authority goes on to the allow-list.
    for (host, status) in [
        (format!("localhost:{port}"), 200),
        ("127.0.0.1".into(), 200),
        (format!("[::1]:{port}"), 200),
        ("evil.example".into(), 403),
    ] {
        let (got, body) = exchange(
            server.addr(),
            mcp_post(&host, &list, extra).as_bytes(),
            Duration::from_secs(5),
        )
        .await;
        assert_eq!(got, status, "Host: {host}: {body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_host_mcp_listen_refuses_every_request() {
    let server = mcp().await;
    let addr = server.addr();
    let ask = |request: String| async move {
        exchange(addr, request.as_bytes(), Duration::from_secs(5)).await
    };
    // Its DNS-rebinding rule cannot check a host it is not given: HTTP/1.0
    // is refused as a host not allowed is, HTTP/1.1 as a request without Host.
    let list = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }).to_string();
    let post = |version: &str| {
        format!(
            "POST /mcp HTTP/{version}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
             MCP-Protocol-Version: 2025-06-18\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{list}",
            list.len()
        )
    };
    for (version, status, said) in [
        (
            "1.0",
            403,
            "Forbidden: the request has no Host header to check against the allowed hosts",
        ),
        ("1.1", 400, "Bad Request: the request has no Host header"),
    ] {
        let (got, body) = ask(post(version)).await;
        assert_eq!(got, status, "HTTP/{version}: {body}");
        assert_eq!(
            rpc_error(&body),
            (-32600, said.to_owned()),
            "HTTP/{version}"
        );
        let (got, body) = ask(format!(
            "GET /healthz HTTP/{version}\r\nConnection: close\r\n\r\n"
        ))
        .await;
        assert_eq!(
            (got, body.as_str()),
            (status, said),
            "GET /healthz HTTP/{version}"
        );
    }
    let (got, body) = ask("GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n".into()).await;
    assert_eq!((got, body.as_str()), (200, "ok\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_answers_what_it_cannot_read_with_the_codes_of_stdio() {
    let server = mcp().await;
    let extra = "MCP-Protocol-Version: 2025-06-18\r\n";
    let post = |body: String| {
        let request = mcp_post("localhost", &body, extra);
        let addr = server.addr().to_owned();
        async move { exchange(&addr, request.as_bytes(), Duration::from_secs(5)).await }
    };
    for arguments in [json!([]), json!("x"), json!(7)] {
        let call = json!({
            "jsonrpc": "2.0", "id": 9, "method": "tools/call",
            "params": { "name": "lookup_verdict", "arguments": arguments },
        });
        let (status, body) = post(call.to_string()).await;
        assert_eq!(status, 200, "{body}");
        let answer: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(answer["id"], 9, "{answer}");
        assert_eq!(answer["error"]["code"], -32602, "{arguments}: {answer}");
    }
    let (status, body) = post("{not json".into()).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        rpc_error(&body),
        (-32700, "Parse error: the body is not valid JSON".into())
    );
    // In a batch (2025-03-26), the member alone is answered so.
    let batch = json!([
        { "jsonrpc": "2.0", "id": 1, "method": "tools/call",
          "params": { "name": "lookup_verdict", "arguments": [] } },
        { "jsonrpc": "2.0", "id": 2, "method": "tools/list" },
    ]);
    let request = mcp_post("localhost", &batch.to_string(), "");
    let (status, body) = exchange(server.addr(), request.as_bytes(), Duration::from_secs(5)).await;
    assert_eq!(status, 200, "{body}");
    let answers: Vec<Value> = serde_json::from_str(&body).unwrap();
    assert_eq!(answers[0]["error"]["code"], -32602, "{body}");
    assert!(answers[1]["result"]["tools"].is_array(), "{body}");
}
