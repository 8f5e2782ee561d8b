//! The reference service and `lookup` through the real HTTP path on loopback.

mod support;

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::*;

fn summary(v: &Value) -> (String, String, String, String, String) {
    let s = |k: &str| v[k].as_str().unwrap_or("-").to_owned();
    (
        s("state"),
        s("outcome"),
        s("freshness"),
        s("signature"),
        s("reason"),
    )
}

fn row(
    state: &str,
    outcome: &str,
    freshness: &str,
    signature: &str,
    reason: &str,
) -> (String, String, String, String, String) {
    (
        state.into(),
        outcome.into(),
        freshness.into(),
        signature.into(),
        reason.into(),
    )
}

#[tokio::test]
async fn every_outcome_through_http() {
    let (_dir, key, service) = start_demo().await;
    let base = service.url.as_str();
    let ask = |path: &str| format!("{R}{path}");
    let cases = [
        (
            "good",
            row("human-backed", "human_backed", "fresh", "valid", "-"),
        ),
        (
            "revoked",
            row("revoked", "revoked", "fresh", "valid", "revoked"),
        ),
        (
            "stale",
            row("unknown", "stale", "overdue", "valid", "stale"),
        ),
        (
            "lapsed",
            row("revoked", "revoked", "fresh", "valid", "revoked"),
        ),
        (
            "unlisted",
            row(
                "unknown",
                "no_signal",
                "unknown",
                "not_checked",
                "not_listed",
            ),
        ),
        (
            "overdue",
            row("unknown", "human_backed", "overdue", "valid", "overdue"),
        ),
        (
            "future",
            row(
                "unknown",
                "human_backed",
                "unknown",
                "valid",
                "verified_in_future",
            ),
        ),
        (
            "tampered",
            row(
                "unknown",
                "human_backed",
                "fresh",
                "invalid",
                "signature_invalid",
            ),
        ),
        (
            "foreign",
            row("human-backed", "human_backed", "fresh", "unverifiable", "-"),
        ),
    ];
    for (path, expected) in cases {
        let got = lookup(base, &ask(path), &[&key], &[]).await;
        assert_eq!(summary(&got), expected, "{path}: {got}");
    }
    // Strict mode: an unknown keyId is no longer enough.
    let strict = lookup(base, &ask("foreign"), &[&key], &["--strict"]).await;
    assert_eq!(
        summary(&strict),
        row(
            "unknown",
            "human_backed",
            "fresh",
            "unverifiable",
            "signature_required"
        )
    );
    // No key configured: not checked, still human-backed outside strict mode.
    let open = lookup(base, &ask("good"), &[], &[]).await;
    assert_eq!(
        summary(&open),
        row("human-backed", "human_backed", "fresh", "not_checked", "-")
    );
    assert_eq!(open["assuranceLevel"], "G");
    assert_eq!(open["recheckEveryHours"], 24);
    // The text line.
    let resource = ask("good");
    let (code, line, _) = run(&lookup_args(base, &resource, &[&key])).await;
    assert_eq!(code, 0);
    assert!(line.starts_with("Verification: human-backed; outcome human_backed; freshness fresh; assurance G; last re-checked "), "{line}");
    assert!(line.trim_end().ends_with("; signature valid."), "{line}");
}

/// A registry entry listed under `base` answers a lookup naming the chain by
/// its CAIP-2 id (as an x402 v2 challenge does), attested and published
/// alike, and the verdict echoes the name asked for; another chain is not it.
#[tokio::test]
async fn a_chain_is_found_under_its_alias() {
    let (_dir, key, service) = start_demo().await;
    let ask = |chain: &'static str, path: &str| {
        let resource = format!("{R}{path}");
        let (base, key) = (service.url.clone(), key.clone());
        async move {
            let mut args = lookup_args(&base, &resource, &[&key]);
            assert_eq!(args[4], CHAIN);
            args[4] = chain;
            args.push("--json");
            let (code, out, err) = run(&args).await;
            assert_eq!(code, 0, "{err}");
            serde_json::from_str::<Value>(&out).unwrap()
        }
    };
    for path in ["good", "foreign"] {
        let got = ask("eip155:8453", path).await;
        assert_eq!(got["state"], "human-backed", "{path}: {got}");
    }
    let url = format!(
        "{}/v0/verdict?chain=eip155%3A8453&payTo={PAY_TO}&resourceUrl={}",
        service.url,
        format!("{R}good").replace(':', "%3A").replace('/', "%2F")
    );
    let body: Value = reqwest::get(&url).await.unwrap().json().await.unwrap();
    assert_eq!(body["verdict"]["chain"], "eip155:8453");
    let other = ask("eip155:84532", "good").await;
    assert_eq!(
        (&other["state"], &other["reason"]),
        (&json!("unknown"), &json!("not_listed"))
    );
}

#[tokio::test]
async fn rotated_keys_stay_published_and_select_by_key_id() {
    let dir = scratch("rotate");
    let keys = dir.join("keys.json");
    let old = keygen(&keys, false).await;
    let new = keygen(&keys, true).await;
    let registry = dir.join("registry.json");
    std::fs::write(
        &registry,
        json!({"attestations": [attestation(&format!("{R}good"), "active", 1, 240)]}).to_string(),
    )
    .unwrap();
    let service = Service::start(&registry, &keys).await;
    let ask = format!("{R}good");
    assert_eq!(
        lookup(&service.url, &ask, &[&new], &[]).await["signature"],
        "valid"
    );
    assert_eq!(
        lookup(&service.url, &ask, &[&old], &[]).await["signature"],
        "unverifiable"
    );
    assert_eq!(
        lookup(&service.url, &ask, &[&old, &new], &[]).await["signature"],
        "valid"
    );
    let doc: Value = reqwest::get(format!("{}/v0/verification-keys", service.url))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let statuses: Vec<(&str, &str)> = doc["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            (
                k["publicKey"].as_str().unwrap(),
                k["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [(new.as_str(), "current"), (old.as_str(), "previous")]
    );
}

#[tokio::test]
async fn protocol_headers_and_bad_queries() {
    let (_dir, _key, mut service) = start_demo().await;
    let base = service.url.clone();
    let get = |q: String| reqwest::get(format!("{base}/v0/verdict?{q}"));
    let good = get(format!(
        "chain=base&payTo={PAY_TO}&resourceUrl={}",
        "https%3A%2F%2Fapi.example.com%2Fgood"
    ))
    .await
    .unwrap();
    assert_eq!(good.status(), 200);
    assert_eq!(good.headers()["access-control-allow-origin"], "*");
    assert_eq!(
        good.headers()["cache-control"],
        "public, max-age=60, stale-while-revalidate=300"
    );
    let body: Value = good.json().await.unwrap();
    assert_eq!(
        body["verdict"]["payTo"], PAY_TO,
        "the request's values are echoed"
    );
    let missing = get(format!("chain=base&payTo={PAY_TO}&resourceUrl=nothing"))
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(missing.headers()["cache-control"], "public, max-age=10");
    let long = "x".repeat(513);
    for (query, problem) in [
        ("chain=base".to_owned(), "missing query parameter payTo"),
        (
            format!("chain=base&payTo={long}&resourceUrl=r"),
            "payTo is longer than 512 bytes",
        ),
        ("chain=&payTo=p&resourceUrl=r".to_owned(), "chain is empty"),
        (
            "chain=a&chain=b&payTo=p&resourceUrl=r".to_owned(),
            "query parameter chain is given more than once",
        ),
        (
            "chain=%0A&payTo=p&resourceUrl=r".to_owned(),
            "chain contains a control character",
        ),
        (
            "chain=%FF&payTo=p&resourceUrl=r".to_owned(),
            "the query string is not valid UTF-8",
        ),
        (
            "chain=base&payTo=p&resource%C0Url=r".to_owned(),
            "the query string is not valid UTF-8",
        ),
    ] {
        let r = get(query.clone()).await.unwrap();
        assert_eq!(r.status(), 400, "{query}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"], problem, "{query}");
    }
    assert!(
        service.is_running(),
        "the service keeps serving after bad queries"
    );
    assert_eq!(
        get(format!(
            "chain=base&payTo={PAY_TO}&resourceUrl=https%3A%2F%2Fapi.example.com%2Fgood"
        ))
        .await
        .unwrap()
        .status(),
        200
    );
}

#[tokio::test]
async fn refuses_to_start_on_bad_files() {
    let dir = scratch("refuse");
    let keys = dir.join("keys.json");
    keygen(&keys, false).await;
    let registry = dir.join("registry.json");
    let mut entry = attestation("https://a.example/x", "active", 1, 10);
    entry["recheckEveryHours"] = json!(0);
    std::fs::write(
        &registry,
        json!({"attestations": [attestation("https://a.example/ok", "active", 1, 10), entry]})
            .to_string(),
    )
    .unwrap();
    let r = registry.to_str().unwrap();
    let k = keys.to_str().unwrap();
    let args = serve_args(r, k);
    let (code, _, err) = run(&args).await;
    assert_eq!(code, 2);
    assert_eq!(err.trim(), format!("x402-verdict: {r}: attestations[1]: recheckEveryHours is not an integer from 1 to 8760"));
    // One endpoint listed twice, once under each name of its chain.
    let mut alias = attestation("https://a.example/ok", "active", 1, 10);
    alias["chain"] = json!("eip155:8453");
    std::fs::write(
        &registry,
        json!({"attestations": [attestation("https://a.example/ok", "active", 1, 10), alias]})
            .to_string(),
    )
    .unwrap();
    // (Were the two accepted, the service would run: bounded, and killed then.)
    let serve = tokio::process::Command::new(BIN)
        .args(&args)
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(Duration::from_secs(30), serve)
        .await
        .expect("serve refuses to start")
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        format!("x402-verdict: {r}: attestations[1]: another entry already names this endpoint")
    );
    // A duplicate name is refused, not silently merged (serde_json would keep the last).
    std::fs::write(
        &registry,
        r#"{"attestations": [], "published": [{"verdict": {}, "verdict": {}}]}"#,
    )
    .unwrap();
    let (code, _, err) = run(&args).await;
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        format!("x402-verdict: {r}: not strict JSON: duplicate member name in the object ending at byte 65")
    );
    std::fs::write(&registry, "{}").unwrap();
    std::fs::write(&keys, r#"{"current": {"secretKey": "short"}}"#).unwrap();
    let (code, _, err) = run(&args).await;
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        format!("x402-verdict: {k}: current.secretKey is missing or not base64 of 32 bytes")
    );
    assert_eq!(err.lines().count(), 1);
}

#[tokio::test]
async fn refuses_a_secret_key_file_others_can_access() {
    use std::os::unix::fs::PermissionsExt as _;
    let ServiceFiles {
        dir,
        keys,
        registry,
        ..
    } = ServiceFiles::new("mode", "{}").await;
    let verdict = dir.join("verdict.json");
    std::fs::write(
        &verdict,
        r#"{"v": 1, "chain": "base", "payTo": "p", "resourceUrl": "r", "outcome": "no_signal"}"#,
    )
    .unwrap();
    // An address in use: a serve that got past the key file would fail on it.
    let taken = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let listen = taken.local_addr().unwrap().to_string();
    let (k, r, v) = (
        keys.to_str().unwrap(),
        registry.to_str().unwrap(),
        verdict.to_str().unwrap(),
    );
    let serve = ["serve", "--listen", &listen, "--registry", r, "--keys", k];
    for mode in [0o644, 0o640, 0o604, 0o660] {
        std::fs::set_permissions(&keys, std::fs::Permissions::from_mode(mode)).unwrap();
        let expected = format!(
            "x402-verdict: {k}: holds a secret key but is open to others (mode {mode:04o}); run: chmod 600 {k}"
        );
        for args in [&serve[..], &["sign", "--keys", k, v]] {
            let (code, out, err) = run(args).await;
            assert_eq!((code, out.as_str(), err.trim()), (2, "", expected.as_str()));
        }
    }
    std::fs::set_permissions(&keys, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (code, _, err) = run(&["sign", "--keys", k, v]).await;
    assert_eq!(code, 0, "{err}");
}

#[tokio::test]
async fn sign_refuses_malformed_verdicts() {
    let dir = scratch("sign");
    let keys = dir.join("keys.json");
    keygen(&keys, false).await;
    let input = dir.join("v.json");
    let fields = r#""v": 1, "chain": "base", "payTo": "p", "resourceUrl": "r""#;
    for (text, problem) in [
        (
            format!(r#"{{{fields}, "outcome": "human_backed"}}"#),
            "verdict.assuranceLevel is missing",
        ),
        ("[1]".to_owned(), "v.json: not a JSON object"),
        // Two readers could see two different verdicts: refused before signing.
        (
            format!(r#"{{{fields}, "outcome": "no_signal", "chain": "other"}}"#),
            "v.json: not strict JSON: duplicate member name",
        ),
        (
            format!(r#"{{{fields}, "outcome": "no_signal", "score": 0.5}}"#),
            "2^53",
        ),
        // Every consumer would refuse it as too large.
        (
            format!(
                r#"{{{fields}, "outcome": "no_signal", "operator": "{}"}}"#,
                "x".repeat(70_000)
            ),
            "over the 65536 bytes consumers accept",
        ),
    ] {
        std::fs::write(&input, text).unwrap();
        let (code, out, err) = sign_file(&keys, &input).await;
        assert_eq!((code, out.as_str()), (2, ""), "{problem}");
        assert!(err.contains(problem), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[tokio::test]
async fn lookup_rejects_bad_arguments_only() {
    let bad = [
        ("--base-url", "ftp://x"),
        ("--chain", ""),
        ("--public-key", "nope"),
        ("--timeout-ms", "0"),
    ];
    for (flag, value) in bad {
        let mut args = lookup_args("http://127.0.0.1:9", "r", &[]);
        match args.iter().position(|a| *a == flag) {
            Some(i) => args[i + 1] = value,
            None => args.extend([flag, value]),
        }
        let (code, out, _) = run(&args).await;
        assert_eq!((code, out.as_str()), (2, ""), "{flag} {value:?}");
    }
    // A closed port is an answer (unknown), not an error.
    let started = Instant::now();
    let v = lookup("http://127.0.0.1:9", "r", &[], &[]).await;
    assert_eq!(
        summary(&v),
        row(
            "unknown",
            "no_response",
            "unknown",
            "not_checked",
            "network_error"
        )
    );
    assert!(started.elapsed() < Duration::from_secs(3));
}
