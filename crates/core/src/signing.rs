//! The signed message and strict Ed25519 over it (protocol section 4).

use ed25519_dalek::{Signer as _, SigningKey, VerifyingKey};

use crate::ed25519::{verify_strict, KeyId};
use crate::encoding::{decode_base64, encode_base64};
use crate::json::{Object, Value};
use crate::keys::TrustedKeys;
use crate::request::MAX_BODY_BYTES;
#[cfg(feature = "roots")]
use crate::root::TrustProblem;
use crate::verdict::{SignatureField, Verdict, VerdictDocument, VerdictError};

/// The domain-separation prefix of every signed message.
pub(crate) const SIGNATURE_DOMAIN: &[u8] = b"x402-verdict/v1\n";

/// What the strict signature check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignatureStatus {
    /// The signature verifies under a configured key.
    Valid,
    /// A configured key matches the keyId and the signature does not verify.
    Invalid,
    /// Keys are configured but none has this keyId, or there is no signature.
    Unverifiable,
    /// No key is configured (or no verdict arrived).
    NotChecked,
}

impl SignatureStatus {
    /// Every status, in the order the protocol lists them.
    pub const ALL: [SignatureStatus; 4] = [
        SignatureStatus::Valid,
        SignatureStatus::Invalid,
        SignatureStatus::Unverifiable,
        SignatureStatus::NotChecked,
    ];

    /// The wire spelling (`valid`, `invalid`, `unverifiable`, `not_checked`).
    pub fn as_str(self) -> &'static str {
        match self {
            SignatureStatus::Valid => "valid",
            SignatureStatus::Invalid => "invalid",
            SignatureStatus::Unverifiable => "unverifiable",
            SignatureStatus::NotChecked => "not_checked",
        }
    }
}

/// `"x402-verdict/v1\n"` followed by the RFC 8785 canonical form of
/// `verdict`; `None` if it holds a number that is not a safe integer (a
/// validated [`Verdict`] never does).
pub fn signed_message(verdict: &Object) -> Option<Vec<u8>> {
    let canonical = verdict.canonical()?;
    let mut message = SIGNATURE_DOMAIN.to_vec();
    message.extend_from_slice(canonical.as_bytes());
    Some(message)
}

/// Checks a document's signature with strict Ed25519 under the configured key
/// whose keyId the verdict names.
#[cfg(feature = "roots")]
pub fn check_signature(document: &VerdictDocument, keys: &TrustedKeys) -> SignatureStatus {
    check_trust(document, keys).0
}

/// Checks a document's signature with strict Ed25519 under the configured key
/// whose keyId the verdict names.
#[cfg(not(feature = "roots"))]
pub fn check_signature(document: &VerdictDocument, keys: &TrustedKeys) -> SignatureStatus {
    if keys.is_empty() {
        return SignatureStatus::NotChecked;
    }
    match keys.get(&document.verdict.key_id) {
        Some(key) => check_under(document, key),
        None => SignatureStatus::Unverifiable,
    }
}

/// Checks a document's signature with strict Ed25519 under the configured key
/// whose keyId the verdict names or, when none does and roots are pinned,
/// under the key its certificate certifies; with why the certificate gives
/// no key, when it does not (the signature then reads `unverifiable`).
#[cfg(feature = "roots")]
pub fn check_trust(
    document: &VerdictDocument,
    keys: &TrustedKeys,
) -> (SignatureStatus, Option<TrustProblem>) {
    if keys.is_empty() {
        return (SignatureStatus::NotChecked, None);
    }
    let v = &document.verdict;
    let key = match keys.get(&v.key_id) {
        Some(key) => *key,
        None => {
            let mut problem = None;
            let certified = keys.roots().iter().find_map(|root| {
                root.certified_key(
                    document.certificate.as_ref(),
                    document.roots.as_ref(),
                    &v.key_id,
                    v.issued_at,
                )
                .map_err(|e| problem = problem.filter(|_| e == TrustProblem::OtherRoot).or(Some(e)))
                .ok()
            });
            match certified {
                Some(key) => key,
                None => return (SignatureStatus::Unverifiable, problem),
            }
        }
    };
    (check_under(document, &key), None)
}

/// The document's signature checked under `key`.
fn check_under(document: &VerdictDocument, key: &VerifyingKey) -> SignatureStatus {
    let bytes = match &document.signature {
        SignatureField::Absent => return SignatureStatus::Unverifiable,
        SignatureField::NotText => return SignatureStatus::Invalid,
        SignatureField::Text(text) => decode_base64(text).unwrap_or_default(),
    };
    let message = signed_message(&document.raw).unwrap_or_default();
    if verify_strict(key, &message, &bytes) {
        SignatureStatus::Valid
    } else {
        SignatureStatus::Invalid
    }
}

/// Signs a `verdict` object: sets its `keyId` to the key's, checks it against
/// the protocol's rules, and returns the document `{"signature", "verdict"}`
/// as JSON text (in its canonical form).
///
/// # Errors
///
/// The rule the verdict breaks, or a document larger than consumers accept
/// ([`MAX_BODY_BYTES`]); nothing is returned then.
pub fn sign_verdict(verdict: Object, key: &SigningKey) -> Result<String, VerdictError> {
    sign_verdict_carrying(verdict, key, &Object::new())
}

/// As [`sign_verdict`], with `carried`'s members (the key's `certificate`
/// and the chain of `roots`, docs/protocol.md, Roots and key certificates) beside `verdict` and
/// `signature`.
///
/// # Errors
///
/// As [`sign_verdict`].
pub fn sign_verdict_carrying(
    mut verdict: Object,
    key: &SigningKey,
    carried: &Object,
) -> Result<String, VerdictError> {
    let key_id = KeyId::of(&key.verifying_key());
    verdict.insert(
        crate::verdict::names::KEY_ID,
        Value::String(key_id.to_string()),
    );
    Verdict::from_object(&verdict)?;
    // A valid verdict holds only safe integers, so it always has a canonical form.
    let message = signed_message(&verdict).unwrap_or_default();
    let mut document = carried.clone();
    document.insert(
        "signature",
        Value::String(encode_base64(&key.sign(&message).to_bytes())),
    );
    document.insert("verdict", Value::Object(verdict));
    let text = document.canonical().unwrap_or_default();
    if text.len() > MAX_BODY_BYTES {
        return Err(VerdictError::TooLarge(text.len()));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn verdict() -> Object {
        let v = json!({
            "v": 1, "chain": "base", "payTo": "0xabc", "resourceUrl": "https://a.example/x",
            "outcome": "human_backed", "assuranceLevel": "G", "verifiedAt": "2026-09-01T08:00:00Z",
            "recheckEveryHours": 24, "issuedAt": "2026-09-01T08:00:05Z", "unknown": "kept"
        });
        Object::parse(v.to_string().as_bytes()).unwrap()
    }

    fn signed(verdict: Object, key: &SigningKey) -> serde_json::Value {
        serde_json::from_str(&sign_verdict(verdict, key).unwrap()).unwrap()
    }

    fn parse(doc: &serde_json::Value) -> VerdictDocument {
        VerdictDocument::parse(&serde_json::to_vec(doc).unwrap()).unwrap()
    }

    #[test]
    fn message_is_prefix_plus_canonical_json() {
        let mut m = Object::new();
        m.insert("b", Value::Integer(1));
        m.insert("a", "é".into());
        assert_eq!(
            signed_message(&m).unwrap(),
            "x402-verdict/v1\n{\"a\":\"é\",\"b\":1}".as_bytes()
        );
        m.insert("c", Value::OtherNumber("1.5".into()));
        assert_eq!(signed_message(&m), None);
    }

    #[test]
    fn sign_then_check_under_each_configuration() {
        let key = SigningKey::from_bytes(&[7; 32]);
        let other = SigningKey::from_bytes(&[8; 32]);
        let doc = parse(&signed(verdict(), &key));
        let mine = TrustedKeys::from_keys([key.verifying_key()]);
        assert_eq!(check_signature(&doc, &mine), SignatureStatus::Valid);
        assert_eq!(
            check_signature(&doc, &TrustedKeys::none()),
            SignatureStatus::NotChecked
        );
        let theirs = TrustedKeys::from_keys([other.verifying_key()]);
        assert_eq!(
            check_signature(&doc, &theirs),
            SignatureStatus::Unverifiable
        );
        // Selection is by keyId, not position: the right key second still verifies.
        let both = TrustedKeys::from_keys([other.verifying_key(), key.verifying_key()]);
        assert_eq!(check_signature(&doc, &both), SignatureStatus::Valid);
    }

    #[test]
    fn any_change_to_signed_content_invalidates() {
        let key = SigningKey::from_bytes(&[7; 32]);
        let trusted = TrustedKeys::from_keys([key.verifying_key()]);
        let signed = signed(verdict(), &key);
        for (field, value) in [
            ("assuranceLevel", json!("A")),
            ("unknown", json!("changed")),
            ("added", json!(true)),
        ] {
            let mut doc = signed.clone();
            doc["verdict"][field] = value;
            assert_eq!(
                check_signature(&parse(&doc), &trusted),
                SignatureStatus::Invalid,
                "{field}"
            );
        }
        let mut doc = signed.clone();
        doc["signature"] = json!("AAAA");
        assert_eq!(
            check_signature(&parse(&doc), &trusted),
            SignatureStatus::Invalid
        );
        doc["signature"] = json!(12);
        assert_eq!(
            check_signature(&parse(&doc), &trusted),
            SignatureStatus::Invalid
        );
        doc.as_object_mut().unwrap().remove("signature");
        assert_eq!(
            check_signature(&parse(&doc), &trusted),
            SignatureStatus::Unverifiable
        );
    }

    #[test]
    fn refuses_to_sign_a_malformed_verdict() {
        let mut v = verdict();
        v.remove("issuedAt");
        assert!(sign_verdict(v, &SigningKey::from_bytes(&[7; 32])).is_err());
    }

    #[test]
    fn refuses_a_document_consumers_would_refuse_as_too_large() {
        let key = SigningKey::from_bytes(&[7; 32]);
        let mut v = verdict();
        v.insert("operator", Value::String("x".repeat(MAX_BODY_BYTES - 400)));
        assert!(sign_verdict(v.clone(), &key).unwrap().len() <= MAX_BODY_BYTES);
        v.insert("operator", Value::String("x".repeat(MAX_BODY_BYTES)));
        let problem = sign_verdict(v, &key).unwrap_err().to_string();
        assert!(
            problem.ends_with("over the 65536 bytes consumers accept"),
            "{problem}"
        );
    }
}
