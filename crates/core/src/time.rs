//! Points in time as Unix seconds, and their RFC 3339 UTC text form.
//!
//! The core never reads a clock: callers pass `now` in.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// 9999-12-31T23:59:59Z, the last time RFC 3339 can write.
const LAST_SECOND_OF_9999: u64 = 253_402_300_799;

/// A point in time, in whole seconds since the Unix epoch (UTC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(i64);

impl Timestamp {
    /// The time `seconds` after 1970-01-01T00:00:00Z.
    pub const fn from_unix_seconds(seconds: i64) -> Self {
        Timestamp(seconds)
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    pub const fn unix_seconds(self) -> i64 {
        self.0
    }

    /// Parses an RFC 3339 time in UTC (`2026-09-01T08:00:00Z`, optionally with
    /// fractional seconds, which are dropped). Offsets other than `Z` and
    /// times before 1970 are rejected.
    pub fn parse_rfc3339(text: &str) -> Option<Self> {
        let time = humantime::parse_rfc3339(text).ok()?;
        let seconds = time.duration_since(UNIX_EPOCH).ok()?.as_secs();
        i64::try_from(seconds).ok().map(Timestamp)
    }

    /// The RFC 3339 UTC form with whole seconds, for example `2026-09-01T08:00:00Z`.
    /// Times outside 1970 to 9999 are clamped to that range.
    pub fn to_rfc3339(self) -> String {
        let seconds = u64::try_from(self.0).unwrap_or(0).min(LAST_SECOND_OF_9999);
        humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_secs(seconds)).to_string()
    }

    /// A short human form, for example `2026-09-01 08:00 UTC`.
    pub fn to_human(self) -> String {
        let text = self.to_rfc3339();
        format!("{} {} UTC", &text[..10], &text[11..16])
    }

    /// This time plus `hours` hours.
    pub const fn plus_hours(self, hours: u32) -> Self {
        Timestamp(self.0 + hours as i64 * 3600)
    }

    /// This time plus `seconds` seconds.
    pub const fn plus_seconds(self, seconds: i64) -> Self {
        Timestamp(self.0 + seconds)
    }

    /// The time of a native clock reading; for callers that own a clock.
    pub fn from_system_time(time: SystemTime) -> Self {
        let seconds = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        Timestamp(i64::try_from(seconds).unwrap_or(i64::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_utc() {
        let t = Timestamp::parse_rfc3339("2026-09-01T08:00:00Z").unwrap();
        assert_eq!(t.unix_seconds(), 1_788_249_600);
        assert_eq!(t.to_rfc3339(), "2026-09-01T08:00:00Z");
        assert_eq!(t.to_human(), "2026-09-01 08:00 UTC");
        assert_eq!(
            Timestamp::parse_rfc3339("2026-09-01T08:00:00.750Z"),
            Some(t)
        );
    }

    #[test]
    fn formats_any_time_without_panicking() {
        assert_eq!(
            Timestamp::from_unix_seconds(-5).to_rfc3339(),
            "1970-01-01T00:00:00Z"
        );
        assert_eq!(
            Timestamp::from_unix_seconds(i64::MAX).to_rfc3339(),
            "9999-12-31T23:59:59Z"
        );
    }

    #[test]
    fn rejects_non_utc_and_junk() {
        for bad in [
            "2026-09-01T08:00:00+02:00",
            "2026-09-01 08:00:00Z",
            "2026-13-01T08:00:00Z",
            "1969-12-31T23:59:59Z",
            "yesterday",
            "",
        ] {
            assert_eq!(Timestamp::parse_rfc3339(bad), None, "{bad}");
        }
    }
}
