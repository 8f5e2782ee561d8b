//! How long one lookup's evaluation takes, and which part costs what.
//! `cargo bench -p x402-verdict-core` prints the figures (no timing assertions).

use std::hint::black_box;
use std::time::{Duration, Instant};

use ed25519_dalek::SigningKey;
use serde_json::json;
use x402_verdict_core::json::{parse_strict, Object};
use x402_verdict_core::{
    sign_verdict, signed_message, verify_strict, Endpoint, Lookup, Response, Timestamp,
    TrustedKeys, VerdictDocument,
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
    let document = sign_verdict(verdict, &key).unwrap();
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
