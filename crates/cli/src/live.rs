//! `x402-verdict scan --live`: each listed resource's own 402 read now, as
//! `check URL` reads one ([`Resource::ask_within`]), compared with what
//! the listing says by the core ([`x402_verdict_core::live`]), the live
//! options looked up as `check` looks them up ([`look_up`]).
//!
//! The reads are polite ([`OriginQueue`]): at most `--per-origin` in
//! flight per origin, `--origin-delay-ms` between two starts on one, the
//! origins in turn, and at most `--concurrency` reads and lookups in
//! flight overall. Each resource's rows are printed when its read and
//! lookups end, so a slow origin never holds the others' lines.

use std::io::IsTerminal as _;

use futures_util::stream::{FuturesUnordered, StreamExt};
use serde_json::Value;
use x402_verdict_consumer::challenge::{look_up, AskError, Method, Read, Resource};
use x402_verdict_consumer::polite::{OriginQueue, Politeness};
use x402_verdict_consumer::{error_chain, http_client_unpooled, Verifier};
use x402_verdict_core::live::{listed_resources, rows, Asked, ListedResource, LiveKind, LiveRow};
use x402_verdict_core::staple::{Source, SOURCE_MEMBER};
use x402_verdict_core::{DiscoveryItem, Evaluation};

use crate::out::say;
use crate::scan_error::ScanError;

/// How a live scan reads: its politeness, its bound overall, its timeout
/// and its output.
pub struct LiveOptions {
    /// Per origin.
    pub politeness: Politeness,
    /// The most reads and lookups in flight at once.
    pub concurrency: usize,
    /// Each read's whole exchange.
    pub timeout_ms: u32,
    /// One JSON object per row instead of a line.
    pub json: bool,
}

/// Reads every resource of `items` live, prints its rows, and says how it
/// ended: `failure` (the listing could not be read to its end) when no
/// resource changed, else [`ScanError::Changed`] carrying it.
///
/// # Errors
///
/// A resource changed (exit 3), the listing's failure, or Ctrl-C.
pub async fn scan_live(
    verifier: &Verifier,
    items: Vec<DiscoveryItem>,
    failure: Option<ScanError>,
    options: LiveOptions,
) -> Result<(), ScanError> {
    // No idle connection kept: the sockets open stay within the reads in
    // flight, however many origins the listing names.
    let client = http_client_unpooled()?;
    let resources = listed_resources(items);
    let total = resources.len();
    let work = resources.iter().map(|listed| {
        let resource = Resource::parse(&listed.resource, Method::Get);
        let origin = match &resource {
            Ok(resource) => resource.origin(),
            // Never asked: each its own origin.
            Err(_) => listed.resource.clone(),
        };
        (origin, (listed, resource))
    });
    let mut queue = OriginQueue::new(work, options.politeness);
    let mut reads = FuturesUnordered::new();
    let mut lookups = FuturesUnordered::new();
    let progress = std::io::stderr().is_terminal();
    let (mut done, mut changed) = (0, 0);
    let mut interrupted = std::pin::pin!(tokio::signal::ctrl_c());
    let ended = loop {
        if queue.waiting() == 0 && reads.is_empty() && lookups.is_empty() {
            break failure;
        }
        let room = reads.len() + lookups.len() < options.concurrency;
        let event = tokio::select! {
            (origin, (listed, resource)) = queue.next(), if room && queue.waiting() > 0 => {
                Event::Start(origin, listed, resource)
            }
            Some((origin, listed, asked)) = reads.next(), if !reads.is_empty() => {
                Event::Read(origin, listed, asked)
            }
            Some((rows, results)) = lookups.next(), if !lookups.is_empty() => {
                Event::LookedUp(rows, results)
            }
            _ = &mut interrupted => break Some(ScanError::Interrupted {
                done,
                total,
                what: "resources read",
            }),
        };
        let (rows, results) = match event {
            Event::Start(origin, listed, resource) => {
                let (client, timeout) = (&client, options.timeout_ms);
                reads.push(async move {
                    let asked = match resource {
                        Ok(resource) => {
                            let read = resource.ask_within(client, timeout).await;
                            asked(&resource.asked, read)
                        }
                        Err(not_http) => asked(&listed.resource, Err(not_http)),
                    };
                    (origin, listed, asked)
                });
                continue;
            }
            Event::Read(origin, listed, asked) => {
                queue.done(origin);
                let rows = rows(listed, &asked);
                match asked {
                    Asked::Challenge(challenge) => {
                        lookups.push(async move {
                            let results = look_up(verifier, &challenge).await;
                            (rows, results)
                        });
                        continue;
                    }
                    _ => (rows, Vec::new()),
                }
            }
            Event::LookedUp(rows, results) => (rows, results),
        };
        done += 1;
        changed += usize::from(rows.iter().any(|r| r.kind == LiveKind::Changed));
        print(&rows, &results, options.json);
        if progress {
            eprint!("\r{done}/{total}");
        }
    };
    if progress {
        eprint!("\r");
    }
    match (changed, ended) {
        (0, None) => Ok(()),
        (0, Some(error)) => Err(error),
        (changed, also) => Err(ScanError::Changed {
            changed,
            total,
            also: also.map(Box::new),
        }),
    }
}

/// What the loop of [`scan_live`] met.
enum Event<'a> {
    /// A read may start: the resource's origin's number, the resource.
    Start(usize, &'a ListedResource, Result<Resource, AskError>),
    /// A read ended.
    Read(usize, &'a ListedResource, Asked),
    /// The live options of a resource were looked up.
    LookedUp(Vec<LiveRow>, Vec<(Evaluation, Source)>),
}

/// What `check`'s reading of a resource gave, as the core compares it: a
/// challenge; an answer without one (`not-402`, with its status); or no
/// answer (`unreachable`): refused, broken off, the timeout, a redirect to
/// another origin, a URL that is not http(s). The words are `check`'s,
/// without the method and URL they start with (`named`), which the row
/// shows.
fn asked(named: &str, read: Result<Read, AskError>) -> Asked {
    let words = |said: &str| {
        said.strip_prefix(named)
            .map_or(said, |rest| rest.trim_start_matches(':').trim_start())
            .to_owned()
    };
    match read {
        Ok(Read::Challenge(challenge, _)) => Asked::Challenge(challenge),
        Ok(Read::NoPayment(what, status)) => Asked::Answered {
            status: status.unwrap_or_default(),
            words: words(&what),
        },
        // Without `could not read a challenge`, which the kind says.
        Err(AskError::NoChallenge(no)) => {
            let words = words(&error_chain(&no));
            match no.why.status() {
                Some(status) if !no.why.is_other_origin() => Asked::Answered { status, words },
                _ => Asked::Unreached { words },
            }
        }
        Err(error) => {
            let words = words(&error_chain(&error));
            match error {
                AskError::NotHttp(_) => Asked::Unreached { words },
                _ => Asked::Unreadable { words },
            }
        }
    }
}

/// Prints a resource's rows: one line each (`network …, payTo …, resource
/// …: ` its note, then its verification line or `no verdict looked up.`),
/// or with `--json` one object each (the row and, for a live option, its
/// `result` and, as `check --json` says it, where its verdict came from).
/// `results` are the live options' results, by their index.
fn print(rows: &[LiveRow], results: &[(Evaluation, Source)], json: bool) {
    for row in rows {
        let looked_up = row.asked.and_then(|i| results.get(i));
        let result = looked_up.map(|(result, _)| result);
        if json {
            let mut line = serde_json::to_value(row).unwrap_or(Value::Null);
            if let Some((result, source)) = looked_up {
                line["result"] = serde_json::to_value(result).unwrap_or(Value::Null);
                line[SOURCE_MEMBER] = Value::from(source.as_str());
            }
            say!("{line}");
        } else {
            let e = &row.option.endpoint;
            let verdict =
                result.map_or_else(|| "no verdict looked up.".to_owned(), Evaluation::text_line);
            say!(
                "network {}, payTo {}, resource {}: {}; {verdict}",
                e.chain(),
                e.pay_to(),
                e.resource_url(),
                row.note(),
            );
        }
    }
}
