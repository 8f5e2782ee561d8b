//! `keygen` and `sign`: the operator's key file and offline signing.

use std::io::Read as _;
use std::path::PathBuf;
use std::time::SystemTime;

use x402_verdict_core::json::{Object, ObjectError, Value};
use x402_verdict_core::{encode_base64, sign_verdict_carrying, KeyId, Timestamp, VerdictError};

use super::keyfile::{KeyFile, KeyFileError};
use super::secret_file::SecretFileError;

/// Why `keygen` wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum KeygenError {
    /// The key file to rotate cannot be used.
    #[error(transparent)]
    Load(#[from] KeyFileError),
    /// The file is there, and `--rotate` was not passed.
    #[error("{}: already exists (pass --rotate to rotate it)", .0.display())]
    Exists(PathBuf),
    /// The new key file cannot be written.
    #[error(transparent)]
    Save(#[from] SecretFileError),
    /// The root key file cannot be written.
    #[error(transparent)]
    Root(#[from] super::trust::RootError),
}

/// Why `sign` signed nothing. `name` is the input as given (`-` for
/// standard input).
#[derive(Debug, thiserror::Error)]
pub enum SignError {
    /// The key file cannot be used.
    #[error(transparent)]
    Keys(#[from] KeyFileError),
    /// Standard input cannot be read.
    #[error("standard input")]
    Stdin(#[source] std::io::Error),
    /// The input file cannot be read.
    #[error("{name}")]
    Unreadable {
        /// The input.
        name: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The input is not a strict JSON object.
    #[error("{name}")]
    NotAnObject {
        /// The input.
        name: String,
        /// What is wrong with it.
        source: ObjectError,
    },
    /// The input's `verdict` member is not an object.
    #[error("{0}: the verdict is not a JSON object")]
    VerdictNotAnObject(String),
    /// The verdict breaks the protocol's rules.
    #[error("{name}")]
    Verdict {
        /// The input.
        name: String,
        /// The rule broken.
        source: VerdictError,
    },
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

/// Writes a new key file, or rotates one, and prints the new keyId and public key.
///
/// # Errors
///
/// An existing file without `--rotate`, a missing or unreadable one with it.
pub fn keygen(args: KeygenArgs) -> Result<(), KeygenError> {
    if args.root {
        return Ok(super::trust::keygen_root(&args.out)?);
    }
    let keys = if args.rotate {
        KeyFile::load(&args.out)?.rotated()
    } else if args.out.exists() {
        return Err(KeygenError::Exists(args.out));
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
pub fn sign(args: SignArgs) -> Result<(), SignError> {
    let keys = KeyFile::load(&args.keys)?;
    let mut text = Vec::new();
    let name = args.input.display().to_string();
    if name == "-" {
        std::io::stdin()
            .read_to_end(&mut text)
            .map_err(SignError::Stdin)?;
    } else {
        text = std::fs::read(&args.input).map_err(|source| SignError::Unreadable {
            name: name.clone(),
            source,
        })?;
    }
    let mut input = Object::parse(&text).map_err(|source| SignError::NotAnObject {
        name: name.clone(),
        source,
    })?;
    // Accept a bare verdict object or a document holding one.
    let mut verdict = match input.remove("verdict") {
        Some(Value::Object(inner)) => inner,
        Some(_) => return Err(SignError::VerdictNotAnObject(name)),
        None => input,
    };
    if verdict.get("issuedAt").is_none() {
        let now = Timestamp::from_system_time(SystemTime::now());
        verdict.insert("issuedAt", Value::String(now.to_rfc3339()));
    }
    let carried = super::trust::carried(&keys);
    let document = sign_verdict_carrying(verdict, &keys.current, &carried)
        .map_err(|source| SignError::Verdict { name, source })?;
    println!("{document}");
    Ok(())
}
