//! `x402-verdict mcp`: the MCP server (`x402-verdict-mcp`) over stdio, or
//! over Streamable HTTP with `--listen`, configured by `VERIFICATION_*`
//! variables.

use std::net::SocketAddr;

use x402_verdict_mcp::http::HttpOptions;
use x402_verdict_mcp::{McpConfig, McpConfigError, McpError};

use crate::connections::{ConnectionArgs, ConnectionArgsError};
use crate::out::say;

/// Options of `mcp`.
#[derive(clap::Args, Debug)]
pub struct McpArgs {
    /// Serve Streamable HTTP at http://ADDR/mcp (and GET /healthz) instead
    /// of stdio; bind a loopback address unless behind a reverse proxy.
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<SocketAddr>,
    /// Also answer requests whose Host is this name (or name:port), as
    /// behind a reverse proxy; only loopback names are answered otherwise
    /// (DNS rebinding protection). Repeatable; only with `--listen`.
    #[arg(long = "allow-host", value_name = "HOST", requires = "listen")]
    pub allow_hosts: Vec<String>,
    /// Also accept browser requests from this origin (scheme://host[:port]);
    /// only loopback origins are accepted otherwise. Repeatable; only with
    /// `--listen`.
    #[arg(long = "allow-origin", value_name = "ORIGIN", requires = "listen")]
    pub allow_origins: Vec<String>,
    #[command(flatten)]
    pub connections: ConnectionArgs,
}

/// Why `mcp` stops with an error: its configuration, its options, or the
/// server.
#[derive(Debug, thiserror::Error)]
pub enum McpCommandError {
    /// A `VERIFICATION_*` variable is malformed.
    #[error(transparent)]
    Config(#[from] McpConfigError),
    /// The connection options do not fit together.
    #[error(transparent)]
    Connections(#[from] ConnectionArgsError),
    /// The server could not start, or its transport broke.
    #[error(transparent)]
    Server(#[from] McpError),
}

/// Reads the `VERIFICATION_*` variables, then serves the tools on
/// stdin/stdout until stdin closes, or with `--listen` binds, prints
/// `listening on http://ADDR/mcp` and serves until interrupted.
///
/// # Errors
///
/// A malformed configuration or option (before anything is served), an
/// address that cannot be bound, or a broken transport.
pub async fn run(args: McpArgs) -> Result<(), McpCommandError> {
    let config = McpConfig::from_env(|k| std::env::var(k).ok())?;
    let connections = args.connections.limits()?;
    let Some(listen) = args.listen else {
        return Ok(x402_verdict_mcp::stdio(config).await?);
    };
    let options = HttpOptions {
        listen,
        allowed_hosts: args.allow_hosts,
        allowed_origins: args.allow_origins,
        connections,
    };
    let bound = x402_verdict_mcp::http::bind(config, options).await?;
    say!("listening on http://{}/mcp", bound.local_addr());
    bound.serve(x402_verdict_http::shutdown_signal()).await;
    Ok(())
}
