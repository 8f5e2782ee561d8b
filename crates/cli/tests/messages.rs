//! The one line the command prints when it refuses its input: bad arguments,
//! a bad registry or key file, a file that is not there, an address in use,
//! a service it cannot reach. Each case runs the real command and compares
//! its whole message.

mod support;

use serde_json::{json, Value};
use support::*;

/// Runs the command and returns its exit code and its message: the first
/// line of stderr that is not a log line (clap's own starts `error: `).
async fn refusal(args: &[&str]) -> (i32, String) {
    let (code, out, err) = run(args).await;
    assert_eq!(out, "", "{args:?} printed nothing on stdout");
    let message = err
        .lines()
        .find(|line| line.starts_with("x402-verdict: ") || line.starts_with("error: "));
    (code, message.unwrap_or(&err).to_owned())
}

/// The key file at `keys` with `edit` applied, written (mode 600) beside it.
fn edited_keys(keys: &std::path::Path, edit: impl FnOnce(&mut Value)) -> String {
    use std::os::unix::fs::PermissionsExt as _;
    let mut doc: Value = serde_json::from_slice(&std::fs::read(keys).unwrap()).unwrap();
    edit(&mut doc);
    let path = keys.with_file_name("edited-keys.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    path.display().to_string()
}

#[tokio::test]
async fn bad_arguments_are_named_by_clap_with_the_reason() {
    let lookup = |flag: &'static str, value: &'static str| {
        let mut args = lookup_args("http://127.0.0.1:9", "r", &[]);
        match args.iter().position(|a| *a == flag) {
            Some(i) => args[i + 1] = value,
            None => args.extend([flag, value]),
        }
        args
    };
    for (args, expected) in [
        (
            lookup("--base-url", "ftp://x"),
            "error: invalid value 'ftp://x' for '--base-url <BASE_URL>': is not an absolute http:// or https:// URL",
        ),
        (
            lookup("--public-key", "zz"),
            "error: invalid value 'zz' for '--public-key <PUBLIC_KEYS>': the key is not base64",
        ),
        (
            lookup("--public-key", "nope"),
            "error: invalid value 'nope' for '--public-key <PUBLIC_KEYS>': the key is not 32 bytes (a raw Ed25519 public key)",
        ),
        (
            lookup("--timeout-ms", "abc"),
            "error: invalid value 'abc' for '--timeout-ms <TIMEOUT_MS>': must be a whole number",
        ),
        (
            lookup("--timeout-ms", "0"),
            "error: invalid value '0' for '--timeout-ms <TIMEOUT_MS>': must be a whole number of milliseconds from 1 to 60000",
        ),
        (
            vec!["metrics", "snapshot", "--base-url", "mailto:x", "--out", "s.json"],
            "error: invalid value 'mailto:x' for '--base-url <BASE_URL>': is not an absolute http:// or https:// URL",
        ),
        // Over stdio no Host is read: the HTTP options need --listen.
        (
            vec!["mcp", "--allow-host", "proxy:80x"],
            "error: the following required arguments were not provided:",
        ),
    ] {
        assert_eq!(refusal(&args).await, (2, expected.to_owned()), "{args:?}");
    }
    assert_eq!(
        refusal(&lookup("--pay-to", "")).await,
        (2, "x402-verdict: payTo is empty".to_owned())
    );
}

#[tokio::test]
async fn a_bad_registry_or_key_file_is_named_with_what_is_wrong() {
    let files = ServiceFiles::new("messages-files", "{}").await;
    let (k, r) = (
        files.keys.display().to_string(),
        files.registry.display().to_string(),
    );
    let missing = files.dir.join("missing.json").display().to_string();
    let serve = |registry: &str, keys: &str| {
        let (registry, keys) = (registry.to_owned(), keys.to_owned());
        async move { refusal(&serve_args(&registry, &keys)).await }
    };
    let not_found = "No such file or directory (os error 2)";
    assert_eq!(
        serve(&missing, &k).await,
        (2, format!("x402-verdict: {missing}: {not_found}"))
    );
    assert_eq!(
        serve(&r, &missing).await,
        (2, format!("x402-verdict: {missing}: {not_found}"))
    );
    for (registry, problem) in [
        (json!([]), "the registry is not a JSON object".to_owned()),
        (
            json!({"attestations": 1}),
            "attestations is not a list".to_owned(),
        ),
        (
            json!({"published": {}}),
            "published is not a list".to_owned(),
        ),
        (
            json!({"attestation": []}),
            "unknown member `attestation` (expected attestations, published)".to_owned(),
        ),
        (
            json!({"attestations": [attestation("https://a.example/x", "paused", 1, 10)]}),
            "attestations[0]: status is not \"active\" or \"revoked\"".to_owned(),
        ),
        (
            json!({"published": [{"verdict": {"v": 1, "outcome": "no_signal", "chain": "", "payTo": "p", "resourceUrl": "r", "issuedAt": "2026-01-01T00:00:00Z", "keyId": "0123456789abcdef"}}]}),
            "published[0]: verdict.chain is empty".to_owned(),
        ),
    ] {
        std::fs::write(&files.registry, registry.to_string()).unwrap();
        assert_eq!(
            serve(&r, &k).await,
            (2, format!("x402-verdict: {r}: {problem}")),
            "{registry}"
        );
    }
    std::fs::write(&files.registry, "{}").unwrap();
    for (edit, problem) in [
        (
            (|d: &mut Value| d["previous"] = json!(5)) as fn(&mut Value),
            "previous is not a list",
        ),
        (
            |d| d["previous"] = json!([{}]),
            "previous[0].publicKey is missing",
        ),
        (
            |d| d["previous"] = json!([{"publicKey": "zz"}]),
            "previous[0].publicKey is not base64",
        ),
        (
            |d| d["current"]["keyId"] = json!("0000000000000000"),
            "current.keyId does not match the key",
        ),
        (
            |d| *d = json!([]),
            "current.secretKey is missing or not base64 of 32 bytes",
        ),
    ] {
        let edited = edited_keys(&files.keys, edit);
        assert_eq!(
            serve(&r, &edited).await,
            (2, format!("x402-verdict: {edited}: {problem}"))
        );
    }
    let bad = edited_keys(&files.keys, |_| {});
    std::fs::write(&bad, "{\"current\": ").unwrap();
    let (code, line) = serve(&r, &bad).await;
    assert_eq!(code, 2);
    assert!(
        line.starts_with(&format!("x402-verdict: {bad}: not strict JSON: ")),
        "{line}"
    );
    // keygen and sign name their files the same way.
    assert_eq!(
        refusal(&["keygen", "--out", &k]).await,
        (
            2,
            format!("x402-verdict: {k}: already exists (pass --rotate to rotate it)")
        )
    );
    assert_eq!(
        refusal(&["keygen", "--rotate", "--out", &missing]).await,
        (2, format!("x402-verdict: {missing}: {not_found}"))
    );
    assert_eq!(
        refusal(&["sign", "--keys", &k, &missing]).await,
        (2, format!("x402-verdict: {missing}: {not_found}"))
    );
    let verdict = files.dir.join("verdict.json");
    let v = verdict.display().to_string();
    for (text, problem) in [
        ("{\"verdict\": 1}", "the verdict is not a JSON object"),
        ("[1]", "not a JSON object"),
        ("{\"v\": 2}", "verdict.v is not the integer 1"),
    ] {
        std::fs::write(&verdict, text).unwrap();
        assert_eq!(
            refusal(&["sign", "--keys", &k, &v]).await,
            (2, format!("x402-verdict: {v}: {problem}")),
            "{text}"
        );
    }
}

#[tokio::test]
async fn an_address_in_use_or_a_service_out_of_reach_is_named() {
    let files = ServiceFiles::new("messages-listen", "{}").await;
    let taken = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let listen = taken.local_addr().unwrap().to_string();
    let in_use = "Address already in use (os error 98)";
    let (k, r) = (
        files.keys.display().to_string(),
        files.registry.display().to_string(),
    );
    assert_eq!(
        refusal(&["serve", "--listen", &listen, "--registry", &r, "--keys", &k]).await,
        (2, format!("x402-verdict: --listen {listen}: {in_use}"))
    );
    assert_eq!(
        refusal(&["mcp", "--listen", &listen]).await,
        (2, format!("x402-verdict: --listen {listen}: {in_use}"))
    );
    let out = files.dir.join("snapshot.json").display().to_string();
    // Unreachable, then the HTTP client's words (the system's after them).
    let (code, message) = refusal(&[
        "metrics",
        "snapshot",
        "--base-url",
        "http://127.0.0.1:9",
        "--out",
        &out,
    ])
    .await;
    assert_eq!(code, 2);
    assert!(
        message.starts_with(
            "x402-verdict: http://127.0.0.1:9/v0/metrics: the snapshot is unchanged, unreachable: error sending request: "
        ) && message.to_lowercase().contains("refused"),
        "{message}"
    );
    let missing = files.dir.join("missing.json").display().to_string();
    assert_eq!(
        refusal(&["metrics", "page", "--snapshot", &missing, "--out", &out]).await,
        (
            2,
            format!("x402-verdict: {missing}: No such file or directory (os error 2)")
        )
    );
}

#[tokio::test]
async fn an_allowed_host_that_is_no_authority_is_refused_at_start() {
    // In one line, before anything is served.
    let (code, _, err) = run(&[
        "mcp",
        "--listen",
        "127.0.0.1:0",
        "--allow-host",
        "proxy:80x",
    ])
    .await;
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "x402-verdict: --allow-host \"proxy:80x\" has a port that is not a decimal number from 0 to 65535\n"
        )
    );
}
