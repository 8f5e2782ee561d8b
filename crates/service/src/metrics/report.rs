//! The `published-metrics/v1` document the reference service computes from
//! its registry and its verdict counts (docs/protocol.md, "Published metrics").
//!
//! Every figure is taken at a month's end (its last second, UTC), for
//! complete months only: from the first month holding a record to the month
//! before `now`.

use serde_json::{json, Value};
use x402_verdict_core::{Month, Timestamp};
use x402_verdict_metrics::{KnownSeries, SCHEMA};

use super::counter::Counts;
use super::operator::OperatorFile;
use crate::registry::{Attestation, Registry};

/// Seconds in the 90 days of `retention_90d`.
const NINETY_DAYS: i64 = 90 * 86_400;

/// Why `independent_verifiers` has no figures.
const NO_VERIFIERS: &str = "The service counts verdict answers as one number per month and keeps no record of who asked, so it cannot tell verifiers apart.";
/// Why `revenue` has no figures.
const NO_REVENUE: &str =
    "The reference service charges nothing for verdicts and holds no payment records.";
/// Why `verifications_free_path` has no figures when nothing is counted.
const NO_COUNTS: &str = "This service was started without a --data folder, so it keeps no count of the verdicts it serves.";

/// The document as of `now`. `counts` is `None` when the service keeps no count.
pub fn document(
    registry: &Registry,
    operator: &OperatorFile,
    counts: Option<&Counts>,
    now: Timestamp,
) -> Value {
    let last = Month::of(now).previous();
    let first_attested = registry
        .attestations()
        .iter()
        .map(|a| Month::of(a.attested_at()))
        .min();
    let first_counted = counts.and_then(|c| {
        c.by_month
            .iter()
            .find(|(_, n)| **n > 0)
            .map(|(month, _)| *month)
    });
    let first = first_attested.into_iter().chain(first_counted).min();
    let months: Vec<Month> = match first {
        Some(first) if first <= last => {
            std::iter::successors(Some(first), |m| (*m < last).then(|| m.next())).collect()
        }
        _ => Vec::new(),
    };
    let period = match (months.first(), months.last()) {
        (Some(from), Some(to)) => json!({ "from": from.to_string(), "to": to.to_string() }),
        _ => Value::Null,
    };
    let related = operator.related_party;
    let attestations = registry.attestations();
    let sellers = months
        .iter()
        .map(|m| sellers_point(attestations, *m))
        .collect();
    let retention = months
        .iter()
        .map(|m| retention_point(attestations, *m))
        .collect();
    let verifications = match counts {
        None => unavailable(
            KnownSeries::VerificationsFreePath,
            "aggregate",
            related,
            NO_COUNTS,
        ),
        Some(counts) => available(
            KnownSeries::VerificationsFreePath,
            "aggregate",
            related,
            months
                .iter()
                .filter(|m| counts.since.is_some_and(|since| **m >= since))
                .map(|m| {
                    let n = counts.by_month.get(m).copied().unwrap_or_default();
                    json!({ "period": m.to_string(), "verdicts": n })
                })
                .collect(),
        ),
    };
    json!({
        "schema": SCHEMA,
        "asOf": last.last_date(),
        "period": period,
        "relatedParty": related,
        "operator": operator,
        "series": [
            available(KnownSeries::SellersAttested, "registry-based", related, sellers),
            available(KnownSeries::Retention90d, "registry-based", related, retention),
            verifications,
            unavailable(KnownSeries::IndependentVerifiers, "aggregate", related, NO_VERIFIERS),
            unavailable(KnownSeries::Revenue, "context", related, NO_REVENUE),
        ],
    })
}

fn available(series: KnownSeries, discipline: &str, related: bool, points: Vec<Value>) -> Value {
    json!({ "id": series.id(), "discipline": discipline, "relatedParty": related,
            "available": true, "points": points })
}

fn unavailable(series: KnownSeries, discipline: &str, related: bool, reason: &str) -> Value {
    json!({ "id": series.id(), "discipline": discipline, "relatedParty": related,
            "available": false, "unavailableReason": reason, "points": [] })
}

/// Attested by the month's end; of those, standing at it; of those, outside
/// the operator's related-party circle.
fn sellers_point(attestations: &[Attestation], month: Month) -> Value {
    let end = month.end();
    let count =
        |keep: &dyn Fn(&Attestation) -> bool| attestations.iter().filter(|a| keep(a)).count();
    json!({
        "period": month.to_string(),
        "cumulative": count(&|a| a.attested_at() <= end),
        "active": count(&|a| a.active_at(end)),
        "independent": count(&|a| a.active_at(end) && !a.related_party()),
    })
}

/// Of the attestations made at least 90 days before the month's end, the
/// share standing at it (4 decimals; `null` when there are none).
fn retention_point(attestations: &[Attestation], month: Month) -> Value {
    let end = month.end();
    let cutoff = end.plus_seconds(-NINETY_DAYS);
    let eligible: Vec<&Attestation> = attestations
        .iter()
        .filter(|a| a.attested_at() <= cutoff)
        .collect();
    let retained = eligible.iter().filter(|a| a.active_at(end)).count();
    let ratio = (!eligible.is_empty()).then(|| {
        // Counts far below 2^52 convert exactly.
        let share = retained as f64 / eligible.len() as f64;
        (share * 10_000.0).round() / 10_000.0
    });
    json!({
        "period": month.to_string(),
        "eligible": eligible.len(),
        "retained": retained,
        "ratio": ratio,
    })
}
