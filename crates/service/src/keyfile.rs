//! The service's key file: the current signing key and the retired public
//! keys a rotation keeps published.
//!
//! ```json
//! { "current":  { "keyId": "…", "publicKey": "…", "secretKey": "<base64 32-byte seed>" },
//!   "previous": [ { "keyId": "…", "publicKey": "…" } ],
//!   "certificate": "<base64 key certificate>",
//!   "roots": [ "<base64 root version 1>", … ] }
//! ```
//!
//! `certificate` (the root's certificate of the current key) and `roots`
//! (every root version, from 1) are written by `certify`; a rotation drops
//! the certificate, which named the retired key.

use std::fmt;
use std::path::Path;

use serde_json::{json, Value};
use x402_verdict_core::ed25519_dalek::{SigningKey, VerifyingKey};
use x402_verdict_core::{
    decode_base64, encode_base64, parse_public_key, root_version_of, Certificate, KeyError, KeyId,
};

use super::secret_file::{self, SecretFileError};
use crate::jsonfile::{self, InvalidFile, JsonFileError};

/// Why a file holding a secret key (a key file, a root key file) cannot
/// be used: the file, then what is wrong with it (`R`, its rules).
#[derive(Debug, thiserror::Error)]
pub enum SecretJsonError<R: std::error::Error + 'static> {
    /// It is not a private regular file of at most 64 KiB, or cannot be read.
    #[error(transparent)]
    Secret(#[from] SecretFileError),
    /// It is not strict JSON.
    #[error(transparent)]
    File(#[from] JsonFileError),
    /// A member breaks a rule.
    #[error(transparent)]
    Invalid(#[from] InvalidFile<R>),
}

/// Why a key file cannot be used.
pub type KeyFileError = SecretJsonError<KeyFileRule>;

/// Reads the secret JSON file at `path`: its mode, type and size
/// ([`secret_file::read`]) before its contents, which `read` takes.
///
/// # Errors
///
/// One line naming the file and what is wrong with it.
pub fn load_secret_json<T, R: std::error::Error + 'static>(
    path: &Path,
    read: impl FnOnce(&Value) -> Result<T, R>,
) -> Result<T, SecretJsonError<R>> {
    let bytes = secret_file::read(path)?;
    let doc = jsonfile::parse(path, &bytes)?;
    read(&doc).map_err(|rule| {
        InvalidFile {
            path: path.to_owned(),
            rule,
        }
        .into()
    })
}

/// The signing key whose 32-byte seed `value` holds in base64.
pub fn secret_key(value: &Value) -> Option<SigningKey> {
    let seed = value.as_str().and_then(decode_base64)?;
    Some(SigningKey::from_bytes(&seed.try_into().ok()?))
}

/// A rule a key file's contents can break, for [`KeyFileError::Invalid`].
#[derive(Debug, thiserror::Error)]
pub enum KeyFileRule {
    /// `current.secretKey` is not base64 of a 32-byte seed.
    #[error("current.secretKey is missing or not base64 of 32 bytes")]
    SecretKey,
    /// `previous` is there and not a list.
    #[error("previous is not a list")]
    PreviousNotAList,
    /// `previous[i].publicKey` is absent.
    #[error("previous[{0}].publicKey is missing")]
    PublicKeyMissing(usize),
    /// `previous[i].publicKey` is not a key.
    #[error("previous[{index}].publicKey {problem}")]
    PublicKey {
        /// Its place in `previous`.
        index: usize,
        /// What is wrong with it (completing this level's sentence).
        problem: KeyError,
    },
    /// `certificate` is no certificate of the current key.
    #[error("certificate is not the current key's (run: x402-verdict certify)")]
    CertificateKey,
    /// `roots` is there and not a list of root versions.
    #[error("roots is not a list of root versions")]
    Roots,
    /// A `keyId` or `publicKey` label describes another key.
    #[error("{entry}.{label} does not match the key")]
    Label {
        /// The entry holding it.
        entry: KeyEntry,
        /// `keyId` or `publicKey`.
        label: &'static str,
    },
}

/// An entry of a key file, for [`KeyFileRule::Label`].
#[derive(Clone, Copy, Debug)]
pub enum KeyEntry {
    /// `current`.
    Current,
    /// `previous[i]`.
    Previous(usize),
}

impl fmt::Display for KeyEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyEntry::Current => f.write_str("current"),
            KeyEntry::Previous(i) => write!(f, "previous[{i}]"),
        }
    }
}

/// How many retired keys a rotation keeps.
const MAX_PREVIOUS: usize = 4;

/// The current signing key and the previous public keys.
pub struct KeyFile {
    /// Signs new verdicts.
    pub current: SigningKey,
    /// Retired by rotations, newest first; still published.
    pub previous: Vec<VerifyingKey>,
    /// The root's certificate of the current key (base64), when certified.
    pub certificate: Option<String>,
    /// Every root version (base64), from 1, as `certify` last wrote them.
    pub roots: Vec<String>,
}

impl KeyFile {
    /// A fresh key from the operating system's random source.
    pub fn generate() -> Self {
        KeyFile {
            current: SigningKey::generate(&mut rand_core::OsRng),
            previous: Vec::new(),
            certificate: None,
            roots: Vec::new(),
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
            certificate: None,
            roots: self.roots,
        }
    }

    /// Reads and checks a key file: its mode, type and size
    /// ([`secret_file::read`]) before its contents.
    ///
    /// # Errors
    ///
    /// One line naming the file and the field that is wrong.
    pub fn load(path: &Path) -> Result<Self, KeyFileError> {
        load_secret_json(path, Self::from_json)
    }

    fn from_json(doc: &Value) -> Result<Self, KeyFileRule> {
        let current = secret_key(&doc["current"]["secretKey"]).ok_or(KeyFileRule::SecretKey)?;
        check_labels(&doc["current"], &current.verifying_key(), KeyEntry::Current)?;
        let mut previous = Vec::new();
        let listed = match &doc["previous"] {
            Value::Null => &[][..],
            Value::Array(items) => items.as_slice(),
            _ => return Err(KeyFileRule::PreviousNotAList),
        };
        for (index, entry) in listed.iter().enumerate() {
            let text = entry["publicKey"]
                .as_str()
                .ok_or(KeyFileRule::PublicKeyMissing(index))?;
            let key = parse_public_key(text)
                .map_err(|problem| KeyFileRule::PublicKey { index, problem })?;
            check_labels(entry, &key, KeyEntry::Previous(index))?;
            previous.push(key);
        }
        let certificate = match &doc["certificate"] {
            Value::Null => None,
            Value::String(text) => Certificate::parse(text)
                .filter(|c| c.key == current.verifying_key())
                .map(|_| text.clone()),
            _ => None,
        };
        if certificate.is_none() && !doc["certificate"].is_null() {
            return Err(KeyFileRule::CertificateKey);
        }
        let roots = match &doc["roots"] {
            Value::Null => Vec::new(),
            Value::Array(items) => items
                .iter()
                .map(|root| root.as_str().filter(|t| root_version_of(t).is_some()))
                .map(|text| text.map(String::from))
                .collect::<Option<_>>()
                .ok_or(KeyFileRule::Roots)?,
            _ => return Err(KeyFileRule::Roots),
        };
        Ok(KeyFile {
            current,
            previous,
            certificate,
            roots,
        })
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
        let mut doc = json!({
            "current": current,
            "previous": self.previous.iter().map(key_entry).collect::<Vec<_>>(),
        });
        if let Some(certificate) = &self.certificate {
            doc["certificate"] = certificate.as_str().into();
        }
        if !self.roots.is_empty() {
            doc["roots"] = self.roots.clone().into();
        }
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
        let mut current = entry(&self.current.verifying_key(), "current");
        if let Some(certificate) = &self.certificate {
            current["certificate"] = certificate.as_str().into();
        }
        let mut keys = vec![current];
        keys.extend(self.previous.iter().map(|k| entry(k, "previous")));
        json!({ "keys": keys })
    }
}

fn key_entry(key: &VerifyingKey) -> Value {
    json!({ "keyId": KeyId::of(key).to_string(), "publicKey": encode_base64(key.as_bytes()) })
}

/// The optional `keyId` and `publicKey` labels must describe the key itself.
fn check_labels(entry: &Value, key: &VerifyingKey, at: KeyEntry) -> Result<(), KeyFileRule> {
    let expected = key_entry(key);
    for label in ["keyId", "publicKey"] {
        if let Some(listed) = entry.get(label) {
            if listed != &expected[label] {
                return Err(KeyFileRule::Label { entry: at, label });
            }
        }
    }
    Ok(())
}
