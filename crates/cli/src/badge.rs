//! `x402-verdict check --badge FILE|URL`: the verdict an image badge
//! carries, checked under the consumer's keys as `lookup` checks a fetched
//! one, taken only when the picture is the one that verdict draws
//! ([`x402_verdict_core::image::read`]). A badge fetched by its URL is
//! also held to the endpoint its URL names.

use std::path::PathBuf;
use std::time::Duration;

use reqwest::header::ACCEPT;
use reqwest::Url;
use serde_json::json;
use x402_verdict_core::image::{self, Carried, MAX_IMAGE_BYTES};
use x402_verdict_core::{
    line, Endpoint, Evaluation, Lookup, Outcome, Reason, Response, Timestamp, TrustedKeys,
    VerdictDocument,
};

use crate::lookup::TrustArgs;
use crate::out::say;

/// Why `check --badge` could not read a badge at all (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum BadgeError {
    /// The file cannot be read.
    #[error("{}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A transparency setting is not one.
    #[error(transparent)]
    Log(#[from] crate::lookup::LogArgsError),
    /// No key to check it under.
    #[error("--badge needs --public-key or --root-key: an image badge is checked under the keys you trust")]
    NoKeys,
    /// The URL could not be fetched.
    #[error("{url}: no answer")]
    Unfetched {
        /// The URL.
        url: String,
        /// The client's error.
        source: reqwest::Error,
    },
    /// No complete answer in time.
    #[error("{url}: no complete answer within {ms} ms")]
    Timeout {
        /// The URL.
        url: String,
        /// The timeout.
        ms: u32,
    },
    /// The HTTP client cannot start.
    #[error(transparent)]
    Client(#[from] x402_verdict_consumer::HttpClientError),
}

/// The endpoint a badge URL's query names, if it names one.
fn endpoint_in(url: &Url) -> Option<Endpoint> {
    let one = |name: &str| {
        let mut values = url.query_pairs().filter(|(k, _)| k == name).map(|(_, v)| v);
        match (values.next(), values.next()) {
            (Some(v), None) => Some(v.into_owned()),
            _ => None,
        }
    };
    Endpoint::new(&one("chain")?, &one("payTo")?, &one("resourceUrl")?).ok()
}

/// The badge's bytes: the file's, or the URL's answer (at most one byte
/// more than an image badge may hold, so that a larger one is refused).
async fn fetch(source: &str, timeout_ms: u32) -> Result<(Vec<u8>, Option<Endpoint>), BadgeError> {
    let Some(url) = Url::parse(source)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
    else {
        let path = PathBuf::from(source);
        let bytes =
            std::fs::read(&path).map_err(|source| BadgeError::Unreadable { path, source })?;
        return Ok((bytes, None));
    };
    let shown = url.to_string();
    let unfetched = |source| BadgeError::Unfetched {
        url: shown.clone(),
        source,
    };
    let client = x402_verdict_consumer::http_client()?;
    let reading = async {
        let mut response = client
            .get(url.clone())
            .header(ACCEPT, "image/svg+xml")
            .send()
            .await
            .map_err(|e| unfetched(e.without_url()))?;
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| unfetched(e.without_url()))?
        {
            body.extend_from_slice(&chunk);
            if body.len() > MAX_IMAGE_BYTES {
                break;
            }
        }
        Ok::<_, BadgeError>(body)
    };
    let timeout = Duration::from_millis(timeout_ms.into());
    let body =
        tokio::time::timeout(timeout, reading)
            .await
            .map_err(|_| BadgeError::Timeout {
                url: shown.clone(),
                ms: timeout_ms,
            })??;
    Ok((body, endpoint_in(&url)))
}

/// What the badge's verdict reads at `now` under `keys`, and the endpoint
/// it is about: an image whose picture disagrees with its verdict, or
/// about another endpoint than `expected`, reads unknown.
pub fn evaluate(
    svg: &[u8],
    expected: Option<&Endpoint>,
    keys: &TrustedKeys,
    now: Timestamp,
) -> (Option<Endpoint>, Evaluation) {
    let refused = |detail: String| {
        Evaluation::without_verdict(Outcome::NoResponse, Reason::Malformed, Some(detail))
    };
    let carried: Carried = match image::read(svg, keys) {
        Ok(Some(carried)) => carried,
        Ok(None) => return (expected.cloned(), image::evaluation(None, keys)),
        Err(e) => {
            return (
                expected.cloned(),
                refused(format!("the image {}", line(&e))),
            )
        }
    };
    let about = VerdictDocument::parse(carried.document.as_bytes())
        .ok()
        .and_then(|d| {
            Endpoint::new(&d.verdict.chain, &d.verdict.pay_to, &d.verdict.resource_url).ok()
        });
    let Some(about) = about else {
        return (expected.cloned(), image::evaluation(Some(&carried), keys));
    };
    let lookup = Lookup {
        endpoint: expected.cloned().unwrap_or_else(|| about.clone()),
        keys: keys.clone(),
        strict: true,
    };
    let body = carried.document.as_bytes();
    (
        Some(about),
        lookup.evaluate(Response::Http { status: 200, body }, now),
    )
}

/// `check --badge SOURCE`: prints what the badge is about and its result,
/// as `lookup` does (`--json`: `{"about": …, "result": …}`).
///
/// # Errors
///
/// The badge cannot be read or fetched, or no key is given.
pub async fn check_badge(source: &str, trust: &TrustArgs, as_json: bool) -> Result<(), BadgeError> {
    let keys = trust.keys()?;
    if keys.is_empty() {
        return Err(BadgeError::NoKeys);
    }
    let (svg, expected) = fetch(source, trust.timeout_ms).await?;
    let now = Timestamp::from_system_time(std::time::SystemTime::now());
    let (about, result) = evaluate(&svg, expected.as_ref(), &keys, now);
    if as_json {
        let about = about.map(
            |e| json!({ "chain": e.chain(), "payTo": e.pay_to(), "resourceUrl": e.resource_url() }),
        );
        say!("{}", json!({ "about": about, "result": result }));
    } else {
        match about {
            Some(e) => say!(
                "network {}, payTo {}, resource {}: {}",
                e.chain(),
                e.pay_to(),
                e.resource_url(),
                result.text_line()
            ),
            None => say!("no endpoint named: {}", result.text_line()),
        }
    }
    Ok(())
}
