//! `x402-verdict witness` over loopback (C2SP tlog-witness `add-checkpoint`):
//! it cosigns a log's consistent checkpoints, refuses a split view (409 for
//! another root at its size, 422 for a history that does not extend the one
//! it cosigned) and keeps the evidence, and a restart, even after kill -9,
//! never forgets the size it cosigned.

mod support;

use std::path::Path;

use support::*;
use tokio::process::Command;
use x402_verdict_core::ed25519_dalek::SigningKey;
use x402_verdict_core::transparency::{
    leaf_hash, sign_note, Checkpoint, Hash, KeyKind, Note, NoteKey, Tree,
};
use x402_verdict_core::{encode_base64, parse_public_key};

const ORIGIN: &str = "verdicts.example/log";
const NAME: &str = "w1.example";

fn log_key(seed: u8) -> SigningKey {
    SigningKey::from_bytes(&[seed; 32])
}

fn log_verifier() -> String {
    NoteKey::new(ORIGIN, KeyKind::Note, log_key(21).verifying_key())
        .unwrap()
        .to_text()
}

/// `n` leaves of the history named `history`, the first `shared` of them
/// the honest history's.
fn leaves(history: &str, shared: usize, n: usize) -> Vec<Hash> {
    (0..n)
        .map(|i| {
            let name = if i < shared { "honest" } else { history };
            leaf_hash(format!("{name} entry {i}").as_bytes())
        })
        .collect()
}

/// The checkpoint of `leaves` under `origin`, signed by the log key of `seed`.
fn checkpoint_by(leaves: &[Hash], origin: &str, seed: u8) -> String {
    let text = Checkpoint {
        origin: origin.into(),
        size: leaves.len() as u64,
        root: Tree::from_leaves(leaves.iter().copied())
            .root(leaves.len() as u64)
            .unwrap(),
        extensions: vec![],
    }
    .to_text();
    let signature = sign_note(&text, origin, &log_key(seed)).unwrap();
    [text, "\n".into(), signature].concat()
}

fn checkpoint(leaves: &[Hash]) -> String {
    checkpoint_by(leaves, ORIGIN, 21)
}

/// An `add-checkpoint` body from `old` leaves to the checkpoint `note`,
/// with the consistency proof of `leaves`.
fn body(old: usize, leaves: &[Hash], note: &str) -> String {
    let mut body = format!("old {old}\n");
    let tree = Tree::from_leaves(leaves.iter().copied());
    for hash in tree.consistency_proof(old as u64, tree.size()).unwrap() {
        body.push_str(&encode_base64(&hash));
        body.push('\n');
    }
    body.push('\n');
    body.push_str(note);
    body
}

/// Starts the witness on a free loopback port with its state in `state`.
async fn start(keys: &Path, state: &Path, log_key: &str) -> Service {
    let mut command = Command::new(BIN);
    command
        .args([
            "witness",
            "--listen",
            "127.0.0.1:0",
            "--name",
            NAME,
            "--log-key",
            log_key,
        ])
        .arg("--keys")
        .arg(keys)
        .arg("--state")
        .arg(state);
    let (witness, printed) = Service::listening_after(command, 1).await;
    assert!(
        printed[0].starts_with(&format!("witness key {NAME}+")),
        "{printed:?}"
    );
    witness
}

/// POSTs `body` to `add-checkpoint`: (status, media type, body).
async fn post(witness: &Service, body: String) -> (u16, String, String) {
    let response = reqwest::Client::new()
        .post(format!("{}/add-checkpoint", witness.url))
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let media_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, media_type, response.text().await.unwrap())
}

/// The witness's cosignature key, from its key file's public key.
fn witness_verifier(public_key: &str) -> NoteKey {
    NoteKey::new(
        NAME,
        KeyKind::Cosignature,
        parse_public_key(public_key).unwrap(),
    )
    .unwrap()
}

/// Whether `line` is the witness's valid cosignature of `note`.
fn cosigns(witness: &NoteKey, note: &str, line: &str) -> bool {
    Note::parse(&[note, line].concat())
        .and_then(|note| note.cosigned_by(witness))
        .is_some()
}

fn evidence(state: &Path) -> Vec<String> {
    names_in(&state.join("evidence"))
}

#[tokio::test]
async fn cosigns_a_consistent_history_and_refuses_a_split_view() {
    let dir = scratch("witness");
    let keys = dir.join("witness.json");
    let public_key = keygen(&keys, false).await;
    let state = dir.join("state");
    let witness = start(&keys, &state, &log_verifier()).await;
    let key = witness_verifier(&public_key);
    let honest = leaves("honest", 10, 10);
    // A first checkpoint, from nothing; then one consistent with it.
    let first = checkpoint(&honest[..3]);
    let (status, _, line) = post(&witness, body(0, &honest[..3], &first)).await;
    assert_eq!(status, 200, "{line}");
    assert!(cosigns(&key, &first, &line), "{line}");
    let second = checkpoint(&honest[..7]);
    let (status, _, line) = post(&witness, body(3, &honest[..7], &second)).await;
    assert_eq!(status, 200, "{line}");
    assert!(cosigns(&key, &second, &line));
    // A client behind the witness learns its size.
    let (status, media_type, size) =
        post(&witness, body(3, &honest[..8], &checkpoint(&honest[..8]))).await;
    assert_eq!(
        (status, media_type.as_str(), size.as_str()),
        (409, "text/x.tlog.size", "7\n")
    );
    assert!(evidence(&state).is_empty());
    // A split view: another history sharing the first 5 entries.
    let fork = leaves("fork", 5, 9);
    let (status, _, reason) = post(&witness, body(7, &fork, &checkpoint(&fork))).await;
    assert_eq!(status, 422, "{reason}");
    assert!(reason.contains("split view"), "{reason}");
    let (status, _, reason) = post(&witness, body(7, &fork[..7], &checkpoint(&fork[..7]))).await;
    assert_eq!(status, 409, "{reason}");
    assert!(reason.contains("split view"), "{reason}");
    let kept = evidence(&state);
    assert_eq!(kept.len(), 2, "{kept:?}");
    let first_kept = std::fs::read_to_string(state.join("evidence").join(&kept[0])).unwrap();
    assert!(
        first_kept.ends_with(&checkpoint(&fork)) || first_kept.ends_with(&checkpoint(&fork[..7]))
    );
    // Not the log's: another origin, another key, no note at all.
    let other_origin = checkpoint_by(&honest[..9], "other.example/log", 21);
    assert_eq!(
        post(&witness, body(7, &honest[..9], &other_origin)).await.0,
        404
    );
    let other_key = checkpoint_by(&honest[..9], ORIGIN, 22);
    assert_eq!(
        post(&witness, body(7, &honest[..9], &other_key)).await.0,
        403
    );
    assert_eq!(post(&witness, "old 7\n\nnot a note\n".into()).await.0, 400);
    assert_eq!(
        evidence(&state).len(),
        2,
        "only the log's own checkpoints are evidence"
    );
    // The honest history goes on being cosigned.
    let third = checkpoint(&honest[..9]);
    let (status, _, line) = post(&witness, body(7, &honest[..9], &third)).await;
    assert_eq!(status, 200, "{line}");
    assert!(cosigns(&key, &third, &line));
}

#[tokio::test]
async fn a_restart_after_kill_9_never_forgets_the_size_cosigned() {
    let dir = scratch("witness-restart");
    let keys = dir.join("witness.json");
    let public_key = keygen(&keys, false).await;
    let state = dir.join("state");
    let honest = leaves("honest", 6, 6);
    let witness = start(&keys, &state, &log_verifier()).await;
    let (status, _, _) = post(&witness, body(0, &honest[..4], &checkpoint(&honest[..4]))).await;
    assert_eq!(status, 200);
    witness.stop_with("KILL").await;
    let witness = start(&keys, &state, &log_verifier()).await;
    // From nothing again: refused, with the size it cosigned before.
    let fork = leaves("fork", 2, 4);
    let (status, _, size) = post(&witness, body(0, &fork, &checkpoint(&fork))).await;
    assert_eq!((status, size.as_str()), (409, "4\n"));
    let next = checkpoint(&honest);
    let (status, _, line) = post(&witness, body(4, &honest, &next)).await;
    assert_eq!(status, 200, "{line}");
    assert!(cosigns(&witness_verifier(&public_key), &next, &line));
    drop(witness);
    // Under another log's key, its state is not that log's: it will not start.
    let other = NoteKey::new(ORIGIN, KeyKind::Note, log_key(22).verifying_key()).unwrap();
    let (code, _, err) = run(&[
        "witness",
        "--listen",
        "127.0.0.1:0",
        "--keys",
        keys.to_str().unwrap(),
        "--log-key",
        &other.to_text(),
        "--state",
        state.to_str().unwrap(),
    ])
    .await;
    assert_eq!(code, 2);
    assert!(
        err.contains("not a checkpoint signed by the log's key"),
        "{err}"
    );
}
