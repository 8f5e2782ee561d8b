//! The guard's shared table (`tests/vectors/guard/policy.json`): what an
//! agent's policy function's answer means, and the order the options are
//! handed in, as the core decides them. The npm package's tests
//! (`tests/agent/policy.test.mjs`) and the Python package's
//! (`tests/python/test_policy.py`) feed the same table to their bindings.

use serde_json::Value;
use x402_verdict_core::guard::{rank, Answer, Check};

fn table() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/guard/policy.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// An answer of the table as a binding reads it: only an abort result
/// (`{ abort: true, reason }`, Python's `AbortResult`) carries a reason.
fn answer(answer: &Value) -> Answer<'_> {
    match answer["kind"].as_str().unwrap() {
        "true" => Answer::Pay,
        "abort" => Answer::Abort(answer["reason"].as_str()),
        "false" | "none" | "value" | "reason-only" | "abort-false" | "throw" => Answer::Other,
        kind => panic!("an answer of no known kind: {kind}"),
    }
}

#[test]
fn every_policy_answer_means_what_the_table_says() {
    let table = table();
    let check = Check {
        pays: true,
        refusal: table["check"].as_str().unwrap().to_owned(),
    };
    let cases = table["answers"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for case in cases {
        let decided = check.answered(answer(&case["answer"]));
        let refusal = case["refusal"].as_str().unwrap_or(&check.refusal);
        assert_eq!(
            (decided.pays, decided.refusal.as_str()),
            (case["pays"].as_bool().unwrap(), refusal),
            "{}",
            case["name"]
        );
    }
}

#[test]
fn every_option_order_is_the_tables() {
    let table = table();
    for case in table["rank"].as_array().unwrap() {
        let options: Vec<(u8, bool)> = case["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| (o[0].as_u64().unwrap() as u8, o[1].as_bool().unwrap()))
            .collect();
        let order: Vec<usize> = case["order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(rank(&options), order, "{}", case["name"]);
    }
}
