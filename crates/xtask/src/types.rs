//! `verdict-types.d.ts`: the TypeScript unions of the core's closed
//! vocabularies (states, outcomes, freshness, signature statuses, reasons,
//! guard policies), from their `ALL` arrays.

use std::fmt::Write as _;

use x402_verdict_core::guard::Policy;
use x402_verdict_core::{Freshness, Outcome, Reason, SignatureStatus, State};

/// `"a" | "b" | …`: the spellings, in the core's order.
fn union(spellings: impl IntoIterator<Item = &'static str>) -> String {
    spellings
        .into_iter()
        .map(|s| format!("{s:?}"))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The declaration file.
pub fn declarations() -> String {
    let unions = [
        (
            "What a badge rendered.",
            "BadgeState",
            union(State::ALL.map(State::as_str)),
        ),
        (
            "What the lookup concluded (protocol section 5).",
            "Outcome",
            union(Outcome::ALL.map(Outcome::as_str)),
        ),
        (
            "Whether the last re-check is within its promised cadence.",
            "Freshness",
            union(Freshness::ALL.map(Freshness::as_str)),
        ),
        (
            "What the signature check found.",
            "SignatureStatus",
            union(SignatureStatus::ALL.map(SignatureStatus::as_str)),
        ),
        (
            "Why the result is what it is, when it is not plainly human-backed.",
            "Reason",
            union(Reason::ALL.map(Reason::as_str)),
        ),
        (
            "The guard's policy by name (`\"function\"`: the agent's own).",
            "PolicyName",
            union(Policy::ALL.map(Policy::as_str)),
        ),
    ];
    let mut out = String::from(
        "// Written by `cargo xtask generate types` (the core's spellings): do not edit.\n",
    );
    for (doc, name, union) in unions {
        let _ = write!(out, "\n/** {doc} */\nexport type {name} = {union};\n");
    }
    out
}
