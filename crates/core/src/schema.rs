//! The JSON Schema of the structured result (the MCP tools'
//! `outputSchema`), written from the core's types: each enumeration is its
//! type's `ALL`, each bound the core's constant, so that no schema is kept
//! by hand beside the rules it describes.

use crate::evaluate::{Freshness, Outcome, Reason, State};
use crate::json::{Object, Value};
use crate::signing::SignatureStatus;
use crate::verdict::{ASSURANCE_LEVEL_PATTERN, MAX_RECHECK_EVERY_HOURS};

/// The members every result has, in the order the protocol lists them.
pub(crate) const REQUIRED: [&str; 4] = ["state", "outcome", "freshness", "signature"];

/// The JSON Schema of a serialized [`Evaluation`](crate::Evaluation), as
/// JSON text (RFC 8785 canonical form).
pub fn evaluation_schema() -> String {
    let text = |s: &str| Value::String(s.to_owned());
    let words = |words: &[&str]| Value::Array(words.iter().map(|w| text(w)).collect());
    let property = |kind: &str, description: &str, rules: Vec<(&str, Value)>| {
        let mut property = Object::new();
        property.insert("type", text(kind));
        property.insert("description", text(description));
        for (name, value) in rules {
            property.insert(name, value);
        }
        Value::Object(property)
    };
    let one_of = |description: &str, names: &[&str]| {
        property("string", description, vec![("enum", words(names))])
    };
    let properties = [
        (
            "state",
            one_of("The routing signal.", &State::ALL.map(State::as_str)),
        ),
        (
            "outcome",
            one_of(
                "The verdict's outcome, or why no verdict arrived.",
                &Outcome::ALL.map(Outcome::as_str),
            ),
        ),
        (
            "freshness",
            one_of(
                "Whether the last re-check is inside its promised cadence.",
                &Freshness::ALL.map(Freshness::as_str),
            ),
        ),
        (
            "signature",
            one_of(
                "The local strict Ed25519 check of the verdict's signature.",
                &SignatureStatus::ALL.map(SignatureStatus::as_str),
            ),
        ),
        (
            "assuranceLevel",
            property(
                "string",
                "The grade of a positive claim.",
                vec![("pattern", text(ASSURANCE_LEVEL_PATTERN))],
            ),
        ),
        (
            "verifiedAt",
            property(
                "string",
                "The last re-check (RFC 3339, UTC).",
                vec![("format", text("date-time"))],
            ),
        ),
        (
            "recheckEveryHours",
            property(
                "integer",
                "The promised re-check cadence.",
                vec![
                    ("minimum", Value::Integer(1)),
                    ("maximum", Value::Integer(MAX_RECHECK_EVERY_HOURS)),
                ],
            ),
        ),
        (
            "reason",
            one_of(
                "A stable code saying why the result is what it is.",
                &Reason::ALL.map(Reason::as_str),
            ),
        ),
        (
            "detail",
            property("string", "A one-line explanation for logs.", Vec::new()),
        ),
    ];
    let mut members = Object::new();
    for (name, schema) in properties {
        members.insert(name, schema);
    }
    let mut schema = Object::new();
    schema.insert("type", text("object"));
    schema.insert("properties", Value::Object(members));
    schema.insert("required", words(&REQUIRED));
    schema.insert("additionalProperties", Value::Bool(false));
    // Only integers: the canonical form always exists.
    schema.canonical().unwrap_or_default()
}
