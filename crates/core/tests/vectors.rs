//! Third-party test vectors from `../shared/vectors/` (see its README for
//! provenance): Wycheproof Ed25519 and RFC 8785 canonicalization.

use std::fs;
use std::path::PathBuf;

use serde_json::Value;
use x402_verdict_core::json::parse_strict;
use x402_verdict_core::keys::{encode_base64, parse_public_key};
use x402_verdict_core::signing::{canonical_json, verify_strict};

fn vectors() -> PathBuf {
    std::env::var_os("X402_VECTORS_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors"),
        PathBuf::from,
    )
}

fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn wycheproof_ed25519_agrees_on_every_case() {
    let path = vectors().join("ed25519/wycheproof_ed25519_test.json");
    let suite: Value =
        serde_json::from_slice(&fs::read(&path).expect("Wycheproof vectors")).unwrap();
    let mut cases = 0;
    for group in suite["testGroups"].as_array().unwrap() {
        let pk = hex(group["publicKey"]["pk"].as_str().unwrap());
        let key = parse_public_key(&encode_base64(&pk));
        for case in group["tests"].as_array().unwrap() {
            let msg = hex(case["msg"].as_str().unwrap());
            let sig = hex(case["sig"].as_str().unwrap());
            let accepted = key.as_ref().is_ok_and(|k| verify_strict(k, &msg, &sig));
            let expected = case["result"].as_str().unwrap() == "valid";
            assert_eq!(
                accepted, expected,
                "tcId {}: {}",
                case["tcId"], case["comment"]
            );
            cases += 1;
        }
    }
    assert_eq!(cases, suite["numberOfTests"].as_u64().unwrap());
    assert_eq!(cases, 151);
}

#[test]
fn rfc8785_outputs_byte_for_byte() {
    let dir = vectors().join("jcs");
    let mut names: Vec<_> = fs::read_dir(dir.join("input"))
        .expect("JCS vectors")
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert!(names.len() >= 6, "found {} JCS inputs", names.len());
    for name in names {
        let input = fs::read(dir.join("input").join(&name)).unwrap();
        let expected = fs::read(dir.join("output").join(&name)).unwrap();
        let value = parse_strict(&input).unwrap();
        let canonical = canonical_json(&value);
        assert_eq!(
            String::from_utf8_lossy(&canonical),
            String::from_utf8_lossy(&expected),
            "{name:?}"
        );
        let hex_name = name.to_string_lossy().replace(".json", ".txt");
        let hex_text = fs::read_to_string(dir.join("outhex").join(hex_name)).unwrap();
        let from_hex = hex(&hex_text.split_whitespace().collect::<String>());
        assert_eq!(canonical, from_hex, "{name:?} (outhex)");
    }
}
