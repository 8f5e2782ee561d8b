//! `keygen` and `sign`: the operator's key file and offline signing.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use x402_verdict_core::ed25519_dalek::VerifyingKey;
use x402_verdict_core::json::{Object, ObjectError, Value};
use x402_verdict_core::{sign_verdict_carrying, Timestamp, VerdictError};

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

/// Writes a new key file at `out`, or with `rotate` rotates the one
/// there (its current key becomes `previous`), and returns the new public
/// key.
///
/// # Errors
///
/// An existing file without `rotate`, a missing or unreadable one with it.
pub fn keygen(out: &Path, rotate: bool) -> Result<VerifyingKey, KeygenError> {
    let keys = if rotate {
        KeyFile::load(out)?.rotated()
    } else if out.exists() {
        return Err(KeygenError::Exists(out.to_owned()));
    } else {
        KeyFile::generate()
    };
    keys.save(out)?;
    Ok(keys.current.verifying_key())
}

/// Signs the verdict object in `input` (a file, or `-` for standard input)
/// offline with the current key of the key file `keys`, and returns the
/// document. `keyId` is set to the signing key's; `issuedAt` defaults to now.
///
/// # Errors
///
/// An unreadable input, or a verdict that breaks the protocol's rules.
pub fn sign(keys: &Path, input: &Path) -> Result<String, SignError> {
    let keys = KeyFile::load(keys)?;
    let mut text = Vec::new();
    let name = input.display().to_string();
    if name == "-" {
        std::io::stdin()
            .read_to_end(&mut text)
            .map_err(SignError::Stdin)?;
    } else {
        text = std::fs::read(input).map_err(|source| SignError::Unreadable {
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
    Ok(document)
}
