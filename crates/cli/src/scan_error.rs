//! How `scan` ends ([`ScanError`]), shared by the listing's scan
//! ([`super::scan`]) and the live one ([`super::live`]).

use std::path::PathBuf;

use x402_verdict_core::{BaseUrlError, PageError};

use x402_verdict_consumer::HttpClientError;

/// Why `scan` stopped: the listing could not be read (exit 1), or bad input (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    /// The HTTP client cannot start.
    #[error(transparent)]
    Client(#[from] HttpClientError),
    /// The trust settings make no verifier.
    #[error(transparent)]
    Trust(#[from] crate::lookup::TrustError),
    /// The facilitator's URL is not one.
    #[error("{url}: {}", .rule.as_str())]
    FacilitatorUrl {
        /// As given.
        url: String,
        /// What is wrong with it.
        rule: BaseUrlError,
    },
    /// `--from-file`'s file cannot be read.
    #[error("{}", path.display())]
    FileUnreadable {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// `--from-file`'s file is no listing page.
    #[error("{}", path.display())]
    FileNotAPage {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: PageError,
    },
    /// Ctrl-C, after printing the endpoints looked up (or resources read) so far.
    #[error("interrupted: {done} of {total} {what}")]
    Interrupted {
        /// Looked up (or read) and printed.
        done: usize,
        /// Read from the listing.
        total: usize,
        /// What was counted: `endpoints looked up`, `resources read`.
        what: &'static str,
    },
    /// `--live`: resources ask other terms than their listing's (and how
    /// the scan ended otherwise, said before it).
    #[error("{changed} of {total} resources changed since they were listed")]
    Changed {
        /// The resources with a `changed` row.
        changed: usize,
        /// The resources read.
        total: usize,
        /// The listing's failure, or Ctrl-C, if the scan met one too.
        also: Option<Box<ScanError>>,
    },
    /// A page of the live listing could not be read.
    #[error("could not read the listing: {url}")]
    Listing {
        /// The page's URL.
        url: String,
        /// What happened.
        #[source]
        why: PageFailure,
    },
}

impl ScanError {
    /// The process's exit code for it: 3 when a resource changed (`--live`,
    /// whatever else happened), 1 when the listing could not be read, 130
    /// on Ctrl-C, 2 for bad input.
    pub fn exit_code(&self) -> u8 {
        match self {
            ScanError::Changed { .. } => 3,
            ScanError::Listing { .. } => 1,
            ScanError::Interrupted { .. } => 130,
            _ => 2,
        }
    }

    /// The other way the scan ended, beside [`ScanError::Changed`].
    pub fn also(&self) -> Option<&ScanError> {
        match self {
            ScanError::Changed { also, .. } => also.as_deref(),
            _ => None,
        }
    }
}

/// Why one page of a live listing could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PageFailure {
    /// No complete answer within the timeout.
    #[error("no complete answer within {0} ms")]
    Timeout(u32),
    /// Refused, reset, or the page broke off: the HTTP client's words.
    #[error("no answer: {0}")]
    Failed(String),
    /// A redirect to another origin, not followed.
    #[error("a redirect to another origin, not followed")]
    Redirected,
    /// An answer that is not 200.
    #[error("answered HTTP {0}")]
    Status(u16),
    /// A body over the page cap.
    #[error("the page is larger than 4 MiB")]
    TooLarge,
    /// A body that is no page.
    #[error(transparent)]
    NotAPage(PageError),
}
