//! The MCP server driven by rmcp's own client over a real child process,
//! against the real reference service on loopback.

mod support;

use std::path::PathBuf;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use support::*;
use tokio::process::Command;

/// The demo service and a client configured with its URL and key; the first
/// two values keep the service running.
async fn demo_client() -> (PathBuf, Service, RunningService<RoleClient, ()>) {
    let (dir, key, service) = start_demo().await;
    let c = client(&[
        ("VERIFICATION_BASE_URL", &service.url),
        ("VERIFICATION_PUBLIC_KEY", &key),
    ])
    .await;
    (dir, service, c)
}

async fn client(env: &[(&str, &str)]) -> RunningService<RoleClient, ()> {
    let command = Command::new(BIN).configure(|cmd| {
        cmd.arg("mcp")
            .env_remove("VERIFICATION_BASE_URL")
            .env_remove("VERIFICATION_PUBLIC_KEY")
            .env("RUST_LOG", "error");
        for (k, v) in env {
            cmd.env(k, v);
        }
    });
    ().serve(TokioChildProcess::new(command).unwrap())
        .await
        .expect("initialize")
}

async fn call(client: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> CallToolResult {
    let params = CallToolRequestParams::new(tool.to_owned())
        .with_arguments(args.as_object().cloned().unwrap());
    client.call_tool(params).await.expect("tools/call")
}

fn text(result: &CallToolResult) -> String {
    result.content[0]
        .as_text()
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

fn args(path: &str) -> Value {
    json!({ "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": format!("{R}{path}") })
}

#[tokio::test]
async fn tools_answer_every_outcome() {
    let (_dir, _service, c) = demo_client().await;
    let info = c.peer_info().unwrap();
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("x402-verdict")
    );
    assert_eq!(
        info.protocol_version.as_str(),
        "2025-11-25",
        "rmcp's client asks for the newest revision with initialize, which is echoed"
    );
    let tools = c.list_all_tools().await.unwrap();
    let names: Vec<_> = tools.iter().map(|t| t.name.to_string()).collect();
    assert_eq!(
        names,
        [
            "lookup_verdict",
            "endpoint_status",
            "check_payment_required"
        ]
    );
    for (path, state, outcome) in [
        ("good", "human-backed", "human_backed"),
        ("revoked", "revoked", "revoked"),
        ("stale", "unknown", "stale"),
        ("unlisted", "unknown", "no_signal"),
        ("tampered", "unknown", "human_backed"),
        ("overdue", "unknown", "human_backed"),
    ] {
        let full = call(&c, "lookup_verdict", args(path)).await;
        assert_eq!(full.is_error, Some(false), "{path}");
        let structured = full.structured_content.clone().unwrap();
        assert_eq!(
            (structured["state"].as_str(), structured["outcome"].as_str()),
            (Some(state), Some(outcome)),
            "{path}"
        );
        assert!(
            text(&full).starts_with(&format!("Verification: {state}; outcome {outcome}; ")),
            "{path}: {}",
            text(&full)
        );
        let short = call(&c, "endpoint_status", args(path)).await;
        assert_eq!(text(&short), format!("Verification signal: {state}."));
        assert_eq!(
            short.structured_content,
            Some(structured),
            "{path}: both tools carry the same structured result"
        );
    }
    let good = call(&c, "lookup_verdict", args("good")).await;
    assert!(
        text(&good).ends_with("; signature valid."),
        "{}",
        text(&good)
    );
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_arguments_are_the_only_errors() {
    let c = client(&[]).await;
    let missing = call(&c, "lookup_verdict", json!({ "chain": "base" })).await;
    assert_eq!(missing.is_error, Some(true));
    assert_eq!(
        text(&missing),
        "Invalid arguments: missing argument payTo; missing argument resourceUrl."
    );
    let extra = call(
        &c,
        "endpoint_status",
        json!({ "chain": "base", "payTo": "p", "resourceUrl": "r", "amount": 5 }),
    )
    .await;
    assert_eq!(
        text(&extra),
        "Invalid arguments: unexpected argument amount."
    );
    // No service configured: an answer, not an error.
    let none = call(&c, "endpoint_status", args("good")).await;
    assert_eq!(none.is_error, Some(false));
    assert_eq!(none.structured_content.unwrap()["outcome"], "no_service");
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn twenty_concurrent_calls() {
    let (_dir, _service, c) = demo_client().await;
    let paths = ["good", "revoked", "stale", "unlisted"];
    let calls = (0..20).map(|i| {
        call(
            &c,
            if i % 2 == 0 {
                "lookup_verdict"
            } else {
                "endpoint_status"
            },
            args(paths[i % 4]),
        )
    });
    let results = futures_util::future::join_all(calls).await;
    for (i, r) in results.iter().enumerate() {
        let expected = ["human-backed", "revoked", "unknown", "unknown"][i % 4];
        assert_eq!(
            r.structured_content.as_ref().unwrap()["state"],
            expected,
            "call {i}"
        );
    }
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn malformed_configuration_stops_the_server_with_one_line() {
    for (var, value, message) in [
        ("VERIFICATION_BASE_URL", "not a url", "x402-verdict: VERIFICATION_BASE_URL is not an absolute http:// or https:// URL"),
        ("VERIFICATION_PUBLIC_KEY", "AAAA", "x402-verdict: VERIFICATION_PUBLIC_KEY: the public key is not 32 bytes (a raw Ed25519 public key)"),
        ("VERIFICATION_TIMEOUT_MS", "-1", "x402-verdict: VERIFICATION_TIMEOUT_MS must be a whole number"),
        ("VERIFICATION_STRICT", "maybe", "x402-verdict: VERIFICATION_STRICT must be 1 (strict) or 0"),
    ] {
        let out = Command::new(BIN).arg("mcp").env(var, value).output().await.unwrap();
        assert_eq!(out.status.code(), Some(2), "{var}");
        assert!(out.stdout.is_empty(), "{var}: nothing on stdout");
        assert_eq!(String::from_utf8_lossy(&out.stderr).trim(), message);
    }
}
