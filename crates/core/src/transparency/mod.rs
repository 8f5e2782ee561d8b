//! Verdicts on the record (feature `transparency`; docs/protocol.md,
//! Transparency log): the log of verdict statements a service keeps, the
//! proof a verdict carries that its statement is in it, and the witnesses
//! that cosign the log's checkpoints.
//!
//! The formats are C2SP's, written here in full, small enough to hold
//! little more than the core already has (SHA-256, strict Ed25519,
//! base64): RFC 6962 Merkle hashing ([`leaf_hash`], [`verify_inclusion`],
//! [`verify_consistency`] and, for a log, its [`Tree`], which writes them, and
//! for a monitor its [`Frontier`]), signed
//! notes and their verifier keys ([`Note`], [`NoteKey`], [`KeyKind`],
//! [`sign_note`]), checkpoints ([`Checkpoint`]), `cosignature/v1`
//! ([`cosign`]) and `tlog-proof` ([`LogProof`]). A verdict's log entry is
//! its [`statement`] in RFC 8785 form ([`entry`]); a consumer reads the
//! proof it carries ([`LOG_PROOF_MEMBER`]) under a [`Policy`] and the
//! [`LogTrust`] it is configured with ([`check_log_proof`], [`ProofCheck`],
//! [`ProofProblem`]). A log's files are laid out as tlog-tiles says
//! ([`Tile`], [`new_tiles`], [`Tree::tile`], [`entry_bundle`]). A consumer's
//! four settings (the log's key, the witnesses' keys, the quorum, the
//! policy) make its [`LogConfig`] ([`LogSettings`], [`LogConfigError`]),
//! which its keys carry ([`TrustedKeys::with_log`](crate::TrustedKeys::with_log)).
//! No I/O, no clock.

mod config;
mod merkle;
mod note;
mod proof;
mod tiles;

pub use config::{parse_quorum, LogConfig, LogConfigError, LogRule, LogSetting, LogSettings};
pub use merkle::{
    leaf_hash, node_hash, verify_consistency, verify_inclusion, Frontier, Hash, Tree,
    MAX_PROOF_HASHES,
};
pub use note::{
    cosign, decimal, sign_note, Checkpoint, KeyKind, Note, NoteKey, NoteSignature, MAX_NOTE_BYTES,
    MAX_NOTE_SIGNATURES,
};
pub use proof::{
    check_log_proof, entry, hash_lines, statement, LogProof, LogTrust, LogTrustError, Policy,
    ProofCheck, ProofProblem, Proven, LOG_PROOF_MEMBER, MAX_PROOF_BYTES,
};
pub use tiles::{
    entry_bundle, new_bundles, new_tiles, read_entry_bundle, Tile, MAX_ENTRY_BYTES, TILE_WIDTH,
};
