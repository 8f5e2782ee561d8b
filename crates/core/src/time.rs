//! Points in time as Unix seconds, and their RFC 3339 UTC text form.
//!
//! The core never reads a clock: callers pass `now` in. Dates convert with
//! the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil` and
//! `civil_from_days`), in integer arithmetic only.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::writing::{display_from_words, push_padded, uDisplay};

/// How far in the future a `verifiedAt` may lie (clock skew) before freshness
/// becomes `unknown`.
pub const MAX_CLOCK_SKEW_SECONDS: i64 = 300;

/// 9999-12-31T23:59:59Z, the last time RFC 3339 can write.
const LAST_SECOND_OF_9999: i64 = 253_402_300_799;

/// Days from 1970-01-01 to the given date (valid dates only).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date (year, month, day) `days` after 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

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

    /// Parses an RFC 3339 time in UTC: `YYYY-MM-DDTHH:MM:SSZ`, optionally
    /// with 1 to 9 digits of fractional seconds (dropped). Another offset, a
    /// date that does not exist, or a year outside 1970 to 9999 is rejected;
    /// a leap second (`:60`) counts as `:59`.
    pub fn parse_rfc3339(text: &str) -> Option<Self> {
        let b = text.as_bytes();
        let (main, rest) = (b.get(..19)?, &b[19..]);
        let fraction = match rest {
            [b'.', digits @ .., b'Z'] if (1..=9).contains(&digits.len()) => digits,
            [b'Z'] => &[],
            _ => return None,
        };
        let number = |range: std::ops::Range<usize>| -> Option<i64> {
            main[range].iter().try_fold(0, |n, &d| {
                d.is_ascii_digit().then(|| n * 10 + i64::from(d - b'0'))
            })
        };
        let separators = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
        if separators.iter().any(|&(i, c)| main[i] != c) || !fraction.iter().all(u8::is_ascii_digit)
        {
            return None;
        }
        let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
        let (hour, minute, second) = (number(11..13)?, number(14..16)?, number(17..19)?);
        if year < 1970
            || !(1..=12).contains(&month)
            || !(1..=days_in_month(year, month)).contains(&day)
            || hour > 23
            || minute > 59
            || second > 60
        {
            return None;
        }
        let days = days_from_civil(year, month, day);
        Some(Timestamp(
            days * 86_400 + hour * 3600 + minute * 60 + second.min(59),
        ))
    }

    /// The RFC 3339 UTC form with whole seconds, for example `2026-09-01T08:00:00Z`.
    /// Times outside 1970 to 9999 are clamped to that range.
    pub fn to_rfc3339(self) -> String {
        let [year, month, day, hour, minute, second] = self.fields();
        joined_fields(&[
            (year, 4, "-"),
            (month, 2, "-"),
            (day, 2, "T"),
            (hour, 2, ":"),
            (minute, 2, ":"),
            (second, 2, "Z"),
        ])
    }

    /// Year, month, day, hour, minute and second, clamped to 1970 to 9999.
    fn fields(self) -> [i64; 6] {
        let seconds = self.0.clamp(0, LAST_SECOND_OF_9999);
        let (year, month, day) = civil_from_days(seconds / 86_400);
        let time = seconds % 86_400;
        [year, month, day, time / 3600, time / 60 % 60, time % 60]
    }

    /// A short human form, for example `2026-09-01 08:00 UTC`.
    pub fn to_human(self) -> String {
        let [year, month, day, hour, minute, _] = self.fields();
        joined_fields(&[
            (year, 4, "-"),
            (month, 2, "-"),
            (day, 2, " "),
            (hour, 2, ":"),
            (minute, 2, " UTC"),
        ])
    }

    /// This time plus `hours` hours, saturating at the ends of time.
    pub const fn plus_hours(self, hours: u32) -> Self {
        self.plus_seconds(hours as i64 * 3600)
    }

    /// This time plus `seconds` seconds, saturating at the ends of time.
    pub const fn plus_seconds(self, seconds: i64) -> Self {
        Timestamp(self.0.saturating_add(seconds))
    }

    /// The time of a native clock reading; for callers that own a clock.
    pub fn from_system_time(time: SystemTime) -> Self {
        let seconds = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        Timestamp(i64::try_from(seconds).unwrap_or(i64::MAX))
    }
}

/// A calendar month (UTC), written `YYYY-MM`: the unit of published metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Month {
    year: i64,
    month: i64,
}

impl Month {
    /// The month holding `time` (clamped to 1970 to 9999).
    pub fn of(time: Timestamp) -> Self {
        let [year, month, ..] = time.fields();
        Month { year, month }
    }

    /// Parses `YYYY-MM` (years 1970 to 9999, months 01 to 12).
    pub fn parse(text: &str) -> Option<Self> {
        let b = text.as_bytes();
        if b.len() != 7 || b[4] != b'-' || !b[..4].iter().chain(&b[5..]).all(u8::is_ascii_digit) {
            return None;
        }
        let number = |digits: &[u8]| digits.iter().fold(0, |n, &d| n * 10 + i64::from(d - b'0'));
        let (year, month) = (number(&b[..4]), number(&b[5..]));
        ((1970..=9999).contains(&year) && (1..=12).contains(&month))
            .then_some(Month { year, month })
    }

    /// Parses a date `YYYY-MM-DD` into its month and day of the month.
    pub fn parse_date(text: &str) -> Option<(Self, u8)> {
        let (month, day) = (text.get(..7)?, text.get(7..)?);
        let month = Month::parse(month)?;
        let day = day
            .strip_prefix('-')
            .filter(|d| d.len() == 2 && d.bytes().all(|b| b.is_ascii_digit()))?;
        let day: u8 = day.parse().ok()?;
        (1..=month.last_day())
            .contains(&day)
            .then_some((month, day))
    }

    /// The number of its last day (28 to 31).
    pub fn last_day(self) -> u8 {
        // 28 to 31 always fit.
        days_in_month(self.year, self.month) as u8
    }

    /// The month after this one.
    pub fn next(self) -> Self {
        if self.month == 12 {
            Month {
                year: self.year + 1,
                month: 1,
            }
        } else {
            Month {
                year: self.year,
                month: self.month + 1,
            }
        }
    }

    /// The month before this one.
    pub fn previous(self) -> Self {
        if self.month == 1 {
            Month {
                year: self.year - 1,
                month: 12,
            }
        } else {
            Month {
                year: self.year,
                month: self.month - 1,
            }
        }
    }

    /// Its last second, `YYYY-MM-LLT23:59:59Z`: "the month's end".
    pub fn end(self) -> Timestamp {
        let days = days_from_civil(self.year, self.month, self.last_day().into());
        Timestamp(days * 86_400 + 86_399)
    }

    /// Its last day, `YYYY-MM-DD`.
    pub fn last_date(self) -> String {
        joined_fields(&[
            (self.year, 4, "-"),
            (self.month, 2, "-"),
            (self.last_day().into(), 2, ""),
        ])
    }
}

impl uDisplay for Month {
    /// `YYYY-MM`.
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        f.write_str(&joined_fields(&[(self.year, 4, "-"), (self.month, 2, "")]))
    }
}

display_from_words!(Month);

/// Numbers each padded with zeros to its width and followed by its separator.
fn joined_fields(fields: &[(i64, usize, &str)]) -> String {
    let mut text = String::with_capacity(24);
    for &(n, width, then) in fields {
        push_padded(&mut text, n, width);
        text.push_str(then);
    }
    text
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
    fn arithmetic_saturates() {
        let last = Timestamp::from_unix_seconds(i64::MAX);
        assert_eq!(last.plus_hours(u32::MAX), last);
        assert_eq!(last.plus_seconds(1), last);
        let first = Timestamp::from_unix_seconds(i64::MIN);
        assert_eq!(first.plus_seconds(-1), first);
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
    fn agrees_with_the_calendar_on_every_day_of_four_centuries() {
        // 2000 is a leap year, 2100 is not; walk day by day from 1970.
        let mut days = 0;
        for year in 1970..2400 {
            for month in 1..=12 {
                for day in 1..=days_in_month(year, month) {
                    assert_eq!(days_from_civil(year, month, day), days);
                    assert_eq!(civil_from_days(days), (year, month, day));
                    days += 1;
                }
            }
        }
        let t = Timestamp::parse_rfc3339("2000-02-29T23:59:60Z").unwrap();
        assert_eq!(t.to_rfc3339(), "2000-02-29T23:59:59Z");
        assert_eq!(
            Timestamp::parse_rfc3339("9999-12-31T23:59:59Z")
                .unwrap()
                .unix_seconds(),
            LAST_SECOND_OF_9999
        );
    }

    #[test]
    fn rejects_non_utc_and_junk() {
        for bad in [
            "2026-09-01T08:00:00+02:00",
            "2026-09-01T08:00:00+00:00",
            "2026-09-01 08:00:00Z",
            "2026-09-01t08:00:00z",
            "2026-13-01T08:00:00Z",
            "2026-02-29T08:00:00Z",
            "2100-02-29T08:00:00Z",
            "2026-04-31T08:00:00Z",
            "2026-09-00T08:00:00Z",
            "2026-09-01T24:00:00Z",
            "2026-09-01T08:60:00Z",
            "2026-09-01T08:00:61Z",
            "2026-09-01T08:00:00.Z",
            "2026-09-01T08:00:00.1234567890Z",
            "2026-09-01T08:00:00.12aZ",
            "2026-09-01T08:00:00",
            "2026-09-01T08:00:00ZZ",
            "+026-09-01T08:00:00Z",
            "2026-9-01T08:00:00Z",
            "1969-12-31T23:59:59Z",
            "yesterday",
            "",
        ] {
            assert_eq!(Timestamp::parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn months_parse_step_and_end() {
        let may = Month::parse("2026-05").unwrap();
        assert_eq!(may.to_string(), "2026-05");
        assert_eq!(may.end().to_rfc3339(), "2026-05-31T23:59:59Z");
        assert_eq!(may.last_date(), "2026-05-31");
        assert_eq!(Month::parse("2024-02").unwrap().last_day(), 29);
        assert_eq!(
            Month::parse("2026-12").unwrap().next().to_string(),
            "2027-01"
        );
        assert_eq!(
            Month::parse("2027-01").unwrap().previous().to_string(),
            "2026-12"
        );
        let t = |s| Timestamp::parse_rfc3339(s).unwrap();
        assert_eq!(Month::of(t("2026-05-31T23:59:59Z")), may);
        assert_eq!(Month::of(t("2026-06-01T00:00:00Z")), may.next());
        assert_eq!(Month::parse_date("2026-05-31"), Some((may, 31)));
        for bad in [
            "2026-5", "2026-13", "2026-00", "1969-12", "2026/05", "+026-05", "2026-05-",
        ] {
            assert_eq!(Month::parse(bad), None, "{bad}");
        }
        for bad in [
            "2026-06-31",
            "2026-05-00",
            "2026-05-1",
            "2026-05-011",
            "2026-05",
            "2026-05x01",
        ] {
            assert_eq!(Month::parse_date(bad), None, "{bad}");
        }
    }
}
