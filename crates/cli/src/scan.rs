//! `x402-verdict scan`: every endpoint of a facilitator's discovery listing
//! (`GET {URL}/discovery/resources`, paged by `limit` and `offset`), or of a
//! saved page, looked up once each with bounded concurrency, one line (or
//! one JSON object) per endpoint, in the listing's order.
//!
//! The listing is untrusted: pages are read within the core's bounds
//! ([`MAX_PAGE_BYTES`], [`MAX_PAGE_ITEMS`]) and each within the timeout, at
//! most `--max-items` items are read whatever `total` claims, and paging
//! stops at an empty page, at `total`, or at a page that repeats the one
//! before (a loop). An item that cannot be read is named on stderr and the
//! others are scanned. With `--live`, each listed resource's own 402 is
//! read and compared with the listing ([`super::live`]).

use std::collections::HashSet;
use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::time::Duration;

use futures_util::stream::{self, StreamExt};
use serde_json::Value;
use x402_verdict_core::{
    line, BaseUrl, DiscoveryItem, ItemError, Page, PaymentOption, MAX_PAGE_BYTES, MAX_PAGE_ITEMS,
};

use crate::live::{scan_live, LiveOptions};
use crate::lookup::{parse_base_url, TrustArgs};
use crate::out::say;
use crate::scan_error::{PageFailure, ScanError};
use crate::shown::Shown;
use x402_verdict_consumer::polite::Politeness;
use x402_verdict_consumer::Verifier;

/// Options of `scan`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["facilitator", "from_file"])))]
pub struct ScanArgs {
    /// The facilitator whose listing to scan: `GET FACILITATOR_URL/discovery/resources`.
    #[arg(value_name = "FACILITATOR_URL")]
    pub facilitator: Option<String>,
    /// Scan a saved listing page (or one item) instead.
    #[arg(long, value_name = "FILE")]
    pub from_file: Option<PathBuf>,
    /// The verification service's base URL (absent: every endpoint is `unknown`, outcome `no_service`).
    #[arg(long, value_parser = parse_base_url)]
    pub base_url: Option<BaseUrl>,
    /// The keys, strictness and timeout (which also bounds each listing page).
    #[command(flatten)]
    pub trust: TrustArgs,
    /// The most listing items read, whatever the listing's total claims.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_items: u64,
    /// The items asked for per page.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=MAX_PAGE_ITEMS as u64))]
    pub page_size: u64,
    /// The most lookups (and, with --live, reads of resources) in flight at once.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// Read each listed resource's own 402 now (without paying) and compare it with the listing.
    #[arg(long)]
    pub live: bool,
    /// With --live: the most reads in flight at once to one origin (scheme, host and port).
    #[arg(long, default_value_t = 2, requires = "live", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub per_origin: u32,
    /// With --live: the least time between the starts of two reads on one origin.
    #[arg(long, default_value_t = 0, requires = "live", value_parser = clap::value_parser!(u32).range(0..=60_000))]
    pub origin_delay_ms: u32,
    /// Print one JSON object per endpoint (with --live, per row) instead of a line.
    #[arg(long)]
    pub json: bool,
}

/// Reads the listing, looks every endpoint up and prints one line (or JSON
/// object) per endpoint; items that cannot be read are named on stderr.
///
/// # Errors
///
/// Bad input, or a listing that could not be read (after printing what
/// was read of it).
pub async fn scan(args: ScanArgs) -> Result<(), ScanError> {
    let verifier = args.trust.verifier(args.base_url.clone())?;
    let (items, failure) = match &args.from_file {
        Some(path) => (read_file(path)?, None),
        None => {
            let text = args.facilitator.as_deref().unwrap_or_default();
            let facilitator = BaseUrl::parse(text).map_err(|rule| ScanError::FacilitatorUrl {
                url: text.to_owned(),
                rule,
            })?;
            read_live(&verifier, &facilitator, &args).await
        }
    };
    let items = readable(items);
    if args.live {
        let options = LiveOptions {
            politeness: Politeness {
                per_origin: args.per_origin as usize,
                delay: Duration::from_millis(args.origin_delay_ms.into()),
            },
            concurrency: args.concurrency as usize,
            timeout_ms: args.trust.timeout_ms,
            json: args.json,
        };
        return scan_live(&verifier, items, failure, options).await;
    }
    let found = endpoints(items);
    let total = found.len();
    let progress = std::io::stderr().is_terminal();
    let mut lookups = stream::iter(found)
        .map(|option| {
            let verifier = &verifier;
            async move {
                let result = verifier.check(option.endpoint.clone()).await;
                (option, result)
            }
        })
        .buffered(args.concurrency as usize);
    let mut done = 0;
    let mut interrupted = std::pin::pin!(tokio::signal::ctrl_c());
    loop {
        let next = tokio::select! {
            next = lookups.next() => next,
            _ = &mut interrupted => return Err(ScanError::Interrupted {
                done,
                total,
                what: "endpoints looked up",
            }),
        };
        let Some((option, result)) = next else { break };
        done += 1;
        if progress {
            eprint!("\r{done}/{total}");
        }
        if args.json {
            let mut line = serde_json::to_value(&option).unwrap_or(Value::Null);
            line["result"] = serde_json::to_value(&result).unwrap_or(Value::Null);
            say!("{line}");
        } else {
            let e = &option.endpoint;
            say!(
                "network {}, payTo {}, resource {}: {}",
                e.chain(),
                e.pay_to(),
                e.resource_url(),
                result.text_line()
            );
        }
    }
    if progress {
        eprint!("\r");
    }
    match failure {
        Some(failure) => Err(failure),
        None => Ok(()),
    }
}

/// The items that could be read, in order; each other one is named on
/// stderr (its page, index and resource, and what is wrong with it).
fn readable(items: Items) -> Vec<DiscoveryItem> {
    let mut read = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Ok(item) => read.push(item),
            Err((offset, error)) => {
                eprintln!(
                    "x402-verdict: skipped: page at offset {offset}: {}",
                    Shown(&line(&error))
                );
            }
        }
    }
    read
}

/// The endpoints of `items` in order, each once (by its key: `base` and
/// `eip155:8453` are one chain).
fn endpoints(items: Vec<DiscoveryItem>) -> Vec<PaymentOption> {
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    for option in items.into_iter().flat_map(|item| item.options) {
        if seen.insert(option.endpoint.key()) {
            found.push(option);
        }
    }
    found
}

/// The items read, in order, each with the offset of its page when it
/// could not be read.
type Items = Vec<Result<DiscoveryItem, (u64, ItemError)>>;

fn read_file(path: &std::path::Path) -> Result<Items, ScanError> {
    let bytes = std::fs::read(path).map_err(|source| ScanError::FileUnreadable {
        path: path.to_owned(),
        source,
    })?;
    let page = Page::from_json(&bytes).map_err(|source| ScanError::FileNotAPage {
        path: path.to_owned(),
        source,
    })?;
    Ok(page
        .items
        .into_iter()
        .map(|i| i.map_err(|e| (0, e)))
        .collect())
}

/// Pages through the listing: what was read, and the failure that stopped
/// it early, if one did.
async fn read_live(
    verifier: &Verifier,
    facilitator: &BaseUrl,
    args: &ScanArgs,
) -> (Items, Option<ScanError>) {
    let mut items: Items = Vec::new();
    let mut previous: Option<Vec<Result<DiscoveryItem, ItemError>>> = None;
    let mut offset = 0u64;
    while offset < args.max_items {
        let limit = args.page_size.min(args.max_items - offset);
        let url = facilitator.discovery_url(limit, offset);
        let page = match fetch_page(verifier, &url).await {
            Ok(page) => page,
            Err(why) => return (items, Some(ScanError::Listing { url, why })),
        };
        if page.items.is_empty() {
            break;
        }
        if previous.as_ref() == Some(&page.items) {
            eprintln!("x402-verdict: stopped: the listing answered offset {offset} with the items of the page before (a paging loop)");
            break;
        }
        let read = page.items.len() as u64;
        let room = (args.max_items - offset).min(read) as usize;
        items.extend(
            page.items[..room]
                .iter()
                .cloned()
                .map(|i| i.map_err(|e| (offset, e))),
        );
        offset += read;
        let total = page.pagination.map(|p| p.total);
        if total.is_some_and(|total| offset >= total) {
            break;
        }
        if offset >= args.max_items {
            let claimed = total.map_or(String::new(), |t| format!(" of the {t} it claims"));
            eprintln!(
                "x402-verdict: stopped at --max-items {}{claimed}",
                args.max_items
            );
            break;
        }
        previous = Some(page.items);
    }
    (items, None)
}

/// GETs one page within the timeout and the page cap, and reads it.
async fn fetch_page(verifier: &Verifier, url: &str) -> Result<Page, PageFailure> {
    use x402_verdict_core::FetchFailure;
    let timeout = verifier.timeout;
    let fetched = tokio::time::timeout(timeout, verifier.get_json(url, MAX_PAGE_BYTES)).await;
    let ms = u32::try_from(timeout.as_millis()).unwrap_or(u32::MAX);
    let (status, body) = match fetched {
        Err(_) => return Err(PageFailure::Timeout(ms)),
        Ok(Err(unfetched)) => {
            return Err(match (unfetched.failure, unfetched.detail) {
                (FetchFailure::TooLarge, _) => PageFailure::TooLarge,
                (FetchFailure::Redirected, _) => PageFailure::Redirected,
                (FetchFailure::Timeout, _) => PageFailure::Timeout(ms),
                (FetchFailure::Network, detail) => PageFailure::Failed(detail.unwrap_or_default()),
            })
        }
        Ok(Ok(answer)) => answer,
    };
    if status != 200 {
        return Err(PageFailure::Status(status));
    }
    Page::from_json(&body).map_err(PageFailure::NotAPage)
}
