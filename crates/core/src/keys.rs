//! Key identifiers and the consumer's configured trust: the public keys it
//! accepts signatures from, selected by keyId, never by position.

use ed25519_dalek::VerifyingKey;

use crate::ed25519::{parse_public_key, KeyError, KeyId};
use crate::json::{parse_strict, Value};
use crate::request::MAX_BODY_BYTES;
use crate::response::Response;
#[cfg(feature = "roots")]
use crate::root::PinnedRoot;
use crate::writing::{error_without_cause, uDisplay};

/// The items of a comma-separated list of keys (`"k1, k2"`, the form of an
/// HTML attribute and of an environment variable), each trimmed of ASCII
/// whitespace.
pub(crate) fn comma_separated(text: &str) -> impl Iterator<Item = &str> {
    // Byte by byte, for the wasm's size (no pattern searcher).
    let mut rest = Some(text);
    core::iter::from_fn(move || {
        let current = rest?;
        let end = current.bytes().position(|b| b == b',');
        rest = end.map(|end| &current[end + 1..]);
        Some(current[..end.unwrap_or(current.len())].trim_ascii())
    })
}

/// Why a key configuration is refused, by [`TrustedKeys::from_comma_list`]
/// and [`TrustedKeys::from_json`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeysError {
    /// A key is wrong: where it was given, and how.
    Key {
        /// Where the key was given.
        at: KeyAt,
        /// What is wrong with it.
        problem: KeyError,
    },
    /// No key at all (an empty list).
    NoKey,
    /// A list holds something other than strings.
    NotAllStrings,
    /// An object without a `keys` array.
    NoKeysArray,
    /// An `Ed25519` entry of a keys document (by index) has no `publicKey` string.
    NoPublicKey(usize),
    /// A keys document without any `Ed25519` entry.
    NoEd25519Key,
    /// Neither a string, a list of strings nor a keys document.
    NotAKeyConfiguration,
}

/// Where a key was given, for [`KeysError::Key`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyAt {
    /// The only key given.
    Only,
    /// Key number `n` (from 0) of a list of several.
    Listed(usize),
    /// The `publicKey` of entry `n` (from 0) of a keys document.
    Document(usize),
}

impl uDisplay for KeysError {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        match self {
            KeysError::Key { at, problem } => {
                match at {
                    KeyAt::Only => f.write_str("the public key ")?,
                    KeyAt::Listed(i) => ufmt::uwrite!(f, "public key #{} ", i + 1)?,
                    KeyAt::Document(i) => ufmt::uwrite!(f, "keys[{}].publicKey ", *i)?,
                }
                f.write_str(problem.as_str())
            }
            KeysError::NoPublicKey(i) => ufmt::uwrite!(f, "keys[{}].publicKey is missing", *i),
            KeysError::NoKey => f.write_str("no public key given"),
            KeysError::NotAllStrings => {
                f.write_str("every key in the list must be a base64 string")
            }
            KeysError::NoKeysArray => f.write_str("a keys document needs a \"keys\" array"),
            KeysError::NoEd25519Key => f.write_str("the keys document holds no Ed25519 key"),
            KeysError::NotAKeyConfiguration => {
                f.write_str("must be a base64 string, a list of them, or a keys document")
            }
        }
    }
}

// A key's problem completes the sentence that names the key (`the public key
// is not base64`): it is no cause of its own.
error_without_cause!(KeysError);

/// The public keys a consumer trusts, each under the keyId computed from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedKeys {
    keys: Vec<(KeyId, VerifyingKey)>,
    /// The pinned root keys, under which a verdict's certificate certifies
    /// the key that signed it.
    #[cfg(feature = "roots")]
    roots: Vec<PinnedRoot>,
    /// The transparency log whose proofs verdicts must carry, and the
    /// policy they are read under.
    #[cfg(feature = "transparency")]
    log: Option<crate::transparency::LogConfig>,
    /// The keys were sought from the service ([`TrustedKeys::published`]):
    /// even none found means signatures are checked, and read `unverifiable`.
    sought: bool,
}

impl TrustedKeys {
    /// No keys: signatures are `not_checked`.
    pub fn none() -> Self {
        TrustedKeys::default()
    }

    /// Whether no key is configured (signatures are then `not_checked`).
    /// Keys sought from the service count as configured, even when none
    /// could be had.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty() && self.roots().is_empty() && !self.sought
    }

    /// Without the feature `roots`, no root is ever pinned.
    #[cfg(not(feature = "roots"))]
    fn roots(&self) -> &[()] {
        &[]
    }

    /// The same keys, with `roots`' keys pinned as root keys besides: a
    /// verdict signed by none of the keys verifies under the key its
    /// certificate certifies, when that chains to one of them.
    #[cfg(feature = "roots")]
    pub fn with_roots(mut self, roots: &TrustedKeys) -> Self {
        for (_, key) in &roots.keys {
            if !self.roots.iter().any(|root| root.key() == key) {
                self.roots.push(PinnedRoot::new(*key));
            }
        }
        self
    }

    /// The same keys, reading the proofs verdicts carry under `log`
    /// (`None`: the policy `off`, proofs never read).
    #[cfg(feature = "transparency")]
    pub fn with_log(mut self, log: Option<crate::transparency::LogConfig>) -> Self {
        self.log = log;
        self
    }

    /// The transparency configuration, when the policy is not `off`.
    #[cfg(feature = "transparency")]
    pub fn log(&self) -> Option<&crate::transparency::LogConfig> {
        self.log.as_ref()
    }

    /// The pinned roots.
    #[cfg(feature = "roots")]
    pub fn roots(&self) -> &[PinnedRoot] {
        &self.roots
    }

    /// The keys a service published at [`KEYS_PATH`](crate::request::KEYS_PATH),
    /// from its answer: a keys document (status 200, at most
    /// [`MAX_BODY_BYTES`] of strict JSON) read as a configured one is. Any
    /// other answer, or none, trusts no key while still counting as
    /// configured, so that a verdict's signature reads `unverifiable`,
    /// never `valid` and never `not_checked`.
    ///
    /// Keys fetched from the service they check prove only what the
    /// transport proves (that the verdict is the one the service signed,
    /// unaltered by what stands between); configured keys prove who signed.
    pub fn published(answer: Response<'_>) -> Self {
        let document = match answer {
            Response::Http { status: 200, body } if body.len() <= MAX_BODY_BYTES => {
                parse_strict(body).ok()
            }
            _ => None,
        };
        let keys = document
            .filter(|document| matches!(document, Value::Object(_)))
            .and_then(|document| Self::from_json(&document).ok())
            .unwrap_or_default();
        TrustedKeys {
            sought: true,
            ..keys
        }
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
    pub fn from_comma_list(text: &str) -> Result<Self, KeysError> {
        let parts: Vec<&str> = comma_separated(text).collect();
        Self::from_strings(&parts)
    }

    fn from_strings(texts: &[&str]) -> Result<Self, KeysError> {
        let mut trusted = TrustedKeys::none();
        for (i, text) in texts.iter().enumerate() {
            let at = if texts.len() == 1 {
                KeyAt::Only
            } else {
                KeyAt::Listed(i)
            };
            let key = parse_public_key(text).map_err(|problem| KeysError::Key { at, problem })?;
            trusted.add(key);
        }
        if trusted.is_empty() {
            return Err(KeysError::NoKey);
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
    pub fn from_json(value: &Value) -> Result<Self, KeysError> {
        match value {
            Value::String(text) => Self::from_strings(&[text.as_str()]),
            Value::Array(items) => {
                let texts: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
                Self::from_strings(&texts.ok_or(KeysError::NotAllStrings)?)
            }
            Value::Object(doc) => {
                let entries = doc
                    .get("keys")
                    .and_then(Value::as_array)
                    .ok_or(KeysError::NoKeysArray)?;
                let mut trusted = TrustedKeys::none();
                for (i, entry) in entries.iter().enumerate() {
                    if entry.get("algorithm").and_then(Value::as_str) != Some("Ed25519") {
                        continue;
                    }
                    let text = entry
                        .get("publicKey")
                        .and_then(Value::as_str)
                        .ok_or(KeysError::NoPublicKey(i))?;
                    let key = parse_public_key(text).map_err(|problem| KeysError::Key {
                        at: KeyAt::Document(i),
                        problem,
                    })?;
                    trusted.add(key);
                }
                if trusted.is_empty() {
                    return Err(KeysError::NoEd25519Key);
                }
                Ok(trusted)
            }
            _ => Err(KeysError::NotAKeyConfiguration),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::encode_base64;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine as _;
    use ed25519_dalek::SigningKey;
    use serde_json::json;

    fn from_json(v: serde_json::Value) -> Result<TrustedKeys, KeysError> {
        TrustedKeys::from_json(&crate::json::from_serde(&v))
    }

    fn key(seed: u8) -> VerifyingKey {
        SigningKey::from_bytes(&[seed; 32]).verifying_key()
    }

    #[test]
    fn splits_a_comma_separated_list_trimmed() {
        let split = |text| comma_separated(text).collect::<Vec<_>>();
        assert_eq!(split(" a, b,,c "), ["a", "b", "", "c"]);
        assert_eq!(split(""), [""]);
        assert_eq!(split("k,"), ["k", ""]);
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
    fn published_keys_are_a_keys_document_or_none_while_still_configured() {
        let a = encode_base64(key(1).as_bytes());
        let document = serde_json::to_vec(&json!({"keys": [
            {"keyId": "0000000000000000", "algorithm": "Ed25519", "publicKey": a, "status": "current"}
        ]}))
        .unwrap();
        let ok = TrustedKeys::published(Response::Http {
            status: 200,
            body: &document,
        });
        assert!(ok.get(&KeyId::of(&key(1))).is_some());
        let bare = serde_json::to_vec(&json!(a)).unwrap();
        let big = vec![b' '; MAX_BODY_BYTES + 1];
        for answer in [
            Response::Http {
                status: 404,
                body: &document,
            },
            Response::Http {
                status: 200,
                body: b"{\"keys\": nonsense",
            },
            // A key alone is a configuration, not a published document.
            Response::Http {
                status: 200,
                body: &bare,
            },
            Response::Http {
                status: 200,
                body: &big,
            },
            Response::Failed(crate::FetchFailure::Timeout, None),
        ] {
            let none = TrustedKeys::published(answer);
            assert!(!none.is_empty(), "sought keys count as configured");
            assert!(none.get(&KeyId::of(&key(1))).is_none());
        }
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
        use KeyError::*;
        let only = |problem| KeysError::Key {
            at: KeyAt::Only,
            problem,
        };
        assert_eq!(from_json(json!("nope!")).err(), Some(only(NotBase64)));
        assert_eq!(
            from_json(json!(encode_base64(&[1u8; 31]))).err(),
            Some(only(Not32Bytes))
        );
        let a = encode_base64(key(1).as_bytes());
        let listed = TrustedKeys::from_comma_list(&format!("{a},xx")).unwrap_err();
        assert_eq!(
            listed,
            KeysError::Key {
                at: KeyAt::Listed(1),
                problem: NotBase64
            }
        );
        // The one-line messages, as the CLI and the badge's detail show them.
        assert_eq!(listed.to_string(), "public key #2 is not base64");
        assert_eq!(
            only(Not32Bytes).to_string(),
            "the public key is not 32 bytes (a raw Ed25519 public key)"
        );
        // The identity point has small order.
        let mut identity = [0u8; 32];
        identity[0] = 1;
        assert_eq!(parse_public_key(&encode_base64(&identity)), Err(SmallOrder));
        // 2 is not the y-coordinate of any point on the curve.
        let mut off_curve = [0u8; 32];
        off_curve[0] = 2;
        assert_eq!(parse_public_key(&encode_base64(&off_curve)), Err(NotAPoint));
        assert_eq!(
            from_json(json!(42)).err(),
            Some(KeysError::NotAKeyConfiguration)
        );
        assert_eq!(
            from_json(json!({"keys": []})).err(),
            Some(KeysError::NoEd25519Key)
        );
        assert_eq!(
            from_json(json!({"key": []})).err(),
            Some(KeysError::NoKeysArray)
        );
        assert_eq!(from_json(json!([1])).err(), Some(KeysError::NotAllStrings));
        assert_eq!(from_json(json!([])).err(), Some(KeysError::NoKey));
        let doc = json!({"keys": [{"algorithm": "Ed25519", "publicKey": a},
                                  {"algorithm": "Ed25519", "publicKey": "AAAA"},
                                  {"algorithm": "Ed25519"}]});
        assert_eq!(
            from_json(doc).err(),
            Some(KeysError::Key {
                at: KeyAt::Document(1),
                problem: Not32Bytes
            })
        );
        let doc =
            json!({"keys": [{"algorithm": "Ed25519", "publicKey": a}, {"algorithm": "Ed25519"}]});
        let missing = from_json(doc).unwrap_err();
        assert_eq!(missing, KeysError::NoPublicKey(1));
        assert_eq!(missing.to_string(), "keys[1].publicKey is missing");
    }
}
