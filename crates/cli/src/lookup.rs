//! `lookup`: one endpoint looked up, and the trust settings (keys, strict
//! mode, timeout) that `lookup`, `check` and the MCP server share.

use x402_verdict_core::ed25519_dalek::VerifyingKey;
use x402_verdict_core::transparency::{LogConfig, LogConfigError, LogSetting, LogSettings};
use x402_verdict_core::{
    parse_public_key, BaseUrl, BaseUrlError, Endpoint, EndpointError, KeyError, TrustedKeys,
    DEFAULT_TIMEOUT_MS,
};

use x402_verdict_consumer::{parse_timeout, HttpClientError, Verifier};

use crate::out::say;

/// A verification service and an endpoint, named on the command line
/// (`lookup`, `snippet`).
#[derive(clap::Args, Debug)]
pub struct EndpointArgs {
    /// The verification service's base URL.
    #[arg(long, value_parser = parse_base_url)]
    pub base_url: BaseUrl,
    /// The endpoint's network (`chain` from its 402 response).
    #[arg(long)]
    pub chain: String,
    /// The endpoint's payment address (`payTo`).
    #[arg(long)]
    pub pay_to: String,
    /// The endpoint's resource URL (never fetched).
    #[arg(long)]
    pub resource_url: String,
}

impl EndpointArgs {
    /// The endpoint named.
    ///
    /// # Errors
    ///
    /// A value that breaks the protocol's rules.
    pub fn endpoint(&self) -> Result<Endpoint, EndpointError> {
        Endpoint::new(&self.chain, &self.pay_to, &self.resource_url)
    }
}

/// Options of `lookup`.
#[derive(clap::Args, Debug)]
pub struct LookupArgs {
    /// The service and the endpoint.
    #[command(flatten)]
    pub endpoint: EndpointArgs,
    /// The keys, strictness and timeout of the lookup.
    #[command(flatten)]
    pub trust: TrustArgs,
    /// Print the structured result as JSON instead of the text line.
    #[arg(long)]
    pub json: bool,
}

/// How a lookup is judged: the keys trusted, strict mode, the timeout
/// (shared by `lookup` and `check`).
#[derive(clap::Args, Debug)]
pub struct TrustArgs {
    /// A trusted public key (raw 32 bytes, base64); repeat for several.
    #[arg(long = "public-key", value_parser = parse_key)]
    pub public_keys: Vec<VerifyingKey>,
    /// A pinned root key (raw 32 bytes, base64): a verdict verifies under
    /// the key its certificate certifies; repeat for several.
    #[arg(long = "root-key", value_parser = parse_key)]
    pub root_keys: Vec<VerifyingKey>,
    /// Require a valid signature for a positive result.
    #[arg(long)]
    pub strict: bool,
    /// Whole-exchange timeout in milliseconds (1 to 60000).
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_MS, value_parser = parse_timeout)]
    pub timeout_ms: u32,
    /// The transparency log's verifier key (`<origin>+<keyid>+<base64>`),
    /// whose proofs verdicts carry.
    #[arg(long = "log-key", value_name = "KEY")]
    pub log_key: Option<String>,
    /// A witness's verifier key (`<name>+<keyid>+<base64>`, type 0x04),
    /// whose cosignatures of the log's checkpoints count; repeat for several.
    #[arg(long = "witness", value_name = "KEY")]
    pub witnesses: Vec<String>,
    /// How many of the witnesses must cosign a checkpoint (default: 1 with
    /// witnesses, else 0).
    #[arg(long, value_name = "N")]
    pub witness_quorum: Option<u64>,
    /// How verdicts' transparency proofs are taken: not read (`off`, the
    /// default), checked when carried (`if-present`), or needed for a
    /// positive result (`required`).
    #[arg(long, value_parser = ["off", "if-present", "required"])]
    pub transparency: Option<String>,
}

impl TrustArgs {
    /// A verifier against `base_url` under these settings.
    ///
    /// # Errors
    ///
    /// Transparency settings that are not ones, or the HTTP client cannot start.
    pub fn verifier(&self, base_url: Option<BaseUrl>) -> Result<Verifier, TrustError> {
        Ok(Verifier::new(
            base_url,
            self.keys()?,
            self.strict,
            self.timeout_ms,
        )?)
    }

    /// The keys trusted: the public keys, with the root keys pinned, and
    /// the transparency log whose proofs verdicts must carry.
    ///
    /// # Errors
    ///
    /// Transparency settings that are not ones (`--log-key`, `--witness`,
    /// `--witness-quorum`, `--transparency`).
    pub fn keys(&self) -> Result<TrustedKeys, LogArgsError> {
        let roots = TrustedKeys::from_keys(self.root_keys.iter().copied());
        let log = LogConfig::from_settings(&LogSettings {
            log_key: self.log_key.as_deref(),
            witness_keys: self.witnesses.iter().map(String::as_str).collect(),
            witness_quorum: self.witness_quorum,
            transparency: self.transparency.as_deref(),
        })
        .map_err(LogArgsError)?;
        Ok(TrustedKeys::from_keys(self.public_keys.iter().copied())
            .with_roots(&roots)
            .with_log(log))
    }
}

/// A transparency setting that is not one, named by its flag (`--log-key
/// is not a note verifier key …`).
#[derive(Debug, thiserror::Error)]
#[error("{}", .0.line_naming(flag))]
pub struct LogArgsError(LogConfigError);

/// The flag of a transparency setting.
fn flag(setting: LogSetting) -> &'static str {
    match setting {
        LogSetting::LogKey => "--log-key",
        LogSetting::WitnessKeys => "--witness",
        LogSetting::WitnessQuorum => "--witness-quorum",
        LogSetting::Transparency => "--transparency",
    }
}

/// Why a verifier cannot be made from the trust settings.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    /// A transparency setting is not one.
    #[error(transparent)]
    Log(#[from] LogArgsError),
    /// The HTTP client cannot start.
    #[error(transparent)]
    Client(#[from] HttpClientError),
}

/// `--public-key`'s or `--root-key`'s value that is not a key (`the key is not base64`: the
/// rule completes this level's sentence; it is no cause of its own).
#[derive(Debug, thiserror::Error)]
#[error("the key {0}")]
pub struct PublicKeyArgError(KeyError);

/// Why `lookup` refuses its arguments.
#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    /// The endpoint breaks the protocol's rules.
    #[error(transparent)]
    Endpoint(#[from] EndpointError),
    /// The trust settings make no verifier.
    #[error(transparent)]
    Trust(#[from] TrustError),
    /// The result cannot be written as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// Parses a verification service's base URL (`--base-url`).
///
/// # Errors
///
/// Not an absolute `http://` or `https://` URL.
pub(crate) fn parse_base_url(text: &str) -> Result<BaseUrl, BaseUrlError> {
    BaseUrl::parse(text)
}

pub(crate) fn parse_key(text: &str) -> Result<VerifyingKey, PublicKeyArgError> {
    parse_public_key(text).map_err(PublicKeyArgError)
}

/// Looks one endpoint up and prints the result. Every lookup result is an
/// answer (exit 0); only bad arguments are errors.
///
/// # Errors
///
/// An endpoint value that breaks the protocol's rules.
pub async fn lookup(args: LookupArgs) -> Result<(), LookupError> {
    let endpoint = args.endpoint.endpoint()?;
    let verifier = args.trust.verifier(Some(args.endpoint.base_url))?;
    let result = verifier.check(endpoint).await;
    if args.json {
        let json = serde_json::to_string(&result)?;
        say!("{json}");
    } else {
        say!("{}", result.text_line());
    }
    Ok(())
}
