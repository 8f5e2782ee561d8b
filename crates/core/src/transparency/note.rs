//! C2SP signed notes (`signed-note`), their Ed25519 verifier keys, the
//! log's checkpoint (`tlog-checkpoint`) and the witnesses' Ed25519
//! cosignatures (`tlog-cosignature`, `cosignature/v1`).

use ed25519_dalek::{Signer as _, SigningKey, VerifyingKey};
use sha2::{Digest, Sha256};

use super::merkle::Hash;
use crate::ed25519::{public_key_from_bytes, verify_strict};
use crate::encoding::{decode_base64, encode_base64};

/// The most bytes a signed note (a checkpoint and its signatures) may hold.
pub const MAX_NOTE_BYTES: usize = 8 * 1024;

/// The most signature lines a note may carry (the log's and its
/// witnesses'); a note with more is refused whole.
pub const MAX_NOTE_SIGNATURES: usize = 32;

/// The signature line's prefix: U+2014 and a space.
const DASH: &str = "\u{2014} ";

/// What a note key signs: a note (the log's checkpoint) or a checkpoint's
/// cosignature (a witness).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// An Ed25519 note signature (type 0x01): a log's key.
    Note,
    /// An Ed25519 `cosignature/v1` (type 0x04): a witness's key.
    Cosignature,
}

impl KeyKind {
    fn byte(self) -> u8 {
        match self {
            KeyKind::Note => 0x01,
            KeyKind::Cosignature => 0x04,
        }
    }
}

/// A named Ed25519 note key (a C2SP verifier key), as a log's or a
/// witness's consumers configure it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteKey {
    /// The key's name: a log's origin, a witness's name.
    pub name: String,
    /// What the key signs.
    pub kind: KeyKind,
    /// The Ed25519 key.
    pub key: VerifyingKey,
}

/// Whether `name` may name a note key: non-empty, at most 256 bytes, no
/// `+`, no whitespace and no control character.
fn is_key_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 256
        && !name
            .chars()
            .any(|c| c == '+' || c.is_whitespace() || c.is_control())
}

impl NoteKey {
    /// `key` under `name`, for `kind`; `None` when `name` cannot name a key.
    pub fn new(name: &str, kind: KeyKind, key: VerifyingKey) -> Option<Self> {
        is_key_name(name).then(|| NoteKey {
            name: name.to_owned(),
            kind,
            key,
        })
    }

    /// The key's 4-byte id: SHA-256(name || "\n" || type || key)[..4].
    pub fn id(&self) -> u32 {
        let mut hasher = Sha256::new();
        hasher.update(self.name.as_bytes());
        hasher.update([b'\n', self.kind.byte()]);
        hasher.update(self.key.as_bytes());
        let digest = hasher.finalize();
        u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]])
    }

    /// Reads a verifier key, `name+id+base64(type || key)` (the `id` 8
    /// lowercase hex digits); `None` when it is not an Ed25519 note or
    /// cosignature key whose id matches.
    pub fn parse(text: &str) -> Option<Self> {
        let mut parts = text.splitn(3, '+');
        let (name, id, key) = (parts.next()?, parts.next()?, parts.next()?);
        if id.len() != 8 || !id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return None;
        }
        let bytes = decode_base64(key).filter(|b| b.len() == 33)?;
        let kind = match bytes[0] {
            0x01 => KeyKind::Note,
            0x04 => KeyKind::Cosignature,
            _ => return None,
        };
        let key = public_key_from_bytes(bytes[1..].try_into().ok()?).ok()?;
        let read = NoteKey::new(name, kind, key)?;
        (u32::from_str_radix(id, 16).ok()? == read.id()).then_some(read)
    }

    /// The verifier key's text, as [`NoteKey::parse`] reads it.
    pub fn to_text(&self) -> String {
        let mut key = vec![self.kind.byte()];
        key.extend(self.key.as_bytes());
        let id = crate::writing::text!("{:08x}", self.id());
        [&self.name, "+", &id, "+", &encode_base64(&key)].concat()
    }
}

/// A signature line of a note: the key's name and id, and what follows
/// the id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteSignature {
    /// The signer's name.
    pub name: String,
    /// The signer's key id.
    pub id: u32,
    /// The signature (for a cosignature, its timestamp first).
    pub bytes: Vec<u8>,
}

/// A signed note read, its signatures not yet checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The signed text, its final newline included.
    pub text: String,
    /// Its signature lines, in order.
    pub signatures: Vec<NoteSignature>,
}

/// Reads one signature line (without its newline).
fn signature_line(line: &str) -> Option<NoteSignature> {
    let (name, base64) = line.strip_prefix(DASH)?.split_once(' ')?;
    let bytes = decode_base64(base64).filter(|b| b.len() > 4)?;
    is_key_name(name).then(|| NoteSignature {
        name: name.to_owned(),
        id: u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        bytes: bytes[4..].to_vec(),
    })
}

impl Note {
    /// Reads a signed note: text, a blank line, then one to
    /// [`MAX_NOTE_SIGNATURES`] signature lines, each line ending in a
    /// newline, no control character but newlines, within
    /// [`MAX_NOTE_BYTES`]; `None` when it is not one.
    pub fn parse(note: &str) -> Option<Self> {
        if note.len() > MAX_NOTE_BYTES || note.chars().any(|c| c.is_control() && c != '\n') {
            return None;
        }
        let split = note.rfind("\n\n")?;
        let (text, signatures) = (&note[..=split], &note[split + 2..]);
        let lines = signatures.strip_suffix('\n')?;
        let signatures = lines
            .split('\n')
            .map(signature_line)
            .collect::<Option<Vec<_>>>()?;
        if signatures.len() > MAX_NOTE_SIGNATURES {
            return None;
        }
        Some(Note {
            text: text.to_owned(),
            signatures,
        })
    }

    /// Whether `key`, a note key, signed the text.
    pub fn signed_by(&self, key: &NoteKey) -> bool {
        key.kind == KeyKind::Note
            && self
                .lines_of(key)
                .any(|signature| verify_strict(&key.key, self.text.as_bytes(), &signature.bytes))
    }

    /// The time (Unix seconds) of a valid cosignature by `key`, a witness's
    /// key, when the note carries one.
    pub fn cosigned_by(&self, key: &NoteKey) -> Option<u64> {
        if key.kind != KeyKind::Cosignature {
            return None;
        }
        self.lines_of(key).find_map(|signature| {
            let (time, signature) = signature.bytes.split_at_checked(8)?;
            let time = u64::from_be_bytes(time.try_into().ok()?);
            verify_strict(&key.key, &cosigned_message(&self.text, time), signature).then_some(time)
        })
    }

    fn lines_of<'a>(&'a self, key: &'a NoteKey) -> impl Iterator<Item = &'a NoteSignature> {
        let id = key.id();
        self.signatures
            .iter()
            .filter(move |s| s.name == key.name && s.id == id)
    }
}

/// The message a `cosignature/v1` signs: its header and time lines, then
/// the checkpoint's text.
fn cosigned_message(text: &str, time: u64) -> Vec<u8> {
    crate::writing::text!("cosignature/v1\ntime {}\n{}", time, text).into_bytes()
}

/// The signature line by which `key`, named `name`, signs `text` (a note
/// key's signature): `— name base64(id || signature)` and a newline.
pub fn sign_note(text: &str, name: &str, key: &SigningKey) -> Option<String> {
    let id = NoteKey::new(name, KeyKind::Note, key.verifying_key())?.id();
    let mut bytes = id.to_be_bytes().to_vec();
    bytes.extend(key.sign(text.as_bytes()).to_bytes());
    Some([DASH, name, " ", &encode_base64(&bytes), "\n"].concat())
}

/// The cosignature line by which the witness `name`, with `key`, cosigns
/// the checkpoint `text` at `time` (Unix seconds).
pub fn cosign(text: &str, name: &str, key: &SigningKey, time: u64) -> Option<String> {
    let id = NoteKey::new(name, KeyKind::Cosignature, key.verifying_key())?.id();
    let mut bytes = id.to_be_bytes().to_vec();
    bytes.extend(time.to_be_bytes());
    bytes.extend(key.sign(&cosigned_message(text, time)).to_bytes());
    Some([DASH, name, " ", &encode_base64(&bytes), "\n"].concat())
}

/// Reads a size or an index as C2SP writes one: ASCII decimal digits,
/// no sign, no leading zero (but for 0 itself), within 64 bits.
pub fn decimal(text: &str) -> Option<u64> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    (digits && (text == "0" || !text.starts_with('0')))
        .then(|| text.parse().ok())
        .flatten()
}

/// A checkpoint's text (`tlog-checkpoint`): the log's origin, its size
/// and root hash, and extension lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The log's origin line.
    pub origin: String,
    /// The tree's size.
    pub size: u64,
    /// The tree's root hash.
    pub root: Hash,
    /// Its extension lines, without their newlines.
    pub extensions: Vec<String>,
}

impl Checkpoint {
    /// Reads a checkpoint's text (a note's text, its final newline
    /// included); `None` when it is not one.
    pub fn parse(text: &str) -> Option<Self> {
        let mut lines = text.strip_suffix('\n')?.split('\n');
        let origin = lines.next().filter(|o| !o.is_empty())?;
        let size = decimal(lines.next()?)?;
        let root = decode_base64(lines.next()?)?.try_into().ok()?;
        let extensions = lines.map(str::to_owned).collect::<Vec<_>>();
        if extensions.iter().any(String::is_empty) {
            return None;
        }
        Some(Checkpoint {
            origin: origin.to_owned(),
            size,
            root,
            extensions,
        })
    }

    /// The checkpoint's text, as [`Checkpoint::parse`] reads it.
    pub fn to_text(&self) -> String {
        let mut text = crate::writing::text!(
            "{}\n{}\n{}\n",
            self.origin,
            self.size,
            encode_base64(&self.root)
        );
        for line in &self.extensions {
            text.push_str(line);
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Go's golang.org/x/mod/sumdb/note known answers (note_test.go).
    const PETER: &str = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
    const PETER_SECRET: &str = "AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
    const TEXT: &str = "If you think cryptography is the answer to your problem,\n\
                        then you don't know what your problem is.\n";
    const PETER_LINE: &str = "\u{2014} PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";
    const ENOCH: &str = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop";
    const ENOCH_LINE: &str = "\u{2014} EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n";

    #[test]
    fn go_sumdb_note_known_answers() {
        let peter = NoteKey::parse(PETER).unwrap();
        assert_eq!(peter.to_text(), PETER);
        assert_eq!(peter.id(), 0xc74f20a3);
        let seed = decode_base64(PETER_SECRET).unwrap();
        let secret = SigningKey::from_bytes(&seed[1..].try_into().unwrap());
        assert_eq!(secret.verifying_key(), peter.key);
        assert_eq!(
            sign_note(TEXT, "PeterNeumann", &secret).unwrap(),
            PETER_LINE
        );
        let enoch = NoteKey::parse(ENOCH).unwrap();
        let note = Note::parse(&[TEXT, "\n", PETER_LINE, ENOCH_LINE].concat()).unwrap();
        assert_eq!(note.text, TEXT);
        assert!(note.signed_by(&peter) && note.signed_by(&enoch));
        let tampered = PETER_LINE.replace("x08go", "x08gp");
        let note = Note::parse(&[TEXT, "\n", &tampered].concat()).unwrap();
        assert!(!note.signed_by(&peter));
        // Go's malformed notes.
        for bad in [
            TEXT.to_owned(),
            [TEXT, "\n"].concat(),
            [TEXT, "\n", PETER_LINE.trim_end()].concat(),
            ["\u{1}", TEXT, "\n", PETER_LINE].concat(),
            [TEXT, "\n", "\u{2014} Bad Name x08go/ZJkuBS9UG/SffcvIAQ=\n"].concat(),
            [TEXT, "\n", PETER_LINE, "Unexpected line.\n"].concat(),
            [TEXT, "\n", &PETER_LINE.repeat(MAX_NOTE_SIGNATURES + 1)].concat(),
        ] {
            assert!(Note::parse(&bad).is_none(), "{bad}");
        }
        // Every mangling of the key is refused.
        let b = PETER.as_bytes();
        for i in 0..b.len() {
            let mut m = b.to_vec();
            m[i] = m[i].wrapping_add(1);
            if let Ok(m) = std::str::from_utf8(&m) {
                assert!(NoteKey::parse(m).is_none(), "{m}");
            }
            assert!(NoteKey::parse(&PETER[..i]).is_none());
        }
    }

    #[test]
    fn a_cosignature_verifies_under_its_witness_only() {
        let witness = SigningKey::from_bytes(&[4; 32]);
        let key =
            NoteKey::new("w.example/1", KeyKind::Cosignature, witness.verifying_key()).unwrap();
        let log = SigningKey::from_bytes(&[5; 32]);
        let text = "log.example/1\n3\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n";
        let line = sign_note(text, "log.example/1", &log).unwrap();
        let cosigned = cosign(text, "w.example/1", &witness, 1_790_000_000).unwrap();
        let note = Note::parse(&[text, "\n", &line, &cosigned].concat()).unwrap();
        assert_eq!(note.cosigned_by(&key), Some(1_790_000_000));
        let log_key = NoteKey::new("log.example/1", KeyKind::Note, log.verifying_key()).unwrap();
        assert!(note.signed_by(&log_key));
        // The same key as a note key is another key id: no cosignature.
        let as_note = NoteKey::new("w.example/1", KeyKind::Note, witness.verifying_key()).unwrap();
        assert!(!note.signed_by(&as_note));
        assert_eq!(NoteKey::parse(&key.to_text()), Some(key));
        let checkpoint = Checkpoint::parse(text).unwrap();
        assert_eq!((checkpoint.size, checkpoint.to_text().as_str()), (3, text));
        for bad in [
            "log\n+3\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n",
            "log\n03\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n",
            "log\n3\nAAAA\n",
            "\n3\n",
        ] {
            assert!(Checkpoint::parse(bad).is_none(), "{bad}");
        }
    }
}
