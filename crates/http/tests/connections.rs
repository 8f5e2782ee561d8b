//! The connection guard under slow, idle, numerous and lying clients, over
//! real sockets on loopback, serving a small app of its own: each slow or
//! idle connection is closed after the header timeout while other clients
//! are served; at the cap, while every connection is being answered, a new
//! one waits, and otherwise the oldest incomplete requests make way; a
//! body declared over the cap is refused before it is read, a body sent a
//! byte a second is cut at the least rate, a faster one at the request
//! timeout, and the client reads the refusal.

mod clients;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::body::{to_bytes, Body};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use x402_verdict_http::connections::{serve, BodyError, ConnectionLimits};

use clients::*;

/// The body cap of the app (as the MCP server's, 4 MiB).
const MAX_BODY_BYTES: u64 = 4 << 20;

/// The app: `GET /` answers at once; `POST /echo` reads the body whole
/// through the guard and answers its length, or the guard's refusal;
/// `POST /stall` answers after 2 s (a connection being answered).
fn app() -> Router {
    Router::new()
        .route("/", get(|| async { "ok" }))
        .route(
            "/echo",
            post(|body: Body| async move {
                match to_bytes(body, usize::MAX).await {
                    Ok(bytes) => (StatusCode::OK, bytes.len().to_string()).into_response(),
                    Err(e) => match BodyError::of(&e) {
                        Some(refusal) => (refusal.status(), refusal.to_string()).into_response(),
                        None => {
                            (StatusCode::BAD_REQUEST, format!("Bad Request: {e}")).into_response()
                        }
                    },
                }
            }),
        )
        .route(
            "/stall",
            post(|| async {
                tokio::time::sleep(Duration::from_secs(2)).await;
                "answered"
            }),
        )
}

/// The guard serving [`app`] on a free loopback port until dropped.
struct Guarded {
    addr: SocketAddr,
    _stop: oneshot::Sender<()>,
}

impl Guarded {
    /// The app under the default limits (10 s, 10 s, 512 connections)
    /// changed by `change`.
    async fn start(change: impl FnOnce(&mut ConnectionLimits)) -> Guarded {
        let mut limits = ConnectionLimits {
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(10),
            max_connections: 512,
        };
        change(&mut limits);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        tokio::spawn(serve(
            listener,
            app(),
            limits.with_max_body(MAX_BODY_BYTES),
            async move {
                let _ = stopped.await;
            },
        ));
        Guarded { addr, _stop: stop }
    }

    fn addr(&self) -> String {
        self.addr.to_string()
    }
}

/// A POST to `path` with this body and `Connection: close`.
fn post_request(path: &str, body: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

const ROOT_REQUEST: &[u8] = b"GET / HTTP/1.1\r\nHost: test\r\n\r\n";

/// The status of `GET /` on a new connection.
async fn get_root(server: &Guarded) -> u16 {
    let request = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    exchange(&server.addr(), request.as_bytes(), Duration::from_secs(5))
        .await
        .0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_idle_connections_are_closed_while_others_are_served() {
    let server = Guarded::start(|l| l.header_timeout = Duration::from_millis(400)).await;

    // Slowloris: a request head that never ends, one header line at a time.
    let slow = TcpStream::connect(server.addr).await.unwrap();
    let slow_opened = Instant::now();
    let (mut slow_reader, mut slow_writer) = slow.into_split();
    tokio::spawn(async move {
        let mut line: &[u8] = b"GET / HTTP/1.1\r\n";
        for _ in 0..50 {
            if slow_writer.write_all(line).await.is_err() {
                break;
            }
            line = b"X-Slow: 1\r\n";
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });

    // Idle keep-alive: one request answered, then nothing.
    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    idle.write_all(ROOT_REQUEST).await.unwrap();
    let mut head = [0u8; 64];
    let n = idle.read(&mut head).await.unwrap();
    assert!(head[..n].starts_with(b"HTTP/1.1 200"));
    let idle_since = Instant::now();

    for _ in 0..5 {
        assert_eq!(get_root(&server).await, 200, "other clients are served");
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
    assert_eq!(get_root(&server).await, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_cap_new_connections_wait_while_every_one_is_answered() {
    // Three requests the app takes 2 s to answer: each connection is
    // being answered, none is incomplete.
    let server = Guarded::start(|l| l.max_connections = 3).await;
    let request = post_request("/stall", "");
    let started = Instant::now();
    let mut calls = Vec::new();
    for _ in 0..3 {
        let mut stream = TcpStream::connect(server.addr).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        calls.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let request = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    let (status, _) = exchange(&server.addr(), request.as_bytes(), Duration::from_secs(6)).await;
    assert_eq!(status, 200, "served once a call ends");
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(1800),
        "a fourth connection was served after {waited:?}, while three were being answered"
    );
    for mut stream in calls {
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.ends_with("answered"), "{answer}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_declared_over_the_cap_is_refused_before_it_is_read() {
    let server = Guarded::start(|_| {}).await;
    let request =
        post_request("/echo", "").replace("Content-Length: 0", "Content-Length: 1000000000000");
    let started = Instant::now();
    let (status, body) = exchange(&server.addr(), request.as_bytes(), Duration::from_secs(5)).await;
    assert_eq!(status, 413, "{body}");
    assert!(started.elapsed() < SERVED_WITHIN, "{:?}", started.elapsed());
    assert_eq!(
        body,
        "Payload Too Large: the request body exceeds 4194304 bytes"
    );
    // A client that sends such a body whole still reads the refusal: the
    // connection reads what follows before it closes, instead of a reset.
    for _ in 0..5 {
        let body = " ".repeat(5 << 20);
        let request = post_request("/echo", &body);
        let (status, _) =
            exchange(&server.addr(), request.as_bytes(), Duration::from_secs(5)).await;
        assert_eq!(status, 413);
    }
    // An app that reads no body answers, and never waits for one.
    let request = "GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000000000000\r\n\r\n";
    let (status, _) = exchange(&server.addr(), request.as_bytes(), Duration::from_secs(5)).await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_sent_a_byte_a_second_are_cut_while_others_are_served() {
    let server = Guarded::start(|_| {}).await;
    let head = post_request("/echo", "").replace("Content-Length: 0", "Content-Length: 1000");
    let give_up = Duration::from_secs(12);
    let mut slow = trickle(&server.addr(), 100, head, Duration::from_secs(1), give_up).await;
    // A fresh client is served at once, again and again, while they trickle.
    for _ in 0..5 {
        served(&server.addr(), "/").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    while let Some(cut) = slow.join_next().await {
        let (status, after) = cut.unwrap();
        // The minimum rate applies after 2 s, checked each second; never
        // later than the 10 s request timeout.
        assert_eq!(status, 408, "answered {status} after {after:?}");
        assert!(after < Duration::from_secs(6), "cut after {after:?}");
    }
    // An app that reads no body answers each such request at once, and the
    // connection closes rather than wait for the rest.
    let head = "GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n";
    let mut slow = trickle(
        &server.addr(),
        100,
        head.into(),
        Duration::from_secs(1),
        give_up,
    )
    .await;
    served(&server.addr(), "/").await;
    while let Some(done) = slow.join_next().await {
        let (status, after) = done.unwrap();
        assert_eq!(status, 200, "answered {status} after {after:?}");
        assert!(after < Duration::from_secs(2), "closed after {after:?}");
    }
    // A body sent slowly but whole, within the rate's grace, is read.
    let body = "0123456789".repeat(6);
    let answer = sent_slowly(
        &server.addr.to_string(),
        &post_request("/echo", &body),
        body.len(),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.ends_with("\r\n\r\n60"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_faster_than_the_rate_is_still_cut_at_the_request_timeout() {
    let server = Guarded::start(|l| {
        l.header_timeout = Duration::from_millis(1000);
        l.request_timeout = Duration::from_millis(2000);
    })
    .await;
    let head = post_request("/echo", "").replace("Content-Length: 0", "Content-Length: 4000000");
    cut_at_the_request_timeout(&server.addr.to_string(), &head).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_cap_the_oldest_incomplete_requests_make_way_for_new_clients() {
    // At a cap of 40, 60 endless heads, then fresh clients: each fresh one
    // is served within a second, and the connections closed to make way
    // are the oldest.
    let server = Guarded::start(|l| l.max_connections = 40).await;
    the_cap_makes_way(&server.addr(), "/").await;
}
