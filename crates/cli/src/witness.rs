//! `x402-verdict witness`: its options (the witness itself is the
//! service crate's `witness` module).

use std::net::SocketAddr;
use std::path::PathBuf;

use x402_verdict_http::connections::ConnectionArgs;
use x402_verdict_service::witness::{self, WitnessConfig, WitnessError};

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

/// Runs the witness `args` describe.
///
/// # Errors
///
/// As [`witness::run`], or connection options that do not fit together.
pub async fn run(args: WitnessArgs) -> Result<(), WitnessError> {
    let limits = args.connections.limits(witness::MAX_REQUEST_BYTES)?;
    witness::run(WitnessConfig {
        listen: args.listen,
        keys: args.keys,
        name: args.name,
        log_key: args.log_key,
        state: args.state,
        limits,
    })
    .await
}
