//! The connection limits as command-line options, shared by `serve` and
//! `mcp --listen`, read into the HTTP crate's [`ConnectionLimits`].

use std::time::Duration;

use x402_verdict_http::connections::ConnectionLimits;

/// The connection limits as command-line options (`serve`, `mcp --listen`).
#[derive(clap::Args, Debug)]
pub struct ConnectionArgs {
    /// Close a connection that has not sent a complete request head within
    /// this many milliseconds of opening or of its previous response (slow
    /// and idle keep-alive clients).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub header_timeout_ms: u64,
    /// Refuse (408) and close a request whose head and body have not both
    /// arrived within this many milliseconds of the connection's opening or
    /// of its previous response; at least the header timeout.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub request_timeout_ms: u64,
    /// The most connections open at once; past it, the one waiting longest
    /// on an incomplete request is closed to admit a new one.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_connections: u32,
}

/// Connection options that do not fit together.
#[derive(Debug, thiserror::Error)]
pub enum ConnectionArgsError {
    /// The whole request would have less time than its head.
    #[error("--request-timeout-ms {request} is shorter than --header-timeout-ms {header}: the whole request cannot arrive before its head")]
    RequestShorterThanHead {
        /// `--request-timeout-ms`.
        request: u64,
        /// `--header-timeout-ms`.
        header: u64,
    },
}

impl ConnectionArgs {
    /// The limits these options set.
    ///
    /// # Errors
    ///
    /// The request timeout is shorter than the header timeout.
    pub fn limits(&self) -> Result<ConnectionLimits, ConnectionArgsError> {
        if self.request_timeout_ms < self.header_timeout_ms {
            return Err(ConnectionArgsError::RequestShorterThanHead {
                request: self.request_timeout_ms,
                header: self.header_timeout_ms,
            });
        }
        Ok(ConnectionLimits {
            header_timeout: Duration::from_millis(self.header_timeout_ms),
            request_timeout: Duration::from_millis(self.request_timeout_ms),
            max_connections: self.max_connections as usize,
        })
    }
}
