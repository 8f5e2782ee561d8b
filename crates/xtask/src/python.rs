//! `_vocabulary.py`: the `Literal`s of the core's closed vocabularies that
//! the Python package's stubs (`_native.pyi`) type a lookup's result with,
//! and `PolicyName`, the guard's policies a `str` may name, from the core
//! (the TypeScript unions are `types`'s), so that no spelling is written by
//! hand.

use std::fmt::Write as _;

use x402_verdict_core::guard::Policy;
use x402_verdict_core::{Freshness, Outcome, SignatureStatus, State};

/// `Literal["a", "b", …]`: the spellings, in the core's order.
fn literal(spellings: impl IntoIterator<Item = &'static str>) -> String {
    let spellings: Vec<String> = spellings.into_iter().map(|s| format!("{s:?}")).collect();
    format!("Literal[{}]", spellings.join(", "))
}

/// The module.
pub fn module() -> String {
    let literals = [
        (
            "What a lookup concluded the badge shows.",
            "State",
            literal(State::ALL.map(State::as_str)),
        ),
        (
            "What the lookup concluded.",
            "Outcome",
            literal(Outcome::ALL.map(Outcome::as_str)),
        ),
        (
            "Whether the last re-check is within its promised cadence.",
            "Freshness",
            literal(Freshness::ALL.map(Freshness::as_str)),
        ),
        (
            "What the signature check found.",
            "SignatureStatus",
            literal(SignatureStatus::ALL.map(SignatureStatus::as_str)),
        ),
        (
            "The guard's policies a ``str`` may name (a callable is the agent's own).",
            "PolicyName",
            literal(
                Policy::ALL
                    .into_iter()
                    .filter(|policy| *policy != Policy::AgentFunction)
                    .map(Policy::as_str),
            ),
        ),
    ];
    let mut out = String::from(
        "# Written by `cargo xtask generate` (the core's spellings): do not edit.\n\
         \"\"\"The core's vocabularies, as the ``Literal`` types the package is typed with.\"\"\"\n\
         \n\
         from typing import Literal\n",
    );
    for (doc, name, literal) in literals {
        let _ = write!(out, "\n{name} = {literal}\n\"\"\"{doc}\"\"\"\n");
    }
    out
}
