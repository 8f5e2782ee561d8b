//! The third tool, `check_payment_required`: a whole x402 challenge (a
//! `PaymentRequired` object, a `PAYMENT-REQUIRED` header value or an MCP
//! tool result, read by the core as `check --from-file` and `--header` read
//! them), every option it accepts looked up as `check` looks them up (a
//! verdict stapled for it first, under the staple rule), and the option the
//! guard's default policy pays ([`chosen`]), or none.

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use serde_json::{json, Value};
use x402_verdict_core::guard::{chosen, Policy};
use x402_verdict_core::staple::{Source, SOURCE_MEMBER};
use x402_verdict_core::{Challenge, Evaluation, MAX_CHALLENGE_BYTES, MAX_FIELD_BYTES, MAX_OPTIONS};

use super::{object, problems, ArgumentProblem, ArgumentsError};
use x402_verdict_consumer::challenge::{option_entries, option_line};

/// The tool's name.
pub const CHECK_PAYMENT_REQUIRED: &str = "check_payment_required";
/// Its one argument.
pub const PAYMENT_REQUIRED: &str = "paymentRequired";

const TITLE: &str = "Check every option of an x402 payment challenge";

const DESCRIPTION: &str = "Before paying an x402 challenge, pass it whole as paymentRequired: the PaymentRequired object (x402 v1 or v2), the value of a PAYMENT-REQUIRED header (a string), or the whole MCP tool result a paid tool answered with (isError true). Every accepted option is looked up at once, a verdict the seller stapled to the challenge taken offline when it is validly signed and at most 300 s old (verdictFrom stapled), else fetched from the verification service (verdictFrom fetched). The answer leads with the option to pay under the default policy (avoid-revoked: prefer human-backed, never revoked), or that none should be paid, then lists each option's network, asset, amount, payTo and resource with its result as lookup_verdict gives it. An unknown state is a normal answer (no signal), not an error. Read-only: nothing is paid and the seller is never contacted.";

/// The tool, with its output schema built from `result`, the schema of a
/// lookup's result, and the annotations the other tools have.
pub fn tool(result: &Value, annotations: impl Fn(&str) -> ToolAnnotations) -> Tool {
    let input = json!({
        "type": "object",
        "properties": {
            PAYMENT_REQUIRED: {
                "type": ["object", "string"],
                "description": format!("The challenge: a PaymentRequired object (x402 v1 or v2), a PAYMENT-REQUIRED header value (base64, at most that of {MAX_CHALLENGE_BYTES} bytes), or an MCP tool result holding one."),
            }
        },
        "required": [PAYMENT_REQUIRED],
        "additionalProperties": false
    });
    let field = |description: &str| json!({ "type": "string", "minLength": 1, "maxLength": MAX_FIELD_BYTES, "description": description });
    let option = json!({
        "type": "object",
        "properties": {
            "chain": field("The option's network, as the challenge names it."),
            "payTo": field("The address the option pays."),
            "resourceUrl": field("The resource the challenge declares."),
            "scheme": field("The payment scheme."),
            "asset": field("The asset paid."),
            "amount": { "type": "string", "pattern": "^[0-9]{1,78}$", "description": "The amount in the asset's smallest unit." },
            "verdict": { "type": "string", "description": "The verdict document the challenge staples for this option, as JSON text." },
            "result": result,
            SOURCE_MEMBER: { "type": "string", "enum": [Source::Stapled.as_str(), Source::Fetched.as_str()],
                             "description": "Whether the stapled verdict stood in for the request, or the service was asked." },
        },
        "required": ["chain", "payTo", "resourceUrl", "scheme", "asset", "amount", "result", SOURCE_MEMBER],
        "additionalProperties": false
    });
    let output = json!({
        "type": "object",
        "properties": {
            "x402Version": { "type": "integer", "enum": [1, 2], "description": "The challenge's x402 version (absent when it asks for no payment)." },
            "options": { "type": "array", "items": option, "maxItems": MAX_OPTIONS,
                         "description": "Every accepted option, in the challenge's order (none when it asks for no payment)." },
            "choice": { "type": ["integer", "null"], "minimum": 0, "maximum": MAX_OPTIONS - 1,
                        "description": "The index in options of the option to pay, or null: pay none." },
            "policy": { "type": "string", "enum": [Policy::DEFAULT.as_str()], "description": "The policy that chose." },
        },
        "required": ["options", "choice", "policy"],
        "additionalProperties": false
    });
    Tool::new(CHECK_PAYMENT_REQUIRED, DESCRIPTION, object(input))
        .with_title(TITLE)
        .with_raw_output_schema(object(output))
        .with_annotations(annotations(TITLE))
}

/// The challenge the arguments hold: exactly `paymentRequired`, an object
/// (read as `check --from-file` reads a file) or a string (as `--header`
/// reads it). `None`: a tool result that is not an error asks for no
/// payment.
pub fn challenge_of(arguments: Option<&JsonObject>) -> Result<Option<Challenge>, ArgumentsError> {
    let empty = JsonObject::new();
    let args = arguments.unwrap_or(&empty);
    let fits = |v: &Value| v.is_object() || v.is_string();
    let problems = problems(
        args,
        &[PAYMENT_REQUIRED],
        fits,
        ArgumentProblem::NotAChallenge,
    );
    if !problems.is_empty() {
        return Err(ArgumentsError::Problems(problems));
    }
    let value = args.get(PAYMENT_REQUIRED);
    let read = match value {
        Some(Value::String(header)) => Challenge::from_header(header).map(Some),
        other => Challenge::from_text(&other.map(Value::to_string).unwrap_or_default()),
    };
    read.map_err(ArgumentsError::Challenge)
}

/// The answer for `challenge` (none: it asks for no payment) whose options
/// looked up to `results`: the decision first, then each option.
pub fn answer(challenge: Option<&Challenge>, results: &[(Evaluation, Source)]) -> CallToolResult {
    let policy = Policy::DEFAULT;
    let Some(challenge) = challenge else {
        let mut answer = CallToolResult::success(vec![ContentBlock::text(
            "Pay nothing: the tool result is not an error, so it asks for no payment.",
        )]);
        answer.structured_content =
            Some(json!({ "options": [], "choice": null, "policy": policy.as_str() }));
        return answer;
    };
    let choice = chosen(policy, results.iter().map(|(result, _)| result));
    let count = challenge.options.len();
    let mut text = match choice {
        Some(i) => format!(
            "Pay option {} of {count} (policy {}: prefer human-backed, never revoked).",
            i + 1,
            policy.as_str()
        ),
        None => format!(
            "Pay none of the {count} options (policy {}: never revoked).",
            policy.as_str()
        ),
    };
    for (i, (option, (result, source))) in challenge.options.iter().zip(results).enumerate() {
        text.push_str(&format!(
            " Option {}: {} Verdict {}.",
            i + 1,
            option_line(option, result),
            source.as_str()
        ));
    }
    let mut answer = CallToolResult::success(vec![ContentBlock::text(text)]);
    answer.structured_content = Some(json!({
        "x402Version": challenge.version,
        "options": option_entries(challenge, results),
        "choice": choice,
        "policy": policy.as_str(),
    }));
    answer
}
