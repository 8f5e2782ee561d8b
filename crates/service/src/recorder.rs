//! `serve --log`: the service's transparency log at work
//! (docs/service.md, Running a transparency log). Each verdict statement
//! the service is about to serve is recorded once: a statement the log
//! already holds is served with its proof at once; a new one (attested,
//! re-checked, revoked, lapsed) is queued, sequenced in the next batch,
//! cosigned by the witnesses, and the verdict waits for it (at most
//! [`WAIT`]). Lookups of a statement recorded append nothing.
//!
//! One task, the sequencer, owns the [`Log`]: it takes the queue in
//! batches of at most [`BATCH_WINDOW`], writes each batch's tiles and
//! checkpoint, asks the witnesses, and publishes the cosigned checkpoint.
//! Requests read the checkpoint published, and each statement's proof is
//! made once per checkpoint and kept.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use x402_verdict_core::transparency::{leaf_hash, Hash, LogProof, Tree, MAX_ENTRY_BYTES};
use x402_verdict_core::{BaseUrl, KeyId};

use crate::cosigning::Witnesses;
use crate::keyfile::{KeyFile, KeyFileError};
use crate::tlog::{Log, LogError};

/// How long the sequencer gathers entries into one batch after the first.
pub const BATCH_WINDOW: Duration = Duration::from_millis(250);

/// How long a verdict whose statement is new waits for its proof: its
/// batch, the checkpoint's writing and the witnesses' answers. Past it,
/// the verdict is served without a proof (a consumer under `required`
/// reads it unknown) and the statement stays queued.
pub const WAIT: Duration = Duration::from_secs(10);

/// The most statements queued and not yet sequenced: past it, a new
/// statement is served without a proof until the queue drains (a flood of
/// URLs asked under a `prefix` attestation cannot grow memory without end).
pub const MAX_QUEUED: u64 = 100_000;

/// The most requests whose statement is kept; past it, the requests
/// kept are forgotten (and their statements made again when asked).
const MAX_REQUESTS_KEPT: usize = 100_000;

/// What `serve --log` keeps its log with.
#[derive(Debug)]
pub struct LogConfig {
    /// The log's folder: its checkpoint and tiles, served under `/v0/log/`
    /// and exported as they are.
    pub dir: PathBuf,
    /// The log's key file (written by `keygen`): its current key signs
    /// the checkpoints.
    pub keys: PathBuf,
    /// The log's origin, its key's name; `x402-verdict/<keyId>` when not
    /// given.
    pub origin: Option<String>,
    /// The witnesses asked to cosign each checkpoint (tlog-witness URL
    /// prefixes: `add-checkpoint` is posted below each).
    pub witnesses: Vec<BaseUrl>,
}

/// Why the log cannot be kept.
#[derive(Debug, thiserror::Error)]
pub enum RecorderError {
    /// The log's key file.
    #[error("--log-keys")]
    Keys(#[source] KeyFileError),
    /// The log's folder.
    #[error("--log {}", .dir.display())]
    Log {
        /// The folder.
        dir: PathBuf,
        /// What is wrong with it.
        #[source]
        source: LogError,
    },
    /// The HTTP client for the witnesses cannot start.
    #[error(transparent)]
    Client(#[from] x402_verdict_consumer::HttpClientError),
}

/// A checkpoint published: what every proof served is made under.
pub(crate) struct Published {
    /// The tree's size.
    pub(crate) size: u64,
    /// The checkpoint, its log signature and cosignatures.
    pub(crate) checkpoint: Arc<str>,
    tree: Arc<Tree>,
    /// The proofs made under it, by entry index, each as a JSON string.
    proofs: Mutex<HashMap<u64, Arc<str>>>,
}

impl Published {
    fn of(log: &Log) -> Self {
        Published {
            size: log.tree().size(),
            checkpoint: log.checkpoint().into(),
            tree: log.tree().clone(),
            proofs: Mutex::default(),
        }
    }

    /// The proof of `leaf` at `index` (below [`Published::size`]), as the
    /// JSON string a document carries: made once, then kept.
    fn proof(&self, index: u64, leaf: Hash) -> Arc<str> {
        let mut proofs = self.proofs.lock().unwrap_or_else(PoisonError::into_inner);
        proofs
            .entry(index)
            .or_insert_with(|| {
                let proof = LogProof {
                    index,
                    leaf,
                    hashes: self
                        .tree
                        .inclusion_proof(index, self.size)
                        .unwrap_or_default(),
                    checkpoint: self.checkpoint.to_string(),
                };
                serde_json::to_string(&proof.to_text())
                    .unwrap_or_default()
                    .into()
            })
            .clone()
    }
}

/// The statements recorded, sequenced or queued.
struct Queue {
    /// Every entry's index, by its leaf hash.
    known: HashMap<Hash, u64>,
    /// The leaf and index of the statement each request asked for, by
    /// the request's words: a verdict asked again is served with no
    /// statement made and hashed.
    requests: HashMap<String, (Hash, u64)>,
    /// The index the next entry queued takes.
    next: u64,
    sender: mpsc::UnboundedSender<Vec<u8>>,
}

/// The requests' side of the log: statements recorded, proofs served.
pub(crate) struct Recorder {
    queue: Mutex<Queue>,
    published: watch::Receiver<Arc<Published>>,
    /// The log's folder, whose files `/v0/log/` serves.
    pub(crate) dir: PathBuf,
    /// The log's verifier key.
    pub(crate) verifier_key: String,
}

/// The sequencer's side, which [`Sequencer::spawn`] starts.
pub(crate) struct Sequencer {
    /// Locked by the sequencer alone: held across its blocking writes.
    log: Arc<Mutex<Log>>,
    entries: mpsc::UnboundedReceiver<Vec<u8>>,
    published: watch::Sender<Arc<Published>>,
    witnesses: Witnesses,
}

/// Opens the log `config` names: its key read, its files checked, every
/// entry it holds indexed.
///
/// # Errors
///
/// The key file or the folder cannot be used.
pub(crate) fn open(config: LogConfig) -> Result<(Recorder, Sequencer), RecorderError> {
    let key = KeyFile::load(&config.keys)
        .map_err(RecorderError::Keys)?
        .current;
    let origin = config
        .origin
        .unwrap_or_else(|| format!("x402-verdict/{}", KeyId::of(&key.verifying_key())));
    let log = Log::open(&config.dir, &origin, key).map_err(|source| RecorderError::Log {
        dir: config.dir.clone(),
        source,
    })?;
    let known = (0..)
        .zip(log.tree().leaves())
        .map(|(index, leaf)| (*leaf, index))
        .collect();
    let (sender, entries) = mpsc::unbounded_channel();
    let (published, receiver) = watch::channel(Arc::new(Published::of(&log)));
    let recorder = Recorder {
        queue: Mutex::new(Queue {
            known,
            requests: HashMap::new(),
            next: log.tree().size(),
            sender,
        }),
        published: receiver,
        dir: config.dir,
        verifier_key: log.verifier_key(),
    };
    let witnesses = Witnesses::new(config.witnesses)?;
    Ok((
        recorder,
        Sequencer {
            log: Arc::new(Mutex::new(log)),
            entries,
            published,
            witnesses,
        },
    ))
}

impl Recorder {
    /// The checkpoint published.
    pub(crate) fn published(&self) -> Arc<Published> {
        self.published.borrow().clone()
    }

    /// The proof, as a JSON string, of the statement of the verdict that
    /// `request` asks (the request's words and the members that decide
    /// the statement), `entry` making that statement when this request is
    /// new: at once when the log holds it; else it is queued (once) and the
    /// proof comes with its batch's checkpoint. `None` when it does not
    /// come within [`WAIT`], the queue is full, or the entry is too long.
    pub(crate) async fn proof(
        &self,
        request: String,
        entry: impl FnOnce() -> Option<String>,
    ) -> Option<Arc<str>> {
        let (leaf, index) = self.index_of(request, entry)?;
        let published = self.published();
        if index < published.size {
            return Some(published.proof(index, leaf));
        }
        let mut changes = self.published.clone();
        let waited = tokio::time::timeout(WAIT, async {
            loop {
                let published = changes.borrow_and_update().clone();
                if index < published.size {
                    return Some(published);
                }
                changes.changed().await.ok()?;
            }
        })
        .await;
        match waited {
            Ok(Some(published)) => Some(published.proof(index, leaf)),
            _ => {
                tracing::warn!(
                    index,
                    "a verdict served without its proof: its batch is late"
                );
                None
            }
        }
    }
}

impl Recorder {
    /// The leaf and index of the statement `request` asks for: kept from
    /// an earlier request, or its entry made, found in the log or queued.
    fn index_of(
        &self,
        request: String,
        entry: impl FnOnce() -> Option<String>,
    ) -> Option<(Hash, u64)> {
        let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = queue.requests.get(&request) {
            return Some(*found);
        }
        let entry = entry()?;
        let leaf = leaf_hash(entry.as_bytes());
        let index = match queue.known.get(&leaf) {
            Some(index) => *index,
            None => {
                let sequenced = self.published.borrow().size;
                if queue.next - sequenced >= MAX_QUEUED || entry.len() > MAX_ENTRY_BYTES {
                    return None;
                }
                let index = queue.next;
                queue.sender.send(entry.into_bytes()).ok()?;
                queue.next += 1;
                queue.known.insert(leaf, index);
                index
            }
        };
        if queue.requests.len() >= MAX_REQUESTS_KEPT {
            queue.requests.clear();
        }
        queue.requests.insert(request, (leaf, index));
        Some((leaf, index))
    }
}

impl Sequencer {
    /// Starts sequencing: first the witnesses asked for the checkpoint as
    /// the log was opened with, then one batch after another.
    pub(crate) fn spawn(self) -> tokio::task::JoinHandle<()> {
        tokio::spawn(self.run())
    }

    async fn run(mut self) {
        self.cosign_and_publish().await;
        while let Some(first) = self.entries.recv().await {
            tokio::time::sleep(BATCH_WINDOW).await;
            let mut batch = vec![first];
            while let Ok(entry) = self.entries.try_recv() {
                batch.push(entry);
            }
            self.sequence(batch).await;
            self.cosign_and_publish().await;
        }
    }

    /// Runs `work` on the log in a blocking task.
    async fn with_log<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Log) -> T + Send + 'static,
    ) -> T {
        let log = self.log.clone();
        tokio::task::spawn_blocking(move || {
            work(&mut log.lock().unwrap_or_else(PoisonError::into_inner))
        })
        .await
        .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
    }

    /// Appends `batch` and writes it, retrying each second until the disk
    /// takes it: the entries' indexes are already promised.
    async fn sequence(&mut self, batch: Vec<Vec<u8>>) {
        self.with_log(move |log| {
            for entry in batch {
                // Entries are bounded when queued: never too long here.
                if let Err(e) = log.append(entry) {
                    tracing::error!(error = %e, "a log entry refused");
                }
            }
        })
        .await;
        loop {
            match self.with_log(Log::sequence).await {
                Ok(()) => return,
                Err(e) => {
                    tracing::error!(error = %e, "the log's batch cannot be written; retrying");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }

    /// Asks the witnesses to cosign the last checkpoint, records their
    /// cosignatures with it, and publishes it.
    async fn cosign_and_publish(&mut self) {
        let (signed, tree) = {
            let log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
            (log.log_signed().to_owned(), log.tree().clone())
        };
        let lines = self.witnesses.cosign(&tree, &signed).await;
        let published = self
            .with_log(move |log| {
                if !lines.is_empty() {
                    if let Err(e) = log.record_cosigned(signed + &lines) {
                        tracing::error!(error = %e, "the cosigned checkpoint cannot be written");
                    }
                }
                Published::of(log)
            })
            .await;
        self.published.send_replace(Arc::new(published));
    }
}
