//! Evaluation (protocol section 5): from what a fetch got to the structured
//! result every consumer shows.

use std::borrow::Cow;

use crate::endpoint::{check_field, Endpoint};
use crate::keys::TrustedKeys;
use crate::request::MAX_BODY_BYTES;
use crate::response::{FetchFailure, Response};
use crate::signing::SignatureStatus;
use crate::time::{Timestamp, MAX_CLOCK_SKEW_SECONDS};
use crate::verdict::{VerdictDocument, VerdictError, VerdictRule, WireOutcome};
use crate::writing::{line, text};

/// The routing signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// A fresh, positive, not-invalidly-signed verdict.
    HumanBacked,
    /// The service says the attestation was withdrawn or lapsed.
    Revoked,
    /// Anything else: the absence of a signal, never a failure.
    Unknown,
}

impl State {
    /// Every state, in the order the protocol lists them.
    pub const ALL: [State; 3] = [State::HumanBacked, State::Revoked, State::Unknown];

    /// The wire spelling (`human-backed`, `revoked`, `unknown`).
    pub const fn as_str(self) -> &'static str {
        match self {
            State::HumanBacked => "human-backed",
            State::Revoked => "revoked",
            State::Unknown => "unknown",
        }
    }
}

/// The verdict's outcome, or why no verdict arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// From the verdict.
    HumanBacked,
    /// From the verdict.
    Revoked,
    /// From the verdict.
    Stale,
    /// From the verdict, or a 404.
    NoSignal,
    /// No base URL is configured.
    NoService,
    /// Anything else: an error status, a network failure, a timeout, a body
    /// too large, an invalid document, a verdict about another endpoint.
    NoResponse,
}

impl Outcome {
    /// Every outcome, in the order the protocol lists them.
    pub const ALL: [Outcome; 6] = [
        Outcome::HumanBacked,
        Outcome::Revoked,
        Outcome::Stale,
        Outcome::NoSignal,
        Outcome::NoService,
        Outcome::NoResponse,
    ];

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::HumanBacked => "human_backed",
            Outcome::Revoked => "revoked",
            Outcome::Stale => "stale",
            Outcome::NoSignal => "no_signal",
            Outcome::NoService => "no_service",
            Outcome::NoResponse => "no_response",
        }
    }
}

impl From<WireOutcome> for Outcome {
    fn from(o: WireOutcome) -> Self {
        match o {
            WireOutcome::HumanBacked => Outcome::HumanBacked,
            WireOutcome::Revoked => Outcome::Revoked,
            WireOutcome::Stale => Outcome::Stale,
            WireOutcome::NoSignal => Outcome::NoSignal,
        }
    }
}

/// Whether the last re-check is inside its promised cadence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Freshness {
    /// `now <= verifiedAt + recheckEveryHours`.
    Fresh,
    /// Later than that.
    Overdue,
    /// A time is missing, or `verifiedAt` lies more than 5 minutes ahead.
    Unknown,
}

impl Freshness {
    /// Every freshness, in the order the protocol lists them.
    pub const ALL: [Freshness; 3] = [Freshness::Fresh, Freshness::Overdue, Freshness::Unknown];

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Freshness::Fresh => "fresh",
            Freshness::Overdue => "overdue",
            Freshness::Unknown => "unknown",
        }
    }

    /// The freshness of a re-check at `verified_at` promised every `hours`,
    /// at `now`: the one rule by which a consumer reads a verdict and the
    /// reference service derives `stale`.
    pub fn at(verified_at: Timestamp, hours: u32, now: Timestamp) -> Freshness {
        if verified_at > now.plus_seconds(MAX_CLOCK_SKEW_SECONDS) {
            Freshness::Unknown
        } else if now <= verified_at.plus_hours(hours) {
            Freshness::Fresh
        } else {
            Freshness::Overdue
        }
    }
}

/// Why a result is what it is: a stable code for logs, tooltips and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// No base URL is configured.
    NoBaseUrl,
    /// The lookup's own input (options, arguments) is invalid; nothing was fetched.
    InvalidInput,
    /// The service answered 404: it holds nothing for the endpoint.
    NotListed,
    /// The service answered a status other than 200 or 404.
    HttpStatus,
    /// The connection failed (refused, reset, DNS, TLS, CORS, blocked).
    NetworkError,
    /// No complete answer within the timeout.
    Timeout,
    /// The body was larger than 64 KiB.
    TooLarge,
    /// The service redirected to another origin.
    Redirected,
    /// The body is not a valid verdict document.
    Malformed,
    /// The verdict names another endpoint.
    EndpointMismatch,
    /// The service holds nothing for the endpoint (a signed `no_signal`).
    NoSignal,
    /// The service says the re-check is overdue.
    Stale,
    /// The attestation was withdrawn or lapsed.
    Revoked,
    /// The last re-check is older than its cadence promise.
    Overdue,
    /// `verifiedAt` lies in the future.
    VerifiedInFuture,
    /// The signature does not verify under the matching configured key.
    SignatureInvalid,
    /// Strict mode needs a valid signature and there is none.
    SignatureRequired,
    /// The transparency policy is `required` and the verdict carries no
    /// proof that its statement is in the log.
    #[cfg(feature = "transparency")]
    NoTransparencyProof,
    /// The verdict's transparency proof, or its checkpoint, cannot be read.
    #[cfg(feature = "transparency")]
    MalformedTransparencyProof,
    /// The proof's checkpoint is not the configured log's, or its
    /// signature does not verify under the log's key.
    #[cfg(feature = "transparency")]
    CheckpointNotSignedByLog,
    /// Fewer configured witnesses than the quorum cosigned the checkpoint.
    #[cfg(feature = "transparency")]
    TooFewCosignatures,
    /// The proof is for another log entry than the verdict's statement.
    #[cfg(feature = "transparency")]
    LogEntryMismatch,
    /// The inclusion proof does not lead to the checkpoint's root.
    #[cfg(feature = "transparency")]
    BadInclusionProof,
}

impl Reason {
    /// Every reason, in the order the protocol lists them (the
    /// transparency log's with the feature `transparency`).
    #[cfg(not(feature = "transparency"))]
    pub const ALL: [Reason; 17] = Self::BASE;

    /// Every reason, in the order the protocol lists them.
    #[cfg(feature = "transparency")]
    pub const ALL: [Reason; 23] = {
        let mut all = [Reason::NoTransparencyProof; 23];
        let mut i = 0;
        while i < Self::BASE.len() {
            all[i] = Self::BASE[i];
            i += 1;
        }
        let log = Self::TRANSPARENCY;
        while i < all.len() {
            all[i] = log[i - Self::BASE.len()];
            i += 1;
        }
        all
    };

    /// The transparency log's reasons, in the order of its rule.
    #[cfg(feature = "transparency")]
    const TRANSPARENCY: [Reason; 6] = [
        Reason::NoTransparencyProof,
        Reason::MalformedTransparencyProof,
        Reason::CheckpointNotSignedByLog,
        Reason::TooFewCosignatures,
        Reason::LogEntryMismatch,
        Reason::BadInclusionProof,
    ];

    /// The reasons every build has.
    const BASE: [Reason; 17] = [
        Reason::NoBaseUrl,
        Reason::InvalidInput,
        Reason::NotListed,
        Reason::HttpStatus,
        Reason::NetworkError,
        Reason::Timeout,
        Reason::TooLarge,
        Reason::Redirected,
        Reason::Malformed,
        Reason::EndpointMismatch,
        Reason::NoSignal,
        Reason::Stale,
        Reason::Revoked,
        Reason::Overdue,
        Reason::VerifiedInFuture,
        Reason::SignatureInvalid,
        Reason::SignatureRequired,
    ];

    /// Whether a later try may end otherwise: no answer in time, or no
    /// connection (the browser badge tries again when it comes back into view).
    pub fn may_pass(self) -> bool {
        matches!(self, Reason::Timeout | Reason::NetworkError)
    }

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::NoBaseUrl => "no_base_url",
            Reason::InvalidInput => "invalid_input",
            Reason::NotListed => "not_listed",
            Reason::HttpStatus => "http_status",
            Reason::NetworkError => "network_error",
            Reason::Timeout => "timeout",
            Reason::TooLarge => "too_large",
            Reason::Redirected => "redirected",
            Reason::Malformed => "malformed",
            Reason::EndpointMismatch => "endpoint_mismatch",
            Reason::NoSignal => "no_signal",
            Reason::Stale => "stale",
            Reason::Revoked => "revoked",
            Reason::Overdue => "overdue",
            Reason::VerifiedInFuture => "verified_in_future",
            Reason::SignatureInvalid => "signature_invalid",
            Reason::SignatureRequired => "signature_required",
            #[cfg(feature = "transparency")]
            Reason::NoTransparencyProof => "no_transparency_proof",
            #[cfg(feature = "transparency")]
            Reason::MalformedTransparencyProof => "malformed_transparency_proof",
            #[cfg(feature = "transparency")]
            Reason::CheckpointNotSignedByLog => "checkpoint_not_signed_by_log",
            #[cfg(feature = "transparency")]
            Reason::TooFewCosignatures => "too_few_cosignatures",
            #[cfg(feature = "transparency")]
            Reason::LogEntryMismatch => "log_entry_mismatch",
            #[cfg(feature = "transparency")]
            Reason::BadInclusionProof => "bad_inclusion_proof",
        }
    }
}

/// The structured result of one lookup (the MCP `structuredContent`, the JS
/// `lookupVerdict` result).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The routing signal.
    pub state: State,
    /// The verdict's outcome or why none arrived.
    pub outcome: Outcome,
    /// Whether the last re-check is inside its cadence.
    pub freshness: Freshness,
    /// What the signature check found.
    pub signature: SignatureStatus,
    /// The grade, when the verdict carries one.
    pub assurance_level: Option<String>,
    /// The last re-check, when the verdict carries one.
    pub verified_at: Option<Timestamp>,
    /// The cadence promise, when the verdict carries one.
    pub recheck_every_hours: Option<u32>,
    /// Why the result is what it is; absent on a clean human-backed result.
    pub reason: Option<Reason>,
    /// A one-line explanation for logs, never bytes of the service's
    /// answer: an HTTP status, the rule a document broke, the invalid
    /// option, or, when no answer came, the fetcher's own words about why
    /// ([`Response::Failed`]).
    pub detail: Option<String>,
}

impl Evaluation {
    /// A result for which no verdict arrived: `unknown`, nothing checked.
    pub fn without_verdict(outcome: Outcome, reason: Reason, detail: Option<String>) -> Self {
        Evaluation {
            state: State::Unknown,
            outcome,
            freshness: Freshness::Unknown,
            signature: SignatureStatus::NotChecked,
            assurance_level: None,
            verified_at: None,
            recheck_every_hours: None,
            reason: Some(reason),
            detail,
        }
    }

    /// The result of a lookup whose own input is invalid; nothing was fetched.
    pub fn invalid_input(detail: String) -> Self {
        Self::without_verdict(Outcome::NoResponse, Reason::InvalidInput, Some(detail))
    }

    /// The result when no service is configured.
    pub fn no_service() -> Self {
        Self::without_verdict(Outcome::NoService, Reason::NoBaseUrl, None)
    }

    /// Whether a verdict arrived and was evaluated.
    pub fn has_verdict(&self) -> bool {
        !matches!(self.outcome, Outcome::NoService | Outcome::NoResponse)
            && self.reason != Some(Reason::NotListed)
    }

    /// The structured result's members, named as [`evaluation_schema`](crate::schema::evaluation_schema)
    /// describes, absent ones left out: what every
    /// writer of the result writes (serde natively, plain JS objects in the
    /// browser).
    pub fn members(&self) -> Vec<(&'static str, MemberValue<'_>)> {
        let mut members = vec![
            ("state", MemberValue::text(self.state.as_str())),
            ("outcome", MemberValue::text(self.outcome.as_str())),
            ("freshness", MemberValue::text(self.freshness.as_str())),
            ("signature", MemberValue::text(self.signature.as_str())),
        ];
        let optional = [
            (
                "assuranceLevel",
                self.assurance_level.as_deref().map(MemberValue::text),
            ),
            (
                "verifiedAt",
                self.verified_at
                    .map(|at| MemberValue::Text(Cow::Owned(at.to_rfc3339()))),
            ),
            (
                "recheckEveryHours",
                self.recheck_every_hours.map(MemberValue::Number),
            ),
            ("reason", self.reason.map(|r| MemberValue::text(r.as_str()))),
            ("detail", self.detail.as_deref().map(MemberValue::text)),
        ];
        members.extend(
            optional
                .into_iter()
                .filter_map(|(name, value)| Some((name, value?))),
        );
        members
    }
}

/// One member's value in [`Evaluation::members`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemberValue<'a> {
    /// A string: one the result holds or a word of the core, or one written
    /// for the result (a time in RFC 3339).
    Text(Cow<'a, str>),
    /// A whole number.
    Number(u32),
}

impl<'a> MemberValue<'a> {
    fn text(text: &'a str) -> Self {
        MemberValue::Text(Cow::Borrowed(text))
    }
}

/// What a consumer asks and trusts: the endpoint, its keys, strict mode.
#[derive(Clone, Debug)]
pub struct Lookup {
    /// The endpoint asked about.
    pub endpoint: Endpoint,
    /// The configured public keys.
    pub keys: TrustedKeys,
    /// Strict mode: a positive claim needs a `valid` signature.
    pub strict: bool,
}

impl Lookup {
    /// Evaluates one response at time `now`.
    pub fn evaluate(&self, response: Response<'_>, now: Timestamp) -> Evaluation {
        let (status, body) = match response {
            Response::Failed(failure, words) => {
                let reason = match failure {
                    FetchFailure::Timeout => Reason::Timeout,
                    FetchFailure::Network => Reason::NetworkError,
                    FetchFailure::TooLarge => Reason::TooLarge,
                    FetchFailure::Redirected => Reason::Redirected,
                };
                let detail = words.filter(|words| check_field("detail", words).is_ok());
                let detail = detail.map(String::from);
                return Evaluation::without_verdict(Outcome::NoResponse, reason, detail);
            }
            Response::Http { status, body } => (status, body),
        };
        match status {
            200 if body.len() > MAX_BODY_BYTES => {
                Evaluation::without_verdict(Outcome::NoResponse, Reason::TooLarge, None)
            }
            200 => match VerdictDocument::parse(body) {
                Ok(document) => self.evaluate_document(&document, now),
                Err(e) => Evaluation::without_verdict(
                    Outcome::NoResponse,
                    Reason::Malformed,
                    Some(line(&e)),
                ),
            },
            404 => Evaluation::without_verdict(Outcome::NoSignal, Reason::NotListed, None),
            other => Evaluation::without_verdict(
                Outcome::NoResponse,
                Reason::HttpStatus,
                Some(text!("HTTP status {}", other)),
            ),
        }
    }

    /// Evaluates a parsed document at time `now`.
    pub fn evaluate_document(&self, document: &VerdictDocument, now: Timestamp) -> Evaluation {
        let v = &document.verdict;
        if v.issued_at > now.plus_seconds(MAX_CLOCK_SKEW_SECONDS) {
            return Evaluation::without_verdict(
                Outcome::NoResponse,
                Reason::Malformed,
                Some(line(&VerdictError::Field {
                    field: "issuedAt",
                    rule: VerdictRule::InTheFuture,
                })),
            );
        }
        if !self.endpoint.is(&v.chain, &v.pay_to, &v.resource_url) {
            return Evaluation::without_verdict(
                Outcome::NoResponse,
                Reason::EndpointMismatch,
                None,
            );
        }
        let freshness = match (v.verified_at, v.recheck_every_hours) {
            (Some(at), Some(hours)) => Freshness::at(at, hours, now),
            _ => Freshness::Unknown,
        };
        #[cfg(feature = "roots")]
        let (signature, detail) = {
            let (signature, problem) = crate::signing::check_trust(document, &self.keys);
            (signature, problem.map(|problem| line(&problem)))
        };
        #[cfg(not(feature = "roots"))]
        let (signature, detail) = (crate::signing::check_signature(document, &self.keys), None);
        let (state, reason) = match v.outcome {
            WireOutcome::Revoked => (State::Revoked, Some(Reason::Revoked)),
            WireOutcome::Stale => (State::Unknown, Some(Reason::Stale)),
            WireOutcome::NoSignal => (State::Unknown, Some(Reason::NoSignal)),
            WireOutcome::HumanBacked => match (signature, freshness) {
                (SignatureStatus::Invalid, _) => (State::Unknown, Some(Reason::SignatureInvalid)),
                (s, _) if self.strict && s != SignatureStatus::Valid => {
                    (State::Unknown, Some(Reason::SignatureRequired))
                }
                (_, Freshness::Overdue) => (State::Unknown, Some(Reason::Overdue)),
                (_, Freshness::Unknown) => (State::Unknown, Some(Reason::VerifiedInFuture)),
                (_, Freshness::Fresh) => (State::HumanBacked, None),
            },
        };
        #[cfg(feature = "transparency")]
        let (state, reason, detail) = match self.log_refusal(document) {
            Some(problem) if state == State::HumanBacked => {
                (State::Unknown, Some(problem.into()), Some(line(&problem)))
            }
            _ => (state, reason, detail),
        };
        Evaluation {
            state,
            outcome: v.outcome.into(),
            freshness,
            signature,
            assurance_level: v.assurance_level.clone(),
            verified_at: v.verified_at,
            recheck_every_hours: v.recheck_every_hours,
            reason,
            detail,
        }
    }
}

#[cfg(feature = "transparency")]
impl Lookup {
    /// Why `document`'s transparency proof is refused under the keys' log
    /// configuration; `None` when it is proven or not read (no
    /// configuration: the policy `off`).
    fn log_refusal(&self, document: &VerdictDocument) -> Option<crate::transparency::ProofProblem> {
        use crate::transparency::{check_log_proof, ProofCheck};
        let log = self.keys.log()?;
        match check_log_proof(
            log.policy,
            &log.trust,
            &document.raw,
            document.log_proof.as_ref(),
        ) {
            ProofCheck::Refused(problem) => Some(problem),
            ProofCheck::NotChecked | ProofCheck::Proven(_) => None,
        }
    }
}

#[cfg(feature = "transparency")]
impl From<crate::transparency::ProofProblem> for Reason {
    fn from(problem: crate::transparency::ProofProblem) -> Self {
        use crate::transparency::ProofProblem;
        match problem {
            ProofProblem::NoProof => Reason::NoTransparencyProof,
            ProofProblem::Malformed => Reason::MalformedTransparencyProof,
            ProofProblem::NotSignedByLog => Reason::CheckpointNotSignedByLog,
            ProofProblem::TooFewCosignatures => Reason::TooFewCosignatures,
            ProofProblem::EntryMismatch => Reason::LogEntryMismatch,
            ProofProblem::BadInclusion => Reason::BadInclusionProof,
        }
    }
}
