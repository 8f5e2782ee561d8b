//! Reading the service's own JSON files (the registry and the key file).

use std::fs;
use std::path::Path;

use serde_json::Value;

/// Reads `path` as one JSON document, refusing what the core's strict parser
/// refuses (duplicate member names at any depth, lone surrogates, invalid
/// UTF-8, deep nesting), so that no entry is silently dropped or merged.
///
/// # Errors
///
/// One line: the file, then what is wrong with it.
pub fn read(path: &Path) -> Result<Value, String> {
    let at = |problem: String| format!("{}: {problem}", path.display());
    let text = fs::read(path).map_err(|e| at(e.to_string()))?;
    x402_verdict_core::json::parse_strict(&text)
        .map_err(|e| at(format!("not strict JSON: {e}")))?;
    serde_json::from_slice(&text).map_err(|e| at(format!("not JSON: {e}")))
}
