//! The transparency vectors of `tests/vectors/transparency/` (docs/protocol.md,
//! Transparency log): RFC 6962's known answers (`rfc6962.json`, third-party), and
//! `proofs.json`, a log of five statements whose checkpoint one of two
//! witnesses cosigned, with one verdict document per case and what a
//! consumer reads under its policy. Every key comes from a fixed seed; the
//! file is what the core writes from them, byte for byte.
//! `X402_WRITE_VECTORS=1` writes `proofs.json` anew.

use std::fs;
use std::path::PathBuf;

use serde_json::{json, Value};
use x402_verdict_core::ed25519_dalek::SigningKey;
use x402_verdict_core::json::Object;
use x402_verdict_core::transparency::{
    check_log_proof, cosign, entry, leaf_hash, parse_quorum, sign_note, verify_consistency,
    verify_inclusion, Checkpoint, Hash, KeyKind, LogConfig, LogProof, LogSetting, LogSettings,
    LogTrust, NoteKey, Policy, ProofCheck, Tree, LOG_PROOF_MEMBER,
};
use x402_verdict_core::{
    encode_base64, line, sign_verdict_carrying, LookupOptions, OptionsError, Reason, Response,
    SignatureStatus, State, Timestamp, VerdictDocument, LOG_OPTION_NAMES,
};

fn vectors(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors/transparency")
        .join(name)
}

fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

fn strings(file: &Value, name: &str) -> Vec<Vec<u8>> {
    file[name]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| hex(v.as_str().unwrap()))
        .collect()
}

#[test]
fn rfc6962_known_answers() {
    let file: Value = serde_json::from_slice(&fs::read(vectors("rfc6962.json")).unwrap()).unwrap();
    let leaves: Vec<Hash> = strings(&file, "leafInputsHex")
        .iter()
        .map(|input| leaf_hash(input))
        .collect();
    let expected: Vec<Vec<u8>> = strings(&file, "leafHashesHex");
    assert_eq!(
        leaves.iter().map(|h| h.to_vec()).collect::<Vec<_>>(),
        expected
    );
    let roots = strings(&file, "rootHashesHexBySize");
    let tree = Tree::from_leaves(leaves.iter().copied());
    for (size, root) in (0u64..).zip(&roots) {
        assert_eq!(tree.root(size).unwrap().to_vec(), *root, "size {size}");
        let root: Hash = root.as_slice().try_into().unwrap();
        for (i, leaf) in (0..size).zip(&leaves) {
            let proof = tree.inclusion_proof(i, size).unwrap();
            assert!(verify_inclusion(i, size, leaf, &proof, &root));
        }
        for (old, old_root) in (0..=size).zip(&roots) {
            let old_root: Hash = old_root.as_slice().try_into().unwrap();
            let proof = tree.consistency_proof(old, size).unwrap();
            assert!(verify_consistency(old, size, &old_root, &root, &proof));
        }
    }
}

fn key(seed: u8) -> SigningKey {
    SigningKey::from_bytes(&[seed; 32])
}

const LOG: u8 = 21;
const OTHER_LOG: u8 = 22;
const WITNESS1: u8 = 31;
const WITNESS2: u8 = 32;
const SIGNING: u8 = 11;
const ORIGIN: &str = "verdicts.example/log";
const COSIGNED_AT: u64 = 1_788_249_610;

fn log_key(seed: u8) -> NoteKey {
    NoteKey::new(ORIGIN, KeyKind::Note, key(seed).verifying_key()).unwrap()
}

fn witness_key(seed: u8) -> NoteKey {
    let name = format!("w{}.example", seed - 30);
    NoteKey::new(&name, KeyKind::Cosignature, key(seed).verifying_key()).unwrap()
}

/// The `i`th verdict of the log (each about its own endpoint), signed at `issued_at`.
fn verdict(i: usize, issued_at: &str) -> Object {
    Object::parse(
        json!({"v": 1, "chain": "base", "payTo": format!("0x209693Bc6afc0C5328bA36FaF03C514EF31228{i:02}"),
            "resourceUrl": format!("https://api.example.com/data/{i}"), "outcome": "human_backed",
            "assuranceLevel": "G", "verifiedAt": "2026-09-01T08:00:00Z", "recheckEveryHours": 24,
            "renewBy": "2027-09-01T00:00:00Z", "operator": "Example operator",
            "issuedAt": issued_at})
        .to_string()
        .as_bytes(),
    )
    .unwrap()
}

const AT: &str = "2026-09-01T08:00:05Z";

/// The log's tree: the entries of the five verdicts' statements.
fn tree() -> Tree {
    Tree::from_leaves((0..5).map(|i| leaf_hash(entry(&verdict(i, AT)).unwrap().as_bytes())))
}

/// The checkpoint of the five, signed by `log` and cosigned by witness 1.
fn checkpoint(log: u8) -> String {
    let text = Checkpoint {
        origin: ORIGIN.into(),
        size: 5,
        root: tree().root(5).unwrap(),
        extensions: vec![],
    }
    .to_text();
    let signed = sign_note(&text, ORIGIN, &key(log)).unwrap();
    let cosigned = cosign(
        &text,
        &witness_key(WITNESS1).name,
        &key(WITNESS1),
        COSIGNED_AT,
    )
    .unwrap();
    [text, "\n".into(), signed, cosigned].concat()
}

/// The proof of entry `i`, under the checkpoint `log` signed.
fn proof(i: usize, log: u8) -> LogProof {
    LogProof {
        index: i as u64,
        leaf: leaf_hash(entry(&verdict(i, AT)).unwrap().as_bytes()),
        hashes: tree().inclusion_proof(i as u64, 5).unwrap(),
        checkpoint: checkpoint(log),
    }
}

/// Verdict `i` signed at `issued_at`, carrying `proof`.
fn document(i: usize, issued_at: &str, proof: Option<String>) -> Value {
    let mut carried = Object::new();
    if let Some(proof) = proof {
        carried.insert(LOG_PROOF_MEMBER, proof.as_str().into());
    }
    let text = sign_verdict_carrying(verdict(i, issued_at), &key(SIGNING), &carried).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Every case: its name, the document, the policy, the quorum, and what
/// the consumer reads (`proven`, `not_checked`, or the reason refused).
fn cases() -> Vec<(&'static str, Value, Policy, usize, &'static str)> {
    let good = || Some(proof(2, LOG).to_text());
    let mut tampered = proof(2, LOG);
    tampered.hashes[1][0] ^= 1;
    let required = Policy::Required;
    vec![
        ("proven", document(2, AT, good()), required, 1, "proven"),
        (
            "proven_when_signed_again_later",
            document(2, "2026-09-01T08:07:05Z", good()),
            required,
            1,
            "proven",
        ),
        (
            "off_reads_nothing",
            document(2, AT, good()),
            Policy::Off,
            1,
            "not_checked",
        ),
        (
            "if_present_without_proof",
            document(2, AT, None),
            Policy::IfPresent,
            1,
            "not_checked",
        ),
        (
            "if_present_with_proof",
            document(2, AT, good()),
            Policy::IfPresent,
            1,
            "proven",
        ),
        (
            "signed_outside_the_log",
            document(2, AT, None),
            required,
            1,
            "no transparency proof",
        ),
        (
            "malformed_proof",
            document(2, AT, Some("c2sp.org/tlog-proof@v1\nindex 2\n\n".into())),
            required,
            1,
            "malformed transparency proof",
        ),
        (
            "checkpoint_of_another_log",
            document(2, AT, Some(proof(2, OTHER_LOG).to_text())),
            required,
            1,
            "checkpoint not signed by the log",
        ),
        (
            "quorum_of_two_one_cosignature",
            document(2, AT, good()),
            required,
            2,
            "fewer witness cosignatures than the quorum",
        ),
        (
            "proof_for_another_entry",
            document(2, AT, Some(proof(3, LOG).to_text())),
            required,
            1,
            "log entry does not match the verdict",
        ),
        (
            "tampered_inclusion_proof",
            document(2, AT, Some(tampered.to_text())),
            required,
            1,
            "bad inclusion proof",
        ),
    ]
}

fn outcome(check: ProofCheck) -> String {
    match check {
        ProofCheck::NotChecked => "not_checked".into(),
        ProofCheck::Proven(proven) => {
            assert_eq!((proven.index, proven.size, proven.cosignatures), (2, 5, 1));
            "proven".into()
        }
        ProofCheck::Refused(problem) => line(&problem),
    }
}

fn written() -> Value {
    json!({
        "seeds": "each key's 32-byte seed is its one byte repeated",
        "keys": {"log": LOG, "otherLog": OTHER_LOG, "witness1": WITNESS1, "witness2": WITNESS2,
            "signing": SIGNING},
        "logKey": log_key(LOG).to_text(),
        "witnessKeys": [witness_key(WITNESS1).to_text(), witness_key(WITNESS2).to_text()],
        "entries": (0..5).map(|i| entry(&verdict(i, AT)).unwrap()).collect::<Vec<_>>(),
        "checkpoint": checkpoint(LOG),
        "cases": cases().into_iter().map(|(name, document, policy, quorum, reads)| json!({
            "name": name, "document": document, "policy": policy.as_str(),
            "witnessQuorum": quorum, "reads": reads,
        })).collect::<Vec<_>>(),
    })
}

#[test]
fn the_vectors_are_what_the_core_writes_and_read_as_they_say() {
    let expected = written();
    let path = vectors("proofs.json");
    if std::env::var_os("X402_WRITE_VECTORS").is_some() {
        fs::write(&path, format!("{expected:#}\n")).unwrap();
    }
    let file: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(file, expected, "the core writes the vectors anew");
    let log = NoteKey::parse(file["logKey"].as_str().unwrap()).unwrap();
    let witnesses: Vec<NoteKey> = file["witnessKeys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| NoteKey::parse(k.as_str().unwrap()).unwrap())
        .collect();
    for case in file["cases"].as_array().unwrap() {
        let quorum = case["witnessQuorum"].as_u64().unwrap() as usize;
        let trust = LogTrust::new(log.clone(), witnesses.clone(), quorum).unwrap();
        let policy = Policy::parse(case["policy"].as_str().unwrap()).unwrap();
        let doc = VerdictDocument::parse(case["document"].to_string().as_bytes()).unwrap();
        let check = check_log_proof(policy, &trust, &doc.raw, doc.log_proof.as_ref());
        assert_eq!(outcome(check), case["reads"], "{}", case["name"]);
    }
}

#[test]
fn a_statement_leaves_out_when_and_by_which_key_it_was_signed() {
    let text = entry(&verdict(0, AT)).unwrap();
    assert_eq!(
        text,
        r#"{"assuranceLevel":"G","chain":"base","outcome":"human_backed","payTo":"0x209693Bc6afc0C5328bA36FaF03C514EF3122800","recheckEveryHours":24,"renewBy":"2027-09-01T00:00:00Z","resourceUrl":"https://api.example.com/data/0","v":1,"verifiedAt":"2026-09-01T08:00:00Z"}"#
    );
    let mut revoked = verdict(0, AT);
    revoked.insert("outcome", "revoked".into());
    assert_ne!(entry(&revoked).unwrap(), text);
}

/// The options of a lookup of verdict 2 trusting the signing key, with
/// the transparency options `log` besides (a JSON object).
fn options(log: Value) -> Result<LookupOptions, OptionsError> {
    let mut options = json!({"chain": "base", "payTo": "0x209693Bc6afc0C5328bA36FaF03C514EF3122802",
        "resourceUrl": "https://api.example.com/data/2",
        "publicKey": encode_base64(key(SIGNING).verifying_key().as_bytes())});
    options
        .as_object_mut()
        .unwrap()
        .extend(log.as_object().unwrap().clone());
    let options = Object::parse(options.to_string().as_bytes()).unwrap();
    LookupOptions::from_fields(&mut |name| Ok(options.get(name).cloned()))
}

/// What a consumer configured by the options reads of each case, ten
/// minutes after the verdicts were signed: human-backed when the proof is
/// proven or not read, else unknown with the rule's reason; and exactly
/// what a consumer without the options reads when the policy is `off`.
#[test]
fn a_lookup_reads_each_case_under_its_options() {
    let file: Value = serde_json::from_slice(&fs::read(vectors("proofs.json")).unwrap()).unwrap();
    let now = Timestamp::parse_rfc3339("2026-09-01T08:17:00Z").unwrap();
    let without = options(json!({})).unwrap();
    assert!(without.lookup.keys.log().is_none());
    for case in file["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let o = options(
            json!({"logKey": file["logKey"], "witnessKeys": file["witnessKeys"],
            "witnessQuorum": case["witnessQuorum"], "transparency": case["policy"]}),
        )
        .unwrap();
        let body = case["document"].to_string();
        let response = || Response::Http {
            status: 200,
            body: body.as_bytes(),
        };
        let read = o.lookup.evaluate(response(), now);
        let plain = without.lookup.evaluate(response(), now);
        assert_eq!(plain.state, State::HumanBacked, "{name}");
        assert_eq!(read.signature, SignatureStatus::Valid, "{name}");
        match case["reads"].as_str().unwrap() {
            "proven" | "not_checked" => assert_eq!(read, plain, "{name}"),
            words => {
                assert_eq!(read.state, State::Unknown, "{name}");
                assert_eq!(read.detail.as_deref(), Some(words), "{name}");
                assert_eq!(
                    read.reason.unwrap().as_str(),
                    words
                        .replace(
                            "fewer witness cosignatures than the quorum",
                            "too few cosignatures"
                        )
                        .replace("log entry does not match the verdict", "log entry mismatch")
                        .replace(
                            "checkpoint not signed by the log",
                            "checkpoint not signed by log"
                        )
                        .replace(' ', "_"),
                    "{name}"
                );
                assert_eq!(
                    (read.outcome, read.freshness),
                    (plain.outcome, plain.freshness)
                );
            }
        }
        // Under `off` the options change nothing at all.
        let off = options(
            json!({"logKey": file["logKey"], "witnessKeys": file["witnessKeys"],
            "witnessQuorum": case["witnessQuorum"], "transparency": "off"}),
        )
        .unwrap();
        assert!(off.lookup.keys.log().is_none());
        assert_eq!(off.lookup.evaluate(response(), now), plain, "{name}");
    }
}

/// A revoked verdict reads revoked whatever its proof: the log gates
/// positive claims, as strict mode does.
#[test]
fn the_log_gates_positive_claims_only() {
    let file: Value = serde_json::from_slice(&fs::read(vectors("proofs.json")).unwrap()).unwrap();
    let o = options(json!({"logKey": file["logKey"], "transparency": "required"})).unwrap();
    let mut revoked = verdict(2, AT);
    revoked.insert("outcome", "revoked".into());
    let text = sign_verdict_carrying(revoked, &key(SIGNING), &Object::new()).unwrap();
    let now = Timestamp::parse_rfc3339("2026-09-01T08:17:00Z").unwrap();
    let read = o.lookup.evaluate(
        Response::Http {
            status: 200,
            body: text.as_bytes(),
        },
        now,
    );
    assert_eq!(
        (read.state, read.reason),
        (State::Revoked, Some(Reason::Revoked))
    );
}

#[test]
fn transparency_options_are_checked_with_one_line_each() {
    let file: Value = serde_json::from_slice(&fs::read(vectors("proofs.json")).unwrap()).unwrap();
    let (log, w) = (&file["logKey"], &file["witnessKeys"]);
    let error = |log: Value| options(log).map(|_| ()).unwrap_err().to_string();
    let cases = [
        (
            json!({"logKey": "verdicts.example/log+e70373fc+AAAA"}),
            "logKey is not a note verifier key <origin>+<keyid>+<base64> whose keyid matches",
        ),
        (json!({"logKey": 5}), "logKey must be text"),
        (
            json!({"logKey": w[0]}),
            "logKey is a witness's cosignature key (type 0x04), not a log's",
        ),
        (
            json!({"logKey": log, "witnessKeys": [log]}),
            "witnessKeys holds a log's note key (type 0x01), not a witness's",
        ),
        (
            json!({"logKey": log, "witnessKeys": w[0]}),
            "witnessKeys must be text",
        ),
        (
            json!({"logKey": log, "witnessKeys": [w[0], w[0]]}),
            "witnessKeys names one witness twice",
        ),
        (
            json!({"logKey": log, "witnessKeys": w, "witnessQuorum": 3}),
            "witnessQuorum is more than the witnesses given",
        ),
        (
            json!({"logKey": log, "witnessQuorum": -1}),
            "witnessQuorum must be a whole number",
        ),
        (
            json!({"logKey": log, "witnessQuorum": "1"}),
            "witnessQuorum must be a whole number",
        ),
        (
            json!({"logKey": log, "transparency": "yes"}),
            "transparency must be off, if-present or required",
        ),
        (
            json!({"transparency": "required"}),
            "transparency needs the log's key",
        ),
        (json!({"witnessKeys": w}), "witnessKeys needs the log's key"),
    ];
    for (given, expected) in cases {
        assert_eq!(error(given.clone()), expected, "{given}");
    }
    // Defaults: `off`; with witnesses, a quorum of one.
    let o =
        options(json!({"logKey": log, "witnessKeys": w, "transparency": "if-present"})).unwrap();
    let config = o.lookup.keys.log().unwrap();
    assert_eq!(config.policy, Policy::IfPresent);
    assert!(options(json!({"logKey": log, "witnessKeys": w}))
        .unwrap()
        .lookup
        .keys
        .log()
        .is_none());
    // Text settings read as the options do, each consumer naming them its way.
    let settings = LogSettings {
        log_key: Some(
            " verdicts.example/log+e70373fc+AdVCB9oZSXfc9Grb/sK8LnW1LVqKQhhP7f3AACTw4+ja ",
        ),
        witness_keys: vec!["nope"],
        ..LogSettings::default()
    };
    let e = LogConfig::from_settings(&settings).unwrap_err();
    assert_eq!(
        e.line_naming(|s| [
            "--log-key",
            "--witness",
            "--witness-quorum",
            "--transparency"
        ][LogSetting::ALL.iter().position(|t| *t == s).unwrap()]),
        "--witness is not a note verifier key <origin>+<keyid>+<base64> whose keyid matches"
    );
    assert_eq!(parse_quorum(" 2 "), Ok(2));
    assert_eq!(
        parse_quorum("02").unwrap_err().to_string(),
        "witnessQuorum must be a whole number"
    );
    assert_eq!(
        LOG_OPTION_NAMES,
        LogSetting::ALL.map(LogSetting::option_name),
        "the options read in the settings' order"
    );
}
