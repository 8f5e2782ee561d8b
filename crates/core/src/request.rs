//! The request side of a lookup: the service's base URL and the URLs built
//! from it (protocol section 2), and the limits every fetcher applies.

use std::fmt;

use crate::encoding::push_hex;
use crate::endpoint::{Endpoint, EndpointError};
use crate::writing::{error_without_cause, words_from_str};

/// The default time a lookup may take, connect to last body byte.
pub const DEFAULT_TIMEOUT_MS: u32 = 3000;
/// The longest timeout a consumer accepts.
pub const MAX_TIMEOUT_MS: u32 = 60_000;
/// The largest response body a consumer reads; a larger one is abandoned.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// What a verdict request asks for (its `Accept` header), from every fetcher.
pub const VERDICT_MEDIA_TYPE: &str = "application/json";
/// The most redirects (within the base URL's origin) a native fetcher follows.
pub const MAX_REDIRECTS: usize = 5;
/// The longest base URL accepted.
pub const MAX_BASE_URL_BYTES: usize = 2048;

/// `value` appended to `url` as `encodeURIComponent` writes it: every
/// byte of its UTF-8 but ASCII letters, digits and `-_.!~*'()` as `%XX`
/// (upper-case hex). Written here rather than with `percent_encoding`,
/// whose table of every `%XX` is 0.4 KB (gzip) of the badge's wasm; a test
/// holds the two equal.
pub(crate) fn encode_component(url: &mut String, value: &str) {
    for &byte in value.as_bytes() {
        let unreserved = matches!(
            byte,
            b'-' | b'_' | b'.' | b'!' | b'~' | b'*' | b'\'' | b'(' | b')'
        );
        if byte.is_ascii_alphanumeric() || unreserved {
            url.push(char::from(byte));
        } else {
            url.push('%');
            push_hex(url, byte, true);
        }
    }
}

/// The path of the verdict route under a service's base URL (a macro, so
/// that [`VERDICT_URL`] is one literal written from it).
macro_rules! verdict_path {
    () => {
        "/v0/verdict"
    };
}

/// Where a service answers verdicts, under its base URL (the route the
/// reference service serves; [`VERDICT_URL`] asks it).
pub const VERDICT_PATH: &str = verdict_path!();

/// How [`BaseUrl::verdict_url`] builds a verdict's URL, for the browser
/// package's loader, which starts the first requests before the wasm has
/// loaded (the wasm takes a request only when its URL is exactly the one it
/// built): `{base}` is the base URL without its trailing slash, and each
/// other placeholder the option of that name as `encodeURIComponent` encodes it.
pub const VERDICT_URL: &str = concat!(
    "{base}",
    verdict_path!(),
    "?chain={chain}&payTo={payTo}&resourceUrl={resourceUrl}"
);

/// Where a service publishes its verification keys, under its base URL.
pub const KEYS_PATH: &str = "/v0/verification-keys";

/// Where a service answers image badges, under its base URL.
pub const IMAGE_PATH: &str = "/v0/badge.svg";

/// Where a service publishes its metrics, under its base URL.
pub const METRICS_PATH: &str = "/v0/metrics";

/// The base URL of a verification service's free path, without a trailing slash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseUrl(String);

impl BaseUrl {
    /// Accepts an absolute `http://` or `https://` URL with a host and no
    /// query, fragment, whitespace or control character; one trailing slash
    /// is dropped so that paths never read `//v0`.
    ///
    /// # Errors
    ///
    /// The first rule `text` breaks.
    pub fn parse(text: &str) -> Result<Self, BaseUrlError> {
        if text.is_empty() {
            return Err(BaseUrlError::Empty);
        }
        if text.len() > MAX_BASE_URL_BYTES {
            return Err(BaseUrlError::TooLong);
        }
        let rest = text
            .strip_prefix("https://")
            .or_else(|| text.strip_prefix("http://"))
            .ok_or(BaseUrlError::NotHttp)?;
        if matches!(rest.as_bytes().first(), None | Some(b'/')) {
            return Err(BaseUrlError::NoHost);
        }
        if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(BaseUrlError::Whitespace);
        }
        if text.bytes().any(|b| b == b'?' || b == b'#') {
            return Err(BaseUrlError::QueryOrFragment);
        }
        if text.bytes().any(|b| b == b'@') {
            return Err(BaseUrlError::Credentials);
        }
        Ok(BaseUrl(text.strip_suffix("/").unwrap_or(text).to_owned()))
    }

    /// `{base}/v0/verdict?chain=…&payTo=…&resourceUrl=…`, each value encoded as
    /// `encodeURIComponent` would: [`VERDICT_URL`] filled in (written piece
    /// by piece, for the wasm's size; a test holds the two equal).
    pub fn verdict_url(&self, endpoint: &Endpoint) -> String {
        let mut url = self.0.clone();
        for (name, value) in [
            (concat!(verdict_path!(), "?chain="), endpoint.chain()),
            ("&payTo=", endpoint.pay_to()),
            ("&resourceUrl=", endpoint.resource_url()),
        ] {
            url.push_str(name);
            encode_component(&mut url, value);
        }
        url
    }

    /// `{base}/v0/metrics`: the published metrics document.
    pub fn metrics_url(&self) -> String {
        self.0.clone() + METRICS_PATH
    }

    /// `{base}/v0/verification-keys`: the service's published keys.
    pub fn keys_url(&self) -> String {
        self.0.clone() + KEYS_PATH
    }

    /// The URL of a facilitator's discovery listing page (x402's bazaar
    /// extension): at most `limit` items after the first `offset`.
    pub fn discovery_url(&self, limit: u64, offset: u64) -> String {
        crate::writing::text!(
            "{}/discovery/resources?limit={}&offset={}",
            self.0,
            limit,
            offset
        )
    }

    /// The scheme, host and port: the origin a fetcher may follow redirects within.
    pub fn origin(&self) -> &str {
        // A checked base URL starts with `http://` or `https://`; the host
        // and port run to the next '/', if any.
        let start = if self.0.starts_with("https://") { 8 } else { 7 };
        let end = self.0.bytes().skip(start).position(|b| b == b'/');
        self.0
            .get(..end.map_or(self.0.len(), |i| start + i))
            .unwrap_or(&self.0)
    }
}

impl fmt::Display for BaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a base URL is refused, by [`BaseUrl::parse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseUrlError {
    /// It is the empty string.
    Empty,
    /// It is longer than [`MAX_BASE_URL_BYTES`].
    TooLong,
    /// It does not start with `http://` or `https://`.
    NotHttp,
    /// Nothing follows the scheme, or a path does.
    NoHost,
    /// It holds whitespace or a control character.
    Whitespace,
    /// It has a `?` or a `#`.
    QueryOrFragment,
    /// It has user information (`@`).
    Credentials,
}

impl BaseUrlError {
    /// The rule, as a predicate (`is empty`): callers name the URL.
    pub fn as_str(self) -> &'static str {
        match self {
            BaseUrlError::Empty => "is empty",
            BaseUrlError::TooLong => "is longer than 2048 bytes",
            BaseUrlError::NotHttp => "is not an absolute http:// or https:// URL",
            BaseUrlError::NoHost => "has no host",
            BaseUrlError::Whitespace => "contains whitespace or a control character",
            BaseUrlError::QueryOrFragment => "has a query or fragment",
            BaseUrlError::Credentials => "carries credentials",
        }
    }
}

/// Checks a timeout in milliseconds: a whole number from 1 to 60000.
///
/// # Errors
///
/// [`TimeoutError`] for any other number.
pub fn check_timeout_ms(ms: u64) -> Result<u32, TimeoutError> {
    match u32::try_from(ms) {
        Ok(ms @ 1..=MAX_TIMEOUT_MS) => Ok(ms),
        _ => Err(TimeoutError),
    }
}

/// A timeout outside 1 to [`MAX_TIMEOUT_MS`] milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeoutError;

impl TimeoutError {
    /// The accepted range, as a predicate: callers name the timeout.
    pub fn as_str(self) -> &'static str {
        "must be a whole number of milliseconds from 1 to 60000"
    }
}

words_from_str!(BaseUrlError, TimeoutError);
error_without_cause!(BaseUrlError, TimeoutError);

/// The endpoint an image badge's URL names, read from its query as the
/// service reads it (`chain`, `payTo`, `resourceUrl`, each once,
/// form-decoded), with no request.
///
/// # Errors
///
/// The URL is not of the image route, or a value is missing, given twice,
/// not UTF-8 once decoded, or breaks the endpoint's rules: an
/// [`EndpointError`] naming the field (a missing one `is empty`).
pub fn image_badge_endpoint(url: &str) -> Result<Endpoint, EndpointError> {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let query = query.split('#').next().unwrap_or_default();
    let on_route = path.ends_with(IMAGE_PATH);
    let value = |name: &'static str| {
        let mut values = query.split('&').filter_map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (key == name).then_some(value)
        });
        let decoded = match (values.next(), values.next()) {
            (Some(v), None) if on_route => {
                percent_encoding::percent_decode_str(&v.replace('+', " "))
                    .decode_utf8()
                    .map(|v| v.into_owned())
                    .ok()
            }
            _ => None,
        };
        decoded.unwrap_or_default()
    };
    Endpoint::new(&value("chain"), &value("payTo"), &value("resourceUrl"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_urls_without_double_slashes() {
        let e =
            Endpoint::new("eip155:8453", "0xAb", "https://api.example.com/p?q=1&r=é s").unwrap();
        for base in ["https://v.example", "https://v.example/"] {
            assert_eq!(
                BaseUrl::parse(base).unwrap().verdict_url(&e),
                "https://v.example/v0/verdict?chain=eip155%3A8453&payTo=0xAb&resourceUrl=https%3A%2F%2Fapi.example.com%2Fp%3Fq%3D1%26r%3D%C3%A9%20s"
            );
        }
        let b = BaseUrl::parse("http://127.0.0.1:8402/free/").unwrap();
        let e = Endpoint::new("base", "p", "r").unwrap();
        assert_eq!(
            b.verdict_url(&e),
            "http://127.0.0.1:8402/free/v0/verdict?chain=base&payTo=p&resourceUrl=r"
        );
        assert_eq!(b.origin(), "http://127.0.0.1:8402");
        for (base, origin) in [
            ("https://v.example", "https://v.example"),
            ("https://v.example:8443/a/b/", "https://v.example:8443"),
            ("http://h", "http://h"),
        ] {
            assert_eq!(BaseUrl::parse(base).unwrap().origin(), origin);
        }
    }

    #[test]
    fn builds_the_verdict_url_its_template_states() {
        let e = Endpoint::new("eip155:8453", "0xAb", "https://a.example/p?q=1&r=é s").unwrap();
        let base = BaseUrl::parse("https://v.example/free/").unwrap();
        let enc = |s| {
            let mut text = String::new();
            encode_component(&mut text, s);
            text
        };
        let filled = VERDICT_URL
            .replace("{base}", "https://v.example/free")
            .replace("{chain}", &enc(e.chain()))
            .replace("{payTo}", &enc(e.pay_to()))
            .replace("{resourceUrl}", &enc(e.resource_url()));
        assert_eq!(base.verdict_url(&e), filled);
    }

    #[test]
    fn encodes_like_encode_uri_component() {
        let e = Endpoint::new("a-_.!~*'()", "x", "y").unwrap();
        let url = BaseUrl::parse("http://h").unwrap().verdict_url(&e);
        assert!(url.contains("chain=a-_.!~*'()&"));
    }

    #[test]
    fn encodes_every_character_as_percent_encoding_would() {
        use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
        // encodeURIComponent's unreserved marks, which it leaves alone.
        const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
            .remove(b'-')
            .remove(b'_')
            .remove(b'.')
            .remove(b'!')
            .remove(b'~')
            .remove(b'*')
            .remove(b'\'')
            .remove(b'(')
            .remove(b')');
        let every: String = (0..=0x10_FFFF).filter_map(char::from_u32).collect();
        let mut ours = String::new();
        encode_component(&mut ours, &every);
        assert_eq!(ours, utf8_percent_encode(&every, COMPONENT).to_string());
    }

    #[test]
    fn rejects_bad_base_urls() {
        use BaseUrlError::*;
        for (bad, error) in [
            ("", Empty),
            (&*format!("https://{}", "x".repeat(2041)), TooLong),
            ("ftp://x", NotHttp),
            ("//x", NotHttp),
            ("javascript:alert(1)", NotHttp),
            ("https://", NoHost),
            ("https:///p", NoHost),
            ("https://a b", Whitespace),
            ("https://a\u{a0}b", Whitespace),
            ("https://x?q", QueryOrFragment),
            ("https://x#f", QueryOrFragment),
            ("https://u@x", Credentials),
        ] {
            assert_eq!(BaseUrl::parse(bad), Err(error), "{bad}");
        }
        assert!(BaseUrl::parse(&format!("https://{}", "x".repeat(2040))).is_ok());
        assert_eq!(BaseUrlError::NoHost.to_string(), "has no host");
    }

    #[test]
    fn timeout_range() {
        assert_eq!(check_timeout_ms(3000), Ok(3000));
        assert_eq!(check_timeout_ms(0), Err(TimeoutError));
        assert_eq!(check_timeout_ms(60_001), Err(TimeoutError));
        assert_eq!(check_timeout_ms(60_000), Ok(60_000));
    }
}
