//! The registry's checks, index and coverage, on documents written with `json!`.

use super::attestation::ENTRY_FIELDS;
use super::*;
use serde_json::{json, Map, Value as Json};
use x402_verdict_core::json::parse_strict;
use x402_verdict_core::{Timestamp, WireOutcome, MAX_BODY_BYTES};

/// A key's id, for the verdicts the tests read.
fn key_id() -> x402_verdict_core::KeyId {
    x402_verdict_core::KeyId::parse("3f9a1c07b2e4d856").unwrap()
}

/// The registry a document written with `json!` gives.
fn registry(doc: Json) -> Result<Registry, RegistryRule> {
    Registry::from_json(parse_strict(doc.to_string().as_bytes()).unwrap())
}

/// A registry's error as the command shows it: the rule and its causes.
fn shown(e: RegistryRule) -> String {
    x402_verdict_consumer::error_chain(&e)
}

fn entry() -> Json {
    json!({
        "chain": "base", "payTo": "0xAbC0000000000000000000000000000000000001",
        "resourceUrl": "https://api.example.com/x", "operator": "Example Co",
        "relatedParty": false, "assuranceLevel": "G", "status": "active",
        "attestedAt": "2026-01-01T00:00:00Z", "lastRecheckedAt": "2026-09-01T00:00:00Z",
        "recheckEveryHours": 24, "renewBy": "2027-01-01T00:00:00Z"
    })
}

fn error(mutate: impl FnOnce(&mut Map<String, Json>)) -> String {
    let mut e = entry();
    mutate(e.as_object_mut().unwrap());
    shown(registry(json!({ "attestations": [entry_with_other_url(), e] })).unwrap_err())
}

fn entry_with_other_url() -> Json {
    let mut e = entry();
    e["resourceUrl"] = json!("https://api.example.com/other");
    e
}

#[test]
fn derives_each_outcome_from_the_clock() {
    let r = registry(json!({ "attestations": [entry()] })).unwrap();
    let asked = Endpoint::new(
        "base",
        "0xabc0000000000000000000000000000000000001",
        "https://api.example.com/x",
    )
    .unwrap();
    let Some(Found::Attested(a)) = r.find(&asked) else {
        panic!("not found")
    };
    let t = |s| Timestamp::parse_rfc3339(s).unwrap();
    assert_eq!(
        a.outcome(t("2026-09-01T12:00:00Z")),
        WireOutcome::HumanBacked
    );
    assert_eq!(
        a.outcome(t("2026-09-02T00:00:00Z")),
        WireOutcome::HumanBacked
    );
    assert_eq!(a.outcome(t("2026-09-02T00:00:01Z")), WireOutcome::Stale);
    assert_eq!(a.outcome(t("2027-01-01T00:00:01Z")), WireOutcome::Revoked);
    // The request's spelling is echoed.
    assert_eq!(
        a.verdict(&asked, t("2026-09-01T12:00:00Z"), key_id())
            .get("payTo"),
        Some(&Value::String(asked.pay_to().to_owned()))
    );
}

#[test]
fn names_the_entry_and_field() {
    let cases: &[(&str, Json, &str)] = &[
        ("chain", json!(5), "chain is not a string"),
        ("chain", json!(""), "chain is empty"),
        ("payTo", json!(null), "payTo is not a string"),
        ("resourceUrl", json!(["x"]), "resourceUrl is not a string"),
        ("operator", json!({}), "operator is not a string"),
        ("operator", json!(" "), "operator is empty"),
        (
            "operator",
            json!("Co\u{0}"),
            "operator contains a control character",
        ),
        (
            "operator",
            json!("x".repeat(513)),
            "operator is longer than 512 bytes",
        ),
        (
            "relatedParty",
            json!("no"),
            "relatedParty is not true or false",
        ),
        (
            "relatedParty",
            json!(0),
            "relatedParty is not true or false",
        ),
        ("assuranceLevel", json!(1), "assuranceLevel is not a string"),
        (
            "assuranceLevel",
            json!("g"),
            "assuranceLevel is not 1 to 8 characters of A-Z 0-9 + -",
        ),
        ("status", json!(true), "status is not a string"),
        (
            "status",
            json!("paused"),
            "status is not \"active\" or \"revoked\"",
        ),
        ("attestedAt", json!(0), "attestedAt is not a string"),
        (
            "lastRecheckedAt",
            json!("yesterday"),
            "lastRecheckedAt is not an RFC 3339 UTC time",
        ),
        (
            "renewBy",
            json!("soon"),
            "renewBy is not an RFC 3339 UTC time",
        ),
        (
            "recheckEveryHours",
            json!(-1),
            "recheckEveryHours is not an integer from 1 to 8760",
        ),
        (
            "recheckEveryHours",
            json!(0),
            "recheckEveryHours is not an integer from 1 to 8760",
        ),
        (
            "recheckEveryHours",
            json!("24"),
            "recheckEveryHours is not an integer from 1 to 8760",
        ),
        (
            "recheckEveryHours",
            json!(24.5),
            "recheckEveryHours is not an integer from 1 to 8760",
        ),
        (
            "recheckEveryHours",
            json!(1u64 << 32),
            "recheckEveryHours is not an integer from 1 to 8760",
        ),
        (
            "resourceUrl",
            json!("https://api.example.com/other"),
            "another entry already names this endpoint",
        ),
    ];
    assert_eq!(
        error(|m| {
            m.insert("revokedAt".into(), json!("2026-02-01T00:00:00Z"));
        }),
        "attestations[1]: revokedAt is set, yet status is active"
    );
    for (revoked_at, problem) in [
        ("2025-12-31T23:59:59Z", "revokedAt is before attestedAt"),
        ("2026-02-01", "revokedAt is not an RFC 3339 UTC time"),
    ] {
        assert_eq!(
            error(|m| {
                m.insert("status".into(), json!("revoked"));
                m.insert("revokedAt".into(), json!(revoked_at));
            }),
            format!("attestations[1]: {problem}")
        );
    }
    for (field, value, problem) in cases {
        assert_eq!(
            error(|m| {
                m.insert((*field).into(), value.clone());
            }),
            format!("attestations[1]: {problem}"),
            "{field}: {value}"
        );
    }
    for field in ENTRY_FIELDS {
        assert_eq!(
            error(|m| {
                m.remove(field);
            }),
            format!("attestations[1]: {field} is missing")
        );
    }
    assert_eq!(
        error(|m| {
            m.insert("extra".into(), json!(1));
        }),
        "attestations[1]: unknown member `extra`"
    );
    assert_eq!(
        shown(registry(json!({ "attestations": [5] })).unwrap_err()),
        "attestations[0]: the entry is not a JSON object"
    );
    assert!(shown(registry(json!({ "attestation": [] })).unwrap_err()).contains("unknown member"));
    assert!(
        shown(registry(json!({ "published": [{"verdict": {}}] })).unwrap_err())
            .starts_with("published[0]: verdict.v is missing")
    );
    let huge = json!({ "verdict": { "v": 1, "padding": "x".repeat(MAX_BODY_BYTES) } });
    assert!(shown(registry(json!({ "published": [huge] })).unwrap_err())
        .ends_with("bytes, over the 65536 bytes consumers accept"),);
}

#[test]
fn an_error_chains_to_the_rule_and_the_error_under_it() {
    use std::error::Error as _;
    let path = std::env::temp_dir().join(format!("registry-{}.json", std::process::id()));
    std::fs::write(&path, r#"{"attestations": [5]}"#).unwrap();
    let e = Registry::load(&path).unwrap_err();
    assert_eq!(e.to_string(), path.display().to_string());
    let rule = e.source().expect("the rule under the file");
    assert_eq!(rule.to_string(), "attestations[0]");
    let entry = rule.source().expect("the entry's rule under that");
    assert_eq!(entry.to_string(), "the entry is not a JSON object");
    assert_eq!(
        x402_verdict_consumer::error_chain(&e),
        format!(
            "{}: attestations[0]: the entry is not a JSON object",
            path.display()
        )
    );
    std::fs::write(&path, r#"{"a": 1, "a": 2}"#).unwrap();
    let e = Registry::load(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    let parse = e.source().expect("the strict parser's error");
    assert!(parse
        .downcast_ref::<x402_verdict_core::json::ParseError>()
        .is_some());
}

#[test]
fn finds_every_spelling_consumers_match_and_no_other() {
    let mut entries = Vec::new();
    for i in 0..1000 {
        let mut e = entry();
        e["payTo"] = json!(format!("0xAbC{i:037}"));
        entries.push(e);
    }
    let mut solana = entry();
    solana["payTo"] = json!("7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU");
    entries.push(solana);
    let r = registry(json!({ "attestations": entries })).unwrap();
    let found = |chain: &str, pay_to: &str, url: &str| {
        r.find(&Endpoint::new(chain, pay_to, url).unwrap())
            .is_some()
    };
    let url = "https://api.example.com/x";
    assert!(found("base", &format!("0xAbC{:037}", 999), url));
    assert!(found("base", &format!("0xabc{:037}", 999), url));
    assert!(found("base", &format!("0xABC{:037}", 7), url));
    assert!(!found("base", &format!("0xAbC{:037}", 1000), url));
    assert!(!found("Base", &format!("0xAbC{:037}", 1), url));
    assert!(found("eip155:8453", &format!("0xabc{:037}", 1), url));
    assert!(!found("eip155:84532", &format!("0xAbC{:037}", 1), url));
    assert!(!found(
        "base",
        &format!("0xAbC{:037}", 1),
        "https://api.example.com/X"
    ));
    assert!(found(
        "base",
        "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
        url
    ));
    assert!(!found(
        "base",
        "7xkxtg2cw87d97txjsdpbd5jbkhetqa83tzrujosgasu",
        url
    ));
    // Another spelling of the URL is the same resource.
    assert!(found(
        "base",
        &format!("0xAbC{:037}", 1),
        "HTTPS://API.example.com:443/x"
    ));
    // Two spellings of one EVM address, or a chain's two names, are one endpoint.
    let mut twin = entry();
    twin["payTo"] = json!("0xabc0000000000000000000000000000000000001");
    let mut alias = entry();
    alias["chain"] = json!("eip155:8453");
    let mut spelled = entry();
    spelled["resourceUrl"] = json!("https://API.example.com/x");
    for other in [twin, alias, spelled] {
        assert_eq!(
            shown(registry(json!({ "attestations": [entry(), other] })).unwrap_err()),
            "attestations[1]: another entry already names this endpoint"
        );
    }
}

/// The attestation's operator that answers `url`, if any.
fn operator_for(r: &Registry, url: &str) -> Option<String> {
    let asked = Endpoint::new(
        "eip155:8453",
        &entry()["payTo"].as_str().unwrap().to_lowercase(),
        url,
    )
    .unwrap();
    match r.find(&asked)? {
        Found::Attested(a) => {
            let verdict = a.verdict(&asked, Timestamp::from_unix_seconds(0), key_id());
            verdict.get("operator")?.as_str().map(str::to_owned)
        }
        Found::Published(_) => Some("published".into()),
    }
}

#[test]
fn covers_by_match_the_most_specific_entry_first() {
    let attested = |url: &str, coverage: Option<&str>, operator: &str| {
        let mut e = entry();
        e["resourceUrl"] = json!(url);
        e["operator"] = json!(operator);
        if let Some(c) = coverage {
            e["match"] = json!(c);
        }
        e
    };
    let r = registry(json!({ "attestations": [
        attested("https://api.example.com/weather?city=Paris", None, "exact"),
        attested("https://api.example.com/weather", Some("path"), "path"),
        attested("https://api.example.com/weather", Some("prefix"), "weather prefix"),
        attested("https://api.example.com/v1", Some("prefix"), "v1"),
        attested("https://api.example.com/v1/admin/", Some("prefix"), "v1 admin"),
        attested("https://api.example.com/report?format=pdf", Some("exact"), "report"),
        attested("https://root.example/", Some("prefix"), "root"),
    ] }))
    .unwrap();
    let base = "https://api.example.com";
    for (path, operator) in [
        ("/weather?city=Paris", Some("exact")),
        ("/weather?city=%50aris", Some("exact")),
        ("/weather?city=%4Condon", Some("path")),
        ("/weather?city=London", Some("path")),
        ("/weather", Some("path")),
        ("/weather#now", Some("path")),
        ("/weather/today", Some("weather prefix")),
        ("/weatherx", None),
        ("/Weather", None),
        ("/v1", Some("v1")),
        ("/v1/", Some("v1")),
        ("/v1/items/7?q=1", Some("v1")),
        ("/v1x", None),
        ("/v1x/items", None),
        ("/v1/admin", Some("v1 admin")),
        ("/v1/admin/users", Some("v1 admin")),
        ("/v1/administrator", Some("v1")),
        ("/v1/admin/../items", Some("v1")),
        ("/v1/%2e%2E/admin", None),
        ("/v1/../admin", None),
        ("/v1/admin/..", Some("v1")),
        ("/v1/./admin/x", Some("v1 admin")),
        ("/v1/%61dmin", Some("v1 admin")),
        ("/admin/../v1/x", Some("v1")),
        ("/weather/./", Some("weather prefix")),
        ("/weather/../weather?city=Rome", Some("path")),
        ("/v1/.hidden", Some("v1")),
        ("/v1/../v2", None),
        ("/report?format=pdf", Some("report")),
        ("/report?format=csv", None),
        ("/report", None),
        ("", None),
    ] {
        assert_eq!(
            operator_for(&r, &format!("{base}{path}")).as_deref(),
            operator,
            "{path}"
        );
    }
    for url in [
        "https://root.example",
        "https://ROOT.example/a/b?c",
        "https://root.example:443/x",
    ] {
        assert_eq!(operator_for(&r, url).as_deref(), Some("root"), "{url}");
    }
    assert_eq!(operator_for(&r, "https://root.example:8443/x"), None);
    assert_eq!(operator_for(&r, "http://root.example/x"), None);
    assert_eq!(operator_for(&r, "https://other.example/v1"), None);
}

#[test]
fn refuses_a_match_it_cannot_use() {
    for (url, coverage, problem) in [
        (
            "https://api.example.com/x",
            json!("subtree"),
            "match \"subtree\" is not \"exact\", \"path\" or \"prefix\"",
        ),
        (
            "https://api.example.com/x",
            json!("Path"),
            "match \"Path\" is not \"exact\", \"path\" or \"prefix\"",
        ),
        (
            "https://api.example.com/x",
            json!(true),
            "match is not a string",
        ),
        (
            "https://api.example.com/x?q=1",
            json!("path"),
            "resourceUrl has a query or fragment, but match \"path\" covers any query",
        ),
        (
            "https://api.example.com/x#f",
            json!("prefix"),
            "resourceUrl has a query or fragment, but match \"prefix\" covers any query",
        ),
        (
            "mcp://tools.example/x",
            json!("prefix"),
            "match \"prefix\" needs an http:// or https:// resourceUrl",
        ),
    ] {
        assert_eq!(
            error(|m| {
                m.insert("resourceUrl".into(), json!(url));
                m.insert("match".into(), coverage.clone());
            }),
            format!("attestations[1]: {problem}"),
            "{url} {coverage}"
        );
    }
    // Two entries of one coverage for one path; an exact and a path one may coexist.
    for (a, b, ok) in [
        ("path", "path", false),
        ("prefix", "prefix", false),
        ("exact", "path", true),
        ("path", "prefix", true),
    ] {
        let mut first = entry();
        first["match"] = json!(a);
        let mut second = entry();
        second["match"] = json!(b);
        second["resourceUrl"] = json!("HTTPS://api.example.com/x");
        assert_eq!(
            registry(json!({ "attestations": [first, second] })).is_ok(),
            ok,
            "{a} {b}"
        );
    }
}
