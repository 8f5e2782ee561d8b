//! The service under slow, numerous and lying clients, over real sockets
//! on loopback: a declared body it never reads, bodies sent a byte a
//! second, heads that never end past the connection cap, `Host` values
//! that are no authority, and requests without `Host` (HTTP/1.0 and 1.1,
//! a load balancer's health check). In every case other clients go on
//! being served. (The MCP server's own are in crates/mcp/tests.)

#[path = "../../http/tests/clients/mod.rs"]
mod clients;
mod support;

use std::path::PathBuf;
use std::time::Duration;

use clients::*;
use support::*;
use x402_verdict_service::ServeConfig;

async fn serve() -> (PathBuf, Service) {
    serve_with(|_| {}).await
}

async fn serve_with(change: impl FnOnce(&mut ServeConfig)) -> (PathBuf, Service) {
    let files = ServiceFiles::new("hostile-clients", "{}");
    let mut config = files.config();
    change(&mut config);
    (files.dir, Service::start(config).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_declared_over_the_cap_is_refused_before_it_is_read() {
    // The service reads no body at all: it answers, and never waits for one.
    let (_dir, service) = serve().await;
    let request = "GET /v0/verification-keys HTTP/1.1\r\nHost: localhost\r\n\
                   Content-Length: 1000000000000\r\n\r\n";
    let (status, _) = exchange(service.addr(), request.as_bytes(), Duration::from_secs(5)).await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_sent_a_byte_a_second_are_cut_while_others_are_served() {
    // The service reads no body: it answers each such request at once, and
    // closes the connection rather than wait for the rest.
    let (_dir, service) = serve().await;
    let give_up = Duration::from_secs(12);
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
    served(service.addr(), "/v0/verification-keys").await;
    while let Some(done) = slow.join_next().await {
        let (status, after) = done.unwrap();
        assert_eq!(status, 200, "answered {status} after {after:?}");
        assert!(after < Duration::from_secs(2), "closed after {after:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_cap_the_oldest_incomplete_requests_make_way_for_new_clients() {
    let (_dir, service) = serve_with(|c| c.connections.max_connections = 40).await;
    the_cap_makes_way(service.addr(), "/v0/verification-keys").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_must_be_an_authority() {
    let (_dir, service) = serve().await;
    let port = service.addr().rsplit(':').next().unwrap().to_owned();
    for host in not_authorities(&port) {
        let request = format!(
            "GET /v0/verification-keys HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        );
        let (status, body) =
            exchange(service.addr(), request.as_bytes(), Duration::from_secs(5)).await;
        assert_eq!(status, 400, "serve, Host: {host}: {body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_host_http_1_0_is_answered_by_serve_and_http_1_1_refused() {
    let files = ServiceFiles::new("no-host", "{}");
    let www = files.dir.join("www");
    std::fs::create_dir_all(&www).unwrap();
    std::fs::write(www.join("index.html"), "home").unwrap();
    let mut config = files.config();
    config.www = Some(www);
    let service = Service::start(config).await;
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
