//! One Ed25519 public key: its keyId, how it is read from base64
//! (refusing weak keys), and strict verification under it. A leaf: every
//! module that names a key (the keys trusted, the verdict, the signed
//! message, key certificates) reads it here.

use ed25519_dalek::{Signature, VerifyingKey};
use sha2::{Digest, Sha256};

use crate::encoding::{decode_base64, push_hex};
use crate::writing::{display_from_words, error_without_cause, uDisplay, words_from_str};

/// A key identifier: the first 8 bytes of SHA-256 of the raw 32-byte public
/// key, written as 16 lowercase hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyId([u8; 8]);

/// What [`KeyId::parse`] reads, as a JSON Schema `pattern`.
pub(crate) const KEY_ID_PATTERN: &str = "^[0-9a-f]{16}$";

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

impl uDisplay for KeyId {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        let mut hex = String::with_capacity(16);
        for byte in self.0 {
            push_hex(&mut hex, byte, false);
        }
        f.write_str(&hex)
    }
}

/// Parses one raw 32-byte Ed25519 public key from base64, refusing keys that
/// are not valid points or are of small order.
///
/// # Errors
///
/// The first rule the key breaks.
pub fn parse_public_key(text: &str) -> Result<VerifyingKey, KeyError> {
    let bytes = decode_base64(text.trim_ascii()).ok_or(KeyError::NotBase64)?;
    public_key_from_bytes(bytes.try_into().map_err(|_| KeyError::Not32Bytes)?)
}

/// One raw 32-byte Ed25519 public key, refused as [`parse_public_key`]
/// refuses it.
pub(crate) fn public_key_from_bytes(bytes: [u8; 32]) -> Result<VerifyingKey, KeyError> {
    let key = VerifyingKey::from_bytes(&bytes).map_err(|_| KeyError::NotAPoint)?;
    if key.is_weak() {
        return Err(KeyError::SmallOrder);
    }
    Ok(key)
}

/// What is wrong with one public key, by [`parse_public_key`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyError {
    /// It is neither standard base64 nor base64url.
    NotBase64,
    /// It decodes to other than 32 bytes.
    Not32Bytes,
    /// The 32 bytes are not the encoding of a curve point.
    NotAPoint,
    /// The point has small order (a weak key that would verify forgeries).
    SmallOrder,
}

impl KeyError {
    /// The problem, as a predicate (`is not base64`): callers name the key.
    pub fn as_str(self) -> &'static str {
        match self {
            KeyError::NotBase64 => "is not base64",
            KeyError::Not32Bytes => "is not 32 bytes (a raw Ed25519 public key)",
            KeyError::NotAPoint => "is not an Ed25519 public key",
            KeyError::SmallOrder => "is a small-order (weak) key",
        }
    }
}

words_from_str!(KeyError);
display_from_words!(KeyId);
// A key's problem completes the sentence that names the key (`the public key
// is not base64`): it is no cause of its own.
error_without_cause!(KeyError);

/// Strict Ed25519 (RFC 8032 with canonical encodings, no small-order keys or
/// points): whether `signature` (which must be 64 bytes) signs `message` under `key`.
pub fn verify_strict(key: &VerifyingKey, message: &[u8], signature: &[u8]) -> bool {
    Signature::from_slice(signature).is_ok_and(|sig| key.verify_strict(message, &sig).is_ok())
}
