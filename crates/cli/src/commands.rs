//! The small commands: `lookup`, `keygen` and `sign`.

use std::io::Read as _;
use std::path::PathBuf;
use std::time::SystemTime;

use x402_verdict_core::json::{Object, Value};
use x402_verdict_core::keys::{encode_base64, parse_public_key};
use x402_verdict_core::request::check_timeout_ms;
use x402_verdict_core::{
    sign_verdict, BaseUrl, Endpoint, KeyId, Timestamp, TrustedKeys, DEFAULT_TIMEOUT_MS,
};

use crate::keyfile::KeyFile;
use crate::verifier::Verifier;

/// Options of `lookup`.
#[derive(clap::Args, Debug)]
pub struct LookupArgs {
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
    pub public_keys: Vec<x402_verdict_core::ed25519_dalek::VerifyingKey>,
    /// Require a valid signature for a positive result.
    #[arg(long)]
    pub strict: bool,
    /// Whole-exchange timeout in milliseconds (1 to 60000).
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_MS, value_parser = parse_timeout)]
    pub timeout_ms: u32,
}

impl TrustArgs {
    /// A verifier against `base_url` under these settings.
    ///
    /// # Errors
    ///
    /// When the HTTP client cannot start.
    pub fn verifier(&self, base_url: Option<BaseUrl>) -> Result<Verifier, String> {
        let keys = TrustedKeys::from_keys(self.public_keys.iter().copied());
        Verifier::new(base_url, keys, self.strict, self.timeout_ms)
    }
}

pub(crate) fn parse_base_url(text: &str) -> Result<BaseUrl, String> {
    BaseUrl::parse(text).map_err(|e| e.to_string())
}

fn parse_key(text: &str) -> Result<x402_verdict_core::ed25519_dalek::VerifyingKey, String> {
    parse_public_key(text).map_err(|p| format!("the key {p}"))
}

pub(crate) fn parse_timeout(text: &str) -> Result<u32, String> {
    text.parse::<u64>()
        .map_err(|_| "must be a whole number".to_owned())
        .and_then(|ms| check_timeout_ms(ms).map_err(|e| e.to_string()))
}

/// Looks one endpoint up and prints the result. Every lookup result is an
/// answer (exit 0); only bad arguments are errors.
///
/// # Errors
///
/// An endpoint value that breaks the protocol's rules.
pub async fn lookup(args: LookupArgs) -> Result<(), String> {
    let endpoint =
        Endpoint::new(&args.chain, &args.pay_to, &args.resource_url).map_err(|e| e.to_string())?;
    let verifier = args.trust.verifier(Some(args.base_url))?;
    let result = verifier.check(endpoint).await;
    if args.json {
        let json = serde_json::to_string(&result).map_err(|e| e.to_string())?;
        println!("{json}");
    } else {
        println!("{}", result.text_line());
    }
    Ok(())
}

/// Options of `keygen`.
#[derive(clap::Args, Debug)]
pub struct KeygenArgs {
    /// Where to write the key file.
    #[arg(long)]
    pub out: PathBuf,
    /// Rotate an existing key file: its current key becomes `previous`.
    #[arg(long)]
    pub rotate: bool,
}

/// Writes a new key file, or rotates one, and prints the new keyId and public key.
///
/// # Errors
///
/// An existing file without `--rotate`, a missing or unreadable one with it.
pub fn keygen(args: KeygenArgs) -> Result<(), String> {
    let keys = if args.rotate {
        KeyFile::load(&args.out)?.rotated()
    } else if args.out.exists() {
        return Err(format!(
            "{}: already exists (pass --rotate to rotate it)",
            args.out.display()
        ));
    } else {
        KeyFile::generate()
    };
    keys.save(&args.out)?;
    let public = keys.current.verifying_key();
    println!("keyId {}", KeyId::of(&public));
    println!("publicKey {}", encode_base64(public.as_bytes()));
    Ok(())
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

/// Signs a verdict object offline and prints the document. `keyId` is set to
/// the signing key's; `issuedAt` defaults to now.
///
/// # Errors
///
/// An unreadable input, or a verdict that breaks the protocol's rules.
pub fn sign(args: SignArgs) -> Result<(), String> {
    let keys = KeyFile::load(&args.keys)?;
    let mut text = Vec::new();
    let name = args.input.display().to_string();
    if name == "-" {
        std::io::stdin()
            .read_to_end(&mut text)
            .map_err(|e| format!("standard input: {e}"))?;
    } else {
        text = std::fs::read(&args.input).map_err(|e| format!("{name}: {e}"))?;
    }
    let mut input = Object::parse(&text).map_err(|e| format!("{name}: {e}"))?;
    // Accept a bare verdict object or a document holding one.
    let mut verdict = match input.remove("verdict") {
        Some(Value::Object(inner)) => inner,
        Some(_) => return Err(format!("{name}: the verdict is not a JSON object")),
        None => input,
    };
    if verdict.get("issuedAt").is_none() {
        let now = Timestamp::from_system_time(SystemTime::now());
        verdict.insert("issuedAt", Value::String(now.to_rfc3339()));
    }
    let document = sign_verdict(verdict, &keys.current).map_err(|e| format!("{name}: {e}"))?;
    println!("{document}");
    Ok(())
}
