//! Prints the TypeScript unions of the core's closed vocabularies (states,
//! outcomes, freshness, signature statuses, reasons, guard policies) from
//! their `ALL` arrays, as a declaration file that the packages' types
//! import (`scripts/build.sh` writes it into each package as
//! `verdict-types.d.ts`), so that no union is written by hand:
//!
//! ```sh
//! cargo run -q -p x402-verdict-core --example typescript-unions > pkg/verdict-types.d.ts
//! ```

use x402_verdict_core::guard::Policy;
use x402_verdict_core::signing::SignatureStatus;
use x402_verdict_core::{Freshness, Outcome, Reason, State};

/// `"a" | "b" | …`: the spellings, in the core's order.
fn union(spellings: impl IntoIterator<Item = &'static str>) -> String {
    spellings
        .into_iter()
        .map(|s| format!("{s:?}"))
        .collect::<Vec<_>>()
        .join(" | ")
}

fn main() {
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
    println!(
        "// Written by crates/core/examples/typescript-unions.rs (the core's spellings): do not edit."
    );
    for (doc, name, union) in unions {
        println!("\n/** {doc} */\nexport type {name} = {union};");
    }
}
