//! Reading the service's own JSON files (the registry and the key file).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use x402_verdict_core::json::{parse_strict, ParseError, Value};

/// Why a JSON file cannot be read: the file, then what is wrong with it.
#[derive(Debug, thiserror::Error)]
pub enum JsonFileError {
    /// The operating system's error.
    #[error("{}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// Not one JSON document under the core's strict rules.
    #[error("{}: not strict JSON", path.display())]
    NotStrict {
        /// The file.
        path: PathBuf,
        /// The rule broken, and where.
        source: ParseError,
    },
    /// Strict JSON that `serde_json` still refuses.
    #[error("{}: not JSON", path.display())]
    NotJson {
        /// The file.
        path: PathBuf,
        /// What `serde_json` said.
        source: serde_json::Error,
    },
}

/// A file whose contents break a rule: the file, then the rule (its cause).
#[derive(Debug, thiserror::Error)]
#[error("{}", path.display())]
pub struct InvalidFile<R> {
    /// The file.
    pub path: PathBuf,
    /// The rule broken, and where.
    #[source]
    pub rule: R,
}

/// Reads `path` as one JSON document with the core's strict parser, which
/// refuses duplicate member names at any depth, lone surrogates, invalid
/// UTF-8 and deep nesting, so that no entry is silently dropped or merged.
///
/// # Errors
///
/// The file cannot be read, or is not strict JSON.
pub fn read_strict(path: &Path) -> Result<Value, JsonFileError> {
    strict(path, &bytes(path)?)
}

/// [`read_strict`], as a `serde_json` value.
///
/// # Errors
///
/// As [`read_strict`].
pub fn read(path: &Path) -> Result<serde_json::Value, JsonFileError> {
    parse(path, &bytes(path)?)
}

/// [`read`] of `text`, already read from `path` (the key file, read only
/// once its mode and size are checked).
///
/// # Errors
///
/// `text` is not strict JSON.
pub fn parse(path: &Path, text: &[u8]) -> Result<serde_json::Value, JsonFileError> {
    strict(path, text)?;
    serde_json::from_slice(text).map_err(|source| JsonFileError::NotJson {
        path: path.to_owned(),
        source,
    })
}

fn bytes(path: &Path) -> Result<Vec<u8>, JsonFileError> {
    fs::read(path).map_err(|source| JsonFileError::Unreadable {
        path: path.to_owned(),
        source,
    })
}

fn strict(path: &Path, text: &[u8]) -> Result<Value, JsonFileError> {
    parse_strict(text).map_err(|source| JsonFileError::NotStrict {
        path: path.to_owned(),
        source,
    })
}
