//! The HTTP serving that `x402-verdict serve` (the reference service) and
//! `x402-verdict mcp --listen` share: the connection guard
//! ([`connections`]: limits no slow, idle, numerous or lying client gets
//! past) and the strict Host reader ([`host`]).

pub mod connections;
pub mod host;

/// Resolves on Ctrl-C (SIGINT) or SIGTERM.
pub async fn shutdown_signal() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = terminate => {}
    }
}
