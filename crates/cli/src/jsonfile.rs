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
    load(path).map(|(_, value)| value)
}

/// [`read_strict`], as a `serde_json` value.
///
/// # Errors
///
/// One line: the file, then what is wrong with it.
pub fn read(path: &Path) -> Result<serde_json::Value, String> {
    let (text, _) = load(path)?;
    serde_json::from_slice(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))
}

fn load(path: &Path) -> Result<(Vec<u8>, Value), String> {
    let at = |problem: String| format!("{}: {problem}", path.display());
    let text = fs::read(path).map_err(|e| at(e.to_string()))?;
    let value = parse_strict(&text).map_err(|e| at(format!("not strict JSON: {e}")))?;
    Ok((text, value))
}
