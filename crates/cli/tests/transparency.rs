//! `lookup`, `check`, `scan` and the MCP server configured with a
//! transparency log (`--log-key`, `--witness`, `--witness-quorum`,
//! `--transparency`; the server's `VERIFICATION_*` variables), reading
//! verdicts signed now with their proofs (`cargo xtask log-fixture`), served
//! from a loopback server, one base URL per case: under `required` a proven
//! verdict reads human-backed; a verdict signed outside the log (its
//! signature valid), a tampered proof, a proof for another entry, a
//! checkpoint of another log and too few cosignatures each read unknown
//! with the rule's reason; under `off` every output is what it is without
//! the settings, byte for byte.

mod support;

use axum::http::{header, Uri};
use axum::response::IntoResponse;
use axum::Router;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use support::*;
use tokio::process::Command;

const RESOURCE: &str = "https://api.example.com/logged";

/// The fixture: keys, and one document per case.
fn fixture() -> Value {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["xtask", "log-fixture", CHAIN, PAY_TO, RESOURCE])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the fixture is JSON")
}

/// A loopback service answering, under `/<case>/`, the case's document.
async fn serve(documents: Value) -> String {
    let app = Router::new().fallback(move |uri: Uri| {
        let case = uri.path().split('/').nth(1).unwrap_or_default().to_owned();
        let document = documents.get(&case).cloned();
        async move {
            match document {
                Some(document) => (
                    [(header::CONTENT_TYPE, "application/json")],
                    document.to_string(),
                )
                    .into_response(),
                None => axum::http::StatusCode::NOT_FOUND.into_response(),
            }
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

/// The transparency flags of `fixture` under `policy` and `quorum`.
fn log_flags(fixture: &Value, policy: &str, quorum: &str) -> Vec<String> {
    let mut flags = vec![
        "--log-key".into(),
        fixture["logKey"].as_str().unwrap().into(),
    ];
    for key in fixture["witnessKeys"].as_array().unwrap() {
        flags.extend(["--witness".into(), key.as_str().unwrap().into()]);
    }
    flags.extend([
        "--witness-quorum".into(),
        quorum.into(),
        "--transparency".into(),
        policy.into(),
    ]);
    flags
}

/// `lookup` of the case's document with `extra` flags: its exit code and output.
async fn lookup_case(base: &str, case: &str, key: &str, extra: &[String]) -> (i32, String) {
    let base = format!("{base}/{case}");
    let mut args = lookup_args(&base, RESOURCE, &[key]);
    args.extend(extra.iter().map(String::as_str));
    let (code, out, err) = run(&args).await;
    assert_eq!(code, 0, "{case}: {err}");
    (code, out)
}

#[tokio::test]
async fn lookup_reads_each_case_under_the_log_and_off_changes_nothing() {
    let fixture = fixture();
    let base = serve(fixture["documents"].clone()).await;
    let key = fixture["publicKey"].as_str().unwrap();
    let cases = [
        ("proven", "1", None),
        (
            "signedOutsideTheLog",
            "1",
            Some(("no_transparency_proof", "no transparency proof")),
        ),
        (
            "tampered",
            "1",
            Some(("bad_inclusion_proof", "bad inclusion proof")),
        ),
        (
            "anotherEntry",
            "1",
            Some(("log_entry_mismatch", "log entry does not match the verdict")),
        ),
        (
            "anotherLog",
            "1",
            Some((
                "checkpoint_not_signed_by_log",
                "checkpoint not signed by the log",
            )),
        ),
        (
            "proven",
            "2",
            Some((
                "too_few_cosignatures",
                "fewer witness cosignatures than the quorum",
            )),
        ),
    ];
    for (case, quorum, refused) in cases {
        let json = |flags: Vec<String>| [flags, vec!["--json".into()]].concat();
        let (_, out) = lookup_case(
            &base,
            case,
            key,
            &json(log_flags(&fixture, "required", quorum)),
        )
        .await;
        let read: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(read["signature"], "valid", "{case}: {out}");
        assert_eq!(read["outcome"], "human_backed", "{case}: {out}");
        match refused {
            None => assert_eq!(read["state"], "human-backed", "{case}: {out}"),
            Some((reason, detail)) => {
                assert_eq!(read["state"], "unknown", "{case}: {out}");
                assert_eq!(read["reason"], reason, "{case}: {out}");
                assert_eq!(read["detail"], detail, "{case}: {out}");
            }
        }
        // Under `off`, and under `if-present` without a proof, the output
        // is today's, byte for byte, as JSON and as text.
        for format in [json(vec![]), vec![]] {
            let (_, plain) = lookup_case(&base, case, key, &format).await;
            let off = [log_flags(&fixture, "off", quorum), format.clone()].concat();
            assert_eq!(lookup_case(&base, case, key, &off).await.1, plain, "{case}");
            if case == "signedOutsideTheLog" {
                let if_present = [log_flags(&fixture, "if-present", quorum), format].concat();
                assert_eq!(lookup_case(&base, case, key, &if_present).await.1, plain);
            }
        }
    }
    // The text line names the reason; the JSON's detail says it in words.
    let (_, line) = lookup_case(
        &base,
        "signedOutsideTheLog",
        key,
        &log_flags(&fixture, "required", "1"),
    )
    .await;
    assert!(line.contains("reason no_transparency_proof."), "{line}");
}

/// `command --from-file FILE --json` (`check` or `scan`) against the
/// fixture's service for `case`, under its key and `flags`: its output (it
/// must succeed).
async fn from_file(
    command: &str,
    file: &std::path::Path,
    base: &str,
    key: &str,
    case: &str,
    flags: Vec<String>,
) -> String {
    let file = file.to_str().unwrap();
    let case_base = format!("{base}/{case}");
    let mut args = vec![command, "--from-file", file, "--json", "--base-url"];
    args.extend([case_base.as_str(), "--public-key", key]);
    args.extend(flags.iter().map(String::as_str));
    let (code, out, err) = run(&args).await;
    assert_eq!(code, 0, "{err}");
    out
}

#[tokio::test]
async fn check_reads_each_option_under_the_log() {
    let fixture = fixture();
    let base = serve(fixture["documents"].clone()).await;
    let key = fixture["publicKey"].as_str().unwrap();
    let dir = scratch("transparency-check");
    let challenge = dir.join("challenge.json");
    let body = json!({"x402Version": 1, "error": "X-PAYMENT header is required",
        "accepts": [{"scheme": "exact", "network": "base", "maxAmountRequired": "2500",
            "resource": RESOURCE, "description": "Logged data", "mimeType": "application/json",
            "payTo": PAY_TO, "maxTimeoutSeconds": 300, "asset": "0x833589fCD6eDb6E08f4c3C32D87b6E6e62A5dD13",
            "extra": {"name": "USD Coin", "version": "2"}}]});
    std::fs::write(&challenge, body.to_string()).unwrap();
    for (case, expected) in [
        ("proven", "human-backed"),
        ("signedOutsideTheLog", "unknown"),
    ] {
        let out = from_file(
            "check",
            &challenge,
            &base,
            key,
            case,
            log_flags(&fixture, "required", "1"),
        )
        .await;
        assert!(
            out.contains(&format!("\"state\":\"{expected}\"")),
            "{case}: {out}"
        );
        assert!(out.contains("\"signature\":\"valid\""), "{case}: {out}");
        assert_eq!(
            from_file(
                "check",
                &challenge,
                &base,
                key,
                case,
                log_flags(&fixture, "off", "1")
            )
            .await,
            from_file("check", &challenge, &base, key, case, vec![]).await,
            "{case}: off changes nothing"
        );
    }
}

#[tokio::test]
async fn bad_transparency_settings_are_refused_with_one_line() {
    let fixture = fixture();
    let log = fixture["logKey"].as_str().unwrap();
    let witness = fixture["witnessKeys"][0].as_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["--log-key", "nope"],
            "--log-key is not a note verifier key <origin>+<keyid>+<base64> whose keyid matches",
        ),
        (
            &["--log-key", witness],
            "--log-key is a witness's cosignature key (type 0x04), not a log's",
        ),
        (
            &[
                "--log-key",
                log,
                "--witness",
                witness,
                "--witness-quorum",
                "2",
            ],
            "--witness-quorum is more than the witnesses given",
        ),
        (
            &["--transparency", "required"],
            "--transparency needs the log's key",
        ),
        (
            &["--log-key", log, "--witness", log],
            "--witness holds a log's note key (type 0x01), not a witness's",
        ),
    ];
    for (flags, expected) in cases {
        let mut args = lookup_args("http://127.0.0.1:9", RESOURCE, &[]);
        args.extend(flags);
        let (code, out, err) = run(&args).await;
        assert_eq!((code, out.as_str()), (2, ""), "{flags:?}");
        assert_eq!(err, format!("x402-verdict: {expected}\n"), "{flags:?}");
    }
    let mut args = lookup_args("http://127.0.0.1:9", RESOURCE, &[]);
    args.extend(["--transparency", "always"]);
    let (code, _, err) = run(&args).await;
    assert_eq!(code, 2);
    assert!(err.contains("off, if-present, required"), "{err}");
}

/// An MCP server over stdio against `base`, trusting `key`, with the
/// environment `env` besides.
async fn mcp(base: &str, key: &str, env: &[(&str, String)]) -> RunningService<RoleClient, ()> {
    let command = Command::new(BIN).configure(|cmd| {
        cmd.arg("mcp")
            .env_remove("VERIFICATION_ROOT_KEY")
            .env("VERIFICATION_BASE_URL", base)
            .env("VERIFICATION_PUBLIC_KEY", key)
            .env("RUST_LOG", "error");
        for (name, value) in env {
            cmd.env(name, value);
        }
    });
    ().serve(TokioChildProcess::new(command).unwrap())
        .await
        .expect("initialize")
}

/// `lookup_verdict`'s structured result for the logged resource.
async fn mcp_lookup(client: &RunningService<RoleClient, ()>) -> Value {
    let args = json!({ "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": RESOURCE });
    let params = CallToolRequestParams::new("lookup_verdict")
        .with_arguments(args.as_object().cloned().unwrap());
    let result = client.call_tool(params).await.expect("tools/call");
    result.structured_content.unwrap()
}

/// The MCP server's transparency variables for `fixture`.
fn log_env(fixture: &Value, policy: &str, quorum: &str) -> Vec<(&'static str, String)> {
    let witnesses: Vec<&str> = fixture["witnessKeys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    vec![
        (
            "VERIFICATION_LOG_KEY",
            fixture["logKey"].as_str().unwrap().into(),
        ),
        ("VERIFICATION_WITNESS_KEYS", witnesses.join(", ")),
        ("VERIFICATION_WITNESS_QUORUM", quorum.into()),
        ("VERIFICATION_TRANSPARENCY", policy.into()),
    ]
}

#[tokio::test]
async fn the_mcp_server_reads_each_case_under_the_log() {
    let fixture = fixture();
    let base = serve(fixture["documents"].clone()).await;
    let key = fixture["publicKey"].as_str().unwrap();
    let cases = [
        ("proven", "1", "human-backed", None),
        (
            "signedOutsideTheLog",
            "1",
            "unknown",
            Some("no_transparency_proof"),
        ),
        ("tampered", "1", "unknown", Some("bad_inclusion_proof")),
        ("anotherEntry", "1", "unknown", Some("log_entry_mismatch")),
        (
            "anotherLog",
            "1",
            "unknown",
            Some("checkpoint_not_signed_by_log"),
        ),
        ("proven", "2", "unknown", Some("too_few_cosignatures")),
    ];
    for (case, quorum, state, reason) in cases {
        let base = format!("{base}/{case}");
        let agent = mcp(&base, key, &log_env(&fixture, "required", quorum)).await;
        let read = mcp_lookup(&agent).await;
        assert_eq!(read["state"], state, "{case}: {read}");
        assert_eq!(read["signature"], "valid", "{case}: {read}");
        assert_eq!(
            read.get("reason").and_then(Value::as_str),
            reason,
            "{case}: {read}"
        );
        agent.cancel().await.unwrap();
        // Under `off`, the structured result is today's.
        let off = mcp(&base, key, &log_env(&fixture, "off", quorum)).await;
        let plain = mcp(&base, key, &[]).await;
        assert_eq!(mcp_lookup(&off).await, mcp_lookup(&plain).await, "{case}");
        off.cancel().await.unwrap();
        plain.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_bad_transparency_variable_stops_the_mcp_server_with_one_line() {
    let fixture = fixture();
    let witness = fixture["witnessKeys"][0].as_str().unwrap();
    let cases = [
        (
            vec![("VERIFICATION_TRANSPARENCY", "always")],
            "VERIFICATION_TRANSPARENCY must be off, if-present or required",
        ),
        (
            vec![("VERIFICATION_LOG_KEY", witness)],
            "VERIFICATION_LOG_KEY is a witness's cosignature key (type 0x04), not a log's",
        ),
        (
            vec![("VERIFICATION_WITNESS_QUORUM", "two")],
            "VERIFICATION_WITNESS_QUORUM must be a whole number",
        ),
        (
            vec![("VERIFICATION_WITNESS_KEYS", witness)],
            "VERIFICATION_WITNESS_KEYS needs the log's key",
        ),
    ];
    for (env, expected) in cases {
        let mut command = std::process::Command::new(BIN);
        command
            .arg("mcp")
            .env("VERIFICATION_BASE_URL", "http://127.0.0.1:9");
        for (name, value) in &env {
            command.env(name, value);
        }
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{env:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("x402-verdict: {expected}\n")
        );
    }
}

#[tokio::test]
async fn scan_reads_each_endpoint_under_the_log() {
    let fixture = fixture();
    let base = serve(fixture["documents"].clone()).await;
    let key = fixture["publicKey"].as_str().unwrap();
    let dir = scratch("transparency-scan");
    let listing = dir.join("listing.json");
    let item = json!({"resource": RESOURCE, "type": "http", "x402Version": 2,
        "accepts": [{"scheme": "exact", "network": "base", "asset": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
            "amount": "1000", "payTo": PAY_TO, "maxTimeoutSeconds": 60, "extra": {}}],
        "lastUpdated": "2026-11-30T12:00:00Z"});
    std::fs::write(
        &listing,
        json!({"x402Version": 2, "items": [item]}).to_string(),
    )
    .unwrap();
    for (case, expected) in [
        ("proven", "\"state\":\"human-backed\""),
        (
            "signedOutsideTheLog",
            "\"reason\":\"no_transparency_proof\"",
        ),
    ] {
        let out = from_file(
            "scan",
            &listing,
            &base,
            key,
            case,
            log_flags(&fixture, "required", "1"),
        )
        .await;
        assert!(out.contains(expected), "{case}: {out}");
        assert!(out.contains("\"signature\":\"valid\""), "{case}: {out}");
        assert_eq!(
            from_file(
                "scan",
                &listing,
                &base,
                key,
                case,
                log_flags(&fixture, "off", "1")
            )
            .await,
            from_file("scan", &listing, &base, key, case, vec![]).await,
            "{case}: off changes nothing"
        );
    }
}
