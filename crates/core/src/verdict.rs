//! The verdict document (protocol section 4): its wire types and the rules a
//! received document must meet.

use crate::ed25519::KeyId;
use crate::json::{parse_strict, Object, ParseError, Value};
use crate::json::{MemberRule, Members};
use crate::request::MAX_BODY_BYTES;
use crate::time::{Timestamp, MAX_CLOCK_SKEW_SECONDS};
use crate::writing::{error_from_words, uDisplay, ErrorChain};
use names::*;

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
    /// Every outcome, in the order the protocol lists them.
    pub const ALL: [WireOutcome; 4] = [
        WireOutcome::HumanBacked,
        WireOutcome::Revoked,
        WireOutcome::Stale,
        WireOutcome::NoSignal,
    ];

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
    /// The `certificate` member: the signing key's certificate, read only
    /// by a consumer that pins a root (docs/protocol.md, Roots and key certificates).
    pub certificate: Option<Value>,
    /// The `roots` member: the root versions from 2 to the certificate's.
    pub roots: Option<Value>,
    /// The `logProof` member: the proof that the verdict's statement is in
    /// the service's transparency log (docs/protocol.md, Transparency log).
    #[cfg(feature = "transparency")]
    pub log_proof: Option<Value>,
}

/// The longest re-check cadence a verdict may promise, in hours (a year).
pub const MAX_RECHECK_EVERY_HOURS: i64 = 8760;

/// A re-check cadence as a verdict (or a registry) may promise it: an
/// integer from 1 to [`MAX_RECHECK_EVERY_HOURS`] hours.
pub fn recheck_hours(value: &Value) -> Option<u32> {
    match value {
        // Within 1..=8760, the cast keeps the value.
        Value::Integer(hours @ 1..=MAX_RECHECK_EVERY_HOURS) => Some(*hours as u32),
        _ => None,
    }
}

/// The members of a `verdict` object, as the wire spells them: what
/// [`Verdict::from_object`] reads and [`Verdict::to_object`] writes.
pub(crate) mod names {
    /// The document's member carrying the verdict's log proof (beside
    /// `signature`, outside what is signed; read by the `transparency` module).
    #[cfg(feature = "transparency")]
    pub(crate) const LOG_PROOF: &str = "logProof";
    /// The protocol version, the integer 1.
    pub(crate) const V: &str = "v";
    /// The endpoint's network.
    pub(crate) const CHAIN: &str = "chain";
    /// The endpoint's payment address.
    pub(crate) const PAY_TO: &str = "payTo";
    /// The endpoint's resource URL.
    pub(crate) const RESOURCE_URL: &str = "resourceUrl";
    /// The service's outcome.
    pub(crate) const OUTCOME: &str = "outcome";
    /// The grade of a positive claim.
    pub(crate) const ASSURANCE_LEVEL: &str = "assuranceLevel";
    /// The last re-check.
    pub(crate) const VERIFIED_AT: &str = "verifiedAt";
    /// The cadence promise.
    pub(crate) const RECHECK_EVERY_HOURS: &str = "recheckEveryHours";
    /// When the service signed the document.
    pub(crate) const ISSUED_AT: &str = "issuedAt";
    /// The signing key's identifier.
    pub(crate) const KEY_ID: &str = "keyId";
}

impl Verdict {
    /// The `verdict` object, for a service to sign: every member named as
    /// the wire spells it, absent ones left out. A service adds members of
    /// its own to it (consumers ignore them; the signature covers them).
    pub fn to_object(&self) -> Object {
        let text = |s: &str| Value::String(s.to_owned());
        let mut verdict = Object::new();
        let members = [
            (V, Some(Value::Integer(1))),
            (CHAIN, Some(text(&self.chain))),
            (PAY_TO, Some(text(&self.pay_to))),
            (RESOURCE_URL, Some(text(&self.resource_url))),
            (OUTCOME, Some(text(self.outcome.as_str()))),
            (ASSURANCE_LEVEL, self.assurance_level.as_deref().map(text)),
            (
                VERIFIED_AT,
                self.verified_at.map(|at| text(&at.to_rfc3339())),
            ),
            (
                RECHECK_EVERY_HOURS,
                self.recheck_every_hours.map(|h| Value::Integer(h.into())),
            ),
            (ISSUED_AT, Some(text(&self.issued_at.to_rfc3339()))),
            (KEY_ID, Some(text(&crate::writing::words(&self.key_id)))),
        ];
        for (name, value) in members {
            if let Some(value) = value {
                verdict.insert(name, value);
            }
        }
        verdict
    }
}

/// Why a document is not a valid verdict document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerdictError {
    /// The body is not a document under the strict JSON rules.
    NotJson(ParseError),
    /// The document is not a JSON object.
    NotAnObject,
    /// The document has no `verdict` object.
    NoVerdict,
    /// A member of `verdict` breaks a rule.
    Field {
        /// The member, as spelled on the wire (`verifiedAt`).
        field: &'static str,
        /// The rule it breaks.
        rule: VerdictRule,
    },
    /// `verdict` holds a number other than an integer of at most 2^53 - 1.
    UnsafeNumber,
    /// The signed document would be this many bytes, over [`MAX_BODY_BYTES`].
    TooLarge(usize),
}

/// A rule a member of `verdict` can break, for [`VerdictError::Field`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerdictRule {
    /// A rule any member can break (missing, not a string, not a time).
    Member(MemberRule),
    /// `v` is not the integer 1.
    NotOne,
    /// `outcome` is not one of the four wire outcomes.
    UnknownOutcome,
    /// `assuranceLevel` is not 1 to 8 characters of `A-Z 0-9 + -`.
    NotAssuranceLevel,
    /// `recheckEveryHours` is not an integer from 1 to 8760.
    NotHoursInRange,
    /// Absent, though `human_backed` requires it.
    RequiredWithHumanBacked,
    /// Absent, though the outcome requires it.
    RequiredWithOutcome,
    /// `keyId` is not 16 lowercase hex digits.
    NotKeyId,
    /// `verifiedAt` is later than `issuedAt` (beyond the clock skew).
    LaterThanIssuedAt,
    /// `issuedAt` lies ahead of the consumer's clock (beyond the skew).
    InTheFuture,
}

impl VerdictRule {
    /// The words for it, after the member's name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Member(rule) => rule.as_str(),
            Self::NotOne => "is not the integer 1",
            Self::UnknownOutcome => "is not one of human_backed, revoked, stale, no_signal",
            Self::NotAssuranceLevel => "is not 1 to 8 characters of A-Z 0-9 + -",
            Self::NotHoursInRange => "is not an integer from 1 to 8760",
            Self::RequiredWithHumanBacked => "is missing (required with human_backed)",
            Self::RequiredWithOutcome => "is missing (required with this outcome)",
            Self::NotKeyId => "is not 16 lowercase hex digits",
            Self::LaterThanIssuedAt => "is later than issuedAt",
            Self::InTheFuture => "lies in the future",
        }
    }
}

impl uDisplay for VerdictError {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        match self {
            Self::NotJson(_) => f.write_str("not strict JSON"),
            Self::NotAnObject => f.write_str("the document is not a JSON object"),
            Self::NoVerdict => f.write_str("the document has no \"verdict\" object"),
            Self::Field { field, rule } => ufmt::uwrite!(f, "verdict.{} {}", *field, rule.as_str()),
            Self::UnsafeNumber => {
                f.write_str("verdict holds a number that is not an integer of at most 2^53 - 1")
            }
            Self::TooLarge(bytes) => ufmt::uwrite!(
                f,
                "the signed document would be {} bytes, over the {} bytes consumers accept",
                *bytes,
                MAX_BODY_BYTES
            ),
        }
    }
}

impl ErrorChain for VerdictError {
    type Wrapped = ParseError;
    /// The strict parser's error under [`VerdictError::NotJson`].
    fn wrapped(&self) -> Option<&ParseError> {
        match self {
            Self::NotJson(e) => Some(e),
            _ => None,
        }
    }
}

error_from_words!(VerdictError);

fn field_error<T>(field: &'static str, rule: VerdictRule) -> Result<T, VerdictError> {
    Err(VerdictError::Field { field, rule })
}

/// A shared reading of member `field`, its error named as the verdict's.
fn read<T>(field: &'static str, read: Result<T, MemberRule>) -> Result<T, VerdictError> {
    read.or_else(|rule| field_error(field, VerdictRule::Member(rule)))
}

impl VerdictDocument {
    /// Parses and validates a document from the bytes of a response body.
    ///
    /// # Errors
    ///
    /// The first rule broken, naming the field; never the field's value.
    pub fn parse(bytes: &[u8]) -> Result<Self, VerdictError> {
        let value = parse_strict(bytes).map_err(VerdictError::NotJson)?;
        let Value::Object(mut doc) = value else {
            return Err(VerdictError::NotAnObject);
        };
        let Some(Value::Object(raw)) = doc.remove("verdict") else {
            return Err(VerdictError::NoVerdict);
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
            certificate: doc.remove("certificate"),
            roots: doc.remove("roots"),
            #[cfg(feature = "transparency")]
            log_proof: doc.remove(names::LOG_PROOF),
        })
    }
}

impl Verdict {
    /// Validates a `verdict` object against the rules of protocol section 4.
    ///
    /// # Errors
    ///
    /// The first rule broken, naming the field.
    pub fn from_object(raw: &Object) -> Result<Self, VerdictError> {
        check_numbers(raw)?;
        let members = Members(raw);
        match read(V, members.required(V))? {
            Value::Integer(1) => {}
            _ => return field_error(V, VerdictRule::NotOne),
        }
        let outcome = match members.optional_str(OUTCOME) {
            Ok(Some("human_backed")) => WireOutcome::HumanBacked,
            Ok(Some("revoked")) => WireOutcome::Revoked,
            Ok(Some("stale")) => WireOutcome::Stale,
            Ok(Some("no_signal")) => WireOutcome::NoSignal,
            Ok(None) => return read(OUTCOME, Err(MemberRule::Missing)),
            _ => return field_error(OUTCOME, VerdictRule::UnknownOutcome),
        };
        let assurance_level = read(ASSURANCE_LEVEL, members.optional_str(ASSURANCE_LEVEL))?
            .map(|level| {
                if is_assurance_level(level) {
                    Ok(level.to_owned())
                } else {
                    field_error(ASSURANCE_LEVEL, VerdictRule::NotAssuranceLevel)
                }
            })
            .transpose()?;
        let verified_at = read(VERIFIED_AT, members.optional_time(VERIFIED_AT))?;
        let recheck_every_hours = match raw.get(RECHECK_EVERY_HOURS) {
            None => None,
            Some(value) => match recheck_hours(value) {
                Some(hours) => Some(hours),
                None => return field_error(RECHECK_EVERY_HOURS, VerdictRule::NotHoursInRange),
            },
        };
        if outcome == WireOutcome::HumanBacked && assurance_level.is_none() {
            return field_error(ASSURANCE_LEVEL, VerdictRule::RequiredWithHumanBacked);
        }
        if outcome != WireOutcome::NoSignal {
            if verified_at.is_none() {
                return field_error(VERIFIED_AT, VerdictRule::RequiredWithOutcome);
            }
            if recheck_every_hours.is_none() {
                return field_error(RECHECK_EVERY_HOURS, VerdictRule::RequiredWithOutcome);
            }
        }
        let issued_at = read(ISSUED_AT, members.optional_time(ISSUED_AT))?;
        if let (Some(verified), Some(issued)) = (verified_at, issued_at) {
            if verified > issued.plus_seconds(MAX_CLOCK_SKEW_SECONDS) {
                return field_error(VERIFIED_AT, VerdictRule::LaterThanIssuedAt);
            }
        }
        let key_id = KeyId::parse(read(KEY_ID, members.str(KEY_ID))?);
        Ok(Verdict {
            chain: read(CHAIN, members.str(CHAIN))?.to_owned(),
            pay_to: read(PAY_TO, members.str(PAY_TO))?.to_owned(),
            resource_url: read(RESOURCE_URL, members.str(RESOURCE_URL))?.to_owned(),
            outcome,
            assurance_level,
            verified_at,
            recheck_every_hours,
            issued_at: read(ISSUED_AT, issued_at.ok_or(MemberRule::Missing))?,
            key_id: key_id.map_or_else(|| field_error(KEY_ID, VerdictRule::NotKeyId), Ok)?,
        })
    }
}

/// [`is_assurance_level`] as a JSON Schema `pattern`.
pub const ASSURANCE_LEVEL_PATTERN: &str = "^[A-Z0-9+-]{1,8}$";

/// Whether `level` is a valid assurance grade: 1 to 8 characters of `A-Z`,
/// `0-9`, `+`, `-` ([`ASSURANCE_LEVEL_PATTERN`]).
pub fn is_assurance_level(level: &str) -> bool {
    (1..=8).contains(&level.len())
        && level
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'+' || b == b'-')
}

/// Every number in a verdict must be an integer of magnitude at most 2^53 - 1,
/// so that every canonicalizer prints it the same way.
fn check_numbers(raw: &Object) -> Result<(), VerdictError> {
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
        Err(VerdictError::UnsafeNumber)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Map, Value};

    #[test]
    fn what_the_writer_writes_the_reader_reads_back_signed() {
        let t = |s| Timestamp::parse_rfc3339(s).unwrap();
        let key = ed25519_dalek::SigningKey::from_bytes(&[7; 32]);
        let written = Verdict {
            chain: "base".into(),
            pay_to: "0xabc".into(),
            resource_url: "https://a.example/x".into(),
            outcome: WireOutcome::HumanBacked,
            assurance_level: Some("G".into()),
            verified_at: Some(t("2026-09-01T08:00:00Z")),
            recheck_every_hours: Some(24),
            issued_at: t("2026-09-01T08:00:05Z"),
            key_id: KeyId::of(&key.verifying_key()),
        };
        let mut object = written.to_object();
        object.insert("operator", crate::json::Value::String("Example Co".into()));
        let signed = crate::sign_verdict(object, &key).unwrap();
        let read = VerdictDocument::parse(signed.as_bytes()).unwrap();
        assert_eq!(read.verdict, written);
        assert_eq!(
            read.raw.get("operator").and_then(|o| o.as_str()),
            Some("Example Co")
        );
        let keys = crate::TrustedKeys::from_keys([key.verifying_key()]);
        assert_eq!(
            crate::signing::check_signature(&read, &keys),
            crate::SignatureStatus::Valid
        );
        // Without the optional members, none is written.
        let bare = Verdict {
            outcome: WireOutcome::NoSignal,
            assurance_level: None,
            verified_at: None,
            recheck_every_hours: None,
            ..written
        };
        assert_eq!(Verdict::from_object(&bare.to_object()), Ok(bare));
    }

    #[test]
    fn a_cadence_is_an_integer_from_one_hour_to_a_year() {
        use crate::json::Value::{Integer, String as Text};
        assert_eq!(recheck_hours(&Integer(1)), Some(1));
        assert_eq!(recheck_hours(&Integer(8760)), Some(8760));
        for bad in [Integer(0), Integer(8761), Integer(-1), Text("24".into())] {
            assert_eq!(recheck_hours(&bad), None, "{bad:?}");
        }
    }

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

    fn problem(mutate: impl FnOnce(&mut Map<String, Value>)) -> VerdictError {
        let mut v = good();
        mutate(v.as_object_mut().unwrap());
        VerdictDocument::parse(&doc(v)).unwrap_err()
    }

    fn field(field: &'static str, rule: VerdictRule) -> VerdictError {
        VerdictError::Field { field, rule }
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
        type Edit = fn(&mut Map<String, Value>);
        let cases: [(Edit, VerdictError); 17] = [
            (
                |m| drop(m.remove("v")),
                field("v", VerdictRule::Member(MemberRule::Missing)),
            ),
            (
                |m| drop(m.insert("v".into(), json!(2))),
                field("v", VerdictRule::NotOne),
            ),
            (
                |m| drop(m.insert("v".into(), json!("1"))),
                field("v", VerdictRule::NotOne),
            ),
            (
                |m| drop(m.remove("chain")),
                field("chain", VerdictRule::Member(MemberRule::Missing)),
            ),
            (
                |m| drop(m.insert("payTo".into(), json!(7))),
                field("payTo", VerdictRule::Member(MemberRule::NotAString)),
            ),
            (
                |m| drop(m.insert("outcome".into(), json!("great"))),
                field("outcome", VerdictRule::UnknownOutcome),
            ),
            (
                |m| drop(m.insert("assuranceLevel".into(), json!("<script>"))),
                field("assuranceLevel", VerdictRule::NotAssuranceLevel),
            ),
            (
                |m| drop(m.insert("assuranceLevel".into(), json!("ABCDEFGHI"))),
                field("assuranceLevel", VerdictRule::NotAssuranceLevel),
            ),
            (
                |m| drop(m.remove("assuranceLevel")),
                field("assuranceLevel", VerdictRule::RequiredWithHumanBacked),
            ),
            (
                |m| drop(m.remove("verifiedAt")),
                field("verifiedAt", VerdictRule::RequiredWithOutcome),
            ),
            (
                |m| drop(m.insert("verifiedAt".into(), json!("2026-09-01"))),
                field("verifiedAt", VerdictRule::Member(MemberRule::NotATime)),
            ),
            (
                |m| drop(m.insert("recheckEveryHours".into(), json!(0))),
                field("recheckEveryHours", VerdictRule::NotHoursInRange),
            ),
            (
                |m| drop(m.insert("recheckEveryHours".into(), json!(8761))),
                field("recheckEveryHours", VerdictRule::NotHoursInRange),
            ),
            (
                |m| drop(m.insert("recheckEveryHours".into(), json!(24.5))),
                VerdictError::UnsafeNumber,
            ),
            (
                |m| drop(m.insert("extra".into(), json!(9007199254740992u64))),
                VerdictError::UnsafeNumber,
            ),
            (
                |m| drop(m.remove("issuedAt")),
                field("issuedAt", VerdictRule::Member(MemberRule::Missing)),
            ),
            (
                |m| drop(m.insert("keyId".into(), json!("3F9A1C07B2E4D856"))),
                field("keyId", VerdictRule::NotKeyId),
            ),
        ];
        for (edit, expected) in cases {
            assert_eq!(problem(edit), expected);
        }
        // The one-line detail names the member and the rule.
        assert_eq!(
            field("keyId", VerdictRule::NotKeyId).to_string(),
            "verdict.keyId is not 16 lowercase hex digits"
        );
        assert_eq!(
            field("assuranceLevel", VerdictRule::RequiredWithHumanBacked).to_string(),
            "verdict.assuranceLevel is missing (required with human_backed)"
        );
    }

    #[test]
    fn documents_that_are_not_verdicts_say_why() {
        use crate::json::ParseErrorKind;
        assert_eq!(
            VerdictDocument::parse(br#"{"verdict":{},"verdict":{}}"#).unwrap_err(),
            VerdictError::NotJson(ParseError {
                kind: ParseErrorKind::DuplicateMemberName,
                offset: 27
            })
        );
        assert_eq!(
            VerdictDocument::parse(b"[]").unwrap_err(),
            VerdictError::NotAnObject
        );
        assert_eq!(
            VerdictDocument::parse(br#"{"verdict":[]}"#).unwrap_err(),
            VerdictError::NoVerdict
        );
        let not_json = VerdictDocument::parse(b"<html>").unwrap_err();
        assert_eq!(not_json.to_string(), "not strict JSON");
        assert_eq!(
            crate::writing::line(&not_json),
            "not strict JSON: expected a JSON value at byte 0"
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
            VerdictDocument::parse(&doc(v)).unwrap_err(),
            field("verifiedAt", VerdictRule::LaterThanIssuedAt)
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
