//! `cargo xtask log-fixture CHAIN PAY_TO RESOURCE_URL [SIZE]`: verdict documents
//! about one endpoint, signed now, with the transparency proofs (or none)
//! each case of docs/protocol.md's rule needs, for the consumers' tests,
//! which serve them from a loopback server (the vectors of
//! `crates/core/tests/vectors/transparency/proofs.json` are signed at a
//! fixed time, long overdue by a consumer's clock).
//!
//! The log holds `SIZE` entries (5 unless given, at least 4); the
//! endpoint's statement is entry 2, the others stand for other verdicts
//! (their leaves hash `sibling N`).
//! Its checkpoint is signed by the log and cosigned by the first of two
//! witnesses. The output is one JSON object: the signing key, the log's
//! and the witnesses' verifier keys, another log's key, and the documents
//! by case: `proven`, `signedOutsideTheLog` (no `logProof`), `tampered`
//! (an inclusion hash flipped), `anotherEntry` (the proof of entry 3),
//! `anotherLog` (a checkpoint signed by another log's key).

use std::time::{Duration, SystemTime};

use serde_json::{json, Value};
use x402_verdict_core::ed25519_dalek::SigningKey;
use x402_verdict_core::json::Object;
use x402_verdict_core::transparency::{
    cosign, entry, leaf_hash, sign_note, Checkpoint, KeyKind, LogProof, NoteKey, Tree,
    LOG_PROOF_MEMBER,
};
use x402_verdict_core::{encode_base64, sign_verdict_carrying, Timestamp};

/// The log's origin.
const ORIGIN: &str = "log.verdicts.test";
/// The entry of the endpoint's statement.
const INDEX: u64 = 2;
/// The fewest entries a fixture's log holds: the endpoint's and the
/// next, whose proof another case carries.
pub const MIN_SIZE: u64 = 4;

/// The key of one byte repeated: every key of the fixture is fixed.
fn key(seed: u8) -> SigningKey {
    SigningKey::from_bytes(&[seed; 32])
}

/// The verifier key of `seed` under `name`.
fn verifier(name: &str, kind: KeyKind, seed: u8) -> NoteKey {
    NoteKey::new(name, kind, key(seed).verifying_key()).expect("a key name")
}

/// The endpoint's `verdict` object, signed at `now`.
fn verdict(endpoint: &[String; 3], now: SystemTime) -> Object {
    let at = |ago: u64| Timestamp::from_system_time(now - Duration::from_secs(ago)).to_rfc3339();
    let verdict = json!({"v": 1, "chain": endpoint[0], "payTo": endpoint[1],
        "resourceUrl": endpoint[2], "outcome": "human_backed", "assuranceLevel": "G",
        "verifiedAt": at(3600), "recheckEveryHours": 24, "issuedAt": at(0)});
    Object::parse(verdict.to_string().as_bytes()).expect("a verdict object")
}

/// The fixture for `endpoint` (chain, payTo, resourceUrl), signed at
/// `now`, in a log of `size` entries (at least [`MIN_SIZE`]).
pub fn fixture(endpoint: &[String; 3], now: SystemTime, size: u64) -> Value {
    let verdict = verdict(endpoint, now);
    let leaf = |i: u64| match i {
        INDEX => leaf_hash(entry(&verdict).expect("a statement").as_bytes()),
        _ => leaf_hash(format!("sibling {i}").as_bytes()),
    };
    let tree = Tree::from_leaves((0..size.max(MIN_SIZE)).map(leaf));
    let size = tree.size();
    let text = Checkpoint {
        origin: ORIGIN.into(),
        size,
        root: tree.root(size).expect("the tree's root"),
        extensions: vec![],
    }
    .to_text();
    let witness = verifier("w1.verdicts.test", KeyKind::Cosignature, 31);
    let cosigned_at = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let cosignature = cosign(&text, &witness.name, &key(31), cosigned_at).expect("cosigned");
    let signed_by = |log: u8| {
        let signature = sign_note(&text, ORIGIN, &key(log)).expect("signed");
        [text.as_str(), "\n", &signature, &cosignature].concat()
    };
    let proof = |i: u64, log: u8| LogProof {
        index: i,
        leaf: leaf(i),
        hashes: tree.inclusion_proof(i, size).expect("a proof"),
        checkpoint: signed_by(log),
    };
    let mut tampered = proof(INDEX, 21);
    tampered.hashes[0][0] ^= 1;
    let document = |proof: Option<LogProof>| {
        let mut carried = Object::new();
        if let Some(proof) = proof {
            carried.insert(LOG_PROOF_MEMBER, proof.to_text().as_str().into());
        }
        let text =
            sign_verdict_carrying(verdict.clone(), &key(11), &carried).expect("a signed verdict");
        serde_json::from_str::<Value>(&text).expect("JSON")
    };
    json!({
        "publicKey": encode_base64(key(11).verifying_key().as_bytes()),
        "logKey": verifier(ORIGIN, KeyKind::Note, 21).to_text(),
        "otherLogKey": verifier(ORIGIN, KeyKind::Note, 22).to_text(),
        "witnessKeys": [witness.to_text(), verifier("w2.verdicts.test", KeyKind::Cosignature, 32).to_text()],
        "documents": {
            "proven": document(Some(proof(INDEX, 21))),
            "signedOutsideTheLog": document(None),
            "tampered": document(Some(tampered)),
            "anotherEntry": document(Some(proof(INDEX + 1, 21))),
            "anotherLog": document(Some(proof(INDEX, 22))),
        },
    })
}
