//! The reference service's registry: attestations, whose outcome is derived
//! at each request, and published verdicts, served exactly as signed.
//!
//! ```json
//! { "attestations": [ {
//!     "chain": "base", "payTo": "0x…", "resourceUrl": "https://…",
//!     "operator": "Example Co", "relatedParty": false, "assuranceLevel": "G",
//!     "status": "active", "attestedAt": "2026-01-05T00:00:00Z",
//!     "lastRecheckedAt": "2026-11-29T08:00:00Z", "recheckEveryHours": 24,
//!     "renewBy": "2027-01-05T00:00:00Z" } ],
//!   "published": [ { "verdict": { … }, "signature": "…" } ] }
//! ```

use std::path::Path;

use axum::body::Bytes;
use serde::Deserialize;
use serde_json::Value;
use x402_verdict_core::json::{Object, Value as JsonValue};
use x402_verdict_core::verdict::is_assurance_level;
use x402_verdict_core::{Endpoint, Timestamp, VerdictDocument, WireOutcome};

/// Whether an attestation still stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The operator's attestation stands.
    Active,
    /// The attestation was withdrawn.
    Revoked,
}

/// One attestation, as written in the registry file.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Entry {
    chain: String,
    pay_to: String,
    resource_url: String,
    operator: String,
    related_party: bool,
    assurance_level: String,
    status: Status,
    attested_at: String,
    last_rechecked_at: String,
    recheck_every_hours: u32,
    renew_by: String,
}

/// One checked attestation.
#[derive(Clone, Debug)]
pub struct Attestation {
    endpoint: Endpoint,
    operator: String,
    related_party: bool,
    assurance_level: String,
    status: Status,
    last_rechecked_at: Timestamp,
    recheck_every_hours: u32,
    renew_by: Timestamp,
}

impl Attestation {
    /// The outcome at time `now`: revoked (withdrawn, or past its renewal
    /// deadline), stale (active but its re-check is overdue) or human-backed.
    pub fn outcome(&self, now: Timestamp) -> WireOutcome {
        if self.status == Status::Revoked || now > self.renew_by {
            WireOutcome::Revoked
        } else if now > self.last_rechecked_at.plus_hours(self.recheck_every_hours) {
            WireOutcome::Stale
        } else {
            WireOutcome::HumanBacked
        }
    }

    /// The unsigned `verdict` object for a request naming `asked` at `now`
    /// (the request's values are echoed exactly).
    pub fn verdict(&self, asked: &Endpoint, now: Timestamp) -> Object {
        let text = |s: &str| JsonValue::String(s.to_owned());
        let mut verdict = Object::new();
        verdict.insert("v", JsonValue::Integer(1));
        verdict.insert("chain", text(asked.chain()));
        verdict.insert("payTo", text(asked.pay_to()));
        verdict.insert("resourceUrl", text(asked.resource_url()));
        verdict.insert("outcome", text(self.outcome(now).as_str()));
        verdict.insert("assuranceLevel", text(&self.assurance_level));
        verdict.insert("verifiedAt", text(&self.last_rechecked_at.to_rfc3339()));
        verdict.insert(
            "recheckEveryHours",
            JsonValue::Integer(self.recheck_every_hours.into()),
        );
        verdict.insert("issuedAt", text(&now.to_rfc3339()));
        verdict.insert("operator", text(&self.operator));
        verdict.insert("relatedParty", JsonValue::Bool(self.related_party));
        verdict
    }
}

/// A verdict document served exactly as it was signed.
#[derive(Clone, Debug)]
pub struct Published {
    endpoint: Endpoint,
    /// The document as served: serialized once, at start.
    pub document: Bytes,
    /// The parsed document, for checks at start.
    pub parsed: VerdictDocument,
}

/// What the service answers from.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    attestations: Vec<Attestation>,
    published: Vec<Published>,
}

/// What the registry holds for one endpoint.
pub enum Found<'a> {
    /// An attestation: derive and sign a verdict.
    Attested(&'a Attestation),
    /// A published document: serve it as it is.
    Published(&'a Published),
}

impl Registry {
    /// Reads and checks a registry file.
    ///
    /// # Errors
    ///
    /// One line naming the file, the entry and the field that is wrong.
    pub fn load(path: &Path) -> Result<Self, String> {
        let doc = crate::jsonfile::read(path)?;
        Registry::from_json(&doc).map_err(|problem| format!("{}: {problem}", path.display()))
    }

    /// Checks a registry document.
    ///
    /// # Errors
    ///
    /// One line naming the entry and the field that is wrong.
    pub fn from_json(doc: &Value) -> Result<Self, String> {
        let Value::Object(top) = doc else {
            return Err("the registry is not a JSON object".into());
        };
        if let Some(key) = top
            .keys()
            .find(|k| !["attestations", "published"].contains(&k.as_str()))
        {
            return Err(format!(
                "unknown member `{key}` (expected attestations, published)"
            ));
        }
        let list = |name: &str| match top.get(name) {
            None => Ok(&[][..]),
            Some(Value::Array(items)) => Ok(items.as_slice()),
            Some(_) => Err(format!("{name} is not a list")),
        };
        let mut registry = Registry::default();
        for (i, item) in list("attestations")?.iter().enumerate() {
            let attestation = check_entry(item).map_err(|p| format!("attestations[{i}]: {p}"))?;
            registry.check_unique(&attestation.endpoint, &format!("attestations[{i}]"))?;
            registry.attestations.push(attestation);
        }
        for (i, item) in list("published")?.iter().enumerate() {
            let bytes = Bytes::from(serde_json::to_vec(item).unwrap_or_default());
            let parsed =
                VerdictDocument::parse(&bytes).map_err(|e| format!("published[{i}]: {e}"))?;
            let v = &parsed.verdict;
            let endpoint = Endpoint::new(&v.chain, &v.pay_to, &v.resource_url)
                .map_err(|e| format!("published[{i}]: verdict.{e}"))?;
            let published = Published {
                endpoint,
                document: bytes,
                parsed,
            };
            registry.check_unique(&published.endpoint, &format!("published[{i}]"))?;
            registry.published.push(published);
        }
        Ok(registry)
    }

    /// Each endpoint may be named by one entry only.
    fn check_unique(&self, endpoint: &Endpoint, name: &str) -> Result<(), String> {
        match self.find(endpoint) {
            Some(_) => Err(format!("{name}: another entry already names this endpoint")),
            None => Ok(()),
        }
    }

    /// What the registry holds for `endpoint` (`payTo` by the EVM case rule).
    pub fn find(&self, endpoint: &Endpoint) -> Option<Found<'_>> {
        let names = |e: &Endpoint| endpoint.is(e.chain(), e.pay_to(), e.resource_url());
        self.attestations
            .iter()
            .find(|a| names(&a.endpoint))
            .map(Found::Attested)
            .or_else(|| {
                self.published
                    .iter()
                    .find(|p| names(&p.endpoint))
                    .map(Found::Published)
            })
    }

    /// The published documents.
    pub fn published(&self) -> &[Published] {
        &self.published
    }

    /// How many attestations the registry holds.
    pub fn attestation_count(&self) -> usize {
        self.attestations.len()
    }
}

fn check_entry(item: &Value) -> Result<Attestation, String> {
    let entry: Entry = serde_json::from_value(item.clone()).map_err(|e| e.to_string())?;
    let endpoint = Endpoint::new(&entry.chain, &entry.pay_to, &entry.resource_url)
        .map_err(|e| e.to_string())?;
    if !is_assurance_level(&entry.assurance_level) {
        return Err("assuranceLevel is not 1 to 8 characters of A-Z 0-9 + -".into());
    }
    if !(1..=8760).contains(&entry.recheck_every_hours) {
        return Err("recheckEveryHours is not an integer from 1 to 8760".into());
    }
    if entry.operator.trim().is_empty() {
        return Err("operator is empty".into());
    }
    let time = |field: &str, text: &str| {
        Timestamp::parse_rfc3339(text).ok_or_else(|| format!("{field} is not an RFC 3339 UTC time"))
    };
    let attested_at = time("attestedAt", &entry.attested_at)?;
    let last_rechecked_at = time("lastRecheckedAt", &entry.last_rechecked_at)?;
    let renew_by = time("renewBy", &entry.renew_by)?;
    if last_rechecked_at < attested_at {
        return Err("lastRecheckedAt is before attestedAt".into());
    }
    Ok(Attestation {
        endpoint,
        operator: entry.operator,
        related_party: entry.related_party,
        assurance_level: entry.assurance_level,
        status: entry.status,
        last_rechecked_at,
        recheck_every_hours: entry.recheck_every_hours,
        renew_by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Map};

    fn entry() -> Value {
        json!({
            "chain": "base", "payTo": "0xAbC0000000000000000000000000000000000001",
            "resourceUrl": "https://api.example.com/x", "operator": "Example Co",
            "relatedParty": false, "assuranceLevel": "G", "status": "active",
            "attestedAt": "2026-01-01T00:00:00Z", "lastRecheckedAt": "2026-09-01T00:00:00Z",
            "recheckEveryHours": 24, "renewBy": "2027-01-01T00:00:00Z"
        })
    }

    fn error(mutate: impl FnOnce(&mut Map<String, Value>)) -> String {
        let mut e = entry();
        mutate(e.as_object_mut().unwrap());
        Registry::from_json(&json!({ "attestations": [entry_with_other_url(), e] })).unwrap_err()
    }

    fn entry_with_other_url() -> Value {
        let mut e = entry();
        e["resourceUrl"] = json!("https://api.example.com/other");
        e
    }

    #[test]
    fn derives_each_outcome_from_the_clock() {
        let r = Registry::from_json(&json!({ "attestations": [entry()] })).unwrap();
        let asked = Endpoint::new(
            "base",
            "0xabc0000000000000000000000000000000000001",
            "https://api.example.com/x",
        )
        .unwrap();
        let Some(Found::Attested(a)) = r.find(&asked) else {
            panic!("not found")
        };
        let t = |s| Timestamp::parse_rfc3339(s).unwrap();
        assert_eq!(
            a.outcome(t("2026-09-01T12:00:00Z")),
            WireOutcome::HumanBacked
        );
        assert_eq!(
            a.outcome(t("2026-09-02T00:00:00Z")),
            WireOutcome::HumanBacked
        );
        assert_eq!(a.outcome(t("2026-09-02T00:00:01Z")), WireOutcome::Stale);
        assert_eq!(a.outcome(t("2027-01-01T00:00:01Z")), WireOutcome::Revoked);
        // The request's spelling is echoed.
        assert_eq!(
            a.verdict(&asked, t("2026-09-01T12:00:00Z")).get("payTo"),
            Some(&JsonValue::String(asked.pay_to().to_owned()))
        );
    }

    #[test]
    fn names_the_entry_and_field() {
        assert_eq!(
            error(|m| {
                m.remove("operator");
            }),
            "attestations[1]: missing field `operator`"
        );
        assert!(error(|m| {
            m.insert("status".into(), json!("paused"));
        })
        .starts_with("attestations[1]: unknown variant `paused`"));
        assert_eq!(
            error(|m| {
                m.insert("assuranceLevel".into(), json!("g"));
            }),
            "attestations[1]: assuranceLevel is not 1 to 8 characters of A-Z 0-9 + -"
        );
        assert_eq!(
            error(|m| {
                m.insert("recheckEveryHours".into(), json!(0));
            }),
            "attestations[1]: recheckEveryHours is not an integer from 1 to 8760"
        );
        assert_eq!(
            error(|m| {
                m.insert("renewBy".into(), json!("soon"));
            }),
            "attestations[1]: renewBy is not an RFC 3339 UTC time"
        );
        assert_eq!(
            error(|m| {
                m.insert("chain".into(), json!(""));
            }),
            "attestations[1]: chain is empty"
        );
        assert!(error(|m| {
            m.insert("extra".into(), json!(1));
        })
        .contains("unknown field `extra`"));
        assert_eq!(
            error(|m| {
                m.insert("resourceUrl".into(), json!("https://api.example.com/other"));
            }),
            "attestations[1]: another entry already names this endpoint"
        );
        assert!(Registry::from_json(&json!({ "attestation": [] }))
            .unwrap_err()
            .contains("unknown member"));
        assert!(
            Registry::from_json(&json!({ "published": [{"verdict": {}}] }))
                .unwrap_err()
                .starts_with("published[0]: verdict.v is missing")
        );
    }
}
