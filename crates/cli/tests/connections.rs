//! The service under slow, idle and numerous connections on loopback: each
//! slow or idle one is closed after the configured header timeout while
//! other clients are served, and at the cap, while every connection is
//! being answered, a new one waits (tests/hostile_clients.rs has the cap
//! closing incomplete ones).

mod support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;
use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn small_service(options: &[&str]) -> (PathBuf, Service) {
    let entry = attestation(&format!("{R}good"), "active", 1, 24);
    let files = ServiceFiles::new(
        "connections",
        &json!({ "attestations": [entry] }).to_string(),
    )
    .await;
    let service = Service::start_with(&files.registry, &files.keys, options).await;
    (files.dir, service)
}

async fn connect(service: &Service) -> TcpStream {
    TcpStream::connect(service.url.trim_start_matches("http://"))
        .await
        .unwrap()
}

const KEYS_REQUEST: &[u8] = b"GET /v0/verification-keys HTTP/1.1\r\nHost: test\r\n\r\n";

/// Reads until the server closes the connection; `None` if it is still open
/// `within` after `opened`.
async fn closed<R: AsyncReadExt + Unpin>(
    reader: &mut R,
    opened: Instant,
    within: Duration,
) -> Option<Duration> {
    let mut buffer = [0u8; 4096];
    loop {
        let left = within.checked_sub(opened.elapsed())?;
        match tokio::time::timeout(left, reader.read(&mut buffer)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(opened.elapsed()),
            Ok(Ok(_)) => {}
        }
    }
}

async fn get_keys(service: &Service) -> reqwest::StatusCode {
    reqwest::get(format!("{}/v0/verification-keys", service.url))
        .await
        .unwrap()
        .status()
}

#[tokio::test]
async fn slow_and_idle_connections_are_closed_while_others_are_served() {
    let (_dir, service) = small_service(&["--header-timeout-ms", "400"]).await;

    // Slowloris: a request head that never ends, one header line at a time.
    let slow = connect(&service).await;
    let slow_opened = Instant::now();
    let (mut slow_reader, mut slow_writer) = slow.into_split();
    tokio::spawn(async move {
        let mut line: &[u8] = b"GET /v0/verification-keys HTTP/1.1\r\n";
        for _ in 0..50 {
            if slow_writer.write_all(line).await.is_err() {
                break;
            }
            line = b"X-Slow: 1\r\n";
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });

    // Idle keep-alive: one request answered, then nothing.
    let mut idle = connect(&service).await;
    idle.write_all(KEYS_REQUEST).await.unwrap();
    let mut head = [0u8; 64];
    let n = idle.read(&mut head).await.unwrap();
    assert!(head[..n].starts_with(b"HTTP/1.1 200"));
    let idle_since = Instant::now();

    for _ in 0..5 {
        assert_eq!(get_keys(&service).await, 200, "other clients are served");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let limit = Duration::from_secs(5);
    let slow_closed = closed(&mut slow_reader, slow_opened, limit)
        .await
        .expect("the slow connection is closed");
    let idle_closed = closed(&mut idle, idle_since, limit)
        .await
        .expect("the idle connection is closed");
    for (what, after) in [("slow", slow_closed), ("idle", idle_closed)] {
        assert!(
            (Duration::from_millis(350)..Duration::from_secs(3)).contains(&after),
            "{what} connection closed after {after:?}, the timeout is 400 ms"
        );
    }
    assert_eq!(get_keys(&service).await, 200);
}

#[tokio::test]
async fn at_the_cap_new_connections_wait_while_every_one_is_answered() {
    // A verification service that accepts and never answers: each lookup
    // runs until its 2 s timeout, so its connection is being answered.
    let stalled = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", stalled.local_addr().unwrap());
    let server = Service::start_mcp(
        &["--max-connections", "3"],
        &[
            ("VERIFICATION_BASE_URL", &base),
            ("VERIFICATION_TIMEOUT_MS", "2000"),
        ],
    )
    .await;
    let call = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "endpoint_status", "arguments": {
            "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": format!("{R}good") } },
    })
    .to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n{call}",
        call.len()
    );
    let started = Instant::now();
    let mut calls = Vec::new();
    for _ in 0..3 {
        let mut stream = TcpStream::connect(server.addr()).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        calls.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let health = reqwest::get(format!("{}/healthz", server.url));
    let answer = tokio::time::timeout(Duration::from_secs(6), health)
        .await
        .expect("served once a call ends")
        .unwrap();
    assert_eq!(answer.status(), 200);
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(1800),
        "a fourth connection was served after {waited:?}, while three were being answered"
    );
    for mut stream in calls {
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.contains(r#""state":"unknown""#), "{answer}");
    }
}
