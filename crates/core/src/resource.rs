//! When two `resourceUrl` values name one resource: the one comparison rule
//! of the service's index, the consumers' endpoint binding and `check`.
//!
//! An `http` or `https` URL is compared by its normalized form, the
//! syntax-based normalization of RFC 3986 section 6.2.2 with the scheme-based
//! defaults of section 6.2.3:
//!
//! - the scheme and the host in lowercase (`HTTPS://API.Example.com` is
//!   `https://api.example.com`);
//! - percent-encodings with uppercase hex digits (`%2f` is `%2F`), and those
//!   of unreserved characters (`A-Z a-z 0-9 - . _ ~`) decoded (`%7E` is `~`);
//! - dot segments removed from the path (`/a/./b/../c` is `/a/c`);
//! - the default port dropped (`:443` for `https`, `:80` for `http`, and an
//!   empty one);
//! - an empty path written `/`.
//!
//! The path's case, the query and the fragment stay as they are (after the
//! percent-encoding rules). Any other value (another scheme, such as
//! `mcp://`, or no `://`) compares exactly.
//!
//! ```
//! use x402_verdict_core::resource::{normalize, same_resource};
//!
//! assert_eq!(normalize("HTTPS://Api.Example.com:443?q=%7e%2f"), "https://api.example.com/?q=~%2F");
//! assert!(same_resource("http://h:80/a/../b", "http://H/b"));
//! assert!(!same_resource("https://h/A", "https://h/a"));
//! assert!(!same_resource("mcp://Tools/x", "mcp://tools/x"));
//! ```

use std::borrow::Cow;

/// Whether `a` and `b` name one resource: equal, or equal once normalized.
pub fn same_resource(a: &str, b: &str) -> bool {
    a == b || normalize(a) == normalize(b)
}

/// The normalized form of a resource URL (see the [module](self) for the
/// rule); a value that is not an `http` or `https` URL, as it is.
pub fn normalize(url: &str) -> Cow<'_, str> {
    let Some((scheme, rest)) = url.split_once("://") else {
        return Cow::Borrowed(url);
    };
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => "80",
        "https" => "443",
        _ => return Cow::Borrowed(url),
    };
    let rest = percent_normalized(rest);
    let (authority, tail) = rest.split_at(rest.find(['/', '?', '#']).unwrap_or(rest.len()));
    let (user, host_port) = authority.split_at(authority.rfind('@').map_or(0, |i| i + 1));
    // A port follows the last ':', unless that one is inside an IPv6 `[…]`.
    let port_at = host_port
        .rfind(':')
        .filter(|&i| !host_port[i..].contains(']'))
        .unwrap_or(host_port.len());
    let (host, port) = host_port.split_at(port_at);
    let (path, query) = tail.split_at(tail.find(['?', '#']).unwrap_or(tail.len()));
    let mut out = String::with_capacity(url.len() + 1);
    out.push_str(&scheme);
    out.push_str("://");
    out.push_str(user);
    out.push_str(&host.to_ascii_lowercase());
    if port.len() > 1 && port[1..] != *default_port {
        out.push_str(port);
    }
    if path.is_empty() {
        out.push('/');
    }
    push_without_dot_segments(&mut out, path);
    out.push_str(query);
    Cow::Owned(out)
}

/// Where the path ends in a [`normalize`]d `http` or `https` URL, and where
/// it starts (after `scheme://authority`): `None` for any other value.
pub fn path_span(normalized: &str) -> Option<(usize, usize)> {
    let scheme_end = normalized.find("://")?;
    if !matches!(&normalized[..scheme_end], "http" | "https") {
        return None;
    }
    let start = normalized[scheme_end + 3..].find('/')? + scheme_end + 3;
    let end = normalized.find(['?', '#']).unwrap_or(normalized.len());
    Some((start, end.max(start)))
}

/// `text` with every `%XY` in uppercase hex, and those of unreserved
/// characters decoded.
fn percent_normalized(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        rest = &rest[i + 1..];
        let hex = rest.get(..2).and_then(|h| {
            let mut digits = h.chars().map(|c| c.to_digit(16));
            Some((digits.next()?? << 4 | digits.next()??) as u8)
        });
        match hex {
            Some(byte) if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) => {
                out.push(char::from(byte));
            }
            Some(_) => {
                out.push('%');
                out.push_str(&rest[..2].to_ascii_uppercase());
            }
            None => {
                out.push('%');
                continue;
            }
        }
        rest = &rest[2..];
    }
    out.push_str(rest);
    out
}

/// Appends `path` (empty or starting with `/`) with its `.` and `..`
/// segments removed (RFC 3986 section 5.2.4).
fn push_without_dot_segments(out: &mut String, path: &str) {
    let start = out.len();
    let mut segments = path.split('/').skip(1).peekable();
    while let Some(segment) = segments.next() {
        let last = segments.peek().is_none();
        if segment == "." || segment == ".." {
            if segment == ".." {
                let parent = out[start..].rfind('/').map_or(start, |i| start + i);
                out.truncate(parent);
            }
            if last {
                out.push('/');
            }
        } else {
            out.push('/');
            out.push_str(segment);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_each_rule() {
        for (url, normalized) in [
            (
                "HTTPS://API.Example.COM/Path",
                "https://api.example.com/Path",
            ),
            ("https://h.example:443/x", "https://h.example/x"),
            ("http://h.example:80/x", "http://h.example/x"),
            ("http://h.example:/x", "http://h.example/x"),
            ("https://h.example:80/x", "https://h.example:80/x"),
            ("http://h.example:443", "http://h.example:443/"),
            ("https://h.example", "https://h.example/"),
            ("https://h.example?q=1", "https://h.example/?q=1"),
            ("https://h.example#f", "https://h.example/#f"),
            ("https://h/a%2fb?x=%c3%a9", "https://h/a%2Fb?x=%C3%A9"),
            ("https://h/%7Euser/%41%2d%5F%2E", "https://h/~user/A-_."),
            ("https://h/100%/%zz/%4", "https://h/100%/%zz/%4"),
            ("https://h/%+1/%é", "https://h/%+1/%é"),
            ("https://h/a/./b/../c", "https://h/a/c"),
            ("https://h/a/.", "https://h/a/"),
            ("https://h/a/..", "https://h/"),
            ("https://h/../../x", "https://h/x"),
            ("https://h/a/%2E%2E/b", "https://h/b"),
            ("https://h/a/..b/.c", "https://h/a/..b/.c"),
            ("https://h//a", "https://h//a"),
            ("https://h/x?a/../b#c/./d", "https://h/x?a/../b#c/./d"),
            (
                "https://User:Pw@H.example:443/",
                "https://User:Pw@h.example/",
            ),
            ("http://[::1]/x", "http://[::1]/x"),
            ("http://[::1]:80/x", "http://[::1]/x"),
            ("http://[FE80::1]:8080", "http://[fe80::1]:8080/"),
            ("https://Bücher.Example/é", "https://bücher.example/é"),
        ] {
            assert_eq!(normalize(url), normalized, "{url}");
            assert_eq!(
                normalize(normalized),
                normalized,
                "{normalized} is not stable"
            );
        }
    }

    #[test]
    fn other_schemes_compare_exactly() {
        for url in [
            "mcp://Tools.Example/x",
            "urn:x402:A",
            "HTTPX://h/",
            "/relative",
            "h:80",
        ] {
            assert!(
                matches!(normalize(url), Cow::Borrowed(u) if u == url),
                "{url}"
            );
        }
        assert!(!same_resource("mcp://Tools/x", "mcp://tools/x"));
        assert!(same_resource("mcp://tools/x", "mcp://tools/x"));
    }

    #[test]
    fn one_resource_exactly_when_normalized_forms_are_equal() {
        let urls = [
            "https://api.example.com/weather",
            "HTTPS://api.EXAMPLE.com:443/weather",
            "https://api.example.com/Weather",
            "https://api.example.com/weather?city=Paris",
            "https://api.example.com/weather?city=paris",
            "https://api.example.com/weather?city=%50aris",
            "http://api.example.com/weather",
            "https://api.example.com:8443/weather",
            "https://api.example.com",
            "https://api.example.com/",
        ];
        for a in urls {
            for b in urls {
                assert_eq!(same_resource(a, b), normalize(a) == normalize(b), "{a} {b}");
            }
        }
        assert!(same_resource(urls[0], urls[1]));
        assert!(same_resource(urls[3], urls[5]));
        assert!(!same_resource(urls[0], urls[2]));
        assert!(!same_resource(urls[3], urls[4]));
        assert!(!same_resource(urls[0], urls[6]));
        assert!(same_resource(urls[8], urls[9]));
    }

    #[test]
    fn spans_the_path() {
        for (url, path) in [
            ("https://h/v1/x?q", Some("/v1/x")),
            ("https://u@h:8443/#f", Some("/")),
            ("http://h/a#b?c", Some("/a")),
            ("mcp://h/a", None),
            ("https://h", None),
        ] {
            assert_eq!(path_span(url).map(|(s, e)| &url[s..e]), path, "{url}");
        }
    }
}
