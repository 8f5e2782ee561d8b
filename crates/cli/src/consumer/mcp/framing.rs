//! Line framing in front of rmcp's stdio transport.
//!
//! rmcp drops a line that is not JSON without an answer, answers a message it
//! cannot read without an `id`, ends the session on a notification sent
//! before `initialize`, and stops at end of input with requests still in
//! flight. JSON-RPC 2.0 and the shell pipelines that drive this server ask
//! for better, so this filter stands between stdin and rmcp:
//!
//! - it answers what is no readable request itself: `-32700` (parse error)
//!   for a line that is not UTF-8 JSON or is over [`MAX_LINE_BYTES`] (whose
//!   rest is discarded unread, so memory stays bounded), `-32600` (invalid
//!   request) for JSON that is no message or whose `id` is neither a string
//!   nor an integer (answered with `"id": null`), and `-32602` (invalid
//!   params) for a `tools/call` whose `params` or `arguments` is not an object;
//! - it ignores a notification or response sent before `initialize`;
//! - at end of input it waits until rmcp has answered every request it was
//!   handed, then ends rmcp's input.
//!
//! One writer merges its answers with rmcp's output, a whole line at a time,
//! so stdout carries only protocol messages.

use std::collections::HashMap;
use std::sync::Arc;

use rmcp::model::{ClientJsonRpcMessage, ClientNotification, ClientRequest, RequestId};
use serde_json::{json, Value};
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader,
    DuplexStream,
};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

/// The longest message line accepted; a longer one is answered with a parse
/// error and skipped, never buffered whole.
pub const MAX_LINE_BYTES: u64 = 4 << 20;

/// What to do with one input line.
#[derive(Debug, PartialEq)]
enum Disposition {
    /// A request for rmcp, which answers it: its id (as [`id_key`] writes it)
    /// and whether it is `initialize`.
    Request { id: String, initialize: bool },
    /// A notification for rmcp; `cancels` is the id of the request it cancels.
    Notification { cancels: Option<String> },
    /// A response to a request of the server.
    Response,
    /// Blank: ignore.
    Skip,
    /// Answer with this error response; rmcp never sees the line.
    Answer(Value),
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

/// How an id is compared between a request and its answer: its JSON text,
/// once read as rmcp reads it (`1.0` is `1`; `1` and `"1"` differ).
fn id_key(id: &RequestId) -> String {
    id.clone().into_json_value().to_string()
}

fn classify(line: &[u8]) -> Disposition {
    let Ok(text) = std::str::from_utf8(line) else {
        return Disposition::Answer(error(
            Value::Null,
            -32700,
            "Parse error: the line is not valid UTF-8",
        ));
    };
    if text.trim().is_empty() {
        return Disposition::Skip;
    }
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return Disposition::Answer(error(
            Value::Null,
            -32700,
            "Parse error: the line is not valid JSON",
        ));
    };
    let Value::Object(message) = &value else {
        return Disposition::Answer(error(
            Value::Null,
            -32600,
            "Invalid Request: expected one JSON-RPC 2.0 message object (batches are not supported)",
        ));
    };
    let raw_id = message.get("id");
    let id = raw_id.and_then(|v| serde_json::from_value::<RequestId>(v.clone()).ok());
    let reply_id = id.clone().map_or(Value::Null, RequestId::into_json_value);
    let is_call = message.get("method").is_some_and(Value::is_string);
    let is_response =
        raw_id.is_some() && (message.contains_key("result") || message.contains_key("error"));
    if message.get("jsonrpc") != Some(&json!("2.0")) || !(is_call || is_response) {
        return Disposition::Answer(error(
            reply_id,
            -32600,
            "Invalid Request: not a JSON-RPC 2.0 message",
        ));
    }
    if is_call && raw_id.is_some() && id.is_none() {
        return Disposition::Answer(error(
            Value::Null,
            -32600,
            "Invalid Request: the id must be a string or an integer",
        ));
    }
    if is_call && id.is_some() && message.get("method") == Some(&json!("tools/call")) {
        let params = message.get("params").and_then(Value::as_object);
        let valid = params.is_some_and(|p| {
            p.get("name").is_some_and(Value::is_string)
                && p.get("arguments").is_none_or(Value::is_object)
        });
        if !valid {
            return Disposition::Answer(error(
                reply_id,
                -32602,
                "Invalid params: tools/call needs params with the tool's name (a string) and its arguments (an object)",
            ));
        }
    }
    match serde_json::from_value::<ClientJsonRpcMessage>(value) {
        Ok(ClientJsonRpcMessage::Request(request)) => Disposition::Request {
            id: id_key(&request.id),
            initialize: matches!(request.request, ClientRequest::InitializeRequest(_)),
        },
        Ok(ClientJsonRpcMessage::Notification(notification)) => Disposition::Notification {
            cancels: match notification.notification {
                ClientNotification::CancelledNotification(c) => {
                    c.params.request_id.as_ref().map(id_key)
                }
                _ => None,
            },
        },
        Ok(ClientJsonRpcMessage::Response(_) | ClientJsonRpcMessage::Error(_)) => {
            Disposition::Response
        }
        Err(_) if is_call && id.is_some() => Disposition::Answer(error(
            reply_id,
            -32600,
            "Invalid Request: the message does not have the shape its method requires",
        )),
        // A notification or a response nobody can read: nothing to answer.
        Err(_) => Disposition::Skip,
    }
}

/// The requests handed to rmcp and not answered yet, by [`id_key`], with how
/// many share that id.
#[derive(Clone)]
struct InFlight(Arc<watch::Sender<HashMap<String, usize>>>);

impl InFlight {
    fn new() -> Self {
        InFlight(Arc::new(watch::channel(HashMap::new()).0))
    }

    fn add(&self, id: String) {
        self.0.send_modify(|ids| *ids.entry(id).or_default() += 1);
    }

    /// The request `id` was answered (or cancelled: rmcp answers nothing then).
    fn settle(&self, id: &str) {
        self.0.send_modify(|ids| {
            if let Some(n) = ids.get_mut(id) {
                *n -= 1;
                if *n == 0 {
                    ids.remove(id);
                }
            }
        });
    }

    /// rmcp will answer nothing more.
    fn abandon(&self) {
        self.0.send_modify(HashMap::clear);
    }

    /// Resolves once every request has been answered.
    async fn drained(&self) {
        let mut ids = self.0.subscribe();
        // The sender lives in `self`, so waiting cannot fail.
        let _ = ids.wait_for(HashMap::is_empty).await;
    }
}

/// The pair rmcp serves on, in front of stdin and stdout.
pub type Transport = (DuplexStream, DuplexStream);

/// Wraps `input` and `output` (stdin and stdout) and returns the pair rmcp
/// serves on, and the writer's task: it ends once input has ended and every
/// answer is written, so the process must not exit before it does.
pub fn filtered<I, O>(input: I, output: O) -> (Transport, JoinHandle<()>)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (server_in, to_server) = tokio::io::duplex(64 << 10);
    let (server_out, from_server) = tokio::io::duplex(64 << 10);
    let (answers, pending) = mpsc::unbounded_channel::<String>();
    let in_flight = InFlight::new();
    tokio::spawn(read_lines(input, to_server, answers, in_flight.clone()));
    let writer = tokio::spawn(write_lines(from_server, pending, output, in_flight));
    ((server_in, server_out), writer)
}

async fn read_lines<I: AsyncRead + Unpin>(
    input: I,
    mut to_server: DuplexStream,
    answers: mpsc::UnboundedSender<String>,
    in_flight: InFlight,
) {
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    let mut initialized = false;
    loop {
        line.clear();
        match (&mut input)
            .take(MAX_LINE_BYTES)
            .read_until(b'\n', &mut line)
            .await
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if !line.ends_with(b"\n") && line.len() as u64 >= MAX_LINE_BYTES {
            let _ = answers
                .send(error(Value::Null, -32700, "Parse error: the line is too long").to_string());
            if discard_line(&mut input).await.is_err() {
                break;
            }
            continue;
        }
        let pass = match classify(&line) {
            Disposition::Request { id, initialize } => {
                initialized |= initialize;
                in_flight.add(id);
                true
            }
            Disposition::Notification { cancels } if initialized => {
                if let Some(id) = cancels {
                    in_flight.settle(&id);
                }
                true
            }
            Disposition::Response if initialized => true,
            Disposition::Notification { .. } | Disposition::Response => {
                tracing::warn!("ignored a notification or response sent before initialize");
                false
            }
            Disposition::Skip => false,
            Disposition::Answer(reply) => {
                tracing::warn!("answered an input line that is not a readable request");
                let _ = answers.send(reply.to_string());
                false
            }
        };
        if pass {
            line.truncate(line.trim_ascii_end().len());
            line.push(b'\n');
            if to_server.write_all(&line).await.is_err() {
                break;
            }
        }
    }
    // Shell pipelines close stdin right after writing: answer what was asked.
    in_flight.drained().await;
    // Dropping `to_server` ends rmcp's input: EOF ends the session.
}

/// Consumes input up to and including the next newline (or to its end)
/// without keeping any of it.
async fn discard_line<R: AsyncBufRead + Unpin>(input: &mut R) -> std::io::Result<()> {
    loop {
        let buffer = input.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                return Ok(());
            }
            None => {
                let n = buffer.len();
                input.consume(n);
            }
        }
    }
}

/// The id a line of rmcp's output answers, if it is a response.
fn answered_id(line: &str) -> Option<String> {
    let message: Value = serde_json::from_str(line).ok()?;
    let answers = message.get("result").is_some() || message.get("error").is_some();
    answers.then(|| message.get("id").map(Value::to_string))?
}

async fn write_lines<O: AsyncWrite + Unpin>(
    from_server: DuplexStream,
    mut pending: mpsc::UnboundedReceiver<String>,
    mut output: O,
    in_flight: InFlight,
) {
    let mut replies = BufReader::new(from_server).lines();
    let (mut server_open, mut reader_open) = (true, true);
    while server_open || reader_open {
        // rmcp's answers settle their request once written; ours settle nothing.
        let (line, answers) = tokio::select! {
            reply = replies.next_line(), if server_open => match reply {
                Ok(Some(line)) => {
                    let id = answered_id(&line);
                    (line, id)
                }
                _ => {
                    server_open = false;
                    in_flight.abandon();
                    continue;
                }
            },
            answer = pending.recv(), if reader_open => match answer {
                Some(answer) => (answer, None),
                None => {
                    reader_open = false;
                    continue;
                }
            },
        };
        let written = async {
            output.write_all(line.as_bytes()).await?;
            output.write_all(b"\n").await?;
            output.flush().await
        };
        if written.await.is_err() {
            in_flight.abandon();
            break;
        }
        if let Some(id) = answers {
            in_flight.settle(&id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(id: &str, initialize: bool) -> Disposition {
        Disposition::Request {
            id: id.into(),
            initialize,
        }
    }

    #[test]
    fn classifies_lines() {
        let c = |line: &str| classify(line.as_bytes());
        assert_eq!(
            c(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            request("1", false)
        );
        assert_eq!(
            c(r#"{"jsonrpc":"2.0","id":1.0,"method":"ping"}"#),
            request("1", false),
            "rmcp reads 1.0 as 1"
        );
        assert_eq!(
            c(
                r#"{"jsonrpc":"2.0","id":"1","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
            ),
            request("\"1\"", true)
        );
        assert_eq!(
            c(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Disposition::Notification { cancels: None }
        );
        assert_eq!(
            c(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#),
            Disposition::Notification {
                cancels: Some("7".into())
            }
        );
        assert_eq!(
            c(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Disposition::Response
        );
        assert_eq!(
            c(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#),
            Disposition::Response
        );
        assert_eq!(c("  \n"), Disposition::Skip);
    }

    #[test]
    fn answers_what_rmcp_cannot_read() {
        let code = |line: &[u8]| match classify(line) {
            Disposition::Answer(v) => (v["id"].clone(), v["error"]["code"].as_i64().unwrap()),
            other => panic!("{other:?}"),
        };
        assert_eq!(code(b"not json"), (Value::Null, -32700));
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":1,"method":"ping""#),
            (Value::Null, -32700)
        );
        assert_eq!(
            code(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"endpoint_status\",\"arguments\":{\"chain\":\"ba\xffse\"}}}"),
            (Value::Null, -32700),
            "invalid UTF-8 is a parse error, never replaced"
        );
        assert_eq!(code(b"[]"), (Value::Null, -32600));
        assert_eq!(
            code(br#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#),
            (json!(7), -32600)
        );
        assert_eq!(code(br#"{"id":8}"#), (json!(8), -32600));
        for id in ["null", "{}", "[1]", "1.5", "true", "18446744073709551615"] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
            assert_eq!(code(line.as_bytes()), (Value::Null, -32600), "id {id}");
        }
        for params in [
            "",
            r#","params":[]"#,
            r#","params":{"arguments":{}}"#,
            r#","params":{"name":5}"#,
            r#","params":{"name":"lookup_verdict","arguments":[]}"#,
            r#","params":{"name":"lookup_verdict","arguments":"x"}"#,
        ] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call"{params}}}"#);
            assert_eq!(code(line.as_bytes()), (json!(9), -32602), "{params}");
        }
    }

    #[test]
    fn counts_requests_in_flight() {
        let in_flight = InFlight::new();
        in_flight.add("1".into());
        in_flight.add("1".into());
        in_flight.add("\"1\"".into());
        in_flight.settle("1");
        in_flight.settle("\"1\"");
        assert_eq!(in_flight.0.borrow().get("1"), Some(&1));
        in_flight.settle("1");
        assert!(in_flight.0.borrow().is_empty());
        assert_eq!(
            answered_id(r#"{"jsonrpc":"2.0","id":"a","result":{}}"#),
            Some("\"a\"".into())
        );
        assert_eq!(
            answered_id(r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#),
            None
        );
    }
}
