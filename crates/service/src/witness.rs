//! `x402-verdict witness`: a transparency log witness (C2SP tlog-witness,
//! `add-checkpoint`) for one log: it cosigns a checkpoint only when it is
//! consistent with the last one it cosigned, refuses a split view and
//! keeps the evidence, and never forgets a size it cosigned.
//!
//! Its state folder holds `checkpoint` (the last checkpoint cosigned, as
//! the log signed it) and `evidence/` (each refused checkpoint the log
//! signed: the request as received, with the refusal first). Every file is
//! written whole, synced and renamed into place before the answer leaves.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use tokio::sync::Mutex;
use x402_verdict_core::ed25519_dalek::SigningKey;
use x402_verdict_core::transparency::{
    cosign, decimal, hash_lines, verify_consistency, Checkpoint, Hash, KeyKind, Note, NoteKey,
    MAX_NOTE_BYTES, MAX_PROOF_HASHES,
};
use x402_verdict_core::KeyId;
use x402_verdict_http::connections::{self, BodyError, ConnectionLimits, Limits};

use crate::keyfile::{KeyFile, KeyFileError};
use crate::secret_file::{self, SecretFileError};

/// The longest `add-checkpoint` body: its old size, 63 hashes and a note.
pub const MAX_REQUEST_BYTES: u64 = 64 + 45 * MAX_PROOF_HASHES as u64 + MAX_NOTE_BYTES as u64;

/// The state folder's file holding the last checkpoint cosigned.
const CHECKPOINT_FILE: &str = "checkpoint";

/// The media type of a 409's body, the size the witness last cosigned.
const SIZE_MEDIA_TYPE: &str = "text/x.tlog.size";

/// What `witness` runs with.
#[derive(Debug)]
pub struct WitnessConfig {
    /// The address to listen on.
    pub listen: SocketAddr,
    /// The witness's key file (written by `keygen`): its current key cosigns.
    pub keys: PathBuf,
    /// The witness's name; `witness/<keyId>` when not given.
    pub name: Option<String>,
    /// The log's verifier key (`<origin>+<keyId>+<base64>`, type 0x01).
    pub log_key: String,
    /// The state folder.
    pub state: PathBuf,
    /// The connections' limits.
    pub connections: ConnectionLimits,
}

/// Why the witness cannot start, or keep its state.
#[derive(Debug, thiserror::Error)]
pub enum WitnessError {
    /// The key file cannot be used.
    #[error(transparent)]
    Keys(#[from] KeyFileError),
    /// `--log-key` is not a log's verifier key.
    #[error("--log-key is not a log's Ed25519 verifier key (<origin>+<8 hex digits>+<base64 of 0x01 and 32 bytes>)")]
    LogKey,
    /// `--name` cannot name a note key.
    #[error("--name must be 1 to 256 bytes, without '+', whitespace or control characters")]
    Name,
    /// The state folder cannot be made or read.
    #[error("the state folder {}", .0.display())]
    Folder(PathBuf, #[source] std::io::Error),
    /// The state file cannot be read or written.
    #[error(transparent)]
    State(#[from] SecretFileError),
    /// The state file holds no checkpoint of this log.
    #[error("{}: not a checkpoint signed by the log's key", .0.display())]
    NotThisLog(PathBuf),
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

/// One witness of one log: its key, and the last checkpoint it cosigned.
pub struct Witness {
    log: NoteKey,
    name: String,
    key: SigningKey,
    state: PathBuf,
    latest: Option<(u64, Hash)>,
    refusals: u64,
}

/// The witness's answer to one `add-checkpoint`.
#[derive(Debug, PartialEq, Eq)]
pub struct Answer {
    /// Its status.
    pub status: StatusCode,
    /// Its media type.
    pub media_type: &'static str,
    /// Its body: the cosignature line, a size, or a one-line reason.
    pub body: String,
}

impl Answer {
    fn refused(status: StatusCode, reason: &str) -> Self {
        Answer {
            status,
            media_type: "text/plain; charset=utf-8",
            body: format!("{reason}\n"),
        }
    }
}

/// An `add-checkpoint` body read: the old size, the consistency proof and
/// the signed checkpoint.
struct Submission<'a> {
    old: u64,
    proof: Vec<Hash>,
    note: &'a str,
}

fn submission(body: &[u8]) -> Option<Submission<'_>> {
    let text = std::str::from_utf8(body).ok()?;
    let (old, rest) = text.split_once('\n')?;
    let old = decimal(old.strip_prefix("old ")?)?;
    let (proof, note) = hash_lines(rest)?;
    Some(Submission { old, proof, note })
}

impl Witness {
    /// The witness of the log `log`, cosigning as `name` with `key`, its
    /// state in the folder `state` (made when missing, read when there).
    ///
    /// # Errors
    ///
    /// The folder cannot be made or read, or its checkpoint is not the log's.
    pub fn open(
        log: NoteKey,
        name: String,
        key: SigningKey,
        state: PathBuf,
    ) -> Result<Self, WitnessError> {
        let folder = |e| WitnessError::Folder(state.clone(), e);
        std::fs::create_dir_all(state.join("evidence")).map_err(folder)?;
        let file = state.join(CHECKPOINT_FILE);
        let latest = match std::fs::symlink_metadata(&file) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(folder(e)),
            Ok(_) => {
                let bytes = secret_file::read(&file)?;
                let checkpoint = std::str::from_utf8(&bytes)
                    .ok()
                    .and_then(Note::parse)
                    .filter(|note| note.signed_by(&log))
                    .and_then(|note| Checkpoint::parse(&note.text))
                    .filter(|c| c.origin == log.name)
                    .ok_or(WitnessError::NotThisLog(file))?;
                Some((checkpoint.size, checkpoint.root))
            }
        };
        Ok(Witness {
            log,
            name,
            key,
            state,
            latest,
            refusals: 0,
        })
    }

    /// The witness's verifier key, which consumers configure
    /// (`<name>+<keyId>+<base64 of 0x04 and its key>`).
    pub fn verifier_key(&self) -> String {
        NoteKey::new(&self.name, KeyKind::Cosignature, self.key.verifying_key())
            .map(|key| key.to_text())
            .unwrap_or_default()
    }

    /// The size of the last checkpoint cosigned (0 before any).
    pub fn size(&self) -> u64 {
        self.latest.map_or(0, |(size, _)| size)
    }

    /// Answers one `add-checkpoint` body at `now` (Unix seconds): the
    /// cosignature of a checkpoint consistent with the last one cosigned,
    /// which becomes the last one (persisted first); or the refusal, its
    /// evidence kept when the log signed what is refused.
    ///
    /// # Errors
    ///
    /// The state or the evidence cannot be written: nothing is cosigned.
    pub fn add_checkpoint(&mut self, body: &[u8], now: u64) -> Result<Answer, SecretFileError> {
        let Some(submission) = submission(body) else {
            return Ok(Answer::refused(
                StatusCode::BAD_REQUEST,
                "not an add-checkpoint body: old size, proof lines, a blank line, a checkpoint",
            ));
        };
        let Some((note, checkpoint)) = Note::parse(submission.note)
            .and_then(|note| Some((Checkpoint::parse(&note.text)?, note)))
            .map(|(checkpoint, note)| (note, checkpoint))
        else {
            return Ok(Answer::refused(
                StatusCode::BAD_REQUEST,
                "the checkpoint is not a signed note",
            ));
        };
        if checkpoint.origin != self.log.name {
            return Ok(Answer::refused(StatusCode::NOT_FOUND, "unknown log origin"));
        }
        if !note.signed_by(&self.log) {
            return Ok(Answer::refused(
                StatusCode::FORBIDDEN,
                "the checkpoint is not signed by the log's key",
            ));
        }
        let (old, size) = (submission.old, checkpoint.size);
        if old > size {
            return Ok(Answer::refused(
                StatusCode::BAD_REQUEST,
                "the old size is above the checkpoint's",
            ));
        }
        if old != self.size() {
            return Ok(Answer {
                status: StatusCode::CONFLICT,
                media_type: SIZE_MEDIA_TYPE,
                body: format!("{}\n", self.size()),
            });
        }
        if old == 0 && !submission.proof.is_empty() {
            return Ok(Answer::refused(
                StatusCode::BAD_REQUEST,
                "a consistency proof from the empty tree must be empty",
            ));
        }
        let consistent = match self.latest {
            None => submission.proof.is_empty(),
            Some((_, root)) => {
                verify_consistency(old, size, &root, &checkpoint.root, &submission.proof)
            }
        };
        if !consistent {
            let (status, reason) = if old == size {
                (
                    StatusCode::CONFLICT,
                    "another root hash for the size cosigned: a split view",
                )
            } else {
                (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "the consistency proof does not verify from the checkpoint cosigned: a split view",
                )
            };
            self.keep_evidence(body, status, reason, now)?;
            return Ok(Answer::refused(status, reason));
        }
        if self.latest.is_none() || size > old {
            secret_file::write(
                &self.state.join(CHECKPOINT_FILE),
                submission.note.as_bytes(),
            )?;
            self.latest = Some((size, checkpoint.root));
        }
        let line = cosign(&note.text, &self.name, &self.key, now).unwrap_or_default();
        Ok(Answer {
            status: StatusCode::OK,
            media_type: "text/plain; charset=utf-8",
            body: line,
        })
    }

    fn keep_evidence(
        &mut self,
        body: &[u8],
        status: StatusCode,
        reason: &str,
        now: u64,
    ) -> Result<(), SecretFileError> {
        self.refusals += 1;
        let name = format!(
            "{now}-{}-{}-{}.txt",
            std::process::id(),
            self.refusals,
            status.as_u16()
        );
        let mut text = format!("refused {} {reason}\n", status.as_u16()).into_bytes();
        text.extend(body);
        secret_file::write(&self.state.join("evidence").join(name), &text)
    }
}

/// The witness, its key, name and state read and its address bound:
/// [`Bound::serve`] serves it.
pub struct Bound {
    listener: tokio::net::TcpListener,
    addr: SocketAddr,
    verifier_key: String,
    app: Router,
    limits: Limits,
}

/// Reads the witness's key, name and state and binds its address: nothing
/// is served yet.
///
/// # Errors
///
/// A key, a name or a state that cannot be used, or an address that
/// cannot be listened on.
pub async fn bind(config: WitnessConfig) -> Result<Bound, WitnessError> {
    let key = KeyFile::load(&config.keys)?.current;
    let log = NoteKey::parse(config.log_key.trim())
        .filter(|k| k.kind == KeyKind::Note)
        .ok_or(WitnessError::LogKey)?;
    let name = config
        .name
        .unwrap_or_else(|| format!("witness/{}", KeyId::of(&key.verifying_key())));
    NoteKey::new(&name, KeyKind::Cosignature, key.verifying_key()).ok_or(WitnessError::Name)?;
    let witness = Witness::open(log, name, key, config.state)?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|source| WitnessError::Listen {
            addr: config.listen,
            source,
        })?;
    let addr = listener
        .local_addr()
        .map_err(|source| WitnessError::Listen {
            addr: config.listen,
            source,
        })?;
    let verifier_key = witness.verifier_key();
    let app = Router::new()
        .route("/add-checkpoint", post(add_checkpoint))
        .with_state(Arc::new(Mutex::new(witness)));
    Ok(Bound {
        listener,
        addr,
        verifier_key,
        app,
        limits: config.connections.with_max_body(MAX_REQUEST_BYTES),
    })
}

impl Bound {
    /// The address it listens on (the port picked, when port 0 was asked).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The witness's verifier key (`<name>+<keyId>+<base64>`).
    pub fn verifier_key(&self) -> &str {
        &self.verifier_key
    }

    /// Serves until `shutdown` resolves (such as
    /// [`x402_verdict_http::shutdown_signal`]: Ctrl-C or SIGTERM).
    pub async fn serve(self, shutdown: impl std::future::Future<Output = ()>) {
        connections::serve(self.listener, self.app, self.limits, shutdown).await;
    }
}

async fn add_checkpoint(State(witness): State<Arc<Mutex<Witness>>>, request: Request) -> Response {
    // The connection bounds the body (its cap, the request timeout).
    let body = match to_bytes(request.into_body(), usize::MAX).await {
        Ok(body) => body,
        Err(e) => {
            let status = BodyError::of(&e).map_or(StatusCode::BAD_REQUEST, BodyError::status);
            return (status, format!("{e}\n")).into_response();
        }
    };
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // One at a time: the size checked is the size persisted (tlog-witness).
    let answer = witness.lock().await.add_checkpoint(&body, now);
    match answer {
        Ok(answer) => Response::builder()
            .status(answer.status)
            .header(CONTENT_TYPE, answer.media_type)
            .body(Body::from(answer.body))
            .unwrap_or_default(),
        Err(e) => {
            tracing::error!(error = %e, "cannot keep the witness's state");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "the witness cannot keep its state\n",
            )
                .into_response()
        }
    }
}
