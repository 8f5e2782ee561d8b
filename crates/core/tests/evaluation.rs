//! The evaluation as a table: every outcome x freshness x signature x strict,
//! checked against the protocol's rule written out independently here, and
//! every reason a result can carry; and a verdict inlined in the page or
//! stapled to the 402, which stands in for a request only when it is a
//! valid document about this endpoint within the bounds of a fetched body,
//! validly signed under the consumer's keys and at most
//! `MAX_INLINED_AGE_SECONDS` old, and then reads exactly as the same document
//! fetched: every case of the inlined path runs through the stapled one
//! too, and they agree.

use ed25519_dalek::SigningKey;
use serde_json::{json, Value};
use x402_verdict_core::endpoint::MAX_FIELD_BYTES;
use x402_verdict_core::evaluate::MAX_CLOCK_SKEW_SECONDS;
use x402_verdict_core::inline::MAX_INLINED_AGE_SECONDS;
use x402_verdict_core::json::{Object, MAX_DEPTH};
use x402_verdict_core::keys::encode_base64;
use x402_verdict_core::options::{OptionError, OptionRule, OptionsError};
use x402_verdict_core::verdict::VerdictError;
use x402_verdict_core::{
    Challenge, Endpoint, Evaluation, FetchFailure, Freshness, Lookup, LookupOptions, Outcome,
    Reason, Response, SignatureStatus, State, Timestamp, TrustedKeys, MAX_BODY_BYTES,
};

const CHAIN: &str = "base";
const PAY_TO: &str = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
const RESOURCE: &str = "https://api.example.com/premium-data";
const NOW: i64 = 1_788_249_600; // 2026-09-01T08:00:00Z

fn signer() -> SigningKey {
    SigningKey::from_bytes(&[42; 32])
}

fn at(offset_seconds: i64) -> String {
    Timestamp::from_unix_seconds(NOW + offset_seconds).to_rfc3339()
}

fn lookup(keys: TrustedKeys, strict: bool) -> Lookup {
    Lookup {
        endpoint: Endpoint::new(CHAIN, PAY_TO, RESOURCE).unwrap(),
        keys,
        strict,
    }
}

/// A verdict verified `verified_offset` seconds from now, issued now or, for a
/// verification ahead of the clock, as late as the rules allow (at most the
/// clock skew before it).
fn verdict(outcome: &str, verified_offset: i64) -> serde_json::Map<String, Value> {
    let issued_offset = (verified_offset - MAX_CLOCK_SKEW_SECONDS).max(0);
    json!({
        "v": 1, "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": RESOURCE,
        "outcome": outcome, "assuranceLevel": "G", "verifiedAt": at(verified_offset),
        "recheckEveryHours": 24, "issuedAt": at(issued_offset), "note": "covered by the signature"
    })
    .as_object()
    .unwrap()
    .clone()
}

/// The core's `sign_verdict`, from and to `serde_json` values for editing.
fn sign_verdict(
    verdict: serde_json::Map<String, Value>,
    key: &SigningKey,
) -> Result<Value, VerdictError> {
    let verdict = Object::parse(&serde_json::to_vec(&verdict).unwrap()).unwrap();
    let document = x402_verdict_core::sign_verdict(verdict, key)?;
    Ok(serde_json::from_str(&document).unwrap())
}

fn evaluate(lookup: &Lookup, doc: &Value) -> Evaluation {
    let body = serde_json::to_vec(doc).unwrap();
    lookup.evaluate(
        Response::Http {
            status: 200,
            body: &body,
        },
        Timestamp::from_unix_seconds(NOW),
    )
}

/// The protocol's `state` rule, straight from section 5.
fn expected_state(
    outcome: &str,
    freshness: Freshness,
    signature: SignatureStatus,
    strict: bool,
) -> State {
    let signature_ok = if strict {
        signature == SignatureStatus::Valid
    } else {
        signature != SignatureStatus::Invalid
    };
    if outcome == "revoked" {
        State::Revoked
    } else if outcome == "human_backed" && freshness == Freshness::Fresh && signature_ok {
        State::HumanBacked
    } else {
        State::Unknown
    }
}

#[test]
fn every_combination_follows_the_rule() {
    let key = signer();
    let other = SigningKey::from_bytes(&[43; 32]);
    let freshnesses = [
        (-3600, Freshness::Fresh),
        (-25 * 3600, Freshness::Overdue),
        (600, Freshness::Unknown),
    ];
    let signatures = [
        SignatureStatus::Valid,
        SignatureStatus::Invalid,
        SignatureStatus::Unverifiable,
        SignatureStatus::NotChecked,
    ];
    let mut rows = 0;
    for outcome in ["human_backed", "revoked", "stale", "no_signal"] {
        for (offset, freshness) in freshnesses {
            for signature in signatures {
                for strict in [false, true] {
                    let mut doc = sign_verdict(verdict(outcome, offset), &key).unwrap();
                    let keys = match signature {
                        SignatureStatus::Valid => TrustedKeys::from_keys([key.verifying_key()]),
                        SignatureStatus::Invalid => {
                            doc["verdict"]["note"] = json!("tampered");
                            TrustedKeys::from_keys([key.verifying_key()])
                        }
                        SignatureStatus::Unverifiable => {
                            TrustedKeys::from_keys([other.verifying_key()])
                        }
                        SignatureStatus::NotChecked => TrustedKeys::none(),
                    };
                    let result = evaluate(&lookup(keys, strict), &doc);
                    let row = format!("{outcome} {freshness:?} {signature:?} strict={strict}");
                    assert_eq!(result.outcome.as_str(), outcome, "{row}");
                    assert_eq!(result.freshness, freshness, "{row}");
                    assert_eq!(result.signature, signature, "{row}");
                    assert_eq!(
                        result.state,
                        expected_state(outcome, freshness, signature, strict),
                        "{row}"
                    );
                    assert_eq!(result.assurance_level.as_deref(), Some("G"), "{row}");
                    assert_eq!(result.recheck_every_hours, Some(24), "{row}");
                    assert_eq!(
                        result.reason.is_none(),
                        result.state == State::HumanBacked,
                        "{row}"
                    );
                    rows += 1;
                }
            }
        }
    }
    assert_eq!(rows, 4 * 3 * 4 * 2);
}

#[test]
fn freshness_boundaries() {
    let l = lookup(TrustedKeys::none(), false);
    let cases = [
        (-24 * 3600, Freshness::Fresh),
        (-24 * 3600 - 1, Freshness::Overdue),
        (300, Freshness::Fresh),
        (301, Freshness::Unknown),
    ];
    for (offset, expected) in cases {
        let doc = sign_verdict(verdict("human_backed", offset), &signer()).unwrap();
        assert_eq!(evaluate(&l, &doc).freshness, expected, "offset {offset}");
    }
}

#[test]
fn every_reason() {
    let key = signer();
    let trusted = TrustedKeys::from_keys([key.verifying_key()]);
    let l = lookup(trusted.clone(), false);
    let now = Timestamp::from_unix_seconds(NOW);
    let reason_of = |l: &Lookup, doc: &Value| evaluate(l, doc).reason;
    let signed = |outcome: &str, offset: i64| sign_verdict(verdict(outcome, offset), &key).unwrap();

    assert_eq!(reason_of(&l, &signed("human_backed", -60)), None);
    assert_eq!(
        reason_of(&l, &signed("revoked", -60)),
        Some(Reason::Revoked)
    );
    assert_eq!(reason_of(&l, &signed("stale", -60)), Some(Reason::Stale));
    assert_eq!(
        reason_of(&l, &signed("no_signal", -60)),
        Some(Reason::NoSignal)
    );
    assert_eq!(
        reason_of(&l, &signed("human_backed", -90_000)),
        Some(Reason::Overdue)
    );
    assert_eq!(
        reason_of(&l, &signed("human_backed", 600)),
        Some(Reason::VerifiedInFuture)
    );
    // Signed more than the clock skew ahead of now: not a valid verdict.
    let mut early = verdict("human_backed", 0);
    early.insert("issuedAt".into(), json!(at(301)));
    let early = evaluate(&l, &sign_verdict(early, &key).unwrap());
    assert_eq!(
        (early.reason, early.detail.as_deref()),
        (
            Some(Reason::Malformed),
            Some("verdict.issuedAt lies in the future")
        )
    );
    let mut tampered = signed("human_backed", -60);
    tampered["verdict"]["assuranceLevel"] = json!("A");
    assert_eq!(reason_of(&l, &tampered), Some(Reason::SignatureInvalid));
    let strict = lookup(TrustedKeys::none(), true);
    assert_eq!(
        reason_of(&strict, &signed("human_backed", -60)),
        Some(Reason::SignatureRequired)
    );

    let mut elsewhere = verdict("human_backed", -60);
    elsewhere.insert("resourceUrl".into(), json!("https://api.example.com/other"));
    let mismatch = evaluate(&l, &sign_verdict(elsewhere, &key).unwrap());
    assert_eq!(
        (mismatch.outcome, mismatch.reason),
        (Outcome::NoResponse, Some(Reason::EndpointMismatch))
    );
    assert_eq!(mismatch.signature, SignatureStatus::NotChecked);

    // Another spelling of the same resource URL (RFC 3986 section 6.2.2
    // normalization: case, default port, decoded unreserved characters, dot
    // segments) is this endpoint; another path, query, port or scheme is
    // another endpoint.
    for (resource_url, state, reason) in [
        (
            "HTTPS://API.Example.com/premium-data",
            State::HumanBacked,
            None,
        ),
        (
            "https://api.example.com:443/premium-data",
            State::HumanBacked,
            None,
        ),
        (
            "https://api.example.com:/premium-data",
            State::HumanBacked,
            None,
        ),
        (
            "https://api.example.com/premium%2ddata",
            State::HumanBacked,
            None,
        ),
        (
            "https://api.example.com/v1/%2E%2E/./premium-data",
            State::HumanBacked,
            None,
        ),
        (
            "https://api.example.com/premium-data/.",
            State::Unknown,
            Some(Reason::EndpointMismatch),
        ),
        (
            "https://api.example.com/premium%2Fdata",
            State::Unknown,
            Some(Reason::EndpointMismatch),
        ),
        (
            "https://api.example.com/Premium-data",
            State::Unknown,
            Some(Reason::EndpointMismatch),
        ),
        (
            "https://api.example.com/premium-data?q=1",
            State::Unknown,
            Some(Reason::EndpointMismatch),
        ),
        (
            "https://api.example.com:8443/premium-data",
            State::Unknown,
            Some(Reason::EndpointMismatch),
        ),
        (
            "http://api.example.com/premium-data",
            State::Unknown,
            Some(Reason::EndpointMismatch),
        ),
    ] {
        let mut spelled = verdict("human_backed", -60);
        spelled.insert("resourceUrl".into(), json!(resource_url));
        let got = evaluate(&l, &sign_verdict(spelled, &key).unwrap());
        assert_eq!((got.state, got.reason), (state, reason), "{resource_url}");
    }

    // EVM addresses in another case still match.
    let mut lower = verdict("human_backed", -60);
    lower.insert("payTo".into(), json!(PAY_TO.to_lowercase()));
    assert_eq!(
        evaluate(&l, &sign_verdict(lower, &key).unwrap()).state,
        State::HumanBacked
    );

    // A verdict naming the chain by its CAIP-2 alias is about this endpoint;
    // a verdict about another chain is not.
    let mut alias = verdict("human_backed", -60);
    alias.insert("chain".into(), json!("eip155:8453"));
    assert_eq!(
        evaluate(&l, &sign_verdict(alias, &key).unwrap()).state,
        State::HumanBacked
    );
    let mut testnet = verdict("human_backed", -60);
    testnet.insert("chain".into(), json!("eip155:84532"));
    assert_eq!(
        evaluate(&l, &sign_verdict(testnet, &key).unwrap()).reason,
        Some(Reason::EndpointMismatch)
    );

    let http = |status: u16, body: &[u8]| l.evaluate(Response::Http { status, body }, now);
    assert_eq!(
        (http(404, b"").outcome, http(404, b"").reason),
        (Outcome::NoSignal, Some(Reason::NotListed))
    );
    assert_eq!(http(500, b"{}").reason, Some(Reason::HttpStatus));
    assert_eq!(http(500, b"{}").detail.as_deref(), Some("HTTP status 500"));
    assert_eq!(http(200, b"<html>").reason, Some(Reason::Malformed));
    assert_eq!(
        http(200, br#"{"verdict":{},"verdict":{}}"#).reason,
        Some(Reason::Malformed)
    );
    assert_eq!(
        http(200, &vec![b' '; 70_000]).reason,
        Some(Reason::TooLarge)
    );
    for (failure, reason) in [
        (FetchFailure::Timeout, Reason::Timeout),
        (FetchFailure::Network, Reason::NetworkError),
        (FetchFailure::TooLarge, Reason::TooLarge),
        (FetchFailure::Redirected, Reason::Redirected),
    ] {
        let r = l.evaluate(Response::Failed(failure, None), now);
        assert_eq!(
            (r.state, r.outcome, r.reason),
            (State::Unknown, Outcome::NoResponse, Some(reason))
        );
        assert_eq!(
            (r.freshness, r.signature, r.detail),
            (Freshness::Unknown, SignatureStatus::NotChecked, None)
        );
        // The fetcher's own words, when it has any, are the detail.
        let words = "fetch failed: connect ECONNREFUSED 127.0.0.1:9";
        let r = l.evaluate(Response::Failed(failure, Some(words)), now);
        assert_eq!((r.reason, r.detail.as_deref()), (Some(reason), Some(words)));
    }
    // The fetcher's words are the detail only when they are a value the
    // core takes: not empty, one line, bounded, nothing hidden.
    let detail = |words: &str| {
        l.evaluate(Response::Failed(FetchFailure::Network, Some(words)), now)
            .detail
    };
    let longest = "é".repeat(MAX_FIELD_BYTES / 2);
    assert_eq!(detail(&longest), Some(longest.clone()));
    for refused in [
        String::new(),
        longest + "e",
        "fetch failed:\nconnect ECONNREFUSED".into(),
        "fetch failed: \u{202e}detcennoc".into(),
    ] {
        assert_eq!(detail(&refused), None, "{refused:?}");
    }
    let none = Evaluation::no_service();
    assert_eq!(
        (none.outcome, none.reason),
        (Outcome::NoService, Some(Reason::NoBaseUrl))
    );
    assert_eq!(
        Evaluation::invalid_input("chain is empty".into()).reason,
        Some(Reason::InvalidInput)
    );
}

#[test]
fn text_lines() {
    let key = signer();
    let l = lookup(TrustedKeys::from_keys([key.verifying_key()]), false);
    let good = evaluate(&l, &sign_verdict(verdict("human_backed", 0), &key).unwrap());
    assert_eq!(
        good.text_line(),
        "Verification: human-backed; outcome human_backed; freshness fresh; assurance G; last re-checked 2026-09-01T08:00:00Z; signature valid."
    );
    assert_eq!(good.status_line(), "Verification signal: human-backed.");
    assert_eq!(good.badge_label(), "verified · G");
    assert_eq!(
        good.badge_hover(),
        "A verified operator backed by a guarantee deposit stands behind this endpoint. Last verified 2026-09-01 08:00 UTC; promised to be re-checked every 24 h."
    );
    let foreign = lookup(
        TrustedKeys::from_keys([SigningKey::from_bytes(&[1; 32]).verifying_key()]),
        false,
    );
    let unverifiable = evaluate(
        &foreign,
        &sign_verdict(verdict("human_backed", 0), &key).unwrap(),
    );
    assert_eq!(unverifiable.badge_label(), "verified · G");
    // "not verified" is the revoked badge's label: never in a positive badge's words.
    assert!(!unverifiable.badge_hover().contains("not verified"));
    assert!(unverifiable
        .badge_hover()
        .ends_with("The signature could not be checked: it is not from a configured key."));
    let unchecked = evaluate(
        &lookup(TrustedKeys::none(), false),
        &sign_verdict(verdict("human_backed", 0), &key).unwrap(),
    );
    assert!(unchecked
        .badge_hover()
        .ends_with("Signature not checked: no verification key is configured."));
    let none = Evaluation::no_service();
    assert_eq!(
        none.text_line(),
        "Verification: unknown; outcome no_service; freshness unknown; assurance none; last re-checked never; signature not_checked; reason no_base_url."
    );
    assert_eq!(none.status_line(), "Verification signal: unknown.");
    assert!(none
        .badge_hover()
        .ends_with("Nothing in the payment flow depends on this badge."));
    let revoked = evaluate(&l, &sign_verdict(verdict("revoked", 0), &key).unwrap());
    assert_eq!(revoked.badge_label(), "not verified");
    assert_eq!(revoked.status_line(), "Verification signal: revoked.");
    assert!(revoked.badge_hover().contains("withdrawn"));
    assert!(revoked.badge_hover().contains("2026-09-01 08:00 UTC"));
    let overdue = evaluate(
        &l,
        &sign_verdict(verdict("human_backed", -90_000), &key).unwrap(),
    );
    assert_eq!(overdue.badge_label(), "unknown");
    assert!(overdue.badge_hover().starts_with("Re-check overdue"));
    assert!(overdue.badge_hover().contains("every 24 h"));
    assert!(!overdue.badge_hover().contains("payment flow"));
}

#[test]
fn structured_result_serializes_with_wire_names() {
    let key = signer();
    let l = lookup(TrustedKeys::none(), false);
    let good = evaluate(&l, &sign_verdict(verdict("human_backed", 0), &key).unwrap());
    assert_eq!(
        serde_json::to_value(&good).unwrap(),
        json!({"state": "human-backed", "outcome": "human_backed", "freshness": "fresh",
               "signature": "not_checked", "assuranceLevel": "G",
               "verifiedAt": "2026-09-01T08:00:00Z", "recheckEveryHours": 24})
    );
}

#[test]
fn members_are_the_schema_properties() {
    let schema: Value =
        serde_json::from_str(&x402_verdict_core::schema::evaluation_schema()).unwrap();
    let properties: Vec<&str> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|name| name.as_str().unwrap())
        .collect();
    let every = Evaluation {
        detail: Some("a detail".into()),
        reason: Some(Reason::Overdue),
        ..evaluate(
            &lookup(TrustedKeys::none(), false),
            &sign_verdict(verdict("human_backed", 0), &signer()).unwrap(),
        )
    };
    let names = |e: &Evaluation| {
        let mut names: Vec<_> = e.members().into_iter().map(|(name, _)| name).collect();
        names.sort_unstable();
        names
    };
    // serde_json's maps are sorted by name.
    assert_eq!(names(&every), properties);
    let mut least = [&required[..], &["reason"]].concat();
    least.sort_unstable();
    assert_eq!(names(&Evaluation::no_service()), least);
}

#[test]
fn freshness_holds_to_the_end_of_the_cadence_and_not_a_second_past() {
    let t = |offset| Timestamp::from_unix_seconds(NOW + offset);
    let day = 24 * 3600;
    assert_eq!(Freshness::at(t(0), 24, t(day)), Freshness::Fresh);
    assert_eq!(Freshness::at(t(0), 24, t(day + 1)), Freshness::Overdue);
    // A re-check more than the skew ahead of the clock is no claim.
    let skew = MAX_CLOCK_SKEW_SECONDS;
    assert_eq!(Freshness::at(t(skew + 1), 24, t(0)), Freshness::Unknown);
    assert_eq!(Freshness::at(t(skew), 24, t(0)), Freshness::Fresh);
}

// ---- a verdict inlined in the page, or stapled to the 402 ----

/// The JSON text of a document signed by `key`, issued `issued` seconds
/// from now, about `resource`, with `outcome`.
fn signed(outcome: &str, issued: i64, resource: &str, key: &SigningKey) -> String {
    let verdict = json!({
        "v": 1, "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": resource,
        "outcome": outcome, "assuranceLevel": "G", "verifiedAt": at(issued.min(0)),
        "recheckEveryHours": 24, "issuedAt": at(issued), "keyId": "0000000000000000"
    });
    let verdict = Object::parse(&serde_json::to_vec(&verdict).unwrap()).unwrap();
    x402_verdict_core::sign_verdict(verdict, key).unwrap()
}

fn now() -> Timestamp {
    Timestamp::from_unix_seconds(NOW)
}

fn fetched(lookup: &Lookup, text: &str) -> Evaluation {
    let response = Response::Http {
        status: 200,
        body: text.as_bytes(),
    };
    lookup.evaluate(response, now())
}

/// The document `text` stapled, verbatim, to an x402 v2 challenge whose one
/// option is the lookup's endpoint (its chain by its CAIP-2 id, its address
/// in lowercase), read from its `PAYMENT-REQUIRED` header as a consumer
/// reads it and taken as an inlined verdict is: `None` when the challenge
/// cannot be read (it is over its own bounds) or staples nothing for the
/// option.
fn stapled(lookup: &Lookup, text: &str) -> Option<Evaluation> {
    let e = &lookup.endpoint;
    let chain = x402_verdict_core::canonical_chain(e.chain());
    let challenge = format!(
        r#"{{"x402Version":2,"resource":{{"url":"{}"}},"accepts":[{{"scheme":"exact","network":"{chain}","amount":"1","asset":"0xA","payTo":"{}"}}],"extensions":{{"x402-verdict":{{"info":{{"verdicts":[{text}]}}}}}}}}"#,
        e.resource_url(),
        e.pay_to().to_lowercase(),
    );
    let read = Challenge::from_header(&encode_base64(challenge.as_bytes())).ok()?;
    lookup.evaluate_inlined(read.options[0].verdict.as_deref()?, now())
}

/// What `text` given in place of a request gives: inlined and stapled
/// alike (asserted).
fn in_place_of_a_request(lookup: &Lookup, text: &str) -> Option<Evaluation> {
    let inlined = lookup.evaluate_inlined(text, now());
    assert_eq!(stapled(lookup, text), inlined, "stapled as inlined");
    inlined
}

#[test]
fn a_valid_fresh_verdict_reads_exactly_as_fetched() {
    for strict in [false, true] {
        let lookup = lookup(TrustedKeys::from_keys([signer().verifying_key()]), strict);
        for (outcome, state) in [
            ("human_backed", State::HumanBacked),
            ("revoked", State::Revoked),
            ("stale", State::Unknown),
        ] {
            let text = signed(outcome, 0, RESOURCE, &signer());
            let inlined = in_place_of_a_request(&lookup, &text).expect(outcome);
            assert_eq!(inlined.state, state, "{outcome}");
            assert_eq!(inlined, fetched(&lookup, &text), "{outcome}");
        }
    }
}

#[test]
fn its_age_is_bounded_by_its_signed_issued_at() {
    let lookup = lookup(TrustedKeys::from_keys([signer().verifying_key()]), true);
    let used = |issued: i64| {
        let text = signed("human_backed", issued, RESOURCE, &signer());
        in_place_of_a_request(&lookup, &text).is_some()
    };
    assert!(used(-MAX_INLINED_AGE_SECONDS), "exactly N seconds old");
    // Taken now, it is taken until it is that old, and not a second after.
    let text = signed("human_backed", -100, RESOURCE, &signer());
    let until = lookup.inlined_until(&text, now()).unwrap();
    assert_eq!(until, now().plus_seconds(MAX_INLINED_AGE_SECONDS - 100));
    assert!(lookup.evaluate_inlined(&text, until).is_some());
    assert!(lookup
        .evaluate_inlined(&text, until.plus_seconds(1))
        .is_none());
    let old = signed(
        "human_backed",
        -MAX_INLINED_AGE_SECONDS - 1,
        RESOURCE,
        &signer(),
    );
    assert_eq!(lookup.inlined_until(&old, now()), None);
    assert!(!used(-MAX_INLINED_AGE_SECONDS - 1), "a second older");
    assert!(!used(-2 * 3600), "issued two hours ago");
    assert!(used(300), "within the clock skew ahead");
    assert!(!used(301), "past the clock skew ahead");
    // Fetched, the two-hour-old verdict still reads verified: only the
    // inlined one is refused.
    let old = signed("human_backed", -2 * 3600, RESOURCE, &signer());
    assert_eq!(fetched(&lookup, &old).state, State::HumanBacked);
}

#[test]
fn anything_the_page_could_forge_asks_the_service() {
    let other = SigningKey::from_bytes(&[7; 32]);
    let mine = lookup(TrustedKeys::from_keys([signer().verifying_key()]), false);
    let good = signed("human_backed", 0, RESOURCE, &signer());
    let tampered = good.replace("\"outcome\":\"human_backed\"", "\"outcome\":\"revoked\"");
    assert_ne!(tampered, good);
    let revoked = signed("revoked", 0, RESOURCE, &signer());
    let promoted = revoked.replace("\"outcome\":\"revoked\"", "\"outcome\":\"human_backed\"");
    assert_ne!(promoted, revoked);
    let cases = [
        ("tampered", mine.clone(), tampered),
        ("promoted", mine.clone(), promoted.clone()),
        (
            "another resource",
            mine.clone(),
            signed(
                "human_backed",
                0,
                "https://api.example.com/other",
                &signer(),
            ),
        ),
        (
            "an unknown key",
            mine.clone(),
            signed("human_backed", 0, RESOURCE, &other),
        ),
        (
            "no keys configured",
            lookup(TrustedKeys::none(), false),
            good.clone(),
        ),
        ("invalid JSON", mine.clone(), "{\"verdict\":".to_owned()),
        (
            "a duplicate member",
            mine.clone(),
            good.replacen('{', "{\"signature\":\"x\",", 1),
        ),
        ("empty", mine.clone(), String::new()),
        (
            "unsigned",
            mine.clone(),
            good.split(",\"signature\"").next().unwrap().to_owned() + "}",
        ),
    ];
    for (name, lookup, text) in cases {
        assert_eq!(in_place_of_a_request(&lookup, &text), None, "{name}");
    }
    // A tampered verdict never reads verified, fetched or inlined.
    assert_ne!(fetched(&mine, &promoted).state, State::HumanBacked);
}

/// The bounds of a fetched body (its bytes, its nesting) hold for a
/// document given in place of a request, one table for the three paths:
/// a valid verdict padded to 10 MB reads verified on none of them.
#[test]
fn the_bounds_of_a_fetched_body_hold_inlined_and_stapled() {
    let lookup = lookup(TrustedKeys::from_keys([signer().verifying_key()]), true);
    let good = signed("human_backed", 0, RESOURCE, &signer());
    let padded = |spaces: usize| good.replacen('{', &("{".to_owned() + &" ".repeat(spaces)), 1);
    let member = |json: String| good.replacen('{', &format!("{{\"pad\":{json},"), 1);
    let string = |bytes: usize| format!("\"{}\"", "x".repeat(bytes));
    let nested = |levels: usize| member("[".repeat(levels) + &"]".repeat(levels));
    let cases = [
        ("a valid verdict", good.clone(), true),
        ("padded to 10 MB with whitespace", padded(10 << 20), false),
        (
            "padded to one byte past 64 KiB",
            padded(MAX_BODY_BYTES + 1 - good.len()),
            false,
        ),
        ("with a member of 10 MB", member(string(10 << 20)), false),
        ("with a member of 32 KiB", member(string(32 << 10)), true),
        ("nested one level past the bound", nested(MAX_DEPTH), false),
        ("nested within the bound", nested(4), true),
    ];
    for (name, text, stands_in) in cases {
        let fetched_reads = fetched(&lookup, &text).state == State::HumanBacked;
        assert_eq!(fetched_reads, stands_in, "{name}, fetched");
        let given = in_place_of_a_request(&lookup, &text);
        assert_eq!(given.is_some(), stands_in, "{name}, inlined and stapled");
    }
}

#[test]
fn the_verdict_option_is_text() {
    let read = |verdict: Value| {
        let text = json!({
            "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": RESOURCE, "verdict": verdict
        })
        .to_string();
        let options = Object::parse(text.as_bytes()).unwrap();
        LookupOptions::from_fields(&mut |name| Ok(options.get(name).cloned()))
    };
    assert_eq!(read(json!("{}")).unwrap().verdict.as_deref(), Some("{}"));
    assert_eq!(read(Value::Null).unwrap().verdict, None);
    assert_eq!(
        read(json!({"verdict": {}})).unwrap_err(),
        OptionsError::Invalid(vec![OptionError {
            option: "verdict",
            rule: OptionRule::NotAString
        }])
    );
    assert_eq!(
        read(json!(1)).unwrap_err().to_string(),
        "verdict must be a string"
    );
}
