//! Verdicts stapled to the 402 (protocol section "Verdicts stapled to the
//! 402"): a seller's server puts the signed verdicts of its own endpoints
//! into its x402 v2 `PaymentRequired`, as the x402 extension
//! [`EXTENSION_KEY`]:
//!
//! ```json
//! "extensions": { "x402-verdict": {
//!   "info": { "verdicts": [ { "verdict": { … }, "signature": "…" } ] },
//!   "schema": { … } } }
//! ```
//!
//! `info.verdicts` holds verdict documents exactly as the service returned
//! them (as JSON objects), one per accepted option the seller has one for,
//! in any order; `schema` is the JSON Schema of `info`.
//! A consumer matches a document to an option by the endpoint its verdict
//! names, under the matching rule of every lookup ([`Endpoint::key`]: chain
//! aliases, the `payTo` rule, the normalized resource URL), and takes it
//! under exactly the rule of an inlined verdict
//! ([`Lookup::evaluate_inlined`](crate::Lookup::evaluate_inlined): the
//! bounds of a fetched body, a valid signature under the consumer's keys,
//! at most 300 s old), or else looks the endpoint up as if nothing were
//! stapled. Reading a staple never fails: a staple past the bounds
//! ([`MAX_STAPLED_VERDICTS`] documents, [`MAX_BODY_BYTES`] each) is
//! ignored, a document that names no endpoint is skipped, and x402 v1 (no
//! `extensions`) staples nothing.

use crate::bounds::MAX_OPTIONS;
use crate::ed25519::KEY_ID_PATTERN;
use crate::endpoint::{Endpoint, EndpointKey, MAX_FIELD_BYTES};
use crate::json::{parse_strict, Object, Value};
use crate::request::MAX_BODY_BYTES;
use crate::verdict::names::{
    ASSURANCE_LEVEL, CHAIN, ISSUED_AT, KEY_ID, OUTCOME, PAY_TO, RECHECK_EVERY_HOURS, RESOURCE_URL,
    V, VERIFIED_AT,
};
use crate::verdict::{WireOutcome, ASSURANCE_LEVEL_PATTERN, MAX_RECHECK_EVERY_HOURS};

/// The extension's key in a `PaymentRequired`'s `extensions`, and the name
/// under which a route declares it.
pub const EXTENSION_KEY: &str = "x402-verdict";

/// The member of an x402 extension that holds its data (x402 v2's `info`).
pub(crate) const INFO: &str = "info";

/// The member of an x402 extension that holds the JSON Schema of its `info`.
pub(crate) const SCHEMA: &str = "schema";

/// The member of `info` listing the stapled verdict documents.
pub const VERDICTS: &str = "verdicts";

/// The most documents a staple may list: one per accepted option a
/// challenge may have ([`MAX_OPTIONS`]). A staple listing more is ignored
/// whole.
pub const MAX_STAPLED_VERDICTS: usize = MAX_OPTIONS;

/// Where the verdict of a result came from: stapled to the 402, or looked
/// up (fetched) as without a staple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A document stapled to the 402 stood in for the request.
    Stapled,
    /// The endpoint was looked up at the service (whatever that gave).
    Fetched,
}

impl Source {
    /// The wire spelling (`stapled`, `fetched`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Source::Stapled => "stapled",
            Source::Fetched => "fetched",
        }
    }
}

/// The member that says a result's [`Source`] where a consumer lists
/// results per option (`check --json`).
pub const SOURCE_MEMBER: &str = "verdictFrom";

/// The verdict documents stapled to one `PaymentRequired`, each as its JSON
/// text (RFC 8785 canonical form: what [`Lookup::evaluate_inlined`](crate::Lookup::evaluate_inlined)
/// reads) beside the endpoint its verdict names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Staple {
    documents: Vec<(EndpointKey, String)>,
}

impl Staple {
    /// The documents stapled to `payment_required` (a `PaymentRequired`
    /// object, as read from any form): none for x402 v1, for a staple
    /// listing more than [`MAX_STAPLED_VERDICTS`], or when there is none;
    /// each document that is an object of at most [`MAX_BODY_BYTES`] of
    /// JSON, whose verdict names an endpoint (three strings that follow the
    /// endpoint rules), in the staple's order. Nothing else of a document
    /// is checked here: that is [`Lookup::evaluate_inlined`](crate::Lookup::evaluate_inlined)'s.
    pub fn read(payment_required: &Value) -> Self {
        let documents = stapled_list(payment_required)
            .map(|items| items.iter().filter_map(document).collect())
            .unwrap_or_default();
        Staple { documents }
    }

    /// The JSON text of the first document stapled for `endpoint` (its
    /// verdict names it under the matching rule of every lookup), if any.
    pub fn verdict_for(&self, endpoint: &Endpoint) -> Option<&str> {
        let key = endpoint.key();
        let found = self.documents.iter().find(|(named, _)| *named == key);
        found.map(|(_, text)| text.as_str())
    }

    /// How many documents were read.
    pub fn len(&self) -> usize {
        self.documents.len()
    }

    /// Whether no document was read.
    pub fn is_empty(&self) -> bool {
        self.documents.is_empty()
    }
}

/// `info.verdicts` of the extension, when `value` is an x402 v2
/// `PaymentRequired` that has one within [`MAX_STAPLED_VERDICTS`].
fn stapled_list(value: &Value) -> Option<&[Value]> {
    if value.get("x402Version") != Some(&Value::Integer(2)) {
        return None;
    }
    let extension = value.get("extensions")?.get(EXTENSION_KEY)?;
    let list = extension.get(INFO)?.get(VERDICTS)?.as_array()?;
    (list.len() <= MAX_STAPLED_VERDICTS).then_some(list)
}

/// One stapled document, when it is an object within the bounds whose
/// verdict names an endpoint: that endpoint's key, and the document's
/// canonical JSON text.
fn document(item: &Value) -> Option<(EndpointKey, String)> {
    // Measured before it is written, so that a huge one is never copied.
    if !matches!(item, Value::Object(_)) || least_json_bytes(item) > MAX_BODY_BYTES {
        return None;
    }
    let verdict = item.get("verdict")?;
    let member = |name| verdict.get(name).and_then(Value::as_str);
    let endpoint = Endpoint::new(member(CHAIN)?, member(PAY_TO)?, member(RESOURCE_URL)?).ok()?;
    let text = item.canonical()?;
    (text.len() <= MAX_BODY_BYTES).then(|| (endpoint.key(), text))
}

/// At most as many bytes as `value`'s JSON text has: its strings' and
/// names' bytes.
fn least_json_bytes(value: &Value) -> usize {
    match value {
        Value::String(text) => text.len(),
        Value::Array(items) => items
            .iter()
            .fold(0, |sum, item| sum.saturating_add(least_json_bytes(item))),
        Value::Object(object) => object.names().zip(object.values()).fold(0, |sum, (n, v)| {
            sum.saturating_add(n.len())
                .saturating_add(least_json_bytes(v))
        }),
        _ => 0,
    }
}

/// The extension's value for a 402 (`extensions["x402-verdict"]`), as JSON
/// text: `{"info": {"verdicts": [...]}, "schema": …}` with each of
/// `documents` (verdict documents' JSON text, as the service returned
/// them) that is strict JSON, an object, at most [`MAX_BODY_BYTES`], and
/// has a canonical form; at most [`MAX_STAPLED_VERDICTS`] of them, the
/// first ones. What a seller's server staples.
pub fn extension<'a>(documents: impl IntoIterator<Item = &'a str>) -> String {
    let verdicts = documents
        .into_iter()
        .filter(|text| text.len() <= MAX_BODY_BYTES)
        .filter_map(|text| parse_strict(text.as_bytes()).ok())
        .filter(|value| matches!(value, Value::Object(_)) && value.canonical().is_some())
        .take(MAX_STAPLED_VERDICTS)
        .collect();
    let mut info = Object::new();
    info.insert(VERDICTS, Value::Array(verdicts));
    let mut extension = Object::new();
    extension.insert(INFO, Value::Object(info));
    extension.insert(SCHEMA, info_schema_value());
    // Every part has a canonical form (checked above).
    extension.canonical().unwrap_or_default()
}

/// The JSON Schema of the extension's `info`, written from the core's
/// rules: the members of a verdict, its outcomes, patterns and bounds.
fn info_schema_value() -> Value {
    let text = |s: &str| Value::String(s.to_owned());
    let words = |words: &[&str]| Value::Array(words.iter().map(|w| text(w)).collect());
    let object = |members: Vec<(&str, Value)>| {
        let mut object = Object::new();
        for (name, value) in members {
            object.insert(name, value);
        }
        Value::Object(object)
    };
    let string = |rules: Vec<(&str, Value)>| {
        let mut rules = rules;
        rules.push(("type", text("string")));
        object(rules)
    };
    let field = || {
        string(vec![
            ("minLength", Value::Integer(1)),
            ("maxLength", Value::Integer(MAX_FIELD_BYTES as i64)),
        ])
    };
    let time = || string(vec![("format", text("date-time"))]);
    let verdict = object(vec![
        ("type", text("object")),
        (
            "properties",
            object(vec![
                (V, object(vec![("const", Value::Integer(1))])),
                (CHAIN, field()),
                (PAY_TO, field()),
                (RESOURCE_URL, field()),
                (
                    OUTCOME,
                    string(vec![(
                        "enum",
                        words(&WireOutcome::ALL.map(WireOutcome::as_str)),
                    )]),
                ),
                (
                    ASSURANCE_LEVEL,
                    string(vec![("pattern", text(ASSURANCE_LEVEL_PATTERN))]),
                ),
                (VERIFIED_AT, time()),
                (
                    RECHECK_EVERY_HOURS,
                    object(vec![
                        ("type", text("integer")),
                        ("minimum", Value::Integer(1)),
                        ("maximum", Value::Integer(MAX_RECHECK_EVERY_HOURS)),
                    ]),
                ),
                (ISSUED_AT, time()),
                (KEY_ID, string(vec![("pattern", text(KEY_ID_PATTERN))])),
            ]),
        ),
        (
            "required",
            words(&[V, CHAIN, PAY_TO, RESOURCE_URL, OUTCOME, ISSUED_AT, KEY_ID]),
        ),
    ]);
    let document = object(vec![
        ("type", text("object")),
        (
            "properties",
            object(vec![
                ("verdict", verdict),
                ("signature", string(Vec::new())),
            ]),
        ),
        ("required", words(&["verdict", "signature"])),
    ]);
    let verdicts = object(vec![
        ("type", text("array")),
        (
            "description",
            text("Signed verdicts of the verification service, as it returned them: one per accepted option it has one for, in any order."),
        ),
        ("maxItems", Value::Integer(MAX_STAPLED_VERDICTS as i64)),
        ("items", document),
    ]);
    object(vec![
        (
            "$schema",
            text("https://json-schema.org/draft/2020-12/schema"),
        ),
        ("type", text("object")),
        ("properties", object(vec![(VERDICTS, verdicts)])),
        ("required", words(&[VERDICTS])),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schema as the extension carries it: JSON text, canonical.
    fn info_schema() -> String {
        info_schema_value().canonical().unwrap()
    }

    fn document_text(resource: &str) -> String {
        format!(
            r#"{{"verdict":{{"v":1,"chain":"base","payTo":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C","resourceUrl":"{resource}","outcome":"no_signal","issuedAt":"2026-09-01T08:00:00Z","keyId":"0000000000000000"}},"signature":"AA=="}}"#
        )
    }

    fn challenge(version: i64, verdicts: &[String]) -> Value {
        let text = format!(
            r#"{{"x402Version":{version},"extensions":{{"x402-verdict":{{"info":{{"verdicts":[{}]}}}}}}}}"#,
            verdicts.join(",")
        );
        parse_strict(text.as_bytes()).unwrap()
    }

    fn endpoint(chain: &str, resource: &str) -> Endpoint {
        let pay_to = "0x209693bc6afc0c5328ba36faf03c514ef312287c";
        Endpoint::new(chain, pay_to, resource).unwrap()
    }

    #[test]
    fn a_document_is_found_by_the_endpoint_rule() {
        let staple = Staple::read(&challenge(
            2,
            &[document_text("https://API.example.com:443/a")],
        ));
        assert_eq!(staple.len(), 1);
        let found = staple.verdict_for(&endpoint("eip155:8453", "https://api.example.com/a"));
        assert_eq!(
            found,
            Some(
                parse_strict(document_text("https://API.example.com:443/a").as_bytes())
                    .unwrap()
                    .canonical()
                    .as_deref()
                    .unwrap()
            )
        );
        assert_eq!(
            staple.verdict_for(&endpoint("base", "https://api.example.com/b")),
            None
        );
    }

    #[test]
    fn a_staple_past_its_bounds_or_of_v1_is_ignored() {
        let one = document_text("https://api.example.com/a");
        assert!(Staple::read(&challenge(1, std::slice::from_ref(&one))).is_empty());
        let most = vec![one.clone(); MAX_STAPLED_VERDICTS];
        assert_eq!(
            Staple::read(&challenge(2, &most)).len(),
            MAX_STAPLED_VERDICTS
        );
        let over = vec![one.clone(); MAX_STAPLED_VERDICTS + 1];
        assert!(Staple::read(&challenge(2, &over)).is_empty());
        let big = one.replacen(
            '{',
            &format!(r#"{{"pad":"{}","#, "x".repeat(MAX_BODY_BYTES)),
            1,
        );
        let staple = Staple::read(&challenge(2, &[big, one]));
        assert_eq!(staple.len(), 1, "the large one skipped, the other read");
    }

    #[test]
    fn documents_that_name_no_endpoint_are_skipped() {
        let staple = Staple::read(&challenge(
            2,
            &[
                "1".into(),
                "{}".into(),
                r#"{"verdict":{"chain":"base","payTo":"","resourceUrl":"x"}}"#.into(),
                r#"{"verdict":{"chain":"base","payTo":"0x1","resourceUrl":"x"},"n":1.5}"#.into(),
            ],
        ));
        assert!(staple.is_empty());
    }

    #[test]
    fn the_extension_holds_each_readable_document_and_the_schema() {
        let one = document_text("https://api.example.com/a");
        let text = extension([one.as_str(), "[]", "{", r#"{"n":1.5}"#]);
        let value = parse_strict(text.as_bytes()).unwrap();
        let verdicts = value.get(INFO).unwrap().get(VERDICTS).unwrap();
        assert_eq!(verdicts.as_array().unwrap().len(), 1);
        assert_eq!(
            value.get(SCHEMA).unwrap().canonical().unwrap(),
            info_schema()
        );
        // What a seller staples, a consumer reads.
        let mut payment_required = Object::new();
        payment_required.insert("x402Version", Value::Integer(2));
        let mut extensions = Object::new();
        extensions.insert(EXTENSION_KEY, value);
        payment_required.insert("extensions", Value::Object(extensions));
        let staple = Staple::read(&Value::Object(payment_required));
        assert!(staple
            .verdict_for(&endpoint("base", "https://api.example.com/a"))
            .is_some());
        // A document's other members (its transparency proof) travel with it.
        let proved = one.replacen(
            '{',
            "{\"logProof\":\"c2sp.org/tlog-proof@v1\\nextra x\\n\",",
            1,
        );
        let value = parse_strict(extension([proved.as_str()]).as_bytes()).unwrap();
        let verdicts = value.get(INFO).unwrap().get(VERDICTS).unwrap();
        assert_eq!(
            verdicts.as_array().unwrap()[0].get("logProof"),
            Some(&Value::String("c2sp.org/tlog-proof@v1\nextra x\n".into()))
        );
    }

    #[test]
    fn the_schema_says_the_cores_bounds() {
        let schema = info_schema();
        for part in [
            "\"maxItems\":32",
            "\"maximum\":8760",
            "\"maxLength\":512",
            "\"human_backed\"",
            "\"no_signal\"",
            KEY_ID_PATTERN,
        ] {
            assert!(schema.contains(part), "{part} in {schema}");
        }
    }
}
