//! The proof a verdict carries (`tlog-proof`) and the rule a consumer
//! reads it by under its policy: the verdict's statement, its entry in the
//! log, and the checkpoint signed by the log and cosigned by a quorum of
//! witnesses.

use super::merkle::{leaf_hash, verify_inclusion, Hash, MAX_PROOF_HASHES};
use super::note::{decimal, Checkpoint, KeyKind, Note, NoteKey};
use crate::encoding::{decode_base64, encode_base64};
use crate::json::{Object, Value};
use crate::verdict::names::*;

/// The verdict document's member that carries its proof.
pub const LOG_PROOF_MEMBER: &str = LOG_PROOF;

/// The first line of a proof (C2SP `tlog-proof`).
const PROOF_HEADER: &str = "c2sp.org/tlog-proof@v1\n";

/// The most bytes a proof's text may hold.
pub const MAX_PROOF_BYTES: usize = 16 * 1024;

/// The renewal deadline a statement carries when its verdict does.
const RENEW_BY: &str = "renewBy";

/// The members of a verdict that make its statement, in no order: what
/// the verdict says of its endpoint, without when it was signed or by
/// which key.
const STATEMENT_MEMBERS: [&str; 9] = [
    V,
    CHAIN,
    PAY_TO,
    RESOURCE_URL,
    OUTCOME,
    ASSURANCE_LEVEL,
    VERIFIED_AT,
    RECHECK_EVERY_HOURS,
    RENEW_BY,
];

/// A verdict's statement: the members of `verdict` (as signed) that say
/// what it says of its endpoint: `v`, the endpoint, `outcome`,
/// `assuranceLevel`, `verifiedAt`, `recheckEveryHours` and `renewBy`, those
/// it has; not `issuedAt`, `keyId` or any other member.
pub fn statement(verdict: &Object) -> Object {
    let mut statement = Object::new();
    for name in STATEMENT_MEMBERS {
        if let Some(value) = verdict.get(name) {
            statement.insert(name, value.clone());
        }
    }
    statement
}

/// The log entry of `verdict`'s statement: its RFC 8785 canonical form;
/// `None` when a value has no canonical form (a fraction).
pub fn entry(verdict: &Object) -> Option<String> {
    statement(verdict).canonical()
}

/// A proof as a verdict carries it: the index of its entry, the entry's
/// leaf hash, the inclusion proof, and the signed checkpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogProof {
    /// The entry's index in the log.
    pub index: u64,
    /// The entry's leaf hash (the proof's `extra` line).
    pub leaf: Hash,
    /// The inclusion proof of the leaf in the checkpoint's tree.
    pub hashes: Vec<Hash>,
    /// The checkpoint, a signed note with its cosignatures.
    pub checkpoint: String,
}

impl LogProof {
    /// The proof's text: the header, `extra` (the leaf hash), `index`, one
    /// hash a line, a blank line, the checkpoint.
    pub fn to_text(&self) -> String {
        let mut text = String::from(PROOF_HEADER);
        text.push_str(&crate::writing::text!(
            "extra {}\nindex {}\n",
            encode_base64(&self.leaf),
            self.index
        ));
        for hash in &self.hashes {
            text.push_str(&encode_base64(hash));
            text.push('\n');
        }
        text.push('\n');
        text.push_str(&self.checkpoint);
        text
    }

    /// Reads a proof's text; `None` when it is not one of ours: no `extra`
    /// line holding a 32-byte hash, more than [`MAX_PROOF_HASHES`] hashes,
    /// over [`MAX_PROOF_BYTES`].
    pub fn parse(text: &str) -> Option<Self> {
        if text.len() > MAX_PROOF_BYTES {
            return None;
        }
        let rest = text.strip_prefix(PROOF_HEADER)?;
        let (extra, rest) = rest.strip_prefix("extra ")?.split_once('\n')?;
        let (index, rest) = rest.strip_prefix("index ")?.split_once('\n')?;
        let index = decimal(index)?;
        let (hashes, rest) = hash_lines(rest)?;
        Some(LogProof {
            index,
            leaf: hash(extra)?,
            hashes,
            checkpoint: rest.to_owned(),
        })
    }
}

fn hash(text: &str) -> Option<Hash> {
    decode_base64(text)?.try_into().ok()
}

/// Reads the proof lines that start `text` (a proof's, a witness
/// request's): at most [`MAX_PROOF_HASHES`] lines of one base64 hash each,
/// then a blank line; the hashes and what follows the blank line.
pub fn hash_lines(mut text: &str) -> Option<(Vec<Hash>, &str)> {
    let mut hashes = Vec::new();
    loop {
        let (line, rest) = text.split_once('\n')?;
        text = rest;
        if line.is_empty() {
            return Some((hashes, text));
        }
        if hashes.len() == MAX_PROOF_HASHES {
            return None;
        }
        hashes.push(hash(line)?);
    }
}

/// How a consumer takes the proofs verdicts carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Proofs are not read: verdicts read exactly as without a log.
    Off,
    /// A proof carried is checked, and a verdict without one reads as
    /// without a log.
    IfPresent,
    /// A verdict needs a valid proof.
    Required,
}

impl Policy {
    /// Every policy, from the least to the most demanding.
    pub const ALL: [Policy; 3] = [Policy::Off, Policy::IfPresent, Policy::Required];

    /// Reads `off`, `if-present` or `required`.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "off" => Some(Policy::Off),
            "if-present" => Some(Policy::IfPresent),
            "required" => Some(Policy::Required),
            _ => None,
        }
    }

    /// The policy's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::Off => "off",
            Policy::IfPresent => "if-present",
            Policy::Required => "required",
        }
    }
}

/// A log a consumer trusts: its key (whose name is the log's origin), its
/// witnesses' keys, and how many of them must cosign a checkpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogTrust {
    log: NoteKey,
    witnesses: Vec<NoteKey>,
    quorum: usize,
}

/// Why keys cannot make a [`LogTrust`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogTrustError {
    /// The log's key is a witness's (a cosignature key).
    LogKeyKind,
    /// A witness key is a log's (a note key).
    WitnessKeyKind,
    /// One witness key is given twice.
    DuplicateWitness,
    /// The quorum is more than the witnesses given.
    QuorumTooHigh,
}

impl LogTrustError {
    /// The problem, as a clause.
    pub fn as_str(self) -> &'static str {
        match self {
            LogTrustError::LogKeyKind => "the log key is a witness's cosignature key (type 0x04)",
            LogTrustError::WitnessKeyKind => "a witness key is a log's note key (type 0x01)",
            LogTrustError::DuplicateWitness => "a witness key is given twice",
            LogTrustError::QuorumTooHigh => "the witness quorum is more than the witnesses given",
        }
    }
}

crate::writing::words_from_str!(LogTrustError);
crate::writing::error_without_cause!(LogTrustError);

impl LogTrust {
    /// The log of `log`, with `witnesses`, `quorum` of which must cosign.
    ///
    /// # Errors
    ///
    /// A key of the wrong kind, a witness twice, a quorum above the witnesses.
    pub fn new(
        log: NoteKey,
        witnesses: Vec<NoteKey>,
        quorum: usize,
    ) -> Result<Self, LogTrustError> {
        if log.kind != KeyKind::Note {
            return Err(LogTrustError::LogKeyKind);
        }
        if witnesses.iter().any(|w| w.kind != KeyKind::Cosignature) {
            return Err(LogTrustError::WitnessKeyKind);
        }
        if witnesses
            .iter()
            .enumerate()
            .any(|(i, w)| witnesses[..i].contains(w))
        {
            return Err(LogTrustError::DuplicateWitness);
        }
        if quorum > witnesses.len() {
            return Err(LogTrustError::QuorumTooHigh);
        }
        Ok(LogTrust {
            log,
            witnesses,
            quorum,
        })
    }

    /// The log's key.
    pub fn log(&self) -> &NoteKey {
        &self.log
    }

    /// The checkpoint of `note` when the log signed it: `None` when it is
    /// not a checkpoint of this log (its origin is the log key's name)
    /// signed by its key.
    pub fn checkpoint(&self, note: &Note) -> Option<Checkpoint> {
        let checkpoint = Checkpoint::parse(&note.text)?;
        (checkpoint.origin == self.log.name && note.signed_by(&self.log)).then_some(checkpoint)
    }

    /// How many of the witnesses validly cosigned `note`.
    pub fn cosignatures(&self, note: &Note) -> usize {
        self.witnesses
            .iter()
            .filter(|w| note.cosigned_by(w).is_some())
            .count()
    }
}

/// Why a verdict's proof is refused: which part failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofProblem {
    /// The policy requires a proof and the verdict carries none.
    NoProof,
    /// The proof, or its checkpoint, cannot be read.
    Malformed,
    /// The checkpoint is not the log's, or its signature does not verify
    /// under the log's key.
    NotSignedByLog,
    /// Fewer witnesses than the quorum cosigned the checkpoint.
    TooFewCosignatures,
    /// The proof is for another entry than the verdict's statement.
    EntryMismatch,
    /// The inclusion proof does not lead to the checkpoint's root.
    BadInclusion,
}

impl ProofProblem {
    /// The problem, as a clause.
    pub fn as_str(self) -> &'static str {
        match self {
            ProofProblem::NoProof => "no transparency proof",
            ProofProblem::Malformed => "malformed transparency proof",
            ProofProblem::NotSignedByLog => "checkpoint not signed by the log",
            ProofProblem::TooFewCosignatures => "fewer witness cosignatures than the quorum",
            ProofProblem::EntryMismatch => "log entry does not match the verdict",
            ProofProblem::BadInclusion => "bad inclusion proof",
        }
    }
}

crate::writing::words_from_str!(ProofProblem);
crate::writing::error_without_cause!(ProofProblem);

/// What a verdict's proof established.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    /// The entry's index.
    pub index: u64,
    /// The size of the checkpoint's tree.
    pub size: u64,
    /// How many of the trusted witnesses cosigned it.
    pub cosignatures: usize,
}

/// A proof read under a policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofCheck {
    /// Not read: the policy is `off`, or `if-present` and no proof came.
    NotChecked,
    /// The verdict's statement is in the log.
    Proven(Proven),
    /// The proof is refused; the verdict reads unknown.
    Refused(ProofProblem),
}

/// Reads the proof `proof` (the document's [`LOG_PROOF_MEMBER`]) of the
/// signed `verdict` object under `policy` and `trust`: in order, a proof
/// is there, it can be read, its checkpoint is the log's, a quorum of
/// witnesses cosigned it, its entry is the verdict's statement, and the
/// inclusion proof leads from that entry to the checkpoint's root.
pub fn check_log_proof(
    policy: Policy,
    trust: &LogTrust,
    verdict: &Object,
    proof: Option<&Value>,
) -> ProofCheck {
    match (policy, proof) {
        (Policy::Off, _) | (Policy::IfPresent, None | Some(Value::Null)) => ProofCheck::NotChecked,
        (Policy::Required, None | Some(Value::Null)) => ProofCheck::Refused(ProofProblem::NoProof),
        (_, Some(proof)) => match proven(trust, verdict, proof) {
            Ok(proven) => ProofCheck::Proven(proven),
            Err(problem) => ProofCheck::Refused(problem),
        },
    }
}

fn proven(trust: &LogTrust, verdict: &Object, proof: &Value) -> Result<Proven, ProofProblem> {
    let proof = proof
        .as_str()
        .and_then(LogProof::parse)
        .ok_or(ProofProblem::Malformed)?;
    let note = Note::parse(&proof.checkpoint).ok_or(ProofProblem::Malformed)?;
    let checkpoint = trust
        .checkpoint(&note)
        .ok_or(ProofProblem::NotSignedByLog)?;
    let cosignatures = trust.cosignatures(&note);
    if cosignatures < trust.quorum {
        return Err(ProofProblem::TooFewCosignatures);
    }
    let entry = entry(verdict).ok_or(ProofProblem::EntryMismatch)?;
    if leaf_hash(entry.as_bytes()) != proof.leaf {
        return Err(ProofProblem::EntryMismatch);
    }
    let (index, size) = (proof.index, checkpoint.size);
    if !verify_inclusion(index, size, &proof.leaf, &proof.hashes, &checkpoint.root) {
        return Err(ProofProblem::BadInclusion);
    }
    Ok(Proven {
        index,
        size,
        cosignatures,
    })
}
