//! The MCP server of x402 verification verdicts (`x402-verdict mcp`): the
//! verifier as three MCP tools, over stdio ([`stdio`]) or Streamable HTTP
//! ([`http`]), built on the official Rust SDK (rmcp), in every revision it
//! speaks ([`revisions`]). It adds no protocol logic of its own beyond what
//! rmcp leaves undone (the stdio framing and [`http`]): every answer comes
//! from the core through the native [`Verifier`].

// A dependency nothing uses fails the build.
#![cfg_attr(not(test), deny(unused_crate_dependencies))]

mod framing;
pub mod http;
mod payment;

use std::borrow::Cow;
use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock,
    Implementation, JsonObject, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::service::ServerInitializeError;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};
use x402_verdict_core::{
    evaluation_schema, line, strict_from_text, BaseUrl, BaseUrlError, ChallengeError, Endpoint,
    EndpointError, KeysError, TrustedKeys, DEFAULT_TIMEOUT_MS, MAX_FIELD_BYTES,
};

use x402_verdict_consumer::challenge::look_up;
use x402_verdict_consumer::{parse_timeout, HttpClientError, TimeoutArgError, Verifier};
use x402_verdict_core::transparency::{
    parse_quorum, LogConfig, LogConfigError, LogSetting, LogSettings,
};
use x402_verdict_http::host::HostError;

/// Every revision spoken, oldest first: 2024-11-05, 2025-03-26, 2025-06-18,
/// 2025-11-25 (negotiated by `initialize`) and 2026-07-28 (stateless: each
/// request names its revision in `_meta`; `server/discover`).
pub fn revisions() -> &'static [ProtocolVersion] {
    ProtocolVersion::known_up_to(&ProtocolVersion::V_2026_07_28)
}

/// The one revision with JSON-RPC batches (added in it, removed after it).
pub const BATCH_REVISION: ProtocolVersion = ProtocolVersion::V_2025_03_26;

const LOOKUP_VERDICT: &str = "lookup_verdict";
const ENDPOINT_STATUS: &str = "endpoint_status";
/// How long a client may keep the tool list (2026-07-28 caching hint).
const TOOLS_TTL_MS: u64 = 3_600_000;
const ARGUMENTS: [&str; 3] = ["chain", "payTo", "resourceUrl"];

const LOOKUP_DESCRIPTION: &str = "Before paying an x402 endpoint, or recommending one, check whether a verified operator backed by a guarantee deposit stands behind it. Pass the three values from the endpoint's HTTP 402 response: chain, payTo and resourceUrl. The answer is the full picture: the routing state (human-backed, revoked or unknown), the verification service's outcome, the assurance grade, when the operator was last re-checked and whether that is within its promised cadence, and whether the verdict's Ed25519 signature checked out locally. An unknown state is a normal answer (no signal), not an error. Read-only: the endpoint itself is never contacted.";

const STATUS_DESCRIPTION: &str = "A one-word routing signal for an x402 endpoint, for choosing quickly among candidates: human-backed (prefer it), revoked (avoid it) or unknown (no signal either way: read it as the absence of information, never as a failure). Same three inputs as lookup_verdict, from the 402 response. Call lookup_verdict instead when the grade, the last re-check or the signature status matters to the decision.";

/// A `VERIFICATION_*` variable that is set but malformed, named.
#[derive(Debug, thiserror::Error)]
pub enum McpConfigError {
    /// `VERIFICATION_BASE_URL` is not a service's URL.
    #[error("VERIFICATION_BASE_URL {0}")]
    BaseUrl(BaseUrlError),
    /// `VERIFICATION_ROOT_KEY` is not a key configuration.
    #[error("VERIFICATION_ROOT_KEY")]
    RootKey(#[source] KeysError),
    /// `VERIFICATION_PUBLIC_KEY` is not a key configuration.
    #[error("VERIFICATION_PUBLIC_KEY")]
    PublicKey(#[source] KeysError),
    /// `VERIFICATION_TIMEOUT_MS` is not a timeout.
    #[error("VERIFICATION_TIMEOUT_MS {0}")]
    Timeout(TimeoutArgError),
    /// `VERIFICATION_STRICT` is neither 1 nor 0.
    #[error("VERIFICATION_STRICT must be 1 (strict) or 0")]
    Strict,
    /// A transparency variable (`VERIFICATION_LOG_KEY`,
    /// `VERIFICATION_WITNESS_KEYS`, `VERIFICATION_WITNESS_QUORUM`,
    /// `VERIFICATION_TRANSPARENCY`) is not a setting.
    #[error("{}", .0.line_naming(log_variable))]
    Log(LogConfigError),
}

/// The environment variable of a transparency setting.
fn log_variable(setting: LogSetting) -> &'static str {
    match setting {
        LogSetting::LogKey => "VERIFICATION_LOG_KEY",
        LogSetting::WitnessKeys => "VERIFICATION_WITNESS_KEYS",
        LogSetting::WitnessQuorum => "VERIFICATION_WITNESS_QUORUM",
        LogSetting::Transparency => "VERIFICATION_TRANSPARENCY",
    }
}

/// Why the MCP server stops with an error.
#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// The HTTP client cannot start.
    #[error(transparent)]
    Client(#[from] HttpClientError),
    /// An `--allow-host` value is no host with an optional port.
    #[error("--allow-host {0}")]
    AllowHost(HostError),
    /// `--listen`'s address cannot be bound.
    #[error("--listen {addr}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The stdio session did not start.
    #[error("MCP session failed to start")]
    Start(#[source] Box<ServerInitializeError>),
    /// The stdio session's task failed.
    #[error("MCP session ended with an error")]
    Ended(#[source] tokio::task::JoinError),
}

/// Why a tool's arguments are refused: every problem with them, or the
/// endpoint they name breaking the protocol's rules.
#[derive(Debug, thiserror::Error)]
pub enum ArgumentsError {
    /// Arguments missing, of the wrong type or unexpected (at least one).
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Problems(Vec<ArgumentProblem>),
    /// The three strings do not name an endpoint.
    #[error(transparent)]
    Endpoint(#[from] EndpointError),
    /// `paymentRequired` holds no challenge that can be read.
    #[error("{}: {}", payment::PAYMENT_REQUIRED, line(.0))]
    Challenge(ChallengeError),
}

/// One problem with a tool's arguments, for [`ArgumentsError::Problems`].
#[derive(Debug, thiserror::Error)]
pub enum ArgumentProblem {
    /// A required argument is absent.
    #[error("missing argument {0}")]
    Missing(&'static str),
    /// An argument is not a string.
    #[error("argument {0} must be a string")]
    NotAString(&'static str),
    /// An argument is neither an object nor a string.
    #[error("argument {0} must be an object or a string")]
    NotAChallenge(&'static str),
    /// An argument the tools do not take (its name escaped).
    #[error("unexpected argument {}", .0.escape_debug())]
    Unexpected(String),
}

/// The MCP server's configuration, from the environment.
#[derive(Debug)]
pub struct McpConfig {
    base_url: Option<BaseUrl>,
    keys: TrustedKeys,
    timeout_ms: u32,
    strict: bool,
}

impl McpConfig {
    /// Reads `VERIFICATION_BASE_URL`, `VERIFICATION_PUBLIC_KEY`, `VERIFICATION_ROOT_KEY`,
    /// `VERIFICATION_TIMEOUT_MS`, `VERIFICATION_STRICT` and the transparency
    /// log's `VERIFICATION_LOG_KEY`, `VERIFICATION_WITNESS_KEYS` (comma-separated),
    /// `VERIFICATION_WITNESS_QUORUM` and `VERIFICATION_TRANSPARENCY` through `var`.
    ///
    /// # Errors
    ///
    /// One line naming the variable that is set but malformed.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Self, McpConfigError> {
        let base_url = var("VERIFICATION_BASE_URL")
            .map(|v| BaseUrl::parse(&v).map_err(McpConfigError::BaseUrl))
            .transpose()?;
        let keys = match var("VERIFICATION_PUBLIC_KEY") {
            None => TrustedKeys::none(),
            Some(v) => TrustedKeys::from_comma_list(&v).map_err(McpConfigError::PublicKey)?,
        };
        let keys = match var("VERIFICATION_ROOT_KEY") {
            None => keys,
            Some(v) => {
                keys.with_roots(&TrustedKeys::from_comma_list(&v).map_err(McpConfigError::RootKey)?)
            }
        };
        let (log_key, witnesses) = (
            var("VERIFICATION_LOG_KEY"),
            var("VERIFICATION_WITNESS_KEYS"),
        );
        let policy = var("VERIFICATION_TRANSPARENCY");
        let witness_quorum = var("VERIFICATION_WITNESS_QUORUM")
            .map(|v| parse_quorum(&v))
            .transpose()
            .map_err(McpConfigError::Log)?;
        let log = LogConfig::from_settings(&LogSettings {
            log_key: log_key.as_deref(),
            witness_keys: witnesses
                .as_deref()
                .map_or(vec![], |v| v.split(',').collect()),
            witness_quorum,
            transparency: policy.as_deref(),
        })
        .map_err(McpConfigError::Log)?;
        let keys = keys.with_log(log);
        let timeout_ms = match var("VERIFICATION_TIMEOUT_MS") {
            None => DEFAULT_TIMEOUT_MS,
            Some(v) => parse_timeout(v.trim()).map_err(McpConfigError::Timeout)?,
        };
        let strict = match var("VERIFICATION_STRICT") {
            None => false,
            Some(v) => strict_from_text(v.trim_ascii()).ok_or(McpConfigError::Strict)?,
        };
        Ok(McpConfig {
            base_url,
            keys,
            timeout_ms,
            strict,
        })
    }
}

/// Serves the three tools, configured by `config`, on stdin/stdout until
/// stdin closes.
///
/// # Errors
///
/// The HTTP client cannot start, or a broken transport.
pub async fn stdio(config: McpConfig) -> Result<(), McpError> {
    let server = VerdictServer::new(config)?;
    let (transport, written) = framing::filtered(tokio::io::stdin(), tokio::io::stdout());
    let running = server
        .serve(transport)
        .await
        .map_err(|e| McpError::Start(Box::new(e)))?;
    running.waiting().await.map_err(McpError::Ended)?;
    // The last answers may still be on their way to stdout.
    let _ = written.await;
    Ok(())
}

/// The three tools, shared by every session.
#[derive(Clone)]
pub struct VerdictServer {
    verifier: Arc<Verifier>,
    tools: Arc<Vec<Tool>>,
}

impl VerdictServer {
    /// The tools over a verifier configured by `config`; without a
    /// service's URL, it warns that every lookup answers unknown.
    ///
    /// # Errors
    ///
    /// The HTTP client cannot start.
    pub fn new(config: McpConfig) -> Result<Self, McpError> {
        let configured = config.base_url.is_some();
        let verifier = Verifier::new(
            config.base_url,
            config.keys,
            config.strict,
            config.timeout_ms,
        )?;
        if !configured {
            tracing::warn!(
                "VERIFICATION_BASE_URL is not set: every lookup answers unknown (no_service)"
            );
        }
        Ok(VerdictServer {
            verifier: Arc::new(verifier),
            tools: Arc::new(tools()),
        })
    }
}

fn tools() -> Vec<Tool> {
    // The core's field limit counts UTF-8 bytes; a schema's maxLength counts
    // characters, so it is the most a valid value can have, and the core
    // refuses a longer one in bytes (-32602, naming the argument).
    let field = |description: &str| {
        json!({ "type": "string", "minLength": 1, "maxLength": MAX_FIELD_BYTES,
                "description": format!("{description} At most {MAX_FIELD_BYTES} bytes of UTF-8.") })
    };
    let input = json!({
        "type": "object",
        "properties": {
            "chain": field("The network the payment settles on, from the 402 response (x402 v1 name such as base, or a CAIP-2 id such as eip155:8453)."),
            "payTo": field("The address the payment goes to, from the 402 response."),
            "resourceUrl": field("The resource URL the payment unlocks, from the 402 response. It is never fetched."),
        },
        "required": ["chain", "payTo", "resourceUrl"],
        "additionalProperties": false
    });
    let input = object(input);
    let result: Value =
        serde_json::from_str(&evaluation_schema()).expect("the core writes its schema as JSON");
    let output = object(result.clone());
    let annotations = |title: &str| {
        let mut a = ToolAnnotations::with_title(title)
            .read_only(true)
            .destructive(false)
            .idempotent(true);
        a.open_world_hint = Some(true);
        a
    };
    [
        (
            LOOKUP_VERDICT,
            "Look up an x402 endpoint's verification verdict",
            LOOKUP_DESCRIPTION,
        ),
        (
            ENDPOINT_STATUS,
            "x402 endpoint verification signal",
            STATUS_DESCRIPTION,
        ),
    ]
    .into_iter()
    .map(|(name, title, description)| {
        Tool::new(name, description, input.clone())
            .with_title(title)
            .with_raw_output_schema(output.clone())
            .with_annotations(annotations(title))
    })
    .chain([payment::tool(&result, annotations)])
    .collect()
}

/// A schema written as a JSON object, as rmcp holds it.
fn object(schema: Value) -> Arc<JsonObject> {
    match schema {
        Value::Object(object) => Arc::new(object),
        _ => unreachable!("a schema written as an object"),
    }
}

/// The problems with `args` for a tool taking exactly `names`: each one
/// missing, or not a value that `fits` (`wrong` names it), then each
/// unexpected argument.
fn problems(
    args: &JsonObject,
    names: &[&'static str],
    fits: impl Fn(&Value) -> bool,
    wrong: impl Fn(&'static str) -> ArgumentProblem,
) -> Vec<ArgumentProblem> {
    let mut problems = Vec::new();
    for &name in names {
        match args.get(name) {
            None => problems.push(ArgumentProblem::Missing(name)),
            Some(value) if fits(value) => {}
            Some(_) => problems.push(wrong(name)),
        }
    }
    problems.extend(
        args.keys()
            .filter(|k| !names.contains(&k.as_str()))
            .map(|k| ArgumentProblem::Unexpected(k.clone())),
    );
    problems
}

/// Checks the arguments: exactly `chain`, `payTo` and `resourceUrl`, each a
/// string the protocol accepts. The error names every problem.
fn endpoint_of(arguments: Option<&JsonObject>) -> Result<Endpoint, ArgumentsError> {
    let empty = JsonObject::new();
    let args = arguments.unwrap_or(&empty);
    let problems = problems(
        args,
        &ARGUMENTS,
        Value::is_string,
        ArgumentProblem::NotAString,
    );
    if !problems.is_empty() {
        return Err(ArgumentsError::Problems(problems));
    }
    let text = |name: &str| args.get(name).and_then(Value::as_str).unwrap_or_default();
    Ok(Endpoint::new(
        text("chain"),
        text("payTo"),
        text("resourceUrl"),
    )?)
}

impl ServerHandler for VerdictServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        // What `initialize` answers a revision it does not know.
        info.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
        info.server_info = Implementation::new("x402-verdict", env!("CARGO_PKG_VERSION"))
            .with_title("x402 verification verdicts");
        info.instructions = Some(
            "Call endpoint_status or lookup_verdict with the chain, payTo and resourceUrl of an x402 402 response before paying, or check_payment_required with the whole challenge (every option, and the verdicts it staples). unknown means no signal, never a failure.".into(),
        );
        info
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(revisions())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // The list never changes while the process runs: anyone may cache it.
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone())
            .with_ttl_ms(TOOLS_TTL_MS)
            .with_cache_scope(CacheScope::Public))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let full = match request.name.as_ref() {
            LOOKUP_VERDICT => true,
            ENDPOINT_STATUS => false,
            payment::CHECK_PAYMENT_REQUIRED => return self.check_payment(request, context).await,
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool {other}"),
                    None,
                ))
            }
        };
        let endpoint = match endpoint_of(request.arguments.as_ref()) {
            Ok(endpoint) => endpoint,
            Err(problems) => return Ok(invalid(&problems)),
        };
        // A cancellation (notifications/cancelled, or a closed HTTP stream)
        // abandons the lookup; rmcp sends no answer for it.
        let result = tokio::select! {
            result = self.verifier.check(endpoint) => result,
            () = context.ct.cancelled() => return Err(cancelled()),
        };
        let line = if full {
            result.text_line()
        } else {
            result.status_line()
        };
        let mut answer = CallToolResult::success(vec![ContentBlock::text(line)]);
        answer.structured_content = serde_json::to_value(&result).ok();
        Ok(answer.into())
    }
}

impl VerdictServer {
    /// `check_payment_required`: the challenge read, its options looked up
    /// at once as `check` looks them up, and the decision.
    async fn check_payment(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let challenge = match payment::challenge_of(request.arguments.as_ref()) {
            Ok(challenge) => challenge,
            Err(problems) => return Ok(invalid(&problems)),
        };
        let results = match &challenge {
            None => Vec::new(),
            Some(challenge) => tokio::select! {
                results = look_up(&self.verifier, challenge) => results,
                () = context.ct.cancelled() => return Err(cancelled()),
            },
        };
        Ok(payment::answer(challenge.as_ref(), &results).into())
    }
}

/// The answer to arguments that are refused: an error result, one line.
fn invalid(problems: &ArgumentsError) -> CallToolResponse {
    let text = format!("Invalid arguments: {problems}.");
    CallToolResult::error(vec![ContentBlock::text(text)]).into()
}

/// The error a cancelled call ends with (rmcp sends no answer for it).
fn cancelled() -> ErrorData {
    ErrorData::internal_error("the request was cancelled", None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error as the command prints it.
    fn shown(error: impl std::error::Error + 'static) -> String {
        x402_verdict_consumer::error_chain(&error)
    }
    use std::collections::HashMap;

    fn config(vars: &[(&str, &str)]) -> Result<McpConfig, McpConfigError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).into(), (*v).into()))
            .collect();
        McpConfig::from_env(|k| map.get(k).cloned())
    }

    #[test]
    fn configuration_names_the_malformed_variable() {
        let c = config(&[]).unwrap();
        assert!(c.base_url.is_none() && c.keys.is_empty() && !c.strict);
        assert_eq!(c.timeout_ms, 3000);
        assert_eq!(
            shown(config(&[("VERIFICATION_BASE_URL", "ftp://x")]).unwrap_err()),
            "VERIFICATION_BASE_URL is not an absolute http:// or https:// URL"
        );
        assert_eq!(
            shown(config(&[("VERIFICATION_PUBLIC_KEY", "zz")]).unwrap_err()),
            "VERIFICATION_PUBLIC_KEY: the public key is not base64"
        );
        assert_eq!(
            shown(config(&[("VERIFICATION_TIMEOUT_MS", "soon")]).unwrap_err()),
            "VERIFICATION_TIMEOUT_MS must be a whole number"
        );
        assert_eq!(
            shown(config(&[("VERIFICATION_TIMEOUT_MS", "0")]).unwrap_err()),
            "VERIFICATION_TIMEOUT_MS must be a whole number of milliseconds from 1 to 60000"
        );
        assert_eq!(
            shown(config(&[("VERIFICATION_STRICT", "yes")]).unwrap_err()),
            "VERIFICATION_STRICT must be 1 (strict) or 0"
        );
        // The core's rule for a flag's text, as the badge reads `data-strict=""`.
        assert!(config(&[("VERIFICATION_STRICT", "")]).unwrap().strict);
        assert!(!config(&[("VERIFICATION_STRICT", "false")]).unwrap().strict);
        assert!(
            config(&[
                ("VERIFICATION_STRICT", "1"),
                ("VERIFICATION_TIMEOUT_MS", "500")
            ])
            .unwrap()
            .strict
        );
    }

    #[test]
    fn arguments_are_named() {
        let args = |v: Value| v.as_object().cloned();
        assert_eq!(
            endpoint_of(None).unwrap_err().to_string(),
            "missing argument chain; missing argument payTo; missing argument resourceUrl"
        );
        assert_eq!(
            endpoint_of(
                args(
                    serde_json::json!({"chain": "base", "payTo": 5, "resourceUrl": "r", "extra": 1})
                )
                .as_ref()
            )
            .unwrap_err()
            .to_string(),
            "argument payTo must be a string; unexpected argument extra"
        );
        assert_eq!(
            endpoint_of(
                args(serde_json::json!({"chain": "", "payTo": "p", "resourceUrl": "r"})).as_ref()
            )
            .unwrap_err()
            .to_string(),
            "chain is empty"
        );
    }

    #[test]
    fn a_challenge_argument_is_read_or_named() {
        let args = |v: Value| v.as_object().cloned();
        let problem = |v: Value| {
            payment::challenge_of(args(v).as_ref())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            problem(json!({ "paymentRequired": [], "extra": 1 })),
            "argument paymentRequired must be an object or a string; unexpected argument extra"
        );
        assert_eq!(
            problem(json!({ "paymentRequired": { "x402Version": 3, "accepts": [] } })),
            "paymentRequired: x402Version is not 1 or 2"
        );
        assert_eq!(
            problem(json!({ "paymentRequired": "!" })),
            "paymentRequired: the PAYMENT-REQUIRED header is not base64"
        );
        let padded = json!({ "paymentRequired": { "x402Version": 2, "pad": "x".repeat(70_000) } });
        assert_eq!(
            problem(padded),
            "paymentRequired: the challenge is larger than 64 KiB"
        );
        let v1 = json!({ "paymentRequired": { "x402Version": 1, "accepts": [{
            "scheme": "exact", "network": "base", "maxAmountRequired": "10",
            "resource": "https://api.example/data", "payTo": "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
            "asset": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" }] } });
        let challenge = payment::challenge_of(args(v1).as_ref()).unwrap().unwrap();
        assert_eq!((challenge.version, challenge.options.len()), (1, 1));
        let not_an_error = json!({ "paymentRequired": { "content": [], "isError": false } });
        assert!(payment::challenge_of(args(not_an_error).as_ref())
            .unwrap()
            .is_none());
    }

    #[test]
    fn tools_declare_schemas_and_annotations() {
        let tools = serde_json::to_value(tools()).unwrap();
        let [lookup, status, payment] = tools.as_array().unwrap().as_slice() else {
            panic!("three tools")
        };
        for tool in [lookup, status] {
            assert_eq!(
                tool["outputSchema"]["required"],
                serde_json::json!(["state", "outcome", "freshness", "signature"])
            );
        }
        let option = &payment["outputSchema"]["properties"]["options"]["items"];
        assert_eq!(option["properties"]["result"], lookup["outputSchema"]);
        assert_eq!(
            option["properties"]["verdictFrom"]["enum"],
            serde_json::json!(["stapled", "fetched"])
        );
        assert_eq!(
            payment["outputSchema"]["required"],
            serde_json::json!(["options", "choice", "policy"])
        );
        for tool in [lookup, status, payment] {
            assert_eq!(tool["inputSchema"]["additionalProperties"], false);
            let a = &tool["annotations"];
            assert_eq!(
                (
                    &a["readOnlyHint"],
                    &a["destructiveHint"],
                    &a["idempotentHint"],
                    &a["openWorldHint"]
                ),
                (
                    &Value::Bool(true),
                    &Value::Bool(false),
                    &Value::Bool(true),
                    &Value::Bool(true)
                )
            );
            assert!(a["title"].is_string() && tool["title"].is_string());
        }
    }
}
