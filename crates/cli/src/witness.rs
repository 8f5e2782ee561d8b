//! `x402-verdict witness`: its options (the witness itself is the
//! service crate's `witness` module).

use std::net::SocketAddr;
use std::path::PathBuf;

use x402_verdict_service::witness::{self, WitnessConfig, WitnessError};

use crate::connections::{ConnectionArgs, ConnectionArgsError};
use crate::out::say;

/// Options of `witness`.
#[derive(clap::Args, Debug)]
pub struct WitnessArgs {
    /// Address to listen on (port 0 picks a free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8403")]
    pub listen: SocketAddr,
    /// The witness's key file (written by `x402-verdict keygen`): its current key cosigns.
    #[arg(long)]
    pub keys: PathBuf,
    /// The log's verifier key, `<origin>+<keyId>+<base64>` (an Ed25519 note key).
    #[arg(long)]
    pub log_key: String,
    /// The folder of the witness's state: the last checkpoint cosigned, and the evidence of refusals.
    #[arg(long)]
    pub state: PathBuf,
    /// The witness's name in its cosignatures and verifier key (default `witness/<keyId>`).
    #[arg(long)]
    pub name: Option<String>,
    #[command(flatten)]
    pub connections: ConnectionArgs,
}

/// Why `witness` stops: its options, or the witness.
#[derive(Debug, thiserror::Error)]
pub enum WitnessCommandError {
    /// The connection options do not fit together.
    #[error(transparent)]
    Connections(#[from] ConnectionArgsError),
    /// The witness could not start.
    #[error(transparent)]
    Witness(#[from] WitnessError),
}

/// Runs the witness `args` describe: binds, prints its verifier key and
/// `listening on http://ADDR`, and serves until interrupted.
///
/// # Errors
///
/// As [`witness::bind`], or connection options that do not fit together.
pub async fn run(args: WitnessArgs) -> Result<(), WitnessCommandError> {
    let connections = args.connections.limits()?;
    let bound = witness::bind(WitnessConfig {
        listen: args.listen,
        keys: args.keys,
        name: args.name,
        log_key: args.log_key,
        state: args.state,
        connections,
    })
    .await?;
    say!("witness key {}", bound.verifier_key());
    say!("listening on http://{}", bound.local_addr());
    bound.serve(x402_verdict_http::shutdown_signal()).await;
    Ok(())
}
