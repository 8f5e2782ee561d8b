//! Reading the service's own JSON files (the registry and the key file).

use std::fs;
use std::path::Path;

use x402_verdict_core::json::{parse_strict, Value};

/// Reads `path` as one JSON document with the core's strict parser, which
/// refuses duplicate member names at any depth, lone surrogates, invalid
/// UTF-8 and deep nesting, so that no entry is silently dropped or merged.
///
/// # Errors
///
/// One line: the file, then what is wrong with it.
pub fn read_strict(path: &Path) -> Result<Value, String> {
    strict(path, &bytes(path)?)
}

/// [`read_strict`], as a `serde_json` value.
///
/// # Errors
///
/// One line: the file, then what is wrong with it.
pub fn read(path: &Path) -> Result<serde_json::Value, String> {
    parse(path, &bytes(path)?)
}

/// [`read`] of `text`, already read from `path` (the key file, read only
/// once its mode and size are checked).
///
/// # Errors
///
/// One line: the file, then what is wrong with it.
pub fn parse(path: &Path, text: &[u8]) -> Result<serde_json::Value, String> {
    strict(path, text)?;
    serde_json::from_slice(text).map_err(|e| format!("{}: not JSON: {e}", path.display()))
}

fn bytes(path: &Path) -> Result<Vec<u8>, String> {
    fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn strict(path: &Path, text: &[u8]) -> Result<Value, String> {
    parse_strict(text).map_err(|e| format!("{}: not strict JSON: {e}", path.display()))
}
