//! What an attestation covers (its `match` member): its URL exactly, its
//! path with any query, or its path and every path below it; and the key it
//! is indexed under.

use x402_verdict_core::endpoint::EndpointKey;
use x402_verdict_core::json::Value;
use x402_verdict_core::resource::path_span;
use x402_verdict_core::Endpoint;

/// How much an attestation covers (its `match` member).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// `"exact"` (the default): its `resourceUrl`, query included.
    Exact,
    /// `"path"`: the same scheme, host, port and path, with any query or none.
    Path,
    /// `"prefix"`: that path and every path below it at a `/` boundary.
    Prefix,
}

impl Coverage {
    /// The `match` values, as the registry spells them.
    const NAMES: [(&'static str, Coverage); 3] = [
        ("exact", Coverage::Exact),
        ("path", Coverage::Path),
        ("prefix", Coverage::Prefix),
    ];

    fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("exact", |(name, _)| name)
    }
}

/// Why an attestation's `match` cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoverageError {
    /// `match` is not a string.
    NotAString,
    /// `match` is a string other than `exact`, `path` and `prefix`.
    Unknown(String),
    /// A `path` or `prefix` attestation whose `resourceUrl` is not an
    /// `http://` or `https://` URL.
    NotHttp(Coverage),
    /// A `path` or `prefix` attestation whose `resourceUrl` has a query or
    /// a fragment (it covers any query).
    HasQuery(Coverage),
}

impl std::fmt::Display for CoverageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CoverageError::NotAString => f.write_str("match is not a string"),
            CoverageError::Unknown(value) => write!(
                f,
                "match \"{}\" is not \"exact\", \"path\" or \"prefix\"",
                value.escape_debug()
            ),
            CoverageError::NotHttp(c) => write!(
                f,
                "match \"{}\" needs an http:// or https:// resourceUrl",
                c.name()
            ),
            CoverageError::HasQuery(c) => write!(
                f,
                "resourceUrl has a query or fragment, but match \"{}\" covers any query",
                c.name()
            ),
        }
    }
}

impl std::error::Error for CoverageError {}

impl Coverage {
    /// The coverage an attestation's `match` member names (absent: exact).
    ///
    /// # Errors
    ///
    /// `match` is not a string, or not one of the three names.
    pub fn from_member(value: Option<&Value>) -> Result<Coverage, CoverageError> {
        match value {
            None => Ok(Coverage::Exact),
            Some(Value::String(name)) => Coverage::NAMES
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, c)| *c)
                .ok_or_else(|| CoverageError::Unknown(name.clone())),
            Some(_) => Err(CoverageError::NotAString),
        }
    }
}

/// The key of an attestation under its coverage: a path or prefix one
/// without its query, a prefix one without a trailing `/`.
pub(super) fn covered_key(
    endpoint: &Endpoint,
    coverage: Coverage,
) -> Result<EndpointKey, CoverageError> {
    let mut key = endpoint.key();
    if coverage == Coverage::Exact {
        return Ok(key);
    }
    let (_, end) = path_span(&key.resource_url).ok_or(CoverageError::NotHttp(coverage))?;
    if end < key.resource_url.len() {
        return Err(CoverageError::HasQuery(coverage));
    }
    if coverage == Coverage::Prefix && key.resource_url.ends_with('/') {
        key.resource_url.pop();
    }
    Ok(key)
}
