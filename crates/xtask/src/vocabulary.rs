//! The core's closed vocabularies that the bindings' types spell out
//! (`verdict-types.d.ts`, `_vocabulary.py`): each named, described, and
//! its spellings in the core's order, from its `ALL` array.

use x402_verdict_core::guard::Policy;
use x402_verdict_core::transparency::Policy as Transparency;
use x402_verdict_core::{Freshness, Outcome, Reason, SignatureStatus, State};

/// One vocabulary.
pub struct Vocabulary {
    /// Its type's name in TypeScript.
    pub name: &'static str,
    /// What it says, one sentence.
    pub doc: &'static str,
    /// Its spellings, in the core's order.
    pub spellings: Vec<&'static str>,
}

/// Every vocabulary, the guard's and the transparency log's policies last.
pub fn all() -> [Vocabulary; 7] {
    let of = |name, doc, spellings: &[&'static str]| Vocabulary {
        name,
        doc,
        spellings: spellings.to_vec(),
    };
    [
        of(
            "BadgeState",
            "What a badge rendered.",
            &State::ALL.map(State::as_str),
        ),
        of(
            "Outcome",
            "What the lookup concluded (protocol section 5).",
            &Outcome::ALL.map(Outcome::as_str),
        ),
        of(
            "Freshness",
            "Whether the last re-check is within its promised cadence.",
            &Freshness::ALL.map(Freshness::as_str),
        ),
        of(
            "SignatureStatus",
            "What the signature check found.",
            &SignatureStatus::ALL.map(SignatureStatus::as_str),
        ),
        of(
            "Reason",
            "Why the result is what it is, when it is not plainly human-backed.",
            &Reason::ALL.map(Reason::as_str),
        ),
        of(
            "PolicyName",
            "The guard's policy by name (`\"function\"`: the agent's own).",
            &Policy::ALL.map(Policy::as_str),
        ),
        of(
            "TransparencyPolicy",
            "How a lookup takes the transparency proofs verdicts carry.",
            &Transparency::ALL.map(Transparency::as_str),
        ),
    ]
}
