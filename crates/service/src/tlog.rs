//! A transparency log of verdict statements on disk, in the tlog-tiles
//! layout (docs/protocol.md, Transparency log): the writer `serve` is to
//! keep. Entries are appended, then sequenced in a batch: the batch's
//! entry bundles and hash tiles are written first, the checkpoint last,
//! each file whole, synced and renamed into place, so that a crash at any
//! point leaves the last checkpoint and every file it names intact, and a
//! reopened log goes on from it. The folder is served as it is.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use x402_verdict_core::ed25519_dalek::SigningKey;
use x402_verdict_core::transparency::{
    entry_bundle, leaf_hash, new_tiles, read_entry_bundle, sign_note, Checkpoint, KeyKind,
    LogProof, Note, NoteKey, Tile, Tree, MAX_ENTRY_BYTES, TILE_WIDTH,
};

use crate::secret_file::{self, SecretFileError};

/// The folder's checkpoint file.
pub const CHECKPOINT: &str = "checkpoint";

/// Why a log cannot be opened or written.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The origin cannot name the log's key.
    #[error(
        "the log's origin must be 1 to 256 bytes, without '+', whitespace or control characters"
    )]
    Origin,
    /// A file cannot be read or written.
    #[error(transparent)]
    File(#[from] SecretFileError),
    /// The folder cannot be read or made.
    #[error("the log folder {}", .0.display())]
    Folder(PathBuf, #[source] std::io::Error),
    /// The checkpoint is not one of this log signed by its key.
    #[error("{}: not a checkpoint of {origin} signed by the log's key", .path.display())]
    NotThisLog {
        /// The checkpoint file.
        path: PathBuf,
        /// The log's origin.
        origin: String,
    },
    /// The entry bundles do not hash to the checkpoint's root.
    #[error("the log's entry bundles do not match its checkpoint (size {0})")]
    Mismatch(u64),
    /// What was to replace the checkpoint is not it, cosigned.
    #[error("the cosigned checkpoint is not the log's last checkpoint")]
    NotCosigned,
    /// An entry is longer than a bundle holds.
    #[error("a log entry is longer than {MAX_ENTRY_BYTES} bytes")]
    EntryTooLong,
}

/// A log on disk, opened for writing by its one writer.
pub struct Log {
    dir: PathBuf,
    key: NoteKey,
    signer: SigningKey,
    /// Shared with the proofs served from it: a batch makes a new one.
    tree: Arc<Tree>,
    /// The entries of the last bundle, which is partial (fewer than 256).
    tail: Vec<Vec<u8>>,
    /// Entries appended since the last checkpoint.
    pending: Vec<Vec<u8>>,
    checkpoint: String,
}

fn read(path: &Path) -> Result<Vec<u8>, LogError> {
    std::fs::read(path).map_err(|e| SecretFileError::Io(path.to_owned(), e).into())
}

impl Log {
    /// Opens the log in `dir` (made when missing), named `origin`, signed
    /// with `signer`: from its checkpoint, each entry bundle it names read
    /// back and checked against its root.
    ///
    /// # Errors
    ///
    /// The folder cannot be made or read, or its files are not this log's.
    pub fn open(dir: &Path, origin: &str, signer: SigningKey) -> Result<Self, LogError> {
        let key =
            NoteKey::new(origin, KeyKind::Note, signer.verifying_key()).ok_or(LogError::Origin)?;
        std::fs::create_dir_all(dir).map_err(|e| LogError::Folder(dir.to_owned(), e))?;
        let path = dir.join(CHECKPOINT);
        let mut log = Log {
            dir: dir.to_owned(),
            key,
            signer,
            tree: Arc::default(),
            tail: Vec::new(),
            pending: Vec::new(),
            checkpoint: String::new(),
        };
        if !path.exists() {
            log.checkpoint = log.sign(&log.tree, 0)?;
            secret_file::write_public(&path, log.checkpoint.as_bytes())?;
            return Ok(log);
        }
        let text = String::from_utf8(read(&path)?).unwrap_or_default();
        let checkpoint = Note::parse(&text)
            .filter(|note| note.signed_by(&log.key))
            .and_then(|note| Checkpoint::parse(&note.text))
            .filter(|c| c.origin == origin)
            .ok_or_else(|| LogError::NotThisLog {
                path,
                origin: origin.to_owned(),
            })?;
        let mut tree = Tree::new();
        for bundle in new_tiles(0, checkpoint.size)
            .into_iter()
            .filter(|t| t.level.is_none())
        {
            let bytes = read(&dir.join(bundle.path()))?;
            let entries = read_entry_bundle(&bytes)
                .filter(|e| e.len() as u64 == bundle.width)
                .ok_or(LogError::Mismatch(checkpoint.size))?;
            log.tail.clear();
            for entry in entries {
                tree.push(leaf_hash(entry));
                log.tail.push(entry.to_vec());
            }
            if bundle.is_full() {
                log.tail.clear();
            }
        }
        if tree.root(checkpoint.size) != Some(checkpoint.root) {
            return Err(LogError::Mismatch(checkpoint.size));
        }
        log.tree = Arc::new(tree);
        log.checkpoint = text;
        log.remove_unsealed(checkpoint.size)?;
        Ok(log)
    }

    /// Removes the tiles and bundles a crashed batch wrote past the
    /// checkpoint of `size`: no checkpoint names them, and the entries
    /// that take their places will be others. Only the tiles from each
    /// level's last one on are looked at.
    fn remove_unsealed(&self, size: u64) -> Result<(), LogError> {
        let levels = std::iter::once(None).chain((0..8).map(Some));
        for level in levels {
            let sealed = size >> (8 * u32::from(level.unwrap_or(0)));
            let mut index = sealed / TILE_WIDTH;
            loop {
                let full = Tile {
                    level,
                    index,
                    width: TILE_WIDTH,
                };
                let path = self.dir.join(full.path());
                let partials = self.dir.join([full.path(), ".p".into()].concat());
                let (has_full, has_partials) = (path.exists(), partials.is_dir());
                if !has_full && !has_partials {
                    break;
                }
                if has_full && !full.within(size) {
                    self.remove(&path)?;
                }
                if has_partials {
                    let widths = std::fs::read_dir(&partials)
                        .map_err(|e| LogError::Folder(partials.clone(), e))?;
                    for name in widths.filter_map(Result::ok).map(|e| e.file_name()) {
                        let width = name.to_str().and_then(|w| w.parse().ok());
                        let tile = Tile {
                            level,
                            index,
                            width: width.unwrap_or(0),
                        };
                        if width.is_some() && !tile.within(size) {
                            self.remove(&partials.join(name))?;
                        }
                    }
                }
                index += 1;
            }
        }
        Ok(())
    }

    fn remove(&self, path: &Path) -> Result<(), LogError> {
        tracing::info!(path = %path.display(), "removing a file no checkpoint names");
        std::fs::remove_file(path).map_err(|e| SecretFileError::Io(path.to_owned(), e).into())
    }

    /// The log's verifier key, which consumers and witnesses configure.
    pub fn verifier_key(&self) -> String {
        self.key.to_text()
    }

    /// The last checkpoint, as signed.
    pub fn checkpoint(&self) -> &str {
        &self.checkpoint
    }

    /// The last checkpoint with the log's signature alone: what witnesses
    /// are asked to cosign.
    pub fn log_signed(&self) -> &str {
        let signatures = self.checkpoint.rfind("\n\n").map_or(0, |at| at + 2);
        let end = self.checkpoint[signatures..]
            .find('\n')
            .map_or(self.checkpoint.len(), |at| signatures + at + 1);
        &self.checkpoint[..end]
    }

    /// The log's tree, as of its last checkpoint.
    pub fn tree(&self) -> &Arc<Tree> {
        &self.tree
    }

    /// Queues `entry` for the next checkpoint and returns its index.
    ///
    /// # Errors
    ///
    /// It is longer than a bundle holds.
    pub fn append(&mut self, entry: Vec<u8>) -> Result<u64, LogError> {
        if entry.len() > MAX_ENTRY_BYTES {
            return Err(LogError::EntryTooLong);
        }
        self.pending.push(entry);
        Ok(self.tree.size() + self.pending.len() as u64 - 1)
    }

    /// Sequences the entries queued: their bundles and tiles, then the new
    /// checkpoint, each written whole before the next. Nothing queued,
    /// nothing written.
    ///
    /// # Errors
    ///
    /// A file cannot be written: the entries stay queued, and the last
    /// checkpoint stands.
    pub fn sequence(&mut self) -> Result<(), LogError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let old = self.tree.size();
        let mut tree = Tree::clone(&self.tree);
        let mut tail = self.tail.clone();
        let mut bundles = Vec::new();
        for entry in &self.pending {
            tree.push(leaf_hash(entry));
            tail.push(entry.clone());
            if tail.len() as u64 == TILE_WIDTH {
                bundles.push(std::mem::take(&mut tail));
            }
        }
        let new = tree.size();
        let mut full = bundles.into_iter();
        for tile in new_tiles(old, new) {
            let bytes = match tile.level {
                None if tile.is_full() => {
                    entry_bundle(full.next().unwrap_or_default().iter().map(Vec::as_slice))
                }
                None => entry_bundle(tail.iter().map(Vec::as_slice)),
                Some(_) => tree.tile(&tile),
            };
            self.write_tile(&tile, &bytes.unwrap_or_default())?;
        }
        let checkpoint = self.sign(&tree, new)?;
        secret_file::write_public(&self.dir.join(CHECKPOINT), checkpoint.as_bytes())?;
        self.tree = Arc::new(tree);
        self.tail = tail;
        self.pending.clear();
        self.checkpoint = checkpoint;
        Ok(())
    }

    /// Replaces the last checkpoint with `cosigned`: the same checkpoint
    /// with its witnesses' cosignatures after the log's signature.
    ///
    /// # Errors
    ///
    /// `cosigned` is not the last checkpoint with lines after it (nothing
    /// is written), or the file cannot be written.
    pub fn record_cosigned(&mut self, cosigned: String) -> Result<(), LogError> {
        if !cosigned.starts_with(self.log_signed()) || Note::parse(&cosigned).is_none() {
            return Err(LogError::NotCosigned);
        }
        secret_file::write_public(&self.dir.join(CHECKPOINT), cosigned.as_bytes())?;
        self.checkpoint = cosigned;
        Ok(())
    }

    fn write_tile(&self, tile: &Tile, bytes: &[u8]) -> Result<(), LogError> {
        let path = self.dir.join(tile.path());
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(|e| LogError::Folder(folder.to_owned(), e))?;
        }
        Ok(secret_file::write_public(&path, bytes)?)
    }

    /// The checkpoint of `tree`'s first `size` leaves, signed.
    fn sign(&self, tree: &Tree, size: u64) -> Result<String, LogError> {
        let text = Checkpoint {
            origin: self.key.name.clone(),
            size,
            root: tree.root(size).ok_or(LogError::Mismatch(size))?,
            extensions: vec![],
        }
        .to_text();
        let signature = sign_note(&text, &self.key.name, &self.signer).ok_or(LogError::Origin)?;
        Ok([text, "\n".into(), signature].concat())
    }

    /// The proof of entry `index` under the last checkpoint, as a verdict
    /// carries it; `None` when the checkpoint does not hold it yet.
    pub fn proof(&self, index: u64, entry: &[u8]) -> Option<LogProof> {
        let size = self.tree.size();
        Some(LogProof {
            index,
            leaf: leaf_hash(entry),
            hashes: self.tree.inclusion_proof(index, size)?,
            checkpoint: self.checkpoint.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use x402_verdict_core::transparency::{verify_consistency, verify_inclusion};

    use super::*;

    const ORIGIN: &str = "verdicts.example/log";

    fn scratch() -> PathBuf {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("x402-tlog-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn key() -> SigningKey {
        SigningKey::from_bytes(&[21; 32])
    }

    fn entry(i: u64) -> Vec<u8> {
        format!("{{\"entry\":{i}}}").into_bytes()
    }

    fn checkpoint_of(log: &Log) -> Checkpoint {
        let note = Note::parse(log.checkpoint()).unwrap();
        assert!(note.signed_by(&NoteKey::parse(&log.verifier_key()).unwrap()));
        Checkpoint::parse(&note.text).unwrap()
    }

    fn append(log: &mut Log, entries: std::ops::Range<u64>) {
        let first = log.tree().size();
        for (index, i) in (first..).zip(entries) {
            assert_eq!(log.append(entry(i)).unwrap(), index);
        }
        log.sequence().unwrap();
    }

    #[test]
    fn batches_are_tiles_then_a_checkpoint_and_a_reopened_log_goes_on() {
        let dir = scratch();
        let mut log = Log::open(&dir, ORIGIN, key()).unwrap();
        assert_eq!(checkpoint_of(&log).size, 0);
        append(&mut log, 0..100);
        append(&mut log, 100..300);
        let at_300 = checkpoint_of(&log);
        assert_eq!(at_300.size, 300);
        for (path, bytes) in [
            ("tile/0/000", 8192),
            ("tile/0/001.p/44", 44 * 32),
            ("tile/1/000.p/1", 32),
            ("tile/entries/001.p/44", 44 * (2 + 13)),
        ] {
            assert_eq!(
                std::fs::read(dir.join(path)).unwrap().len(),
                bytes,
                "{path}"
            );
        }
        let proof = log.proof(123, &entry(123)).unwrap();
        assert!(verify_inclusion(
            123,
            300,
            &proof.leaf,
            &proof.hashes,
            &at_300.root
        ));
        assert!(log.proof(300, &entry(300)).is_none());
        drop(log);
        let mut log = Log::open(&dir, ORIGIN, key()).unwrap();
        assert_eq!(checkpoint_of(&log), at_300);
        append(&mut log, 300..520);
        let at_520 = checkpoint_of(&log);
        let proof = log.tree().consistency_proof(300, 520).unwrap();
        assert!(verify_consistency(
            300,
            520,
            &at_300.root,
            &at_520.root,
            &proof
        ));
        let reopened = Log::open(&dir, ORIGIN, key()).unwrap();
        assert_eq!(checkpoint_of(&reopened), at_520);
        // Under another key, or tampered with, it is not this log.
        let other = Log::open(&dir, ORIGIN, SigningKey::from_bytes(&[22; 32]));
        assert!(matches!(other, Err(LogError::NotThisLog { .. })));
        let bundle = dir.join("tile/entries/000");
        let mut bytes = std::fs::read(&bundle).unwrap();
        bytes[5] ^= 1;
        std::fs::write(&bundle, bytes).unwrap();
        assert!(matches!(
            Log::open(&dir, ORIGIN, key()),
            Err(LogError::Mismatch(520))
        ));
    }

    #[test]
    fn a_crash_before_the_checkpoint_leaves_the_last_one_standing() {
        let dir = scratch();
        let mut log = Log::open(&dir, ORIGIN, key()).unwrap();
        append(&mut log, 0..250);
        let before = std::fs::read(dir.join(CHECKPOINT)).unwrap();
        append(&mut log, 250..400);
        // The batch's tiles were written, its checkpoint never was.
        std::fs::write(dir.join(CHECKPOINT), &before).unwrap();
        assert!(dir.join("tile/entries/001.p/144").exists());
        let mut log = Log::open(&dir, ORIGIN, key()).unwrap();
        assert_eq!(checkpoint_of(&log).size, 250);
        // What the lost batch wrote is gone, what the checkpoint names kept.
        for gone in [
            "tile/entries/000",
            "tile/0/000",
            "tile/entries/001.p/144",
            "tile/0/001.p/144",
            "tile/1/000.p/1",
        ] {
            assert!(!dir.join(gone).exists(), "{gone}");
        }
        assert!(dir.join("tile/entries/000.p/250").exists());
        assert!(dir.join("tile/0/000.p/250").exists());
        // Other entries take the lost ones' places, and the log verifies.
        append(&mut log, 1000..1200);
        assert_eq!(checkpoint_of(&log).size, 450);
        let reopened = Log::open(&dir, ORIGIN, key()).unwrap();
        assert_eq!(checkpoint_of(&reopened), checkpoint_of(&log));
        let proof = reopened.proof(300, &entry(1050)).unwrap();
        let root = checkpoint_of(&reopened).root;
        assert!(verify_inclusion(
            300,
            450,
            &proof.leaf,
            &proof.hashes,
            &root
        ));
    }
}
