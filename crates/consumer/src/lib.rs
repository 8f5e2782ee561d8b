//! The native consumer of x402 verification verdicts: fetches one verdict
//! (whole-exchange timeout, 64 KiB cap, no credentials, no redirect to
//! another origin) and hands what it got to the core, which decides
//! everything. The `x402-verdict` command and the Python package
//! (`x402_verdict`) share it: one HTTP client, its rules written once.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::time::{Duration, SystemTime};

use reqwest::redirect::Policy;
use x402_verdict_core::{
    BaseUrl, Endpoint, Evaluation, FetchFailure, Lookup, Response, Timestamp, TrustedKeys,
    MAX_BODY_BYTES, MAX_REDIRECTS, VERDICT_MEDIA_TYPE,
};

/// The HTTP client cannot start (its TLS back end).
#[derive(Debug, thiserror::Error)]
#[error("cannot start the HTTP client: {0}")]
pub struct HttpClientError(#[source] reqwest::Error);

/// The HTTP client of every native consumer: no cookies or credentials,
/// redirects followed within the first URL's origin only (at most 5).
///
/// # Errors
///
/// When the TLS back end cannot start.
pub fn http_client() -> Result<reqwest::Client, HttpClientError> {
    reqwest::Client::builder()
        .redirect(Policy::custom(|attempt| {
            let same_origin = attempt
                .previous()
                .first()
                .is_some_and(|first| first.origin() == attempt.url().origin());
            // `previous` holds every URL asked so far, the first included.
            if attempt.previous().len() > MAX_REDIRECTS || !same_origin {
                attempt.stop()
            } else {
                attempt.follow()
            }
        }))
        .user_agent(concat!("x402-verdict/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(HttpClientError)
}

/// Everything needed to look endpoints up against one service.
#[derive(Clone, Debug)]
pub struct Verifier {
    /// The service; `None` answers `no_service`.
    pub base_url: Option<BaseUrl>,
    /// The configured public keys.
    pub keys: TrustedKeys,
    /// Strict mode.
    pub strict: bool,
    /// The whole-exchange timeout.
    pub timeout: Duration,
    client: reqwest::Client,
}

impl Verifier {
    /// A verifier with its own HTTP client.
    ///
    /// # Errors
    ///
    /// When the TLS back end cannot start.
    pub fn new(
        base_url: Option<BaseUrl>,
        keys: TrustedKeys,
        strict: bool,
        timeout_ms: u32,
    ) -> Result<Self, HttpClientError> {
        let client = http_client()?;
        Ok(Verifier {
            base_url,
            keys,
            strict,
            timeout: Duration::from_millis(timeout_ms.into()),
            client,
        })
    }

    /// Looks `endpoint` up and evaluates the answer now. Never fails: every
    /// failure is an `unknown` result.
    pub async fn check(&self, endpoint: Endpoint) -> Evaluation {
        let Some(base_url) = &self.base_url else {
            return Evaluation::no_service();
        };
        let url = base_url.verdict_url(&endpoint);
        let lookup = Lookup {
            endpoint,
            keys: self.keys.clone(),
            strict: self.strict,
        };
        let fetched = tokio::time::timeout(
            self.timeout,
            fetch_capped(&self.client, &url, VERDICT_MEDIA_TYPE, MAX_BODY_BYTES),
        )
        .await;
        let now = Timestamp::from_system_time(SystemTime::now());
        match fetched {
            Err(_) => lookup.evaluate(Response::Failed(FetchFailure::Timeout), now),
            Ok(Err(failure)) => lookup.evaluate(Response::Failed(failure), now),
            Ok(Ok((status, body))) => lookup.evaluate(
                Response::Http {
                    status,
                    body: &body,
                },
                now,
            ),
        }
    }

    /// GETs `url` as JSON with this verifier's client: the status and up
    /// to `cap` bytes of body. The caller bounds the exchange in time.
    ///
    /// # Errors
    ///
    /// As [`fetch_capped`].
    pub async fn get_json(&self, url: &str, cap: usize) -> Result<(u16, Vec<u8>), FetchFailure> {
        fetch_capped(&self.client, url, "application/json", cap).await
    }
}

/// GETs `url` accepting `accept`: the status and up to `cap` bytes of body.
/// The caller bounds the whole exchange with its timeout.
///
/// # Errors
///
/// A network failure, a refused redirect or a body over the cap.
pub async fn fetch_capped(
    client: &reqwest::Client,
    url: &str,
    accept: &str,
    cap: usize,
) -> Result<(u16, Vec<u8>), FetchFailure> {
    let mut response = client
        .get(url)
        .header(reqwest::header::ACCEPT, accept)
        .send()
        .await
        .map_err(|_| FetchFailure::Network)?;
    let status = response.status();
    // A redirect the policy refused is handed back as it came; any other 3xx
    // (304, 300, or a redirect without a Location) is a status.
    let followable = matches!(status.as_u16(), 301 | 302 | 303 | 307 | 308);
    if followable && response.headers().contains_key(reqwest::header::LOCATION) {
        return Err(FetchFailure::Redirected);
    }
    if response.content_length().is_some_and(|n| n > cap as u64) {
        return Err(FetchFailure::TooLarge);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|_| FetchFailure::Network)? {
        if body.len() + chunk.len() > cap {
            return Err(FetchFailure::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok((status.as_u16(), body))
}
