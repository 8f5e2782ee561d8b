//! The `Host` header read strictly, as an RFC 3986 authority without user
//! information: a host (a registered name, an IPv4 address or a bracketed
//! IPv6 address) and an optional decimal port of at most 65535, nothing
//! else. A request whose `Host` is anything else is answered 400 (RFC 9112
//! §3.2), before any route or allow-list sees it: an allow-list that keeps
//! the text before the first `:` would read `localhost:1.evil.example` as
//! `localhost`.

use std::net::Ipv6Addr;

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Why a `Host` value (or an `--allow-host` value) is no authority.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum HostError {
    /// The request has no `Host`.
    #[error("the request has no Host header")]
    Missing,
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

/// Middleware: a request whose `Host` is no authority is answered 400 in
/// plain text naming what is wrong (an app may turn it into its own kind of
/// error); any other goes on.
pub async fn check(request: Request, next: Next) -> Response {
    let found = match request.headers().get(header::HOST) {
        None => Err(HostError::Missing),
        Some(value) => value
            .to_str()
            .map_err(|_| HostError::NotAscii)
            .and_then(parse),
    };
    match found {
        Ok(_) => next.run(request).await,
        Err(e) => (StatusCode::BAD_REQUEST, format!("Bad Request: {e}")).into_response(),
    }
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
