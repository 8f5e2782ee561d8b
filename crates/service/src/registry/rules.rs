//! What can be wrong with a registry file: the file, the document, an entry.

use x402_verdict_core::endpoint::EndpointError;
use x402_verdict_core::member::MemberError;
use x402_verdict_core::verdict::{VerdictError, VerdictRule};
use x402_verdict_core::MAX_BODY_BYTES;

use super::coverage::CoverageError;
use crate::jsonfile::{InvalidFile, JsonFileError};

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
    /// An entry breaks a rule (its cause).
    #[error("{list}[{index}]")]
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
    #[error("assuranceLevel {}", VerdictRule::NotAssuranceLevel.as_str())]
    NotAssuranceLevel,
    /// `status` is neither `active` nor `revoked`.
    #[error("status is not \"active\" or \"revoked\"")]
    NotAStatus,
    /// `recheckEveryHours` is out of range.
    #[error("recheckEveryHours {}", VerdictRule::NotHoursInRange.as_str())]
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
    VerdictEndpoint(EndpointError),
}
