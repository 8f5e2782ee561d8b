//! A consumer's pinned roots and the rule that takes a signing key on a
//! verdict's certificate (docs/protocol.md, Roots and key certificates):
//! the chain from the newest root version held to the certificate's, each
//! link checked, never backwards.

use std::sync::{Mutex, PoisonError};

use ed25519_dalek::VerifyingKey;

use crate::certificate::{Certificate, RootVersion, MAX_CHAIN_LINKS};
use crate::ed25519::KeyId;
use crate::json::Value;
use crate::time::Timestamp;

/// Why a verdict's certificate gives no key to check its signature with
/// (its signature then reads `unverifiable`; never an error, never valid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrustProblem {
    /// The verdict carries no certificate.
    NoCertificate,
    /// The certificate, or a root version, is not one, or the chain is
    /// longer than [`MAX_CHAIN_LINKS`].
    Malformed,
    /// The certificate, or the first root version past the one held, is
    /// signed by another root than the pinned one.
    OtherRoot,
    /// The root versions do not chain to the certificate's.
    BrokenChain,
    /// The certificate is from an older root version than one already verified.
    Rollback,
    /// The certificate is for another key than the verdict's `keyId`.
    OtherKey,
    /// The verdict was issued outside the certificate's validity window.
    OutsideWindow,
}

impl TrustProblem {
    /// The problem, as a clause.
    pub fn as_str(self) -> &'static str {
        match self {
            TrustProblem::NoCertificate => "no key certificate",
            TrustProblem::Malformed => "malformed key certificate or roots",
            TrustProblem::OtherRoot => "key certificate of another root",
            TrustProblem::BrokenChain => "broken chain of roots",
            TrustProblem::Rollback => "key certificate of an older root (rollback)",
            TrustProblem::OtherKey => "key certificate of another key",
            TrustProblem::OutsideWindow => "issued outside its key certificate's window",
        }
    }
}

crate::writing::words_from_str!(TrustProblem);
crate::writing::error_without_cause!(TrustProblem);

/// The newest root version verified under each pinned key in this process
/// (a page, an agent, a server): `(pinned key, version, its key)`.
static NEWEST: Mutex<Vec<(VerifyingKey, u32, VerifyingKey)>> = Mutex::new(Vec::new());

/// The certificates whose signature verified in this process, each after
/// the root key it verified under (its 32 bytes, then the certificate's),
/// the newest last: a verdict signed under a key already certified costs
/// one signature check, as under a pinned key.
static CERTIFIED: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// How many verified certificates [`CERTIFIED`] keeps (a service's current
/// and previous keys, under a root or two).
const KEPT_CERTIFICATES: usize = 8;

/// Whether `certificate` is signed by `root`: checked once, then kept.
fn certified_by(certificate: &Certificate, root: &VerifyingKey) -> bool {
    let mut signed = root.as_bytes().to_vec();
    signed.extend_from_slice(certificate.bytes());
    let known = |kept: &Vec<Vec<u8>>| kept.contains(&signed);
    if known(&CERTIFIED.lock().unwrap_or_else(PoisonError::into_inner)) {
        return true;
    }
    if !certificate.signed_by(root) {
        return false;
    }
    let mut kept = CERTIFIED.lock().unwrap_or_else(PoisonError::into_inner);
    if !known(&kept) {
        if kept.len() == KEPT_CERTIFICATES {
            kept.remove(0);
        }
        kept.push(signed);
    }
    true
}

/// A pinned root key: version 1 of a service's root, or a later version
/// (which a verdict's `roots` then names). The newest root version verified
/// under it is the process's, shared by every pin of the key: a chain that
/// ends before it is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PinnedRoot(VerifyingKey);

impl PinnedRoot {
    /// Pins a root version's key (version 1's, or a later one's).
    pub fn new(key: VerifyingKey) -> Self {
        PinnedRoot(key)
    }

    /// The pinned key.
    pub fn key(&self) -> &VerifyingKey {
        &self.0
    }

    /// The newest root version verified under the pinned one, and its key
    /// (version 1 and the pinned key until a verdict names a version:
    /// the pinned key's own, or a newer one).
    pub fn newest(&self) -> (u32, VerifyingKey) {
        let newest = NEWEST.lock().unwrap_or_else(PoisonError::into_inner);
        newest
            .iter()
            .find(|(pinned, ..)| *pinned == self.0)
            .map_or((1, self.0), |&(_, version, key)| (version, key))
    }

    /// The key certified by `certificate` (a verdict's `certificate`
    /// member), walking `roots` (its `roots` member) from the newest root
    /// version held, for a verdict naming `key_id` and issued at
    /// `issued_at`. A root version verified on the way is kept.
    ///
    /// # Errors
    ///
    /// The first rule the certificate or its chain breaks.
    pub fn certified_key(
        &self,
        certificate: Option<&Value>,
        roots: Option<&Value>,
        key_id: &KeyId,
        issued_at: Timestamp,
    ) -> Result<VerifyingKey, TrustProblem> {
        let certificate = certificate.ok_or(TrustProblem::NoCertificate)?;
        let certificate = Certificate::read(certificate).ok_or(TrustProblem::Malformed)?;
        let roots = match roots {
            None => &[][..],
            Some(roots) => roots.as_array().ok_or(TrustProblem::Malformed)?,
        };
        if roots.len() >= MAX_CHAIN_LINKS {
            return Err(TrustProblem::Malformed);
        }
        let newest = self.newest();
        let mut held = newest;
        if newest == (1, self.0) {
            // A pin of a later version (the key a consumer was given after a
            // root rotation): the chain starts at the version that names
            // the pinned key, signed by it.
            for root in roots.iter().filter_map(RootVersion::read) {
                if root.key == self.0 && root.signed_by(&self.0).0 {
                    held.0 = root.version;
                }
            }
        }
        if certificate.root_version < held.0 {
            return Err(TrustProblem::Rollback);
        }
        let (mut version, mut key) = held;
        for root in roots {
            let root = RootVersion::read(root).ok_or(TrustProblem::Malformed)?;
            if root.version <= version {
                continue;
            }
            match root.signed_by(&key) {
                _ if root.version != version + 1 => return Err(TrustProblem::BrokenChain),
                (true, true) => (version, key) = (root.version, root.key),
                // The first version past the one held names another root.
                (true, false) if version == held.0 => return Err(TrustProblem::OtherRoot),
                _ => return Err(TrustProblem::BrokenChain),
            }
        }
        if version > newest.0 {
            let mut kept = NEWEST.lock().unwrap_or_else(PoisonError::into_inner);
            match kept.iter_mut().find(|(pinned, ..)| *pinned == self.0) {
                Some(entry) if entry.1 < version => *entry = (self.0, version, key),
                Some(_) => {}
                None => kept.push((self.0, version, key)),
            }
        }
        if certificate.root_version > version {
            return Err(TrustProblem::BrokenChain);
        }
        if !certified_by(&certificate, &key) {
            return Err(TrustProblem::OtherRoot);
        }
        if KeyId::of(&certificate.key) != *key_id {
            return Err(TrustProblem::OtherKey);
        }
        if issued_at < certificate.not_before || issued_at > certificate.not_after {
            return Err(TrustProblem::OutsideWindow);
        }
        Ok(certificate.key)
    }
}
