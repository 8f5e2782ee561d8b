//! Key certificates and root versions (docs/protocol.md, Roots and key
//! certificates): what a root key signs, written and read here once.
//!
//! Both are fixed-length byte strings, carried as standard base64 text
//! (read with the core's base64 and strict Ed25519, so that a badge that
//! pins a root holds little more code than one that pins a key):
//!
//! - a certificate: `publicKey[32] || notBefore[8] || notAfter[8] ||
//!   rootVersion[4] || signature[64]` (integers big-endian; times in Unix
//!   seconds), the signature by root version `rootVersion`'s key over
//!   [`CERTIFICATE_DOMAIN`] followed by the first 52 bytes;
//! - a root version: `version[4] || publicKey[32] || signature[64] ||
//!   previousSignature[64]` (no previous signature for version 1), both
//!   signatures over [`ROOT_DOMAIN`] followed by the first 36 bytes: by the
//!   version's own key, and by the key of the version before it.

use ed25519_dalek::{Signer as _, SigningKey, VerifyingKey};

use crate::ed25519::{public_key_from_bytes, verify_strict};
use crate::encoding::{decode_base64, encode_base64};
use crate::json::Value;
use crate::time::Timestamp;

/// The domain-separation prefix of a key certificate's signed message.
pub const CERTIFICATE_DOMAIN: &[u8] = b"x402-verdict-key-certificate/v1\n";

/// The domain-separation prefix of a root version's signed message.
pub const ROOT_DOMAIN: &[u8] = b"x402-verdict-root/v1\n";

/// The most links a verdict's chain may hold: its certificate and the root
/// versions in its `roots` member together.
pub const MAX_CHAIN_LINKS: usize = 8;

/// The longest validity window a certificate may be issued with (a year).
pub const MAX_CERTIFICATE_SECONDS: i64 = 366 * 86_400;

/// The validity window `certify` gives by default (90 days).
pub const DEFAULT_CERTIFICATE_SECONDS: i64 = 90 * 86_400;

/// The signed part of a certificate, and the whole of it.
const CERTIFICATE_SIGNED: usize = 52;
const CERTIFICATE_BYTES: usize = CERTIFICATE_SIGNED + 64;

/// The signed part of a root version.
const ROOT_SIGNED: usize = 36;

/// The bytes a text member holds in base64, when it is one.
fn bytes_of(value: &Value) -> Option<Vec<u8>> {
    decode_base64(value.as_str()?)
}

fn number<const N: usize>(bytes: &[u8], at: usize) -> Option<[u8; N]> {
    bytes.get(at..at + N)?.try_into().ok()
}

fn verifies(key: &VerifyingKey, domain: &[u8], signed: &[u8], signature: &[u8]) -> bool {
    // Built as the verdict's message is (no `concat` of its own in the wasm).
    let mut message = domain.to_vec();
    message.extend_from_slice(signed);
    verify_strict(key, &message, signature)
}

/// A certified signing key, as read from a certificate whose signature has
/// not yet been checked.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// The certified signing key.
    pub key: VerifyingKey,
    /// The start of its validity window.
    pub not_before: Timestamp,
    /// The end of its validity window.
    pub not_after: Timestamp,
    /// The root version that signed it.
    pub root_version: u32,
    bytes: Vec<u8>,
}

impl Certificate {
    /// Reads a certificate's base64 text (the service checks its key file
    /// with it); `None` when it is not one. Its signature is not checked.
    pub fn parse(text: &str) -> Option<Self> {
        Self::read(&Value::String(text.to_owned()))
    }

    /// Reads a certificate; `None` when it is not one.
    pub(crate) fn read(value: &Value) -> Option<Self> {
        let bytes = bytes_of(value).filter(|b| b.len() == CERTIFICATE_BYTES)?;
        let time = |at| {
            Some(Timestamp::from_unix_seconds(i64::from_be_bytes(number(
                &bytes, at,
            )?)))
        };
        Some(Certificate {
            key: public_key_from_bytes(number(&bytes, 0)?).ok()?,
            not_before: time(32)?,
            not_after: time(40)?,
            root_version: u32::from_be_bytes(number(&bytes, 48)?),
            bytes,
        })
    }

    /// The certificate's bytes, as carried.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Whether the root key `root` signed this certificate.
    pub(crate) fn signed_by(&self, root: &VerifyingKey) -> bool {
        let (signed, signature) = self.bytes.split_at(CERTIFICATE_SIGNED);
        verifies(root, CERTIFICATE_DOMAIN, signed, signature)
    }
}

/// One root version, as read from a root whose signatures have not yet
/// been checked.
pub(crate) struct RootVersion {
    pub(crate) version: u32,
    pub(crate) key: VerifyingKey,
    bytes: Vec<u8>,
}

impl RootVersion {
    /// Reads a root version of 2 or more (what a verdict's `roots`
    /// carries); `None` when it is not one.
    pub(crate) fn read(value: &Value) -> Option<Self> {
        let bytes = bytes_of(value).filter(|b| b.len() == ROOT_SIGNED + 128)?;
        Some(RootVersion {
            version: u32::from_be_bytes(number(&bytes, 0)?),
            key: public_key_from_bytes(number(&bytes, 4)?).ok()?,
            bytes,
        })
    }

    /// Whether this version is signed by its own key and by `previous`,
    /// the key of the version before it.
    pub(crate) fn signed_by(&self, previous: &VerifyingKey) -> (bool, bool) {
        let (signed, signatures) = self.bytes.split_at(ROOT_SIGNED);
        let (own, by_previous) = signatures.split_at(64);
        (
            verifies(&self.key, ROOT_DOMAIN, signed, own),
            verifies(previous, ROOT_DOMAIN, signed, by_previous),
        )
    }
}

/// What a root key is for a certificate: its secret and its version.
#[derive(Clone, Copy, Debug)]
pub struct RootSigner<'a> {
    /// The root version's secret key.
    pub key: &'a SigningKey,
    /// The root version, from 1.
    pub version: u32,
}

/// Why a certificate cannot be issued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CertifyError {
    /// `notAfter` is not after `notBefore`.
    WindowEmpty,
    /// The window is longer than [`MAX_CERTIFICATE_SECONDS`].
    WindowTooLong,
}

impl CertifyError {
    /// The problem, as a clause.
    pub fn as_str(self) -> &'static str {
        match self {
            CertifyError::WindowEmpty => "the certificate's notAfter must be after its notBefore",
            CertifyError::WindowTooLong => "a certificate may be valid for at most a year",
        }
    }
}

crate::writing::words_from_str!(CertifyError);
crate::writing::error_without_cause!(CertifyError);

/// The certificate by which `root` certifies `key` from `not_before` to
/// `not_after`, as base64: the value of a verdict document's `certificate`
/// member.
///
/// # Errors
///
/// An empty window, or one longer than [`MAX_CERTIFICATE_SECONDS`].
pub fn certify_key(
    key: &VerifyingKey,
    not_before: Timestamp,
    not_after: Timestamp,
    root: RootSigner<'_>,
) -> Result<String, CertifyError> {
    if not_after <= not_before {
        return Err(CertifyError::WindowEmpty);
    }
    if not_before.plus_seconds(MAX_CERTIFICATE_SECONDS) < not_after {
        return Err(CertifyError::WindowTooLong);
    }
    let mut bytes = key.as_bytes().to_vec();
    bytes.extend(not_before.unix_seconds().to_be_bytes());
    bytes.extend(not_after.unix_seconds().to_be_bytes());
    bytes.extend(root.version.to_be_bytes());
    let signature = root.key.sign(&[CERTIFICATE_DOMAIN, &bytes].concat());
    bytes.extend(signature.to_bytes());
    Ok(encode_base64(&bytes))
}

/// Root version `version` naming `key`, as base64: signed by `key` and,
/// from version 2 on, by `previous` (the key of version `version - 1`),
/// the TUF rule.
pub fn sign_root(version: u32, key: &SigningKey, previous: Option<&SigningKey>) -> String {
    let mut bytes = version.to_be_bytes().to_vec();
    bytes.extend(key.verifying_key().as_bytes());
    let message = [ROOT_DOMAIN, &bytes].concat();
    for signer in [Some(key), previous].into_iter().flatten() {
        bytes.extend(signer.sign(&message).to_bytes());
    }
    encode_base64(&bytes)
}

/// The version and key a root version names, when `text` is one (the
/// service shows them beside it). Its signatures are not checked.
pub fn root_version_of(text: &str) -> Option<(u32, VerifyingKey)> {
    let bytes = decode_base64(text).filter(|b| b.len() >= ROOT_SIGNED + 64)?;
    let version = u32::from_be_bytes(number(&bytes, 0)?);
    Some((version, public_key_from_bytes(number(&bytes, 4)?).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn time(text: &str) -> Timestamp {
        Timestamp::parse_rfc3339(text).unwrap()
    }

    #[test]
    fn a_certificate_reads_back_and_verifies_under_its_root_only() {
        let root = SigningKey::from_bytes(&[1; 32]);
        let key = SigningKey::from_bytes(&[2; 32]).verifying_key();
        let signer = RootSigner {
            key: &root,
            version: 1,
        };
        let (from, to) = (time("2026-09-01T00:00:00Z"), time("2026-11-30T00:00:00Z"));
        let text = certify_key(&key, from, to, signer).unwrap();
        let read = Certificate::read(&Value::String(text)).unwrap();
        assert_eq!((read.key, read.not_before, read.not_after), (key, from, to));
        assert_eq!(read.root_version, 1);
        assert!(read.signed_by(&root.verifying_key()));
        assert!(!read.signed_by(&key));
        assert_eq!(
            certify_key(&key, to, from, signer),
            Err(CertifyError::WindowEmpty)
        );
        let late = from.plus_seconds(MAX_CERTIFICATE_SECONDS + 1);
        assert_eq!(
            certify_key(&key, from, late, signer),
            Err(CertifyError::WindowTooLong)
        );
        assert!(Certificate::read(&Value::String("AAAA".into())).is_none());
    }

    #[test]
    fn a_root_version_is_signed_by_itself_and_its_predecessor() {
        let (one, two) = (
            SigningKey::from_bytes(&[1; 32]),
            SigningKey::from_bytes(&[3; 32]),
        );
        let text = sign_root(2, &two, Some(&one));
        assert_eq!(root_version_of(&text), Some((2, two.verifying_key())));
        let root = RootVersion::read(&Value::String(text)).unwrap();
        assert_eq!((root.version, root.key), (2, two.verifying_key()));
        assert_eq!(root.signed_by(&one.verifying_key()), (true, true));
        assert_eq!(root.signed_by(&two.verifying_key()), (true, false));
        let first = sign_root(1, &one, None);
        assert_eq!(root_version_of(&first), Some((1, one.verifying_key())));
        assert!(
            RootVersion::read(&Value::String(first)).is_none(),
            "version 1 is pinned, never carried"
        );
    }
}
