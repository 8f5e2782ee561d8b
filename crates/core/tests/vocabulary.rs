//! One wire vocabulary: the spellings the core defines (states, outcomes,
//! freshness, signature statuses, reasons, option names, the
//! `recheckEveryHours` range) are the ones the package's TypeScript types,
//! the MCP output schema, the JavaScript entry and fallback and the README
//! and protocol tables use. Changing a spelling in one place only fails here.

use serde_json::Value;
use x402_verdict_core::options::OPTION_NAMES;
use x402_verdict_core::verdict::{Rule, MAX_RECHECK_EVERY_HOURS};
use x402_verdict_core::{Freshness, Outcome, Reason, SignatureStatus, State, EVALUATION_SCHEMA};

const TYPES: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../src/lib.rs"));
const README: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"));
const PROTOCOL: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/protocol.md"
));
const ENTRY: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../js/index.js"));
const FALLBACK: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../js/fallback.js"));

/// Every field of the structured result with a closed set of values, and
/// those values as the core spells them.
fn closed_fields() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("state", State::ALL.map(State::as_str).to_vec()),
        ("outcome", Outcome::ALL.map(Outcome::as_str).to_vec()),
        ("freshness", Freshness::ALL.map(Freshness::as_str).to_vec()),
        (
            "signature",
            SignatureStatus::ALL.map(SignatureStatus::as_str).to_vec(),
        ),
        ("reason", Reason::ALL.map(Reason::as_str).to_vec()),
    ]
}

/// The `"…"` strings of a TypeScript union.
fn union(line: &str) -> Vec<&str> {
    line.split('"').skip(1).step_by(2).collect()
}

/// The line of `text` that starts with `start` (after indentation).
fn line_starting<'a>(text: &'a str, start: &str) -> &'a str {
    text.lines()
        .map(str::trim_start)
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starts with {start:?}"))
}

#[test]
fn the_output_schema_lists_the_core_spellings() {
    let schema: Value = serde_json::from_str(EVALUATION_SCHEMA).unwrap();
    for (field, values) in closed_fields() {
        assert_eq!(
            schema["properties"][field]["enum"],
            serde_json::json!(values),
            "{field}"
        );
    }
}

#[test]
fn the_typescript_types_list_the_core_spellings() {
    for (field, values) in closed_fields() {
        let line = match field {
            "state" => line_starting(TYPES, "export type BadgeState ="),
            "reason" => line_starting(TYPES, "reason?: \""),
            _ => line_starting(TYPES, &format!("{field}: \"")),
        };
        assert_eq!(union(line), values, "{field}");
    }
    assert!(line_starting(TYPES, "state: ").contains("BadgeState"));
    for name in OPTION_NAMES {
        assert!(
            TYPES.contains(&format!("  {name}: ")) || TYPES.contains(&format!("  {name}?: ")),
            "BadgeOptions lacks {name}"
        );
    }
}

#[test]
fn the_protocol_and_readme_tables_list_the_core_spellings() {
    for (field, values) in closed_fields().into_iter().filter(|(f, _)| *f != "reason") {
        // The evaluation table, the last in the page to list the field.
        let start = format!("| `{field}` | `");
        let row = PROTOCOL.lines().rfind(|l| l.starts_with(&start)).unwrap();
        let cells: Vec<&str> = row
            .split('|')
            .nth(2)
            .unwrap()
            .split('`')
            .skip(1)
            .step_by(2)
            .collect();
        assert_eq!(cells, values, "docs/protocol.md, {field}");
    }
    let states: Vec<&str> = State::ALL.map(State::as_str).to_vec();
    for state in &states {
        line_starting(README, &format!("| {state} | "));
    }
    for name in OPTION_NAMES {
        line_starting(README, &format!("| `{name}` | "));
    }
}

#[test]
fn the_javascript_entry_reads_the_core_option_names() {
    let fields = line_starting(ENTRY, "const FIELDS = [");
    let listed = union(fields);
    for name in OPTION_NAMES {
        assert!(listed.contains(&name), "js/index.js FIELDS lacks {name}");
    }
}

#[test]
fn the_protocol_and_the_fallback_use_every_reason() {
    for reason in Reason::ALL.map(Reason::as_str) {
        assert!(
            PROTOCOL.contains(&format!("`{reason}`")),
            "docs/protocol.md never names the reason {reason}"
        );
        // The fallback cannot check a signature, so it never finds one invalid.
        if reason != "signature_invalid" {
            assert!(
                FALLBACK.contains(&format!("\"{reason}\"")),
                "js/fallback.js never gives the reason {reason}"
            );
        }
    }
}

#[test]
fn the_recheck_range_is_the_core_range() {
    let max = MAX_RECHECK_EVERY_HOURS;
    let schema: Value = serde_json::from_str(EVALUATION_SCHEMA).unwrap();
    assert_eq!(schema["properties"]["recheckEveryHours"]["minimum"], 1);
    assert_eq!(schema["properties"]["recheckEveryHours"]["maximum"], max);
    let words = format!("an integer from 1 to {max}");
    assert!(Rule::NotHoursInRange.as_str().contains(&words));
    assert!(FALLBACK.contains(&format!("hours >= 1 && hours <= {max})")));
    assert!(FALLBACK.contains(&words), "js/fallback.js detail");
    assert!(PROTOCOL.contains(&format!("an integer 1 to {max}")));
}
