//! `x402-verdict metrics snapshot` and `x402-verdict metrics page`: the
//! monthly job of an operator publishing a static metrics page.

use std::path::{Path, PathBuf};
use std::time::Duration;

use x402_verdict_core::{BaseUrl, FetchFailure, DEFAULT_TIMEOUT_MS, MAX_BODY_BYTES};
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

/// The metrics commands.
#[derive(clap::Subcommand, Debug)]
pub enum MetricsCommand {
    /// Read a service's /v0/metrics and save it as a snapshot (atomically).
    Snapshot(SnapshotArgs),
    /// Write the static metrics page (index.html and its stylesheet) from a snapshot.
    Page(PageArgs),
}

/// Options of `metrics snapshot`.
#[derive(clap::Args, Debug)]
pub struct SnapshotArgs {
    /// The verification service's base URL.
    #[arg(long, value_parser = BaseUrl::parse)]
    pub base_url: BaseUrl,
    /// The snapshot file to write (replaced only by a valid document).
    #[arg(long)]
    pub out: PathBuf,
    /// Whole-exchange timeout in milliseconds (1 to 60000).
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_MS, value_parser = x402_verdict_consumer::parse_timeout)]
    pub timeout_ms: u32,
}

/// Options of `metrics page`.
#[derive(clap::Args, Debug)]
pub struct PageArgs {
    /// The snapshot to render (written by `metrics snapshot`).
    #[arg(long)]
    pub snapshot: PathBuf,
    /// The folder to write index.html and metrics.css into (created if missing).
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs one metrics command.
///
/// # Errors
///
/// One line saying what could not be read or written; nothing is then changed.
pub async fn run(command: MetricsCommand) -> Result<(), MetricsCommandError> {
    match command {
        MetricsCommand::Snapshot(args) => snapshot(args).await,
        MetricsCommand::Page(args) => page(&args),
    }
}

async fn snapshot(args: SnapshotArgs) -> Result<(), MetricsCommandError> {
    let url = args.base_url.metrics_url();
    let client = http_client()?;
    let timeout = Duration::from_millis(args.timeout_ms.into());
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
    write_atomically(&args.out, &[(args.out.clone(), body)])?;
    println!(
        "{}: published metrics as of {}",
        args.out.display(),
        metrics.as_of.last_date()
    );
    Ok(())
}

fn page(args: &PageArgs) -> Result<(), MetricsCommandError> {
    let path = || args.snapshot.clone();
    let text = std::fs::read(&args.snapshot).map_err(|source| {
        MetricsCommandError::SnapshotUnreadable {
            path: path(),
            source,
        }
    })?;
    let metrics =
        PublishedMetrics::parse(&text).map_err(|source| MetricsCommandError::InvalidSnapshot {
            path: path(),
            source,
        })?;
    if args.out.exists() && !args.out.is_dir() {
        return Err(MetricsCommandError::NotAFolder(args.out.clone()));
    }
    std::fs::create_dir_all(&args.out).map_err(|source| MetricsCommandError::CreateFolder {
        path: args.out.clone(),
        source,
    })?;
    let files = [
        (
            args.out.join("index.html"),
            super::page::render(&metrics).into_bytes(),
        ),
        (
            args.out.join(super::page::STYLESHEET),
            super::page::CSS.as_bytes().to_vec(),
        ),
    ];
    write_atomically(&args.out, &files)?;
    println!(
        "{}: the metrics page as of {}",
        args.out.join("index.html").display(),
        metrics.as_of.last_date()
    );
    Ok(())
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
