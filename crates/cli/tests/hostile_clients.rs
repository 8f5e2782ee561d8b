//! `mcp --listen` and `serve` under slow, numerous and lying clients, over
//! real sockets on loopback: a declared body over the cap, bodies sent a
//! byte a second, heads that never end past the connection cap, `Host`
//! values that are no authority, requests without `Host` (HTTP/1.0 and
//! 1.1, a load balancer's health check), and the JSON-RPC codes both
//! transports share. In every case other clients go on being served.

mod support;

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::task::JoinSet;

/// What a fresh, well-behaved client must be answered within, whatever
/// the others do (a loaded 2-core machine included).
const SERVED_WITHIN: Duration = Duration::from_secs(1);

async fn mcp() -> Service {
    Service::start_mcp(&[], &[]).await
}

async fn serve() -> (std::path::PathBuf, Service) {
    serve_with(&[]).await
}

async fn serve_with(extra: &[&str]) -> (std::path::PathBuf, Service) {
    let entry = attestation(&format!("{R}good"), "active", 1, 24);
    let registry = json!({ "attestations": [entry] }).to_string();
    let files = ServiceFiles::new("hostile-clients", &registry).await;
    let service = Service::start_with(&files.registry, &files.keys, extra).await;
    (files.dir, service)
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

/// Sends `request` on a new connection and reads until the server closes
/// it: the status and the body. Panics if that takes longer than `within`.
async fn exchange(addr: &str, request: &[u8], within: Duration) -> (u16, String) {
    let (status, _, body) = exchange_whole(addr, request, within).await;
    (status, body)
}

/// [`exchange`], with the answer's head (its status line and header lines).
async fn exchange_whole(addr: &str, request: &[u8], within: Duration) -> (u16, String, String) {
    let started = Instant::now();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(within, stream.read_to_end(&mut answer))
        .await
        .unwrap_or_else(|_| panic!("no whole answer within {within:?}"))
        .unwrap();
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line after {:?}: {text:?}", started.elapsed()));
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (status, head.to_owned(), body.to_owned())
}

/// `GET path` answered 200 within [`SERVED_WITHIN`].
async fn served(service: &Service, path: &str) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    let started = Instant::now();
    let (status, _) = exchange(service.addr(), request.as_bytes(), SERVED_WITHIN * 5).await;
    assert_eq!(status, 200, "GET {path}");
    assert!(
        started.elapsed() < SERVED_WITHIN,
        "GET {path} took {:?}",
        started.elapsed()
    );
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

#[tokio::test]
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
    // The service reads no body at all: it answers, and never waits for one.
    let (_dir, service) = serve().await;
    let request = "GET /v0/verification-keys HTTP/1.1\r\nHost: localhost\r\n\
                   Content-Length: 1000000000000\r\n\r\n";
    let (status, _) = exchange(service.addr(), request.as_bytes(), Duration::from_secs(5)).await;
    assert_eq!(status, 200);
}

/// Opens `n` connections that send `head` whole, then `body_byte` once
/// every `pause`: what each one was answered (a status, or 0 when the
/// connection was closed without one) and when, from its opening.
async fn trickle(
    addr: &str,
    n: usize,
    head: String,
    pause: Duration,
    give_up: Duration,
) -> JoinSet<(u16, Duration)> {
    let mut set = JoinSet::new();
    for _ in 0..n {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        let head = head.clone();
        set.spawn(async move {
            let opened = Instant::now();
            stream.write_all(head.as_bytes()).await.unwrap();
            let (mut reader, mut writer) = stream.into_split();
            let writing = tokio::spawn(async move {
                loop {
                    tokio::time::sleep(pause).await;
                    if writer.write_all(b"x").await.is_err() {
                        break;
                    }
                }
            });
            let mut answer = Vec::new();
            let read = tokio::time::timeout(give_up, reader.read_to_end(&mut answer)).await;
            writing.abort();
            let text = String::from_utf8_lossy(&answer);
            let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
            match read {
                Ok(_) => (status, opened.elapsed()),
                Err(_) => (status, give_up),
            }
        });
    }
    set
}

#[tokio::test]
async fn bodies_sent_a_byte_a_second_are_cut_while_others_are_served() {
    let server = mcp().await;
    let head = mcp_post("localhost", "", "").replace("Content-Length: 0", "Content-Length: 1000");
    let give_up = Duration::from_secs(12);
    let mut slow = trickle(server.addr(), 100, head, Duration::from_secs(1), give_up).await;
    // A fresh client is served at once, again and again, while they trickle.
    for _ in 0..5 {
        served(&server, "/healthz").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    while let Some(cut) = slow.join_next().await {
        let (status, after) = cut.unwrap();
        // The minimum rate applies after 2 s, checked each second; never
        // later than the 10 s request timeout.
        assert_eq!(status, 408, "answered {status} after {after:?}");
        assert!(after < Duration::from_secs(6), "cut after {after:?}");
    }
    // The service reads no body: it answers each such request at once, and
    // closes the connection rather than wait for the rest.
    let (_dir, service) = serve().await;
    let head =
        "GET /v0/verification-keys HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n";
    let mut slow = trickle(
        service.addr(),
        100,
        head.into(),
        Duration::from_secs(1),
        give_up,
    )
    .await;
    served(&service, "/v0/verification-keys").await;
    while let Some(done) = slow.join_next().await {
        let (status, after) = done.unwrap();
        assert_eq!(status, 200, "answered {status} after {after:?}");
        assert!(after < Duration::from_secs(2), "closed after {after:?}");
    }
    // A body sent slowly but whole, within the rate's grace, is read.
    let call = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }).to_string();
    let mut stream = TcpStream::connect(server.addr()).await.unwrap();
    let request = mcp_post("localhost", &call, "MCP-Protocol-Version: 2025-06-18\r\n");
    let (head, body) = request.split_at(request.len() - call.len());
    stream.write_all(head.as_bytes()).await.unwrap();
    for piece in body.as_bytes().chunks(body.len() / 3 + 1) {
        tokio::time::sleep(Duration::from_millis(400)).await;
        stream.write_all(piece).await.unwrap();
    }
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn a_body_faster_than_the_rate_is_still_cut_at_the_request_timeout() {
    let server = Service::start_mcp(
        &[
            "--header-timeout-ms",
            "1000",
            "--request-timeout-ms",
            "2000",
        ],
        &[],
    )
    .await;
    let mut stream = TcpStream::connect(server.addr()).await.unwrap();
    let opened = Instant::now();
    let head =
        mcp_post("localhost", "", "").replace("Content-Length: 0", "Content-Length: 4000000");
    stream.write_all(head.as_bytes()).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    // 20 KiB a second: twenty times the minimum rate, yet 4 MB takes 200 s.
    let writing = tokio::spawn(async move {
        while writer.write_all(&[b' '; 2048]).await.is_ok() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(8), reader.read_to_end(&mut answer))
        .await
        .expect("the connection is closed")
        .ok();
    writing.abort();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.contains("the request did not arrive whole within 2000 ms"),
        "{answer}"
    );
    let after = opened.elapsed();
    assert!(
        (Duration::from_millis(1900)..Duration::from_secs(5)).contains(&after),
        "{after:?}"
    );
}

/// Opens `n` connections, one after the other, that send a request head a
/// byte every 200 ms and never finish it; each reports whether the server
/// closed it within `watch`, by its order of opening.
async fn endless_heads(addr: &str, n: usize, watch: Duration) -> Vec<bool> {
    let mut set = JoinSet::new();
    for i in 0..n {
        let stream = TcpStream::connect(addr).await.unwrap();
        set.spawn(async move {
            let (mut reader, mut writer) = stream.into_split();
            let writing = tokio::spawn(async move {
                for byte in b"GET /healthz HTTP/1.1\r\nX-Slow: ".iter().cycle() {
                    if writer.write_all(&[*byte]).await.is_err() {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            });
            let mut sink = Vec::new();
            let closed = tokio::time::timeout(watch, reader.read_to_end(&mut sink))
                .await
                .is_ok();
            writing.abort();
            (i, closed)
        });
        // Opened in order, so that "oldest" is well defined.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let mut closed = vec![false; n];
    while let Some(done) = set.join_next().await {
        let (i, was) = done.unwrap();
        closed[i] = was;
    }
    closed
}

/// At a cap of 40, 60 endless heads, then fresh clients: each fresh one
/// is served within a second, and the connections closed to make way are
/// the oldest.
async fn the_cap_makes_way(server: &Service, path: &'static str) {
    let addr = server.addr().to_owned();
    let heads = tokio::spawn(async move { endless_heads(&addr, 60, Duration::from_secs(4)).await });
    tokio::time::sleep(Duration::from_millis(800)).await;
    for _ in 0..5 {
        served(server, path).await;
    }
    let closed = heads.await.unwrap();
    let count = closed.iter().filter(|c| **c).count();
    // 20 over the cap, and one for each fresh client.
    assert!(count >= 20, "{count} closed: {closed:?}");
    let first_open = closed.iter().position(|c| !c).unwrap_or(closed.len());
    assert!(
        closed[first_open..].iter().all(|c| !c),
        "a newer connection was closed before an older one: {closed:?}"
    );
}

#[tokio::test]
async fn at_the_cap_the_oldest_incomplete_requests_make_way_for_new_clients() {
    let server = Service::start_mcp(&["--max-connections", "40"], &[]).await;
    the_cap_makes_way(&server, "/healthz").await;
    let (_dir, service) = serve_with(&["--max-connections", "40"]).await;
    the_cap_makes_way(&service, "/v0/verification-keys").await;
}

#[tokio::test]
async fn a_host_must_be_an_authority() {
    let server = mcp().await;
    let (_dir, service) = serve().await;
    let port = server.addr().rsplit(':').next().unwrap().to_owned();
    let list = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }).to_string();
    let extra = "MCP-Protocol-Version: 2025-06-18\r\n";
    for host in [
        format!("localhost:{port}.evil.example"),
        "localhost:evil.example".into(),
        "localhost:".into(),
        "127.0.0.1:99999999".into(),
        "localhost:80:80".into(),
        "user@localhost".into(),
    ] {
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
        let request = format!(
            "GET /v0/verification-keys HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        );
        let (status, body) =
            exchange(service.addr(), request.as_bytes(), Duration::from_secs(5)).await;
        assert_eq!(status, 400, "serve, Host: {host}: {body}");
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
    // An allowed host that is no authority is refused at start, in one line.
    let (code, _, err) = run(&[
        "mcp",
        "--listen",
        "127.0.0.1:0",
        "--allow-host",
        "proxy:80x",
    ])
    .await;
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "x402-verdict: --allow-host \"proxy:80x\" has a port that is not a decimal number from 0 to 65535\n"
        )
    );
}

#[tokio::test]
async fn without_host_http_1_0_is_answered_by_serve_and_http_1_1_refused() {
    let entry = attestation(&format!("{R}good"), "active", 1, 24);
    let registry = json!({ "attestations": [entry] }).to_string();
    let files = ServiceFiles::new("no-host", &registry).await;
    let www = files.dir.join("www");
    std::fs::create_dir_all(&www).unwrap();
    std::fs::write(www.join("index.html"), "home").unwrap();
    let args = ["--www", www.to_str().unwrap()];
    let service = Service::start_with(&files.registry, &files.keys, &args).await;
    let addr = service.addr();
    let ask = |request: String| async move {
        exchange_whole(addr, request.as_bytes(), Duration::from_secs(5)).await
    };
    // HTTP/1.0 makes Host optional: a page, and HAProxy's default health
    // check (option httpchk), which a load balancer takes as up on 2xx/3xx.
    let (status, _, body) = ask("GET /index.html HTTP/1.0\r\n\r\n".into()).await;
    assert_eq!((status, body.as_str()), (200, "home"));
    let (status, head, _) = ask("OPTIONS / HTTP/1.0\r\n\r\n".into()).await;
    assert_eq!(status, 204, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("\r\nallow: get, head, options"),
        "{head}"
    );
    // A CORS preflight is still the CORS layer's.
    let (status, head, _) = ask(
        "OPTIONS /v0/verdict HTTP/1.1\r\nHost: localhost\r\nOrigin: https://shop.example\r\n\
        Access-Control-Request-Method: GET\r\nConnection: close\r\n\r\n"
            .into(),
    )
    .await;
    assert_eq!(status, 200, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("\r\naccess-control-allow-origin: *"),
        "{head}"
    );
    // HTTP/1.1 requires it (RFC 9112 3.2); a Host present is read strictly, whatever the version.
    for (request, said) in [
        ("GET /index.html HTTP/1.1\r\nConnection: close\r\n\r\n", "Bad Request: the request has no Host header"),
        ("OPTIONS / HTTP/1.1\r\nConnection: close\r\n\r\n", "Bad Request: the request has no Host header"),
        ("GET /index.html HTTP/1.0\r\nHost: localhost:1.evil.example\r\n\r\n", "Bad Request: \"localhost:1.evil.example\" has a port that is not a decimal number from 0 to 65535"),
        ("GET /index.html HTTP/1.1\r\nHost: user@localhost\r\nConnection: close\r\n\r\n", "Bad Request: \"user@localhost\" is not a host name, an IPv4 address or a bracketed IPv6 address"),
        ("GET /index.html HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n", "Bad Request: the request has more than one Host header"),
    ] {
        let (status, _, body) = ask(request.into()).await;
        assert_eq!((status, body.as_str()), (400, said), "{request:?}");
    }
}

#[tokio::test]
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

#[tokio::test]
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
