//! Clients slow, numerous and lying, over real sockets, and a fresh one
//! that must be served whatever they do: shared by the connection guard's
//! tests and by those of the servers behind it (the service's and the MCP
//! server's `tests/hostile_clients.rs` include this file by its path).

#![allow(dead_code)]

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::task::JoinSet;

/// What a fresh, well-behaved client must be answered within, whatever
/// the others do (a loaded 2-core machine included).
pub const SERVED_WITHIN: Duration = Duration::from_secs(1);

/// Sends `request` on a new connection and reads until the server closes
/// it: the status and the body. Panics if that takes longer than `within`.
pub async fn exchange(addr: &str, request: &[u8], within: Duration) -> (u16, String) {
    let (status, _, body) = exchange_whole(addr, request, within).await;
    (status, body)
}

/// [`exchange`], with the answer's head (its status line and header lines).
pub async fn exchange_whole(addr: &str, request: &[u8], within: Duration) -> (u16, String, String) {
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

/// `GET path` on `addr` answered 200 within [`SERVED_WITHIN`].
pub async fn served(addr: &str, path: &str) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    let started = Instant::now();
    let (status, _) = exchange(addr, request.as_bytes(), SERVED_WITHIN * 5).await;
    assert_eq!(status, 200, "GET {path}");
    assert!(
        started.elapsed() < SERVED_WITHIN,
        "GET {path} took {:?}",
        started.elapsed()
    );
}

/// Reads until the server closes the connection; `None` if it is still open
/// `within` after `opened`.
pub async fn closed<R: AsyncReadExt + Unpin>(
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

/// Opens `n` connections that send `head` whole, then a body byte once
/// every `pause`: what each one was answered (a status, or 0 when the
/// connection was closed without one) and when, from its opening.
pub async fn trickle(
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

/// Opens `n` connections, one after the other, that send a request head a
/// byte every 200 ms and never finish it; each reports whether the server
/// closed it within `watch`, by its order of opening.
pub async fn endless_heads(addr: &str, n: usize, watch: Duration) -> Vec<bool> {
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

/// At a cap of 40 on `addr`, 60 endless heads, then fresh clients asking
/// `GET path`: each fresh one is served within a second, and the
/// connections closed to make way are the oldest.
pub async fn the_cap_makes_way(addr: &str, path: &'static str) {
    let heads_addr = addr.to_owned();
    let heads =
        tokio::spawn(async move { endless_heads(&heads_addr, 60, Duration::from_secs(4)).await });
    tokio::time::sleep(Duration::from_millis(800)).await;
    for _ in 0..5 {
        served(addr, path).await;
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

/// Sends `head` (a request announcing a 4 MB body) and then its body at 20
/// KiB a second, twenty times the minimum rate, yet 200 s for the whole:
/// the server under a 2000 ms request timeout answers 408 at that time.
pub async fn cut_at_the_request_timeout(addr: &str, head: &str) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let opened = Instant::now();
    stream.write_all(head.as_bytes()).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
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

/// Sends `request` on a new connection, its body (the last `body_len`
/// bytes) in three pieces 400 ms apart, slowly but within the rate's
/// grace, and reads the whole answer.
pub async fn sent_slowly(addr: &str, request: &str, body_len: usize) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let (head, body) = request.split_at(request.len() - body_len);
    stream.write_all(head.as_bytes()).await.unwrap();
    for piece in body.as_bytes().chunks(body.len() / 3 + 1) {
        tokio::time::sleep(Duration::from_millis(400)).await;
        stream.write_all(piece).await.unwrap();
    }
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    answer
}

/// `Host` values that are no authority for a server on `port`: each must
/// be refused.
pub fn not_authorities(port: &str) -> [String; 6] {
    [
        format!("localhost:{port}.evil.example"),
        "localhost:evil.example".into(),
        "localhost:".into(),
        "127.0.0.1:99999999".into(),
        "localhost:80:80".into(),
        "user@localhost".into(),
    ]
}
