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
//! Unknown members are ignored. An error is a [`ChallengeError`], whose one
//! line names what is wrong; it never copies a value from the challenge.

use crate::encoding::decode_base64;
use crate::endpoint::{check_field, Endpoint, FieldRule};
use crate::json::{parse_strict, ParseError, Value};
use crate::json::{MemberRule, Members};
use crate::options::ReadError;
use crate::staple::Staple;
use crate::writing::{
    display_from_words, error_from_words, line, text, uDisplay, words_from_str, ErrorChain,
};

use crate::bounds::{MAX_CHALLENGE_BYTES, MAX_OPTIONS};

/// The name of the x402 `PAYMENT-REQUIRED` response header, which carries
/// a v2 challenge ([`Challenge::from_header`]), lowercased as HTTP/2 and
/// browsers write header names (HTTP's are case-insensitive).
pub const PAYMENT_REQUIRED_HEADER: &str = "payment-required";

/// The status of a response that asks payment: 402 Payment Required.
pub const PAYMENT_REQUIRED_STATUS: u16 = 402;
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
    /// The verdict document the challenge staples for this option's
    /// endpoint (x402 v2, [`crate::staple`]), as JSON text: what the
    /// `verdict` option of a lookup takes. `None` when it staples none.
    /// Not one of the option's terms: two readings of one challenge agree
    /// whatever their staples.
    pub verdict: Option<String>,
}

impl PaymentOption {
    /// Whether `other` offers the same terms: the endpoint, scheme, asset
    /// and amount (its stapled verdict aside).
    pub fn same_terms(&self, other: &PaymentOption) -> bool {
        self.endpoint == other.endpoint
            && self.scheme == other.scheme
            && self.asset == other.asset
            && self.amount == other.amount
    }
}

/// A payment challenge: its x402 version and the options it accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// `x402Version`: 1 or 2.
    pub version: u8,
    /// The accepted options, in the challenge's order (1 to [`MAX_OPTIONS`]),
    /// each with the verdict stapled for it.
    pub options: Vec<PaymentOption>,
}

impl Challenge {
    /// Reads a `PaymentRequired` object, x402 v1 or v2, and the verdict
    /// stapled for each option ([`Staple::read`]: x402 v2 only; a staple
    /// that cannot be read is none, never an error).
    ///
    /// # Errors
    ///
    /// The first member that is missing or wrong, by its path
    /// (`accepts[1].payTo is missing`).
    pub fn from_value(value: &Value) -> Result<Self, ChallengeError> {
        use ValueRule::NotOneOrTwo;
        let missing = ValueRule::Member(MemberRule::Missing);
        match value {
            Value::Object(members) if members.names().next().is_none() => {
                return Err(ChallengeRule::EmptyObject.into())
            }
            Value::Object(_) => {}
            _ => return Err(ChallengeRule::NotAnObject.into()),
        }
        let top = |name, rule| ChallengeRule::Member {
            member: ChallengeMember::Top(name),
            rule,
        };
        let version = match value.get("x402Version") {
            Some(Value::Integer(1)) => 1,
            Some(Value::Integer(2)) => 2,
            None => return Err(top("x402Version", missing).into()),
            Some(_) => return Err(top("x402Version", NotOneOrTwo).into()),
        };
        let accepts = match value.get("accepts") {
            Some(Value::Array(items)) => items,
            None => return Err(top("accepts", missing).into()),
            Some(_) => return Err(top("accepts", ValueRule::Member(MemberRule::NotAList)).into()),
        };
        // How many options, before anything of them or of the resource.
        check_count(accepts)?;
        // v2 names the resource once for every option.
        let resource = match version {
            2 => {
                let resource = value
                    .get("resource")
                    .ok_or_else(|| top("resource", missing.clone()))?;
                Some(text(resource, "url").map_err(|rule| ChallengeRule::Member {
                    member: ChallengeMember::ResourceUrl,
                    rule,
                })?)
            }
            _ => None,
        };
        let mut options = read_accepts(accepts, resource)?;
        let staple = Staple::read(value);
        for option in &mut options {
            option.verdict = staple.verdict_for(&option.endpoint).map(str::to_owned);
        }
        Ok(Challenge { version, options })
    }

    /// Reads a challenge from JSON text (a saved body).
    ///
    /// # Errors
    ///
    /// Text over 64 KiB, text that is not strict JSON, or a bad challenge.
    pub fn from_json(bytes: &[u8]) -> Result<Self, ChallengeError> {
        Self::from_value(&parse_json(bytes)?)
    }

    /// Reads the value of a `PAYMENT-REQUIRED` header: base64 (standard, or
    /// base64url without padding) of the JSON challenge.
    ///
    /// # Errors
    ///
    /// What is wrong with the header, naming it.
    pub fn from_header(header: &str) -> Result<Self, ChallengeError> {
        let header = header.trim_ascii();
        if header.len() > MAX_HEADER_BYTES {
            return Err(ChallengeRule::HeaderTooLong.into());
        }
        let bytes = decode_base64(header).ok_or(ChallengeRule::HeaderNotBase64)?;
        Self::from_json(&bytes).map_err(|e| e.within(Within::Header))
    }

    /// Reads the challenge of an HTTP 402 answer: its `PAYMENT-REQUIRED`
    /// header when there is one (x402 v2), else its body (x402 v1). When the
    /// header is there and the body repeats a challenge, the two must agree;
    /// any other body (`{}`, a page) is not a challenge and is ignored.
    ///
    /// # Errors
    ///
    /// A challenge that cannot be read, or a header and body that disagree.
    pub fn from_http(header: Option<&str>, body: &[u8]) -> Result<Self, ChallengeError> {
        let Some(header) = header else {
            return Self::from_json(body).map_err(|e| e.within(Within::BodyWithoutHeader));
        };
        let challenge = Self::from_header(header)?;
        let repeated = parse_json(body)
            .ok()
            .filter(|value| value.get("x402Version").is_some());
        if let Some(value) = repeated {
            let in_body = Self::from_value(&value).map_err(|e| e.within(Within::Body))?;
            if let Some(difference) = difference(&challenge, &in_body) {
                return Err(ChallengeRule::Disagree(difference).into());
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
    pub fn from_mcp_result(value: &Value) -> Result<Option<Self>, ChallengeError> {
        let result = match value.get("result") {
            Some(result) if value.get("jsonrpc").is_some() => result,
            _ => value,
        };
        if !matches!(result, Value::Object(_)) {
            return Err(ChallengeRule::ResultNotAnObject.into());
        }
        if !matches!(result.get("isError"), Some(Value::Bool(true))) {
            return Ok(None);
        }
        if let Some((wrapped, challenge)) =
            result.get("structuredContent").and_then(payment_required)
        {
            return Self::from_value(challenge)
                .map(Some)
                .map_err(|e| e.within(Within::StructuredContent { wrapped }));
        }
        let text = result
            .get("content")
            .and_then(Value::as_array)
            .and_then(<[Value]>::first)
            .and_then(|item| item.get("text"))
            .and_then(Value::as_str)
            .ok_or(ChallengeRule::NoChallengeInResult)?;
        let in_text = |wrapped| Within::ContentText { wrapped };
        let inner = parse_json(text.as_bytes()).map_err(|e| e.within(in_text(false)))?;
        let (wrapped, challenge) =
            payment_required(&inner).ok_or(ChallengeRule::NoChallengeInText)?;
        Self::from_value(challenge)
            .map(Some)
            .map_err(|e| e.within(in_text(wrapped)))
    }

    /// Reads a saved challenge: a `PaymentRequired` object (an x402 v1 or v2
    /// body) or an MCP tool result. `None` when it asks for no payment.
    ///
    /// # Errors
    ///
    /// Anything else, or a challenge that cannot be read.
    pub fn from_saved(value: &Value) -> Result<Option<Self>, ChallengeError> {
        let empty = matches!(value, Value::Object(members) if members.names().next().is_none());
        if empty || value.get("x402Version").is_some() {
            return Self::from_value(value).map(Some);
        }
        let mcp = ["isError", "content", "structuredContent", "result"];
        if mcp.iter().any(|name| value.get(name).is_some()) {
            return Self::from_mcp_result(value);
        }
        Err(ChallengeRule::NotAChallenge.into())
    }

    /// Reads text: JSON (a saved body or tool result) when it starts with
    /// `{`, otherwise a `PAYMENT-REQUIRED` header value.
    ///
    /// # Errors
    ///
    /// As [`Challenge::from_saved`] and [`Challenge::from_header`].
    pub fn from_text(text: &str) -> Result<Option<Self>, ChallengeError> {
        if text.trim_ascii_start().as_bytes().first() == Some(&b'{') {
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
pub struct ChallengeEndpoints {
    /// The options, in the challenge's order; empty when it cannot be read.
    pub endpoints: Vec<PaymentOption>,
    /// Why there are none.
    pub reason: Option<String>,
}

impl ChallengeEndpoints {
    /// The endpoints of a challenge handed over as a value (a browser's
    /// object, read by property access): an object is read as a challenge
    /// ([`Challenge::from_saved`]); anything else, or a value inside it that
    /// JSON cannot hold, gives none, and says why.
    pub fn from_value(read: Result<Option<Value>, ReadError>) -> Self {
        match read {
            Ok(Some(value @ Value::Object(_))) => {
                ChallengeEndpoints::from(Challenge::from_saved(&value))
            }
            Ok(_) => Self::none(
                "expected a challenge object, an MCP tool result or a PAYMENT-REQUIRED string"
                    .into(),
            ),
            Err(problem) => Self::none(text!("a value in the challenge {}", problem.as_str())),
        }
    }

    fn none(reason: String) -> Self {
        ChallengeEndpoints {
            endpoints: Vec::new(),
            reason: Some(reason),
        }
    }
}

/// What a page is told after [`ChallengeRule::EmptyObject`]: where the
/// header it needs is hidden from it.
const IN_A_PAGE: &str = ", which a page on another origin can read only when the server sends Access-Control-Expose-Headers: PAYMENT-REQUIRED";

impl From<Result<Option<Challenge>, ChallengeError>> for ChallengeEndpoints {
    fn from(read: Result<Option<Challenge>, ChallengeError>) -> Self {
        let (endpoints, reason) = match read {
            Ok(Some(challenge)) => (challenge.options, None),
            Ok(None) => (
                Vec::new(),
                Some("the tool result is not an error: it asks for no payment".into()),
            ),
            Err(error) => {
                let mut reason = line(&error);
                if error.rule == ChallengeRule::EmptyObject {
                    reason.push_str(IN_A_PAGE);
                }
                (Vec::new(), Some(reason))
            }
        };
        ChallengeEndpoints { endpoints, reason }
    }
}

/// Why a challenge cannot be read: what is wrong, and where the challenge
/// was found when it was inside something (a header, a body, a tool result).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeError {
    /// Where the challenge was, when inside something.
    pub within: Option<Within>,
    /// What is wrong with it.
    pub rule: ChallengeRule,
}

impl ChallengeError {
    /// The same problem, found in a challenge inside `within`.
    fn within(self, within: Within) -> Self {
        ChallengeError {
            within: Some(within),
            ..self
        }
    }
}

impl From<ChallengeRule> for ChallengeError {
    fn from(rule: ChallengeRule) -> Self {
        ChallengeError { within: None, rule }
    }
}

/// Where a challenge was read from, for [`ChallengeError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Within {
    /// The `PAYMENT-REQUIRED` header, once decoded.
    Header,
    /// The body of a 402 answer without the header.
    BodyWithoutHeader,
    /// The body repeating the header's challenge.
    Body,
    /// A tool result's `structuredContent`, or (`wrapped`) its
    /// `["x402/error"].data`.
    StructuredContent {
        /// Inside an `x402/error` wrapper.
        wrapped: bool,
    },
    /// The JSON in a tool result's `content[0].text`, or (`wrapped`) its
    /// `["x402/error"].data`.
    ContentText {
        /// Inside an `x402/error` wrapper.
        wrapped: bool,
    },
}

/// What is wrong with a challenge, for [`ChallengeError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChallengeRule {
    /// More than [`MAX_CHALLENGE_BYTES`] of JSON.
    TooLarge,
    /// Not JSON under the core's strict rules.
    NotJson(ParseError),
    /// JSON, but not an object.
    NotAnObject,
    /// The empty object `{}`: what an x402 v2 server sends as the body, its
    /// challenge being in the `PAYMENT-REQUIRED` header.
    EmptyObject,
    /// A member is missing or breaks a rule.
    Member {
        /// Which member.
        member: ChallengeMember,
        /// The rule it breaks.
        rule: ValueRule,
    },
    /// `accepts` is an empty list.
    NoOptions,
    /// `accepts` lists this many options, more than [`MAX_OPTIONS`].
    TooManyOptions(usize),
    /// A `PAYMENT-REQUIRED` header longer than base64 of 64 KiB.
    HeaderTooLong,
    /// A `PAYMENT-REQUIRED` header that is not base64.
    HeaderNotBase64,
    /// The header's challenge and the one the body repeats differ.
    Disagree(Difference),
    /// A tool result that is not an object.
    ResultNotAnObject,
    /// An error result with neither `structuredContent` nor `content[0].text`
    /// holding a challenge.
    NoChallengeInResult,
    /// An error result whose `content[0].text` is JSON without a challenge.
    NoChallengeInText,
    /// Saved JSON that is neither a challenge nor a tool result.
    NotAChallenge,
}

/// A member of a challenge, for [`ChallengeRule::Member`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeMember {
    /// A top-level member (`x402Version`, `accepts`, `resource`).
    Top(&'static str),
    /// The v2 `resource.url`.
    ResourceUrl,
    /// Accepted option `i` itself.
    Accepted(usize),
    /// A member of accepted option `i` (`payTo`, `amount`, …).
    AcceptedMember(usize, &'static str),
}

/// A rule a member of a challenge can break, for [`ChallengeRule::Member`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueRule {
    /// A rule any member can break: missing (or `null`), not a string, not
    /// a list (`accepts`), not an object (an accepted option).
    Member(MemberRule),
    /// `x402Version` is neither 1 nor 2.
    NotOneOrTwo,
    /// An amount that is not decimal digits (at most 78 of them).
    NotDigits,
    /// A string that cannot name part of an endpoint.
    Field(FieldRule),
}

/// Where a header's challenge and the body's differ, for [`ChallengeRule::Disagree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difference {
    /// `x402Version`.
    Version,
    /// The number of accepted options.
    AcceptedCount,
    /// Accepted option `i`.
    Accepted(usize),
}

impl uDisplay for ChallengeError {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        if let Some(within) = self.within {
            let (place, wrapped) = match within {
                Within::Header => ("the PAYMENT-REQUIRED header", false),
                Within::BodyWithoutHeader => ("no PAYMENT-REQUIRED header, and the body", false),
                Within::Body => ("the body", false),
                Within::StructuredContent { wrapped } => ("structuredContent", wrapped),
                Within::ContentText { wrapped } => ("content[0].text", wrapped),
            };
            f.write_str(place)?;
            if wrapped {
                f.write_str("[\"x402/error\"].data")?;
            }
            f.write_str(": ")?;
        }
        uDisplay::fmt(&self.rule, f)
    }
}

impl ErrorChain for ChallengeError {
    type Wrapped = ParseError;
    /// The strict parser's error under [`ChallengeRule::NotJson`].
    fn wrapped(&self) -> Option<&ParseError> {
        self.rule.wrapped()
    }
}

impl ChallengeRule {
    /// The strict parser's error under [`ChallengeRule::NotJson`], the
    /// cause of the error that holds this rule.
    pub fn wrapped(&self) -> Option<&ParseError> {
        match self {
            ChallengeRule::NotJson(e) => Some(e),
            _ => None,
        }
    }
}

impl uDisplay for ChallengeRule {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        let text = match self {
            ChallengeRule::TooLarge => "the challenge is larger than 64 KiB",
            ChallengeRule::NotJson(_) => "not strict JSON",
            ChallengeRule::NotAnObject => "the challenge is not a JSON object",
            ChallengeRule::EmptyObject => {
                "the challenge is {}, the body an x402 v2 server sends: its challenge is in the PAYMENT-REQUIRED header"
            }
            ChallengeRule::Member { member, rule } => {
                return ufmt::uwrite!(f, "{} {}", member, rule);
            }
            ChallengeRule::NoOptions => "accepts is empty: the challenge offers no way to pay",
            ChallengeRule::TooManyOptions(n) => {
                return ufmt::uwrite!(f, "accepts lists {} options, more than {}", *n, MAX_OPTIONS)
            }
            ChallengeRule::HeaderTooLong => "the PAYMENT-REQUIRED header is longer than base64 of 64 KiB",
            ChallengeRule::HeaderNotBase64 => "the PAYMENT-REQUIRED header is not base64",
            ChallengeRule::Disagree(difference) => {
                f.write_str("the PAYMENT-REQUIRED header and the body disagree (")?;
                match difference {
                    Difference::Version => f.write_str("x402Version")?,
                    Difference::AcceptedCount => f.write_str("the number of accepted options")?,
                    Difference::Accepted(i) => ufmt::uwrite!(f, "accepts[{}]", *i)?,
                }
                ")"
            }
            ChallengeRule::ResultNotAnObject => "the tool result is not a JSON object",
            ChallengeRule::NoChallengeInResult => {
                "the error result holds no x402 challenge: no structuredContent, no content[0].text"
            }
            ChallengeRule::NoChallengeInText => "content[0].text holds no x402 challenge",
            ChallengeRule::NotAChallenge => {
                "neither an x402 challenge (no x402Version) nor an MCP tool result"
            }
        };
        f.write_str(text)
    }
}

impl uDisplay for ChallengeMember {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        match self {
            ChallengeMember::Top(name) => f.write_str(name),
            ChallengeMember::ResourceUrl => f.write_str("resource.url"),
            ChallengeMember::Accepted(i) => ufmt::uwrite!(f, "accepts[{}]", *i),
            ChallengeMember::AcceptedMember(i, name) => {
                ufmt::uwrite!(f, "accepts[{}].{}", *i, *name)
            }
        }
    }
}

impl ValueRule {
    /// The rule broken, as a predicate (`is missing`).
    pub fn as_str(&self) -> &'static str {
        match self {
            ValueRule::Member(rule) => rule.as_str(),
            ValueRule::NotOneOrTwo => "is not 1 or 2",
            ValueRule::NotDigits => "is not a whole number in decimal digits",
            ValueRule::Field(rule) => rule.as_str(),
        }
    }
}

words_from_str!(ValueRule);
display_from_words!(ChallengeRule, ChallengeMember, ValueRule);
error_from_words!(ChallengeError);

/// Strict JSON within the size bound.
fn parse_json(bytes: &[u8]) -> Result<Value, ChallengeError> {
    if bytes.len() > MAX_CHALLENGE_BYTES {
        return Err(ChallengeRule::TooLarge.into());
    }
    parse_strict(bytes).map_err(|e| ChallengeRule::NotJson(e).into())
}

/// The `PaymentRequired` object in `value`: the value itself when it has an
/// `x402Version`, or (`true`) its `x402/error` wrapper's `data`.
fn payment_required(value: &Value) -> Option<(bool, &Value)> {
    if value.get("x402Version").is_some() {
        return Some((false, value));
    }
    let data = value.get("x402/error")?.get("data")?;
    Some((true, data))
}

/// One accepted option (an object); `resource` is the v2 challenge's
/// `resource.url`, `None` in v1 where each option names its own. An error
/// names the option's member.
/// Reads `accepts`: 1 to [`MAX_OPTIONS`] options, each for `resource` (v2)
/// or for its own `resource` member (v1, `resource` `None`).
pub(crate) fn read_accepts(
    accepts: &[Value],
    resource: Option<&str>,
) -> Result<Vec<PaymentOption>, ChallengeRule> {
    check_count(accepts)?;
    let mut options = Vec::with_capacity(accepts.len());
    for (i, item) in accepts.iter().enumerate() {
        let at = |member, rule| ChallengeRule::Member { member, rule };
        if !matches!(item, Value::Object(_)) {
            let not_an_object = ValueRule::Member(MemberRule::NotAnObject);
            return Err(at(ChallengeMember::Accepted(i), not_an_object));
        }
        let option = read_option(item, resource)
            .map_err(|(name, rule)| at(ChallengeMember::AcceptedMember(i, name), rule))?;
        options.push(option);
    }
    Ok(options)
}

/// `accepts` lists 1 to [`MAX_OPTIONS`] options.
fn check_count(accepts: &[Value]) -> Result<(), ChallengeRule> {
    match accepts.len() {
        0 => Err(ChallengeRule::NoOptions),
        n if n > MAX_OPTIONS => Err(ChallengeRule::TooManyOptions(n)),
        _ => Ok(()),
    }
}

fn read_option(
    item: &Value,
    resource: Option<&str>,
) -> Result<PaymentOption, (&'static str, ValueRule)> {
    let (resource, amount) = match resource {
        Some(url) => (url, "amount"),
        None => (
            text(item, "resource").map_err(|rule| ("resource", rule))?,
            "maxAmountRequired",
        ),
    };
    option_of(item, ["network", "payTo", amount], resource)
}

/// The option `item` names, with no verdict: its chain, `payTo` and amount
/// under the member names `names` (in that order), its `scheme` and
/// `asset`, for `resource`; else the member at fault and why.
pub(crate) fn option_of(
    item: &Value,
    names: [&'static str; 3],
    resource: &str,
) -> Result<PaymentOption, (&'static str, ValueRule)> {
    let member = |name| text(item, name).map_err(|rule| (name, rule));
    let [chain, pay_to, amount_name] = names;
    let amount = member(amount_name)?;
    if !is_amount(amount) {
        return Err((amount_name, ValueRule::NotDigits));
    }
    let endpoint = Endpoint::new(member(chain)?, member(pay_to)?, resource)
        .map_err(|e| (e.field, ValueRule::Field(e.rule)))?;
    Ok(PaymentOption {
        endpoint,
        scheme: member("scheme")?.to_owned(),
        asset: member("asset")?.to_owned(),
        amount: amount.to_owned(),
        verdict: None,
    })
}

/// Whether `amount` is an amount: decimal digits, at most 78 of them (a uint256).
pub(crate) fn is_amount(amount: &str) -> bool {
    amount.len() <= MAX_AMOUNT_DIGITS && amount.bytes().all(|b| b.is_ascii_digit())
}

/// Member `name` of `object`: a string that could name part of an endpoint
/// (non-empty, at most 512 bytes, no control or format character).
pub(crate) fn text<'a>(object: &'a Value, name: &'static str) -> Result<&'a str, ValueRule> {
    let Value::Object(members) = object else {
        return Err(ValueRule::Member(MemberRule::Missing));
    };
    let text = match Members(members).str(name) {
        Err(_) if matches!(members.get(name), Some(Value::Null)) => Err(MemberRule::Missing),
        read => read,
    }
    .map_err(ValueRule::Member)?;
    check_field(name, text).map_err(|e| ValueRule::Field(e.rule))?;
    Ok(text)
}

/// Where two readings of one challenge differ, if they do.
fn difference(a: &Challenge, b: &Challenge) -> Option<Difference> {
    if a.version != b.version {
        return Some(Difference::Version);
    }
    if a.options.len() != b.options.len() {
        return Some(Difference::AcceptedCount);
    }
    let i = (a.options.iter().zip(&b.options)).position(|(x, y)| !x.same_terms(y))?;
    Some(Difference::Accepted(i))
}
