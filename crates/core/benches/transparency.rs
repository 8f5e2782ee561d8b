//! The transparency log's figures (docs/figures.md, Transparency): the
//! bytes of the proof a verdict carries at 10⁴ and 10⁶ entries (10⁷
//! written from the same rule: one hash more per doubling), the time to
//! check one natively, and the time to append a million leaves to a tree.
//! `cargo bench -p x402-verdict-core --bench transparency` prints them
//! (no timing assertions).

use std::hint::black_box;
use std::time::Instant;

use ed25519_dalek::SigningKey;
use serde_json::json;
use x402_verdict_core::json::Object;
use x402_verdict_core::transparency::{
    check_log_proof, cosign, entry, leaf_hash, sign_note, Checkpoint, KeyKind, LogProof, LogTrust,
    NoteKey, Policy, ProofCheck, Tree, LOG_PROOF_MEMBER,
};
use x402_verdict_core::{sign_verdict_carrying, VerdictDocument};

const ORIGIN: &str = "verdicts.example/log";
const WITNESS: &str = "w1.example";

fn verdict() -> Object {
    let verdict = json!({
        "v": 1, "chain": "base", "payTo": "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
        "resourceUrl": "https://api.example.com/premium-data", "outcome": "human_backed",
        "assuranceLevel": "G", "verifiedAt": "2026-09-01T08:00:00Z", "recheckEveryHours": 24,
        "renewBy": "2027-09-01T00:00:00Z", "issuedAt": "2026-09-01T08:00:05Z",
    });
    Object::parse(verdict.to_string().as_bytes()).unwrap()
}

/// A tree of `size` leaves whose first is the verdict's statement, and
/// the document carrying its proof (one cosignature).
fn document(size: u64, log: &SigningKey, witness: &SigningKey) -> String {
    let statement = leaf_hash(entry(&verdict()).unwrap().as_bytes());
    let mut tree = Tree::from_leaves([statement]);
    for i in 1..size {
        tree.push(leaf_hash(&i.to_be_bytes()));
    }
    let text = Checkpoint {
        origin: ORIGIN.into(),
        size,
        root: tree.root(size).unwrap(),
        extensions: vec![],
    }
    .to_text();
    let note = [
        text.clone(),
        "\n".into(),
        sign_note(&text, ORIGIN, log).unwrap(),
        cosign(&text, WITNESS, witness, 1_788_249_610).unwrap(),
    ]
    .concat();
    // The first leaf: a proof as long as any at this size.
    let proof = LogProof {
        index: 0,
        leaf: statement,
        hashes: tree.inclusion_proof(0, size).unwrap(),
        checkpoint: note,
    };
    let mut carried = Object::new();
    carried.insert(LOG_PROOF_MEMBER, proof.to_text().as_str().into());
    sign_verdict_carrying(verdict(), &SigningKey::from_bytes(&[9; 32]), &carried).unwrap()
}

fn main() {
    let (log, witness) = (
        SigningKey::from_bytes(&[21; 32]),
        SigningKey::from_bytes(&[31; 32]),
    );
    let trust = LogTrust::new(
        NoteKey::new(ORIGIN, KeyKind::Note, log.verifying_key()).unwrap(),
        vec![NoteKey::new(WITNESS, KeyKind::Cosignature, witness.verifying_key()).unwrap()],
        1,
    )
    .unwrap();
    let bare = sign_verdict_carrying(verdict(), &SigningKey::from_bytes(&[9; 32]), &Object::new())
        .unwrap()
        .len();
    let mut largest = 0;
    for size in [10_000u64, 1_000_000] {
        let document = document(size, &log, &witness);
        let parsed = VerdictDocument::parse(document.as_bytes()).unwrap();
        let proof = parsed.log_proof.as_ref().unwrap().as_str().unwrap().len();
        largest = proof;
        println!(
            "{size:>9} entries: proof {proof} B, document {} B ({bare} B without)",
            document.len()
        );
        let check = || {
            check_log_proof(
                Policy::Required,
                &trust,
                &parsed.raw,
                parsed.log_proof.as_ref(),
            )
        };
        assert!(matches!(check(), ProofCheck::Proven(_)));
        let rounds = 2000;
        let started = Instant::now();
        for _ in 0..rounds {
            black_box(check());
        }
        println!(
            "{size:>9} entries: check_log_proof {:.1} µs",
            started.elapsed().as_secs_f64() * 1e6 / f64::from(rounds)
        );
    }
    // 10^7 entries, worked out rather than built: an inclusion path of
    // ceil(log2(10^7)) = 24 hashes against 10^6's 20, each a base64 line of 45 B.
    println!(
        " 10000000 entries: proof about {} B (worked out: 4 hashes more than at 10^6, 45 B each)",
        largest + 4 * 45
    );
    let started = Instant::now();
    let mut tree = Tree::new();
    for i in 0..1_000_000u64 {
        tree.push(leaf_hash(&i.to_be_bytes()));
    }
    black_box(tree.root(tree.size()));
    println!(
        "Tree::push of 10^6 leaves (hashed): {:.0} ms",
        started.elapsed().as_secs_f64() * 1e3
    );
}
