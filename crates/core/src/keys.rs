//! Key identifiers and the consumer's configured trust: the public keys it
//! accepts signatures from, selected by keyId, never by position.

use std::fmt;

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use ed25519_dalek::VerifyingKey;
use sha2::{Digest, Sha256};

use crate::json::Value;

/// A key identifier: the first 8 bytes of SHA-256 of the raw 32-byte public
/// key, written as 16 lowercase hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyId([u8; 8]);

impl KeyId {
    /// The keyId of `key`.
    pub fn of(key: &VerifyingKey) -> Self {
        let digest = Sha256::digest(key.as_bytes());
        let mut id = [0u8; 8];
        id.copy_from_slice(&digest[..8]);
        KeyId(id)
    }

    /// Parses exactly 16 lowercase hex digits.
    pub fn parse(text: &str) -> Option<Self> {
        let bytes = text.as_bytes();
        if bytes.len() != 16 || !bytes.iter().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return None;
        }
        let mut id = [0u8; 8];
        for (i, pair) in bytes.chunks(2).enumerate() {
            let hex = std::str::from_utf8(pair).ok()?;
            id[i] = u8::from_str_radix(hex, 16).ok()?;
        }
        Some(KeyId(id))
    }
}

impl fmt::Display for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

/// Decodes standard base64 with padding, or base64url without padding.
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    STANDARD
        .decode(text)
        .or_else(|_| URL_SAFE_NO_PAD.decode(text))
        .ok()
}

/// Standard base64 with padding.
pub fn encode_base64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Parses one raw 32-byte Ed25519 public key from base64, refusing keys that
/// are not valid points or are of small order.
///
/// # Errors
///
/// What is wrong with the key, in a few words.
pub fn parse_public_key(text: &str) -> Result<VerifyingKey, &'static str> {
    let bytes = decode_base64(text.trim_ascii()).ok_or("is not base64")?;
    let bytes: [u8; 32] = bytes
        .try_into()
        .map_err(|_| "is not 32 bytes (a raw Ed25519 public key)")?;
    let key = VerifyingKey::from_bytes(&bytes).map_err(|_| "is not an Ed25519 public key")?;
    if key.is_weak() {
        return Err("is a small-order (weak) key");
    }
    Ok(key)
}

/// The public keys a consumer trusts, each under the keyId computed from it.
#[derive(Clone, Debug, Default)]
pub struct TrustedKeys {
    keys: Vec<(KeyId, VerifyingKey)>,
}

impl TrustedKeys {
    /// No keys: signatures are `not_checked`.
    pub fn none() -> Self {
        TrustedKeys::default()
    }

    /// Whether no key is configured.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The key whose computed keyId is `id`.
    pub fn get(&self, id: &KeyId) -> Option<&VerifyingKey> {
        self.keys.iter().find(|(k, _)| k == id).map(|(_, key)| key)
    }

    /// Trust exactly these keys.
    pub fn from_keys(keys: impl IntoIterator<Item = VerifyingKey>) -> Self {
        let mut trusted = TrustedKeys::none();
        keys.into_iter().for_each(|key| trusted.add(key));
        trusted
    }

    fn add(&mut self, key: VerifyingKey) {
        let id = KeyId::of(&key);
        if self.get(&id).is_none() {
            self.keys.push((id, key));
        }
    }

    /// Parses one base64 key or several separated by commas (the form of an
    /// environment variable).
    ///
    /// # Errors
    ///
    /// Which key (by position) is wrong and how.
    pub fn from_comma_list(text: &str) -> Result<Self, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        Self::from_strings(&parts)
    }

    fn from_strings(texts: &[&str]) -> Result<Self, String> {
        let mut trusted = TrustedKeys::none();
        for (i, text) in texts.iter().enumerate() {
            let key = parse_public_key(text).map_err(|p| describe(texts.len(), i, p))?;
            trusted.add(key);
        }
        if trusted.is_empty() {
            return Err("no public key given".into());
        }
        Ok(trusted)
    }

    /// Parses the JSON forms of a key configuration: one base64 string, an
    /// array of them, or a keys document (`{"keys": [{"publicKey": …}]}`).
    ///
    /// In a keys document, entries whose `algorithm` is not `Ed25519` are
    /// skipped, and a listed `keyId` is ignored: each key is held under the
    /// keyId computed from it, so a wrong label can never select a key.
    ///
    /// # Errors
    ///
    /// Which entry is wrong and how, or that no usable key is present.
    pub fn from_json(value: &Value) -> Result<Self, String> {
        match value {
            Value::String(text) => Self::from_strings(&[text.as_str()]),
            Value::Array(items) => {
                let texts: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
                Self::from_strings(&texts.ok_or("every key in the list must be a base64 string")?)
            }
            Value::Object(doc) => {
                let entries = doc
                    .get("keys")
                    .and_then(Value::as_array)
                    .ok_or("a keys document needs a \"keys\" array")?;
                let mut trusted = TrustedKeys::none();
                for (i, entry) in entries.iter().enumerate() {
                    if entry.get("algorithm").and_then(Value::as_str) != Some("Ed25519") {
                        continue;
                    }
                    let text = entry
                        .get("publicKey")
                        .and_then(Value::as_str)
                        .ok_or_else(|| format!("keys[{i}].publicKey is missing"))?;
                    let key =
                        parse_public_key(text).map_err(|p| format!("keys[{i}].publicKey {p}"))?;
                    trusted.add(key);
                }
                if trusted.is_empty() {
                    return Err("the keys document holds no Ed25519 key".into());
                }
                Ok(trusted)
            }
            _ => Err("must be a base64 string, a list of them, or a keys document".into()),
        }
    }
}

fn describe(count: usize, index: usize, problem: &str) -> String {
    if count == 1 {
        format!("the public key {problem}")
    } else {
        format!("public key #{} {problem}", index + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::SigningKey;
    use serde_json::json;

    fn from_json(v: serde_json::Value) -> Result<TrustedKeys, String> {
        TrustedKeys::from_json(&crate::json::from_serde(&v))
    }

    fn key(seed: u8) -> VerifyingKey {
        SigningKey::from_bytes(&[seed; 32]).verifying_key()
    }

    #[test]
    fn key_id_is_sha256_prefix_in_lower_hex() {
        let k = key(1);
        let id = KeyId::of(&k).to_string();
        assert_eq!(id.len(), 16);
        assert_eq!(KeyId::parse(&id), Some(KeyId::of(&k)));
        assert_eq!(KeyId::parse(&id.to_uppercase()), None);
        assert_eq!(KeyId::parse("3f9a1c07b2e4d85"), None);
    }

    #[test]
    fn parses_every_configuration_form() {
        let a = encode_base64(key(1).as_bytes());
        let b = encode_base64(key(2).as_bytes());
        // Each configured key is held under its own keyId, and only those.
        let holds = |trusted: &TrustedKeys, seeds: &[u8]| {
            for seed in 1..=3u8 {
                let held = trusted.get(&KeyId::of(&key(seed))).is_some();
                assert_eq!(held, seeds.contains(&seed), "key {seed}");
            }
        };
        holds(&from_json(json!(a)).unwrap(), &[1]);
        holds(&from_json(json!([a, b])).unwrap(), &[1, 2]);
        holds(
            &TrustedKeys::from_comma_list(&format!("{a}, {b}")).unwrap(),
            &[1, 2],
        );
        let doc = json!({"keys": [
            {"keyId": "0000000000000000", "algorithm": "Ed25519", "publicKey": a, "status": "current"},
            {"algorithm": "RSA", "publicKey": "whatever"},
        ]});
        let trusted = from_json(doc).unwrap();
        // The wrong listed keyId is ignored; the key is held under its real id.
        assert!(trusted.get(&KeyId::of(&key(1))).is_some());
        assert!(trusted
            .get(&KeyId::parse("0000000000000000").unwrap())
            .is_none());
    }

    #[test]
    fn url_safe_keys_are_accepted() {
        let text = URL_SAFE_NO_PAD.encode(key(3).as_bytes());
        assert!(parse_public_key(&text).is_ok());
    }

    #[test]
    fn bad_keys_are_named() {
        assert_eq!(
            from_json(json!("nope!")).unwrap_err(),
            "the public key is not base64"
        );
        assert_eq!(
            from_json(json!(encode_base64(&[1u8; 31]))).unwrap_err(),
            "the public key is not 32 bytes (a raw Ed25519 public key)"
        );
        let a = encode_base64(key(1).as_bytes());
        assert_eq!(
            TrustedKeys::from_comma_list(&format!("{a},xx")).unwrap_err(),
            "public key #2 is not base64"
        );
        // The identity point has small order.
        let mut identity = [0u8; 32];
        identity[0] = 1;
        assert_eq!(
            parse_public_key(&encode_base64(&identity)).unwrap_err(),
            "is a small-order (weak) key"
        );
        assert!(from_json(json!(42)).is_err());
        assert!(from_json(json!({"keys": []})).is_err());
        assert!(from_json(json!([1])).is_err());
    }
}
