//! The signed message and strict Ed25519 over it (protocol section 4).

use ed25519_dalek::{Signature, Signer as _, SigningKey, VerifyingKey};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::keys::{decode_base64, encode_base64, KeyId, TrustedKeys};
use crate::verdict::{Malformed, SignatureField, Verdict, VerdictDocument};

/// The domain-separation prefix of every signed message.
pub const SIGNATURE_DOMAIN: &[u8] = b"x402-verdict/v1\n";

/// What the strict signature check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
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

/// `"x402-verdict/v1\n"` followed by the RFC 8785 canonical form of `verdict`.
pub fn signed_message(verdict: &Map<String, Value>) -> Vec<u8> {
    let mut message = SIGNATURE_DOMAIN.to_vec();
    message.extend_from_slice(&canonical_json(verdict));
    message
}

/// The RFC 8785 canonical form of a JSON value.
pub fn canonical_json<T: Serialize>(value: &T) -> Vec<u8> {
    // JSON values always canonicalize: their numbers are finite by construction.
    serde_json_canonicalizer::to_vec(value).unwrap_or_default()
}

/// Checks a document's signature with strict Ed25519 under the configured key
/// whose keyId the verdict names.
pub fn check_signature(document: &VerdictDocument, keys: &TrustedKeys) -> SignatureStatus {
    if keys.is_empty() {
        return SignatureStatus::NotChecked;
    }
    let Some(key) = keys.get(&document.verdict.key_id) else {
        return SignatureStatus::Unverifiable;
    };
    let bytes = match &document.signature {
        SignatureField::Absent => return SignatureStatus::Unverifiable,
        SignatureField::NotText => return SignatureStatus::Invalid,
        SignatureField::Text(text) => decode_base64(text).unwrap_or_default(),
    };
    if verify_strict(key, &signed_message(&document.raw), &bytes) {
        SignatureStatus::Valid
    } else {
        SignatureStatus::Invalid
    }
}

/// Strict Ed25519 (RFC 8032 with canonical encodings, no small-order keys or
/// points): whether `signature` (which must be 64 bytes) signs `message` under `key`.
pub fn verify_strict(key: &VerifyingKey, message: &[u8], signature: &[u8]) -> bool {
    Signature::from_slice(signature).is_ok_and(|sig| key.verify_strict(message, &sig).is_ok())
}

/// Signs a `verdict` object: sets its `keyId` to the key's, checks it against
/// the protocol's rules, and returns the document `{"verdict", "signature"}`.
///
/// # Errors
///
/// The rule the verdict breaks; nothing is signed then.
pub fn sign_verdict(mut verdict: Map<String, Value>, key: &SigningKey) -> Result<Value, Malformed> {
    let key_id = KeyId::of(&key.verifying_key());
    verdict.insert("keyId".into(), Value::String(key_id.to_string()));
    Verdict::from_object(&verdict)?;
    let signature = key.sign(&signed_message(&verdict));
    Ok(serde_json::json!({
        "verdict": verdict,
        "signature": encode_base64(&signature.to_bytes()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn verdict() -> Map<String, Value> {
        json!({
            "v": 1, "chain": "base", "payTo": "0xabc", "resourceUrl": "https://a.example/x",
            "outcome": "human_backed", "assuranceLevel": "G", "verifiedAt": "2026-09-01T08:00:00Z",
            "recheckEveryHours": 24, "issuedAt": "2026-09-01T08:00:05Z", "unknown": "kept"
        })
        .as_object()
        .unwrap()
        .clone()
    }

    fn parse(doc: &Value) -> VerdictDocument {
        VerdictDocument::parse(&serde_json::to_vec(doc).unwrap()).unwrap()
    }

    #[test]
    fn message_is_prefix_plus_canonical_json() {
        let mut m = Map::new();
        m.insert("b".into(), json!(1));
        m.insert("a".into(), json!("é"));
        assert_eq!(
            signed_message(&m),
            "x402-verdict/v1\n{\"a\":\"é\",\"b\":1}".as_bytes()
        );
    }

    #[test]
    fn sign_then_check_under_each_configuration() {
        let key = SigningKey::from_bytes(&[7; 32]);
        let other = SigningKey::from_bytes(&[8; 32]);
        let doc = parse(&sign_verdict(verdict(), &key).unwrap());
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
        let signed = sign_verdict(verdict(), &key).unwrap();
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
}
