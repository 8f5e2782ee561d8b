//! Line framing in front of rmcp's stdio transport.
//!
//! rmcp 3.11 drops a line that is not JSON without an answer (on purpose:
//! rmcp#938), answers a message it cannot read with `"id": null`, ends the
//! session on a notification or response sent before its lifecycle opens,
//! reads no JSON-RPC batch, and gives requests still in flight 5 s once input
//! has ended. JSON-RPC 2.0, revision 2025-03-26 and the shell pipelines that
//! drive this server ask for more, so this filter stands between stdin and
//! rmcp and does only what rmcp does not:
//!
//! - it answers what is no readable request itself: `-32700` (parse error)
//!   for a line that is not UTF-8 JSON or is over [`MAX_LINE_BYTES`] (whose
//!   rest is discarded unread, so memory stays bounded), `-32600` (invalid
//!   request) for JSON that is no message or whose `id` is neither a string
//!   nor an integer (answered with `"id": null`), with the request's own id
//!   when it has a readable one, and `-32602` (invalid params) for a
//!   `tools/call` whose `params` or `arguments` is not an object;
//! - it ignores a notification or response sent before the lifecycle opens,
//!   which is an `initialize` (revisions up to 2025-11-25) or, in the
//!   stateless revision 2026-07-28, the first request whose `_meta` carries a
//!   protocol version and client capabilities; from then on every
//!   notification (a cancellation above all) reaches rmcp;
//! - in a session that negotiated 2025-03-26 it splits a batch (a JSON
//!   array) into its messages for rmcp and answers them as one array once
//!   every request in it is answered; in any other session a batch is
//!   `-32600`, since no other revision has batches;
//! - at end of input it waits until rmcp has answered every request it was
//!   handed, however long the verifier's timeout, then ends rmcp's input.
//!
//! One writer merges its answers with rmcp's output, a whole line at a time,
//! so stdout carries only protocol messages.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, GetMeta, ProtocolVersion, RequestId,
};
use serde_json::{json, Value};
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader,
    DuplexStream,
};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::{revisions, BATCH_REVISION};

/// The longest message line accepted; a longer one is answered with a parse
/// error and skipped, never buffered whole.
pub const MAX_LINE_BYTES: u64 = 4 << 20;

/// What to do with one input line.
#[derive(Debug, PartialEq)]
enum Disposition {
    /// A request for rmcp, which answers it: its id (as [`id_key`] writes
    /// it), whether it opens the session's lifecycle (see
    /// [`opens_lifecycle`]) and, for `initialize`, the revision rmcp will
    /// answer it with (see [`negotiated`]).
    Request {
        id: String,
        opens: bool,
        negotiates: Option<ProtocolVersion>,
    },
    /// A notification for rmcp; `cancels` is the id of the request it cancels.
    Notification { cancels: Option<String> },
    /// A response to a request of the server.
    Response,
    /// Blank: ignore.
    Skip,
    /// Answer with this error response; rmcp never sees the line.
    Answer(Value),
    /// A JSON-RPC batch: these messages, in order (never empty).
    Batch(Vec<Value>),
}

/// A JSON-RPC error response.
pub(super) fn error(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

/// The `-32602` answer to a `tools/call` request whose `params` is not an
/// object with the tool's name (a string) and, when given, its arguments (an
/// object); `None` for any other message. rmcp would answer such a request
/// `-32601` (it reads it as no known method): both transports answer this.
pub(super) fn invalid_tool_call(message: &Value) -> Option<Value> {
    let id = message.get("id")?;
    let id = serde_json::from_value::<RequestId>(id.clone()).ok()?;
    if message.get("method") != Some(&json!("tools/call")) {
        return None;
    }
    let params = message.get("params").and_then(Value::as_object);
    let valid = params.is_some_and(|p| {
        p.get("name").is_some_and(Value::is_string)
            && p.get("arguments").is_none_or(Value::is_object)
    });
    (!valid).then(|| {
        error(
            id.into_json_value(),
            -32602,
            "Invalid params: tools/call needs params with the tool's name (a string) and its arguments (an object)",
        )
    })
}

/// What an HTTP body gets answered with before rmcp reads it, as the same
/// line would be on stdio.
#[derive(Debug)]
pub(super) enum Refusal {
    /// Not JSON (`-32700`): no message to answer.
    Unreadable(Value),
    /// An error response to the request (see [`invalid_tool_call`]).
    Answer(Value),
}

/// The answer stdio gives a line that is not UTF-8 JSON, or a `tools/call`
/// whose parameters are not objects, for the same bytes as a POST body.
pub(super) fn refusal_of(body: &[u8]) -> Option<Refusal> {
    let parse_error = |what: &str| Refusal::Unreadable(error(Value::Null, -32700, what));
    let Ok(text) = std::str::from_utf8(body) else {
        return Some(parse_error("Parse error: the body is not valid UTF-8"));
    };
    match serde_json::from_str::<Value>(text) {
        Err(_) => Some(parse_error("Parse error: the body is not valid JSON")),
        Ok(message) => invalid_tool_call(&message).map(Refusal::Answer),
    }
}

/// How an id is compared between a request and its answer: its JSON text,
/// once read as rmcp reads it (`1.0` is `1`; `1` and `"1"` differ).
fn id_key(id: &RequestId) -> String {
    id.clone().into_json_value().to_string()
}

/// Whether rmcp opens the session on `request`, by rmcp's own rule: an
/// `initialize`, or a request other than `ping` and `server/discover` whose
/// `_meta` names a revision we speak and carries client capabilities (the
/// stateless lifecycle of 2026-07-28).
fn opens_lifecycle(request: &ClientRequest) -> bool {
    match request {
        ClientRequest::InitializeRequest(_) => true,
        ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_) => false,
        other => {
            let meta = other.get_meta();
            meta.missing_required_keys(&ProtocolVersion::V_2026_07_28)
                .is_empty()
                && meta
                    .protocol_version()
                    .is_some_and(|v| revisions().contains(&v))
        }
    }
}

/// The revision rmcp answers an `initialize` for `asked` with: the same if
/// we speak it and it has `initialize`, else the newest that has.
fn negotiated(asked: &ProtocolVersion) -> ProtocolVersion {
    if asked.has_initialize() && revisions().contains(asked) {
        asked.clone()
    } else {
        ProtocolVersion::LATEST_WITH_INITIALIZE
    }
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
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Array(messages)) if !messages.is_empty() => Disposition::Batch(messages),
        Ok(value) => classify_message(value),
        Err(_) => Disposition::Answer(error(
            Value::Null,
            -32700,
            "Parse error: the line is not valid JSON",
        )),
    }
}

/// Classifies one message (a line's, or a batch member's).
fn classify_message(value: Value) -> Disposition {
    let Value::Object(message) = &value else {
        return Disposition::Answer(error(
            Value::Null,
            -32600,
            "Invalid Request: expected a JSON-RPC 2.0 message object",
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
    if let Some(answer) = invalid_tool_call(&value) {
        return Disposition::Answer(answer);
    }
    match serde_json::from_value::<ClientJsonRpcMessage>(value) {
        Ok(ClientJsonRpcMessage::Request(request)) => Disposition::Request {
            id: id_key(&request.id),
            opens: opens_lifecycle(&request.request),
            negotiates: match &request.request {
                ClientRequest::InitializeRequest(i) => Some(negotiated(&i.params.protocol_version)),
                _ => None,
            },
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

/// One batch being answered: the answers so far, and the ids still awaited.
struct Batch {
    answers: Vec<Value>,
    waiting: HashSet<String>,
}

/// The batches whose requests rmcp has not all answered, and the revision
/// the session negotiated with `initialize`.
#[derive(Clone, Default)]
struct Session(Arc<Mutex<SessionState>>);

#[derive(Default)]
struct SessionState {
    revision: Option<ProtocolVersion>,
    batches: Vec<Batch>,
}

impl Session {
    fn with<T>(&self, f: impl FnOnce(&mut SessionState) -> T) -> T {
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Whether the session negotiated the one revision with batches.
    fn accepts_batches(&self) -> bool {
        self.with(|s| s.revision == Some(BATCH_REVISION))
    }

    /// Whether `id` is awaited by a batch.
    fn awaits(&self, id: &str) -> bool {
        self.with(|s| s.batches.iter().any(|b| b.waiting.contains(id)))
    }

    /// Opens a batch; returns it at once when no request in it is awaited.
    fn open(&self, answers: Vec<Value>, waiting: HashSet<String>) -> Option<Vec<Value>> {
        if waiting.is_empty() {
            return Some(answers);
        }
        self.with(|s| s.batches.push(Batch { answers, waiting }));
        None
    }

    /// Files rmcp's `answer` to request `id`: `Err(answer)` when no batch
    /// awaits it, `Ok(Some(batch))` when it completes one.
    fn answered(&self, id: &str, answer: Value) -> Result<Option<Vec<Value>>, Value> {
        self.with(|s| {
            let Some(at) = s.batches.iter().position(|b| b.waiting.contains(id)) else {
                return Err(answer);
            };
            let batch = &mut s.batches[at];
            batch.waiting.remove(id);
            batch.answers.push(answer);
            Ok(batch
                .waiting
                .is_empty()
                .then(|| s.batches.remove(at).answers))
        })
    }

    /// Request `id` was cancelled, so rmcp will not answer it: the batch it
    /// completes, if any.
    fn cancelled(&self, id: &str) -> Option<Vec<Value>> {
        self.with(|s| {
            let at = s.batches.iter().position(|b| b.waiting.contains(id))?;
            s.batches[at].waiting.remove(id);
            s.batches[at]
                .waiting
                .is_empty()
                .then(|| s.batches.remove(at).answers)
        })
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
    let session = Session::default();
    let reader = Reader {
        to_server,
        answers,
        in_flight: in_flight.clone(),
        session: session.clone(),
        open: false,
    };
    tokio::spawn(reader.run(input));
    let writer = tokio::spawn(write_lines(
        from_server,
        pending,
        output,
        in_flight,
        session,
    ));
    ((server_in, server_out), writer)
}

/// Reads stdin, answers or passes on each line.
struct Reader {
    to_server: DuplexStream,
    answers: mpsc::UnboundedSender<String>,
    in_flight: InFlight,
    session: Session,
    /// Whether the session's lifecycle has opened (see [`opens_lifecycle`]).
    open: bool,
}

impl Reader {
    async fn run<I: AsyncRead + Unpin>(mut self, input: I) {
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
                self.answer(&error(
                    Value::Null,
                    -32700,
                    "Parse error: the line is too long",
                ));
                if discard_line(&mut input).await.is_err() {
                    break;
                }
                continue;
            }
            let passed = match classify(&line) {
                Disposition::Batch(messages) => self.batch(messages),
                single => {
                    if self.step(single) {
                        line.truncate(line.trim_ascii_end().len());
                        line.push(b'\n');
                        vec![std::mem::take(&mut line)]
                    } else {
                        Vec::new()
                    }
                }
            };
            for message in passed {
                if self.to_server.write_all(&message).await.is_err() {
                    return self.in_flight.drained().await;
                }
            }
        }
        // Shell pipelines close stdin right after writing: answer what was asked.
        self.in_flight.drained().await;
        // Dropping `to_server` ends rmcp's input: EOF ends the session.
    }

    fn answer(&self, reply: &Value) {
        let _ = self.answers.send(reply.to_string());
    }

    /// Handles one message that is not a batch: whether rmcp gets it.
    fn step(&mut self, disposition: Disposition) -> bool {
        match disposition {
            Disposition::Request {
                id,
                opens,
                negotiates,
            } => {
                self.open |= opens;
                if let Some(revision) = negotiates {
                    self.session.with(|s| s.revision = Some(revision));
                }
                self.in_flight.add(id);
                true
            }
            Disposition::Notification { cancels } if self.open => {
                if let Some(id) = cancels {
                    self.in_flight.settle(&id);
                    if let Some(batch) = self.session.cancelled(&id) {
                        self.finish(batch);
                    }
                }
                true
            }
            Disposition::Response if self.open => true,
            Disposition::Notification { .. } | Disposition::Response => {
                tracing::warn!("ignored a notification or response sent before the session opened");
                false
            }
            Disposition::Skip => false,
            Disposition::Answer(reply) => {
                tracing::warn!("answered an input line that is not a readable request");
                self.answer(&reply);
                false
            }
            Disposition::Batch(_) => {
                self.answer(&error(
                    Value::Null,
                    -32600,
                    "Invalid Request: a batch cannot hold a batch",
                ));
                false
            }
        }
    }

    /// Splits a batch into the messages for rmcp (each a line), or refuses
    /// it outside a 2025-03-26 session.
    fn batch(&mut self, messages: Vec<Value>) -> Vec<Vec<u8>> {
        if !self.session.accepts_batches() {
            self.answer(&error(
                Value::Null,
                -32600,
                "Invalid Request: JSON-RPC batches are part of MCP revision 2025-03-26 only, and this session did not negotiate it",
            ));
            return Vec::new();
        }
        let mut answers = Vec::new();
        let mut waiting = HashSet::new();
        let mut passed = Vec::new();
        for message in messages {
            let disposition = match classify_message(message.clone()) {
                Disposition::Request { id, .. }
                    if waiting.contains(&id) || self.session.awaits(&id) =>
                {
                    Disposition::Answer(error(
                        serde_json::from_str(&id).unwrap_or(Value::Null),
                        -32600,
                        "Invalid Request: another request in flight has this id",
                    ))
                }
                // 2025-03-26: initialize MUST NOT be part of a batch.
                Disposition::Request {
                    negotiates: Some(_),
                    id,
                    ..
                } => Disposition::Answer(error(
                    serde_json::from_str(&id).unwrap_or(Value::Null),
                    -32600,
                    "Invalid Request: initialize cannot be part of a batch",
                )),
                Disposition::Request { id, opens, .. } => {
                    waiting.insert(id.clone());
                    Disposition::Request {
                        id,
                        opens,
                        negotiates: None,
                    }
                }
                Disposition::Notification { cancels: Some(id) } if waiting.remove(&id) => {
                    // Cancels a request of this very batch.
                    self.in_flight.settle(&id);
                    Disposition::Notification { cancels: None }
                }
                other => other,
            };
            match disposition {
                Disposition::Answer(reply) => answers.push(reply),
                other => {
                    if self.step(other) {
                        let mut line = message.to_string().into_bytes();
                        line.push(b'\n');
                        passed.push(line);
                    }
                }
            }
        }
        // Registered before rmcp sees any of it, so no answer is missed.
        if let Some(batch) = self.session.open(answers, waiting) {
            self.finish(batch);
        }
        passed
    }

    /// Writes a batch's answers as one array (nothing for a batch of
    /// notifications only, as JSON-RPC says).
    fn finish(&self, batch: Vec<Value>) {
        if !batch.is_empty() {
            self.answer(&Value::Array(batch));
        }
    }
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

/// A line of rmcp's output, read: the id it answers, if it is a response.
fn answered(line: &str) -> Option<(String, Value)> {
    let message: Value = serde_json::from_str(line).ok()?;
    let answers = message.get("result").is_some() || message.get("error").is_some();
    let id = answers.then(|| message.get("id").map(Value::to_string))??;
    Some((id, message))
}

async fn write_lines<O: AsyncWrite + Unpin>(
    from_server: DuplexStream,
    mut pending: mpsc::UnboundedReceiver<String>,
    mut output: O,
    in_flight: InFlight,
    session: Session,
) {
    let mut replies = BufReader::new(from_server).lines();
    let (mut server_open, mut reader_open) = (true, true);
    while server_open || reader_open {
        // rmcp's answers settle their request once written; ours settle nothing.
        let (line, answers) = tokio::select! {
            reply = replies.next_line(), if server_open => match reply {
                Ok(Some(line)) => match answered(&line) {
                    None => (line, None),
                    Some((id, message)) => match session.answered(&id, message) {
                        Err(_) => (line, Some(id)),
                        Ok(done) => {
                            in_flight.settle(&id);
                            match done {
                                Some(batch) => (Value::Array(batch).to_string(), None),
                                None => continue,
                            }
                        }
                    },
                },
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

    fn request(id: &str, opens: bool, negotiates: Option<&str>) -> Disposition {
        Disposition::Request {
            id: id.into(),
            opens,
            negotiates: negotiates.map(|v| serde_json::from_value(json!(v)).unwrap()),
        }
    }

    #[test]
    fn classifies_lines() {
        let c = |line: &str| classify(line.as_bytes());
        assert_eq!(
            c(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            request("1", false, None)
        );
        assert_eq!(
            c(r#"{"jsonrpc":"2.0","id":1.0,"method":"ping"}"#),
            request("1", false, None),
            "rmcp reads 1.0 as 1"
        );
        let initialize = |asked: &str| {
            c(&format!(
                r#"{{"jsonrpc":"2.0","id":"1","method":"initialize","params":{{"protocolVersion":"{asked}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
            ))
        };
        assert_eq!(
            initialize("2025-03-26"),
            request("\"1\"", true, Some("2025-03-26"))
        );
        for other in ["2026-07-28", "1999-01-01"] {
            assert_eq!(
                initialize(other),
                request("\"1\"", true, Some("2025-11-25")),
                "{other}"
            );
        }
        let meta = |meta: &str| {
            c(&format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{"_meta":{{{meta}}}}}}}"#
            ))
        };
        let version = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28""#;
        let capabilities = r#""io.modelcontextprotocol/clientCapabilities":{}"#;
        assert_eq!(
            meta(&format!("{version},{capabilities}")),
            request("2", true, None),
            "a stateless request opens the session"
        );
        assert_eq!(meta(version), request("2", false, None));
        assert_eq!(
            meta(&format!(
                r#""io.modelcontextprotocol/protocolVersion":"1999-01-01",{capabilities}"#
            )),
            request("2", false, None),
            "rmcp refuses a revision we do not speak and stays closed"
        );
        assert!(matches!(
            c(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}, 5]"#),
            Disposition::Batch(m) if m.len() == 2
        ));
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
            answered(r#"{"jsonrpc":"2.0","id":"a","result":{}}"#).map(|(id, _)| id),
            Some("\"a\"".into())
        );
        assert_eq!(
            answered(r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#),
            None
        );
    }
}
