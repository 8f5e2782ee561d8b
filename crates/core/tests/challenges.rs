//! Every form of the x402 payment challenge, from real-shaped fixtures
//! (`challenges.json`, which the browser test reads too): each case gives
//! the endpoints the challenge offers, or the one-line reason it cannot be read.

use serde_json::{json, Value};
use x402_verdict_core::challenge::{Endpoints, MAX_CHALLENGE_BYTES, MAX_OPTIONS};
use x402_verdict_core::Challenge;

const CASES: &str = include_str!("challenges.json");

/// What a case expects: `{"endpoints": [...]}`, with `reason` when empty.
fn expected(case: &Value) -> Value {
    let mut out = json!({ "endpoints": case.get("endpoints").cloned().unwrap_or(json!([])) });
    if let Some(reason) = case.get("reason") {
        out["reason"] = reason.clone();
    }
    out
}

/// The input as text: a header value or JSON text as given, an object as JSON.
fn text_of(input: &Value) -> String {
    match input {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[test]
fn every_fixture_reads_as_expected() {
    let cases: Vec<Value> = serde_json::from_str(CASES).unwrap();
    assert!(cases.len() > 40);
    for case in &cases {
        // Serialized as the browser's `endpointsFromPaymentRequired` gives it.
        let read = Endpoints::from(Challenge::from_text(&text_of(&case["input"])));
        let got = serde_json::to_value(&read).unwrap();
        assert_eq!(got, expected(case), "{}", case["name"]);
    }
}

fn fixture(name: &str) -> Value {
    let cases: Vec<Value> = serde_json::from_str(CASES).unwrap();
    cases
        .into_iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no fixture {name}"))["input"]
        .clone()
}

#[test]
fn http_reads_the_header_and_checks_a_repeated_body() {
    let v2 = fixture("x402 v2 object (a body repeating the header)");
    let header = fixture("x402 v2 PAYMENT-REQUIRED header");
    let header = header.as_str().unwrap();
    let body = v2.to_string();
    let from_header = Challenge::from_header(header).unwrap();
    assert_eq!(from_header.version, 2);
    assert_eq!(from_header.options.len(), 2);
    assert_eq!(from_header.options[0].endpoint.chain(), "eip155:8453");
    assert_eq!(from_header.options[0].amount, "10000");
    // Header alone, with a body that agrees, with a body that is no challenge.
    for body in [&b""[..], body.as_bytes(), b"{}", b"<html>pay</html>"] {
        assert_eq!(
            Challenge::from_http(Some(header), body),
            Ok(from_header.clone())
        );
    }
    // A body that repeats the challenge but disagrees, wherever it differs.
    let mut other = v2.clone();
    other["accepts"][1]["payTo"] = json!("9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin");
    assert_eq!(
        Challenge::from_http(Some(header), other.to_string().as_bytes()),
        Err("the PAYMENT-REQUIRED header and the body disagree (accepts[1])".into())
    );
    let mut fewer = v2.clone();
    fewer["accepts"].as_array_mut().unwrap().pop();
    assert_eq!(
        Challenge::from_http(Some(header), fewer.to_string().as_bytes()),
        Err(
            "the PAYMENT-REQUIRED header and the body disagree (the number of accepted options)"
                .into()
        )
    );
    let v1 = fixture("x402 v1 body");
    assert_eq!(
        Challenge::from_http(Some(header), v1.to_string().as_bytes()),
        Err("the PAYMENT-REQUIRED header and the body disagree (x402Version)".into())
    );
    let mut broken = v2.clone();
    broken["accepts"][0]["amount"] = json!(1.5);
    assert_eq!(
        Challenge::from_http(Some(header), broken.to_string().as_bytes()),
        Err("the body: accepts[0].amount is not a string".into())
    );
    // The fields only shown (extra, description) may differ without a disagreement.
    let mut reworded = v2.clone();
    reworded["accepts"][0]["extra"] = json!({"name": "USDC"});
    reworded["resource"]["description"] = json!("other words");
    assert!(Challenge::from_http(Some(header), reworded.to_string().as_bytes()).is_ok());
}

#[test]
fn http_without_a_header_reads_the_body() {
    let v1 = fixture("x402 v1 body");
    let challenge = Challenge::from_http(None, v1.to_string().as_bytes()).unwrap();
    assert_eq!(challenge.version, 1);
    assert_eq!(challenge.options[0].endpoint.chain(), "base");
    assert_eq!(
        challenge.options[0].endpoint.resource_url(),
        "https://api.example.com/premium-data"
    );
    assert_eq!(challenge.options[1].endpoint.chain(), "solana");
    assert_eq!(
        Challenge::from_http(None, b"<html>pay</html>"),
        Err("no PAYMENT-REQUIRED header, and the body: not strict JSON: expected a JSON value at byte 0".into())
    );
    assert_eq!(
        Challenge::from_http(None, b"{}"),
        Err("no PAYMENT-REQUIRED header, and the body: x402Version is missing".into())
    );
}

#[test]
fn size_and_count_are_bounded() {
    let mut v1 = fixture("x402 v1 body");
    // Padding in an ignored member: exactly at the cap it reads, one byte over it does not.
    let base = v1.to_string().len() + r#","pad":"""#.len();
    v1["pad"] = json!("x".repeat(MAX_CHALLENGE_BYTES - base));
    let at_cap = v1.to_string();
    assert_eq!(at_cap.len(), MAX_CHALLENGE_BYTES);
    assert!(Challenge::from_json(at_cap.as_bytes()).is_ok());
    v1["pad"] = json!("x".repeat(MAX_CHALLENGE_BYTES - base + 1));
    let over = v1.to_string();
    assert_eq!(
        Challenge::from_json(over.as_bytes()),
        Err("the challenge is larger than 64 KiB".into())
    );
    // The same through the header: one byte over once decoded, and a value
    // too long to be base64 of 64 KiB, refused before decoding.
    let header = x402_verdict_core::keys::encode_base64(over.as_bytes());
    assert_eq!(
        Challenge::from_header(&header),
        Err("the PAYMENT-REQUIRED header: the challenge is larger than 64 KiB".into())
    );
    let header = format!("{header}AAAA");
    assert_eq!(
        Challenge::from_header(&header),
        Err("the PAYMENT-REQUIRED header is longer than base64 of 64 KiB".into())
    );
    let header = x402_verdict_core::keys::encode_base64(at_cap.as_bytes());
    assert!(Challenge::from_header(&header).is_ok());

    let mut many = fixture("x402 v1 body");
    let option = many["accepts"][0].clone();
    many["accepts"] = json!(vec![option.clone(); MAX_OPTIONS]);
    let at_most = Challenge::from_json(many.to_string().as_bytes()).unwrap();
    assert_eq!(at_most.options.len(), MAX_OPTIONS);
    many["accepts"] = json!(vec![option; MAX_OPTIONS + 1]);
    assert_eq!(
        Challenge::from_json(many.to_string().as_bytes()),
        Err("accepts lists 33 options, more than 32".into())
    );
}
