//! A verdict document of the registry's `published` list: served exactly as
//! it was signed, checked once at start.

use axum::body::Bytes;
use x402_verdict_core::json::Value;
use x402_verdict_core::{Endpoint, VerdictDocument, MAX_BODY_BYTES};

use super::rules::EntryRule;

/// A verdict document served exactly as it was signed.
#[derive(Clone, Debug)]
pub struct Published {
    /// The endpoint its verdict names.
    pub(super) endpoint: Endpoint,
    /// The document as served: serialized once, at start.
    pub document: Bytes,
    /// The parsed document, for checks at start.
    pub parsed: VerdictDocument,
}

/// Checks one entry of `published`.
pub(super) fn check_published(item: &Value) -> Result<Published, EntryRule> {
    let document = item.canonical().ok_or(EntryRule::UnsafeNumber)?;
    if document.len() > MAX_BODY_BYTES {
        return Err(EntryRule::TooLarge(document.len()));
    }
    let parsed = VerdictDocument::parse(document.as_bytes())?;
    let v = &parsed.verdict;
    let endpoint =
        Endpoint::new(&v.chain, &v.pay_to, &v.resource_url).map_err(EntryRule::VerdictEndpoint)?;
    Ok(Published {
        endpoint,
        document: Bytes::from(document),
        parsed,
    })
}
