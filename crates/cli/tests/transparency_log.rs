//! `serve --log` over loopback: every verdict carries a proof that the
//! core accepts under the log's key and a witness quorum; the log is read
//! under `/v0/log/` with tlog-tiles' cache headers; it grows with
//! statements (a re-check), never with lookups; a witness refuses a second
//! history under the same key, a consumer with a quorum of 1 reads its
//! verdicts unknown, and a monitor that followed the first exits with its
//! inconsistency code; and kill -9 during appends leaves a log
//! that reopens and verifies, nothing it had published rewritten.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};
use support::*;
use tokio::process::Command;
use x402_verdict_core::json::Object;
use x402_verdict_core::transparency::{
    check_log_proof, leaf_hash, new_tiles, read_entry_bundle, Checkpoint, KeyKind, LogTrust, Note,
    NoteKey, Policy, ProofCheck, ProofProblem, Tree,
};
use x402_verdict_core::{parse_public_key, Endpoint};

const ORIGIN: &str = "verdicts.test/log";

/// A log's key file and its verifier key under [`ORIGIN`].
async fn log_key(dir: &Path) -> (PathBuf, NoteKey) {
    let keys = dir.join("log.json");
    let public = keygen(&keys, false).await;
    let key = parse_public_key(&public).unwrap();
    (keys, NoteKey::new(ORIGIN, KeyKind::Note, key).unwrap())
}

/// A witness of the log `log`, its state in `dir`: the server and its
/// verifier key.
async fn witness(dir: &Path, log: &NoteKey) -> (Service, NoteKey) {
    let keys = dir.join("witness.json");
    keygen(&keys, false).await;
    let mut command = Command::new(BIN);
    command
        .args(["witness", "--listen", "127.0.0.1:0", "--name", "w1.test"])
        .arg("--keys")
        .arg(&keys)
        .args(["--log-key", &log.to_text()])
        .arg("--state")
        .arg(dir.join("witness-state"));
    let (service, printed) = Service::listening_after(command, 1).await;
    let key = printed[0].strip_prefix("witness key ").unwrap();
    (service, NoteKey::parse(key).unwrap())
}

/// `serve --log` of `files`, the log in `log` signed with `log_keys`,
/// asking `witnesses`.
async fn serve_logged(
    files: &ServiceFiles,
    log: &Path,
    log_keys: &Path,
    witnesses: &[&str],
) -> Service {
    let mut command = Command::new(BIN);
    command
        .args(["serve", "--listen", "127.0.0.1:0", "--registry"])
        .arg(&files.registry)
        .arg("--keys")
        .arg(&files.keys)
        .arg("--log")
        .arg(log)
        .arg("--log-keys")
        .arg(log_keys)
        .args(["--log-origin", ORIGIN]);
    for url in witnesses {
        command.args(["--witness-url", url]);
    }
    let (service, printed) = Service::listening_after(command, 1).await;
    assert!(printed[0].starts_with(&format!("log key {ORIGIN}+")));
    service
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

/// GET `url`: status, `Cache-Control`, body.
async fn get(url: &str) -> (u16, String, Vec<u8>) {
    let response = client().get(url).send().await.unwrap();
    let status = response.status().as_u16();
    let cache = response
        .headers()
        .get("cache-control")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, cache, response.bytes().await.unwrap().to_vec())
}

/// The verdict document the service answers for `resource`.
async fn verdict(base: &str, resource: &str) -> Value {
    let url = Endpoint::new(CHAIN, PAY_TO, resource).unwrap();
    let url = x402_verdict_core::BaseUrl::parse(base)
        .unwrap()
        .verdict_url(&url);
    let (status, _, body) = get(&url).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    serde_json::from_slice(&body).unwrap()
}

/// What `check_log_proof` reads of `document` under `required`, with the
/// witnesses given and a quorum of `quorum`.
fn proof_check(
    document: &Value,
    log: &NoteKey,
    witnesses: &[NoteKey],
    quorum: usize,
) -> ProofCheck {
    let trust = LogTrust::new(log.clone(), witnesses.to_vec(), quorum).unwrap();
    let document = Object::parse(document.to_string().as_bytes()).unwrap();
    let Some(x402_verdict_core::json::Value::Object(verdict)) = document.get("verdict") else {
        panic!("no verdict");
    };
    check_log_proof(Policy::Required, &trust, verdict, document.get("logProof"))
}

/// The log's checkpoint as served: its note and its checkpoint.
async fn checkpoint(base: &str) -> (Note, Checkpoint) {
    let (status, cache, body) = get(&format!("{base}/v0/log/checkpoint")).await;
    assert_eq!((status, cache.as_str()), (200, "public, max-age=5"));
    let note = Note::parse(std::str::from_utf8(&body).unwrap()).unwrap();
    let checkpoint = Checkpoint::parse(&note.text).unwrap();
    (note, checkpoint)
}

/// Waits until the log's checkpoint holds `size` entries.
async fn until_size(base: &str, size: u64) -> (Note, Checkpoint) {
    for _ in 0..600 {
        let (note, checkpoint) = checkpoint(base).await;
        if checkpoint.size >= size {
            return (note, checkpoint);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the log never reached {size} entries");
}

fn registry(attestations: Vec<Value>) -> String {
    json!({ "attestations": attestations }).to_string()
}

fn prefix(resource: &str, status: &str, rechecked_hours_ago: i64) -> Value {
    let mut a = attestation(resource, status, rechecked_hours_ago, 24 * 30);
    a["match"] = json!("prefix");
    a
}

/// Asks the verdicts of `count` URLs below `{R}items/`, from `first` on,
/// `concurrency` at a time: each a new statement.
async fn ask_items(base: &str, first: usize, count: usize, concurrency: usize) {
    use futures_util::StreamExt as _;
    futures_util::stream::iter(first..first + count)
        .map(|i| async move { verdict(base, &format!("{R}items/{i}")).await })
        .buffer_unordered(concurrency)
        .collect::<Vec<_>>()
        .await;
}

#[tokio::test]
async fn verdicts_carry_proofs_the_log_grows_with_statements_not_lookups() {
    let items = prefix(&format!("{R}items"), "active", 1);
    let files = ServiceFiles::new(
        "tlog-serve",
        &registry(vec![
            attestation(&format!("{R}good"), "active", 1, 24 * 30),
            items.clone(),
        ]),
    )
    .await;
    // And a verdict signed offline, published as it is.
    let published = sign(
        &files.keys,
        &json!({
            "v": 1, "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": format!("{R}published"),
            "outcome": "human_backed", "assuranceLevel": "G",
            "verifiedAt": hours_from_now(-1), "recheckEveryHours": 24,
        }),
    )
    .await;
    let with_published = |attestations: Vec<Value>| {
        json!({ "attestations": attestations, "published": [published.clone()] }).to_string()
    };
    std::fs::write(
        &files.registry,
        with_published(vec![
            attestation(&format!("{R}good"), "active", 1, 24 * 30),
            items.clone(),
        ]),
    )
    .unwrap();
    let (log_keys, log) = log_key(&files.dir).await;
    let (w, witness_key) = witness(&files.dir, &log).await;
    let log_dir = files.dir.join("log");
    let service = serve_logged(&files, &log_dir, &log_keys, &[&w.url]).await;
    let base = service.url.clone();

    // A verdict carries its proof: under the log's key, with the witness's
    // cosignature, a quorum of 1 accepts it; a second lookup is the same
    // entry, and no lookup grows the log.
    let document = verdict(&base, &format!("{R}good")).await;
    let ProofCheck::Proven(proven) =
        proof_check(&document, &log, std::slice::from_ref(&witness_key), 1)
    else {
        panic!("{document}");
    };
    assert_eq!((proven.index, proven.size, proven.cosignatures), (0, 1, 1));
    for _ in 0..5 {
        let again = verdict(&base, &format!("{R}good")).await;
        assert_eq!(again["logProof"], document["logProof"]);
    }
    let (note, at_one) = checkpoint(&base).await;
    assert_eq!(at_one.size, 1);
    assert!(note.cosigned_by(&witness_key).is_some());
    // Another log's key, or a quorum the witness alone cannot meet, refuses it.
    let other_dir = files.dir.join("other");
    std::fs::create_dir_all(&other_dir).unwrap();
    let (_, other) = log_key(&other_dir).await;
    assert_ne!(other, log);
    assert_eq!(
        proof_check(&document, &other, &[], 0),
        ProofCheck::Refused(ProofProblem::NotSignedByLog)
    );

    // The tiles: partial ones for a minute, none past the checkpoint,
    // no other spelling.
    for (path, status, cache) in [
        ("tile/entries/000.p/1", 200, "public, max-age=60"),
        ("tile/0/000.p/1", 200, "public, max-age=60"),
        ("tile/entries/000.p/2", 404, "public, max-age=5"),
        ("tile/entries/000", 404, "public, max-age=5"),
        ("tile/0/000.p/01", 404, "public, max-age=5"),
        (
            "tile/0/000.p/1%2F..%2F..%2F..%2Fcheckpoint",
            404,
            "public, max-age=5",
        ),
    ] {
        let (got, got_cache, _) = get(&format!("{base}/v0/log/{path}")).await;
        assert_eq!((got, got_cache.as_str()), (status, cache), "{path}");
    }

    // 300 new statements, asked together: batched, and the first tiles
    // are full, immutable.
    ask_items(&base, 0, 300, 16).await;
    let (_, at_301) = until_size(&base, 301).await;
    assert_eq!(at_301.size, 301);
    for path in ["tile/entries/000", "tile/0/000"] {
        let (status, cache, body) = get(&format!("{base}/v0/log/{path}")).await;
        assert_eq!(
            (status, cache.as_str()),
            (200, "public, max-age=31536000, immutable")
        );
        assert!(!body.is_empty());
    }
    // The log's folder is the export: the same bytes.
    let (_, _, bundle) = get(&format!("{base}/v0/log/tile/entries/000")).await;
    assert_eq!(
        bundle,
        std::fs::read(log_dir.join("tile/entries/000")).unwrap()
    );
    let entries = read_entry_bundle(&bundle).unwrap();
    assert_eq!(entries.len(), 256);

    // A restart with a re-checked attestation: one new entry, whatever
    // the lookups.
    drop(service);
    std::fs::write(
        &files.registry,
        with_published(vec![
            attestation(&format!("{R}good"), "active", 0, 24 * 30),
            items,
        ]),
    )
    .unwrap();
    let service = serve_logged(&files, &log_dir, &log_keys, &[&w.url]).await;
    let base = service.url.clone();
    for _ in 0..3 {
        let document = verdict(&base, &format!("{R}good")).await;
        let ProofCheck::Proven(proven) =
            proof_check(&document, &log, std::slice::from_ref(&witness_key), 1)
        else {
            panic!("{document}");
        };
        assert_eq!(proven.index, 301);
        verdict(&base, &format!("{R}items/7")).await;
    }
    let (_, at_302) = checkpoint(&base).await;
    assert_eq!(at_302.size, 302);
    // The published verdict is appended when first served, and carries its
    // proof beside every member it was published with.
    let document = verdict(&base, &format!("{R}published")).await;
    let ProofCheck::Proven(proven) =
        proof_check(&document, &log, std::slice::from_ref(&witness_key), 1)
    else {
        panic!("{document}");
    };
    assert_eq!(proven.index, 302);
    let mut bare = document.clone();
    bare.as_object_mut().unwrap().remove("logProof");
    assert_eq!(bare, published);
    // Under another key, the folder is not its log: one line, exit 2.
    drop(service);
    let other_keys = other_dir.join("log.json");
    let (code, _, err) = run(&[
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--registry",
        files.registry.to_str().unwrap(),
        "--keys",
        files.keys.to_str().unwrap(),
        "--log",
        log_dir.to_str().unwrap(),
        "--log-keys",
        other_keys.to_str().unwrap(),
        "--log-origin",
        ORIGIN,
    ])
    .await;
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("checkpoint: not a checkpoint of verdicts.test/log signed by the log's key"),
        "{err}"
    );
}

/// Runs `monitor` on the log at `base`: exit code and stdout.
async fn monitor(
    base: &str,
    log: &NoteKey,
    pay_to: &str,
    state: &Path,
    json: bool,
) -> (i32, String) {
    let log_url = format!("{base}/v0/log");
    let key = log.to_text();
    let mut args = vec![
        "monitor",
        "--log",
        &log_url,
        "--log-key",
        &key,
        "--pay-to",
        pay_to,
        "--state",
        state.to_str().unwrap(),
    ];
    if json {
        args.push("--json");
    }
    let (code, out, err) = run(&args).await;
    assert!(code != 2 && code != 1, "{err}");
    (code, out)
}

#[tokio::test]
async fn a_witness_and_a_monitor_catch_a_split_view() {
    let dir = scratch("tlog-split");
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::create_dir_all(dir.join("b")).unwrap();
    let a_files = ServiceFiles::new_in(
        dir.join("a"),
        &registry(vec![prefix(&format!("{R}items"), "active", 1)]),
    )
    .await;
    let (log_keys, log) = log_key(&dir).await;
    let (w, witness_key) = witness(&dir, &log).await;
    let a = serve_logged(&a_files, &dir.join("log-a"), &log_keys, &[&w.url]).await;

    // The monitor follows A: the entries about its payTo (exit 4), then
    // nothing new (exit 0); another payTo sees none.
    let state = dir.join("monitor.json");
    verdict(&a.url, &format!("{R}items/1")).await;
    verdict(&a.url, &format!("{R}items/2")).await;
    until_size(&a.url, 2).await;
    let (code, out) = monitor(&a.url, &log, PAY_TO, &state, true).await;
    assert_eq!(code, 4, "{out}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["entry"]["resourceUrl"], format!("{R}items/1"));
    assert_eq!(lines[1]["index"], 1);
    assert_eq!(
        monitor(&a.url, &log, PAY_TO, &state, true).await,
        (0, String::new())
    );
    let lowercase = PAY_TO.to_lowercase();
    let (code, out) = monitor(&a.url, &log, &lowercase, &dir.join("lower.json"), false).await;
    assert_eq!(code, 4, "the address matches in any case");
    assert!(out.starts_with("Log entry 0: base "), "{out}");
    let other = "0x1111111111111111111111111111111111111111";
    assert_eq!(
        monitor(&a.url, &log, other, &dir.join("other.json"), false)
            .await
            .0,
        0
    );
    verdict(&a.url, &format!("{R}items/3")).await;
    let (code, out) = monitor(&a.url, &log, PAY_TO, &state, false).await;
    assert_eq!(code, 4);
    assert!(out.contains("items/3") && !out.contains("items/1"), "{out}");

    // B: the same log key, another history (another assurance), longer.
    let b_files = ServiceFiles::new_in(dir.join("b"), &{
        let mut a = prefix(&format!("{R}items"), "active", 1);
        a["assuranceLevel"] = json!("A");
        registry(vec![a])
    })
    .await;
    let b = serve_logged(&b_files, &dir.join("log-b"), &log_keys, &[&w.url]).await;
    for i in 1..=4 {
        verdict(&b.url, &format!("{R}items/{i}")).await;
    }
    let (b_note, b_checkpoint) = until_size(&b.url, 4).await;
    // The witness refused it (its size is A's 3: a 409 then a 422 kept as
    // evidence), so B's checkpoint and verdicts lack its cosignature.
    assert!(b_note.cosigned_by(&witness_key).is_none());
    let evidence = std::fs::read_dir(dir.join("witness-state/evidence"))
        .unwrap()
        .count();
    assert!(evidence >= 1);
    let b_verdict = verdict(&b.url, &format!("{R}items/2")).await;
    assert_eq!(
        proof_check(&b_verdict, &log, std::slice::from_ref(&witness_key), 1),
        ProofCheck::Refused(ProofProblem::TooFewCosignatures)
    );
    // A consumer of the log with a quorum of 1 (`lookup --transparency
    // required`) takes A's verdicts and reads B's unknown, its signature
    // valid.
    let (log_text, witness_text) = (log.to_text(), witness_key.to_text());
    let flags = [
        "--log-key",
        &log_text,
        "--witness",
        &witness_text,
        "--witness-quorum",
        "1",
        "--transparency",
        "required",
    ];
    let on_a = lookup(
        &a.url,
        &format!("{R}items/3"),
        &[&a_files.public_key],
        &flags,
    )
    .await;
    assert_eq!(on_a["state"], "human-backed", "{on_a}");
    let on_b = lookup(
        &b.url,
        &format!("{R}items/2"),
        &[&b_files.public_key],
        &flags,
    )
    .await;
    assert_eq!(
        (&on_b["state"], &on_b["reason"], &on_b["signature"]),
        (
            &json!("unknown"),
            &json!("too_few_cosignatures"),
            &json!("valid")
        ),
        "{on_b}"
    );
    // Its log signature holds: without a quorum, the proof verifies.
    assert!(matches!(
        proof_check(&b_verdict, &log, std::slice::from_ref(&witness_key), 0),
        ProofCheck::Proven(_)
    ));
    assert_eq!(b_checkpoint.size, 4);
    // The monitor that followed A, pointed at B: exit 5, its state kept.
    let before = std::fs::read(&state).unwrap();
    let log_url = format!("{}/v0/log", b.url);
    let (code, _, err) = run(&[
        "monitor",
        "--log",
        &log_url,
        "--log-key",
        &log.to_text(),
        "--pay-to",
        PAY_TO,
        "--state",
        state.to_str().unwrap(),
    ])
    .await;
    assert_eq!(code, 5, "{err}");
    assert!(
        err.contains("inconsistent with what this monitor saw before"),
        "{err}"
    );
    assert_eq!(std::fs::read(&state).unwrap(), before);
    // Under another key, the checkpoint is not the log's: exit 1.
    let (_, stranger) = log_key(&dir.join("b")).await;
    let (code, _, err) = run(&[
        "monitor",
        "--log",
        &log_url,
        "--log-key",
        &stranger.to_text(),
        "--pay-to",
        PAY_TO,
    ])
    .await;
    assert_eq!(code, 1, "{err}");
    drop((a, b, w));
}

/// Every file a checkpoint of `size` names, by path.
fn published_files(log: &Path, size: u64) -> BTreeMap<String, Vec<u8>> {
    new_tiles(0, size)
        .into_iter()
        .map(|t| (t.path(), std::fs::read(log.join(t.path())).unwrap()))
        .collect()
}

#[tokio::test]
async fn kill_9_during_appends_leaves_a_log_that_reopens_and_verifies() {
    let files = ServiceFiles::new(
        "tlog-crash",
        &registry(vec![prefix(&format!("{R}items"), "active", 1)]),
    )
    .await;
    let (log_keys, log) = log_key(&files.dir).await;
    let log_dir = files.dir.join("log");
    let service = serve_logged(&files, &log_dir, &log_keys, &[]).await;
    ask_items(&service.url, 0, 300, 16).await;
    let (_, first) = until_size(&service.url, 300).await;
    let kept = published_files(&log_dir, first.size);
    let state = files.dir.join("monitor.json");
    assert_eq!(monitor(&service.url, &log, PAY_TO, &state, true).await.0, 4);

    // Appends in flight, and kill -9 in the middle of them.
    let base = service.url.clone();
    let load = tokio::spawn(async move { ask_items(&base, 1000, 100_000, 32).await });
    tokio::time::sleep(Duration::from_millis(2500)).await;
    service.stop_with("KILL").await;
    load.abort();

    // It reopens (its files checked against its checkpoint), nothing it
    // had published is rewritten, its hash tiles are its entries', and
    // the monitor finds the new checkpoint consistent with the old.
    let service = serve_logged(&files, &log_dir, &log_keys, &[]).await;
    ask_items(&service.url, 200_000, 10, 4).await;
    let (_, after) = until_size(&service.url, first.size + 10).await;
    for (path, bytes) in &kept {
        assert_eq!(&std::fs::read(log_dir.join(path)).unwrap(), bytes, "{path}");
    }
    let mut leaves = Vec::new();
    for tile in new_tiles(0, after.size)
        .into_iter()
        .filter(|t| t.level.is_none())
    {
        let bundle = std::fs::read(log_dir.join(tile.path())).unwrap();
        let entries = read_entry_bundle(&bundle).unwrap();
        leaves.extend(entries.iter().map(|e| leaf_hash(e)));
    }
    let tree = Tree::from_leaves(leaves.iter().copied());
    assert_eq!(tree.root(after.size), Some(after.root));
    for tile in new_tiles(0, after.size)
        .into_iter()
        .filter(|t| t.level.is_some())
    {
        assert_eq!(
            std::fs::read(log_dir.join(tile.path())).unwrap(),
            tree.tile(&tile).unwrap(),
            "{}",
            tile.path()
        );
    }
    assert_eq!(monitor(&service.url, &log, PAY_TO, &state, true).await.0, 4);
}

/// A log server that signs, with the log key of `seed`, a checkpoint of
/// `size` entries, and answers each bundle with `bundle`: its URL prefix
/// and the log's verifier key.
async fn hostile_log(size: u64, bundle: axum::routing::MethodRouter) -> (String, NoteKey) {
    use axum::routing::get;
    let secret = x402_verdict_core::ed25519_dalek::SigningKey::from_bytes(&[7; 32]);
    let key = NoteKey::new(ORIGIN, KeyKind::Note, secret.verifying_key()).unwrap();
    let text = Checkpoint {
        origin: ORIGIN.into(),
        size,
        root: [0; 32],
        extensions: vec![],
    }
    .to_text();
    let note = [
        text.clone(),
        "\n".into(),
        x402_verdict_core::transparency::sign_note(&text, ORIGIN, &secret).unwrap(),
    ]
    .concat();
    let app = axum::Router::new()
        .route("/log/checkpoint", get(move || async move { note }))
        .route("/log/tile/entries/{*rest}", bundle);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/log"), key)
}

#[tokio::test]
async fn a_hostile_log_ends_the_monitor_with_one_line() {
    use axum::routing::get;
    let dir = scratch("tlog-hostile");
    let state = dir.join("state.json");
    // A size past any log, and a bundle that never comes: the timeout.
    let (url, key) = hostile_log(
        u64::MAX,
        get(|| async {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            ""
        }),
    )
    .await;
    let monitor = |url: String, key: String, state: PathBuf| async move {
        run(&[
            "monitor",
            "--log",
            &url,
            "--log-key",
            &key,
            "--pay-to",
            PAY_TO,
            "--state",
            state.to_str().unwrap(),
            "--timeout-ms",
            "1000",
        ])
        .await
    };
    let (code, out, err) = monitor(url, key.to_text(), state.clone()).await;
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.contains("tile/entries/000: no answer within the timeout"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!state.exists());
    // A bundle past its bound.
    let (url, key) = hostile_log(1, get(|| async { vec![b'x'; 3 * 1024 * 1024] })).await;
    let (code, _, err) = monitor(url, key.to_text(), state.clone()).await;
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("tile/entries/000.p/1: over its size bound"),
        "{err}"
    );
    // A bundle that is not one of its checkpoint's entries: inconsistent.
    let (url, key) = hostile_log(1, get(|| async { vec![0u8, 1, b'x'] })).await;
    let (code, _, err) = monitor(url.clone(), key.to_text(), state.clone()).await;
    assert_eq!(code, 5, "{err}");
    // A state kept for another log is refused.
    std::fs::write(
        &state,
        r#"{"origin":"another.example/log","size":0,"edge":[]}"#,
    )
    .unwrap();
    let (code, _, err) = monitor(url, key.to_text(), state.clone()).await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("kept for another log"), "{err}");
}
