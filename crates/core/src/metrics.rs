//! The strict reader of `published-metrics/v1`, the document a verification
//! service publishes at `GET /v0/metrics` (protocol section "Published
//! metrics").
//!
//! A document that breaks any rule is no dataset: [`PublishedMetrics::parse`]
//! answers the first broken rule as a one-line detail. The rules: the strict
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
//! use x402_verdict_core::metrics::PublishedMetrics;
//!
//! let doc = br#"{"schema":"published-metrics/v1","asOf":"2026-08-31","period":null,"relatedParty":true,
//!   "operator":{"operator":"Example","relatedParty":true,"disclosure":"A pilot."},"series":[]}"#;
//! assert!(PublishedMetrics::parse(doc).unwrap().period.is_none());
//! assert_eq!(PublishedMetrics::parse(b"{}").unwrap_err(), "schema is not \"published-metrics/v1\"");
//! ```

use crate::json::{Object, Value};
use crate::time::Month;

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

impl PublishedMetrics {
    /// Reads a document under every rule of the format.
    ///
    /// # Errors
    ///
    /// The first broken rule, in one line naming the member.
    pub fn parse(bytes: &[u8]) -> Result<Self, String> {
        let value =
            crate::json::parse_strict(bytes).map_err(|e| format!("not strict JSON: {e}"))?;
        let Value::Object(top) = value else {
            return Err("not a JSON object".into());
        };
        if top.get("schema").and_then(Value::as_str) != Some(SCHEMA) {
            return Err(format!("schema is not \"{SCHEMA}\""));
        }
        only(
            &top,
            "",
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
            Some(Some(_)) => return Err("asOf is not the last day of its month".into()),
            _ => return Err("asOf is not a date YYYY-MM-DD".into()),
        };
        let period = read_period(top.get("period"), as_of)?;
        let related_party = boolean(&top, "", "relatedParty")?;
        let operator = read_operator(top.get("operator"), related_party)?;
        let Some(items) = top.get("series").and_then(Value::as_array) else {
            return Err("series is not a list".into());
        };
        let mut series: Vec<Series> = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let one = read_series(item, period, related_party)
                .map_err(|problem| format!("series[{i}]{problem}"))?;
            if let Some(j) = series.iter().position(|s| s.id == one.id) {
                return Err(format!("series[{i}]: id `{}` repeats series[{j}]", one.id));
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

/// Refuses any member of `object` not in `allowed`.
fn only(object: &Object, at: &str, allowed: &[&str]) -> Result<(), String> {
    let Some(name) = object.names().find(|name| !allowed.contains(name)) else {
        return Ok(());
    };
    Err(format!("{at}unknown member `{name}`"))
}

fn boolean(object: &Object, at: &str, name: &str) -> Result<bool, String> {
    match object.get(name) {
        Some(Value::Bool(b)) => Ok(*b),
        _ => Err(format!("{at}{name} is not true or false")),
    }
}

fn text(object: &Object, at: &str, name: &str) -> Result<String, String> {
    match object.get(name).and_then(Value::as_str) {
        Some(s) if !s.trim().is_empty() => Ok(s.to_owned()),
        _ => Err(format!("{at}{name} is not a non-empty string")),
    }
}

fn read_period(value: Option<&Value>, as_of: Month) -> Result<Option<(Month, Month)>, String> {
    let object = match value {
        Some(Value::Null) => return Ok(None),
        Some(Value::Object(object)) => object,
        _ => return Err("period is not null or an object".into()),
    };
    only(object, "period: ", &["from", "to"])?;
    let month = |name: &str| {
        object
            .get(name)
            .and_then(Value::as_str)
            .and_then(Month::parse)
            .ok_or_else(|| format!("period.{name} is not a month YYYY-MM"))
    };
    let (from, to) = (month("from")?, month("to")?);
    if from > to {
        return Err("period.from is after period.to".into());
    }
    if to != as_of {
        return Err("period.to is not the month asOf closes".into());
    }
    Ok(Some((from, to)))
}

fn read_operator(value: Option<&Value>, related_party: bool) -> Result<Operator, String> {
    let Some(Value::Object(object)) = value else {
        return Err("operator is not an object".into());
    };
    only(
        object,
        "operator: ",
        &["operator", "relatedParty", "disclosure"],
    )?;
    let operator = Operator {
        name: text(object, "operator.", "operator")?,
        related_party: boolean(object, "operator.", "relatedParty")?,
        disclosure: text(object, "operator.", "disclosure")?,
    };
    if operator.related_party != related_party {
        return Err("operator.relatedParty differs from relatedParty".into());
    }
    Ok(operator)
}

/// One series; errors start with what follows `series[i]`.
fn read_series(
    value: &Value,
    period: Option<(Month, Month)>,
    report_related: bool,
) -> Result<Series, String> {
    let Value::Object(object) = value else {
        return Err(": not an object".into());
    };
    let id = text(object, ": ", "id")?;
    let at = format!(" ({id}): ");
    only(
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
        return Err(format!(
            "{at}relatedParty is false in a related-party report"
        ));
    }
    let points = object.get("points");
    let figures = if boolean(object, &at, "available")? {
        if object.get("unavailableReason").is_some() {
            return Err(format!("{at}available, yet it has an unavailableReason"));
        }
        let Some(Value::Array(items)) = points else {
            return Err(format!("{at}points is not a list"));
        };
        let mut read = Vec::with_capacity(items.len());
        for (k, item) in items.iter().enumerate() {
            let point = read_point(item, known, period)
                .map_err(|problem| format!("{at}points[{k}]{problem}"))?;
            if read
                .last()
                .is_some_and(|p: &Point| p.period >= point.period)
            {
                return Err(format!(
                    "{at}points[{k}]: period {} does not follow the point before it",
                    point.period
                ));
            }
            read.push(point);
        }
        Figures::Available(read)
    } else {
        if points
            .and_then(Value::as_array)
            .is_some_and(|p| !p.is_empty())
        {
            return Err(format!("{at}unavailable, yet it has points"));
        }
        if !matches!(points, None | Some(Value::Array(_))) {
            return Err(format!("{at}points is not a list"));
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

/// One point; errors start with what follows `points[k]`.
fn read_point(
    value: &Value,
    known: Option<KnownSeries>,
    period: Option<(Month, Month)>,
) -> Result<Point, String> {
    let Value::Object(object) = value else {
        return Err(": not an object".into());
    };
    let month = object
        .get("period")
        .and_then(Value::as_str)
        .and_then(Month::parse)
        .ok_or(".period is not a month YYYY-MM")?;
    match period {
        None => return Err(": a point, yet the report's period is null".into()),
        Some((_, to)) if month > to => {
            return Err(format!(
                ".period {month} is not a complete month as of asOf"
            ))
        }
        Some((from, _)) if month < from => {
            return Err(format!(".period {month} is before period.from"))
        }
        Some(_) => {}
    }
    let figures = match known.and_then(KnownSeries::fields) {
        Some(fields) => {
            let mut names = vec!["period"];
            names.extend(fields.iter().map(|(name, _)| *name));
            only(object, ": ", &names)?;
            fields
                .iter()
                .map(|&(name, kind)| {
                    let figure = object
                        .get(name)
                        .ok_or_else(|| format!(".{name} is missing"))
                        .and_then(|v| figure(v).map_err(|p| format!(".{name} {p}")))?;
                    match (kind, figure) {
                        (Kind::Count, Figure::Count(_))
                        | (Kind::RatioOrNull, Figure::Ratio(_) | Figure::Missing) => {
                            Ok((name.to_owned(), figure))
                        }
                        (Kind::RatioOrNull, Figure::Count(n)) if n <= 1 => {
                            Ok((name.to_owned(), Figure::Ratio(n as f64)))
                        }
                        (Kind::Count, _) => Err(format!(".{name} is not a non-negative integer")),
                        (Kind::RatioOrNull, _) => {
                            Err(format!(".{name} is not null or a number from 0 to 1"))
                        }
                    }
                })
                .collect::<Result<Vec<_>, _>>()?
        }
        None => object
            .names()
            .filter(|name| *name != "period")
            .map(|name| {
                let value = object.get(name).unwrap_or(&Value::Null);
                figure(value)
                    .map(|f| (name.to_owned(), f))
                    .map_err(|p| format!(".{name} {p}"))
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    let point = Point {
        period: month,
        figures,
    };
    check_consistency(&point, known)?;
    Ok(point)
}

/// A count, a ratio or null: counts and ratios only.
fn figure(value: &Value) -> Result<Figure, &'static str> {
    match value {
        Value::Null => Ok(Figure::Missing),
        Value::Integer(n) => u64::try_from(*n)
            .map(Figure::Count)
            .map_err(|_| "is negative"),
        Value::OtherNumber(literal) => match literal.parse::<f64>().ok() {
            Some(r) if (0.0..=1.0).contains(&r) => Ok(Figure::Ratio(r)),
            _ => Err("is neither a non-negative integer nor a ratio from 0 to 1"),
        },
        _ => Err("is not a number (counts and ratios only)"),
    }
}

/// The relations between a known series' figures.
fn check_consistency(point: &Point, known: Option<KnownSeries>) -> Result<(), String> {
    let c = |name| point.count(name);
    match known {
        Some(KnownSeries::SellersAttested) if c("active") > c("cumulative") => {
            Err(": active exceeds cumulative".into())
        }
        Some(KnownSeries::SellersAttested) if c("independent") > c("active") => {
            Err(": independent exceeds active".into())
        }
        Some(KnownSeries::Retention90d) => {
            let (eligible, retained) = (c("eligible"), c("retained"));
            if retained > eligible {
                return Err(": retained exceeds eligible".into());
            }
            match point.get("ratio") {
                Some(Figure::Missing) if eligible == 0 => Ok(()),
                Some(Figure::Missing) => Err(": ratio is null, yet eligible is not 0".into()),
                _ if eligible == 0 => Err(": ratio is not null, yet eligible is 0".into()),
                Some(Figure::Ratio(r))
                    if (r - retained as f64 / eligible as f64).abs() <= 0.000_051 =>
                {
                    Ok(())
                }
                _ => Err(": ratio is not retained / eligible to 4 decimals".into()),
            }
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value as Json};

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

    fn parse(doc: &Json) -> Result<PublishedMetrics, String> {
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

    /// Each rule, broken once: (what to change, the detail expected).
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
        let cases: Vec<(Edit, &str)> = vec![
            (set("/schema", json!("published-metrics/v2")), "schema is not \"published-metrics/v1\""),
            (Box::new(|d: &mut Json| { d["extra"] = json!(1); }), "unknown member `extra`"),
            (set("/asOf", json!("2026-08")), "asOf is not a date YYYY-MM-DD"),
            (set("/asOf", json!("2026-08-30")), "asOf is not the last day of its month"),
            (set("/period", json!("2026-06..2026-08")), "period is not null or an object"),
            (set("/period/from", json!("2026-6")), "period.from is not a month YYYY-MM"),
            (set("/period/from", json!("2026-09")), "period.from is after period.to"),
            (set("/period/to", json!("2026-07")), "period.to is not the month asOf closes"),
            (Box::new(|d: &mut Json| { d["period"]["label"] = json!("x"); }), "period: unknown member `label`"),
            (set("/relatedParty", json!("yes")), "relatedParty is not true or false"),
            (set("/operator", json!("Example")), "operator is not an object"),
            (set("/operator/operator", json!(" ")), "operator.operator is not a non-empty string"),
            (set("/operator/disclosure", json!(null)), "operator.disclosure is not a non-empty string"),
            (set("/operator/relatedParty", json!(false)), "operator.relatedParty differs from relatedParty"),
            (set("/series", json!({})), "series is not a list"),
            (set("/series/0/id", json!("")), "series[0]: id is not a non-empty string"),
            (set("/series/3/id", json!("sellers_attested")), "series[3]: id `sellers_attested` repeats series[0]"),
            (set("/series/0/discipline", json!(1)), "series[0] (sellers_attested): discipline is not a non-empty string"),
            (set("/series/0/relatedParty", json!(false)), "series[0] (sellers_attested): relatedParty is false in a related-party report"),
            (set("/series/0/available", json!(1)), "series[0] (sellers_attested): available is not true or false"),
            (Box::new(|d: &mut Json| { d["series"][0]["unavailableReason"] = json!("x"); }), "series[0] (sellers_attested): available, yet it has an unavailableReason"),
            (set("/series/0/points", json!({})), "series[0] (sellers_attested): points is not a list"),
            (set("/series/3/points", json!([{ "period": "2026-08" }])), "series[3] (revenue): unavailable, yet it has points"),
            (Box::new(|d: &mut Json| { d["series"][3].as_object_mut().unwrap().remove("unavailableReason"); }), "series[3] (revenue): unavailableReason is not a non-empty string"),
            (set("/series/0/points/0/period", json!("2026-06-01")), "series[0] (sellers_attested): points[0].period is not a month YYYY-MM"),
            (set("/series/0/points/1/period", json!("2026-09")), "series[0] (sellers_attested): points[1].period 2026-09 is not a complete month as of asOf"),
            (set("/series/0/points/0/period", json!("2026-05")), "series[0] (sellers_attested): points[0].period 2026-05 is before period.from"),
            (set("/series/0/points/1/period", json!("2026-06")), "series[0] (sellers_attested): points[1]: period 2026-06 does not follow the point before it"),
            (set("/series/0/points/0/payTo", json!("0xabc")), "series[0] (sellers_attested): points[0]: unknown member `payTo`"),
            (Box::new(|d: &mut Json| { d["series"][0]["points"][0].as_object_mut().unwrap().remove("active"); }), "series[0] (sellers_attested): points[0].active is missing"),
            (set("/series/0/points/0/active", json!(-1)), "series[0] (sellers_attested): points[0].active is negative"),
            (set("/series/0/points/0/active", json!(1.5)), "series[0] (sellers_attested): points[0].active is neither a non-negative integer nor a ratio from 0 to 1"),
            (set("/series/0/points/0/cumulative", json!(0.5)), "series[0] (sellers_attested): points[0].cumulative is not a non-negative integer"),
            (set("/series/0/points/0/active", json!("2")), "series[0] (sellers_attested): points[0].active is not a number (counts and ratios only)"),
            (set("/series/0/points/0/active", json!(3)), "series[0] (sellers_attested): points[0]: active exceeds cumulative"),
            (set("/series/0/points/0/independent", json!(3)), "series[0] (sellers_attested): points[0]: independent exceeds active"),
            (set("/series/1/points/1/ratio", json!(1.25)), "series[1] (retention_90d): points[1].ratio is neither a non-negative integer nor a ratio from 0 to 1"),
            (set("/series/1/points/1/ratio", json!(2)), "series[1] (retention_90d): points[1].ratio is not null or a number from 0 to 1"),
            (set("/series/1/points/1/ratio", json!(0.5)), "series[1] (retention_90d): points[1]: ratio is not retained / eligible to 4 decimals"),
            (set("/series/1/points/1/ratio", json!(null)), "series[1] (retention_90d): points[1]: ratio is null, yet eligible is not 0"),
            (set("/series/1/points/0/ratio", json!(0)), "series[1] (retention_90d): points[0]: ratio is not null, yet eligible is 0"),
            (set("/series/1/points/1/retained", json!(4)), "series[1] (retention_90d): points[1]: retained exceeds eligible"),
            (set("/series/4/points/0/share", json!(true)), "series[4] (future_series): points[0].share is not a number (counts and ratios only)"),
            (set("/series/4/points/0/label", json!("x")), "series[4] (future_series): points[0].label is not a number (counts and ratios only)"),
        ];
        for (edit, expected) in cases {
            let mut doc = valid();
            edit(&mut doc);
            assert_eq!(parse(&doc).unwrap_err(), expected);
        }
        let mut empty = valid();
        empty["period"] = Json::Null;
        assert_eq!(
            parse(&empty).unwrap_err(),
            "series[0] (sellers_attested): points[0]: a point, yet the report's period is null"
        );
    }

    #[test]
    fn strict_json_rules_apply() {
        for (bad, expected) in [
            (
                &br#"{"schema":"published-metrics/v1","schema":"published-metrics/v1"}"#[..],
                "not strict JSON: duplicate",
            ),
            (b"[1]", "not a JSON object"),
            (b"{} x", "not strict JSON: trailing"),
        ] {
            assert!(
                PublishedMetrics::parse(bad)
                    .unwrap_err()
                    .starts_with(expected),
                "{expected}"
            );
        }
    }
}
