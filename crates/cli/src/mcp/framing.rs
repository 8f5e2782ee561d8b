//! Line framing in front of rmcp's stdio transport.
//!
//! rmcp drops a line that is not JSON without an answer. JSON-RPC 2.0 asks
//! for an error: `-32700` (parse error), or `-32600` (invalid request) for
//! JSON that is no message. This filter answers those lines itself and
//! passes every other line through untouched; one writer merges its answers
//! with rmcp's output, a whole line at a time, so stdout carries only
//! protocol messages.
//!
//! It also answers a `tools/call` request without a `params` object with
//! `-32602` (invalid params), where rmcp would answer `-32601` (method not
//! found) for a method it does have.

use serde_json::{json, Value};
use tokio::io::{
    AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream,
};
use tokio::sync::mpsc;

/// The longest message line accepted; a longer one is answered with a parse
/// error and skipped, never buffered whole.
const MAX_LINE_BYTES: u64 = 4 << 20;

/// What to do with one input line.
#[derive(Debug, PartialEq)]
enum Disposition {
    /// A JSON-RPC message: hand it to rmcp.
    Pass,
    /// Blank: ignore.
    Skip,
    /// Answer with this error response.
    Answer(Value),
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn classify(line: &str) -> Disposition {
    if line.trim().is_empty() {
        return Disposition::Skip;
    }
    let Ok(value) = serde_json::from_str::<Value>(line) else {
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
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let is_call = message.get("method").is_some_and(Value::is_string);
    let is_response = message.contains_key("id")
        && (message.contains_key("result") || message.contains_key("error"));
    if message.get("jsonrpc") != Some(&json!("2.0")) || !(is_call || is_response) {
        return Disposition::Answer(error(
            id,
            -32600,
            "Invalid Request: not a JSON-RPC 2.0 message",
        ));
    }
    if message.get("method") == Some(&json!("tools/call"))
        && message.contains_key("id")
        && !message.get("params").is_some_and(Value::is_object)
    {
        return Disposition::Answer(error(
            id,
            -32602,
            "Invalid params: tools/call needs params with the tool's name and arguments",
        ));
    }
    Disposition::Pass
}

/// Wraps `input` and `output` (stdin and stdout) and returns the pair rmcp
/// serves on; the filtering tasks run until `input` ends.
pub fn filtered<I, O>(input: I, output: O) -> (DuplexStream, DuplexStream)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (server_in, to_server) = tokio::io::duplex(64 << 10);
    let (server_out, from_server) = tokio::io::duplex(64 << 10);
    let (answers, pending) = mpsc::unbounded_channel::<String>();
    tokio::spawn(read_lines(input, to_server, answers));
    tokio::spawn(write_lines(from_server, pending, output));
    (server_in, server_out)
}

async fn read_lines<I: AsyncRead + Unpin>(
    input: I,
    mut to_server: DuplexStream,
    answers: mpsc::UnboundedSender<String>,
) {
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
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
            let mut rest = Vec::new();
            if input.read_until(b'\n', &mut rest).await.is_err() {
                break;
            }
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        match classify(&text) {
            Disposition::Pass => {
                let mut message = text.trim_end().to_owned();
                message.push('\n');
                if to_server.write_all(message.as_bytes()).await.is_err() {
                    break;
                }
            }
            Disposition::Skip => {}
            Disposition::Answer(reply) => {
                tracing::warn!("answered an input line that is not a JSON-RPC message");
                let _ = answers.send(reply.to_string());
            }
        }
    }
    // Dropping `to_server` ends rmcp's input: EOF ends the session.
}

async fn write_lines<O: AsyncWrite + Unpin>(
    from_server: DuplexStream,
    mut pending: mpsc::UnboundedReceiver<String>,
    mut output: O,
) {
    let mut replies = BufReader::new(from_server).lines();
    loop {
        let line = tokio::select! {
            reply = replies.next_line() => match reply {
                Ok(Some(line)) => line,
                _ => break,
            },
            Some(answer) = pending.recv() => answer,
        };
        let written = async {
            output.write_all(line.as_bytes()).await?;
            output.write_all(b"\n").await?;
            output.flush().await
        };
        if written.await.is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_lines() {
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Disposition::Pass
        );
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Disposition::Pass
        );
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Disposition::Pass
        );
        assert_eq!(classify("  \n"), Disposition::Skip);
        let code = |line: &str| match classify(line) {
            Disposition::Answer(v) => (v["id"].clone(), v["error"]["code"].as_i64().unwrap()),
            other => panic!("{other:?}"),
        };
        assert_eq!(code("not json"), (Value::Null, -32700));
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":1,"method":"ping""#),
            (Value::Null, -32700)
        );
        assert_eq!(code("[]"), (Value::Null, -32600));
        assert_eq!(
            code(r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#),
            (json!(7), -32600)
        );
        assert_eq!(code(r#"{"id":8}"#), (json!(8), -32600));
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":9,"method":"tools/call"}"#),
            (json!(9), -32602)
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":[]}"#),
            (json!(10), -32602)
        );
    }
}
