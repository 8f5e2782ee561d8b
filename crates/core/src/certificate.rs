//! Key certificates and root versions (docs/protocol.md, Roots and key certificates): what a root key
//! signs, as JSON objects signed over domain-separated messages, written
//! and read here once.
//!
//! A certificate is `{"signed": {keyId, publicKey, notBefore, notAfter,
//! rootVersion, rootKeyId}, "signature": …}`, signed by the root key of
//! version `rootVersion` over [`CERTIFICATE_DOMAIN`] followed by the RFC
//! 8785 form of `signed`. A root version is `{"signed": {version, keyId,
//! publicKey}, "signatures": [{keyId, signature}, …]}`, signed over
//! [`ROOT_DOMAIN`] followed by the RFC 8785 form of `signed`, by its own key
//! and (from version 2 on) by the key of the version before it.

use ed25519_dalek::{Signer as _, SigningKey, VerifyingKey};

use crate::json::{Members, Object, Value};
use crate::keys::{decode_base64, encode_base64, parse_public_key, KeyId};
use crate::signing::verify_strict;
use crate::time::Timestamp;

/// The domain-separation prefix of a key certificate's signed message.
pub const CERTIFICATE_DOMAIN: &[u8] = b"x402-verdict-key-certificate/v1\n";

/// The domain-separation prefix of a root version's signed message.
pub const ROOT_DOMAIN: &[u8] = b"x402-verdict-root/v1\n";

/// The most bytes the canonical form of one certificate or one root version
/// may take.
pub const MAX_CERTIFICATE_BYTES: usize = 1024;

/// The most links a verdict's chain may hold: its certificate and the root
/// versions in its `roots` member together.
pub const MAX_CHAIN_LINKS: usize = 8;

/// The longest validity window a certificate may be issued with (a year).
pub const MAX_CERTIFICATE_SECONDS: i64 = 366 * 86_400;

/// The validity window `certify` gives by default (90 days).
pub const DEFAULT_CERTIFICATE_SECONDS: i64 = 90 * 86_400;

/// A certified signing key, as read from a certificate whose signature has
/// not yet been checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Certificate {
    pub(crate) key: VerifyingKey,
    pub(crate) not_before: Timestamp,
    pub(crate) not_after: Timestamp,
    pub(crate) root_version: u32,
    pub(crate) root_key_id: KeyId,
    message: Vec<u8>,
    signature: Vec<u8>,
}

/// One root version, as read from its document whose signatures have not
/// yet been checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RootVersion {
    pub(crate) version: u32,
    pub(crate) key: VerifyingKey,
    message: Vec<u8>,
    signatures: Vec<(KeyId, Vec<u8>)>,
}

/// `domain` followed by the canonical form of `signed`, within the bounds.
fn message(domain: &[u8], signed: &Object) -> Option<Vec<u8>> {
    let canonical = signed.canonical()?;
    if canonical.len() > MAX_CERTIFICATE_BYTES {
        return None;
    }
    Some([domain, canonical.as_bytes()].concat())
}

/// A key named by `keyId` and `publicKey`, which must agree.
fn named_key(members: Members<'_>) -> Option<VerifyingKey> {
    let key = parse_public_key(members.str("publicKey").ok()?).ok()?;
    (KeyId::parse(members.str("keyId").ok()?)? == KeyId::of(&key)).then_some(key)
}

/// A version number: a whole number from 1.
fn version(value: Option<&Value>) -> Option<u32> {
    match value {
        Some(Value::Integer(n @ 1..=0xffff_ffff)) => u32::try_from(*n).ok(),
        _ => None,
    }
}

fn signed_object(value: &Value) -> Option<&Object> {
    match value.get("signed") {
        Some(Value::Object(signed)) => Some(signed),
        _ => None,
    }
}

impl Certificate {
    /// Reads a certificate; `None` when it breaks a rule of its format.
    pub(crate) fn read(value: &Value) -> Option<Self> {
        let signed = signed_object(value)?;
        let members = Members(signed);
        let certificate = Certificate {
            key: named_key(members)?,
            not_before: members.time("notBefore").ok()?,
            not_after: members.time("notAfter").ok()?,
            root_version: version(signed.get("rootVersion"))?,
            root_key_id: KeyId::parse(members.str("rootKeyId").ok()?)?,
            message: message(CERTIFICATE_DOMAIN, signed)?,
            signature: decode_base64(value.get("signature")?.as_str()?)?,
        };
        (certificate.not_before <= certificate.not_after).then_some(certificate)
    }

    /// Whether the root key `root` signed this certificate.
    pub(crate) fn signed_by(&self, root: &VerifyingKey) -> bool {
        verify_strict(root, &self.message, &self.signature)
    }
}

impl RootVersion {
    /// Reads a root version; `None` when it breaks a rule of its format.
    pub(crate) fn read(value: &Value) -> Option<Self> {
        let signed = signed_object(value)?;
        let mut signatures = Vec::new();
        for entry in value.get("signatures")?.as_array()? {
            let id = KeyId::parse(entry.get("keyId")?.as_str()?)?;
            signatures.push((id, decode_base64(entry.get("signature")?.as_str()?)?));
        }
        Some(RootVersion {
            version: version(signed.get("version"))?,
            key: named_key(Members(signed))?,
            message: message(ROOT_DOMAIN, signed)?,
            signatures,
        })
    }

    /// Whether `key` signed this root version (under its keyId).
    pub(crate) fn signed_by(&self, key: &VerifyingKey) -> bool {
        let id = KeyId::of(key);
        self.signatures
            .iter()
            .any(|(by, signature)| *by == id && verify_strict(key, &self.message, signature))
    }
}

/// `{"keyId", "publicKey"}` of `key`, the members that name a key.
fn key_members(key: &VerifyingKey) -> Object {
    let mut members = Object::new();
    members.insert("keyId", Value::String(KeyId::of(key).to_string()));
    members.insert("publicKey", Value::String(encode_base64(key.as_bytes())));
    members
}

fn signature_of(key: &SigningKey, domain: &[u8], signed: &Object) -> String {
    // What the core writes holds only safe integers: it has a canonical form.
    let canonical = signed.canonical().unwrap_or_default();
    encode_base64(
        &key.sign(&[domain, canonical.as_bytes()].concat())
            .to_bytes(),
    )
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
/// `not_after`: the value of a verdict document's `certificate` member.
///
/// # Errors
///
/// An empty window, or one longer than [`MAX_CERTIFICATE_SECONDS`].
pub fn certify_key(
    key: &VerifyingKey,
    not_before: Timestamp,
    not_after: Timestamp,
    root: RootSigner<'_>,
) -> Result<Object, CertifyError> {
    if not_after <= not_before {
        return Err(CertifyError::WindowEmpty);
    }
    if not_before.plus_seconds(MAX_CERTIFICATE_SECONDS) < not_after {
        return Err(CertifyError::WindowTooLong);
    }
    let mut signed = key_members(key);
    signed.insert("notBefore", Value::String(not_before.to_rfc3339()));
    signed.insert("notAfter", Value::String(not_after.to_rfc3339()));
    signed.insert("rootVersion", Value::Integer(root.version.into()));
    let root_id = KeyId::of(&root.key.verifying_key());
    signed.insert("rootKeyId", Value::String(root_id.to_string()));
    let mut certificate = Object::new();
    certificate.insert(
        "signature",
        Value::String(signature_of(root.key, CERTIFICATE_DOMAIN, &signed)),
    );
    certificate.insert("signed", Value::Object(signed));
    Ok(certificate)
}

/// Root version `version` naming `key`, signed by `key` and, from version
/// 2 on, by `previous` (the key of version `version - 1`): the TUF rule.
pub fn sign_root(version: u32, key: &SigningKey, previous: Option<&SigningKey>) -> Object {
    let mut signed = key_members(&key.verifying_key());
    signed.insert("version", Value::Integer(version.into()));
    let signatures = previous
        .into_iter()
        .chain([key])
        .map(|signer| {
            let mut entry = Object::new();
            entry.insert(
                "keyId",
                Value::String(KeyId::of(&signer.verifying_key()).to_string()),
            );
            entry.insert(
                "signature",
                Value::String(signature_of(signer, ROOT_DOMAIN, &signed)),
            );
            Value::Object(entry)
        })
        .collect();
    let mut root = Object::new();
    root.insert("signatures", Value::Array(signatures));
    root.insert("signed", Value::Object(signed));
    root
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
        let value = Value::Object(certify_key(&key, from, to, signer).unwrap());
        let read = Certificate::read(&value).unwrap();
        assert_eq!((read.key, read.not_before, read.not_after), (key, from, to));
        assert_eq!(read.root_key_id, KeyId::of(&root.verifying_key()));
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
    }

    #[test]
    fn a_root_version_is_signed_by_itself_and_its_predecessor() {
        let (one, two) = (
            SigningKey::from_bytes(&[1; 32]),
            SigningKey::from_bytes(&[3; 32]),
        );
        let root = RootVersion::read(&Value::Object(sign_root(2, &two, Some(&one)))).unwrap();
        assert_eq!(root.version, 2);
        assert!(root.signed_by(&one.verifying_key()) && root.signed_by(&two.verifying_key()));
        let first = RootVersion::read(&Value::Object(sign_root(1, &one, None))).unwrap();
        assert!(first.signed_by(&one.verifying_key()) && !first.signed_by(&two.verifying_key()));
    }

    #[test]
    fn a_key_named_under_another_id_or_a_version_zero_is_refused() {
        let one = SigningKey::from_bytes(&[1; 32]);
        let mut root = sign_root(1, &one, None);
        let Some(Value::Object(signed)) = root.remove("signed") else {
            unreachable!()
        };
        let mut wrong_id = signed.clone();
        wrong_id.insert("keyId", Value::String("0000000000000000".into()));
        let mut zero = signed.clone();
        zero.insert("version", Value::Integer(0));
        for signed in [wrong_id, zero] {
            let mut doc = root.clone();
            doc.insert("signed", Value::Object(signed));
            assert_eq!(RootVersion::read(&Value::Object(doc)), None);
        }
    }
}
