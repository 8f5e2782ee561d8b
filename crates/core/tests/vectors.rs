//! Third-party test vectors from this crate's `tests/vectors/`
//! (see its README for provenance and licences): Wycheproof Ed25519 and RFC 8785 canonicalization.

use std::fs;
use std::path::PathBuf;

use serde_json::Value;
use x402_verdict_core::json::parse_strict;
use x402_verdict_core::{encode_base64, parse_public_key, verify_strict};

fn vectors() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors")
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

/// The JCS inputs holding numbers other than safe integers, which verdicts
/// never carry (protocol section 4): `56.0` and five non-integers.
const OUTSIDE_THE_VERDICT_DOMAIN: [&str; 2] = ["structures.json", "values.json"];

#[test]
fn rfc8785_outputs_byte_for_byte() {
    let dir = vectors().join("jcs");
    let mut names: Vec<_> = fs::read_dir(dir.join("input"))
        .expect("JCS vectors")
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(names.len() >= 6, "found {} JCS inputs", names.len());
    let mut compared = 0;
    for name in names {
        let input = fs::read(dir.join("input").join(&name)).unwrap();
        let value = parse_strict(&input).unwrap();
        let Some(canonical) = value.canonical() else {
            assert!(
                OUTSIDE_THE_VERDICT_DOMAIN.contains(&name.as_str()),
                "{name}"
            );
            continue;
        };
        let expected = fs::read_to_string(dir.join("output").join(&name)).unwrap();
        assert_eq!(canonical, expected, "{name}");
        let hex_name = name.replace(".json", ".txt");
        let hex_text = fs::read_to_string(dir.join("outhex").join(hex_name)).unwrap();
        let from_hex = hex(&hex_text.split_whitespace().collect::<String>());
        assert_eq!(canonical.as_bytes(), from_hex, "{name} (outhex)");
        compared += 1;
    }
    assert_eq!(compared, 4);
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// Characters where JCS implementations differ if they get something wrong:
/// escapes, controls, DEL, line separators, and non-BMP characters whose
/// UTF-16 order differs from their code point order.
const CHARS: &[char] = &[
    'a',
    'B',
    '1',
    ' ',
    '"',
    '\\',
    '/',
    '\n',
    '\t',
    '\u{0}',
    '\u{1f}',
    '\u{7f}',
    'é',
    '€',
    '\u{2028}',
    '\u{e000}',
    '\u{fb33}',
    '\u{ffff}',
    '😂',
    '\u{10000}',
    '\u{10ffff}',
];

fn random_string(rng: &mut Rng) -> String {
    (0..rng.below(5))
        .map(|_| CHARS[rng.below(CHARS.len())])
        .collect()
}

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    let choice = if depth >= 4 {
        rng.below(4)
    } else {
        rng.below(6)
    };
    match choice {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 1),
        2 => {
            let magnitude = match rng.below(3) {
                0 => rng.below(10) as i64,
                1 => rng.below(1 << 30) as i64 * rng.below(1 << 23) as i64,
                _ => (1 << 53) - 1,
            };
            Value::from(if rng.below(2) == 1 {
                -magnitude
            } else {
                magnitude
            })
        }
        3 => Value::String(random_string(rng)),
        4 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.below(6))
                .map(|_| (random_string(rng), random_value(rng, depth + 1)))
                .collect(),
        ),
    }
}

/// JSON text with every non-ASCII character written as `\u` escapes
/// (surrogate pairs above the BMP), so the parser's escapes are exercised.
fn escaped(value: &Value) -> String {
    serde_json::to_string(value)
        .unwrap()
        .encode_utf16()
        .map(|unit| match unit {
            0..=0x7f => char::from(unit as u8).to_string(),
            _ => format!("\\u{unit:04x}"),
        })
        .collect()
}

#[test]
fn canonical_form_matches_an_independent_rfc8785_crate() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..2000 {
        let value = random_value(&mut rng, 0);
        let oracle = serde_json_canonicalizer::to_string(&value).unwrap();
        for text in [
            serde_json::to_string_pretty(&value).unwrap(),
            escaped(&value),
        ] {
            let ours = parse_strict(text.as_bytes())
                .unwrap_or_else(|e| panic!("round {round}: {e} in {text}"))
                .canonical()
                .unwrap();
            assert_eq!(ours, oracle, "round {round}: {text}");
        }
    }
}
