//! Reading an x402 payment challenge: the endpoints a `402 Payment Required`
//! answer offers to be paid through, in every form x402 sends it.
//!
//! - **x402 v1**, the HTTP body: `{"x402Version": 1, "accepts": [{"scheme",
//!   "network", "maxAmountRequired", "resource", "payTo", "asset", …}]}`.
//! - **x402 v2**, the `PAYMENT-REQUIRED` header: base64 of `{"x402Version": 2,
//!   "resource": {"url", …}, "accepts": [{"scheme", "network", "amount",
//!   "asset", "payTo", …}]}`, which the body may repeat.
//! - **x402 over MCP**: a tool result with `isError: true` holding the
//!   `PaymentRequired` object as `structuredContent`, as
//!   `structuredContent["x402/error"].data`, or as JSON in `content[0].text`
//!   (itself the object or its `x402/error` wrapper), checked in that order.
//!
//! Everything is read strictly (the core's JSON parser: no duplicate member
//! names, bounded nesting) and bounded: 64 KiB of JSON, 32 accepted options.
//! Unknown members are ignored. An error is one line naming what is wrong; it
//! never copies a value from the challenge.

use crate::endpoint::{check_field, Endpoint};
use crate::json::{parse_strict, Value};
use crate::keys::decode_base64;

/// The largest challenge read, in bytes of JSON.
pub const MAX_CHALLENGE_BYTES: usize = 64 * 1024;
/// The most accepted options a challenge may list.
pub const MAX_OPTIONS: usize = 32;
/// The longest amount read: a uint256 has at most 78 decimal digits.
const MAX_AMOUNT_DIGITS: usize = 78;
/// The largest `PAYMENT-REQUIRED` value read: base64 of [`MAX_CHALLENGE_BYTES`].
const MAX_HEADER_BYTES: usize = MAX_CHALLENGE_BYTES.div_ceil(3) * 4;

/// One way to pay that a challenge accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaymentOption {
    /// The endpoint it names: `chain` is the option's `network`, `resourceUrl`
    /// the challenge's resource (v1: the option's `resource`; v2:
    /// `resource.url`). Serialized (feature `serde`) as its three fields, so
    /// that an option is the options of a lookup.
    pub endpoint: Endpoint,
    /// The payment scheme (`exact`, …).
    pub scheme: String,
    /// The asset paid (a token address or mint).
    pub asset: String,
    /// The amount in the asset's smallest unit, as decimal digits (v1
    /// `maxAmountRequired`, v2 `amount`); never a float.
    pub amount: String,
}

/// A payment challenge: its x402 version and the options it accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// `x402Version`: 1 or 2.
    pub version: u8,
    /// The accepted options, in the challenge's order (1 to [`MAX_OPTIONS`]).
    pub options: Vec<PaymentOption>,
}

impl Challenge {
    /// Reads a `PaymentRequired` object, x402 v1 or v2.
    ///
    /// # Errors
    ///
    /// The first member that is missing or wrong, by its path
    /// (`accepts[1].payTo is missing`).
    pub fn from_value(value: &Value) -> Result<Self, String> {
        if !matches!(value, Value::Object(_)) {
            return Err("the challenge is not a JSON object".into());
        }
        let version = match value.get("x402Version") {
            Some(Value::Integer(1)) => 1,
            Some(Value::Integer(2)) => 2,
            None => return Err("x402Version is missing".into()),
            Some(_) => return Err("x402Version is not 1 or 2".into()),
        };
        let accepts = match value.get("accepts") {
            Some(Value::Array(items)) => items,
            None => return Err("accepts is missing".into()),
            Some(_) => return Err("accepts is not a list".into()),
        };
        if accepts.is_empty() {
            return Err("accepts is empty: the challenge offers no way to pay".into());
        }
        if accepts.len() > MAX_OPTIONS {
            return Err(format!(
                "accepts lists {} options, more than {MAX_OPTIONS}",
                accepts.len()
            ));
        }
        // v2 names the resource once for every option.
        let resource = match version {
            2 => {
                let resource = value.get("resource").ok_or("resource is missing")?;
                Some(text(resource, "url").map_err(|e| format!("resource.{e}"))?)
            }
            _ => None,
        };
        let mut options = Vec::with_capacity(accepts.len());
        for (i, item) in accepts.iter().enumerate() {
            if !matches!(item, Value::Object(_)) {
                return Err(format!("accepts[{i}] is not an object"));
            }
            options.push(read_option(item, resource).map_err(|e| format!("accepts[{i}].{e}"))?);
        }
        Ok(Challenge { version, options })
    }

    /// Reads a challenge from JSON text (a saved body).
    ///
    /// # Errors
    ///
    /// Text over 64 KiB, text that is not strict JSON, or a bad challenge.
    pub fn from_json(bytes: &[u8]) -> Result<Self, String> {
        Self::from_value(&parse_json(bytes)?)
    }

    /// Reads the value of a `PAYMENT-REQUIRED` header: base64 (standard, or
    /// base64url without padding) of the JSON challenge.
    ///
    /// # Errors
    ///
    /// What is wrong with the header, naming it.
    pub fn from_header(header: &str) -> Result<Self, String> {
        let header = header.trim_ascii();
        if header.len() > MAX_HEADER_BYTES {
            return Err("the PAYMENT-REQUIRED header is longer than base64 of 64 KiB".into());
        }
        let bytes = decode_base64(header).ok_or("the PAYMENT-REQUIRED header is not base64")?;
        Self::from_json(&bytes).map_err(|e| format!("the PAYMENT-REQUIRED header: {e}"))
    }

    /// Reads the challenge of an HTTP 402 answer: its `PAYMENT-REQUIRED`
    /// header when there is one (x402 v2), else its body (x402 v1). When the
    /// header is there and the body repeats a challenge, the two must agree;
    /// any other body (`{}`, a page) is not a challenge and is ignored.
    ///
    /// # Errors
    ///
    /// A challenge that cannot be read, or a header and body that disagree.
    pub fn from_http(header: Option<&str>, body: &[u8]) -> Result<Self, String> {
        let Some(header) = header else {
            return Self::from_json(body)
                .map_err(|e| format!("no PAYMENT-REQUIRED header, and the body: {e}"));
        };
        let challenge = Self::from_header(header)?;
        let repeated = parse_json(body)
            .ok()
            .filter(|value| value.get("x402Version").is_some());
        if let Some(value) = repeated {
            let in_body = Self::from_value(&value).map_err(|e| format!("the body: {e}"))?;
            if let Some(difference) = difference(&challenge, &in_body) {
                return Err(format!(
                    "the PAYMENT-REQUIRED header and the body disagree ({difference})"
                ));
            }
        }
        Ok(challenge)
    }

    /// Reads an MCP tool result (or the JSON-RPC response holding it in
    /// `result`). `None` when it is not an error result: it asks for no
    /// payment.
    ///
    /// # Errors
    ///
    /// An error result that holds no readable challenge.
    pub fn from_mcp_result(value: &Value) -> Result<Option<Self>, String> {
        let result = match value.get("result") {
            Some(result) if value.get("jsonrpc").is_some() => result,
            _ => value,
        };
        if !matches!(result, Value::Object(_)) {
            return Err("the tool result is not a JSON object".into());
        }
        if result.get("isError") != Some(&Value::Bool(true)) {
            return Ok(None);
        }
        if let Some(found) = result.get("structuredContent").and_then(payment_required) {
            let (place, challenge) = found;
            return Self::from_value(challenge)
                .map(Some)
                .map_err(|e| format!("structuredContent{place}: {e}"));
        }
        let text = result
            .get("content")
            .and_then(Value::as_array)
            .and_then(<[Value]>::first)
            .and_then(|item| item.get("text"))
            .and_then(Value::as_str)
            .ok_or("the error result holds no x402 challenge: no structuredContent, no content[0].text")?;
        let inner = parse_json(text.as_bytes()).map_err(|e| format!("content[0].text: {e}"))?;
        let (place, challenge) =
            payment_required(&inner).ok_or("content[0].text holds no x402 challenge")?;
        Self::from_value(challenge)
            .map(Some)
            .map_err(|e| format!("content[0].text{place}: {e}"))
    }

    /// Reads a saved challenge: a `PaymentRequired` object (an x402 v1 or v2
    /// body) or an MCP tool result. `None` when it asks for no payment.
    ///
    /// # Errors
    ///
    /// Anything else, or a challenge that cannot be read.
    pub fn from_saved(value: &Value) -> Result<Option<Self>, String> {
        if value.get("x402Version").is_some() {
            return Self::from_value(value).map(Some);
        }
        let mcp = ["isError", "content", "structuredContent", "result"];
        if mcp.iter().any(|name| value.get(name).is_some()) {
            return Self::from_mcp_result(value);
        }
        Err("neither an x402 challenge (no x402Version) nor an MCP tool result".into())
    }

    /// Reads text: JSON (a saved body or tool result) when it starts with
    /// `{`, otherwise a `PAYMENT-REQUIRED` header value.
    ///
    /// # Errors
    ///
    /// As [`Challenge::from_saved`] and [`Challenge::from_header`].
    pub fn from_text(text: &str) -> Result<Option<Self>, String> {
        if text.trim_ascii_start().starts_with('{') {
            Self::from_saved(&parse_json(text.as_bytes())?)
        } else {
            Self::from_header(text).map(Some)
        }
    }
}

/// What a reading gives a caller that wants endpoints (the browser's
/// `endpointsFromPaymentRequired`): the accepted options, or none and the
/// reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoints {
    /// The options, in the challenge's order; empty when it cannot be read.
    pub endpoints: Vec<PaymentOption>,
    /// Why there are none.
    pub reason: Option<String>,
}

impl From<Result<Option<Challenge>, String>> for Endpoints {
    fn from(read: Result<Option<Challenge>, String>) -> Self {
        let (endpoints, reason) = match read {
            Ok(Some(challenge)) => (challenge.options, None),
            Ok(None) => (
                Vec::new(),
                Some("the tool result is not an error: it asks for no payment".into()),
            ),
            Err(reason) => (Vec::new(), Some(reason)),
        };
        Endpoints { endpoints, reason }
    }
}

/// Strict JSON within the size bound.
fn parse_json(bytes: &[u8]) -> Result<Value, String> {
    if bytes.len() > MAX_CHALLENGE_BYTES {
        return Err("the challenge is larger than 64 KiB".into());
    }
    parse_strict(bytes).map_err(|e| format!("not strict JSON: {e}"))
}

/// The `PaymentRequired` object in `value`: the value itself when it has an
/// `x402Version`, or its `x402/error` wrapper's `data`; with where it was.
fn payment_required(value: &Value) -> Option<(&'static str, &Value)> {
    if value.get("x402Version").is_some() {
        return Some(("", value));
    }
    let data = value.get("x402/error")?.get("data")?;
    Some(("[\"x402/error\"].data", data))
}

/// One accepted option (an object); `resource` is the v2 challenge's
/// `resource.url`, `None` in v1 where each option names its own.
fn read_option(item: &Value, resource: Option<&str>) -> Result<PaymentOption, String> {
    let (resource, amount_name) = match resource {
        Some(url) => (url, "amount"),
        None => (text(item, "resource")?, "maxAmountRequired"),
    };
    let amount = text(item, amount_name)?;
    if amount.len() > MAX_AMOUNT_DIGITS || !amount.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{amount_name} is not a whole number in decimal digits"
        ));
    }
    let endpoint = Endpoint::new(text(item, "network")?, text(item, "payTo")?, resource)
        .map_err(|e| e.to_string())?;
    Ok(PaymentOption {
        endpoint,
        scheme: text(item, "scheme")?.to_owned(),
        asset: text(item, "asset")?.to_owned(),
        amount: amount.to_owned(),
    })
}

/// Member `name` of `object`: a string that could name part of an endpoint
/// (non-empty, at most 512 bytes, no control character).
fn text<'a>(object: &'a Value, name: &'static str) -> Result<&'a str, String> {
    match object.get(name) {
        Some(Value::String(s)) => {
            check_field(name, s).map_err(|e| e.to_string())?;
            Ok(s)
        }
        None | Some(Value::Null) => Err(format!("{name} is missing")),
        Some(_) => Err(format!("{name} is not a string")),
    }
}

/// Where two readings of one challenge differ, if they do.
fn difference(a: &Challenge, b: &Challenge) -> Option<String> {
    if a.version != b.version {
        return Some("x402Version".into());
    }
    if a.options.len() != b.options.len() {
        return Some("the number of accepted options".into());
    }
    let i = a.options.iter().zip(&b.options).position(|(x, y)| x != y)?;
    Some(format!("accepts[{i}]"))
}
