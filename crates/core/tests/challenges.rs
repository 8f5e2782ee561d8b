//! Every form of the x402 payment challenge, from real-shaped fixtures
//! (`challenges.json`, which the browser test reads too): each case gives
//! the endpoints the challenge offers, or the one-line reason it cannot be read.

use serde_json::{json, Value};
use x402_verdict_core::challenge::{
    ChallengeError, ChallengeRule, Difference, Endpoints, Member, ValueRule, Within,
    MAX_CHALLENGE_BYTES, MAX_OPTIONS,
};
use x402_verdict_core::endpoint::FieldRule;
use x402_verdict_core::json::{ParseError, ParseErrorKind};
use x402_verdict_core::member::MemberRule;
use x402_verdict_core::writing::line;
use x402_verdict_core::Challenge;

const CASES: &str = include_str!("challenges.json");

/// A reading that fails with `problem`, found `within`.
fn refused(within: Option<Within>, problem: ChallengeRule) -> Result<Challenge, ChallengeError> {
    Err(ChallengeError {
        within,
        rule: problem,
    })
}

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
    let disagree = Challenge::from_http(Some(header), other.to_string().as_bytes());
    assert_eq!(
        disagree,
        refused(None, ChallengeRule::Disagree(Difference::Accepted(1)))
    );
    assert_eq!(
        line(&disagree.unwrap_err()),
        "the PAYMENT-REQUIRED header and the body disagree (accepts[1])"
    );
    let mut fewer = v2.clone();
    fewer["accepts"].as_array_mut().unwrap().pop();
    assert_eq!(
        Challenge::from_http(Some(header), fewer.to_string().as_bytes()),
        refused(None, ChallengeRule::Disagree(Difference::AcceptedCount))
    );
    let v1 = fixture("x402 v1 body");
    assert_eq!(
        Challenge::from_http(Some(header), v1.to_string().as_bytes()),
        refused(None, ChallengeRule::Disagree(Difference::Version))
    );
    let mut broken = v2.clone();
    broken["accepts"][0]["amount"] = json!(1.5);
    let broken = Challenge::from_http(Some(header), broken.to_string().as_bytes());
    assert_eq!(
        broken,
        refused(
            Some(Within::Body),
            ChallengeRule::Member {
                member: Member::AcceptedMember(0, "amount"),
                rule: ValueRule::Member(MemberRule::NotAString)
            }
        )
    );
    assert_eq!(
        line(&broken.unwrap_err()),
        "the body: accepts[0].amount is not a string"
    );
    // The fields only shown (extra, description) may differ without a disagreement.
    let mut reworded = v2.clone();
    reworded["accepts"][0]["extra"] = json!({"name": "USDC"});
    reworded["resource"]["description"] = json!("other words");
    assert!(Challenge::from_http(Some(header), reworded.to_string().as_bytes()).is_ok());
    // So may the verdicts they staple: the header's are the ones read.
    let stapled = fixture("x402 v2 object with stapled verdicts").to_string();
    let read = Challenge::from_http(Some(header), stapled.as_bytes()).unwrap();
    assert_eq!(read, from_header);
    assert!(read.options.iter().all(|option| option.verdict.is_none()));
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
    let page = Challenge::from_http(None, b"<html>pay</html>");
    assert_eq!(
        page,
        refused(
            Some(Within::BodyWithoutHeader),
            ChallengeRule::NotJson(ParseError {
                kind: ParseErrorKind::ExpectedValue,
                offset: 0
            })
        )
    );
    assert_eq!(
        line(&page.unwrap_err()),
        "no PAYMENT-REQUIRED header, and the body: not strict JSON: expected a JSON value at byte 0"
    );
    // The body of a v2 server whose header did not arrive says so.
    assert_eq!(
        Challenge::from_http(None, b"{}"),
        refused(Some(Within::BodyWithoutHeader), ChallengeRule::EmptyObject)
    );
    assert_eq!(
        Challenge::from_http(None, b"{\"x402\":2}"),
        refused(
            Some(Within::BodyWithoutHeader),
            ChallengeRule::Member {
                member: Member::Top("x402Version"),
                rule: ValueRule::Member(MemberRule::Missing)
            }
        )
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
        refused(None, ChallengeRule::TooLarge)
    );
    // The same through the header: one byte over once decoded, and a value
    // too long to be base64 of 64 KiB, refused before decoding.
    let header = x402_verdict_core::keys::encode_base64(over.as_bytes());
    assert_eq!(
        Challenge::from_header(&header),
        refused(Some(Within::Header), ChallengeRule::TooLarge)
    );
    let header = format!("{header}AAAA");
    assert_eq!(
        Challenge::from_header(&header),
        refused(None, ChallengeRule::HeaderTooLong)
    );
    assert_eq!(
        Challenge::from_header("not base64!"),
        refused(None, ChallengeRule::HeaderNotBase64)
    );
    let header = x402_verdict_core::keys::encode_base64(at_cap.as_bytes());
    assert!(Challenge::from_header(&header).is_ok());

    let mut many = fixture("x402 v1 body");
    let option = many["accepts"][0].clone();
    many["accepts"] = json!(vec![option.clone(); MAX_OPTIONS]);
    let at_most = Challenge::from_json(many.to_string().as_bytes()).unwrap();
    assert_eq!(at_most.options.len(), MAX_OPTIONS);
    many["accepts"] = json!(vec![option; MAX_OPTIONS + 1]);
    let many = Challenge::from_json(many.to_string().as_bytes());
    assert_eq!(
        many,
        refused(None, ChallengeRule::TooManyOptions(MAX_OPTIONS + 1))
    );
    assert_eq!(
        line(&many.unwrap_err()),
        "accepts lists 33 options, more than 32"
    );
}

#[test]
fn each_problem_is_named_by_its_type() {
    use ValueRule::{Field, NotDigits, NotOneOrTwo};
    let member = |member, rule| ChallengeRule::Member { member, rule };
    let shared = ValueRule::Member;
    let option = r#"{"scheme":"exact","network":"base","maxAmountRequired":"1","resource":"https://r.example/","payTo":"0x1","asset":"0x2"}"#;
    let v1 = |accepts: &str| format!(r#"{{"x402Version":1,"accepts":[{accepts}]}}"#);
    let cases: Vec<(String, Option<Within>, ChallengeRule)> = vec![
        (r#"{"a":1}"#.into(), None, ChallengeRule::NotAChallenge),
        ("{}".into(), None, ChallengeRule::EmptyObject),
        ("[1]".into(), None, ChallengeRule::HeaderNotBase64),
        (r#"{"x402Version":3,"accepts":[]}"#.into(), None, member(Member::Top("x402Version"), NotOneOrTwo)),
        (r#"{"x402Version":1}"#.into(), None, member(Member::Top("accepts"), shared(MemberRule::Missing))),
        (r#"{"x402Version":1,"accepts":{}}"#.into(), None, member(Member::Top("accepts"), shared(MemberRule::NotAList))),
        (v1(""), None, ChallengeRule::NoOptions),
        // The count comes before the resource a v2 challenge names.
        (r#"{"x402Version":2,"accepts":[]}"#.into(), None, ChallengeRule::NoOptions),
        (v1(&format!("{option},1")), None, member(Member::Accepted(1), shared(MemberRule::NotAnObject))),
        (
            v1(&option.replace(r#""1""#, r#""1.5""#)),
            None,
            member(Member::AcceptedMember(0, "maxAmountRequired"), NotDigits),
        ),
        (
            v1(&option.replace("0x1", "")),
            None,
            member(Member::AcceptedMember(0, "payTo"), Field(FieldRule::Empty)),
        ),
        (
            r#"{"x402Version":2,"resource":{},"accepts":[{}]}"#.into(),
            None,
            member(Member::ResourceUrl, shared(MemberRule::Missing)),
        ),
        (r#"{"isError":true,"content":1}"#.into(), None, ChallengeRule::NoChallengeInResult),
        (r#"{"jsonrpc":"2.0","result":1}"#.into(), None, ChallengeRule::ResultNotAnObject),
        (
            r#"{"isError":true,"content":[{"type":"text","text":"{}"}]}"#.into(),
            None,
            ChallengeRule::NoChallengeInText,
        ),
        (
            r#"{"isError":true,"structuredContent":{"x402/error":{"data":{"x402Version":1,"accepts":[]}}}}"#.into(),
            Some(Within::StructuredContent { wrapped: true }),
            ChallengeRule::NoOptions,
        ),
        (
            r#"{"isError":true,"content":[{"type":"text","text":"{\"x402Version\":1,\"accepts\":1}"}]}"#.into(),
            Some(Within::ContentText { wrapped: false }),
            member(Member::Top("accepts"), shared(MemberRule::NotAList)),
        ),
        ("{".into(), None, ChallengeRule::NotJson(ParseError { kind: ParseErrorKind::ExpectedMemberName, offset: 1 })),
    ];
    for (text, within, problem) in cases {
        let got = Challenge::from_text(&text).map(|_| ());
        assert_eq!(
            got,
            Err(ChallengeError {
                within,
                rule: problem
            }),
            "{text}"
        );
    }
}

#[test]
fn a_value_that_is_no_challenge_says_why() {
    use x402_verdict_core::json::Value as Json;
    use x402_verdict_core::options::ReadError;
    let none = |read| Endpoints::from_value(read).reason.unwrap();
    assert_eq!(
        none(Ok(Some(Json::Bool(true)))),
        "expected a challenge object, an MCP tool result or a PAYMENT-REQUIRED string"
    );
    assert_eq!(none(Ok(None)), none(Ok(Some(Json::Null))));
    assert_eq!(
        none(Err(ReadError::BigInt)),
        "a value in the challenge is a BigInt, not a number"
    );
    let object = x402_verdict_core::json::parse_strict(br#"{"x402Version":2}"#).unwrap();
    assert!(Endpoints::from_value(Ok(Some(object))).reason.is_some());
}
