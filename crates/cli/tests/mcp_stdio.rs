//! The MCP server's stdio framing, driven line by line the way shell
//! pipelines and hostile clients drive it: input closed right after the last
//! request, stray messages before `initialize`, unreadable ids, invalid
//! UTF-8 and an over-long line.

mod support;

use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipeline","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const TOOLS_LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

fn tools_call(id: u32, arguments: &Value) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": "endpoint_status", "arguments": arguments } })
    .to_string()
}

fn endpoint(resource: &str) -> Value {
    json!({ "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": resource })
}

/// A verification service that accepts connections, counts them and never
/// answers: a lookup against it ends at the consumer's timeout.
async fn silent_service() -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            seen.fetch_add(1, Ordering::SeqCst);
            held.push(socket);
        }
    });
    (url, count)
}

fn spawn(env: &[(&str, &str)]) -> Child {
    let mut command = Command::new(BIN);
    command
        .arg("mcp")
        .env_remove("VERIFICATION_BASE_URL")
        .env_remove("VERIFICATION_PUBLIC_KEY")
        .env("RUST_LOG", "error")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    for (k, v) in env {
        command.env(k, v);
    }
    command.spawn().unwrap()
}

/// Writes `input`, closes stdin at once, and returns the exit code and every
/// message the server wrote before exiting.
async fn pipeline(env: &[(&str, &str)], input: &[u8]) -> (Option<i32>, Vec<Value>) {
    let mut child = spawn(env);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input).await.unwrap();
    drop(stdin);
    let mut out = String::new();
    let mut stdout = child.stdout.take().unwrap();
    tokio::time::timeout(Duration::from_secs(20), stdout.read_to_string(&mut out))
        .await
        .expect("the server exits once its input has ended")
        .unwrap();
    let status = child.wait().await.unwrap();
    let messages = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (status.code(), messages)
}

fn lines(lines: &[&str]) -> Vec<u8> {
    lines
        .iter()
        .flat_map(|l| format!("{l}\n").into_bytes())
        .collect()
}

/// The answer to request `id`.
fn answer(messages: &[Value], id: Value) -> &Value {
    messages
        .iter()
        .find(|m| m["id"] == id)
        .unwrap_or_else(|| panic!("no answer to {id} in {messages:?}"))
}

#[tokio::test]
async fn every_request_read_before_end_of_input_is_answered() {
    let (url, _) = silent_service().await;
    let slow = tools_call(3, &endpoint("https://api.example.com/slow"));
    let bad = tools_call(4, &json!({ "chain": CHAIN }));
    // Longer than the 5 s rmcp gives its handlers once its input has ended.
    let env = [
        ("VERIFICATION_BASE_URL", url.as_str()),
        ("VERIFICATION_TIMEOUT_MS", "6000"),
    ];
    let (code, messages) = pipeline(
        &env,
        &lines(&[INITIALIZE, INITIALIZED, TOOLS_LIST, &slow, &bad]),
    )
    .await;
    assert_eq!(code, Some(0));
    assert_eq!(messages.len(), 4, "{messages:?}");
    assert_eq!(
        answer(&messages, json!(1))["result"]["serverInfo"]["name"],
        "x402-verdict"
    );
    assert!(answer(&messages, json!(2))["result"]["tools"].is_array());
    let slow = &answer(&messages, json!(3))["result"];
    assert_eq!(slow["structuredContent"]["reason"], "timeout", "{slow}");
    let bad = &answer(&messages, json!(4))["result"];
    assert_eq!(bad["isError"], true, "{bad}");
}

#[tokio::test]
async fn stray_messages_before_initialize_are_ignored() {
    let (code, messages) = pipeline(
        &[],
        &lines(&[
            INITIALIZED,
            r#"{"jsonrpc":"2.0","id":99,"result":{}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
            INITIALIZE,
            INITIALIZED,
            TOOLS_LIST,
        ]),
    )
    .await;
    assert_eq!(code, Some(0));
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert_eq!(
        answer(&messages, json!(1))["result"]["protocolVersion"],
        "2025-06-18"
    );
    assert_eq!(
        answer(&messages, json!(2))["result"]["tools"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
}

#[tokio::test]
async fn invalid_utf8_is_a_parse_error_and_nothing_is_fetched() {
    let (url, connections) = silent_service().await;
    let mut input = lines(&[INITIALIZE, INITIALIZED]);
    input.extend_from_slice(
        b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"endpoint_status\",\"arguments\":{\"chain\":\"ba\xffse\",\"payTo\":\"p\",\"resourceUrl\":\"r\"}}}\n",
    );
    let (_, messages) = pipeline(&[("VERIFICATION_BASE_URL", url.as_str())], &input).await;
    assert_eq!(messages.len(), 2, "{messages:?}");
    let error = answer(&messages, Value::Null);
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert_eq!(connections.load(Ordering::SeqCst), 0, "nothing was fetched");
}

#[tokio::test]
async fn unreadable_ids_and_arguments_get_json_rpc_errors() {
    let mut requests = vec![INITIALIZE.to_owned(), INITIALIZED.to_owned()];
    for id in ["null", "{\"a\":1}", "1.5", "true"] {
        requests.push(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#
        ));
    }
    requests.push(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"endpoint_status","arguments":[]}}"#.to_owned());
    requests.push(TOOLS_LIST.to_owned());
    let refs: Vec<&str> = requests.iter().map(String::as_str).collect();
    let (_, messages) = pipeline(&[], &lines(&refs)).await;
    assert_eq!(messages.len(), 7, "{messages:?}");
    let nulls: Vec<&Value> = messages
        .iter()
        .filter(|m| m.get("id") == Some(&Value::Null))
        .collect();
    assert_eq!(
        nulls.len(),
        4,
        "every error carries \"id\": null: {messages:?}"
    );
    assert!(nulls.iter().all(|m| m["error"]["code"] == -32600));
    assert_eq!(answer(&messages, json!(7))["error"]["code"], -32602);
    assert!(
        answer(&messages, json!(2))["result"]["tools"].is_array(),
        "the session goes on"
    );
}

/// The peak resident memory of a process, in KiB (Linux).
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[tokio::test]
async fn an_over_long_line_leaves_memory_bounded() {
    let mut child = spawn(&[]);
    let pid = child.id().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(&lines(&[INITIALIZE, INITIALIZED]))
        .await
        .unwrap();
    // 64 MiB on one line: 16 times the 4 MiB cap.
    let chunk = vec![b'x'; 1 << 20];
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"")
        .await
        .unwrap();
    for _ in 0..64 {
        stdin.write_all(&chunk).await.unwrap();
    }
    stdin.write_all(b"\"}\n").await.unwrap();
    stdin.write_all(&lines(&[TOOLS_LIST])).await.unwrap();
    stdin.flush().await.unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = String::new();
    let mut buffer = [0u8; 4096];
    while !seen.contains("\"id\":2") {
        let n = tokio::time::timeout(Duration::from_secs(20), stdout.read(&mut buffer))
            .await
            .expect("tools/list is answered after the long line")
            .unwrap();
        assert!(n > 0, "the server exited: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
    }
    let peak = peak_rss_kib(pid);
    drop(stdin);
    child.wait().await.unwrap();
    assert!(
        seen.contains(r#""error":{"code":-32700,"message":"Parse error: the line is too long"}"#),
        "{seen}"
    );
    assert!(
        peak < 40 << 10,
        "peak memory {peak} KiB after a 64 MiB line: the rest of the line was kept"
    );
}
