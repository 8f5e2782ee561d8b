//! The key certificate and root vectors of `tests/vectors/trust/` (docs/protocol.md,
//! Roots and key certificates): each document is what the core writes from the seeds the
//! file names, byte for byte, and reads as the file says under a consumer
//! pinned to root version 1. `X402_WRITE_VECTORS=1` writes the file anew.

use std::fs;
use std::path::PathBuf;

use serde_json::{json, Value};
use x402_verdict_core::ed25519_dalek::SigningKey;
use x402_verdict_core::json::Object;
use x402_verdict_core::{
    certify_key, encode_base64, sign_root, sign_verdict, sign_verdict_carrying, Endpoint, Lookup,
    Response, RootSigner, Timestamp, TrustedKeys,
};

fn key(seed: u8) -> SigningKey {
    SigningKey::from_bytes(&[seed; 32])
}

fn time(text: &str) -> Timestamp {
    Timestamp::parse_rfc3339(text).unwrap()
}

const ROOT1: u8 = 1;
const ROOT2: u8 = 2;
const OTHER_ROOT: u8 = 3;
const SIGNING1: u8 = 11;
const SIGNING2: u8 = 12;

const ENDPOINT: [&str; 3] = [
    "base",
    "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
    "https://api.example.com/premium-data",
];

fn verdict(issued_at: &str) -> Object {
    Object::parse(
        json!({"v": 1, "chain": ENDPOINT[0], "payTo": ENDPOINT[1], "resourceUrl": ENDPOINT[2],
            "outcome": "human_backed", "assuranceLevel": "G", "verifiedAt": "2026-09-01T08:00:00Z",
            "recheckEveryHours": 24, "issuedAt": issued_at})
        .to_string()
        .as_bytes(),
    )
    .unwrap()
}

/// The certificate of `signing` by root `version` (key `root`), for 90 days
/// from 2026-09-01.
fn certificate(signing: u8, root: u8, version: u32) -> Value {
    certificate_for(
        signing,
        root,
        version,
        ("2026-09-01T00:00:00Z", "2026-11-30T00:00:00Z"),
    )
}

fn certificate_for(signing: u8, root: u8, version: u32, window: (&str, &str)) -> Value {
    let signer = RootSigner {
        key: &key(root),
        version,
    };
    let (from, to) = (time(window.0), time(window.1));
    Value::String(certify_key(&key(signing).verifying_key(), from, to, signer).unwrap())
}

fn root(version: u32, seed: u8, previous: Option<u8>) -> Value {
    Value::String(sign_root(version, &key(seed), previous.map(key).as_ref()))
}

/// A verdict signed by `signing`, carrying `carried`.
fn document(signing: u8, carried: Value, issued_at: &str) -> Value {
    let carried = Object::parse(carried.to_string().as_bytes()).unwrap();
    let text = sign_verdict_carrying(verdict(issued_at), &key(signing), &carried).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Every case: its name, the document, and what a consumer pinned to root
/// version 1 reads (signature, state under strict, detail), in order: a
/// case after a root rotation leaves the consumer at version 2.
fn cases() -> Vec<(
    &'static str,
    Value,
    &'static str,
    &'static str,
    Option<&'static str>,
)> {
    let at = "2026-09-01T08:00:05Z";
    let v2 = root(2, ROOT2, Some(ROOT1));
    // Version 3 with no version 2 before it.
    let v3 = root(3, OTHER_ROOT, Some(ROOT2));
    let bare: Value =
        serde_json::from_str(&sign_verdict(verdict(at), &key(SIGNING1)).unwrap()).unwrap();
    let good = || json!({"certificate": certificate(SIGNING1, ROOT1, 1)});
    vec![
        (
            "certified_by_root_1",
            document(SIGNING1, good(), at),
            "valid",
            "human-backed",
            None,
        ),
        (
            "no_certificate",
            bare,
            "unverifiable",
            "unknown",
            Some("no key certificate"),
        ),
        (
            "signed_by_another_root",
            document(
                SIGNING1,
                json!({"certificate": certificate(SIGNING1, OTHER_ROOT, 1)}),
                at,
            ),
            "unverifiable",
            "unknown",
            Some("key certificate of another root"),
        ),
        (
            "issued_outside_the_window",
            document(
                SIGNING1,
                json!({"certificate": certificate_for(SIGNING1, ROOT1, 1,
                ("2026-06-01T00:00:00Z", "2026-08-30T00:00:00Z"))}),
                at,
            ),
            "unverifiable",
            "unknown",
            Some("issued outside its key certificate's window"),
        ),
        (
            "certificate_for_another_key",
            document(SIGNING2, good(), at),
            "unverifiable",
            "unknown",
            Some("key certificate of another key"),
        ),
        (
            "broken_chain",
            document(
                SIGNING2,
                json!({"certificate": certificate(SIGNING2, OTHER_ROOT, 3), "roots": [v3]}),
                at,
            ),
            "unverifiable",
            "unknown",
            Some("broken chain of roots"),
        ),
        (
            "certified_by_root_2",
            document(
                SIGNING2,
                json!({"certificate": certificate(SIGNING2, ROOT2, 2), "roots": [v2]}),
                at,
            ),
            "valid",
            "human-backed",
            None,
        ),
        (
            "rollback_to_root_1",
            document(SIGNING1, good(), at),
            "unverifiable",
            "unknown",
            Some("key certificate of an older root (rollback)"),
        ),
    ]
}

fn vectors() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/trust/chains.json")
}

fn written() -> Value {
    json!({
        "seeds": "each key's 32-byte seed is its one byte repeated",
        "rootKey": encode_base64(key(ROOT1).verifying_key().as_bytes()),
        "keys": {"root1": ROOT1, "root2": ROOT2, "otherRoot": OTHER_ROOT,
            "signing1": SIGNING1, "signing2": SIGNING2},
        "now": "2026-09-01T09:00:00Z",
        "roots": [root(1, ROOT1, None), root(2, ROOT2, Some(ROOT1))],
        "cases": cases().into_iter().map(|(name, document, signature, state, detail)| json!({
            "name": name, "document": document, "signature": signature,
            "strictState": state, "detail": detail,
        })).collect::<Vec<_>>(),
    })
}

#[test]
fn the_vectors_are_what_the_core_writes_and_read_as_they_say() {
    let expected = written();
    if std::env::var_os("X402_WRITE_VECTORS").is_some() {
        fs::write(vectors(), format!("{expected:#}\n")).unwrap();
    }
    let file: Value = serde_json::from_slice(&fs::read(vectors()).unwrap()).unwrap();
    assert_eq!(file, expected, "the core writes the vectors anew");

    let root = TrustedKeys::from_comma_list(file["rootKey"].as_str().unwrap()).unwrap();
    let lookup = Lookup {
        endpoint: Endpoint::new(ENDPOINT[0], ENDPOINT[1], ENDPOINT[2]).unwrap(),
        keys: TrustedKeys::none().with_roots(&root),
        strict: true,
    };
    let now = time(file["now"].as_str().unwrap());
    for case in file["cases"].as_array().unwrap() {
        let body = case["document"].to_string();
        let result = lookup.evaluate(
            Response::Http {
                status: 200,
                body: body.as_bytes(),
            },
            now,
        );
        let name = &case["name"];
        assert_eq!(result.signature.as_str(), case["signature"], "{name}");
        assert_eq!(result.state.as_str(), case["strictState"], "{name}");
        assert_eq!(result.detail.as_deref(), case["detail"].as_str(), "{name}");
    }
    assert_eq!(lookup.keys.roots()[0].newest().0, 2);
}

// Each test below pins a root of its own: the newest root version verified
// under a key is the process's.

#[test]
fn a_public_key_pin_reads_a_certified_verdict_as_today() {
    let at = "2026-09-01T08:00:05Z";
    let own_root = 21;
    let doc = document(
        SIGNING1,
        json!({"certificate": certificate(SIGNING1, own_root, 1)}),
        at,
    );
    let body = doc.to_string();
    let endpoint = Endpoint::new(ENDPOINT[0], ENDPOINT[1], ENDPOINT[2]).unwrap();
    let read = |keys: TrustedKeys| {
        let lookup = Lookup {
            endpoint: endpoint.clone(),
            keys,
            strict: true,
        };
        let answer = Response::Http {
            status: 200,
            body: body.as_bytes(),
        };
        let result = lookup.evaluate(answer, time("2026-09-01T09:00:00Z"));
        (result.signature.as_str(), result.detail)
    };
    let signing = TrustedKeys::from_keys([key(SIGNING1).verifying_key()]);
    let other = TrustedKeys::from_keys([key(SIGNING2).verifying_key()]);
    let root = TrustedKeys::from_keys([key(own_root).verifying_key()]);
    assert_eq!(read(signing.clone()), ("valid", None));
    assert_eq!(read(other.clone()), ("unverifiable", None));
    assert_eq!(read(other.with_roots(&root)), ("valid", None));
    assert_eq!(read(TrustedKeys::none()), ("not_checked", None));
}

#[test]
fn a_chain_longer_than_the_bound_is_refused() {
    let at = "2026-09-01T08:00:05Z";
    let own_root = 22;
    let mut roots = Vec::new();
    let mut previous = own_root;
    for version in 2..=9u32 {
        let seed = 100 + version as u8;
        roots.push(root(version, seed, Some(previous)));
        previous = seed;
    }
    let carried = json!({"certificate": certificate(SIGNING1, previous, 9), "roots": roots});
    let body = document(SIGNING1, carried, at).to_string();
    let lookup = Lookup {
        endpoint: Endpoint::new(ENDPOINT[0], ENDPOINT[1], ENDPOINT[2]).unwrap(),
        keys: TrustedKeys::none()
            .with_roots(&TrustedKeys::from_keys([key(own_root).verifying_key()])),
        strict: false,
    };
    let answer = Response::Http {
        status: 200,
        body: body.as_bytes(),
    };
    let result = lookup.evaluate(answer, time("2026-09-01T09:00:00Z"));
    assert_eq!(result.signature.as_str(), "unverifiable");
    assert_eq!(
        result.detail.as_deref(),
        Some("malformed key certificate or roots")
    );
    assert_eq!(lookup.keys.roots()[0].newest().0, 1);
}

#[test]
fn a_pin_of_a_later_root_version_walks_on_from_that_version() {
    let at = "2026-09-01T08:00:05Z";
    // Root versions 1 to 3 of their own; the consumer was given version 2's
    // key, after the root's first rotation.
    let (v1, v2, v3) = (31, 32, 33);
    let lookup = Lookup {
        endpoint: Endpoint::new(ENDPOINT[0], ENDPOINT[1], ENDPOINT[2]).unwrap(),
        keys: TrustedKeys::none().with_roots(&TrustedKeys::from_keys([key(v2).verifying_key()])),
        strict: true,
    };
    let read = |signing: u8, carried: Value| {
        let body = document(signing, carried, at).to_string();
        let answer = Response::Http {
            status: 200,
            body: body.as_bytes(),
        };
        let result = lookup.evaluate(answer, time("2026-09-01T09:00:00Z"));
        (result.signature.as_str(), result.detail)
    };
    let by_version_1 = json!({"certificate": certificate(SIGNING1, v1, 1)});
    let to_version_2 = vec![root(2, v2, Some(v1))];
    let by_version_2 = json!({"certificate": certificate(SIGNING1, v2, 2), "roots": to_version_2});
    let to_version_3 = vec![root(2, v2, Some(v1)), root(3, v3, Some(v2))];
    let by_version_3 = json!({"certificate": certificate(SIGNING2, v3, 3), "roots": to_version_3});
    let another_root = "key certificate of another root".to_owned();
    assert_eq!(
        read(SIGNING1, by_version_1),
        ("unverifiable", Some(another_root))
    );
    assert_eq!(lookup.keys.roots()[0].newest().0, 1);
    assert_eq!(read(SIGNING1, by_version_2.clone()), ("valid", None));
    assert_eq!(lookup.keys.roots()[0].newest().0, 2);
    assert_eq!(read(SIGNING2, by_version_3), ("valid", None));
    assert_eq!(lookup.keys.roots()[0].newest().0, 3);
    let rollback = "key certificate of an older root (rollback)".to_owned();
    assert_eq!(
        read(SIGNING1, by_version_2),
        ("unverifiable", Some(rollback))
    );
}
