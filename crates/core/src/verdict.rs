//! The verdict document (protocol section 4): its wire types and the rules a
//! received document must meet.

use std::fmt;

use crate::evaluate::MAX_CLOCK_SKEW_SECONDS;
use crate::json::{parse_strict, Object, Value};
use crate::keys::KeyId;
use crate::time::Timestamp;

/// What the service says of an endpoint (the wire `outcome`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WireOutcome {
    /// A verified, deposit-backed operator stands behind the endpoint.
    HumanBacked,
    /// The attestation was withdrawn or lapsed.
    Revoked,
    /// The attestation exists but its re-check is overdue at the service.
    Stale,
    /// The service holds nothing for the endpoint.
    NoSignal,
}

impl WireOutcome {
    /// The wire spelling (`human_backed`, `revoked`, `stale`, `no_signal`).
    pub fn as_str(self) -> &'static str {
        match self {
            WireOutcome::HumanBacked => "human_backed",
            WireOutcome::Revoked => "revoked",
            WireOutcome::Stale => "stale",
            WireOutcome::NoSignal => "no_signal",
        }
    }
}

/// A received `verdict` object whose fields all meet the protocol's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The endpoint's network, as echoed by the service.
    pub chain: String,
    /// The endpoint's payment address, as echoed by the service.
    pub pay_to: String,
    /// The endpoint's resource URL, as echoed by the service.
    pub resource_url: String,
    /// The service's outcome.
    pub outcome: WireOutcome,
    /// The grade of a positive claim (1 to 8 of `A-Z 0-9 + -`).
    pub assurance_level: Option<String>,
    /// The last re-check.
    pub verified_at: Option<Timestamp>,
    /// The cadence promise, 1 to 8760 hours.
    pub recheck_every_hours: Option<u32>,
    /// When the service signed the document.
    pub issued_at: Timestamp,
    /// The signing key's identifier.
    pub key_id: KeyId,
}

/// The `signature` member of a document, as found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignatureField {
    /// No `signature` member (or `null`).
    Absent,
    /// A string, not yet decoded.
    Text(String),
    /// Some other JSON type: it can never decode to a signature.
    NotText,
}

/// A parsed verdict document: the validated verdict, the `verdict` object
/// exactly as received (the signed content), and the signature member.
#[derive(Clone, Debug)]
pub struct VerdictDocument {
    /// The validated fields.
    pub verdict: Verdict,
    /// The `verdict` object as received, unknown fields included.
    pub raw: Object,
    /// The `signature` member.
    pub signature: SignatureField,
}

/// Why a document is not a valid verdict document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed(pub String);

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Malformed {}

fn bad<T>(field: &str, problem: &str) -> Result<T, Malformed> {
    Err(Malformed(format!("verdict.{field} {problem}")))
}

impl VerdictDocument {
    /// Parses and validates a document from the bytes of a response body.
    ///
    /// # Errors
    ///
    /// The first rule broken, naming the field; never the field's value.
    pub fn parse(bytes: &[u8]) -> Result<Self, Malformed> {
        let value = parse_strict(bytes).map_err(|e| Malformed(format!("not strict JSON: {e}")))?;
        let Value::Object(mut doc) = value else {
            return Err(Malformed("the document is not a JSON object".into()));
        };
        let Some(Value::Object(raw)) = doc.remove("verdict") else {
            return Err(Malformed("the document has no \"verdict\" object".into()));
        };
        let signature = match doc.remove("signature") {
            None | Some(Value::Null) => SignatureField::Absent,
            Some(Value::String(text)) => SignatureField::Text(text),
            Some(_) => SignatureField::NotText,
        };
        let verdict = Verdict::from_object(&raw)?;
        Ok(VerdictDocument {
            verdict,
            raw,
            signature,
        })
    }
}

impl Verdict {
    /// Validates a `verdict` object against the rules of protocol section 4.
    ///
    /// # Errors
    ///
    /// The first rule broken, naming the field.
    pub fn from_object(raw: &Object) -> Result<Self, Malformed> {
        check_numbers(raw)?;
        match raw.get("v") {
            Some(Value::Integer(1)) => {}
            Some(_) => return bad("v", "is not the integer 1"),
            None => return bad("v", "is missing"),
        }
        let outcome = match optional_str(raw, "outcome") {
            Ok(Some("human_backed")) => WireOutcome::HumanBacked,
            Ok(Some("revoked")) => WireOutcome::Revoked,
            Ok(Some("stale")) => WireOutcome::Stale,
            Ok(Some("no_signal")) => WireOutcome::NoSignal,
            Ok(None) => return bad("outcome", "is missing"),
            _ => {
                return bad(
                    "outcome",
                    "is not one of human_backed, revoked, stale, no_signal",
                )
            }
        };
        let assurance_level = optional_str(raw, "assuranceLevel")?
            .map(|level| {
                if is_assurance_level(level) {
                    Ok(level.to_owned())
                } else {
                    bad("assuranceLevel", "is not 1 to 8 characters of A-Z 0-9 + -")
                }
            })
            .transpose()?;
        let verified_at = optional_time(raw, "verifiedAt")?;
        let recheck_every_hours = match raw.get("recheckEveryHours") {
            None => None,
            Some(v) => match v {
                Value::Integer(h @ 1..=8760) => Some(*h as u32),
                _ => return bad("recheckEveryHours", "is not an integer from 1 to 8760"),
            },
        };
        if outcome == WireOutcome::HumanBacked && assurance_level.is_none() {
            return bad("assuranceLevel", "is missing (required with human_backed)");
        }
        if outcome != WireOutcome::NoSignal {
            if verified_at.is_none() {
                return bad("verifiedAt", "is missing (required with this outcome)");
            }
            if recheck_every_hours.is_none() {
                return bad(
                    "recheckEveryHours",
                    "is missing (required with this outcome)",
                );
            }
        }
        let issued_at = optional_time(raw, "issuedAt")?;
        if let (Some(verified), Some(issued)) = (verified_at, issued_at) {
            if verified > issued.plus_seconds(MAX_CLOCK_SKEW_SECONDS) {
                return bad("verifiedAt", "is later than issuedAt");
            }
        }
        let key_id = match optional_str(raw, "keyId")? {
            Some(text) => KeyId::parse(text),
            None => return bad("keyId", "is missing"),
        };
        Ok(Verdict {
            chain: required_str(raw, "chain")?.to_owned(),
            pay_to: required_str(raw, "payTo")?.to_owned(),
            resource_url: required_str(raw, "resourceUrl")?.to_owned(),
            outcome,
            assurance_level,
            verified_at,
            recheck_every_hours,
            issued_at: issued_at.map_or_else(|| bad("issuedAt", "is missing"), Ok)?,
            key_id: key_id.map_or_else(|| bad("keyId", "is not 16 lowercase hex digits"), Ok)?,
        })
    }
}

/// Whether `level` is a valid assurance grade: 1 to 8 characters of `A-Z`,
/// `0-9`, `+`, `-`.
pub fn is_assurance_level(level: &str) -> bool {
    (1..=8).contains(&level.len())
        && level
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'+' || b == b'-')
}

fn optional_str<'a>(raw: &'a Object, field: &str) -> Result<Option<&'a str>, Malformed> {
    match raw.get(field) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => bad(field, "is not a string"),
    }
}

fn required_str<'a>(raw: &'a Object, field: &str) -> Result<&'a str, Malformed> {
    optional_str(raw, field)?.map_or_else(|| bad(field, "is missing"), Ok)
}

fn optional_time(raw: &Object, field: &str) -> Result<Option<Timestamp>, Malformed> {
    optional_str(raw, field)?
        .map(|text| {
            Timestamp::parse_rfc3339(text)
                .map_or_else(|| bad(field, "is not an RFC 3339 UTC time"), Ok)
        })
        .transpose()
}

/// Every number in a verdict must be an integer of magnitude at most 2^53 - 1,
/// so that every canonicalizer prints it the same way.
fn check_numbers(raw: &Object) -> Result<(), Malformed> {
    fn walk(value: &Value) -> bool {
        match value {
            Value::OtherNumber(_) => false,
            Value::Array(items) => items.iter().all(walk),
            Value::Object(object) => object.values().all(walk),
            _ => true,
        }
    }
    if raw.values().all(walk) {
        Ok(())
    } else {
        Err(Malformed(
            "verdict holds a number that is not an integer of at most 2^53 - 1".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Map, Value};

    fn doc(verdict: Value) -> Vec<u8> {
        serde_json::to_vec(&json!({"verdict": verdict, "signature": "AA=="})).unwrap()
    }

    fn good() -> Value {
        json!({
            "v": 1, "chain": "base", "payTo": "0xabc", "resourceUrl": "https://a.example/x",
            "outcome": "human_backed", "assuranceLevel": "G", "verifiedAt": "2026-09-01T08:00:00Z",
            "recheckEveryHours": 24, "issuedAt": "2026-09-01T08:00:05Z", "keyId": "3f9a1c07b2e4d856",
            "extra": {"nested": [1, "two"]}
        })
    }

    fn problem(mutate: impl FnOnce(&mut Map<String, Value>)) -> String {
        let mut v = good();
        mutate(v.as_object_mut().unwrap());
        VerdictDocument::parse(&doc(v)).unwrap_err().0
    }

    #[test]
    fn accepts_a_full_verdict_with_unknown_fields() {
        let d = VerdictDocument::parse(&doc(good())).unwrap();
        assert_eq!(d.verdict.outcome, WireOutcome::HumanBacked);
        assert_eq!(d.verdict.assurance_level.as_deref(), Some("G"));
        assert_eq!(d.verdict.recheck_every_hours, Some(24));
        assert!(d.raw.get("extra").is_some());
        assert_eq!(d.signature, SignatureField::Text("AA==".into()));
    }

    #[test]
    fn names_each_broken_rule() {
        assert_eq!(
            problem(|m| {
                m.remove("v");
            }),
            "verdict.v is missing"
        );
        assert_eq!(
            problem(|m| {
                m.insert("v".into(), json!(2));
            }),
            "verdict.v is not the integer 1"
        );
        assert_eq!(
            problem(|m| {
                m.insert("v".into(), json!("1"));
            }),
            "verdict.v is not the integer 1"
        );
        assert_eq!(
            problem(|m| {
                m.remove("chain");
            }),
            "verdict.chain is missing"
        );
        assert_eq!(
            problem(|m| {
                m.insert("payTo".into(), json!(7));
            }),
            "verdict.payTo is not a string"
        );
        assert!(problem(|m| {
            m.insert("outcome".into(), json!("great"));
        })
        .starts_with("verdict.outcome is not one of"));
        assert!(problem(|m| {
            m.insert("assuranceLevel".into(), json!("<script>"));
        })
        .starts_with("verdict.assuranceLevel"));
        assert!(problem(|m| {
            m.insert("assuranceLevel".into(), json!("ABCDEFGHI"));
        })
        .starts_with("verdict.assuranceLevel"));
        assert!(problem(|m| {
            m.remove("assuranceLevel");
        })
        .contains("required with human_backed"));
        assert!(problem(|m| {
            m.remove("verifiedAt");
        })
        .starts_with("verdict.verifiedAt is missing"));
        assert!(problem(|m| {
            m.insert("verifiedAt".into(), json!("2026-09-01"));
        })
        .contains("RFC 3339"));
        assert!(problem(|m| {
            m.insert("recheckEveryHours".into(), json!(0));
        })
        .contains("1 to 8760"));
        assert!(problem(|m| {
            m.insert("recheckEveryHours".into(), json!(8761));
        })
        .contains("1 to 8760"));
        assert!(problem(|m| {
            m.insert("recheckEveryHours".into(), json!(24.5));
        })
        .contains("2^53"));
        assert!(problem(|m| {
            m.insert("extra".into(), json!(9007199254740992u64));
        })
        .contains("2^53"));
        assert_eq!(
            problem(|m| {
                m.remove("issuedAt");
            }),
            "verdict.issuedAt is missing"
        );
        assert_eq!(
            problem(|m| {
                m.insert("keyId".into(), json!("3F9A1C07B2E4D856"));
            }),
            "verdict.keyId is not 16 lowercase hex digits"
        );
    }

    #[test]
    fn a_verification_after_the_signing_is_malformed() {
        // Within the clock skew it is not.
        let mut v = good();
        v["verifiedAt"] = json!("2026-09-01T08:05:05Z");
        assert!(VerdictDocument::parse(&doc(v.clone())).is_ok());
        v["verifiedAt"] = json!("2026-09-01T08:05:06Z");
        assert_eq!(
            VerdictDocument::parse(&doc(v)).unwrap_err().0,
            "verdict.verifiedAt is later than issuedAt"
        );
    }

    #[test]
    fn no_signal_needs_no_time_fields() {
        let mut v = good();
        let m = v.as_object_mut().unwrap();
        m.insert("outcome".into(), json!("no_signal"));
        for f in ["assuranceLevel", "verifiedAt", "recheckEveryHours"] {
            m.remove(f);
        }
        assert!(VerdictDocument::parse(&doc(v)).is_ok());
    }

    #[test]
    fn rejects_non_documents() {
        for body in [
            &b"[]"[..],
            b"{}",
            br#"{"verdict": 1}"#,
            b"<html>",
            br#"{"verdict":{},"verdict":{}}"#,
        ] {
            assert!(VerdictDocument::parse(body).is_err());
        }
    }

    #[test]
    fn signature_member_forms() {
        let v = good();
        let parse = |sig: Value| {
            VerdictDocument::parse(
                &serde_json::to_vec(&json!({"verdict": v, "signature": sig})).unwrap(),
            )
            .unwrap()
            .signature
        };
        assert_eq!(parse(Value::Null), SignatureField::Absent);
        assert_eq!(parse(json!(5)), SignatureField::NotText);
    }
}
