//! The service's key file: the current signing key and the retired public
//! keys a rotation keeps published.
//!
//! ```json
//! { "current":  { "keyId": "…", "publicKey": "…", "secretKey": "<base64 32-byte seed>" },
//!   "previous": [ { "keyId": "…", "publicKey": "…" } ] }
//! ```

use std::path::Path;

use serde_json::{json, Value};
use x402_verdict_core::ed25519_dalek::{SigningKey, VerifyingKey};
use x402_verdict_core::keys::{decode_base64, encode_base64, parse_public_key};
use x402_verdict_core::KeyId;

use super::secret_file::{self, SecretFileError};

/// How many retired keys a rotation keeps.
const MAX_PREVIOUS: usize = 4;

/// The current signing key and the previous public keys.
pub struct KeyFile {
    /// Signs new verdicts.
    pub current: SigningKey,
    /// Retired by rotations, newest first; still published.
    pub previous: Vec<VerifyingKey>,
}

impl KeyFile {
    /// A fresh key from the operating system's random source.
    pub fn generate() -> Self {
        KeyFile {
            current: SigningKey::generate(&mut rand_core::OsRng),
            previous: Vec::new(),
        }
    }

    /// A new current key; the old one becomes the newest previous key.
    pub fn rotated(self) -> Self {
        let mut previous = vec![self.current.verifying_key()];
        previous.extend(self.previous);
        previous.truncate(MAX_PREVIOUS);
        KeyFile {
            current: SigningKey::generate(&mut rand_core::OsRng),
            previous,
        }
    }

    /// Reads and checks a key file: its mode, type and size
    /// ([`secret_file::read`]) before its contents.
    ///
    /// # Errors
    ///
    /// One line naming the file and the field that is wrong.
    pub fn load(path: &Path) -> Result<Self, String> {
        let at = |problem: String| format!("{}: {problem}", path.display());
        let bytes = secret_file::read(path).map_err(|e| e.to_string())?;
        let doc = crate::jsonfile::parse(path, &bytes)?;
        let secret = doc["current"]["secretKey"]
            .as_str()
            .and_then(decode_base64)
            .and_then(|b| <[u8; 32]>::try_from(b).ok())
            .ok_or_else(|| at("current.secretKey is missing or not base64 of 32 bytes".into()))?;
        let current = SigningKey::from_bytes(&secret);
        check_labels(&doc["current"], &current.verifying_key(), "current").map_err(at)?;
        let mut previous = Vec::new();
        let listed = match &doc["previous"] {
            Value::Null => &[][..],
            Value::Array(items) => items.as_slice(),
            _ => return Err(at("previous is not a list".into())),
        };
        for (i, entry) in listed.iter().enumerate() {
            let field = format!("previous[{i}]");
            let key = entry["publicKey"]
                .as_str()
                .ok_or_else(|| format!("{field}.publicKey is missing"))
                .and_then(|t| parse_public_key(t).map_err(|p| format!("{field}.publicKey {p}")))
                .map_err(at)?;
            check_labels(entry, &key, &field).map_err(at)?;
            previous.push(key);
        }
        Ok(KeyFile { current, previous })
    }

    /// Writes the file atomically, readable by its owner only, as
    /// [`secret_file::write`] does.
    ///
    /// # Errors
    ///
    /// A target that is a symbolic link or in a folder others may write, or
    /// the I/O error, with the path.
    pub fn save(&self, path: &Path) -> Result<(), SecretFileError> {
        let current = key_entry(&self.current.verifying_key());
        let mut current = current.as_object().cloned().unwrap_or_default();
        current.insert(
            "secretKey".into(),
            encode_base64(self.current.as_bytes()).into(),
        );
        let doc = json!({
            "current": current,
            "previous": self.previous.iter().map(key_entry).collect::<Vec<_>>(),
        });
        secret_file::write(path, format!("{doc:#}\n").as_bytes())
    }

    /// The `GET /v0/verification-keys` document: current and previous keys.
    pub fn keys_document(&self) -> Value {
        let entry = |key: &VerifyingKey, status: &str| {
            let mut e = key_entry(key);
            e["algorithm"] = "Ed25519".into();
            e["status"] = status.into();
            e
        };
        let mut keys = vec![entry(&self.current.verifying_key(), "current")];
        keys.extend(self.previous.iter().map(|k| entry(k, "previous")));
        json!({ "keys": keys })
    }
}

fn key_entry(key: &VerifyingKey) -> Value {
    json!({ "keyId": KeyId::of(key).to_string(), "publicKey": encode_base64(key.as_bytes()) })
}

/// The optional `keyId` and `publicKey` labels must describe the key itself.
fn check_labels(entry: &Value, key: &VerifyingKey, field: &str) -> Result<(), String> {
    let expected = key_entry(key);
    for label in ["keyId", "publicKey"] {
        if let Some(listed) = entry.get(label) {
            if listed != &expected[label] {
                return Err(format!("{field}.{label} does not match the key"));
            }
        }
    }
    Ok(())
}
