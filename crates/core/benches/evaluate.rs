//! How long one lookup's evaluation takes, and which part costs what.
//! `cargo bench -p x402-verdict-core` prints the figures (no timing assertions).

use std::hint::black_box;
use std::time::{Duration, Instant};

use ed25519_dalek::SigningKey;
use serde_json::json;
use x402_verdict_core::json::{parse_strict, Object, Value};
use x402_verdict_core::{
    certify_key, sign_root, sign_verdict, sign_verdict_carrying, signed_message, verify_strict,
    Endpoint, Lookup, Response, RootSigner, Timestamp, TrustedKeys, VerdictDocument,
};

fn time(name: &str, mut f: impl FnMut()) -> Duration {
    for _ in 0..200 {
        f();
    }
    let rounds = 5000;
    let started = Instant::now();
    for _ in 0..rounds {
        f();
    }
    let each = started.elapsed() / rounds;
    println!("{name:<34} {:>9.2} µs", each.as_secs_f64() * 1e6);
    each
}

fn main() {
    let key = SigningKey::from_bytes(&[9; 32]);
    let verdict = json!({
        "v": 1, "chain": "base", "payTo": "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
        "resourceUrl": "https://api.example.com/premium-data", "outcome": "human_backed",
        "assuranceLevel": "G", "verifiedAt": "2026-09-01T08:00:00Z", "recheckEveryHours": 24,
        "issuedAt": "2026-09-01T08:00:05Z", "operator": "Example Co", "relatedParty": false,
    });
    let verdict = Object::parse(verdict.to_string().as_bytes()).unwrap();
    let document = sign_verdict(verdict.clone(), &key).unwrap();
    let body = document.clone().into_bytes();
    let document: serde_json::Value = serde_json::from_str(&document).unwrap();
    let lookup = Lookup {
        endpoint: Endpoint::new(
            "base",
            "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
            "https://api.example.com/premium-data",
        )
        .unwrap(),
        keys: TrustedKeys::from_keys([key.verifying_key()]),
        strict: true,
    };
    let now = Timestamp::parse_rfc3339("2026-09-01T09:00:00Z").unwrap();
    let parsed = VerdictDocument::parse(&body).unwrap();
    let message = signed_message(&parsed.raw).unwrap();
    let signature =
        x402_verdict_core::decode_base64(document["signature"].as_str().unwrap()).unwrap();

    println!("one verdict document of {} bytes", body.len());
    let total = time("evaluate (parse + JCS + verify)", || {
        black_box(lookup.evaluate(
            Response::Http {
                status: 200,
                body: black_box(&body),
            },
            now,
        ));
    });
    let parse = time("  strict JSON parse", || {
        black_box(parse_strict(black_box(&body)).unwrap());
    });
    let validate = time("  parse + validate the document", || {
        black_box(VerdictDocument::parse(black_box(&body)).unwrap());
    });
    let jcs = time("  RFC 8785 signed message", || {
        black_box(signed_message(black_box(&parsed.raw)));
    });
    let verify = time("  strict Ed25519 verify", || {
        black_box(verify_strict(
            &key.verifying_key(),
            black_box(&message),
            &signature,
        ));
    });
    let share = |d: Duration| 100.0 * d.as_secs_f64() / total.as_secs_f64();
    println!(
        "shares of evaluate: parse {:.0}%, validation {:.0}%, JCS {:.0}%, verify {:.0}%",
        share(parse),
        share(validate.saturating_sub(parse)),
        share(jcs),
        share(verify)
    );

    chained(&verdict, &key, &lookup, &body, total, now);

    // A hostile body at the 64 KiB cap: one object with as many distinct
    // names as fit. Sorting keeps the duplicate check O(n log n).
    let members: Vec<String> = (0..7000).map(|i| format!("\"{i:x}\":0")).collect();
    let hostile = format!("{{{}}}", members.join(","));
    assert!(hostile.len() <= 64 * 1024);
    println!(
        "a {} KiB object with {} members:",
        hostile.len() / 1024,
        members.len()
    );
    time("  strict JSON parse", || {
        black_box(parse_strict(black_box(hostile.as_bytes())).unwrap());
    });
}

/// A root of trust: the bytes a key certificate (and a root version) adds
/// to a verdict, and the time to evaluate a verdict under a pinned root
/// against the same verdict under its pinned key (`bare`, `bare_time`).
fn chained(
    verdict: &Object,
    key: &SigningKey,
    bare_lookup: &Lookup,
    bare: &[u8],
    bare_time: Duration,
    now: Timestamp,
) {
    let (root1, root2) = (
        SigningKey::from_bytes(&[1; 32]),
        SigningKey::from_bytes(&[2; 32]),
    );
    let from = Timestamp::parse_rfc3339("2026-09-01T00:00:00Z").unwrap();
    let to = from.plus_seconds(90 * 86_400);
    let carrying = |root: &SigningKey, version, roots: Vec<Value>| {
        let signer = RootSigner { key: root, version };
        let certificate = certify_key(&key.verifying_key(), from, to, signer).unwrap();
        let mut carried = Object::new();
        carried.insert("certificate", Value::String(certificate));
        if !roots.is_empty() {
            carried.insert("roots", Value::Array(roots));
        }
        sign_verdict_carrying(verdict.clone(), key, &carried)
            .unwrap()
            .into_bytes()
    };
    let under_root_1 = carrying(&root1, 1, Vec::new());
    let v2 = Value::String(sign_root(2, &root2, Some(&root1)));
    let under_root_2 = carrying(&root2, 2, vec![v2]);
    println!(
        "bytes a verdict carries beside its own {}: a key certificate {}, with one root version {}",
        bare.len(),
        under_root_1.len() - bare.len(),
        under_root_2.len() - bare.len()
    );
    let pinned = |seed: u8| Lookup {
        keys: TrustedKeys::none().with_roots(&TrustedKeys::from_keys([SigningKey::from_bytes(
            &[seed; 32],
        )
        .verifying_key()])),
        ..bare_lookup.clone()
    };
    let evaluate = |lookup: &Lookup, body: &[u8]| {
        let result = lookup.evaluate(Response::Http { status: 200, body }, now);
        assert_eq!(result.signature.as_str(), "valid");
        black_box(result);
    };
    let lookup = pinned(1);
    let chained = time("evaluate a verdict under its root", || {
        evaluate(&lookup, black_box(&under_root_1))
    });
    // Pinned to version 1 of another root whose version 2 signs: the walk
    // verifies version 2 once, then holds it (as a consumer does).
    let (root3, root4) = (
        SigningKey::from_bytes(&[3; 32]),
        SigningKey::from_bytes(&[4; 32]),
    );
    let walked = {
        let signer = RootSigner {
            key: &root4,
            version: 2,
        };
        let certificate = certify_key(&key.verifying_key(), from, to, signer).unwrap();
        let mut carried = Object::new();
        carried.insert("certificate", Value::String(certificate));
        let v2 = Value::String(sign_root(2, &root4, Some(&root3)));
        carried.insert("roots", Value::Array(vec![v2]));
        sign_verdict_carrying(verdict.clone(), key, &carried)
            .unwrap()
            .into_bytes()
    };
    let first = Instant::now();
    evaluate(&pinned(3), &walked);
    println!(
        "{:<34} {:>9.2} µs",
        "  the first, walking root version 2",
        first.elapsed().as_secs_f64() * 1e6
    );
    println!(
        "a verdict under its root takes {:.2}x the time under its key",
        chained.as_secs_f64() / bare_time.as_secs_f64()
    );
}
