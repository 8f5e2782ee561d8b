//! How long a consumer may reuse an answer it received: the freshness
//! lifetime a private cache gives a response (RFC 9111, section 4.2.1),
//! read from its `Cache-Control` (protocol section "Response").
//!
//! A consumer that keeps answers (the badge: every badge on a page for one
//! endpoint shares one answer) keeps the status and body, never a rendered
//! result: each use evaluates them anew against its own options and clock.
//! Failures (no answer, a timeout, a refused body) carry no `Cache-Control`
//! and are never kept.

/// The longest an answer is kept, whatever its `max-age` says: one hour.
pub const MAX_REUSE_SECONDS: u32 = 3600;

/// The most answers a consumer keeps at once; past it, a new answer is not
/// kept.
pub const MAX_KEPT_ANSWERS: u32 = 1024;

/// The seconds for which a response with this `Cache-Control` may be
/// reused: its first `max-age`, at most [`MAX_REUSE_SECONDS`]; 0 (not kept)
/// under `no-store` or `no-cache`, or without a `max-age` of digits.
/// `s-maxage` is for shared caches and is ignored; directive names are
/// case-insensitive. `Age` is not read: a page cannot read it from another
/// origin unless the service exposes it, so an answer that passed through a
/// shared cache may be kept up to its age longer than that cache would.
///
/// ```
/// use x402_verdict_core::reuse_seconds;
///
/// assert_eq!(reuse_seconds("public, max-age=60, stale-while-revalidate=300"), 60);
/// assert_eq!(reuse_seconds("public, max-age=10"), 10);
/// assert_eq!(reuse_seconds("no-store"), 0);
/// assert_eq!(reuse_seconds("max-age=86400"), 3600);
/// ```
pub fn reuse_seconds(cache_control: &str) -> u32 {
    let mut max_age = None;
    for directive in cache_control.as_bytes().split(|b| *b == b',') {
        let (name, value) = match directive.iter().position(|b| *b == b'=') {
            Some(at) => (&directive[..at], &directive[at + 1..]),
            None => (directive, &b""[..]),
        };
        let name = name.trim_ascii();
        if name.eq_ignore_ascii_case(b"no-store") || name.eq_ignore_ascii_case(b"no-cache") {
            return 0;
        }
        if max_age.is_none() && name.eq_ignore_ascii_case(b"max-age") {
            max_age = Some(delta_seconds(value));
        }
    }
    max_age
        .flatten()
        .map_or(0, |max| max.min(MAX_REUSE_SECONDS))
}

/// The seconds past [`reuse_seconds`] for which a kept answer may still be
/// served while it is fetched anew (RFC 5861's `stale-while-revalidate`, its
/// first one), at most [`MAX_REUSE_SECONDS`]; 0 without one of digits, and
/// for an answer that may not be reused at all. How a seller's server keeps
/// the verdicts it inlines warm: each is fetched anew once its `max-age`
/// has run out, and the old one served meanwhile for at most this long.
///
/// ```
/// use x402_verdict_core::stale_seconds;
///
/// assert_eq!(stale_seconds("public, max-age=60, stale-while-revalidate=300"), 300);
/// assert_eq!(stale_seconds("public, max-age=10"), 0);
/// assert_eq!(stale_seconds("no-store, stale-while-revalidate=300"), 0);
/// ```
pub fn stale_seconds(cache_control: &str) -> u32 {
    if reuse_seconds(cache_control) == 0 {
        return 0;
    }
    let found = cache_control.split(',').find_map(|directive| {
        let (name, value) = directive.split_once('=')?;
        name.trim_ascii()
            .eq_ignore_ascii_case("stale-while-revalidate")
            .then(|| delta_seconds(value.as_bytes()))
    });
    found
        .flatten()
        .map_or(0, |stale| stale.min(MAX_REUSE_SECONDS))
}

/// A `delta-seconds` value (digits only, surrounding spaces allowed); one
/// too large for a `u32` saturates.
fn delta_seconds(text: &[u8]) -> Option<u32> {
    let digits = text.trim_ascii();
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(digits.iter().fold(0u32, |n, d| {
        n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_lifetime_a_private_cache_gives() {
        for (cache_control, seconds) in [
            ("public, max-age=60, stale-while-revalidate=300", 60),
            ("public, max-age=10", 10),
            ("MAX-AGE=5", 5),
            (" max-age=7 ", 7),
            ("max-age=30, max-age=90", 30),
            ("max-age=86400", MAX_REUSE_SECONDS),
            ("max-age=99999999999999999999", MAX_REUSE_SECONDS),
            (" max-age = 7 ", 7),
            ("s-maxage=60", 0),
            ("public", 0),
            ("", 0),
            ("max-age=", 0),
            ("max-age=+5", 0),
            ("max-age=-1", 0),
            ("max-age=1.5", 0),
            ("max-age=\"60\"", 0),
            ("max-age=60, no-cache", 0),
            ("No-Store, max-age=60", 0),
            ("private, max-age=20", 20),
        ] {
            assert_eq!(reuse_seconds(cache_control), seconds, "{cache_control:?}");
        }
    }

    #[test]
    fn reads_how_long_a_kept_answer_may_be_served_stale() {
        for (cache_control, seconds) in [
            ("public, max-age=60, stale-while-revalidate=300", 300),
            ("max-age=60,STALE-WHILE-REVALIDATE = 30 ", 30),
            (
                "max-age=60, stale-while-revalidate=5, stale-while-revalidate=9",
                5,
            ),
            (
                "max-age=60, stale-while-revalidate=86400",
                MAX_REUSE_SECONDS,
            ),
            ("max-age=60, stale-while-revalidate", 0),
            ("max-age=60, stale-while-revalidate=-1", 0),
            ("max-age=60", 0),
            ("stale-while-revalidate=300", 0),
            ("max-age=0, stale-while-revalidate=300", 0),
            ("no-cache, max-age=60, stale-while-revalidate=300", 0),
        ] {
            assert_eq!(stale_seconds(cache_control), seconds, "{cache_control:?}");
        }
    }
}
