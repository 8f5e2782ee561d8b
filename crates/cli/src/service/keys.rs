//! `keygen` and `sign`: the operator's key file and offline signing.

use std::io::Read as _;
use std::path::PathBuf;
use std::time::SystemTime;

use x402_verdict_core::json::{Object, Value};
use x402_verdict_core::keys::encode_base64;
use x402_verdict_core::{sign_verdict, KeyId, Timestamp};

use super::keyfile::KeyFile;

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
    keys.save(&args.out).map_err(|e| e.to_string())?;
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
