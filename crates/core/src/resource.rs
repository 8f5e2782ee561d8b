//! When two `resourceUrl` values name one resource: the one comparison rule
//! of the service's index, the consumers' endpoint binding and `check`.
//!
//! An `http` or `https` URL is compared by its normalized form, the
//! case and scheme-based rules of RFC 3986 sections 6.2.2.1 and 6.2.3:
//!
//! - the scheme and the host in lowercase (`HTTPS://API.Example.com` is
//!   `https://api.example.com`);
//! - percent-encodings with uppercase hex digits (`%2f` is `%2F`);
//! - the default port dropped (`:443` for `https`, `:80` for `http`, and an
//!   empty one);
//! - an empty path written `/`.
//!
//! The path's case, the query and the fragment stay as they are (after the
//! percent-encoding rule); `.` and `..` segments and encoded unreserved
//! characters are not rewritten (an HTTP client resolves the first before it
//! asks, and the reference service never lets a `path` or `prefix`
//! attestation cover a URL holding one). Any other value (another scheme,
//! such as `mcp://`, or no `://`) compares exactly.
//!
//! ```
//! use x402_verdict_core::resource::{normalize, same_resource};
//!
//! assert_eq!(normalize("HTTPS://Api.Example.com:443?q=%7e%2f"), "https://api.example.com/?q=%7E%2F");
//! assert!(same_resource("http://h:80/b", "http://H/b"));
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
///
/// One pass over the text, so that it adds little to the badge's wasm.
pub fn normalize(url: &str) -> Cow<'_, str> {
    let starts = |prefix: &str| {
        url.get(..prefix.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
    };
    let (scheme, default_port) = if starts("https://") {
        ("https://", ":443")
    } else if starts("http://") {
        ("http://", ":80")
    } else {
        return Cow::Borrowed(url);
    };
    let rest = &url[scheme.len()..];
    let (authority, tail) = rest.split_at(
        rest.bytes()
            .position(|c| matches!(c, b'/' | b'?' | b'#'))
            .unwrap_or(rest.len()),
    );
    let authority = authority
        .strip_suffix(default_port)
        .or_else(|| authority.strip_suffix(':'))
        .unwrap_or(authority);
    let host = authority
        .bytes()
        .rposition(|c| c == b'@')
        .map_or(0, |i| i + 1);
    let mut out = String::with_capacity(url.len() + 1);
    out.push_str(scheme);
    out.push_str(&authority[..host]);
    out.push_str(&authority[host..].to_ascii_lowercase());
    if !tail.starts_with('/') {
        out.push('/');
    }
    // The two hex digits after each '%' in uppercase.
    let mut digits = 0;
    for c in tail.chars() {
        if digits > 0 && c.is_ascii_hexdigit() {
            out.push(c.to_ascii_uppercase());
            digits -= 1;
        } else {
            digits = if c == '%' { 2 } else { 0 };
            out.push(c);
        }
    }
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
            ("https://h/%7euser/%4a%2d", "https://h/%7Euser/%4A%2D"),
            ("https://h/100%/%zz/%4", "https://h/100%/%zz/%4"),
            ("https://h/%+1/%é", "https://h/%+1/%é"),
            ("https://h/a/./b/../c", "https://h/a/./b/../c"),
            ("https://h//a", "https://h//a"),
            ("https://h/x?a/../b#c/./d", "https://h/x?a/../b#c/./d"),
            (
                "https://User:Pw@H.example:443/",
                "https://User:Pw@h.example/",
            ),
            ("http://[::1]/x", "http://[::1]/x"),
            ("http://[::1]:80/x", "http://[::1]/x"),
            ("http://[FE80::1]:8080", "http://[fe80::1]:8080/"),
            ("http://h:8080/x", "http://h:8080/x"),
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
            "https://api.example.com/weather?city=Paris%2c",
            "https://api.example.com/weather?city=Paris%2C",
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
        assert!(same_resource(urls[5], urls[6]));
        assert!(!same_resource(urls[0], urls[2]));
        assert!(!same_resource(urls[3], urls[4]));
        assert!(!same_resource(urls[0], urls[7]));
        assert!(same_resource(urls[9], urls[10]));
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
