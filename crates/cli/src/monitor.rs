//! `monitor`: follows a verdict service's transparency log and prints every
//! entry about the watched `payTo` (and resource URL). Each run reads the
//! log's checkpoint, checks its signature, reads the entry bundles from
//! the size it last saw to the checkpoint's, and recomputes the root from
//! the tree's right edge it kept ([`Frontier`]) and the new entries: a
//! checkpoint that does not extend what it saw before (a smaller size,
//! another root) is a split view, or a rewritten log. Its state is written
//! whole, synced and renamed into place, and only after a consistent step.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use x402_verdict_consumer::{fetch_capped, http_client, parse_timeout, HttpClientError};
use x402_verdict_core::transparency::{
    leaf_hash, new_bundles, read_entry_bundle, Checkpoint, Frontier, Hash, KeyKind, Note, NoteKey,
    MAX_ENTRY_BYTES, MAX_NOTE_BYTES, TILE_WIDTH,
};
use x402_verdict_core::{
    decode_base64, encode_base64, same_resource, BaseUrl, Endpoint, FetchFailure,
    DEFAULT_TIMEOUT_MS,
};

use crate::lookup::parse_base_url;
use crate::out::say;
use crate::shown::Shown;

/// Exit code: entries about the watched endpoint appeared.
pub const EXIT_ENTRIES: u8 = 4;

/// Exit code: the log is inconsistent with what the monitor saw before.
pub const EXIT_INCONSISTENT: u8 = 5;

/// Options of `monitor`.
#[derive(clap::Args, Debug)]
pub struct MonitorArgs {
    /// The log's URL prefix: `<service>/v0/log`, or where its files are exported.
    #[arg(long, value_parser = parse_base_url)]
    pub log: BaseUrl,
    /// The log's verifier key, `<origin>+<keyId>+<base64>` (an Ed25519 note key).
    #[arg(long, value_parser = parse_log_key)]
    pub log_key: NoteKey,
    /// The payment address to watch (`payTo`).
    #[arg(long)]
    pub pay_to: String,
    /// Only the entries about this resource URL (in its normalized form).
    #[arg(long)]
    pub resource_url: Option<String>,
    /// The file where the monitor keeps the size and the tree's edge it
    /// saw; without it, every run starts from the first entry.
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// Print each entry as a JSON line instead of the text line.
    #[arg(long)]
    pub json: bool,
    /// Timeout of each read, in milliseconds (1 to 60000).
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_MS, value_parser = parse_timeout)]
    pub timeout_ms: u32,
}

/// `--log-key`'s value that is not a log's verifier key.
#[derive(Debug, thiserror::Error)]
#[error(
    "is not a log's Ed25519 verifier key (<origin>+<8 hex digits>+<base64 of 0x01 and 32 bytes>)"
)]
pub struct LogKeyArgError;

fn parse_log_key(text: &str) -> Result<NoteKey, LogKeyArgError> {
    NoteKey::parse(text.trim())
        .filter(|key| key.kind == KeyKind::Note)
        .ok_or(LogKeyArgError)
}

/// Why `monitor` stops without an answer.
#[derive(Debug, thiserror::Error)]
pub enum MonitorError {
    /// The HTTP client cannot start.
    #[error(transparent)]
    Client(#[from] HttpClientError),
    /// The state file cannot be read or written, or is not a monitor's.
    #[error("--state {path}: {why}", path = .0.display(), why = .1)]
    State(PathBuf, String),
    /// A file of the log cannot be read.
    #[error("{0}: {1}")]
    Read(String, String),
    /// The checkpoint is not the log's.
    #[error("{0}: not a checkpoint of {1} signed by the log's key")]
    NotSigned(String, String),
    /// The log contradicts what the monitor saw before.
    #[error("the log is inconsistent with what this monitor saw before: {0}")]
    Inconsistent(String),
}

impl MonitorError {
    /// The process's exit code: [`EXIT_INCONSISTENT`] for an inconsistent
    /// log, 1 for a log that cannot be read, 2 for a state file.
    pub fn exit_code(&self) -> u8 {
        match self {
            MonitorError::Inconsistent(_) => EXIT_INCONSISTENT,
            MonitorError::State(..) => 2,
            _ => 1,
        }
    }
}

/// What the monitor keeps between runs.
struct Seen {
    frontier: Frontier,
}

fn read_state(path: &Path, origin: &str) -> Result<Seen, MonitorError> {
    let bad = |why: &str| MonitorError::State(path.to_owned(), why.to_owned());
    let bytes = match std::fs::read(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Seen {
                frontier: Frontier::new(),
            })
        }
        Err(e) => return Err(bad(&e.to_string())),
        Ok(bytes) => bytes,
    };
    let state: Value = serde_json::from_slice(&bytes).map_err(|e| bad(&e.to_string()))?;
    if state["origin"].as_str() != Some(origin) {
        return Err(bad("kept for another log (its origin is not --log-key's)"));
    }
    let size = state["size"].as_u64().ok_or_else(|| bad("no size"))?;
    let hashes = state["edge"]
        .as_array()
        .ok_or_else(|| bad("no edge"))?
        .iter()
        .map(|h| {
            h.as_str()
                .and_then(decode_base64)
                .and_then(|b| Hash::try_from(b).ok())
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| bad("an edge hash is not 32 bytes of base64"))?;
    let frontier =
        Frontier::from_hashes(size, hashes).ok_or_else(|| bad("the edge does not fit the size"))?;
    Ok(Seen { frontier })
}

fn write_state(path: &Path, origin: &str, seen: &Seen) -> Result<(), MonitorError> {
    let state = json!({
        "origin": origin,
        "size": seen.frontier.size(),
        "root": encode_base64(&seen.frontier.root()),
        "edge": seen.frontier.hashes().iter().map(|h| encode_base64(h)).collect::<Vec<_>>(),
    });
    let bad = |e: std::io::Error| MonitorError::State(path.to_owned(), e.to_string());
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".new");
    let temporary = PathBuf::from(temporary);
    {
        use std::io::Write as _;
        let mut file = std::fs::File::create(&temporary).map_err(bad)?;
        file.write_all(format!("{state}\n").as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(bad)?;
    }
    std::fs::rename(&temporary, path).map_err(bad)?;
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::File::open(folder)
        .and_then(|f| f.sync_all())
        .map_err(bad)
}

/// Reads one file of the log, within `cap` bytes and the timeout.
async fn read(
    client: &reqwest::Client,
    url: String,
    cap: usize,
    timeout_ms: u32,
) -> Result<Vec<u8>, MonitorError> {
    let timeout = std::time::Duration::from_millis(timeout_ms.into());
    let fetched = tokio::time::timeout(timeout, fetch_capped(client, &url, "*/*", cap)).await;
    match fetched {
        Err(_) => Err(MonitorError::Read(
            url,
            "no answer within the timeout".into(),
        )),
        Ok(Err(e)) => {
            let why = match (e.failure, e.detail) {
                (_, Some(words)) => words,
                (FetchFailure::TooLarge, None) => "over its size bound".to_owned(),
                (FetchFailure::Redirected, None) => "redirected to another origin".to_owned(),
                (_, None) => "no answer".to_owned(),
            };
            Err(MonitorError::Read(url, why))
        }
        Ok(Ok((200, body))) => Ok(body),
        Ok(Ok((status, _))) => Err(MonitorError::Read(url, format!("answered HTTP {status}"))),
    }
}

/// An entry about the watched endpoint.
struct Found {
    index: u64,
    statement: Value,
}

/// Follows the log one step: prints the new entries about the watched
/// endpoint, then saves the state. `Ok(true)` when there were some.
///
/// # Errors
///
/// A log that cannot be read, a checkpoint not the log's, a state file
/// that cannot be used, or a log inconsistent with what was seen.
pub async fn monitor(args: MonitorArgs) -> Result<bool, MonitorError> {
    let client = http_client()?;
    let seen = match &args.state {
        Some(path) => read_state(path, &args.log_key.name)?,
        None => Seen {
            frontier: Frontier::new(),
        },
    };
    let url = format!("{}/checkpoint", args.log);
    let note = read(&client, url.clone(), MAX_NOTE_BYTES, args.timeout_ms).await?;
    let checkpoint = std::str::from_utf8(&note)
        .ok()
        .and_then(Note::parse)
        .filter(|note| note.signed_by(&args.log_key))
        .and_then(|note| Checkpoint::parse(&note.text))
        .filter(|c| c.origin == args.log_key.name)
        .ok_or_else(|| MonitorError::NotSigned(url, args.log_key.name.clone()))?;
    let old = seen.frontier.size();
    if checkpoint.size < old {
        return Err(MonitorError::Inconsistent(format!(
            "its checkpoint has {} entries, fewer than the {old} seen",
            checkpoint.size
        )));
    }
    let mut frontier = seen.frontier;
    let mut found = Vec::new();
    for bundle in new_bundles(old, checkpoint.size) {
        let url = format!("{}/{}", args.log, bundle.path());
        let cap = bundle.width as usize * (2 + MAX_ENTRY_BYTES);
        let bytes = read(&client, url.clone(), cap, args.timeout_ms).await?;
        let entries = read_entry_bundle(&bytes)
            .filter(|entries| entries.len() as u64 == bundle.width)
            .ok_or_else(|| {
                MonitorError::Inconsistent(format!(
                    "{url} does not hold the {} entries its checkpoint names",
                    bundle.width
                ))
            })?;
        for (index, entry) in (bundle.index * TILE_WIDTH..).zip(entries) {
            if index < old {
                continue;
            }
            frontier.push(leaf_hash(entry));
            if let Some(statement) = about(&args, entry) {
                found.push(Found { index, statement });
            }
        }
    }
    if frontier.root() != checkpoint.root {
        return Err(MonitorError::Inconsistent(format!(
            "the checkpoint of {} entries does not extend the {old} seen (or its entries do not hash to its root)",
            checkpoint.size
        )));
    }
    for entry in &found {
        print(&args, entry);
    }
    if let Some(path) = &args.state {
        write_state(path, &args.log_key.name, &Seen { frontier })?;
    }
    Ok(!found.is_empty())
}

/// The statement of `entry` when it is about the watched endpoint.
fn about(args: &MonitorArgs, entry: &[u8]) -> Option<Value> {
    let statement: Value = serde_json::from_slice(entry).ok()?;
    let text = |name: &str| statement[name].as_str().map(str::to_owned);
    let (chain, pay_to, resource) = (text("chain")?, text("payTo")?, text("resourceUrl")?);
    let logged = Endpoint::new(&chain, &pay_to, &resource).ok()?.key();
    let watched = Endpoint::new(&chain, &args.pay_to, &resource).ok()?.key();
    let same_resource = args
        .resource_url
        .as_deref()
        .is_none_or(|url| same_resource(url, &resource));
    (logged.pay_to == watched.pay_to && same_resource).then_some(statement)
}

/// Prints one entry found: a JSON line (`index`, `entry`), or the text
/// line.
fn print(args: &MonitorArgs, found: &Found) {
    if args.json {
        say!(
            "{}",
            json!({ "index": found.index, "entry": found.statement })
        );
        return;
    }
    let s = &found.statement;
    let text = |name: &str| s[name].as_str().unwrap_or("none").to_owned();
    let every = s["recheckEveryHours"]
        .as_u64()
        .map_or_else(|| "none".to_owned(), |h| format!("{h}h"));
    say!(
        "Log entry {}: {} {} {}; outcome {}; assurance {}; last re-checked {}; re-check every {}; renew by {}.",
        found.index,
        Shown(&text("chain")),
        Shown(&text("payTo")),
        Shown(&text("resourceUrl")),
        Shown(&text("outcome")),
        Shown(&text("assuranceLevel")),
        Shown(&text("verifiedAt")),
        every,
        Shown(&text("renewBy")),
    );
}
