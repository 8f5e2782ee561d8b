//! `x402-verdict metrics snapshot` and `x402-verdict metrics page`: the
//! monthly job of an operator publishing a static metrics page.

use std::path::{Path, PathBuf};
use std::time::Duration;

use x402_verdict_core::{BaseUrl, FetchFailure, MAX_BODY_BYTES};
use x402_verdict_metrics::{MetricsError, PublishedMetrics};

use x402_verdict_consumer::{fetch_capped, http_client, FetchError, HttpClientError};

/// Why a metrics command changed nothing: what could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum MetricsCommandError {
    /// The HTTP client cannot start.
    #[error(transparent)]
    Client(#[from] HttpClientError),
    /// The service answered another status than 200.
    #[error("{url}: HTTP status {status}; the snapshot is unchanged")]
    Status {
        /// The metrics URL.
        url: String,
        /// The status.
        status: u16,
    },
    /// No answer could be read.
    #[error("{url}: the snapshot is unchanged, {}", unfetched(failure))]
    Unfetched {
        /// The metrics URL.
        url: String,
        /// Why, and the HTTP client's words.
        failure: FetchError,
    },
    /// The answer is not a valid document.
    #[error("{url}: the snapshot is unchanged, not a valid published-metrics/v1 document")]
    InvalidAnswer {
        /// The metrics URL.
        url: String,
        /// The rule broken, and where.
        source: MetricsError,
    },
    /// The snapshot cannot be read.
    #[error("{}", path.display())]
    SnapshotUnreadable {
        /// The snapshot.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The snapshot is not a valid document.
    #[error("{}: not a valid published-metrics/v1 document", path.display())]
    InvalidSnapshot {
        /// The snapshot.
        path: PathBuf,
        /// The rule broken, and where.
        source: MetricsError,
    },
    /// `--out` names something other than a folder.
    #[error("{}: not a folder", .0.display())]
    NotAFolder(PathBuf),
    /// The `--out` folder cannot be created.
    #[error("{}", path.display())]
    CreateFolder {
        /// The folder.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The files cannot be written (none was replaced).
    #[error("{}: cannot write", path.display())]
    Write {
        /// The snapshot, or the page's folder.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
}

/// Why a fetch gave no answer, in a few words, then the HTTP client's
/// (`unreachable: error sending request: …`).
fn unfetched(unfetched: &FetchError) -> String {
    let why = match unfetched.failure {
        FetchFailure::Timeout => "no complete answer in time",
        FetchFailure::Network => "unreachable",
        FetchFailure::TooLarge => "the answer is over 64 KiB",
        FetchFailure::Redirected => "redirected to another origin",
    };
    match &unfetched.detail {
        Some(detail) => format!("{why}: {detail}"),
        None => why.to_owned(),
    }
}

/// A file a metrics command wrote, and the document it was written from.
#[derive(Debug)]
pub struct Written {
    /// The snapshot, or the page's `index.html`.
    pub path: PathBuf,
    /// The published metrics it holds.
    pub metrics: PublishedMetrics,
}

/// Reads the `/v0/metrics` of the service at `base_url` within `timeout_ms`
/// and saves it at `out` as a snapshot, atomically, when it is a valid
/// document.
///
/// # Errors
///
/// One line saying what could not be read or written; nothing is then changed.
pub async fn snapshot(
    base_url: &BaseUrl,
    out: &Path,
    timeout_ms: u32,
) -> Result<Written, MetricsCommandError> {
    let url = base_url.metrics_url();
    let client = http_client()?;
    let timeout = Duration::from_millis(timeout_ms.into());
    let fetched = tokio::time::timeout(
        timeout,
        fetch_capped(&client, &url, "application/json", MAX_BODY_BYTES),
    )
    .await
    .unwrap_or(Err(FetchFailure::Timeout.into()));
    let body = match fetched {
        Ok((200, body)) => body,
        Ok((status, _)) => return Err(MetricsCommandError::Status { url, status }),
        Err(failure) => return Err(MetricsCommandError::Unfetched { url, failure }),
    };
    let metrics = PublishedMetrics::parse(&body)
        .map_err(|source| MetricsCommandError::InvalidAnswer { url, source })?;
    write_atomically(out, &[(out.to_owned(), body)])?;
    Ok(Written {
        path: out.to_owned(),
        metrics,
    })
}

/// Writes the static metrics page (`index.html` and its stylesheet) into
/// the folder `out` (created if missing) from the snapshot `snapshot`.
///
/// # Errors
///
/// One line saying what could not be read or written; nothing is then changed.
pub fn page(snapshot: &Path, out: &Path) -> Result<Written, MetricsCommandError> {
    let path = || snapshot.to_owned();
    let text =
        std::fs::read(snapshot).map_err(|source| MetricsCommandError::SnapshotUnreadable {
            path: path(),
            source,
        })?;
    let metrics =
        PublishedMetrics::parse(&text).map_err(|source| MetricsCommandError::InvalidSnapshot {
            path: path(),
            source,
        })?;
    if out.exists() && !out.is_dir() {
        return Err(MetricsCommandError::NotAFolder(out.to_owned()));
    }
    std::fs::create_dir_all(out).map_err(|source| MetricsCommandError::CreateFolder {
        path: out.to_owned(),
        source,
    })?;
    let index = out.join("index.html");
    let files = [
        (index.clone(), super::page::render(&metrics).into_bytes()),
        (
            out.join(super::page::STYLESHEET),
            super::page::CSS.as_bytes().to_vec(),
        ),
    ];
    write_atomically(out, &files)?;
    Ok(Written {
        path: index,
        metrics,
    })
}

/// Writes each file to a temporary file beside it, then renames them all
/// into place: a failure leaves every existing file as it was.
fn write_atomically(name: &Path, files: &[(PathBuf, Vec<u8>)]) -> Result<(), MetricsCommandError> {
    let temporary = |path: &Path| {
        let file = path.file_name().unwrap_or_default().to_string_lossy();
        path.with_file_name(format!(".{file}.{}.tmp", std::process::id()))
    };
    let mut written = Vec::new();
    let result = files.iter().try_for_each(|(path, bytes)| {
        let tmp = temporary(path);
        written.push(tmp.clone());
        let file = std::fs::File::create(&tmp)?;
        std::io::Write::write_all(&mut &file, bytes)?;
        file.sync_all()
    });
    let result = result.and_then(|()| {
        files
            .iter()
            .try_for_each(|(path, _)| std::fs::rename(temporary(path), path))
    });
    if let Err(e) = result {
        for tmp in written {
            let _ = std::fs::remove_file(tmp);
        }
        return Err(MetricsCommandError::Write {
            path: name.to_owned(),
            source: e,
        });
    }
    Ok(())
}
