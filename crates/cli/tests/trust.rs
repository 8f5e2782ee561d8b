//! The root of trust end to end: an operator's root key (`keygen --root`),
//! certificates (`certify`) and rotations (`keygen --rotate`, `root
//! rotate`), the real service sending each verdict's certificate, and
//! `lookup`, `check` and the MCP server pinned to root version 1 with their
//! configuration unchanged throughout.

mod support;

use std::path::{Path, PathBuf};

use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use support::*;
use tokio::process::Command;

const USDC: &str = "0x833589fCD6eDb6E08f4c3C32D87b6E6e62A5dD13";

/// An operator's files: the root key (and its rotations), the key file,
/// the registry with one good attestation, and a demo paid resource for it.
struct Operator {
    dir: PathBuf,
    keys: PathBuf,
    registry: PathBuf,
    paid: PathBuf,
    /// The root key file of the newest root version.
    root: PathBuf,
    /// Root version 1's public key: what consumers pin.
    root_key: String,
}

/// Runs the command, which must succeed, and returns its `publicKey` line's key.
async fn succeeds(args: &[&str]) -> String {
    let (code, out, err) = run(args).await;
    assert_eq!(code, 0, "{args:?}: {err}");
    out.lines()
        .find_map(|l| l.strip_prefix("publicKey "))
        .unwrap_or_default()
        .to_owned()
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

impl Operator {
    async fn new(name: &str) -> Operator {
        let dir = scratch(name);
        let root = dir.join("root-1.json");
        let root_key = succeeds(&["keygen", "--root", "--out", text(&root)]).await;
        let keys = dir.join("keys.json");
        keygen(&keys, false).await;
        let registry = dir.join("registry.json");
        let entry = attestation(&format!("{R}good"), "active", 1, 24 * 30);
        std::fs::write(&registry, json!({ "attestations": [entry] }).to_string()).unwrap();
        let paid = dir.join("paid.json");
        let challenge = json!({
            "x402Version": 2, "error": "PAYMENT-SIGNATURE header is required",
            "resource": {"url": format!("{R}good"), "description": "Good data", "mimeType": "application/json"},
            "accepts": [{"scheme": "exact", "network": "eip155:8453", "amount": "10000", "asset": USDC,
                "payTo": PAY_TO, "maxTimeoutSeconds": 60, "extra": {"name": "USD Coin", "version": "2"}}]
        });
        std::fs::write(&paid, challenge.to_string()).unwrap();
        Operator {
            dir,
            keys,
            registry,
            paid,
            root,
            root_key,
        }
    }

    async fn certify(&self) {
        succeeds(&[
            "certify",
            "--root",
            text(&self.root),
            "--keys",
            text(&self.keys),
        ])
        .await;
    }

    async fn rotate_signing_key(&self) {
        keygen(&self.keys, true).await;
        self.certify().await;
    }

    /// Rotates the root to `version`, certifies the current key under it,
    /// and returns the new version's public key.
    async fn rotate_root(&mut self, version: u32) -> String {
        let next = self.dir.join(format!("root-{version}.json"));
        let key = succeeds(&[
            "root",
            "rotate",
            "--root",
            text(&self.root),
            "--out",
            text(&next),
        ])
        .await;
        self.root = next;
        self.certify().await;
        key
    }

    async fn serve(&self, addr: &str) -> Service {
        let extra = ["--demo-paid", text(&self.paid)];
        Service::start_on(addr, &self.registry, &self.keys, &extra).await
    }
}

/// An MCP server over stdio, pinned to `root_key` against `base`.
async fn mcp(base: &str, root_key: &str) -> RunningService<RoleClient, ()> {
    let command = Command::new(BIN).configure(|cmd| {
        cmd.arg("mcp")
            .env_remove("VERIFICATION_PUBLIC_KEY")
            .env("VERIFICATION_BASE_URL", base)
            .env("VERIFICATION_ROOT_KEY", root_key)
            .env("VERIFICATION_STRICT", "1")
            .env("RUST_LOG", "error");
    });
    ().serve(TokioChildProcess::new(command).unwrap())
        .await
        .expect("initialize")
}

async fn mcp_lookup(client: &RunningService<RoleClient, ()>) -> Value {
    let args = json!({ "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": format!("{R}good") });
    let params = CallToolRequestParams::new("lookup_verdict")
        .with_arguments(args.as_object().cloned().unwrap());
    let result = client.call_tool(params).await.expect("tools/call");
    result.structured_content.unwrap()
}

/// `lookup --json --strict`, pinned to `root_key` only.
async fn pinned_lookup(base: &str, root_key: &str) -> Value {
    let good = format!("{R}good");
    lookup(base, &good, &[], &["--root-key", root_key, "--strict"]).await
}

fn reads_valid(result: &Value, step: &str) {
    assert_eq!(
        (&result["state"], &result["signature"]),
        (&json!("human-backed"), &json!("valid")),
        "{step}: {result}"
    );
}

#[tokio::test]
async fn pinned_consumers_read_every_rotation_with_their_configuration_unchanged() {
    let mut operator = Operator::new("trust-rotations").await;
    operator.certify().await;
    let mut service = operator.serve("127.0.0.1:0").await;
    let base = service.url.clone();
    let addr = service.addr().to_owned();
    // One MCP server for the whole test: it keeps the newest root it verified.
    let agent = mcp(&base, &operator.root_key).await;
    let paid = format!("{base}/demo/paid");
    let mut kept_from_root_1 = None;
    let mut root_2_key = None;
    for step in 0..5 {
        match step {
            0 => {}
            1..=3 => operator.rotate_signing_key().await,
            _ => root_2_key = Some(operator.rotate_root(2).await),
        }
        if step == 3 {
            kept_from_root_1 = Some(std::fs::read(&operator.keys).unwrap());
        }
        service.stop_with("TERM").await;
        service = operator.serve(&addr).await;
        let step = format!("step {step}");
        reads_valid(&pinned_lookup(&base, &operator.root_key).await, &step);
        reads_valid(&mcp_lookup(&agent).await, &step);
        let (code, out, err) = run(&[
            "check",
            &paid,
            "--base-url",
            &base,
            "--root-key",
            &operator.root_key,
            "--strict",
        ])
        .await;
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("Verification: human-backed;")
                && out.trim_end().ends_with("; signature valid."),
            "{step}: {out}"
        );
        // The image badge carries the verdict with its certificate: checked offline under the root.
        let good = format!("{R}good");
        let query = [("chain", CHAIN), ("payTo", PAY_TO), ("resourceUrl", &good)];
        let badge =
            reqwest::Url::parse_with_params(&format!("{base}/v0/badge.svg"), query).unwrap();
        let args = [
            "check",
            "--badge",
            badge.as_str(),
            "--root-key",
            &operator.root_key,
        ];
        let (code, out, err) = run(&[&args[..], &["--json"]].concat()).await;
        assert_eq!(code, 0, "{err}");
        let out: Value = serde_json::from_str(&out).unwrap();
        reads_valid(&out["result"], &format!("{step}, its image badge"));
    }

    // A consumer that joins after the root's rotation, given version 2's
    // key, walks on from version 2.
    let root_2_key = root_2_key.unwrap();
    reads_valid(
        &pinned_lookup(&base, &root_2_key).await,
        "a consumer pinned to root version 2",
    );

    // The service rolled back to a key certified by root version 1: the
    // MCP server, which walked to version 2, refuses it; a consumer that
    // never saw version 2 still takes it.
    let keys = operator.dir.join("rolled-back.json");
    std::fs::write(&keys, kept_from_root_1.unwrap()).unwrap();
    std::fs::set_permissions(&keys, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    service.stop_with("TERM").await;
    let extra = ["--demo-paid", text(&operator.paid)];
    let _service = Service::start_on(&addr, &operator.registry, &keys, &extra).await;
    let refused = mcp_lookup(&agent).await;
    assert_eq!(
        (
            &refused["state"],
            &refused["signature"],
            &refused["reason"],
            &refused["detail"]
        ),
        (
            &json!("unknown"),
            &json!("unverifiable"),
            &json!("signature_required"),
            &json!("key certificate of an older root (rollback)")
        ),
        "{refused}"
    );
    reads_valid(
        &pinned_lookup(&base, &operator.root_key).await,
        "a fresh consumer",
    );
    // One pinned to version 2 never trusted version 1's certificates.
    let pinned_to_2 = pinned_lookup(&base, &root_2_key).await;
    assert_eq!(
        (&pinned_to_2["signature"], &pinned_to_2["detail"]),
        (
            &json!("unverifiable"),
            &json!("key certificate of another root")
        ),
        "{pinned_to_2}"
    );
    agent.cancel().await.unwrap();
}

#[tokio::test]
async fn refusals_read_unknown_under_strict_and_say_why() {
    let operator = Operator::new("trust-refusals").await;
    // Not yet certified: the verdict carries no certificate.
    let service = operator.serve("127.0.0.1:0").await;
    let result = pinned_lookup(&service.url, &operator.root_key).await;
    assert_eq!(
        (&result["state"], &result["signature"], &result["detail"]),
        (
            &json!("unknown"),
            &json!("unverifiable"),
            &json!("no key certificate")
        ),
        "{result}"
    );
    drop(service);
    operator.certify().await;
    let service = operator.serve("127.0.0.1:0").await;
    // Pinned to another root.
    let other = operator.dir.join("other-root.json");
    let other_key = succeeds(&["keygen", "--root", "--out", text(&other)]).await;
    let result = pinned_lookup(&service.url, &other_key).await;
    assert_eq!(
        (&result["state"], &result["signature"], &result["detail"]),
        (
            &json!("unknown"),
            &json!("unverifiable"),
            &json!("key certificate of another root")
        ),
        "{result}"
    );
    // Without --strict, the same reads human-backed with the signature unverifiable.
    let good = format!("{R}good");
    let lenient = lookup(&service.url, &good, &[], &["--root-key", &other_key]).await;
    assert_eq!(
        (&lenient["state"], &lenient["signature"]),
        (&json!("human-backed"), &json!("unverifiable"))
    );
}

#[tokio::test]
async fn the_service_publishes_its_roots_and_certificate_and_sign_carries_them() {
    let mut operator = Operator::new("trust-published").await;
    operator.rotate_root(2).await;
    let service = operator.serve("127.0.0.1:0").await;
    let root_file: Value = serde_json::from_slice(&std::fs::read(&operator.root).unwrap()).unwrap();
    for version in [1, 2] {
        let answer = reqwest::get(format!("{}/v0/root/{version}.json", service.url))
            .await
            .unwrap();
        assert_eq!(answer.status(), 200);
        assert_eq!(
            answer.headers()["cache-control"],
            "public, max-age=31536000, immutable"
        );
        let root: Value = answer.json().await.unwrap();
        assert_eq!(root["root"], root_file["roots"][version - 1]);
        assert_eq!(root["version"], version);
    }
    for missing in ["3.json", "0.json", "01.json", "1", "x.json"] {
        let answer = reqwest::get(format!("{}/v0/root/{missing}", service.url))
            .await
            .unwrap();
        assert_eq!(answer.status(), 404, "{missing}");
    }
    let keys: Value = reqwest::get(format!("{}/v0/verification-keys", service.url))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let current = &keys["keys"][0];
    assert!(current["certificate"].is_string(), "{current}");

    // `sign`'s documents carry the certificate and the roots from version 2,
    // and a pinned consumer takes them; a `publicKey` pin reads them as before.
    let verdict = json!({
        "v": 1, "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": format!("{R}good"),
        "outcome": "human_backed", "assuranceLevel": "G",
        "verifiedAt": hours_from_now(-1), "recheckEveryHours": 24,
    });
    let signed = sign(&operator.keys, &verdict).await;
    assert_eq!(signed["certificate"], current["certificate"]);
    assert_eq!(signed["roots"], json!([root_file["roots"][1]]));
    let signing_key = current["publicKey"].as_str().unwrap();
    let fetched = lookup(
        &service.url,
        &format!("{R}good"),
        &[signing_key],
        &["--strict"],
    )
    .await;
    reads_valid(&fetched, "a publicKey pin");
}

#[tokio::test]
async fn root_commands_refuse_what_would_lose_a_key_with_one_line() {
    let mut operator = Operator::new("trust-refused").await;
    let (root_path, keys_path) = (operator.root.clone(), operator.keys.clone());
    let root = text(&root_path);
    let (code, _, err) = run(&["keygen", "--root", "--out", root]).await;
    assert_eq!(
        (code, err.trim_end()),
        (
            2,
            format!("x402-verdict: {root}: already exists (a root key file is never overwritten)")
                .as_str()
        )
    );
    let (code, _, err) = run(&["root", "rotate", "--root", root, "--out", root]).await;
    assert_eq!(code, 2);
    assert!(
        err.ends_with("already exists (a root key file is never overwritten)\n"),
        "{err}"
    );
    let keys = text(&keys_path);
    let late = hours_from_now(24 * 367);
    let refusals = [
        (
            late.as_str(),
            "a certificate may be valid for at most a year",
        ),
        (
            "soon",
            "--not-after must be an RFC 3339 UTC time such as 2027-03-01T00:00:00Z",
        ),
    ];
    for (not_after, said) in refusals {
        let args = [
            "certify",
            "--root",
            root,
            "--keys",
            keys,
            "--not-after",
            not_after,
        ];
        let (code, _, err) = run(&args).await;
        assert_eq!(
            (code, err.as_str()),
            (2, format!("x402-verdict: {said}\n").as_str())
        );
    }
    // After a root rotation, the signing key is certified under the new
    // root: the old root key file is refused, and the key file left as it was.
    operator.rotate_root(2).await;
    let before = std::fs::read(&operator.keys).unwrap();
    let (code, _, err) = run(&["certify", "--root", root, "--keys", keys]).await;
    let said = format!("x402-verdict: {keys}: already carries root version 2, and {root} is version 1: certify with the newest root key file\n");
    assert_eq!((code, err.as_str()), (2, said.as_str()));
    assert_eq!(std::fs::read(&operator.keys).unwrap(), before);
    // The root key file holds a secret: written 0600, refused when open to others.
    let mode = |path: &str| {
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(path).unwrap().permissions())
            & 0o777
    };
    assert_eq!(mode(root), 0o600);
    std::fs::set_permissions(root, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
    let (code, _, err) = run(&["certify", "--root", root, "--keys", keys]).await;
    assert_eq!(code, 2);
    assert!(
        err.contains("holds a secret key but is open to others"),
        "{err}"
    );
}

#[tokio::test]
async fn serve_warns_when_root_pinned_consumers_cannot_read_its_key() {
    let operator = Operator::new("trust-warned").await;
    let keys = text(&operator.keys);
    let started = || async {
        let args = [
            "serve",
            "--registry",
            text(&operator.registry),
            "--keys",
            keys,
            "--listen",
            "127.0.0.1:0",
        ];
        let (_, _, err) = interrupted(&args, std::time::Duration::from_secs(3)).await;
        err
    };
    // Never certified: its consumers pin its keys, and nothing is said.
    assert!(!started().await.contains("certif"));
    operator.certify().await;
    assert!(!started().await.contains("certif"));
    // Rotated since the last certify.
    keygen(&operator.keys, true).await;
    let err = started().await;
    assert!(err.contains(&format!("{keys}: the current key has no certificate (rotated since the last certify): consumers that pin the root read its verdicts as unverifiable; run: x402-verdict certify")), "{err}");
    // Certified again, but for two days only.
    let soon = hours_from_now(48);
    let args = [
        "certify",
        "--root",
        text(&operator.root),
        "--keys",
        keys,
        "--not-after",
        &soon,
    ];
    succeeds(&args).await;
    let err = started().await;
    assert!(
        err.contains(&format!("{keys}: the current key's certificate ends at ")),
        "{err}"
    );
    assert!(
        err.contains(": run: x402-verdict certify before then"),
        "{err}"
    );
}
