//! One attestation of the registry: its members checked, its outcome at a
//! time (the core's freshness rule), and the verdict to sign for it.

use x402_verdict_core::endpoint::check_field;
use x402_verdict_core::json::{Object, Value};
use x402_verdict_core::member::{MemberPath, MemberRule, Members, UnknownMember};
use x402_verdict_core::verdict::{is_assurance_level, recheck_hours, Verdict};
use x402_verdict_core::{Endpoint, Freshness, KeyId, Timestamp, WireOutcome};

use super::coverage::Coverage;
use super::rules::EntryRule;

/// Whether an attestation still stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The operator's attestation stands.
    Active,
    /// The attestation was withdrawn.
    Revoked,
}

/// The members of an attestation, each named in the errors about it.
pub(super) const ENTRY_FIELDS: [&str; 11] = [
    "chain",
    "payTo",
    "resourceUrl",
    "operator",
    "relatedParty",
    "assuranceLevel",
    "status",
    "attestedAt",
    "lastRecheckedAt",
    "recheckEveryHours",
    "renewBy",
];

/// The optional member of an attestation: when it was withdrawn.
const REVOKED_AT: &str = "revokedAt";

/// The optional member of an attestation: what it covers ([`Coverage`]).
const MATCH: &str = "match";

/// One checked attestation.
#[derive(Clone, Debug)]
pub struct Attestation {
    endpoint: Endpoint,
    coverage: Coverage,
    operator: String,
    related_party: bool,
    assurance_level: String,
    status: Status,
    attested_at: Timestamp,
    revoked_at: Option<Timestamp>,
    last_rechecked_at: Timestamp,
    recheck_every_hours: u32,
    renew_by: Timestamp,
}

impl Attestation {
    /// The outcome at time `now`: revoked (withdrawn, or past its renewal
    /// deadline), stale (active but its re-check is overdue) or human-backed.
    pub fn outcome(&self, now: Timestamp) -> WireOutcome {
        let freshness = Freshness::at(self.last_rechecked_at, self.recheck_every_hours, now);
        if self.status == Status::Revoked || now > self.renew_by {
            WireOutcome::Revoked
        } else if freshness == Freshness::Overdue {
            WireOutcome::Stale
        } else {
            WireOutcome::HumanBacked
        }
    }

    /// When the operator attested it.
    pub fn attested_at(&self) -> Timestamp {
        self.attested_at
    }

    /// Whether it sits in the operator's related-party circle.
    pub fn related_party(&self) -> bool {
        self.related_party
    }

    /// Whether it stood at time `t`: attested by then, not yet withdrawn
    /// (a revoked attestation without `revokedAt` never counts as standing)
    /// and not past its renewal deadline.
    pub fn active_at(&self, t: Timestamp) -> bool {
        let withdrawn = match (self.status, self.revoked_at) {
            (Status::Active, _) => false,
            (Status::Revoked, Some(at)) => at <= t,
            (Status::Revoked, None) => true,
        };
        self.attested_at <= t && t <= self.renew_by && !withdrawn
    }

    /// The `verdict` object to sign with the key `key_id` names, for a
    /// request naming `asked` at `now` (the request's values are echoed
    /// exactly), with the service's own members `operator` and
    /// `relatedParty`.
    pub fn verdict(&self, asked: &Endpoint, now: Timestamp, key_id: KeyId) -> Object {
        let mut verdict = Verdict {
            chain: asked.chain().to_owned(),
            pay_to: asked.pay_to().to_owned(),
            resource_url: asked.resource_url().to_owned(),
            outcome: self.outcome(now),
            assurance_level: Some(self.assurance_level.clone()),
            verified_at: Some(self.last_rechecked_at),
            recheck_every_hours: Some(self.recheck_every_hours),
            issued_at: now,
            key_id,
        }
        .to_object();
        verdict.insert("operator", Value::String(self.operator.clone()));
        verdict.insert("relatedParty", Value::Bool(self.related_party));
        verdict
    }

    /// The endpoint it names.
    pub(super) fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// What it covers.
    pub(super) fn coverage(&self) -> Coverage {
        self.coverage
    }
}

/// The members of one registry entry, read by the core's shared reader so
/// that every error names its member.
#[derive(Clone, Copy)]
struct Fields<'a>(Members<'a>);

impl<'a> Fields<'a> {
    fn at<T>(name: &str, read: Result<T, MemberRule>) -> Result<T, EntryRule> {
        read.map_err(|rule| rule.at(MemberPath::root().member(name)).into())
    }

    fn take(self, name: &str) -> Result<&'a Value, EntryRule> {
        Self::at(name, self.0.required(name))
    }

    fn text(self, name: &str) -> Result<&'a str, EntryRule> {
        Self::at(name, self.0.str(name))
    }

    fn flag(self, name: &str) -> Result<bool, EntryRule> {
        Self::at(name, self.0.bool(name))
    }

    fn time(self, name: &str) -> Result<Timestamp, EntryRule> {
        Self::at(name, self.0.time(name))
    }
}

/// Checks one entry of `attestations`.
pub(super) fn check_entry(item: Value) -> Result<Attestation, EntryRule> {
    let Value::Object(members) = item else {
        return Err(EntryRule::NotAnObject);
    };
    let mut names = ENTRY_FIELDS.to_vec();
    names.extend([REVOKED_AT, MATCH]);
    Members(&members)
        .only(&names)
        .map_err(|UnknownMember(name)| EntryRule::UnknownMember(name))?;
    let fields = Fields(Members(&members));
    let coverage = Coverage::from_member(members.get(MATCH))?;
    let endpoint = Endpoint::new(
        fields.text("chain")?,
        fields.text("payTo")?,
        fields.text("resourceUrl")?,
    )?;
    let operator = fields.text("operator")?.to_owned();
    if operator.trim().is_empty() {
        return Err(EntryRule::OperatorEmpty);
    }
    // The endpoint's rule bounds the operator too, so that no verdict the
    // service signs comes near the body size consumers accept.
    check_field("operator", &operator)?;
    let assurance_level = fields.text("assuranceLevel")?.to_owned();
    if !is_assurance_level(&assurance_level) {
        return Err(EntryRule::NotAssuranceLevel);
    }
    let status = match fields.text("status")? {
        "active" => Status::Active,
        "revoked" => Status::Revoked,
        _ => return Err(EntryRule::NotAStatus),
    };
    let recheck_every_hours =
        recheck_hours(fields.take("recheckEveryHours")?).ok_or(EntryRule::NotHoursInRange)?;
    let attested_at = fields.time("attestedAt")?;
    let last_rechecked_at = fields.time("lastRecheckedAt")?;
    let renew_by = fields.time("renewBy")?;
    if last_rechecked_at < attested_at {
        return Err(EntryRule::RecheckedBeforeAttested);
    }
    let revoked_at = match members.get(REVOKED_AT) {
        None => None,
        Some(_) if status == Status::Active => return Err(EntryRule::RevokedWhileActive),
        Some(_) => Some(fields.time(REVOKED_AT)?),
    };
    if revoked_at.is_some_and(|at| at < attested_at) {
        return Err(EntryRule::RevokedBeforeAttested);
    }
    Ok(Attestation {
        endpoint,
        coverage,
        operator,
        related_party: fields.flag("relatedParty")?,
        assurance_level,
        status,
        attested_at,
        revoked_at,
        last_rechecked_at,
        recheck_every_hours,
        renew_by,
    })
}
