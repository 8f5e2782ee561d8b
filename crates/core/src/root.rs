//! A consumer's pinned roots and the rule that takes a signing key on a
//! verdict's certificate (docs/protocol.md, Roots and key certificates): the chain from the pinned
//! root version to the certificate's, each link checked, never backwards.

use std::sync::{Arc, Mutex, PoisonError};

use ed25519_dalek::VerifyingKey;

use crate::certificate::{Certificate, RootVersion, MAX_CHAIN_LINKS};
use crate::json::Value;
use crate::keys::KeyId;
use crate::time::Timestamp;

/// Why a verdict's certificate gives no key to check its signature with
/// (its signature then reads `unverifiable`; never an error, never valid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrustProblem {
    /// The verdict carries no certificate.
    NoCertificate,
    /// The certificate, or a root version, breaks a rule of its format or
    /// its bounds.
    Malformed,
    /// The certificate is signed by another root than the pinned one.
    OtherRoot,
    /// The root versions do not chain from the pinned version to the
    /// certificate's.
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
            TrustProblem::NoCertificate => "the verdict carries no key certificate",
            TrustProblem::Malformed => "the key certificate or its root chain is malformed",
            TrustProblem::OtherRoot => "the key certificate is signed by another root",
            TrustProblem::BrokenChain => "the chain of root versions is broken",
            TrustProblem::Rollback => {
                "the key certificate is from a root version older than one already verified"
            }
            TrustProblem::OtherKey => "the key certificate is for another key than the verdict's",
            TrustProblem::OutsideWindow => {
                "the verdict was issued outside its key certificate's validity window"
            }
        }
    }
}

crate::writing::words_from_str!(TrustProblem);
crate::writing::error_without_cause!(TrustProblem);

/// One root version a consumer holds: its number and key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Held {
    version: u32,
    key: VerifyingKey,
}

/// A pinned root key (version 1 of a service's root) and the newest root
/// version verified from it, which this process or page keeps: a chain
/// that ends before it is refused. Every pin of one key in a process
/// shares that newest version ([`PinnedRoot::new`]).
#[derive(Clone, Debug)]
pub struct PinnedRoot {
    pinned: VerifyingKey,
    newest: Arc<Mutex<Held>>,
}

impl PartialEq for PinnedRoot {
    fn eq(&self, other: &Self) -> bool {
        self.pinned == other.pinned
    }
}

impl Eq for PinnedRoot {}

/// Every root pinned in this process, so that each new pin of a key (a
/// badge's lookup, a guard's) starts from the newest version verified under
/// it so far.
static PINNED: Mutex<Vec<PinnedRoot>> = Mutex::new(Vec::new());

impl PinnedRoot {
    /// Pins root version 1's key, sharing the newest version verified with
    /// every pin of the same key in this process.
    pub fn new(key: VerifyingKey) -> Self {
        let mut pinned = PINNED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(root) = pinned.iter().find(|root| root.pinned == key) {
            return root.clone();
        }
        let root = PinnedRoot {
            pinned: key,
            newest: Arc::new(Mutex::new(Held { version: 1, key })),
        };
        pinned.push(root.clone());
        root
    }

    /// The pinned key.
    pub fn key(&self) -> &VerifyingKey {
        &self.pinned
    }

    /// The newest root version verified from the pinned one (1 until a
    /// newer one is).
    pub fn newest_version(&self) -> u32 {
        self.held().version
    }

    fn held(&self) -> Held {
        *self.newest.lock().unwrap_or_else(PoisonError::into_inner)
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
        let held = self.held();
        if certificate.root_version < held.version {
            return Err(TrustProblem::Rollback);
        }
        let mut current = held;
        for root in roots {
            let root = RootVersion::read(root).ok_or(TrustProblem::Malformed)?;
            if root.version <= current.version {
                continue;
            }
            if root.version != current.version + 1
                || !root.signed_by(&current.key)
                || !root.signed_by(&root.key)
            {
                return Err(TrustProblem::BrokenChain);
            }
            current = Held {
                version: root.version,
                key: root.key,
            };
        }
        if current != held {
            let mut newest = self.newest.lock().unwrap_or_else(PoisonError::into_inner);
            if newest.version < current.version {
                *newest = current;
            }
        }
        if certificate.root_version > current.version {
            return Err(TrustProblem::BrokenChain);
        }
        if certificate.root_key_id != KeyId::of(&current.key)
            || !certificate.signed_by(&current.key)
        {
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
