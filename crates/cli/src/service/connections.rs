//! The service's HTTP/1.1 connections, served by hyper under two limits, so
//! that slow, idle or numerous clients cannot hold it:
//!
//! - a header-read timeout (hyper's `header_read_timeout`): a connection
//!   must send a complete request head within it, counted from when it opens
//!   and again from each response, so a slow (slowloris) client and an idle
//!   keep-alive connection are both closed when it runs out;
//! - a cap on open connections (a semaphore permit per connection): at the
//!   cap, new connections wait in the listen backlog until one closes.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// The connection limits as command-line options (`serve`, `mcp --listen`).
#[derive(clap::Args, Debug)]
pub struct ConnectionArgs {
    /// Close a connection that has not sent a complete request head within
    /// this many milliseconds of opening or of its previous response (slow
    /// and idle keep-alive clients).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub header_timeout_ms: u64,
    /// The most connections served at once; more wait to be accepted.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_connections: u32,
}

impl ConnectionArgs {
    /// The limits these options set.
    pub fn limits(&self) -> Limits {
        Limits {
            header_timeout: Duration::from_millis(self.header_timeout_ms),
            max_connections: self.max_connections as usize,
        }
    }
}

/// The limits every connection is served under.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// How long a connection may take to send a request head, from its
    /// opening or from its previous response.
    pub header_timeout: Duration,
    /// How many connections are served at once.
    pub max_connections: usize,
}

/// Serves `app` on `listener` under `limits` until `shutdown` resolves, then
/// lets the requests in progress finish (for at most one header timeout).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = accept(&listener, &permits) => accepted,
            () = &mut shutdown => break,
        };
        let Some((stream, permit)) = accepted else {
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            // A client that goes away or times out ends its connection; nothing to report.
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(limits.header_timeout, graceful.shutdown()).await;
}

/// Waits for a free slot, then for a connection; `None` when accepting
/// failed (the failure is logged, and accepting goes on after a pause, as
/// when the process is out of file descriptors).
async fn accept(
    listener: &TcpListener,
    permits: &Arc<Semaphore>,
) -> Option<(tokio::net::TcpStream, tokio::sync::OwnedSemaphorePermit)> {
    // The semaphore is never closed.
    let permit = permits.clone().acquire_owned().await.ok()?;
    match listener.accept().await {
        Ok((stream, _)) => Some((stream, permit)),
        Err(e) => {
            tracing::warn!("could not accept a connection: {e}");
            tokio::time::sleep(Duration::from_millis(50)).await;
            None
        }
    }
}
