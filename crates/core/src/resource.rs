//! When two `resourceUrl` values name one resource: the one comparison rule
//! of the service's index, the consumers' endpoint binding and `check`.
//!
//! The rule is [`same_resource`]'s.

use std::borrow::Cow;

/// Whether `a` and `b` name one resource: equal, or equal once normalized.
///
/// An `http` or `https` URL is compared by its normalized form, the
/// syntax-based and scheme-based rules of RFC 3986 sections 6.2.2 and 6.2.3:
///
/// - the scheme and the host in lowercase (`HTTPS://API.Example.com` is
///   `https://api.example.com`);
/// - in the path, query and fragment, a percent-encoded unreserved
///   character (a letter, a digit, `-`, `.`, `_`, `~`) decoded (`%7e` is
///   `~`, `%41` is `A`), every other percent-encoding with uppercase hex
///   digits (`%2f` is `%2F`; the userinfo and host are kept but for the
///   host's case), and a `%` that starts no percent-encoding read as one
///   (`100%` is `100%25`);
/// - the path's `.` and `..` segments removed (RFC 3986 section 5.2.4, also
///   when encoded: `/v1/%2E%2E/admin` is `/admin`);
/// - the default port dropped (`:443` for `https`, `:80` for `http`, and an
///   empty one);
/// - an empty path written `/`.
///
/// The path's case, the query and the fragment stay as they are (after the
/// percent-encoding rule). Any other value (another scheme, such as
/// `mcp://`, or no `://`) compares exactly.
///
/// ```
/// use x402_verdict_core::same_resource;
///
/// assert!(same_resource("HTTPS://Api.Example.com:443?q=%7e%2f", "https://api.example.com/?q=~%2F"));
/// assert!(same_resource("http://h/v1/./a/../%2E%2E/admin", "http://h/admin"));
/// assert!(same_resource("http://h:80/b", "http://H/b"));
/// assert!(!same_resource("https://h/A", "https://h/a"));
/// assert!(!same_resource("mcp://Tools/x", "mcp://tools/x"));
/// ```
pub fn same_resource(a: &str, b: &str) -> bool {
    a == b || normalize(a) == normalize(b)
}

/// The normalized form of a resource URL (the rule of [`same_resource`]);
/// a value that is not an `http` or `https` URL, as it is.
pub(crate) fn normalize(url: &str) -> Cow<'_, str> {
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
    let path = tail.starts_with('/');
    if !path {
        out.push('/');
    }
    // One pass: the percent-encodings, then each path segment once written.
    let bytes = tail.as_bytes();
    let start = out.len();
    // Where the path's last `/` is in `out`, while in the path.
    let (mut in_path, mut segment) = (path, start);
    let mut skip = 0;
    for (i, mut c) in tail.char_indices() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        if in_path && i > 0 && matches!(c, '/' | '?' | '#') {
            if dot_segment_removed(&mut out, start, segment) && c != '/' {
                out.push('/');
            }
            (in_path, segment) = (c == '/', out.len());
        }
        let hex = |k: usize| bytes.get(i + k).and_then(|&d| char::from(d).to_digit(16));
        if c == '%' {
            if let (Some(high), Some(low)) = (hex(1), hex(2)) {
                skip = 2;
                c = char::from((high * 16 + low) as u8);
                if !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')) {
                    out.push('%');
                    out.push(char::from(bytes[i + 1]).to_ascii_uppercase());
                    c = char::from(bytes[i + 2]).to_ascii_uppercase();
                }
            } else {
                // A `%` that starts no percent-encoding is one: `%25`.
                out.push_str("%2");
                c = '5';
            }
        }
        out.push(c);
    }
    if in_path && dot_segment_removed(&mut out, start, segment) {
        out.push('/');
    }
    Cow::Owned(out)
}

/// Removes the path segment `out` ends with, after the `/` at `segment`,
/// when it is `.`, or `..` with the segment before it (RFC 3986 section
/// 5.2.4; the path starts at `path`): whether it did.
fn dot_segment_removed(out: &mut String, path: usize, segment: usize) -> bool {
    let dots = matches!(&out.as_bytes()[segment + 1..], b"." | b"..");
    if dots {
        let mut end = segment;
        if out.len() - segment == 3 {
            let parent = out.as_bytes()[path..segment]
                .iter()
                .rposition(|&b| b == b'/');
            end = path + parent.unwrap_or(0);
        }
        out.truncate(end);
    }
    dots
}

/// Where the path ends in a normalized `http` or `https` URL (an
/// [`EndpointKey`](crate::EndpointKey)'s `resource_url`), and where it starts (after `scheme://authority`): `None` for any other value.
pub fn path_span(normalized: &str) -> Option<(usize, usize)> {
    let scheme_end = normalized.find("://")?;
    if !matches!(&normalized[..scheme_end], "http" | "https") {
        return None;
    }
    let start = normalized[scheme_end + 3..].find('/')? + scheme_end + 3;
    let end = normalized.find(['?', '#']).unwrap_or(normalized.len());
    Some((start, end.max(start)))
}

/// The host a resource URL names (`api.example.com`, its port kept when
/// not the default), from its normalized form; a value that is not an
/// `http` or `https` URL, as it is.
pub fn resource_host(resource_url: &str) -> String {
    let normalized = normalize(resource_url);
    match (path_span(&normalized), normalized.find("://")) {
        (Some((path, _)), Some(scheme)) => {
            let authority = &normalized[scheme + 3..path];
            // A userinfo (`user@`) is no part of the host a buyer reads.
            authority.rsplit('@').next().unwrap_or(authority).to_owned()
        }
        _ => normalized.into_owned(),
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
            ("https://h/%7euser/%4a%2d%5F%2E", "https://h/~user/J-_."),
            ("https://h/%2f%3A%c3%a9%25", "https://h/%2F%3A%C3%A9%25"),
            ("https://h/p?%61=%7e&b=%2f#%41", "https://h/p?a=~&b=%2F#A"),
            ("https://h/%%61/%6%62/%%2E", "https://h/%25a/%256b/%25."),
            ("https://h/100%/%zz/%4", "https://h/100%25/%25zz/%254"),
            ("https://h/%+1/%é", "https://h/%25+1/%25é"),
            ("https://h/a/./b/../c", "https://h/a/c"),
            ("https://h/v1/../admin", "https://h/admin"),
            ("https://h/v1/%2E%2e/admin", "https://h/admin"),
            ("https://h/v1/.%2E/.%2e/..", "https://h/"),
            ("https://h/a/%2E/b/.", "https://h/a/b/"),
            ("https://h/..?q=/../x", "https://h/?q=/../x"),
            ("https://h/.../..a/a../.b/b.", "https://h/.../..a/a../.b/b."),
            ("https://h/a%2F..%2Fb", "https://h/a%2F..%2Fb"),
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
    fn removes_dot_segments_as_rfc_3986_does() {
        // Section 5.2.4's two examples, then the paths of section 5.4's
        // reference resolution (base http://a/b/c/d;p?q) before and after.
        for (path, removed) in [
            ("/a/b/c/./../../g", "/a/g"),
            ("/mid/content=5/../6", "/mid/6"),
            ("/b/c/./g", "/b/c/g"),
            ("/b/c/g/", "/b/c/g/"),
            ("/b/c/.", "/b/c/"),
            ("/b/c/./", "/b/c/"),
            ("/b/c/..", "/b/"),
            ("/b/c/../", "/b/"),
            ("/b/c/../g", "/b/g"),
            ("/b/c/../..", "/"),
            ("/b/c/../../", "/"),
            ("/b/c/../../g", "/g"),
            ("/b/c/../../../g", "/g"),
            // Written in two halves: the whole, read as a file path, would climb out of the repository.
            (concat!("/b/c/../../", "../../g"), "/g"),
            ("/./g", "/g"),
            ("/../g", "/g"),
            ("/b/c/g.", "/b/c/g."),
            ("/b/c/.g", "/b/c/.g"),
            ("/b/c/g..", "/b/c/g.."),
            ("/b/c/..g", "/b/c/..g"),
            ("/b/c/./../g", "/b/g"),
            ("/b/c/./g/.", "/b/c/g/"),
            ("/b/c/g/./h", "/b/c/g/h"),
            ("/b/c/g/../h", "/b/c/h"),
            ("/b/c/g;x=1/./y", "/b/c/g;x=1/y"),
            ("/b/c/g;x=1/../y", "/b/c/y"),
        ] {
            assert_eq!(
                normalize(&format!("http://a{path}")),
                format!("http://a{removed}"),
                "{path}"
            );
        }
        // Section 6.2.2's example, in http.
        assert!(same_resource(
            "http://a/b/c/%7Bfoo%7D",
            "HTTP://a/./b/../b/%63/%7bfoo%7d"
        ));
    }

    #[test]
    fn normalizing_twice_changes_nothing() {
        let pieces = [
            "%", "%%", "4", "%41", "%2e", "%2f", ".", "/", "..", "a", "%6", "?",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for d in pieces {
                        let url = format!("http://h/{a}{b}{c}{d}");
                        let once = normalize(&url).into_owned();
                        assert_eq!(normalize(&once), once, "{url}");
                    }
                }
            }
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

    #[test]
    fn names_a_resources_host() {
        assert_eq!(
            resource_host("HTTPS://API.Example.com:443/x?y"),
            "api.example.com"
        );
        assert_eq!(resource_host("http://u@h.example:8080"), "h.example:8080");
        assert_eq!(resource_host("mcp://tools/x"), "mcp://tools/x");
    }
}
