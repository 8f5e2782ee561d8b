//! The strict reader of `published-metrics/v1`, the document a verification
//! service publishes at `GET /v0/metrics` (protocol section "Published
//! metrics"): a crate of its own, beside the verifier core it reads with
//! (its strict JSON, member paths and months), since no verifier needs it.
//!
//! A document that breaks any rule is no dataset: [`PublishedMetrics::parse`]
//! answers the first broken rule as an [`MetricsError`]: where ([`MemberPath`])
//! and which [`MetricsRule`], its `Display` a one-line detail. The rules: the strict
//! JSON of verdicts; complete months only (every point dated `YYYY-MM`
//! within `period`, ascending, never after the month `asOf` closes, `asOf`
//! being that month's last day); counts are non-negative integers and ratios
//! lie in 0..1; an unavailable series has a reason and no points; a
//! related-party report has only related-party series; no member beyond
//! those of the format (so no identifier can ride along). Series ids this
//! reader does not know are kept, with their figures read by the generic
//! rule (counts and ratios only), and marked as unknown.
//!
//! ```
//! use x402_verdict_metrics::{MemberPath, PublishedMetrics, MetricsRule};
//!
//! let doc = br#"{"schema":"published-metrics/v1","asOf":"2026-08-31","period":null,"relatedParty":true,
//!   "operator":{"operator":"Example","relatedParty":true,"disclosure":"A pilot."},"series":[]}"#;
//! assert!(PublishedMetrics::parse(doc).unwrap().period.is_none());
//! let invalid = PublishedMetrics::parse(b"{}").unwrap_err();
//! assert_eq!((invalid.at, invalid.rule), (MemberPath::root().member("schema"), MetricsRule::NotSchema));
//! let invalid = PublishedMetrics::parse(br#"{"schema":"published-metrics/v1","asOf":"2026-08"}"#).unwrap_err();
//! assert_eq!(invalid.to_string(), "asOf is not a date YYYY-MM-DD");
//! ```

use std::fmt;

pub use x402_verdict_core::json::{MemberPath, Step};
use x402_verdict_core::json::{MemberRule, Members, UnknownMember};
use x402_verdict_core::json::{Object, ObjectError, ParseError, Value};
use x402_verdict_core::Month;

/// The value of `schema`.
pub const SCHEMA: &str = "published-metrics/v1";

/// A document that keeps every rule.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedMetrics {
    /// The last complete month; `asOf` is its last day.
    pub as_of: Month,
    /// The first and last month with figures; `None` while no complete
    /// month holds a record ("nothing to publish yet").
    pub period: Option<(Month, Month)>,
    /// Whether the operator runs a related-party pilot.
    pub related_party: bool,
    /// Who publishes, and what they disclose.
    pub operator: Operator,
    /// The series, in the document's order.
    pub series: Vec<Series>,
}

/// The operator block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operator {
    /// The operator's name.
    pub name: String,
    /// Whether the operator is a related party of what it measures.
    pub related_party: bool,
    /// The disclosure text, shown with the figures.
    pub disclosure: String,
}

/// One series.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Its id as published.
    pub id: String,
    /// The series, when this reader knows the id.
    pub known: Option<KnownSeries>,
    /// How it is measured (`registry-based`, `aggregate`, …).
    pub discipline: String,
    /// Whether it is measured on a related-party pilot.
    pub related_party: bool,
    /// Its figures, or why there are none.
    pub figures: Figures,
}

/// A series' figures.
#[derive(Clone, Debug, PartialEq)]
pub enum Figures {
    /// Points, one per month, ascending (possibly none yet).
    Available(Vec<Point>),
    /// The records hold no source for it.
    Unavailable {
        /// Why.
        reason: String,
    },
}

/// One month's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The month.
    pub period: Month,
    /// Named figures: a known series' in its field order, an unknown
    /// series' by name.
    pub figures: Vec<(String, Figure)>,
}

/// One figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Figure {
    /// A non-negative integer.
    Count(u64),
    /// A number from 0 to 1.
    Ratio(f64),
    /// `null`: no figure (a ratio over nothing).
    Missing,
}

/// What a field of a known series holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Count,
    /// A ratio, `null` when its denominator is zero.
    RatioOrNull,
}

/// The series this reader knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnownSeries {
    /// Sellers attested: `cumulative`, `active`, `independent`.
    SellersAttested,
    /// 90-day retention: `eligible`, `retained`, `ratio`.
    Retention90d,
    /// Verdict answers served on the free path: `verdicts`.
    VerificationsFreePath,
    /// Verifiers outside the operator's circle: `verifiers`.
    IndependentVerifiers,
    /// Revenue, context only: figures read by the generic rule.
    Revenue,
}

impl KnownSeries {
    /// Every known series, in the order a report lists them.
    pub const ALL: [KnownSeries; 5] = [
        KnownSeries::SellersAttested,
        KnownSeries::Retention90d,
        KnownSeries::VerificationsFreePath,
        KnownSeries::IndependentVerifiers,
        KnownSeries::Revenue,
    ];

    /// The series named `id`.
    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Its id on the wire.
    pub fn id(self) -> &'static str {
        match self {
            KnownSeries::SellersAttested => "sellers_attested",
            KnownSeries::Retention90d => "retention_90d",
            KnownSeries::VerificationsFreePath => "verifications_free_path",
            KnownSeries::IndependentVerifiers => "independent_verifiers",
            KnownSeries::Revenue => "revenue",
        }
    }

    /// Its fields in display order; `None` for figures read by the generic rule.
    fn fields(self) -> Option<&'static [(&'static str, Kind)]> {
        match self {
            KnownSeries::SellersAttested => Some(&[
                ("cumulative", Kind::Count),
                ("active", Kind::Count),
                ("independent", Kind::Count),
            ]),
            KnownSeries::Retention90d => Some(&[
                ("eligible", Kind::Count),
                ("retained", Kind::Count),
                ("ratio", Kind::RatioOrNull),
            ]),
            KnownSeries::VerificationsFreePath => Some(&[("verdicts", Kind::Count)]),
            KnownSeries::IndependentVerifiers => Some(&[("verifiers", Kind::Count)]),
            KnownSeries::Revenue => None,
        }
    }
}

impl Point {
    /// The figure named `name`.
    pub fn get(&self, name: &str) -> Option<Figure> {
        self.figures
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, figure)| figure)
    }

    fn count(&self, name: &str) -> u64 {
        match self.get(name) {
            Some(Figure::Count(n)) => n,
            _ => 0,
        }
    }
}

/// Why a document is not a `published-metrics/v1` dataset: the first rule it
/// breaks, and where. Its `Display` is the one-line detail, such as
/// `series[0] (sellers_attested): points[1].active exceeds cumulative`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetricsError {
    /// The member or item that breaks the rule (for a rule on what an object
    /// holds, such as an unknown member: the object); the root for the
    /// document as a whole.
    pub at: MemberPath,
    /// The rule it breaks.
    pub rule: MetricsRule,
}

/// A rule of the format, for [`MetricsError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MetricsRule {
    /// The text is not a document under the strict JSON rules of verdicts.
    NotJson(ParseError),
    /// A rule any member can break: missing (a figure of a known series),
    /// not `true` or `false`, not a list, not an object.
    Member(MemberRule),
    /// The object holds a member the format does not have (this name).
    UnknownMember(String),
    /// `schema` is not [`SCHEMA`].
    NotSchema,
    /// It is not a string holding more than white space.
    NotText,
    /// `period` is neither `null` nor an object.
    NotNullOrObject,
    /// `asOf` is not a date `YYYY-MM-DD`.
    NotDate,
    /// `asOf` is not the last day of its month.
    NotLastDay,
    /// It is not a month `YYYY-MM`.
    NotMonth,
    /// `period.from` is after `period.to`.
    AfterTo,
    /// `period.to` is not the month `asOf` closes.
    NotMonthOfAsOf,
    /// The operator's `relatedParty` differs from the report's.
    DiffersFromReport,
    /// A series' `relatedParty` is false in a related-party report.
    NotRelatedParty,
    /// A series' `id` is also that of the series at this index.
    RepeatsId(usize),
    /// An available series has an `unavailableReason`.
    ReasonWhileAvailable,
    /// An unavailable series has points.
    PointsWhileUnavailable,
    /// A point, though the report's `period` is `null`.
    PointWithoutPeriod,
    /// A point's month (this one) is after the month `asOf` closes.
    NotComplete(Month),
    /// A point's month (this one) is before `period.from`.
    BeforeFrom(Month),
    /// A point's month (this one) is not after the month of the point
    /// before it.
    NotAscending(Month),
    /// A figure is a negative integer.
    Negative,
    /// A figure is a number that is neither a non-negative integer nor a
    /// ratio from 0 to 1.
    NotCountOrRatio,
    /// A figure is not a number (or `null`).
    NotNumber,
    /// A count of a known series is not a non-negative integer.
    NotCount,
    /// A ratio of a known series is neither `null` nor a number from 0 to 1.
    NotRatioOrNull,
    /// A count exceeds the count of this name in the same point.
    Exceeds(&'static str),
    /// `ratio` is `null`, though `eligible` is not 0.
    NullThoughEligible,
    /// `ratio` is not `null`, though `eligible` is 0.
    NotNullThoughNoneEligible,
    /// `ratio` is not `retained / eligible` to 4 decimals.
    NotRetainedOverEligible,
}

impl fmt::Display for MetricsRule {
    /// The words after the path.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The parse error is its source().
            Self::NotJson(_) => f.write_str("not strict JSON"),
            Self::Member(rule) => rule.fmt(f),
            Self::UnknownMember(name) => write!(f, "unknown member `{name}`"),
            Self::NotSchema => write!(f, "is not \"{SCHEMA}\""),
            Self::NotText => f.write_str("is not a non-empty string"),
            Self::NotNullOrObject => f.write_str("is not null or an object"),
            Self::NotDate => f.write_str("is not a date YYYY-MM-DD"),
            Self::NotLastDay => f.write_str("is not the last day of its month"),
            Self::NotMonth => f.write_str("is not a month YYYY-MM"),
            Self::AfterTo => f.write_str("is after period.to"),
            Self::NotMonthOfAsOf => f.write_str("is not the month asOf closes"),
            Self::DiffersFromReport => f.write_str("differs from relatedParty"),
            Self::NotRelatedParty => f.write_str("is false in a related-party report"),
            Self::RepeatsId(first) => write!(f, "is also the id of series[{first}]"),
            Self::ReasonWhileAvailable => f.write_str("available, yet it has an unavailableReason"),
            Self::PointsWhileUnavailable => f.write_str("unavailable, yet it has points"),
            Self::PointWithoutPeriod => f.write_str("a point, yet the report's period is null"),
            Self::NotComplete(month) => {
                write!(f, "{month} is not a complete month as of asOf")
            }
            Self::BeforeFrom(month) => write!(f, "{month} is before period.from"),
            Self::NotAscending(month) => {
                write!(f, "{month} does not follow the point before it")
            }
            Self::Negative => f.write_str("is negative"),
            Self::NotCountOrRatio => {
                f.write_str("is neither a non-negative integer nor a ratio from 0 to 1")
            }
            Self::NotNumber => f.write_str("is not a number (counts and ratios only)"),
            Self::NotCount => f.write_str("is not a non-negative integer"),
            Self::NotRatioOrNull => f.write_str("is not null or a number from 0 to 1"),
            Self::Exceeds(other) => write!(f, "exceeds {other}"),
            Self::NullThoughEligible => f.write_str("is null, yet eligible is not 0"),
            Self::NotNullThoughNoneEligible => f.write_str("is not null, yet eligible is 0"),
            Self::NotRetainedOverEligible => {
                f.write_str("is not retained / eligible to 4 decimals")
            }
        }
    }
}

impl fmt::Display for MetricsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (at, rule) = (&self.at, &self.rule);
        let root = at.0.is_empty();
        match rule {
            MetricsRule::NotJson(_) => write!(f, "{rule}"),
            MetricsRule::Member(MemberRule::NotAnObject) if root => {
                f.write_str("not a JSON object")
            }
            MetricsRule::UnknownMember(_) if root => write!(f, "{rule}"),
            // A rule on what the object holds, not on the object.
            MetricsRule::UnknownMember(_)
            | MetricsRule::ReasonWhileAvailable
            | MetricsRule::PointsWhileUnavailable
            | MetricsRule::PointWithoutPeriod => write!(f, "{at}: {rule}"),
            _ => write!(f, "{at} {rule}"),
        }
    }
}

impl std::error::Error for MetricsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.rule {
            MetricsRule::NotJson(e) => Some(e),
            _ => None,
        }
    }
}

fn broken<T>(at: MemberPath, rule: MetricsRule) -> Result<T, MetricsError> {
    Err(MetricsError { at, rule })
}

/// A shared reading, its error placed at `at`.
fn read<T>(
    at: impl FnOnce() -> MemberPath,
    read: Result<T, MemberRule>,
) -> Result<T, MetricsError> {
    read.or_else(|rule| broken(at(), MetricsRule::Member(rule)))
}

impl PublishedMetrics {
    /// Reads a document under every rule of the format.
    ///
    /// # Errors
    ///
    /// The first broken rule, and where.
    pub fn parse(bytes: &[u8]) -> Result<Self, MetricsError> {
        let root = MemberPath::root();
        let top = Object::parse(bytes).map_err(|e| MetricsError {
            at: MemberPath::root(),
            rule: match e {
                ObjectError::NotJson(e) => MetricsRule::NotJson(e),
                ObjectError::NotAnObject => MetricsRule::Member(MemberRule::NotAnObject),
            },
        })?;
        if top.get("schema").and_then(Value::as_str) != Some(SCHEMA) {
            return broken(root.member("schema"), MetricsRule::NotSchema);
        }
        only_members(
            &top,
            &root,
            &[
                "schema",
                "asOf",
                "period",
                "relatedParty",
                "operator",
                "series",
            ],
        )?;
        let as_of = match top
            .get("asOf")
            .and_then(Value::as_str)
            .map(Month::parse_date)
        {
            Some(Some((month, day))) if day == month.last_day() => month,
            Some(Some(_)) => return broken(root.member("asOf"), MetricsRule::NotLastDay),
            _ => return broken(root.member("asOf"), MetricsRule::NotDate),
        };
        let period = read_period(top.get("period"), as_of)?;
        let related_party = boolean(&top, &root, "relatedParty")?;
        let operator = read_operator(top.get("operator"), related_party)?;
        let list = root.member("series");
        let Some(items) = top.get("series").and_then(Value::as_array) else {
            return broken(list, MetricsRule::Member(MemberRule::NotAList));
        };
        let mut series: Vec<Series> = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let one = read_series(item, &list, i, period, related_party)?;
            if let Some(j) = series.iter().position(|s| s.id == one.id) {
                return broken(
                    list.series(i, &one.id).member("id"),
                    MetricsRule::RepeatsId(j),
                );
            }
            series.push(one);
        }
        Ok(PublishedMetrics {
            as_of,
            period,
            related_party,
            operator,
            series,
        })
    }
}

/// Refuses any member of `object` (at `at`) not in `allowed`.
fn only_members(object: &Object, at: &MemberPath, allowed: &[&str]) -> Result<(), MetricsError> {
    Members(object)
        .only(allowed)
        .or_else(|UnknownMember(name)| broken(at.clone(), MetricsRule::UnknownMember(name)))
}

fn boolean(object: &Object, at: &MemberPath, name: &str) -> Result<bool, MetricsError> {
    read(|| at.member(name), Members(object).bool(name))
}

fn text(object: &Object, at: &MemberPath, name: &str) -> Result<String, MetricsError> {
    match object.get(name).and_then(Value::as_str) {
        Some(s) if !s.trim().is_empty() => Ok(s.to_owned()),
        _ => broken(at.member(name), MetricsRule::NotText),
    }
}

fn read_period(
    value: Option<&Value>,
    as_of: Month,
) -> Result<Option<(Month, Month)>, MetricsError> {
    let at = MemberPath::root().member("period");
    let object = match value {
        Some(Value::Null) => return Ok(None),
        Some(Value::Object(object)) => object,
        _ => return broken(at, MetricsRule::NotNullOrObject),
    };
    only_members(object, &at, &["from", "to"])?;
    let month = |name: &str| match object
        .get(name)
        .and_then(Value::as_str)
        .and_then(Month::parse)
    {
        Some(month) => Ok(month),
        None => broken(at.member(name), MetricsRule::NotMonth),
    };
    let (from, to) = (month("from")?, month("to")?);
    if from > to {
        return broken(at.member("from"), MetricsRule::AfterTo);
    }
    if to != as_of {
        return broken(at.member("to"), MetricsRule::NotMonthOfAsOf);
    }
    Ok(Some((from, to)))
}

fn read_operator(value: Option<&Value>, related_party: bool) -> Result<Operator, MetricsError> {
    let at = MemberPath::root().member("operator");
    let Some(Value::Object(object)) = value else {
        return broken(at, MetricsRule::Member(MemberRule::NotAnObject));
    };
    only_members(object, &at, &["operator", "relatedParty", "disclosure"])?;
    let operator = Operator {
        name: text(object, &at, "operator")?,
        related_party: boolean(object, &at, "relatedParty")?,
        disclosure: text(object, &at, "disclosure")?,
    };
    if operator.related_party != related_party {
        return broken(at.member("relatedParty"), MetricsRule::DiffersFromReport);
    }
    Ok(operator)
}

/// The series at `index` of `list`.
fn read_series(
    value: &Value,
    list: &MemberPath,
    index: usize,
    period: Option<(Month, Month)>,
    report_related: bool,
) -> Result<Series, MetricsError> {
    let Value::Object(object) = value else {
        return broken(
            list.item(index),
            MetricsRule::Member(MemberRule::NotAnObject),
        );
    };
    let id = text(object, &list.item(index), "id")?;
    let at = list.series(index, &id);
    only_members(
        object,
        &at,
        &[
            "id",
            "discipline",
            "relatedParty",
            "available",
            "unavailableReason",
            "points",
        ],
    )?;
    let known = KnownSeries::from_id(&id);
    let discipline = text(object, &at, "discipline")?;
    let related_party = boolean(object, &at, "relatedParty")?;
    if report_related && !related_party {
        return broken(at.member("relatedParty"), MetricsRule::NotRelatedParty);
    }
    let points = object.get("points");
    let figures = if boolean(object, &at, "available")? {
        if object.get("unavailableReason").is_some() {
            return broken(at, MetricsRule::ReasonWhileAvailable);
        }
        let Some(Value::Array(items)) = points else {
            return broken(
                at.member("points"),
                MetricsRule::Member(MemberRule::NotAList),
            );
        };
        let mut read = Vec::with_capacity(items.len());
        for (k, item) in items.iter().enumerate() {
            let point_at = at.member("points").item(k);
            let point = read_point(item, &point_at, known, period)?;
            if read
                .last()
                .is_some_and(|p: &Point| p.period >= point.period)
            {
                return broken(
                    point_at.member("period"),
                    MetricsRule::NotAscending(point.period),
                );
            }
            read.push(point);
        }
        Figures::Available(read)
    } else {
        if points
            .and_then(Value::as_array)
            .is_some_and(|p| !p.is_empty())
        {
            return broken(at, MetricsRule::PointsWhileUnavailable);
        }
        if !matches!(points, None | Some(Value::Array(_))) {
            return broken(
                at.member("points"),
                MetricsRule::Member(MemberRule::NotAList),
            );
        }
        Figures::Unavailable {
            reason: text(object, &at, "unavailableReason")?,
        }
    };
    Ok(Series {
        id,
        known,
        discipline,
        related_party,
        figures,
    })
}

/// The point at `at`.
fn read_point(
    value: &Value,
    at: &MemberPath,
    known: Option<KnownSeries>,
    period: Option<(Month, Month)>,
) -> Result<Point, MetricsError> {
    let Value::Object(object) = value else {
        return broken(at.clone(), MetricsRule::Member(MemberRule::NotAnObject));
    };
    let Some(month) = object
        .get("period")
        .and_then(Value::as_str)
        .and_then(Month::parse)
    else {
        return broken(at.member("period"), MetricsRule::NotMonth);
    };
    match period {
        None => return broken(at.clone(), MetricsRule::PointWithoutPeriod),
        Some((_, to)) if month > to => {
            return broken(at.member("period"), MetricsRule::NotComplete(month))
        }
        Some((from, _)) if month < from => {
            return broken(at.member("period"), MetricsRule::BeforeFrom(month))
        }
        Some(_) => {}
    }
    let figures = match known.and_then(KnownSeries::fields) {
        Some(fields) => {
            let mut names = vec!["period"];
            names.extend(fields.iter().map(|(name, _)| *name));
            only_members(object, at, &names)?;
            fields
                .iter()
                .map(|&(name, kind)| {
                    let broken = |rule| MetricsError {
                        at: at.member(name),
                        rule,
                    };
                    let value = object
                        .get(name)
                        .ok_or_else(|| broken(MetricsRule::Member(MemberRule::Missing)))?;
                    let read = figure(value).map_err(broken)?;
                    match (kind, read) {
                        (Kind::Count, Figure::Count(_))
                        | (Kind::RatioOrNull, Figure::Ratio(_) | Figure::Missing) => {
                            Ok((name.to_owned(), read))
                        }
                        (Kind::RatioOrNull, Figure::Count(n)) if n <= 1 => {
                            Ok((name.to_owned(), Figure::Ratio(n as f64)))
                        }
                        (Kind::Count, _) => Err(broken(MetricsRule::NotCount)),
                        (Kind::RatioOrNull, _) => Err(broken(MetricsRule::NotRatioOrNull)),
                    }
                })
                .collect::<Result<Vec<_>, _>>()?
        }
        None => object
            .names()
            .filter(|name| *name != "period")
            .map(|name| {
                let value = object.get(name).unwrap_or(&Value::Null);
                match figure(value) {
                    Ok(f) => Ok((name.to_owned(), f)),
                    Err(rule) => broken(at.member(name), rule),
                }
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    let point = Point {
        period: month,
        figures,
    };
    check_consistency(&point, known, at)?;
    Ok(point)
}

/// A count, a ratio or null: counts and ratios only.
fn figure(value: &Value) -> Result<Figure, MetricsRule> {
    match value {
        Value::Null => Ok(Figure::Missing),
        Value::Integer(n) => u64::try_from(*n)
            .map(Figure::Count)
            .map_err(|_| MetricsRule::Negative),
        Value::OtherNumber(literal) => match literal.parse::<f64>().ok() {
            Some(r) if (0.0..=1.0).contains(&r) => Ok(Figure::Ratio(r)),
            _ => Err(MetricsRule::NotCountOrRatio),
        },
        _ => Err(MetricsRule::NotNumber),
    }
}

/// The relations between a known series' figures, in the point at `at`.
fn check_consistency(
    point: &Point,
    known: Option<KnownSeries>,
    at: &MemberPath,
) -> Result<(), MetricsError> {
    let c = |name| point.count(name);
    let exceeds = |name, other| broken(at.member(name), MetricsRule::Exceeds(other));
    match known {
        Some(KnownSeries::SellersAttested) if c("active") > c("cumulative") => {
            exceeds("active", "cumulative")
        }
        Some(KnownSeries::SellersAttested) if c("independent") > c("active") => {
            exceeds("independent", "active")
        }
        Some(KnownSeries::Retention90d) => {
            let (eligible, retained) = (c("eligible"), c("retained"));
            if retained > eligible {
                return exceeds("retained", "eligible");
            }
            let ratio = |rule| broken(at.member("ratio"), rule);
            match point.get("ratio") {
                Some(Figure::Missing) if eligible == 0 => Ok(()),
                Some(Figure::Missing) => ratio(MetricsRule::NullThoughEligible),
                _ if eligible == 0 => ratio(MetricsRule::NotNullThoughNoneEligible),
                Some(Figure::Ratio(r))
                    if (r - retained as f64 / eligible as f64).abs() <= 0.000_051 =>
                {
                    Ok(())
                }
                _ => ratio(MetricsRule::NotRetainedOverEligible),
            }
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value as Json};
    use x402_verdict_core::json::ParseErrorKind;

    fn valid() -> Json {
        json!({
            "schema": "published-metrics/v1",
            "asOf": "2026-08-31",
            "period": { "from": "2026-06", "to": "2026-08" },
            "relatedParty": true,
            "operator": { "operator": "Example operator", "relatedParty": true, "disclosure": "A related-party pilot." },
            "series": [
                { "id": "sellers_attested", "discipline": "registry-based", "relatedParty": true, "available": true,
                  "points": [
                    { "period": "2026-06", "cumulative": 2, "active": 2, "independent": 1 },
                    { "period": "2026-08", "cumulative": 3, "active": 2, "independent": 0 } ] },
                { "id": "retention_90d", "discipline": "registry-based", "relatedParty": true, "available": true,
                  "points": [
                    { "period": "2026-07", "eligible": 0, "retained": 0, "ratio": null },
                    { "period": "2026-08", "eligible": 3, "retained": 2, "ratio": 0.6667 } ] },
                { "id": "verifications_free_path", "discipline": "aggregate", "relatedParty": true, "available": true,
                  "points": [ { "period": "2026-08", "verdicts": 1234 } ] },
                { "id": "revenue", "discipline": "context", "relatedParty": true, "available": false,
                  "unavailableReason": "No payment records.", "points": [] },
                { "id": "future_series", "discipline": "aggregate", "relatedParty": true, "available": true,
                  "points": [ { "period": "2026-08", "widgets": 7, "share": 0.25 } ] }
            ]
        })
    }

    fn parse(doc: &Json) -> Result<PublishedMetrics, MetricsError> {
        PublishedMetrics::parse(doc.to_string().as_bytes())
    }

    #[test]
    fn reads_a_valid_document() {
        let m = parse(&valid()).unwrap();
        assert_eq!(m.as_of.to_string(), "2026-08");
        assert_eq!(m.series.len(), 5);
        assert_eq!(m.operator.name, "Example operator");
        let Figures::Available(points) = &m.series[1].figures else {
            panic!()
        };
        assert_eq!(points[1].get("ratio"), Some(Figure::Ratio(0.6667)));
        assert_eq!(points[0].get("ratio"), Some(Figure::Missing));
        assert_eq!(
            m.series[0].known,
            Some(KnownSeries::SellersAttested),
            "known ids are recognised"
        );
        // An unknown series is kept, its figures read by the generic rule.
        assert_eq!(m.series[4].known, None);
        let Figures::Available(points) = &m.series[4].figures else {
            panic!()
        };
        assert_eq!(
            points[0].figures,
            vec![
                ("share".to_owned(), Figure::Ratio(0.25)),
                ("widgets".to_owned(), Figure::Count(7))
            ]
        );
        // Nothing to publish yet: no period, no points.
        let mut empty = valid();
        empty["period"] = Json::Null;
        for s in empty["series"].as_array_mut().unwrap() {
            s["points"] = json!([]);
        }
        assert_eq!(parse(&empty).unwrap().period, None);
    }

    fn month(text: &str) -> Month {
        Month::parse(text).unwrap()
    }

    fn top(name: &str) -> MemberPath {
        MemberPath::root().member(name)
    }

    fn series(index: usize, id: &str) -> MemberPath {
        top("series").series(index, id)
    }

    fn point(index: usize, id: &str, k: usize) -> MemberPath {
        series(index, id).member("points").item(k)
    }

    /// Each rule, broken once: (what to change, where, the rule broken).
    #[test]
    fn each_rule_has_a_failing_document() {
        type Edit = Box<dyn Fn(&mut Json)>;
        let set = |path: &'static str, v: Json| -> Edit {
            Box::new(move |d: &mut Json| {
                let (parent, last) = path.rsplit_once('/').unwrap();
                match d.pointer_mut(parent).unwrap() {
                    Json::Object(o) => {
                        o.insert(last.to_owned(), v.clone());
                    }
                    other => other[last.parse::<usize>().unwrap()] = v.clone(),
                }
            })
        };
        let remove = |path: &'static str| -> Edit {
            Box::new(move |d: &mut Json| {
                let (parent, last) = path.rsplit_once('/').unwrap();
                d.pointer_mut(parent)
                    .unwrap()
                    .as_object_mut()
                    .unwrap()
                    .remove(last);
            })
        };
        let sellers = |k: usize| point(0, "sellers_attested", k);
        let retention = |k: usize| point(1, "retention_90d", k);
        let cases: Vec<(Edit, MemberPath, MetricsRule)> = vec![
            (
                set("/schema", json!("published-metrics/v2")),
                top("schema"),
                MetricsRule::NotSchema,
            ),
            (
                set("/extra", json!(1)),
                MemberPath::root(),
                MetricsRule::UnknownMember("extra".into()),
            ),
            (
                set("/asOf", json!("2026-08")),
                top("asOf"),
                MetricsRule::NotDate,
            ),
            (
                set("/asOf", json!("2026-08-30")),
                top("asOf"),
                MetricsRule::NotLastDay,
            ),
            (
                set("/period", json!("2026-06..2026-08")),
                top("period"),
                MetricsRule::NotNullOrObject,
            ),
            (
                set("/period/from", json!("2026-6")),
                top("period").member("from"),
                MetricsRule::NotMonth,
            ),
            (
                set("/period/from", json!("2026-09")),
                top("period").member("from"),
                MetricsRule::AfterTo,
            ),
            (
                set("/period/to", json!("2026-07")),
                top("period").member("to"),
                MetricsRule::NotMonthOfAsOf,
            ),
            (
                set("/period/label", json!("x")),
                top("period"),
                MetricsRule::UnknownMember("label".into()),
            ),
            (
                set("/relatedParty", json!("yes")),
                top("relatedParty"),
                MetricsRule::Member(MemberRule::NotABoolean),
            ),
            (
                set("/operator", json!("Example")),
                top("operator"),
                MetricsRule::Member(MemberRule::NotAnObject),
            ),
            (
                set("/operator/operator", json!(" ")),
                top("operator").member("operator"),
                MetricsRule::NotText,
            ),
            (
                set("/operator/disclosure", json!(null)),
                top("operator").member("disclosure"),
                MetricsRule::NotText,
            ),
            (
                set("/operator/relatedParty", json!(false)),
                top("operator").member("relatedParty"),
                MetricsRule::DiffersFromReport,
            ),
            (
                set("/series", json!({})),
                top("series"),
                MetricsRule::Member(MemberRule::NotAList),
            ),
            (
                set("/series/0", json!(1)),
                top("series").item(0),
                MetricsRule::Member(MemberRule::NotAnObject),
            ),
            (
                set("/series/0/id", json!("")),
                top("series").item(0).member("id"),
                MetricsRule::NotText,
            ),
            (
                set("/series/3/id", json!("sellers_attested")),
                series(3, "sellers_attested").member("id"),
                MetricsRule::RepeatsId(0),
            ),
            (
                set("/series/0/discipline", json!(1)),
                series(0, "sellers_attested").member("discipline"),
                MetricsRule::NotText,
            ),
            (
                set("/series/0/relatedParty", json!(false)),
                series(0, "sellers_attested").member("relatedParty"),
                MetricsRule::NotRelatedParty,
            ),
            (
                set("/series/0/available", json!(1)),
                series(0, "sellers_attested").member("available"),
                MetricsRule::Member(MemberRule::NotABoolean),
            ),
            (
                set("/series/0/unavailableReason", json!("x")),
                series(0, "sellers_attested"),
                MetricsRule::ReasonWhileAvailable,
            ),
            (
                set("/series/0/points", json!({})),
                series(0, "sellers_attested").member("points"),
                MetricsRule::Member(MemberRule::NotAList),
            ),
            (
                set("/series/3/points", json!([{ "period": "2026-08" }])),
                series(3, "revenue"),
                MetricsRule::PointsWhileUnavailable,
            ),
            (
                set("/series/3/points", json!({})),
                series(3, "revenue").member("points"),
                MetricsRule::Member(MemberRule::NotAList),
            ),
            (
                remove("/series/3/unavailableReason"),
                series(3, "revenue").member("unavailableReason"),
                MetricsRule::NotText,
            ),
            (
                set("/series/0/points/0", json!([])),
                sellers(0),
                MetricsRule::Member(MemberRule::NotAnObject),
            ),
            (
                set("/series/0/points/0/period", json!("2026-06-01")),
                sellers(0).member("period"),
                MetricsRule::NotMonth,
            ),
            (
                set("/series/0/points/1/period", json!("2026-09")),
                sellers(1).member("period"),
                MetricsRule::NotComplete(month("2026-09")),
            ),
            (
                set("/series/0/points/0/period", json!("2026-05")),
                sellers(0).member("period"),
                MetricsRule::BeforeFrom(month("2026-05")),
            ),
            (
                set("/series/0/points/1/period", json!("2026-06")),
                sellers(1).member("period"),
                MetricsRule::NotAscending(month("2026-06")),
            ),
            (
                set("/series/0/points/0/payTo", json!("0xabc")),
                sellers(0),
                MetricsRule::UnknownMember("payTo".into()),
            ),
            (
                remove("/series/0/points/0/active"),
                sellers(0).member("active"),
                MetricsRule::Member(MemberRule::Missing),
            ),
            (
                set("/series/0/points/0/active", json!(-1)),
                sellers(0).member("active"),
                MetricsRule::Negative,
            ),
            (
                set("/series/0/points/0/active", json!(1.5)),
                sellers(0).member("active"),
                MetricsRule::NotCountOrRatio,
            ),
            (
                set("/series/0/points/0/cumulative", json!(0.5)),
                sellers(0).member("cumulative"),
                MetricsRule::NotCount,
            ),
            (
                set("/series/0/points/0/active", json!("2")),
                sellers(0).member("active"),
                MetricsRule::NotNumber,
            ),
            (
                set("/series/0/points/0/active", json!(3)),
                sellers(0).member("active"),
                MetricsRule::Exceeds("cumulative"),
            ),
            (
                set("/series/0/points/0/independent", json!(3)),
                sellers(0).member("independent"),
                MetricsRule::Exceeds("active"),
            ),
            (
                set("/series/1/points/1/ratio", json!(1.25)),
                retention(1).member("ratio"),
                MetricsRule::NotCountOrRatio,
            ),
            (
                set("/series/1/points/1/ratio", json!(2)),
                retention(1).member("ratio"),
                MetricsRule::NotRatioOrNull,
            ),
            (
                set("/series/1/points/1/ratio", json!(0.5)),
                retention(1).member("ratio"),
                MetricsRule::NotRetainedOverEligible,
            ),
            (
                set("/series/1/points/1/ratio", json!(null)),
                retention(1).member("ratio"),
                MetricsRule::NullThoughEligible,
            ),
            (
                set("/series/1/points/0/ratio", json!(0)),
                retention(0).member("ratio"),
                MetricsRule::NotNullThoughNoneEligible,
            ),
            (
                set("/series/1/points/1/retained", json!(4)),
                retention(1).member("retained"),
                MetricsRule::Exceeds("eligible"),
            ),
            (
                set("/series/4/points/0/share", json!(true)),
                point(4, "future_series", 0).member("share"),
                MetricsRule::NotNumber,
            ),
            (
                set("/series/4/points/0/label", json!("x")),
                point(4, "future_series", 0).member("label"),
                MetricsRule::NotNumber,
            ),
            (
                set("/period", json!(null)),
                sellers(0),
                MetricsRule::PointWithoutPeriod,
            ),
        ];
        let mut rules = std::collections::HashSet::new();
        for (edit, at, rule) in cases {
            let mut doc = valid();
            edit(&mut doc);
            rules.insert(match &rule {
                MetricsRule::Member(shared) => {
                    format!("Member({:?})", std::mem::discriminant(shared))
                }
                rule => format!("{:?}", std::mem::discriminant(rule)),
            });
            assert_eq!(parse(&doc), Err(MetricsError { at, rule }));
        }
        // Every variant of MetricsRule but NotJson (see `strict_json_rules_apply`),
        // and each shared MemberRule it meets (four).
        assert_eq!(rules.len(), 31);
    }

    #[test]
    fn strict_json_rules_apply() {
        let not_json = |kind, offset| MetricsError {
            at: MemberPath::root(),
            rule: MetricsRule::NotJson(ParseError { kind, offset }),
        };
        let root = |rule| MetricsError {
            at: MemberPath::root(),
            rule,
        };
        for (bad, expected) in [
            (
                &br#"{"schema":"published-metrics/v1","schema":"published-metrics/v1"}"#[..],
                not_json(ParseErrorKind::DuplicateMemberName, 65),
            ),
            (b"{} x", not_json(ParseErrorKind::TrailingCharacters, 3)),
            (b"[1]", root(MetricsRule::Member(MemberRule::NotAnObject))),
            (
                b"{}",
                MetricsError {
                    at: top("schema"),
                    rule: MetricsRule::NotSchema,
                },
            ),
        ] {
            assert_eq!(PublishedMetrics::parse(bad), Err(expected));
        }
    }

    /// The one-line details: the path, then the rule.
    #[test]
    fn details_read_as_one_line() {
        let sellers = series(0, "sellers_attested");
        for (at, rule, line) in [
            (MemberPath::root(), MetricsRule::NotJson(ParseError { kind: ParseErrorKind::TrailingCharacters, offset: 3 }), "not strict JSON"),
            (MemberPath::root(), MetricsRule::Member(MemberRule::NotAnObject), "not a JSON object"),
            (MemberPath::root(), MetricsRule::UnknownMember("extra".into()), "unknown member `extra`"),
            (top("schema"), MetricsRule::NotSchema, "schema is not \"published-metrics/v1\""),
            (top("period"), MetricsRule::UnknownMember("label".into()), "period: unknown member `label`"),
            (top("period").member("from"), MetricsRule::AfterTo, "period.from is after period.to"),
            (top("operator"), MetricsRule::Member(MemberRule::NotAnObject), "operator is not an object"),
            (top("series").item(2), MetricsRule::Member(MemberRule::NotAnObject), "series[2] is not an object"),
            (top("series").item(0).member("id"), MetricsRule::NotText, "series[0].id is not a non-empty string"),
            (series(3, "revenue").member("id"), MetricsRule::RepeatsId(0), "series[3] (revenue): id is also the id of series[0]"),
            (series(3, "revenue"), MetricsRule::PointsWhileUnavailable, "series[3] (revenue): unavailable, yet it has points"),
            (sellers.member("relatedParty"), MetricsRule::NotRelatedParty, "series[0] (sellers_attested): relatedParty is false in a related-party report"),
            (sellers.member("points").item(1).member("period"), MetricsRule::NotComplete(month("2026-09")), "series[0] (sellers_attested): points[1].period 2026-09 is not a complete month as of asOf"),
            (sellers.member("points").item(0), MetricsRule::UnknownMember("payTo".into()), "series[0] (sellers_attested): points[0]: unknown member `payTo`"),
            (sellers.member("points").item(0), MetricsRule::PointWithoutPeriod, "series[0] (sellers_attested): points[0]: a point, yet the report's period is null"),
            (sellers.member("points").item(0).member("active"), MetricsRule::Exceeds("cumulative"), "series[0] (sellers_attested): points[0].active exceeds cumulative"),
        ] {
            assert_eq!(MetricsError { at, rule }.to_string(), line);
        }
        // The parse error is the cause, reached by source(), not repeated.
        let not_json = MetricsError {
            at: MemberPath::root(),
            rule: MetricsRule::NotJson(ParseError {
                kind: ParseErrorKind::TrailingCharacters,
                offset: 3,
            }),
        };
        let cause = std::error::Error::source(&not_json).map(ToString::to_string);
        assert_eq!(cause.as_deref(), Some("trailing characters at byte 3"));
    }
}
