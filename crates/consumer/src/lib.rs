//! The native consumer of x402 verification verdicts: fetches one verdict
//! (whole-exchange timeout, 64 KiB cap, no credentials, no redirect to
//! another origin) and hands what it got to the core, which decides
//! everything. The `x402-verdict` command and the Python package
//! (`x402_verdict`) share it: one HTTP client, its rules written once; and
//! the politeness of a command that asks many resources at once
//! ([`polite`]); and the 402 reader, which asks a paid resource for its
//! challenge without paying and looks up every option it accepts
//! ([`challenge`]).

pub mod challenge;
pub mod polite;

mod kept;
mod paying;
mod stapling;

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use futures_util::future::FutureExt;
use reqwest::redirect::Policy;
use x402_verdict_core::staple::Source;
use x402_verdict_core::{
    check_timeout_ms, BaseUrl, Endpoint, Evaluation, FetchFailure, Lookup, Response, TimeoutError,
    Timestamp, TrustedKeys, MAX_BODY_BYTES, MAX_REDIRECTS, VERDICT_MEDIA_TYPE,
};

use kept::{Answer, Kept};

/// The HTTP client cannot start (its TLS back end, reached by `source()`).
#[derive(Debug, thiserror::Error)]
#[error("cannot start the HTTP client")]
pub struct HttpClientError(#[source] reqwest::Error);

/// A timeout (`--timeout-ms`, `VERIFICATION_TIMEOUT_MS`) that is not one.
#[derive(Debug, thiserror::Error)]
pub enum TimeoutArgError {
    /// Not a whole number at all.
    #[error("must be a whole number")]
    NotANumber,
    /// A whole number out of range.
    #[error(transparent)]
    OutOfRange(#[from] TimeoutError),
}

/// Parses a whole-exchange timeout in milliseconds (1 to 60000).
///
/// # Errors
///
/// Not a whole number, or out of range.
pub fn parse_timeout(text: &str) -> Result<u32, TimeoutArgError> {
    let ms = text
        .parse::<u64>()
        .map_err(|_| TimeoutArgError::NotANumber)?;
    Ok(check_timeout_ms(ms)?)
}

/// An error and each of its causes, one after the other, as the command
/// and the Python package show them: `registry.json: No such file or
/// directory (os error 2)`, each level's `Display` followed by its
/// `source()`'s (the project's error convention: docs/building.md,
/// "Conventions"). For the core's errors this is the line the core writes
/// itself (`x402_verdict_core::line`).
pub fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The HTTP client of every native consumer: no cookies or credentials,
/// redirects followed within the first URL's origin only (at most 5), each
/// request naming the tool and its version (`User-Agent:
/// x402-verdict/0.1.0`).
///
/// # Errors
///
/// When the TLS back end cannot start.
pub fn http_client() -> Result<reqwest::Client, HttpClientError> {
    client_builder().build().map_err(HttpClientError)
}

/// [`http_client`], keeping no connection once its answer is read: for
/// reads of many origins (`scan --live`), so that the connections open
/// stay within the reads in flight, however many origins are read.
///
/// # Errors
///
/// When the TLS back end cannot start.
pub fn http_client_unpooled() -> Result<reqwest::Client, HttpClientError> {
    client_builder()
        .pool_max_idle_per_host(0)
        .build()
        .map_err(HttpClientError)
}

/// The settings of [`http_client`].
fn client_builder() -> reqwest::ClientBuilder {
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
}

/// Whether an answer of `status` is a redirect that [`http_client`] follows
/// when it carries a `Location` (within the first URL's origin): 301, 302,
/// 303, 307 and 308. Any other 3xx (300, 304) is an answer as it stands.
pub fn is_followed_redirect(status: reqwest::StatusCode) -> bool {
    matches!(status.as_u16(), 301 | 302 | 303 | 307 | 308)
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
    /// The answers kept for reuse ([`Verifier::keeping_answers`]), shared by
    /// the verifier's clones.
    kept: Option<Arc<Kept>>,
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
            kept: None,
        })
    }

    /// This verifier, keeping each answer it receives for as long as the
    /// service's `Cache-Control` allows (at most an hour): a lookup of an
    /// endpoint whose answer is kept asks nothing, and evaluates the kept
    /// answer anew against its keys and the clock; lookups of one endpoint
    /// at once (by this verifier and its clones) share one request.
    #[must_use]
    pub fn keeping_answers(mut self) -> Self {
        self.kept = Some(Arc::default());
        self
    }

    /// Looks `endpoint` up and evaluates the answer now. Never fails: every
    /// failure is an `unknown` result.
    pub async fn check(&self, endpoint: Endpoint) -> Evaluation {
        let Some(base_url) = &self.base_url else {
            return Evaluation::no_service();
        };
        let answer = self.answer(base_url.verdict_url(&endpoint)).await;
        judge(&self.lookup(endpoint), &answer)
    }

    /// The answer to a GET of `url` within the timeout: the one kept, when
    /// this verifier keeps answers and one may be reused; else a request,
    /// shared by the lookups of `url` at once and kept as its
    /// `Cache-Control` allows.
    async fn answer(&self, url: String) -> Result<Answer, FetchError> {
        let (client, timeout) = (self.client.clone(), self.timeout);
        let Some(kept) = &self.kept else {
            return fetch_kept(client, url, timeout, None).await;
        };
        if let Some(answer) = kept.get(&url) {
            return Ok(answer);
        }
        let start = || fetch_kept(client, url.clone(), timeout, Some(Arc::clone(kept)));
        kept.asking(&url, || start().boxed().shared()).await
    }

    /// Looks `endpoint` up as [`Verifier::check`] does, unless `stapled`
    /// (the verdict document its 402 staples for it, as JSON text:
    /// [`PaymentOption::verdict`](x402_verdict_core::PaymentOption::verdict))
    /// stands in for the request under the core's rule
    /// ([`Lookup::evaluate_inlined`]: the bounds of a fetched body, a
    /// `valid` signature under this verifier's keys, at most 300 s old):
    /// the result, and where its verdict came from. A stapled verdict that
    /// does not stand in is ignored, as if none were stapled.
    pub async fn check_stapled(
        &self,
        endpoint: Endpoint,
        stapled: Option<&str>,
    ) -> (Evaluation, Source) {
        let lookup = self.lookup(endpoint);
        if let Some(result) = stapled.and_then(|text| lookup.evaluate_inlined(text, now())) {
            return (result, Source::Stapled);
        }
        (self.check(lookup.endpoint).await, Source::Fetched)
    }

    /// The lookup of `endpoint` under this verifier's keys and strictness.
    fn lookup(&self, endpoint: Endpoint) -> Lookup {
        Lookup {
            endpoint,
            keys: self.keys.clone(),
            strict: self.strict,
        }
    }

    /// GETs `url` as JSON with this verifier's client: the status and up
    /// to `cap` bytes of body. The caller bounds the exchange in time.
    ///
    /// # Errors
    ///
    /// As [`fetch_capped`].
    pub async fn get_json(&self, url: &str, cap: usize) -> Result<(u16, Vec<u8>), FetchError> {
        fetch_capped(&self.client, url, "application/json", cap).await
    }
}

/// The current time, as the core reads it.
fn now() -> Timestamp {
    Timestamp::from_system_time(SystemTime::now())
}

/// `lookup`'s result for `answer`, now.
fn judge(lookup: &Lookup, answer: &Result<Answer, FetchError>) -> Evaluation {
    let response = match answer {
        Err(failed) => failed.response(),
        Ok(answer) => answer.response(),
    };
    lookup.evaluate(response, now())
}

/// GETs `url` (a verdict, or the keys document) within `timeout`; with
/// `kept`, keeps the answer when its `Cache-Control` allows, and ends the
/// request shared under `url`.
async fn fetch_kept(
    client: reqwest::Client,
    url: String,
    timeout: Duration,
    kept: Option<Arc<Kept>>,
) -> Result<Answer, FetchError> {
    let fetched = tokio::time::timeout(
        timeout,
        fetch(&client, &url, VERDICT_MEDIA_TYPE, MAX_BODY_BYTES),
    )
    .await
    .map_err(|_| FetchError::from(FetchFailure::Timeout))
    .and_then(|fetched| fetched);
    let answered = fetched.map(|r| Answer::new(r.status, r.body, &r.cache_control));
    if let Some(kept) = kept {
        if let Ok((answer, reuse)) = &answered {
            if *reuse > 0 {
                kept.keep(&url, answer.clone());
            }
        }
        kept.answered(&url);
    }
    answered.map(|(answer, _)| answer)
}

/// What a GET received: the status, the `Cache-Control` (empty when
/// absent) and the body.
struct Received {
    status: u16,
    cache_control: String,
    body: Vec<u8>,
}

/// Why a GET got no HTTP answer, and the HTTP client's own words about it:
/// what the core's [`Response::Failed`] carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchError {
    /// Why, as the core reads it.
    pub failure: FetchFailure,
    /// The client's error and its causes ([`error_chain`]), without the
    /// URL, which the caller knows: `error sending request: client error
    /// (Connect): tcp connect error: Connection refused (os error 111)`.
    /// None for a timeout, a refused redirect or a body over the cap.
    pub detail: Option<String>,
}

impl FetchError {
    /// The exchange failed (refused, reset, DNS, TLS, a body that broke
    /// off): `error`, in the client's words.
    fn network(error: reqwest::Error) -> Self {
        FetchError {
            failure: FetchFailure::Network,
            detail: Some(error_chain(&error.without_url())),
        }
    }

    /// As the core reads it.
    pub fn response(&self) -> Response<'_> {
        Response::Failed(self.failure, self.detail.as_deref())
    }
}

impl From<FetchFailure> for FetchError {
    /// A failure the client has no words for.
    fn from(failure: FetchFailure) -> Self {
        FetchError {
            failure,
            detail: None,
        }
    }
}

/// The body of `response`, at most `cap` bytes (its `Content-Length`
/// checked before any is read). The caller bounds the time.
///
/// # Errors
///
/// A body over the cap, or one that broke off.
pub async fn body_capped(
    mut response: reqwest::Response,
    cap: usize,
) -> Result<Vec<u8>, FetchError> {
    if response.content_length().is_some_and(|n| n > cap as u64) {
        return Err(FetchFailure::TooLarge.into());
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(FetchError::network)? {
        if body.len() + chunk.len() > cap {
            return Err(FetchFailure::TooLarge.into());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// GETs `url` accepting `accept`: the status and up to `cap` bytes of body.
/// The caller bounds the whole exchange with its timeout.
///
/// # Errors
///
/// A network failure (with the client's words), a refused redirect or a
/// body over the cap.
pub async fn fetch_capped(
    client: &reqwest::Client,
    url: &str,
    accept: &str,
    cap: usize,
) -> Result<(u16, Vec<u8>), FetchError> {
    let fetched = fetch(client, url, accept, cap).await?;
    Ok((fetched.status, fetched.body))
}

/// [`fetch_capped`], with the answer's `Cache-Control`.
async fn fetch(
    client: &reqwest::Client,
    url: &str,
    accept: &str,
    cap: usize,
) -> Result<Received, FetchError> {
    let response = client
        .get(url)
        .header(reqwest::header::ACCEPT, accept)
        .send()
        .await
        .map_err(FetchError::network)?;
    let status = response.status();
    // A redirect the policy refused is handed back as it came; any other 3xx
    // (304, 300, or a redirect without a Location) is a status.
    let followable = is_followed_redirect(status);
    if followable && response.headers().contains_key(reqwest::header::LOCATION) {
        return Err(FetchFailure::Redirected.into());
    }
    let cache_control = response
        .headers()
        .get(reqwest::header::CACHE_CONTROL)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let body = body_capped(response, cap).await?;
    Ok(Received {
        status: status.as_u16(),
        cache_control,
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A level and its cause, as this project writes errors.
    #[derive(Debug, thiserror::Error)]
    #[error("registry.json")]
    struct Level(#[source] std::io::Error);

    /// A level above that one.
    #[derive(Debug, thiserror::Error)]
    #[error("serve")]
    struct Outer(#[source] Level);

    #[test]
    fn an_error_chain_shows_each_level_and_its_causes() {
        let missing = || std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        assert_eq!(
            error_chain(&Level(missing())),
            "registry.json: no such file"
        );
        assert_eq!(
            error_chain(&Outer(Level(missing()))),
            "serve: registry.json: no such file"
        );
    }

    /// `error_chain` of a core error is the core's own line of it, the
    /// badge's: for an error of each type that wraps another, its cause
    /// written once, after its own level's words.
    #[test]
    fn an_error_chain_of_a_core_error_is_the_cores_line() {
        use x402_verdict_core::json::{parse_strict, Object, ObjectError};
        use x402_verdict_core::{
            line, Challenge, ChallengeError, ChallengeRule, ErrorChain, ItemError, ItemRule, KeyAt,
            KeyError, KeysError, OptionError, OptionRule, OptionsError, Page, PageError,
            VerdictDocument, VerdictError, Within,
        };

        /// Both printers agree, and write `expected`.
        fn agree<E: ErrorChain + std::error::Error + 'static>(e: &E, expected: &str) {
            assert_eq!(error_chain(e), line(e), "{e:?}");
            assert_eq!(line(e), expected, "{e:?}");
        }
        fn wraps<E: ErrorChain + std::error::Error + 'static>(e: &E) {
            assert!(e.source().is_some() && e.wrapped().is_some(), "{e:?}");
        }

        let e: VerdictError = VerdictDocument::parse(b"{").unwrap_err();
        wraps(&e);
        assert_eq!(e.to_string(), "not strict JSON");
        agree(&e, "not strict JSON: expected a member name at byte 1");

        let e: ObjectError = Object::parse(b"{} x").unwrap_err();
        wraps(&e);
        agree(&e, "not strict JSON: trailing characters at byte 3");

        let unended = || parse_strict(b"[").unwrap_err();
        let e = ChallengeError {
            within: Some(Within::Body),
            rule: ChallengeRule::NotJson(unended()),
        };
        wraps(&e);
        assert_eq!(e.to_string(), "the body: not strict JSON");
        agree(
            &e,
            "the body: not strict JSON: unexpected end of input at byte 1",
        );
        let e = Challenge::from_json(b"{\"x402Version\": 2,}").unwrap_err();
        agree(&e, "not strict JSON: expected a member name at byte 18");

        let e: PageError = Page::from_json(b"[").unwrap_err();
        wraps(&e);
        agree(
            &e,
            "the listing page is not strict JSON: unexpected end of input at byte 1",
        );

        let e = ItemError {
            index: 3,
            resource: Some("https://a.example/x".into()),
            rule: ItemRule::Challenge(ChallengeRule::NotJson(unended())),
        };
        wraps(&e);
        agree(
            &e,
            "items[3] (https://a.example/x): not strict JSON: unexpected end of input at byte 1",
        );
        let e = Page::from_json(br#"{"items": [5, {}]}"#).unwrap().items[1]
            .clone()
            .unwrap_err();
        agree(&e, "items[1]: resource is missing");

        let keys = KeysError::Key {
            at: KeyAt::Only,
            problem: KeyError::NotBase64,
        };
        let e = OptionError {
            option: "publicKey",
            rule: OptionRule::Keys(keys),
        };
        wraps(&e);
        assert_eq!(e.to_string(), "publicKey");
        agree(&e, "publicKey: the public key is not base64");

        // A list of options is one level, each option written as its line.
        let e = OptionsError::Invalid(vec![
            e,
            OptionError {
                option: "payTo",
                rule: OptionRule::Missing,
            },
        ]);
        agree(
            &e,
            "publicKey: the public key is not base64; payTo is missing",
        );
        // A rule that completes its error's sentence is no cause.
        agree(&keys, "the public key is not base64");
    }
}
