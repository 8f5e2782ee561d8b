//! `schema.json`: the browser extension's managed-policy schema
//! (Chromium's `storage.managed_schema`), the settings an organization may
//! set: an object under the settings' key with the settings' members
//! ([`x402_verdict_badge::buyer`]), each typed as an organization writes it,
//! and described in the extension's words.

use serde_json::{json, Map, Value};
use x402_verdict_badge::buyer::{SETTINGS_KEY, SETTINGS_MEMBERS};
use x402_verdict_badge::words::extension::{POLICY_DESCRIPTION, POLICY_TITLE};
use x402_verdict_core::transparency::Policy;

/// The JSON schema of the settings' member `name`.
///
/// # Panics
///
/// For a member this table does not type: a new member of the settings
/// needs its type here.
fn member(name: &str) -> Value {
    let keys = json!({ "type": "array", "items": { "type": "string" } });
    match name {
        "baseUrl" | "logKey" => json!({ "type": "string" }),
        "publicKey" | "rootKey" | "witnessKeys" => keys,
        "strict" => json!({ "type": "boolean" }),
        "witnessQuorum" => json!({ "type": "integer", "minimum": 0 }),
        "transparency" => json!({ "type": "string", "enum": Policy::ALL.map(Policy::as_str) }),
        _ => panic!("src/buyer.rs: the setting {name} has no type in crates/xtask/src/schema.rs"),
    }
}

/// The schema, as JSON text.
pub fn document() -> String {
    let members: Map<String, Value> = SETTINGS_MEMBERS
        .iter()
        .map(|&name| (name.to_owned(), member(name)))
        .collect();
    let schema = json!({
        "type": "object",
        "properties": {
            SETTINGS_KEY: {
                "title": POLICY_TITLE,
                "description": POLICY_DESCRIPTION,
                "type": "object",
                "properties": members,
            }
        }
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&schema).expect("a schema serializes")
    )
}
