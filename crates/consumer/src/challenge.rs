//! The 402 reader: a paid resource asked for its x402 payment challenge
//! without paying it ([`Resource`]: no payment header, no credentials, no
//! redirect to another origin, at most 64 KiB of body, within a timeout),
//! and every option of a challenge looked up at once ([`look_up`]), with
//! the line and the JSON entry that show each ([`option_line`],
//! [`option_entries`]).

use std::fmt;
use std::time::Duration;

use futures_util::future::join_all;
use reqwest::header::{ACCEPT, LOCATION};
use reqwest::{StatusCode, Url};
use serde_json::{json, Value};
use x402_verdict_core::staple::{Source, SOURCE_MEMBER};
use x402_verdict_core::{
    line, Challenge, ChallengeError, Evaluation, PaymentOption, MAX_CHALLENGE_BYTES,
    PAYMENT_REQUIRED_HEADER,
};

use crate::{is_followed_redirect, Verifier};

/// The methods a paid resource may be asked with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// GET.
    Get,
    /// POST, with an empty body.
    Post,
}

/// Why a resource's challenge could not be read: it gave none (see
/// [`AskError::NoChallenge`]), or what it gave, or the URL, is bad.
#[derive(Debug, thiserror::Error)]
pub enum AskError {
    /// The resource gave no challenge to read: it is not known whether it
    /// asks for a payment.
    #[error("could not read a challenge")]
    NoChallenge(#[source] NoChallenge),
    /// The URL is not an absolute http(s) URL (as given).
    #[error("{0}: not an absolute http:// or https:// URL")]
    NotHttp(String),
    /// The 402 answer has several `PAYMENT-REQUIRED` headers (its method and URL).
    #[error("{0}: more than one PAYMENT-REQUIRED header")]
    SeveralHeaders(String),
    /// The 402 answer's `PAYMENT-REQUIRED` header is not ASCII.
    #[error("{asked}: the PAYMENT-REQUIRED header is not ASCII")]
    HeaderNotAscii {
        /// The method and URL asked.
        asked: String,
        /// What the header parser said.
        source: reqwest::header::ToStrError,
    },
    /// The 402 answer has no header, and a body over 64 KiB.
    #[error("{0}: no PAYMENT-REQUIRED header, and the body is larger than 64 KiB")]
    BodyTooLarge(String),
    /// The 402 answer's challenge cannot be read.
    #[error("{asked} answered 402, but {}", line(problem))]
    Unreadable {
        /// The method and URL asked.
        asked: String,
        /// What is wrong with the challenge, its line completing this
        /// level's sentence.
        problem: ChallengeError,
    },
}

/// A resource that gave no challenge: what was asked, and what happened.
#[derive(Debug)]
pub struct NoChallenge {
    /// The method and URL asked (`GET https://…`).
    pub asked: String,
    /// What happened.
    pub why: Unanswered,
}

/// Why a resource gave no challenge, for [`NoChallenge`].
#[derive(Debug)]
pub enum Unanswered {
    /// No complete answer within this many milliseconds.
    Timeout(u32),
    /// The exchange failed (refused, reset, DNS, TLS): the client's error
    /// (without its URL, which [`NoChallenge::asked`] names), the cause.
    Failed(reqwest::Error),
    /// The body broke off: the client's error, the cause.
    BodyBrokeOff(reqwest::Error),
    /// A 5xx: the server failed.
    ServerError(u16),
    /// A final 3xx.
    Redirect(u16, FinalRedirect),
}

/// What a final 3xx was, for [`Unanswered::Redirect`].
#[derive(Debug, PartialEq, Eq)]
pub enum FinalRedirect {
    /// Still redirecting within the origin after
    /// [`MAX_REDIRECTS`](x402_verdict_core::MAX_REDIRECTS) redirects.
    Loop,
    /// A redirect to another origin (this one), not followed.
    OtherOrigin(String),
    /// A redirect without a (usable) `Location`.
    NoLocation,
    /// `304 Not Modified`, to a request that was not conditional.
    NotModified,
    /// Another 3xx that is not a redirect to follow (`300`).
    NotFollowed,
}

impl Unanswered {
    /// The status of the answer that gave no challenge, if one came.
    pub fn status(&self) -> Option<u16> {
        match self {
            Unanswered::ServerError(status) | Unanswered::Redirect(status, _) => Some(*status),
            Unanswered::Timeout(_) | Unanswered::Failed(_) | Unanswered::BodyBrokeOff(_) => None,
        }
    }

    /// Whether it was a redirect to another origin, not followed.
    pub fn is_other_origin(&self) -> bool {
        matches!(self, Unanswered::Redirect(_, FinalRedirect::OtherOrigin(_)))
    }
}

impl fmt::Display for NoChallenge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let asked = &self.asked;
        match &self.why {
            Unanswered::Timeout(ms) => write!(f, "{asked}: no complete answer within {ms} ms"),
            Unanswered::Failed(_) => write!(f, "{asked}: no answer"),
            Unanswered::BodyBrokeOff(_) => write!(f, "{asked}: the body broke off"),
            Unanswered::ServerError(status) => {
                write!(f, "{asked} answered HTTP {status}, a server error")
            }
            Unanswered::Redirect(status, redirect) => {
                write!(f, "{asked} answered HTTP {status}, ")?;
                match redirect {
                    FinalRedirect::Loop => write!(
                        f,
                        "still redirecting after {} redirects (a redirect loop)",
                        x402_verdict_core::MAX_REDIRECTS
                    ),
                    FinalRedirect::OtherOrigin(origin) => {
                        write!(f, "a redirect to another origin ({origin}), not followed")
                    }
                    FinalRedirect::NoLocation => f.write_str("a redirect without a Location"),
                    FinalRedirect::NotModified => {
                        f.write_str("Not Modified, though nothing conditional was asked")
                    }
                    FinalRedirect::NotFollowed => f.write_str("a redirection, not followed"),
                }
            }
        }
    }
}

impl std::error::Error for NoChallenge {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.why {
            Unanswered::Failed(cause) | Unanswered::BodyBrokeOff(cause) => Some(cause),
            _ => None,
        }
    }
}

/// What a final 3xx answer to `first` was.
fn final_redirect(first: &Url, response: &reqwest::Response) -> FinalRedirect {
    let status = response.status();
    if status == StatusCode::NOT_MODIFIED {
        return FinalRedirect::NotModified;
    }
    let followed = is_followed_redirect(status);
    let location = response
        .headers()
        .get(LOCATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| response.url().join(value).ok());
    match location {
        None if followed => FinalRedirect::NoLocation,
        Some(to) if followed && to.origin() != first.origin() => {
            FinalRedirect::OtherOrigin(to.origin().ascii_serialization())
        }
        Some(_) if followed => FinalRedirect::Loop,
        _ => FinalRedirect::NotFollowed,
    }
}

/// What reading a challenge gave.
pub enum Read {
    /// A challenge, and the HTTP status it came with (none from a file or header).
    Challenge(Challenge, Option<u16>),
    /// No payment asked: what was found instead, in a few words.
    NoPayment(String, Option<u16>),
}

/// The result of every option of `challenge`, in its order, looked up at
/// once, and where its verdict came from: a verdict the challenge staples
/// for an option stands in for its request when the core takes it.
pub async fn look_up(verifier: &Verifier, challenge: &Challenge) -> Vec<(Evaluation, Source)> {
    join_all(
        challenge.options.iter().map(|option| {
            verifier.check_stapled(option.endpoint.clone(), option.verdict.as_deref())
        }),
    )
    .await
}

/// The `--json` entry of each option of `challenge` with its result (from
/// [`look_up`]): the option's members, `result` and `verdictFrom`.
pub fn option_entries(challenge: &Challenge, results: &[(Evaluation, Source)]) -> Vec<Value> {
    challenge
        .options
        .iter()
        .zip(results)
        .map(|(option, (result, source))| {
            let mut entry = serde_json::to_value(option).unwrap_or_default();
            entry["result"] = serde_json::to_value(result).unwrap_or_default();
            entry[SOURCE_MEMBER] = json!(source.as_str());
            entry
        })
        .collect()
}

/// The line `check` prints (and the MCP server's `check_payment_required`
/// writes) for `option` and its `result`: the option's
/// terms, then the result's text line.
pub fn option_line(option: &PaymentOption, result: &Evaluation) -> String {
    let e = &option.endpoint;
    format!(
        "network {}, asset {}, amount {}, payTo {}, scheme {}, resource {}: {}",
        e.chain(),
        option.asset,
        option.amount,
        e.pay_to(),
        option.scheme,
        e.resource_url(),
        result.text_line()
    )
}

/// A paid resource to ask for its challenge: its URL and method.
pub struct Resource {
    url: Url,
    method: Method,
    /// Its method and URL as parsed (control characters percent-encoded),
    /// never the argument as given: `GET https://…`, which every line names.
    pub asked: String,
}

impl Resource {
    /// `url` asked with `method`.
    ///
    /// # Errors
    ///
    /// [`AskError::NotHttp`]: not an absolute http(s) URL.
    pub fn parse(url: &str, method: Method) -> Result<Self, AskError> {
        let parsed = Url::parse(url)
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https"))
            .ok_or_else(|| AskError::NotHttp(url.to_owned()))?;
        let verb = match method {
            Method::Get => "GET",
            Method::Post => "POST",
        };
        Ok(Resource {
            asked: format!("{verb} {parsed}"),
            url: parsed,
            method,
        })
    }

    /// Its origin (scheme, host and port), which `scan --live` is polite to.
    pub fn origin(&self) -> String {
        self.url.origin().ascii_serialization()
    }

    /// Asks it with `client` (one of [`http_client`](crate::http_client)'s)
    /// for its challenge, as `check URL` does: within `timeout_ms`, without
    /// paying.
    ///
    /// # Errors
    ///
    /// [`AskError::NoChallenge`] when it gave none, another when what it
    /// gave cannot be read.
    pub async fn ask_within(
        &self,
        client: &reqwest::Client,
        timeout_ms: u32,
    ) -> Result<Read, AskError> {
        let timeout = Duration::from_millis(timeout_ms.into());
        let asking = ask(client, &self.asked, self.url.clone(), self.method);
        match tokio::time::timeout(timeout, asking).await {
            Ok(read) => read,
            Err(_) => Err(AskError::NoChallenge(NoChallenge {
                asked: self.asked.clone(),
                why: Unanswered::Timeout(timeout_ms),
            })),
        }
    }
}

/// Asks the resource (`asked` is its method and URL, for messages) without
/// paying: no payment header, no credentials, no redirect to another
/// origin, at most 64 KiB of body.
async fn ask(
    client: &reqwest::Client,
    asked: &str,
    url: Url,
    method: Method,
) -> Result<Read, AskError> {
    let unanswered = |why| {
        AskError::NoChallenge(NoChallenge {
            asked: asked.to_owned(),
            why,
        })
    };
    let request = match method {
        Method::Get => client.get(url.clone()),
        Method::Post => client.post(url.clone()),
    };
    let mut response = request
        .header(ACCEPT, "application/json")
        .send()
        .await
        .map_err(|e| unanswered(Unanswered::Failed(e.without_url())))?;
    let status = response.status();
    if status.is_redirection() {
        let what = final_redirect(&url, &response);
        return Err(unanswered(Unanswered::Redirect(status.as_u16(), what)));
    }
    if status.is_server_error() {
        return Err(unanswered(Unanswered::ServerError(status.as_u16())));
    }
    if status.as_u16() != 402 {
        return Ok(Read::NoPayment(
            format!("{asked} answered HTTP {}", status.as_u16()),
            Some(status.as_u16()),
        ));
    }
    let mut headers = response.headers().get_all(PAYMENT_REQUIRED_HEADER).iter();
    let header = match (headers.next(), headers.next()) {
        (Some(_), Some(_)) => return Err(AskError::SeveralHeaders(asked.to_owned())),
        (one, _) => one
            .map(|value| value.to_str().map(str::to_owned))
            .transpose()
            .map_err(|source| AskError::HeaderNotAscii {
                asked: asked.to_owned(),
                source,
            })?,
    };
    let mut body = Vec::new();
    let mut too_large = false;
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| unanswered(Unanswered::BodyBrokeOff(e.without_url())))?
    {
        if body.len() + chunk.len() > MAX_CHALLENGE_BYTES {
            too_large = true;
            break;
        }
        body.extend_from_slice(&chunk);
    }
    if too_large {
        if header.is_none() {
            return Err(AskError::BodyTooLarge(asked.to_owned()));
        }
        // The header holds the challenge; an oversized body is not read.
        body.clear();
    }
    Challenge::from_http(header.as_deref(), &body)
        .map(|c| Read::Challenge(c, Some(402)))
        .map_err(|problem| AskError::Unreadable {
            asked: asked.to_owned(),
            problem,
        })
}
