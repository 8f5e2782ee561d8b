//! The reference service's subcommands (`serve`, `keygen`, `certify`,
//! `root`, `sign`, `metrics`): their options, read into the service
//! library's plain values, and what they print.

use std::net::SocketAddr;
use std::path::PathBuf;

use x402_verdict_core::ed25519_dalek::VerifyingKey;
use x402_verdict_core::{encode_base64, BaseUrl, KeyId, Timestamp, DEFAULT_TIMEOUT_MS};
use x402_verdict_service::clock::{self, Clock};
use x402_verdict_service::metrics::commands::{self as metrics, MetricsCommandError};
use x402_verdict_service::recorder::LogConfig;
use x402_verdict_service::{keys, trust, ServeConfig, ServeError};

use crate::connections::{ConnectionArgs, ConnectionArgsError};
use crate::lookup::parse_base_url;
use crate::out::say;

/// Options of `serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8402")]
    pub listen: SocketAddr,
    /// The registry file (JSON: attestations and published verdicts).
    #[arg(long)]
    pub registry: PathBuf,
    /// The key file (written by `x402-verdict keygen`).
    #[arg(long)]
    pub keys: PathBuf,
    /// Also serve this folder's files at `/`, with a strict Content-Security-Policy.
    #[arg(long)]
    pub www: Option<PathBuf>,
    /// Also answer `GET /demo/paid` with 402 and this x402 v2 challenge (a demo paid resource).
    #[arg(long, value_name = "FILE")]
    pub demo_paid: Option<PathBuf>,
    /// Also answer `GET /discovery/resources` with this file's discovery
    /// items (a JSON list), paged as a facilitator does (a demo listing).
    #[arg(long, value_name = "FILE")]
    pub demo_discovery: Option<PathBuf>,
    /// The limits on the service's HTTP connections.
    #[command(flatten)]
    pub connections: ConnectionArgs,
    /// The operator file (JSON: operator, relatedParty, disclosure); without
    /// it, `/v0/metrics` is not published.
    #[arg(long)]
    pub operator: Option<PathBuf>,
    /// The folder of the verdict counts database (created on first start);
    /// without it, no count is kept.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Keep a transparency log of the verdicts' statements in this folder
    /// (tlog-tiles: served under /v0/log/, exportable as it is); every
    /// verdict then carries its proof (logProof).
    #[arg(long, value_name = "DIR", requires = "log_keys")]
    pub log: Option<PathBuf>,
    /// The log's key file (written by `x402-verdict keygen`): its current
    /// key signs the checkpoints.
    #[arg(long, value_name = "FILE", requires = "log")]
    pub log_keys: Option<PathBuf>,
    /// The log's origin, the name of its key (default `x402-verdict/<keyId>`).
    #[arg(long, value_name = "ORIGIN", requires = "log")]
    pub log_origin: Option<String>,
    /// A witness to ask for a cosignature of each checkpoint (its
    /// tlog-witness URL prefix); repeat for several.
    #[arg(long = "witness-url", value_name = "URL", value_parser = parse_base_url, requires = "log")]
    pub witness_urls: Vec<BaseUrl>,
    /// `--now`, in a build that can pin the service's clock.
    #[command(flatten)]
    pub now: PinnedClockArg,
}

/// `serve --now TIME`, offered by a build whose service crate can pin its
/// clock ([`clock::PINNABLE`]: the tests', whose dev-dependency on the
/// service turns its `pinned-clock` feature on) and by no other, so that a
/// release has no such option.
#[derive(Clone, Copy, Debug)]
pub struct PinnedClockArg(Option<Clock>);

/// The argument's name.
const NOW: &str = "now";

impl clap::FromArgMatches for PinnedClockArg {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let now = clock::PINNABLE
            .then(|| matches.get_one::<Clock>(NOW).copied())
            .flatten();
        Ok(PinnedClockArg(now))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for PinnedClockArg {
    fn augment_args(command: clap::Command) -> clap::Command {
        if !clock::PINNABLE {
            return command;
        }
        command.arg(
            clap::Arg::new(NOW)
                .long(NOW)
                .value_name("NOW")
                .value_parser(clock::parse_pinned)
                .help("Pins the service's clock to one RFC 3339 UTC time. For tests and the demo's metrics snapshot only (feature `pinned-clock`)"),
        )
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// Why `serve` stops: its options, or the service.
#[derive(Debug, thiserror::Error)]
pub enum ServeCommandError {
    /// The connection options do not fit together.
    #[error(transparent)]
    Connections(#[from] ConnectionArgsError),
    /// The service could not start, or could not save its last counts.
    #[error(transparent)]
    Serve(#[from] ServeError),
}

/// Checks the files, binds, prints `listening on http://ADDR`, and serves
/// until interrupted.
///
/// # Errors
///
/// One line naming the option, file, entry and field, or the address, that is wrong.
pub async fn serve(args: ServeArgs) -> Result<(), ServeCommandError> {
    let connections = args.connections.limits()?;
    let clock = args.now.0.unwrap_or(Clock::System);
    let config = ServeConfig {
        listen: args.listen,
        registry: args.registry,
        keys: args.keys,
        www: args.www,
        demo_paid: args.demo_paid,
        demo_discovery: args.demo_discovery,
        connections,
        operator: args.operator,
        data: args.data,
        clock,
        log: args.log.zip(args.log_keys).map(|(dir, keys)| LogConfig {
            dir,
            keys,
            origin: args.log_origin,
            witnesses: args.witness_urls,
        }),
    };
    let bound = x402_verdict_service::bind(config).await?;
    if let Some(key) = bound.log_key() {
        say!("log key {key}");
    }
    say!("listening on http://{}", bound.local_addr());
    Ok(bound.serve(x402_verdict_http::shutdown_signal()).await?)
}

/// Options of `keygen`.
#[derive(clap::Args, Debug)]
pub struct KeygenArgs {
    /// Where to write the key file.
    #[arg(long)]
    pub out: PathBuf,
    /// Rotate an existing key file: its current key becomes `previous`.
    #[arg(long, conflicts_with = "root")]
    pub rotate: bool,
    /// Write a root key file (root version 1) instead: the key consumers pin.
    #[arg(long)]
    pub root: bool,
}

/// Why `keygen` wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum KeygenCommandError {
    /// A key file.
    #[error(transparent)]
    Keys(#[from] keys::KeygenError),
    /// A root key file.
    #[error(transparent)]
    Root(#[from] trust::RootError),
}

/// Writes a new key file, or rotates one, or writes a root key file, and
/// prints the new keyId and public key.
///
/// # Errors
///
/// An existing file without `--rotate`, a missing or unreadable one with it.
pub fn keygen(args: &KeygenArgs) -> Result<(), KeygenCommandError> {
    let public = if args.root {
        trust::keygen_root(&args.out)?
    } else {
        keys::keygen(&args.out, args.rotate)?
    };
    print_key(&public);
    Ok(())
}

/// Prints a new key's `keyId` and `publicKey` lines.
fn print_key(public: &VerifyingKey) {
    say!("keyId {}", KeyId::of(public));
    say!("publicKey {}", encode_base64(public.as_bytes()));
}

/// Options of `sign`.
#[derive(clap::Args, Debug)]
pub struct SignArgs {
    /// The key file whose current key signs.
    #[arg(long)]
    pub keys: PathBuf,
    /// The verdict object to sign (a file, or `-` for standard input).
    #[arg(default_value = "-")]
    pub input: PathBuf,
}

/// Signs a verdict object offline and prints the document.
///
/// # Errors
///
/// An unreadable input, or a verdict that breaks the protocol's rules.
pub fn sign(args: &SignArgs) -> Result<(), keys::SignError> {
    let document = keys::sign(&args.keys, &args.input)?;
    say!("{document}");
    Ok(())
}

/// Options of `certify`.
#[derive(clap::Args, Debug)]
pub struct CertifyArgs {
    /// The root key file.
    #[arg(long)]
    pub root: PathBuf,
    /// The key file whose current key to certify; the certificate and the
    /// root versions are written into it.
    #[arg(long)]
    pub keys: PathBuf,
    /// The end of the certificate's validity (RFC 3339; default 90 days
    /// from now, at most a year).
    #[arg(long)]
    pub not_after: Option<String>,
}

/// Why `certify` wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// `--not-after` is not an RFC 3339 UTC time.
    #[error("--not-after must be an RFC 3339 UTC time such as 2027-03-01T00:00:00Z")]
    NotAfter,
    /// A file that cannot be used, or a window refused.
    #[error(transparent)]
    Root(#[from] trust::RootError),
}

/// Certifies the key file's current key under the root, from now to
/// `--not-after`, and prints its keyId, the certificate's end and the
/// root version that certified it.
///
/// # Errors
///
/// A `--not-after` that is no time, a file that cannot be used, or a
/// window refused.
pub fn certify(args: &CertifyArgs) -> Result<(), CertifyError> {
    let not_after = args
        .not_after
        .as_deref()
        .map(|text| Timestamp::parse_rfc3339(text).ok_or(CertifyError::NotAfter))
        .transpose()?;
    let certified = trust::certify(&args.root, &args.keys, not_after)?;
    say!("keyId {}", KeyId::of(&certified.key));
    say!("notAfter {}", certified.not_after.to_rfc3339());
    say!("rootVersion {}", certified.root_version);
    Ok(())
}

/// `root` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum RootCommand {
    /// Write root version N+1, signed by version N and by itself.
    Rotate(RotateArgs),
}

/// Options of `root rotate`.
#[derive(clap::Args, Debug)]
pub struct RotateArgs {
    /// The current root key file (version N).
    #[arg(long)]
    pub root: PathBuf,
    /// Where to write the new root key file (version N+1).
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs a `root` subcommand and prints the new root's keyId, public key
/// and version.
///
/// # Errors
///
/// A file that cannot be used or written.
pub fn root(command: &RootCommand) -> Result<(), trust::RootError> {
    let RootCommand::Rotate(args) = command;
    let (version, key) = trust::rotate_root(&args.root, &args.out)?;
    print_key(&key);
    say!("rootVersion {version}");
    Ok(())
}

/// The metrics commands.
#[derive(clap::Subcommand, Debug)]
pub enum MetricsCommand {
    /// Read a service's /v0/metrics and save it as a snapshot (atomically).
    Snapshot(SnapshotArgs),
    /// Write the static metrics page (index.html and its stylesheet) from a snapshot.
    Page(PageArgs),
}

/// Options of `metrics snapshot`.
#[derive(clap::Args, Debug)]
pub struct SnapshotArgs {
    /// The verification service's base URL.
    #[arg(long, value_parser = parse_base_url)]
    pub base_url: BaseUrl,
    /// The snapshot file to write (replaced only by a valid document).
    #[arg(long)]
    pub out: PathBuf,
    /// Whole-exchange timeout in milliseconds (1 to 60000).
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_MS, value_parser = x402_verdict_consumer::parse_timeout)]
    pub timeout_ms: u32,
}

/// Options of `metrics page`.
#[derive(clap::Args, Debug)]
pub struct PageArgs {
    /// The snapshot to render (written by `metrics snapshot`).
    #[arg(long)]
    pub snapshot: PathBuf,
    /// The folder to write index.html and metrics.css into (created if missing).
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs one metrics command and prints the file it wrote.
///
/// # Errors
///
/// One line saying what could not be read or written; nothing is then changed.
pub async fn run_metrics(command: &MetricsCommand) -> Result<(), MetricsCommandError> {
    match command {
        MetricsCommand::Snapshot(args) => {
            let written = metrics::snapshot(&args.base_url, &args.out, args.timeout_ms).await?;
            say!(
                "{}: published metrics as of {}",
                written.path.display(),
                written.metrics.as_of.last_date()
            );
        }
        MetricsCommand::Page(args) => {
            let written = metrics::page(&args.snapshot, &args.out)?;
            say!(
                "{}: the metrics page as of {}",
                written.path.display(),
                written.metrics.as_of.last_date()
            );
        }
    }
    Ok(())
}
