//! The `Host` header read strictly, as an RFC 3986 authority without user
//! information: a host (a registered name, an IPv4 address or a bracketed
//! IPv6 address) and an optional decimal port of at most 65535, nothing
//! else. A request whose `Host` is anything else, or that has two, is
//! answered 400 (RFC 9112 §3.2), before any route or allow-list sees it: an
//! allow-list that keeps the text before the first `:` would read
//! `localhost:1.evil.example` as `localhost`.
//!
//! Without a `Host`: an HTTP/1.1 request is 400 (RFC 9112 §3.2); an HTTP/1.0
//! one (where `Host` is optional: a load balancer's health check) is
//! answered by `serve` ([`check`]) and refused 403 by `mcp --listen`
//! ([`check_required`]), whose DNS-rebinding rule cannot check a host it is
//! not given.

use std::net::Ipv6Addr;

use axum::extract::Request;
use axum::http::{header, StatusCode, Version};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Why a `Host` value (or an `--allow-host` value) is no authority.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum HostError {
    /// The request has no `Host`.
    #[error("the request has no Host header")]
    Missing,
    /// An HTTP/1.0 request without `Host`, where the host must be checked.
    #[error("the request has no Host header to check against the allowed hosts")]
    Unchecked,
    /// The request has more than one `Host`.
    #[error("the request has more than one Host header")]
    Repeated,
    /// The value is not visible ASCII.
    #[error("the Host header is not visible ASCII")]
    NotAscii,
    /// Nothing before the port.
    #[error("{0:?} has an empty host")]
    EmptyHost(String),
    /// A character no host may hold, or an IPv6 literal that does not read.
    #[error("{0:?} is not a host name, an IPv4 address or a bracketed IPv6 address")]
    BadHost(String),
    /// What follows the host's `:` is not a port.
    #[error("{0:?} has a port that is not a decimal number from 0 to 65535")]
    BadPort(String),
}

/// A valid authority: its host, lowercase, IPv6 without brackets, and port.
#[derive(Debug, PartialEq, Eq)]
pub struct Authority {
    /// The host, as `--allow-host` and rmcp's allow-list compare it.
    pub host: String,
    /// The port, when one is given.
    pub port: Option<u16>,
}

/// Reads `text` as a host with an optional port.
///
/// # Errors
///
/// The part that is wrong, as [`HostError`] names it.
pub fn parse(text: &str) -> Result<Authority, HostError> {
    let wrong_host = || HostError::BadHost(text.to_owned());
    let (host, port) = if let Some(rest) = text.strip_prefix('[') {
        let (literal, after) = rest.split_once(']').ok_or_else(wrong_host)?;
        literal.parse::<Ipv6Addr>().map_err(|_| wrong_host())?;
        let port = match after {
            "" => None,
            _ => Some(after.strip_prefix(':').ok_or_else(wrong_host)?),
        };
        (literal, port)
    } else if text.matches(':').count() > 1 {
        // An IPv6 address without its brackets, or a second port.
        return Err(wrong_host());
    } else {
        match text.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (text, None),
        }
    };
    if host.is_empty() {
        return Err(HostError::EmptyHost(text.to_owned()));
    }
    if !text.starts_with('[') && !is_reg_name(host) {
        return Err(wrong_host());
    }
    let port = port
        .map(|p| {
            let digits = !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit());
            digits
                .then(|| p.parse::<u16>().ok())
                .flatten()
                .ok_or_else(|| HostError::BadPort(text.to_owned()))
        })
        .transpose()?;
    Ok(Authority {
        host: host.to_ascii_lowercase(),
        port,
    })
}

/// RFC 3986's `reg-name` (which an IPv4 address also is): unreserved
/// characters, sub-delimiters and percent-encoded octets.
fn is_reg_name(host: &str) -> bool {
    let bytes = host.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3);
                if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                    return false;
                }
                i += 3;
            }
            b if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=".contains(&b) => i += 1,
            _ => return false,
        }
    }
    true
}

/// The request's `Host`, read strictly; `None` when it has none.
fn host_of(request: &Request) -> Result<Option<Authority>, HostError> {
    let mut values = request.headers().get_all(header::HOST).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(HostError::Repeated);
    }
    let text = value.to_str().map_err(|_| HostError::NotAscii)?;
    parse(text).map(Some)
}

/// A refusal in plain text naming what is wrong (an app may turn it into its
/// own kind of error).
fn refused(status: StatusCode, error: &HostError) -> Response {
    let reason = status.canonical_reason().unwrap_or_default();
    (status, format!("{reason}: {error}")).into_response()
}

/// Middleware of `serve`: a request whose `Host` is no authority, or
/// repeated, or an HTTP/1.1 one without it, is answered 400; any other
/// (an HTTP/1.0 one without `Host` too) goes on.
pub async fn check(request: Request, next: Next) -> Response {
    match host_of(&request) {
        Ok(None) if request.version() >= Version::HTTP_11 => {
            refused(StatusCode::BAD_REQUEST, &HostError::Missing)
        }
        Ok(_) => next.run(request).await,
        Err(e) => refused(StatusCode::BAD_REQUEST, &e),
    }
}

/// Middleware of `mcp --listen`: as [`check`], except that an HTTP/1.0
/// request without `Host` is refused 403, as a host not allowed is.
pub async fn check_required(request: Request, next: Next) -> Response {
    if !request.headers().contains_key(header::HOST) && request.version() < Version::HTTP_11 {
        return refused(StatusCode::FORBIDDEN, &HostError::Unchecked);
    }
    check(request, next).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authorities_are_read_strictly() {
        let ok = |text: &str, host: &str, port: Option<u16>| {
            assert_eq!(
                parse(text),
                Ok(Authority {
                    host: host.to_owned(),
                    port
                }),
                "{text}"
            );
        };
        ok("localhost", "localhost", None);
        ok("LocalHost:8402", "localhost", Some(8402));
        ok("127.0.0.1:0", "127.0.0.1", Some(0));
        ok("[::1]", "::1", None);
        ok("[::1]:65535", "::1", Some(65535));
        ok("verify.example", "verify.example", None);
        ok(
            "xn--bcher-kva.example:443",
            "xn--bcher-kva.example",
            Some(443),
        );
        let port = |t: &str| HostError::BadPort(t.to_owned());
        let host = |t: &str| HostError::BadHost(t.to_owned());
        let empty = |t: &str| HostError::EmptyHost(t.to_owned());
        type Named = fn(&str) -> HostError;
        let refused: [(&str, Named); 17] = [
            ("localhost:8402.evil.example", port),
            ("localhost:evil.example", port),
            ("localhost:", port),
            ("127.0.0.1:99999999", port),
            ("127.0.0.1:65536", port),
            ("127.0.0.1:+80", port),
            ("localhost:80:80", host),
            (":8402", empty),
            ("", empty),
            ("user@localhost", host),
            ("local host", host),
            ("localhost/path", host),
            ("[::1", host),
            ("[::1]x", host),
            ("[not-ipv6]", host),
            ("::1", host),
            ("bad%zzhost", host),
        ];
        for (text, error) in refused {
            assert_eq!(parse(text), Err(error(text)), "{text}");
        }
    }
}
