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
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
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
/// answers: a lookup against it ends at the consumer's timeout, or when the
/// consumer abandons it (closes its connection: counted in `closed`).
async fn silent_service() -> (String, Arc<AtomicUsize>) {
    let (url, count, _) = silent_service_counting_closes().await;
    (url, count)
}

async fn silent_service_counting_closes() -> (String, Arc<AtomicUsize>, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (count, closed) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (seen, gone) = (count.clone(), closed.clone());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            seen.fetch_add(1, Ordering::SeqCst);
            let gone = gone.clone();
            tokio::spawn(async move {
                let mut buffer = [0u8; 4096];
                while socket.read(&mut buffer).await.is_ok_and(|n| n > 0) {}
                gone.fetch_add(1, Ordering::SeqCst);
            });
        }
    });
    (url, count, closed)
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
        Some(3)
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
async fn a_line_that_is_not_json_is_a_parse_error_and_the_session_goes_on() {
    // rmcp ignores such a line (rmcp#938); a pipeline gets told instead.
    let (code, messages) = pipeline(
        &[],
        &lines(&[
            INITIALIZE,
            INITIALIZED,
            "{ this is not json",
            r#"{"jsonrpc":"2.0","id":3,"method":"ping""#,
            TOOLS_LIST,
        ]),
    )
    .await;
    assert_eq!(code, Some(0));
    assert_eq!(messages.len(), 4, "{messages:?}");
    let errors: Vec<&Value> = messages.iter().filter(|m| m["id"].is_null()).collect();
    assert_eq!(errors.len(), 2, "{messages:?}");
    for error in errors {
        assert_eq!(error["error"]["code"], -32700, "{error}");
        assert_eq!(
            error["error"]["message"], "Parse error: the line is not valid JSON",
            "{error}"
        );
    }
    assert!(answer(&messages, json!(2))["result"]["tools"].is_array());
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
    // 64 MiB on one line: 16 times the 4 MiB cap (and 4 times rmcp's own,
    // which drops the line unanswered).
    let chunk = vec![b'x'; 1 << 20];
    let written = async {
        stdin
            .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"")
            .await?;
        for _ in 0..64 {
            stdin.write_all(&chunk).await?;
        }
        stdin.write_all(b"\"}\n").await?;
        stdin.write_all(&lines(&[TOOLS_LIST])).await?;
        stdin.flush().await
    };
    tokio::time::timeout(Duration::from_secs(60), written)
        .await
        .expect("the server reads the long line as it comes")
        .unwrap();
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

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn initialize(revision: &str) -> String {
    INITIALIZE.replace("2025-06-18", revision)
}

fn cancel(id: u32) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id}}}}}"#
    )
}

/// A `tools/call` in the stateless revision: its `_meta` names 2026-07-28.
fn stateless_call(id: u32, resource: &str) -> String {
    let mut call = tools_call(id, &endpoint(resource));
    call.insert_str(call.find(r#""name""#).unwrap(), &format!("{META},"));
    call
}

/// Waits until `counter` reaches `n` (or fails after 20 s).
async fn reaches(counter: &AtomicUsize, n: usize, what: &str) {
    let waited = tokio::time::timeout(Duration::from_secs(20), async {
        while counter.load(Ordering::SeqCst) < n {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    waited.await.unwrap_or_else(|_| panic!("{what}"));
}

/// Reads stdout lines until one answers `id` (or fails after 20 s).
async fn read_until_answer(
    out: &mut tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
    id: &Value,
    seen: &mut Vec<Value>,
) -> Value {
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let line = out.next_line().await.unwrap().expect("the server exited");
            let message: Value = serde_json::from_str(&line).unwrap();
            seen.push(message.clone());
            let answers = |m: &Value| m.get("id") == Some(id);
            if answers(&message) || message.as_array().is_some_and(|a| a.iter().any(answers)) {
                return message;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no answer to {id}: {seen:?}"))
}

#[tokio::test]
async fn a_batch_in_a_2025_03_26_session_is_answered_as_one_array() {
    let batch = format!(
        "[{INITIALIZED},{ping},{call},{bad},5]",
        ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
        call = tools_call(3, &endpoint("https://api.example.com/a")),
        bad = r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"endpoint_status","arguments":[]}}"#,
    );
    let (code, messages) = pipeline(&[], &lines(&[&initialize("2025-03-26"), &batch])).await;
    assert_eq!(code, Some(0));
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert_eq!(
        answer(&messages, json!(1))["result"]["protocolVersion"],
        "2025-03-26"
    );
    let array = messages[1].as_array().expect("one array answers the batch");
    assert_eq!(
        array.len(),
        4,
        "every request and the invalid member: {array:?}"
    );
    assert_eq!(answer(array, json!(2))["result"], json!({}));
    assert_eq!(
        answer(array, json!(3))["result"]["content"][0]["text"],
        "Verification signal: unknown."
    );
    assert_eq!(answer(array, json!(4))["error"]["code"], -32602);
    assert_eq!(answer(array, Value::Null)["error"]["code"], -32600);
    // Only 2025-03-26 has batches.
    let (_, messages) = pipeline(
        &[],
        &lines(&[INITIALIZE, INITIALIZED, &format!("[{TOOLS_LIST}]")]),
    )
    .await;
    assert_eq!(messages.len(), 2, "{messages:?}");
    let refused = answer(&messages, Value::Null);
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    assert!(refused["error"]["message"]
        .as_str()
        .unwrap()
        .contains("2025-03-26"));
}

/// A server whose lookups go to a silent service, with a 30 s timeout.
struct Slow {
    child: Child,
    stdin: tokio::process::ChildStdin,
    out: tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
    connections: Arc<AtomicUsize>,
    closed: Arc<AtomicUsize>,
}

async fn slow_server() -> Slow {
    let (url, connections, closed) = silent_service_counting_closes().await;
    let env = [
        ("VERIFICATION_BASE_URL", url.as_str()),
        ("VERIFICATION_TIMEOUT_MS", "30000"),
    ];
    let mut child = spawn(&env);
    let stdin = child.stdin.take().unwrap();
    let out = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    Slow {
        child,
        stdin,
        out,
        connections,
        closed,
    }
}

#[tokio::test]
async fn a_cancelled_request_leaves_its_batch_and_the_lookup_is_dropped() {
    let Slow {
        mut child,
        mut stdin,
        mut out,
        connections,
        closed,
    } = slow_server().await;
    let mut seen = Vec::new();
    let batch = format!(
        "[{ping},{slow}]",
        ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
        slow = tools_call(3, &endpoint("https://api.example.com/slow")),
    );
    let input = lines(&[&initialize("2025-03-26"), INITIALIZED, &batch]);
    stdin.write_all(&input).await.unwrap();
    reaches(&connections, 1, "the slow lookup reaches the service").await;
    stdin.write_all(&lines(&[&cancel(3)])).await.unwrap();
    let array = read_until_answer(&mut out, &json!(2), &mut seen).await;
    assert_eq!(array, json!([{ "jsonrpc": "2.0", "id": 2, "result": {} }]));
    reaches(&closed, 1, "the cancelled lookup's connection is closed").await;
    drop(stdin);
    let rest = tokio::time::timeout(Duration::from_secs(20), child.wait()).await;
    assert_eq!(
        rest.expect("exits without waiting for the cancelled lookup")
            .unwrap()
            .code(),
        Some(0)
    );
}

#[tokio::test]
async fn a_stateless_session_keeps_its_notifications() {
    let Slow {
        mut child,
        mut stdin,
        mut out,
        connections,
        closed,
    } = slow_server().await;
    let mut seen = Vec::new();
    // A notification before any request: no lifecycle yet, nothing to end.
    let early = cancel(1);
    let slow = stateless_call(1, "https://api.example.com/slow");
    stdin.write_all(&lines(&[&early, &slow])).await.unwrap();
    reaches(&connections, 1, "the slow lookup reaches the service").await;
    stdin.write_all(&lines(&[&cancel(1)])).await.unwrap();
    reaches(
        &closed,
        1,
        "the cancellation reaches rmcp, which drops the lookup",
    )
    .await;
    let list = format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{{META}}}}}"#);
    stdin.write_all(&lines(&[&list])).await.unwrap();
    let tools = read_until_answer(&mut out, &json!(2), &mut seen).await;
    assert_eq!(tools["result"]["resultType"], "complete", "{tools}");
    assert_eq!(tools["result"]["tools"].as_array().map(Vec::len), Some(3));
    drop(stdin);
    let status = tokio::time::timeout(Duration::from_secs(20), child.wait()).await;
    assert_eq!(
        status.expect("exits at end of input").unwrap().code(),
        Some(0)
    );
    while let Ok(Some(line)) = out.next_line().await {
        seen.push(serde_json::from_str(&line).unwrap());
    }
    assert!(
        seen.iter().all(|m| m["id"] != json!(1)),
        "the cancelled request is not answered: {seen:?}"
    );
}
