//! A bounded, seeded differential fuzz of the core's strict JSON parser and
//! RFC 8785 writer, against `serde_json` (the parser) and
//! `serde_json_canonicalizer` (the writer).
//!
//! ```sh
//! cargo run --release -p x402-verdict-core --example fuzz -- --seconds 60 --seed 7
//! ```
//!
//! Inputs are real verdict documents (signed by the core) and the RFC 8785
//! test inputs, mutated byte by byte (flips, insertions of JSON tokens,
//! escapes, surrogates, invalid UTF-8 and controls, deletions, duplicated
//! slices that repeat member names, splices, deep nesting) and value by
//! value (strings of awkward characters, names that sort differently in
//! UTF-16, integers near 2^53, fractions). For each input:
//!
//! - the strict parser must accept exactly what `serde_json` accepts, less
//!   what the protocol refuses on purpose: a duplicate member name at any
//!   depth, or nesting deeper than `MAX_DEPTH` (found by an independent
//!   audit written on serde); plus a number beyond the range of f64, which
//!   the grammar allows and `serde_json` refuses (counted apart: the core
//!   reads it as a number with no canonical form, which no verdict holds);
//! - what both accept must be the same value (integers equal; every other
//!   number a non-integer or beyond 2^53 - 1 for `serde_json` too);
//! - the canonical form, when the value has one, must equal
//!   `serde_json_canonicalizer`'s byte for byte;
//! - nothing may panic.
//!
//! It prints one line of counts and exits 1 on any disagreement or panic,
//! printing the case's seed and number to replay it.

use std::collections::HashSet;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use ed25519_dalek::SigningKey;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{json, Value as Serde};
use x402_verdict_core::json::{parse_strict, Object, Value, MAX_DEPTH, MAX_SAFE_INTEGER};
use x402_verdict_core::sign_verdict;

/// JSON fragments worth inserting: structure, escapes (lone and paired
/// surrogates), numbers at the edges, controls and invalid UTF-8.
const TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b":",
    b",",
    b"\\",
    b"\\u",
    b"\\u0000",
    b"\\uD800",
    b"\\uDC00",
    b"\\uD83D\\uDE00",
    b"\\uDBFF\\uDFFF",
    b"\\n",
    b"\\\"",
    b"\\/",
    b"\\x",
    b"0",
    b"-",
    b"-0",
    b"01",
    b"1e5",
    b"1E-2",
    b"1.5",
    b"1.",
    b".5",
    b"9007199254740991",
    b"9007199254740992",
    b"-9007199254740991",
    b"-9007199254740992",
    b"18446744073709551616",
    b"true",
    b"false",
    b"null",
    b"nul",
    b" ",
    b"\t",
    b"\r\n",
    b"\x00",
    b"\x1f",
    b"\x7f",
    b"\xc3\xa9",
    b"\xf0\x9f\x98\x80",
    b"\xe2\x80\xa8",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\xc0\xaf",
    b"\"v\":1",
    b"\"verdict\":",
    b"\"a\":1,\"a\":2",
];

/// Characters worth putting in strings and names: ASCII that JCS escapes,
/// controls, DEL, line separators, and code points whose UTF-16 order
/// differs from their UTF-8 order.
const CHARS: &[char] = &[
    'a',
    'b',
    'Z',
    '"',
    '\\',
    '/',
    '\u{0}',
    '\u{8}',
    '\u{9}',
    '\u{a}',
    '\u{c}',
    '\u{d}',
    '\u{1f}',
    '\u{7f}',
    '\u{80}',
    'é',
    '\u{2028}',
    '\u{2029}',
    '\u{e000}',
    '\u{fb33}',
    '\u{ffff}',
    '\u{10000}',
    '\u{1f600}',
    '\u{10ffff}',
];

struct Options {
    seconds: f64,
    seed: u64,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        seconds: 3.0,
        seed: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--seconds" => {
                options.seconds = value
                    .parse()
                    .ok()
                    .filter(|s: &f64| *s > 0.0)
                    .ok_or("--seconds must be a positive number")?;
            }
            "--seed" => {
                options.seed = value.parse().map_err(|_| "--seed must be a whole number")?;
            }
            _ => return Err(format!("unknown option {flag} (use --seconds, --seed)")),
        }
    }
    Ok(options)
}

/// Real documents: verdicts signed by the core, and the RFC 8785 inputs.
fn corpus() -> Vec<Vec<u8>> {
    let key = SigningKey::from_bytes(&[5; 32]);
    let verdicts = [
        json!({ "v": 1, "chain": "base", "payTo": "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
            "resourceUrl": "https://api.example.com/premium-data", "outcome": "human_backed",
            "assuranceLevel": "G", "verifiedAt": "2026-09-01T08:00:00Z", "recheckEveryHours": 24,
            "issuedAt": "2026-09-01T08:00:05Z", "operator": "Example Co", "relatedParty": false }),
        json!({ "v": 1, "chain": "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
            "payTo": "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
            "resourceUrl": "https://weather.example.com/forecast?days=7&q=\"x\"", "outcome": "revoked",
            "assuranceLevel": "A+", "verifiedAt": "2026-01-01T00:00:00Z", "recheckEveryHours": 8760,
            "issuedAt": "2026-01-02T00:00:00Z", "operator": "Société \u{1f600} <b>\\</b>\u{2028}",
            "relatedParty": true, "extension": { "list": [1, -9_007_199_254_740_991_i64, null, "\u{e000}"] } }),
        json!({ "v": 1, "chain": "eip155:8453", "payTo": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "resourceUrl": "https://data.example.org/v1/prices", "outcome": "no_signal",
            "issuedAt": "2026-11-30T00:00:00Z" }),
    ];
    let mut corpus: Vec<Vec<u8>> = verdicts
        .iter()
        .map(|v| {
            let verdict = Object::parse(v.to_string().as_bytes()).expect("a verdict object");
            sign_verdict(verdict, &key)
                .expect("a valid verdict")
                .into_bytes()
        })
        .collect();
    let vectors = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/jcs/input");
    if let Ok(entries) = std::fs::read_dir(vectors) {
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        corpus.extend(files.iter().filter_map(|f| std::fs::read(f).ok()));
    }
    corpus
}

fn random_string(rng: &mut fastrand::Rng) -> String {
    (0..rng.usize(0..8))
        .map(|_| CHARS[rng.usize(..CHARS.len())])
        .collect()
}

fn random_number(rng: &mut fastrand::Rng) -> Serde {
    match rng.u8(0..4) {
        0 => json!(rng.i64(-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER)),
        1 => json!(MAX_SAFE_INTEGER + rng.i64(-2..=2)),
        2 => json!(-MAX_SAFE_INTEGER - rng.i64(-2..=2)),
        _ => json!(rng.f64() * 1e6 - 5e5),
    }
}

/// Changes values inside a parsed document: strings, names, numbers, nesting.
fn mutate_value(rng: &mut fastrand::Rng, value: &mut Serde, depth: usize) {
    match value {
        Serde::Object(members) => {
            let names: Vec<String> = members.keys().cloned().collect();
            for name in names {
                if rng.u8(0..4) == 0 {
                    if let Some(mut inner) = members.remove(&name) {
                        mutate_value(rng, &mut inner, depth + 1);
                        members.insert(random_string(rng) + &name, inner);
                    }
                } else if let Some(inner) = members.get_mut(&name) {
                    mutate_value(rng, inner, depth + 1);
                }
            }
            if rng.u8(0..3) == 0 {
                members.insert(random_string(rng), random_number(rng));
            }
        }
        Serde::Array(items) => {
            for item in items.iter_mut() {
                mutate_value(rng, item, depth + 1);
            }
        }
        Serde::String(text) if rng.bool() => *text = random_string(rng),
        Serde::Number(_) if rng.bool() => *value = random_number(rng),
        _ if depth < 20 && rng.u8(0..8) == 0 => {
            *value = json!([{ random_string(rng): value.clone() }]);
        }
        _ => {}
    }
}

/// Changes bytes: flips, token insertions, deletions, duplicated slices,
/// splices with another document, deep nesting.
fn mutate_bytes(rng: &mut fastrand::Rng, bytes: &mut Vec<u8>, corpus: &[Vec<u8>]) {
    for _ in 0..rng.usize(1..=4) {
        let at = rng.usize(..=bytes.len());
        let end = (at + rng.usize(1..16)).min(bytes.len());
        match rng.u8(0..7) {
            0 if at < bytes.len() => bytes[at] = rng.u8(..),
            1 => {
                let token = TOKENS[rng.usize(..TOKENS.len())];
                bytes.splice(at..at, token.iter().copied());
            }
            2 => {
                bytes.drain(at..end);
            }
            3 => {
                let slice = bytes[at..end].to_vec();
                let to = rng.usize(..=bytes.len());
                bytes.splice(to..to, slice);
            }
            4 => {
                let token = TOKENS[rng.usize(..TOKENS.len())];
                bytes.splice(at..end, token.iter().copied());
            }
            5 => {
                let other = &corpus[rng.usize(..corpus.len())];
                let from = rng.usize(..=other.len());
                bytes.truncate(at);
                bytes.extend_from_slice(&other[from..]);
            }
            _ => {
                let levels = rng.usize(1..=MAX_DEPTH + 2);
                let mut nested = b"[".repeat(levels);
                nested.append(bytes);
                nested.extend(b"]".repeat(levels));
                *bytes = nested;
            }
        }
    }
}

/// What an independent reader finds in a document `serde_json` accepts:
/// its deepest nesting and whether any object repeats a member name.
#[derive(Default)]
struct Audit {
    depth: usize,
    duplicate: bool,
}

impl<'de> Deserialize<'de> for Audit {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(AuditVisitor)
    }
}

struct AuditVisitor;

impl<'de> Visitor<'de> for AuditVisitor {
    type Value = Audit;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Audit, E> {
        Ok(Audit::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<Audit, E> {
        Ok(Audit::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<Audit, E> {
        Ok(Audit::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<Audit, E> {
        Ok(Audit::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<Audit, E> {
        Ok(Audit::default())
    }
    fn visit_unit<E>(self) -> Result<Audit, E> {
        Ok(Audit::default())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Audit, A::Error> {
        let mut audit = Audit::default();
        while let Some(item) = items.next_element::<Audit>()? {
            audit.depth = audit.depth.max(item.depth);
            audit.duplicate |= item.duplicate;
        }
        audit.depth += 1;
        Ok(audit)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Audit, A::Error> {
        let mut audit = Audit::default();
        let mut names = HashSet::new();
        while let Some((name, value)) = members.next_entry::<String, Audit>()? {
            audit.duplicate |= !names.insert(name) || value.duplicate;
            audit.depth = audit.depth.max(value.depth);
        }
        audit.depth += 1;
        Ok(audit)
    }
}

/// Whether the core's value is the value `serde_json` read.
fn same_value(core: &Value, serde: &Serde) -> bool {
    match (core, serde) {
        (Value::Null, Serde::Null) => true,
        (Value::Bool(a), Serde::Bool(b)) => a == b,
        (Value::Integer(a), Serde::Number(b)) => b.as_i64() == Some(*a),
        (Value::OtherNumber(_), Serde::Number(b)) => {
            b.is_f64() || b.as_i64().is_none_or(|n| n.abs() > MAX_SAFE_INTEGER)
        }
        (Value::String(a), Serde::String(b)) => a == b,
        (Value::Array(a), Serde::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_value(x, y))
        }
        (Value::Object(a), Serde::Object(b)) => {
            a.values().count() == b.len()
                && b.iter()
                    .all(|(name, y)| a.get(name).is_some_and(|x| same_value(x, y)))
        }
        _ => false,
    }
}

/// What one input showed.
enum Verdict {
    /// Both refused it, or only the core did for a reason the protocol gives.
    Refused,
    /// Both read the same value; `Some(equal)` when it had a canonical form.
    Agreed(Option<bool>),
    /// Only `serde_json` refused it, for a number beyond the range of f64.
    BeyondF64,
    /// The readers disagree.
    Disagreed(String),
}

fn has_other_number(value: &Value) -> bool {
    match value {
        Value::OtherNumber(_) => true,
        Value::Array(items) => items.iter().any(has_other_number),
        Value::Object(members) => members.values().any(has_other_number),
        _ => false,
    }
}

fn check(bytes: &[u8]) -> Verdict {
    let core = parse_strict(bytes);
    let serde = serde_json::from_slice::<Serde>(bytes);
    match (core, serde) {
        (Err(_), Err(_)) => Verdict::Refused,
        // serde_json refuses a number beyond the range of f64; the grammar
        // allows it, and the core reads it as a number with no canonical form.
        (Ok(core), Err(e)) if e.to_string().starts_with("number out of range") => {
            if has_other_number(&core) {
                Verdict::BeyondF64
            } else {
                Verdict::Disagreed(format!("serde_json refuses it ({e})"))
            }
        }
        (Ok(_), Err(e)) => Verdict::Disagreed(format!("serde_json refuses it ({e})")),
        (Err(problem), Ok(_)) => match serde_json::from_slice::<Audit>(bytes) {
            Ok(audit) if audit.duplicate || audit.depth > MAX_DEPTH => Verdict::Refused,
            _ => Verdict::Disagreed(format!("only the core refuses it ({problem})")),
        },
        (Ok(core), Ok(serde)) => {
            let audit = serde_json::from_slice::<Audit>(bytes).unwrap_or_default();
            if audit.duplicate || audit.depth > MAX_DEPTH {
                return Verdict::Disagreed(
                    "the core accepts a duplicate name or deep nesting".into(),
                );
            }
            if !same_value(&core, &serde) {
                return Verdict::Disagreed("the two values differ".into());
            }
            let Some(canonical) = core.canonical() else {
                return Verdict::Agreed(None);
            };
            match serde_json_canonicalizer::to_string(&serde) {
                Ok(expected) if expected == canonical => Verdict::Agreed(Some(true)),
                Ok(expected) => Verdict::Disagreed(format!(
                    "canonical forms differ: core {canonical:?}, serde_json_canonicalizer {expected:?}"
                )),
                Err(e) => Verdict::Disagreed(format!("serde_json_canonicalizer failed: {e}")),
            }
        }
    }
}

fn main() -> std::process::ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(problem) => {
            eprintln!("fuzz: {problem}");
            return std::process::ExitCode::from(2);
        }
    };
    let corpus = corpus();
    let mut rng = fastrand::Rng::with_seed(options.seed);
    let deadline = Instant::now() + Duration::from_secs_f64(options.seconds);
    let (mut cases, mut accepted, mut compared, mut equal) = (0u64, 0u64, 0u64, 0u64);
    let (mut beyond_f64, mut disagreements, mut panics) = (0u64, 0u64, 0u64);
    // Panics are counted and reported here, not printed by the default hook.
    std::panic::set_hook(Box::new(|_| {}));
    while Instant::now() < deadline {
        for _ in 0..256 {
            let seed = &corpus[rng.usize(..corpus.len())];
            let mut input = seed.clone();
            if rng.bool() {
                if let Ok(mut value) = serde_json::from_slice::<Serde>(seed) {
                    mutate_value(&mut rng, &mut value, 0);
                    input = value.to_string().into_bytes();
                }
            }
            if rng.u8(0..4) != 0 {
                mutate_bytes(&mut rng, &mut input, &corpus);
            }
            cases += 1;
            match catch_unwind(AssertUnwindSafe(|| check(&input))) {
                Ok(Verdict::Refused) => {}
                Ok(Verdict::BeyondF64) => beyond_f64 += 1,
                Ok(Verdict::Agreed(canonical)) => {
                    accepted += 1;
                    compared += u64::from(canonical.is_some());
                    equal += u64::from(canonical == Some(true));
                }
                Ok(Verdict::Disagreed(what)) => {
                    disagreements += 1;
                    if disagreements <= 5 {
                        report(options.seed, cases, &what, &input);
                    }
                }
                Err(_) => {
                    panics += 1;
                    if panics <= 5 {
                        report(options.seed, cases, "panic", &input);
                    }
                }
            }
        }
    }
    println!(
        "fuzz (seed {}, {} s): {cases} cases, {accepted} accepted by both readers, {compared} canonical forms compared ({equal} equal), {beyond_f64} numbers beyond f64 (refused by serde_json only), {disagreements} disagreements, {panics} panics",
        options.seed, options.seconds
    );
    if disagreements + panics == 0 {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}

fn report(seed: u64, case: u64, what: &str, input: &[u8]) {
    let shown: String = String::from_utf8_lossy(&input[..input.len().min(300)])
        .escape_debug()
        .collect();
    eprintln!(
        "fuzz: seed {seed} case {case}: {what}\n  input ({} bytes): {shown}",
        input.len()
    );
}
