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
//!   // and, only with status "revoked", optionally "revokedAt": "…";
//!   // optionally "match": "exact" (the default), "path" or "prefix"
//!   "published": [ { "verdict": { … }, "signature": "…" } ] }
//! ```
//!
//! Every `resourceUrl` is indexed by its normalized form (the consumers'
//! rule, [`same_resource`](x402_verdict_core::resource::same_resource)). An
//! attestation covers ([`Coverage`]) its URL exactly, its path with any query
//! (`"path"`), or its path and everything below it at a `/` boundary
//! (`"prefix"`: `/v1` covers `/v1` and `/v1/x`, never `/v1x`). An asked URL
//! is answered by the most specific entry covering it: an exact one (a
//! published verdict or an exact attestation), else a path one, else the
//! longest prefix.

use std::collections::HashMap;
use std::path::Path;

use axum::body::Bytes;
use x402_verdict_core::endpoint::{check_field, EndpointError, EndpointKey};
use x402_verdict_core::json::{Object, Value};
use x402_verdict_core::member::{MemberError, MemberPath, MemberRule, Members, UnknownMember};
use x402_verdict_core::resource::path_span;
use x402_verdict_core::verdict::{is_assurance_level, VerdictError};
use x402_verdict_core::{Endpoint, Timestamp, VerdictDocument, WireOutcome, MAX_BODY_BYTES};

use crate::jsonfile::{self, InvalidFile, JsonFileError};

/// Why a registry file cannot be served: the file, then what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// It cannot be read, or is not strict JSON.
    #[error(transparent)]
    File(#[from] JsonFileError),
    /// Its contents break a rule.
    #[error(transparent)]
    Invalid(#[from] InvalidFile<RegistryRule>),
}

/// A rule a registry document can break, for [`RegistryError::Invalid`].
#[derive(Debug, thiserror::Error)]
pub enum RegistryRule {
    /// The document is not an object.
    #[error("the registry is not a JSON object")]
    NotAnObject,
    /// `attestations` or `published` is not a list.
    #[error(transparent)]
    Member(MemberError),
    /// A top-level member other than those two (its name escaped).
    #[error("unknown member `{}` (expected attestations, published)", .0.escape_debug())]
    UnknownMember(String),
    /// An entry breaks a rule.
    #[error("{list}[{index}]: {rule}")]
    Entry {
        /// `attestations` or `published`.
        list: &'static str,
        /// Its place in the list.
        index: usize,
        /// The rule it breaks.
        #[source]
        rule: EntryRule,
    },
}

/// A rule an entry of the registry can break, for [`RegistryRule::Entry`].
#[derive(Debug, thiserror::Error)]
pub enum EntryRule {
    /// The entry is not an object.
    #[error("the entry is not a JSON object")]
    NotAnObject,
    /// A member is missing or of the wrong type.
    #[error(transparent)]
    Member(#[from] MemberError),
    /// A member an attestation does not have (its name escaped).
    #[error("unknown member `{}`", .0.escape_debug())]
    UnknownMember(String),
    /// `match` cannot be used.
    #[error(transparent)]
    Coverage(#[from] CoverageError),
    /// `chain`, `payTo`, `resourceUrl` or `operator` breaks the endpoint's rules.
    #[error(transparent)]
    Endpoint(#[from] EndpointError),
    /// `operator` is nothing but white space.
    #[error("operator is empty")]
    OperatorEmpty,
    /// `assuranceLevel` is not a grade.
    #[error("assuranceLevel is not 1 to 8 characters of A-Z 0-9 + -")]
    NotAssuranceLevel,
    /// `status` is neither `active` nor `revoked`.
    #[error("status is not \"active\" or \"revoked\"")]
    NotAStatus,
    /// `recheckEveryHours` is out of range.
    #[error("recheckEveryHours is not an integer from 1 to 8760")]
    NotHoursInRange,
    /// `lastRecheckedAt` is before `attestedAt`.
    #[error("lastRecheckedAt is before attestedAt")]
    RecheckedBeforeAttested,
    /// `revokedAt` with `status` active.
    #[error("revokedAt is set, yet status is active")]
    RevokedWhileActive,
    /// `revokedAt` is before `attestedAt`.
    #[error("revokedAt is before attestedAt")]
    RevokedBeforeAttested,
    /// Another entry names the same endpoint (with the same coverage).
    #[error("another entry already names this endpoint")]
    Duplicate,
    /// A published document holds a number no canonicalizer agrees on.
    #[error("holds a number other than an integer of at most 2^53 - 1")]
    UnsafeNumber,
    /// A published document is this many bytes, over [`MAX_BODY_BYTES`].
    #[error("the document is {0} bytes, over the {MAX_BODY_BYTES} bytes consumers accept")]
    TooLarge(usize),
    /// A published document is not a valid verdict document.
    #[error(transparent)]
    Verdict(#[from] VerdictError),
    /// A published verdict's endpoint breaks the endpoint's rules.
    #[error("verdict.{0}")]
    VerdictEndpoint(#[source] EndpointError),
}

/// Whether an attestation still stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The operator's attestation stands.
    Active,
    /// The attestation was withdrawn.
    Revoked,
}

/// The members of an attestation, each named in the errors about it.
const ENTRY_FIELDS: [&str; 11] = [
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

/// How much an attestation covers (its `match` member).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// `"exact"` (the default): its `resourceUrl`, query included.
    Exact,
    /// `"path"`: the same scheme, host, port and path, with any query or none.
    Path,
    /// `"prefix"`: that path and every path below it at a `/` boundary.
    Prefix,
}

impl Coverage {
    /// The `match` values, as the registry spells them.
    const NAMES: [(&'static str, Coverage); 3] = [
        ("exact", Coverage::Exact),
        ("path", Coverage::Path),
        ("prefix", Coverage::Prefix),
    ];

    fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("exact", |(name, _)| name)
    }
}

/// Why an attestation's `match` cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoverageError {
    /// `match` is not a string.
    NotAString,
    /// `match` is a string other than `exact`, `path` and `prefix`.
    Unknown(String),
    /// A `path` or `prefix` attestation whose `resourceUrl` is not an
    /// `http://` or `https://` URL.
    NotHttp(Coverage),
    /// A `path` or `prefix` attestation whose `resourceUrl` has a query or
    /// a fragment (it covers any query).
    HasQuery(Coverage),
}

impl std::fmt::Display for CoverageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CoverageError::NotAString => f.write_str("match is not a string"),
            CoverageError::Unknown(value) => write!(
                f,
                "match \"{}\" is not \"exact\", \"path\" or \"prefix\"",
                value.escape_debug()
            ),
            CoverageError::NotHttp(c) => write!(
                f,
                "match \"{}\" needs an http:// or https:// resourceUrl",
                c.name()
            ),
            CoverageError::HasQuery(c) => write!(
                f,
                "resourceUrl has a query or fragment, but match \"{}\" covers any query",
                c.name()
            ),
        }
    }
}

impl std::error::Error for CoverageError {}

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
        if self.status == Status::Revoked || now > self.renew_by {
            WireOutcome::Revoked
        } else if now > self.last_rechecked_at.plus_hours(self.recheck_every_hours) {
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

    /// The unsigned `verdict` object for a request naming `asked` at `now`
    /// (the request's values are echoed exactly).
    pub fn verdict(&self, asked: &Endpoint, now: Timestamp) -> Object {
        let text = |s: &str| Value::String(s.to_owned());
        let mut verdict = Object::new();
        verdict.insert("v", Value::Integer(1));
        verdict.insert("chain", text(asked.chain()));
        verdict.insert("payTo", text(asked.pay_to()));
        verdict.insert("resourceUrl", text(asked.resource_url()));
        verdict.insert("outcome", text(self.outcome(now).as_str()));
        verdict.insert("assuranceLevel", text(&self.assurance_level));
        verdict.insert("verifiedAt", text(&self.last_rechecked_at.to_rfc3339()));
        verdict.insert(
            "recheckEveryHours",
            Value::Integer(self.recheck_every_hours.into()),
        );
        verdict.insert("issuedAt", text(&now.to_rfc3339()));
        verdict.insert("operator", text(&self.operator));
        verdict.insert("relatedParty", Value::Bool(self.related_party));
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

/// What the service answers from, indexed by [`Key`]: one index for each
/// [`Coverage`].
#[derive(Clone, Debug, Default)]
pub struct Registry {
    attestations: Vec<Attestation>,
    published: Vec<Published>,
    /// Exact entries, by their normalized URL.
    index: HashMap<Key, Entry>,
    /// Path attestations, by their normalized URL (no query).
    paths: HashMap<Key, usize>,
    /// Prefix attestations, by their normalized URL without a trailing `/`.
    prefixes: HashMap<Key, usize>,
}

/// Where an endpoint's entry is.
#[derive(Clone, Copy, Debug)]
enum Entry {
    Attested(usize),
    Published(usize),
}

/// Where the index finds an endpoint: its [`EndpointKey`].
type Key = EndpointKey;

/// The key of an attestation under its coverage: a path or prefix one
/// without its query, a prefix one without a trailing `/`.
fn covered_key(endpoint: &Endpoint, coverage: Coverage) -> Result<Key, CoverageError> {
    let mut key = endpoint.key();
    if coverage == Coverage::Exact {
        return Ok(key);
    }
    let (_, end) = path_span(&key.resource_url).ok_or(CoverageError::NotHttp(coverage))?;
    if end < key.resource_url.len() {
        return Err(CoverageError::HasQuery(coverage));
    }
    if coverage == Coverage::Prefix && key.resource_url.ends_with('/') {
        key.resource_url.pop();
    }
    Ok(key)
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
    pub fn load(path: &Path) -> Result<Self, RegistryError> {
        let doc = jsonfile::read_strict(path)?;
        Registry::from_json(doc).map_err(|rule| {
            InvalidFile {
                path: path.to_owned(),
                rule,
            }
            .into()
        })
    }

    /// Checks a registry document, taking its strings.
    ///
    /// # Errors
    ///
    /// One line naming the entry and the field that is wrong.
    pub fn from_json(doc: Value) -> Result<Self, RegistryRule> {
        let Value::Object(mut top) = doc else {
            return Err(RegistryRule::NotAnObject);
        };
        let mut list = |name: &'static str| match top.remove(name) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => Ok(items),
            Some(_) => Err(RegistryRule::Member(
                MemberRule::NotAList.at(MemberPath::root().member(name)),
            )),
        };
        let (attestations, published) = (list("attestations")?, list("published")?);
        if let Some(name) = top.names().next() {
            return Err(RegistryRule::UnknownMember(name.to_owned()));
        }
        let mut registry = Registry::default();
        for (i, item) in attestations.into_iter().enumerate() {
            let at = |rule| RegistryRule::Entry {
                list: "attestations",
                index: i,
                rule,
            };
            let attestation = check_entry(item).map_err(at)?;
            let key = covered_key(&attestation.endpoint, attestation.coverage)
                .map_err(|e| at(e.into()))?;
            let added = match attestation.coverage {
                Coverage::Exact => add(&mut registry.index, key, Entry::Attested(i)),
                Coverage::Path => add(&mut registry.paths, key, i),
                Coverage::Prefix => add(&mut registry.prefixes, key, i),
            };
            added.map_err(at)?;
            registry.attestations.push(attestation);
        }
        for (i, item) in published.iter().enumerate() {
            let at = |rule| RegistryRule::Entry {
                list: "published",
                index: i,
                rule,
            };
            let published = check_published(item).map_err(at)?;
            add(
                &mut registry.index,
                published.endpoint.key(),
                Entry::Published(i),
            )
            .map_err(at)?;
            registry.published.push(published);
        }
        Ok(registry)
    }

    /// What the registry holds for `endpoint`, by the consumers' matching
    /// rule: the exact entry for its URL, else the path attestation for its
    /// path, else the attestation of the longest prefix covering its path
    /// (the normalized path, which has no `.` or `..` segment left).
    pub fn find(&self, endpoint: &Endpoint) -> Option<Found<'_>> {
        let mut key = endpoint.key();
        if let Some(entry) = self.index.get(&key) {
            return Some(match *entry {
                Entry::Attested(i) => Found::Attested(&self.attestations[i]),
                Entry::Published(i) => Found::Published(&self.published[i]),
            });
        }
        if self.paths.is_empty() && self.prefixes.is_empty() {
            return None;
        }
        let (start, end) = path_span(&key.resource_url)?;
        key.resource_url.truncate(end);
        let mut found = self.paths.get(&key);
        // The path itself, then each shorter path ending before a `/`.
        while found.is_none() {
            found = self.prefixes.get(&key);
            if found.is_none() {
                let parent = key.resource_url[start..].rfind('/')?;
                key.resource_url.truncate(start + parent);
            }
        }
        found.map(|&i| Found::Attested(&self.attestations[i]))
    }

    /// The published documents.
    pub fn published(&self) -> &[Published] {
        &self.published
    }

    /// The attestations, in file order.
    pub fn attestations(&self) -> &[Attestation] {
        &self.attestations
    }

    /// How many attestations the registry holds.
    pub fn attestation_count(&self) -> usize {
        self.attestations.len()
    }
}

/// Indexes an entry; each key may be named by one entry only.
fn add<T>(index: &mut HashMap<Key, T>, key: Key, entry: T) -> Result<(), EntryRule> {
    match index.entry(key) {
        std::collections::hash_map::Entry::Occupied(_) => Err(EntryRule::Duplicate),
        std::collections::hash_map::Entry::Vacant(slot) => {
            slot.insert(entry);
            Ok(())
        }
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

fn check_entry(item: Value) -> Result<Attestation, EntryRule> {
    let Value::Object(members) = item else {
        return Err(EntryRule::NotAnObject);
    };
    let mut names = ENTRY_FIELDS.to_vec();
    names.extend([REVOKED_AT, MATCH]);
    Members(&members)
        .only(&names)
        .map_err(|UnknownMember(name)| EntryRule::UnknownMember(name))?;
    let fields = Fields(Members(&members));
    let coverage = match members.get(MATCH) {
        None => Coverage::Exact,
        Some(Value::String(name)) => Coverage::NAMES
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, c)| *c)
            .ok_or_else(|| CoverageError::Unknown(name.clone()))?,
        Some(_) => return Err(CoverageError::NotAString.into()),
    };
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
    let recheck_every_hours = match fields.take("recheckEveryHours")? {
        Value::Integer(h) => u32::try_from(*h).ok().filter(|h| (1..=8760).contains(h)),
        _ => None,
    }
    .ok_or(EntryRule::NotHoursInRange)?;
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

fn check_published(item: &Value) -> Result<Published, EntryRule> {
    let document = item.canonical().ok_or(EntryRule::UnsafeNumber)?;
    if document.len() > MAX_BODY_BYTES {
        return Err(EntryRule::TooLarge(document.len()));
    }
    let parsed = VerdictDocument::parse(document.as_bytes())?;
    let v = &parsed.verdict;
    let endpoint =
        Endpoint::new(&v.chain, &v.pay_to, &v.resource_url).map_err(EntryRule::VerdictEndpoint)?;
    Ok(Published {
        endpoint,
        document: Bytes::from(document),
        parsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Map, Value as Json};
    use x402_verdict_core::json::parse_strict;

    /// The registry a document written with `json!` gives.
    fn registry(doc: Json) -> Result<Registry, RegistryRule> {
        Registry::from_json(parse_strict(doc.to_string().as_bytes()).unwrap())
    }

    fn entry() -> Json {
        json!({
            "chain": "base", "payTo": "0xAbC0000000000000000000000000000000000001",
            "resourceUrl": "https://api.example.com/x", "operator": "Example Co",
            "relatedParty": false, "assuranceLevel": "G", "status": "active",
            "attestedAt": "2026-01-01T00:00:00Z", "lastRecheckedAt": "2026-09-01T00:00:00Z",
            "recheckEveryHours": 24, "renewBy": "2027-01-01T00:00:00Z"
        })
    }

    fn error(mutate: impl FnOnce(&mut Map<String, Json>)) -> String {
        let mut e = entry();
        mutate(e.as_object_mut().unwrap());
        registry(json!({ "attestations": [entry_with_other_url(), e] }))
            .unwrap_err()
            .to_string()
    }

    fn entry_with_other_url() -> Json {
        let mut e = entry();
        e["resourceUrl"] = json!("https://api.example.com/other");
        e
    }

    #[test]
    fn derives_each_outcome_from_the_clock() {
        let r = registry(json!({ "attestations": [entry()] })).unwrap();
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
            Some(&Value::String(asked.pay_to().to_owned()))
        );
    }

    #[test]
    fn names_the_entry_and_field() {
        let cases: &[(&str, Json, &str)] = &[
            ("chain", json!(5), "chain is not a string"),
            ("chain", json!(""), "chain is empty"),
            ("payTo", json!(null), "payTo is not a string"),
            ("resourceUrl", json!(["x"]), "resourceUrl is not a string"),
            ("operator", json!({}), "operator is not a string"),
            ("operator", json!(" "), "operator is empty"),
            (
                "operator",
                json!("Co\u{0}"),
                "operator contains a control character",
            ),
            (
                "operator",
                json!("x".repeat(513)),
                "operator is longer than 512 bytes",
            ),
            (
                "relatedParty",
                json!("no"),
                "relatedParty is not true or false",
            ),
            (
                "relatedParty",
                json!(0),
                "relatedParty is not true or false",
            ),
            ("assuranceLevel", json!(1), "assuranceLevel is not a string"),
            (
                "assuranceLevel",
                json!("g"),
                "assuranceLevel is not 1 to 8 characters of A-Z 0-9 + -",
            ),
            ("status", json!(true), "status is not a string"),
            (
                "status",
                json!("paused"),
                "status is not \"active\" or \"revoked\"",
            ),
            ("attestedAt", json!(0), "attestedAt is not a string"),
            (
                "lastRecheckedAt",
                json!("yesterday"),
                "lastRecheckedAt is not an RFC 3339 UTC time",
            ),
            (
                "renewBy",
                json!("soon"),
                "renewBy is not an RFC 3339 UTC time",
            ),
            (
                "recheckEveryHours",
                json!(-1),
                "recheckEveryHours is not an integer from 1 to 8760",
            ),
            (
                "recheckEveryHours",
                json!(0),
                "recheckEveryHours is not an integer from 1 to 8760",
            ),
            (
                "recheckEveryHours",
                json!("24"),
                "recheckEveryHours is not an integer from 1 to 8760",
            ),
            (
                "recheckEveryHours",
                json!(24.5),
                "recheckEveryHours is not an integer from 1 to 8760",
            ),
            (
                "recheckEveryHours",
                json!(1u64 << 32),
                "recheckEveryHours is not an integer from 1 to 8760",
            ),
            (
                "resourceUrl",
                json!("https://api.example.com/other"),
                "another entry already names this endpoint",
            ),
        ];
        assert_eq!(
            error(|m| {
                m.insert("revokedAt".into(), json!("2026-02-01T00:00:00Z"));
            }),
            "attestations[1]: revokedAt is set, yet status is active"
        );
        for (revoked_at, problem) in [
            ("2025-12-31T23:59:59Z", "revokedAt is before attestedAt"),
            ("2026-02-01", "revokedAt is not an RFC 3339 UTC time"),
        ] {
            assert_eq!(
                error(|m| {
                    m.insert("status".into(), json!("revoked"));
                    m.insert("revokedAt".into(), json!(revoked_at));
                }),
                format!("attestations[1]: {problem}")
            );
        }
        for (field, value, problem) in cases {
            assert_eq!(
                error(|m| {
                    m.insert((*field).into(), value.clone());
                }),
                format!("attestations[1]: {problem}"),
                "{field}: {value}"
            );
        }
        for field in ENTRY_FIELDS {
            assert_eq!(
                error(|m| {
                    m.remove(field);
                }),
                format!("attestations[1]: {field} is missing")
            );
        }
        assert_eq!(
            error(|m| {
                m.insert("extra".into(), json!(1));
            }),
            "attestations[1]: unknown member `extra`"
        );
        assert_eq!(
            registry(json!({ "attestations": [5] }))
                .unwrap_err()
                .to_string(),
            "attestations[0]: the entry is not a JSON object"
        );
        assert!(registry(json!({ "attestation": [] }))
            .unwrap_err()
            .to_string()
            .contains("unknown member"));
        assert!(registry(json!({ "published": [{"verdict": {}}] }))
            .unwrap_err()
            .to_string()
            .starts_with("published[0]: verdict.v is missing"));
        let huge = json!({ "verdict": { "v": 1, "padding": "x".repeat(MAX_BODY_BYTES) } });
        assert!(registry(json!({ "published": [huge] }))
            .unwrap_err()
            .to_string()
            .ends_with("bytes, over the 65536 bytes consumers accept"),);
    }

    #[test]
    fn an_error_chains_to_the_rule_and_the_error_under_it() {
        use std::error::Error as _;
        let path = std::env::temp_dir().join(format!("registry-{}.json", std::process::id()));
        std::fs::write(&path, r#"{"attestations": [5]}"#).unwrap();
        let e = Registry::load(&path).unwrap_err();
        let rule = e.source().expect("the rule under the file");
        assert_eq!(
            rule.to_string(),
            "attestations[0]: the entry is not a JSON object"
        );
        let entry = rule.source().expect("the entry's rule under that");
        assert_eq!(entry.to_string(), "the entry is not a JSON object");
        std::fs::write(&path, r#"{"a": 1, "a": 2}"#).unwrap();
        let e = Registry::load(&path).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        let parse = e.source().expect("the strict parser's error");
        assert!(parse
            .downcast_ref::<x402_verdict_core::json::ParseError>()
            .is_some());
    }

    #[test]
    fn finds_every_spelling_consumers_match_and_no_other() {
        let mut entries = Vec::new();
        for i in 0..1000 {
            let mut e = entry();
            e["payTo"] = json!(format!("0xAbC{i:037}"));
            entries.push(e);
        }
        let mut solana = entry();
        solana["payTo"] = json!("7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU");
        entries.push(solana);
        let r = registry(json!({ "attestations": entries })).unwrap();
        let found = |chain: &str, pay_to: &str, url: &str| {
            r.find(&Endpoint::new(chain, pay_to, url).unwrap())
                .is_some()
        };
        let url = "https://api.example.com/x";
        assert!(found("base", &format!("0xAbC{:037}", 999), url));
        assert!(found("base", &format!("0xabc{:037}", 999), url));
        assert!(found("base", &format!("0xABC{:037}", 7), url));
        assert!(!found("base", &format!("0xAbC{:037}", 1000), url));
        assert!(!found("Base", &format!("0xAbC{:037}", 1), url));
        assert!(found("eip155:8453", &format!("0xabc{:037}", 1), url));
        assert!(!found("eip155:84532", &format!("0xAbC{:037}", 1), url));
        assert!(!found(
            "base",
            &format!("0xAbC{:037}", 1),
            "https://api.example.com/X"
        ));
        assert!(found(
            "base",
            "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
            url
        ));
        assert!(!found(
            "base",
            "7xkxtg2cw87d97txjsdpbd5jbkhetqa83tzrujosgasu",
            url
        ));
        // Another spelling of the URL is the same resource.
        assert!(found(
            "base",
            &format!("0xAbC{:037}", 1),
            "HTTPS://API.example.com:443/x"
        ));
        // Two spellings of one EVM address, or a chain's two names, are one endpoint.
        let mut twin = entry();
        twin["payTo"] = json!("0xabc0000000000000000000000000000000000001");
        let mut alias = entry();
        alias["chain"] = json!("eip155:8453");
        let mut spelled = entry();
        spelled["resourceUrl"] = json!("https://API.example.com/x");
        for other in [twin, alias, spelled] {
            assert_eq!(
                registry(json!({ "attestations": [entry(), other] }))
                    .unwrap_err()
                    .to_string(),
                "attestations[1]: another entry already names this endpoint"
            );
        }
    }

    /// The attestation's operator that answers `url`, if any.
    fn operator_for(r: &Registry, url: &str) -> Option<String> {
        let asked = Endpoint::new(
            "eip155:8453",
            &entry()["payTo"].as_str().unwrap().to_lowercase(),
            url,
        )
        .unwrap();
        match r.find(&asked)? {
            Found::Attested(a) => Some(a.operator.clone()),
            Found::Published(_) => Some("published".into()),
        }
    }

    #[test]
    fn covers_by_match_the_most_specific_entry_first() {
        let attested = |url: &str, coverage: Option<&str>, operator: &str| {
            let mut e = entry();
            e["resourceUrl"] = json!(url);
            e["operator"] = json!(operator);
            if let Some(c) = coverage {
                e["match"] = json!(c);
            }
            e
        };
        let r = registry(json!({ "attestations": [
            attested("https://api.example.com/weather?city=Paris", None, "exact"),
            attested("https://api.example.com/weather", Some("path"), "path"),
            attested("https://api.example.com/weather", Some("prefix"), "weather prefix"),
            attested("https://api.example.com/v1", Some("prefix"), "v1"),
            attested("https://api.example.com/v1/admin/", Some("prefix"), "v1 admin"),
            attested("https://api.example.com/report?format=pdf", Some("exact"), "report"),
            attested("https://root.example/", Some("prefix"), "root"),
        ] }))
        .unwrap();
        let base = "https://api.example.com";
        for (path, operator) in [
            ("/weather?city=Paris", Some("exact")),
            ("/weather?city=%50aris", Some("exact")),
            ("/weather?city=%4Condon", Some("path")),
            ("/weather?city=London", Some("path")),
            ("/weather", Some("path")),
            ("/weather#now", Some("path")),
            ("/weather/today", Some("weather prefix")),
            ("/weatherx", None),
            ("/Weather", None),
            ("/v1", Some("v1")),
            ("/v1/", Some("v1")),
            ("/v1/items/7?q=1", Some("v1")),
            ("/v1x", None),
            ("/v1x/items", None),
            ("/v1/admin", Some("v1 admin")),
            ("/v1/admin/users", Some("v1 admin")),
            ("/v1/administrator", Some("v1")),
            ("/v1/admin/../items", Some("v1")),
            ("/v1/%2e%2E/admin", None),
            ("/v1/../admin", None),
            ("/v1/admin/..", Some("v1")),
            ("/v1/./admin/x", Some("v1 admin")),
            ("/v1/%61dmin", Some("v1 admin")),
            ("/admin/../v1/x", Some("v1")),
            ("/weather/./", Some("weather prefix")),
            ("/weather/../weather?city=Rome", Some("path")),
            ("/v1/.hidden", Some("v1")),
            ("/v1/../v2", None),
            ("/report?format=pdf", Some("report")),
            ("/report?format=csv", None),
            ("/report", None),
            ("", None),
        ] {
            assert_eq!(
                operator_for(&r, &format!("{base}{path}")).as_deref(),
                operator,
                "{path}"
            );
        }
        for url in [
            "https://root.example",
            "https://ROOT.example/a/b?c",
            "https://root.example:443/x",
        ] {
            assert_eq!(operator_for(&r, url).as_deref(), Some("root"), "{url}");
        }
        assert_eq!(operator_for(&r, "https://root.example:8443/x"), None);
        assert_eq!(operator_for(&r, "http://root.example/x"), None);
        assert_eq!(operator_for(&r, "https://other.example/v1"), None);
    }

    #[test]
    fn refuses_a_match_it_cannot_use() {
        for (url, coverage, problem) in [
            (
                "https://api.example.com/x",
                json!("subtree"),
                "match \"subtree\" is not \"exact\", \"path\" or \"prefix\"",
            ),
            (
                "https://api.example.com/x",
                json!("Path"),
                "match \"Path\" is not \"exact\", \"path\" or \"prefix\"",
            ),
            (
                "https://api.example.com/x",
                json!(true),
                "match is not a string",
            ),
            (
                "https://api.example.com/x?q=1",
                json!("path"),
                "resourceUrl has a query or fragment, but match \"path\" covers any query",
            ),
            (
                "https://api.example.com/x#f",
                json!("prefix"),
                "resourceUrl has a query or fragment, but match \"prefix\" covers any query",
            ),
            (
                "mcp://tools.example/x",
                json!("prefix"),
                "match \"prefix\" needs an http:// or https:// resourceUrl",
            ),
        ] {
            assert_eq!(
                error(|m| {
                    m.insert("resourceUrl".into(), json!(url));
                    m.insert("match".into(), coverage.clone());
                }),
                format!("attestations[1]: {problem}"),
                "{url} {coverage}"
            );
        }
        // Two entries of one coverage for one path; an exact and a path one may coexist.
        for (a, b, ok) in [
            ("path", "path", false),
            ("prefix", "prefix", false),
            ("exact", "path", true),
            ("path", "prefix", true),
        ] {
            let mut first = entry();
            first["match"] = json!(a);
            let mut second = entry();
            second["match"] = json!(b);
            second["resourceUrl"] = json!("HTTPS://api.example.com/x");
            assert_eq!(
                registry(json!({ "attestations": [first, second] })).is_ok(),
                ok,
                "{a} {b}"
            );
        }
    }
}
