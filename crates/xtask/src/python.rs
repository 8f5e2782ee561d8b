//! `_vocabulary.py`: the `Literal`s of the core's closed vocabularies that
//! the Python package's stubs (`_native.pyi`) type a lookup's result with,
//! and `PolicyName`, the guard's policies a `str` may name, from the core
//! (the TypeScript unions are `types`'s), so that no spelling is written by
//! hand.

use std::fmt::Write as _;

use x402_verdict_core::guard::Policy;

/// The vocabularies the stubs type (a lookup's result, the `Verifier`'s
/// transparency policy), by their TypeScript name and their Python name.
const RESULT: [(&str, &str); 5] = [
    ("BadgeState", "State"),
    ("Outcome", "Outcome"),
    ("Freshness", "Freshness"),
    ("SignatureStatus", "SignatureStatus"),
    ("TransparencyPolicy", "TransparencyPolicy"),
];

/// `Literal["a", "b", …]`: the spellings, in the core's order.
fn literal(spellings: impl IntoIterator<Item = &'static str>) -> String {
    let spellings: Vec<String> = spellings.into_iter().map(|s| format!("{s:?}")).collect();
    format!("Literal[{}]", spellings.join(", "))
}

/// The module: the result's vocabularies, then `PolicyName`, the policies a
/// `str` may name (not the agent's own function).
pub fn module() -> String {
    let mut out = String::from(
        "# Written by `cargo xtask generate` (the core's spellings): do not edit.\n\
         \"\"\"The core's vocabularies, as the ``Literal`` types the package is typed with.\"\"\"\n\
         \n\
         from typing import Literal\n",
    );
    for vocabulary in crate::vocabulary::all() {
        let spellings = vocabulary.spellings.into_iter();
        let (name, doc, spellings): (&str, &str, Vec<&str>) = match vocabulary.name {
            "PolicyName" => (
                "PolicyName",
                "The guard's policies a ``str`` may name (a callable is the agent's own).",
                spellings
                    .filter(|s| *s != Policy::AgentFunction.as_str())
                    .collect(),
            ),
            ts => match RESULT.iter().find(|(known, _)| *known == ts) {
                Some(&(_, python)) => (python, vocabulary.doc, spellings.collect()),
                None => continue,
            },
        };
        let _ = write!(
            out,
            "\n{name} = {}\n\"\"\"{doc}\"\"\"\n",
            literal(spellings)
        );
    }
    out
}
