//! A verdict that stands in for a request: inlined in the page (protocol
//! section "A verdict inlined in the page": the signed document a seller's
//! server fetched from the verification service and wrote into its page,
//! `data-verdict` or the `verdict` option) or stapled to the seller's 402
//! (section "Verdicts stapled to the 402", [`crate::staple`]).
//!
//! Either way the document comes from the seller, the party the verdict
//! judges, so it is read as a fetched verdict is (the same bounds, strict
//! parse, endpoint binding, keys and strictness) and used only when nothing
//! about it rests on the seller's word: its signature is `valid` under the
//! consumer's keys, and it was issued at most [`MAX_INLINED_AGE_SECONDS`]
//! ago. Anything else (larger than a fetched body may be, older,
//! unreadable, about another endpoint, unsigned, under an unknown key, a
//! failed signature) asks the service as if nothing were given, so that
//! such a verdict never counts for more than a fetched one. The inlined and
//! the stapled path both go through [`Lookup::evaluate_inlined`].

use crate::evaluate::{Evaluation, Lookup};
use crate::request::MAX_BODY_BYTES;
use crate::signing::SignatureStatus;
use crate::time::Timestamp;
use crate::verdict::VerdictDocument;

/// The oldest an inlined (or stapled) verdict may be, by its signed
/// `issuedAt`, and still stand in for a request: 300 seconds. A seller
/// whose attestation is withdrawn can go on inlining the last verdict it
/// was given, validly signed; this bounds for how long that replay works,
/// so that a revocation reaches every visitor within five minutes (plus
/// the consumer's clock error, as for every time the badge reads). A
/// seller's server that keeps its verdicts per the service's
/// `Cache-Control` (the reference service's `max-age` is 60 s) inlines
/// verdicts well inside it.
pub const MAX_INLINED_AGE_SECONDS: i64 = 300;

impl Lookup {
    /// The result of the verdict `text` given in place of a request
    /// (inlined in the page, or stapled to the 402: its JSON text) at time
    /// `now`, when it may stand in for one: at most [`MAX_BODY_BYTES`]
    /// (the bound of a fetched body; nesting is bounded by the strict
    /// parse, as for a fetched one), a valid document about this endpoint,
    /// issued at most [`MAX_INLINED_AGE_SECONDS`] before `now` (and not
    /// past the clock skew after it), whose signature is `valid`; the
    /// result is then exactly what the same document fetched gives.
    /// `None`: look the endpoint up as if nothing were given.
    pub fn evaluate_inlined(&self, text: &str, now: Timestamp) -> Option<Evaluation> {
        if text.len() > MAX_BODY_BYTES {
            return None;
        }
        let document = VerdictDocument::parse(text.as_bytes()).ok()?;
        if document.verdict.issued_at < now.plus_seconds(-MAX_INLINED_AGE_SECONDS) {
            return None;
        }
        // A verdict issued in the future, or about another endpoint, carries
        // no checked signature.
        let result = self.evaluate_document(&document, now);
        (result.signature == SignatureStatus::Valid).then_some(result)
    }

    /// The last second at which `text` still stands in for a request
    /// ([`Lookup::evaluate_inlined`]), when it does at `now`: it goes on
    /// doing so until it is [`MAX_INLINED_AGE_SECONDS`] old, and never
    /// after. How long a seller's server may go on inlining or stapling it
    /// without asking the core again.
    pub fn inlined_until(&self, text: &str, now: Timestamp) -> Option<Timestamp> {
        self.evaluate_inlined(text, now)?;
        let document = VerdictDocument::parse(text.as_bytes()).ok()?;
        Some(
            document
                .verdict
                .issued_at
                .plus_seconds(MAX_INLINED_AGE_SECONDS),
        )
    }
}
