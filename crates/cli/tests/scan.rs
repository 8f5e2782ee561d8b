//! `scan` against fake facilitators on loopback (a good listing in pages,
//! one that claims 10^9 items, one that loops, one that sends 50 MB, one
//! with broken items) and against the real service: every endpoint looked
//! up once, never more than `--concurrency` at a time, bounded in time and
//! memory whatever the listing does, and `--from-file` the same as live.

mod support;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};
use support::*;

/// Item `i` of a listing: a v2 resource with one option for `payTo`
/// number `i`, on `base` (even) or its other name `eip155:8453` (odd).
fn item(resource: &str, pay_to: &str, network: &str) -> Value {
    json!({
        "resource": resource, "type": "http", "x402Version": 2,
        "accepts": [{
            "scheme": "exact", "network": network, "asset": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
            "amount": "1000", "payTo": pay_to, "maxTimeoutSeconds": 60, "extra": {},
        }],
        "lastUpdated": "2026-11-30T12:00:00Z",
    })
}

fn numbered(i: usize) -> Value {
    let network = if i.is_multiple_of(2) {
        "base"
    } else {
        "eip155:8453"
    };
    item(
        &format!("{R}item/{i}"),
        &format!("0x{:040x}", i + 1),
        network,
    )
}

struct Paging {
    limit: usize,
    offset: usize,
}

/// `limit` and `offset` from a query string (as scan writes it).
fn paging(query: Option<String>) -> Paging {
    let query = query.unwrap_or_default();
    let number = |name: &str| {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    Paging {
        limit: number("limit"),
        offset: number("offset"),
    }
}

/// One page of `items` as a facilitator answers it.
fn page_of(items: &[Value], paging: &Paging, total: usize) -> Value {
    let end = (paging.offset + paging.limit).min(items.len());
    let start = paging.offset.min(end);
    json!({
        "x402Version": 2,
        "items": items[start..end],
        "pagination": { "limit": paging.limit, "offset": paging.offset, "total": total },
    })
}

/// The fake facilitators, each under its own path, and how many pages
/// each was asked for.
async fn facilitators(good: Vec<Value>) -> (String, Arc<Mutex<HashMap<String, usize>>>) {
    let asked: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
    let good = Arc::new(good);
    let count = |asked: &Arc<Mutex<HashMap<String, usize>>>, name: &str| {
        *asked.lock().unwrap().entry(name.to_owned()).or_default() += 1;
    };
    let (a1, a2, a3) = (asked.clone(), asked.clone(), asked.clone());
    let app = Router::new()
        .route(
            "/good/discovery/resources",
            get(move |RawQuery(q): RawQuery, State(good): State<Arc<Vec<Value>>>| async move {
                axum::Json(page_of(&good, &paging(q), good.len()))
            }),
        )
        .route(
            "/claims/discovery/resources",
            get(move |RawQuery(q): RawQuery| async move {
                count(&a1, "claims");
                let p = paging(q);
                let items: Vec<Value> = (p.offset..p.offset + p.limit).map(numbered).collect();
                let page = json!({ "items": items, "pagination": { "limit": p.limit, "offset": p.offset, "total": 1_000_000_000 } });
                axum::Json(page)
            }),
        )
        .route(
            "/loop/discovery/resources",
            get(move || async move {
                count(&a2, "loop");
                let items: Vec<Value> = (0..10).map(numbered).collect();
                axum::Json(json!({ "items": items, "pagination": { "limit": 10, "offset": 0, "total": 1_000_000 } }))
            }),
        )
        .route(
            "/huge/discovery/resources",
            get(move || async move {
                count(&a3, "huge");
                let pad = "x".repeat(50 << 20);
                ([("content-type", "application/json")], format!("{{\"items\":[],\"pad\":\"{pad}\"}}"))
            }),
        )
        .route(
            "/broken/discovery/resources",
            get(|| async {
                let mut escape = numbered(2);
                escape["accepts"][0]["payTo"] = json!("\u{1b}]0;owned\u{7}0xabc");
                let items = json!([numbered(1), "not an item", { "resource": "https://x.example/" }, escape]);
                axum::Json(json!({ "items": items, "pagination": { "limit": 100, "offset": 0, "total": 4 } }))
            }),
        )
        .route("/500/discovery/resources", get(|| async { StatusCode::INTERNAL_SERVER_ERROR }))
        .route(
            "/challenge/discovery/resources",
            get(|| async { axum::Json(challenge()) }),
        )
        .with_state(good);
    (serve_app(app).await, asked)
}

/// A payment challenge (x402 v2): no listing, and no item.
fn challenge() -> Value {
    let mut accepts = numbered(1)["accepts"].clone();
    accepts[0]["network"] = json!("eip155:8453");
    json!({ "x402Version": 2, "error": "PAYMENT-SIGNATURE header is required",
            "resource": { "url": format!("{R}item/1") }, "accepts": accepts })
}

async fn serve_app(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

/// A verification service that knows nothing (404 after 30 ms), counting
/// the lookups of each endpoint and the most in flight at once.
struct Counting {
    url: String,
    per_query: Arc<Mutex<HashMap<String, usize>>>,
    most_in_flight: Arc<AtomicUsize>,
}

async fn counting_service() -> Counting {
    let per_query: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
    let in_flight = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let (q, f, m) = (per_query.clone(), in_flight.clone(), most.clone());
    let app = Router::new().route(
        "/v0/verdict",
        get(move |RawQuery(query): RawQuery| {
            let (q, f, m) = (q.clone(), f.clone(), m.clone());
            async move {
                *q.lock()
                    .unwrap()
                    .entry(query.unwrap_or_default())
                    .or_default() += 1;
                let now = f.fetch_add(1, Ordering::SeqCst) + 1;
                m.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(30)).await;
                f.fetch_sub(1, Ordering::SeqCst);
                StatusCode::NOT_FOUND.into_response()
            }
        }),
    );
    Counting {
        url: serve_app(app).await,
        per_query,
        most_in_flight: most,
    }
}

async fn scan(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["scan"];
    all.extend(args);
    run(&all).await
}

#[tokio::test]
async fn every_endpoint_of_a_paged_listing_is_looked_up_once_within_the_concurrency() {
    // 250 items in pages of 100, then the first 20 again under the other
    // name of their chain: 250 endpoints.
    let mut items: Vec<Value> = (0..250).map(numbered).collect();
    items.extend((0..20).map(|i| {
        let mut again = numbered(i);
        let other = if i.is_multiple_of(2) {
            "eip155:8453"
        } else {
            "base"
        };
        again["accepts"][0]["network"] = json!(other);
        again
    }));
    let (facilitator, _) = facilitators(items).await;
    let service = counting_service().await;
    let (code, out, err) = scan(&[
        &format!("{facilitator}/good"),
        "--base-url",
        &service.url,
        "--concurrency",
        "8",
    ])
    .await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "", "nothing on stderr when it is no terminal");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 250);
    assert_eq!(
        lines[7],
        format!(
            "network eip155:8453, payTo 0x{:040x}, resource {R}item/7: Verification: unknown; outcome no_signal; freshness unknown; assurance none; last re-checked never; signature not_checked; reason not_listed.",
            8
        )
    );
    let asked = service.per_query.lock().unwrap();
    assert_eq!(asked.len(), 250, "one lookup per endpoint");
    assert!(
        asked.values().all(|n| *n == 1),
        "an endpoint was looked up twice"
    );
    let most = service.most_in_flight.load(Ordering::SeqCst);
    assert!((2..=8).contains(&most), "{most} lookups in flight at once");
}

#[tokio::test]
async fn json_lines_and_a_saved_page_read_as_the_live_listing() {
    let (dir, key, service) = start_demo().await;
    let items = vec![
        item(&format!("{R}good"), PAY_TO, "base"),
        item(&format!("{R}revoked"), PAY_TO, "eip155:8453"),
        item(&format!("{R}unlisted"), PAY_TO, "base"),
    ];
    let saved = dir.join("listing.json");
    let paging = Paging {
        limit: 100,
        offset: 0,
    };
    std::fs::write(&saved, page_of(&items, &paging, 3).to_string()).unwrap();
    let (facilitator, _) = facilitators(items).await;
    let trust = ["--base-url", &service.url, "--public-key", &key];
    let live = scan(&[&[format!("{facilitator}/good").as_str()][..], &trust].concat()).await;
    let file = scan(&[&["--from-file", saved.to_str().unwrap()][..], &trust].concat()).await;
    assert_eq!(live.0, 0, "{}", live.2);
    assert_eq!(live, file);
    let lines: Vec<&str> = live.1.lines().collect();
    assert!(
        lines[0].starts_with(&format!(
            "network base, payTo {PAY_TO}, resource {R}good: Verification: human-backed;"
        )),
        "{lines:?}"
    );
    assert!(
        lines[1].contains("/revoked: Verification: revoked;"),
        "{lines:?}"
    );
    assert!(
        lines[2].contains("/unlisted: Verification: unknown; outcome no_signal;"),
        "{lines:?}"
    );
    let (code, out, err) = scan(
        &[
            &["--from-file", saved.to_str().unwrap(), "--json"][..],
            &trust,
        ]
        .concat(),
    )
    .await;
    assert_eq!(code, 0, "{err}");
    let objects: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 3);
    assert_eq!(objects[0]["resourceUrl"], format!("{R}good"));
    assert_eq!(objects[0]["chain"], "base");
    assert_eq!(objects[0]["payTo"], PAY_TO);
    assert_eq!(objects[0]["result"]["state"], "human-backed");
    assert_eq!(objects[1]["result"]["state"], "revoked");
    // The same result as `lookup --json` for the same endpoint.
    let alone = lookup(&service.url, &format!("{R}good"), &[&key], &[]).await;
    assert_eq!(objects[0]["result"]["state"], alone["state"]);
    assert_eq!(objects[0]["result"]["outcome"], alone["outcome"]);
}

#[tokio::test]
async fn hostile_listings_stay_bounded_and_say_why_in_one_line() {
    let (facilitator, asked) = facilitators(Vec::new()).await;
    let started = Instant::now();
    // 10^9 items claimed, each page new: stops at --max-items.
    let (code, out, err) = scan(&[&format!("{facilitator}/claims"), "--max-items", "350"]).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 350);
    assert_eq!(
        err,
        "x402-verdict: stopped at --max-items 350 of the 1000000000 it claims\n"
    );
    // The same page whatever the offset: stops at the repeat.
    let (code, out, err) = scan(&[&format!("{facilitator}/loop")]).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 10);
    assert!(err.contains("a paging loop"), "{err}");
    assert_eq!(asked.lock().unwrap()["loop"], 2);
    // 50 MB: refused without reading it whole, exit 1, one line.
    let (code, out, err) = scan(&[&format!("{facilitator}/huge")]).await;
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (1, "", format!("x402-verdict: could not read the listing: {facilitator}/huge/discovery/resources?limit=100&offset=0: the page is larger than 4 MiB\n").as_str())
    );
    let (code, _, err) = scan(&[&format!("{facilitator}/500")]).await;
    assert_eq!(code, 1);
    assert!(err.ends_with(": answered HTTP 500\n"), "{err}");
    let (code, _, err) = scan(&["http://127.0.0.1:9", "--timeout-ms", "1000"]).await;
    assert_eq!(code, 1, "{err}");
    // In the HTTP client's words, the system's last.
    assert!(
        err.contains(": no answer: error sending request: ")
            && err.to_lowercase().contains("refused")
            && err.lines().count() == 1,
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    // Broken items are named, in one line each, and the others scanned;
    // nothing of theirs reaches the terminal.
    let (code, out, err) = scan(&[&format!("{facilitator}/broken")]).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        [
            "x402-verdict: skipped: page at offset 0: items[1] is not an object",
            "x402-verdict: skipped: page at offset 0: items[2] (https://x.example/): x402Version is missing",
            "x402-verdict: skipped: page at offset 0: items[3] (https://api.example.com/item/2): accepts[0].payTo contains a control character",
        ]
    );
    assert!(!err.contains('\u{1b}') && !out.contains('\u{1b}'));
    // Bad input is exit 2.
    let (code, _, err) = scan(&["ftp://facilitator.example"]).await;
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "x402-verdict: ftp://facilitator.example: is not an absolute http:// or https:// URL\n"
        )
    );
    let (code, _, err) = scan(&["--from-file", "/nonexistent/listing.json"]).await;
    assert_eq!(code, 2, "{err}");
}

#[tokio::test]
async fn a_payment_challenge_is_no_listing_live_or_saved() {
    const NOT_A_LISTING: &str =
        "a payment challenge (accepts without a resource string), not a discovery listing or item";
    let (facilitator, _) = facilitators(Vec::new()).await;
    // Answered by a facilitator: the listing could not be read, exit 1.
    let (code, out, err) = scan(&[&format!("{facilitator}/challenge")]).await;
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (1, "", format!("x402-verdict: could not read the listing: {facilitator}/challenge/discovery/resources?limit=100&offset=0: {NOT_A_LISTING}\n").as_str())
    );
    // Saved (a 402 body, v2 or v1): bad input, exit 2, nothing looked up.
    let dir = scratch("challenge");
    let mut v1 = challenge();
    v1["x402Version"] = json!(1);
    v1.as_object_mut().unwrap().remove("resource");
    for (name, saved) in [("v2.json", challenge()), ("v1.json", v1)] {
        let path = dir.join(name);
        std::fs::write(&path, saved.to_string()).unwrap();
        let (code, out, err) = scan(&["--from-file", path.to_str().unwrap()]).await;
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (
                2,
                "",
                format!("x402-verdict: {}: {NOT_A_LISTING}\n", path.display()).as_str()
            )
        );
    }
}

#[tokio::test]
async fn ctrl_c_stops_after_the_lines_already_printed() {
    // A service that answers the first two endpoints and never the third.
    let app = Router::new().route(
        "/v0/verdict",
        get(|RawQuery(query): RawQuery| async move {
            if !query.unwrap_or_default().contains("item%2F2") {
                return StatusCode::NOT_FOUND.into_response();
            }
            tokio::time::sleep(Duration::from_secs(120)).await;
            StatusCode::NOT_FOUND.into_response()
        }),
    );
    let service = serve_app(app).await;
    let (facilitator, _) = facilitators((0..50).map(numbered).collect()).await;
    let good = format!("{facilitator}/good");
    let args = [
        "scan",
        &good,
        "--base-url",
        &service,
        "--timeout-ms",
        "60000",
    ];
    let (code, stdout, stderr) = interrupted(
        &[&args[..], &["--concurrency", "4"]].concat(),
        Duration::from_millis(1500),
    )
    .await;
    assert_eq!(code, 130, "{stderr}");
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert_eq!(
        stderr,
        "x402-verdict: interrupted: 2 of 50 endpoints looked up\n"
    );
}

#[tokio::test]
async fn progress_goes_to_a_terminal_only() {
    let (facilitator, _) = facilitators((0..30).map(numbered).collect()).await;
    let command = format!("{BIN} scan {facilitator}/good 2>&1 >/dev/null");
    // `script` runs it on a pseudo-terminal (bsdutils, on every Debian machine).
    let out = tokio::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .await
        .unwrap();
    let seen = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{seen}");
    assert!(
        seen.contains("\r1/30") && seen.contains("\r30/30"),
        "{seen:?}"
    );
    // Redirected (the other tests): nothing on stderr but what must be said.
    let (code, _, err) = scan(&[&format!("{facilitator}/good")]).await;
    assert_eq!((code, err.as_str()), (0, ""));
}

#[test]
fn a_reader_that_goes_away_ends_the_scan_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    // A saved page of 1,000 items, looked up at a closed port: some 300 KB of
    // lines, more than a pipe holds, so the command is still writing when
    // its reader (`| head -n 1`) has gone.
    let dir = scratch("closed-pipe");
    let items: Vec<Value> = (0..1000).map(numbered).collect();
    let paging = Paging {
        limit: 1000,
        offset: 0,
    };
    let saved = dir.join("listing.json");
    std::fs::write(&saved, page_of(&items, &paging, 1000).to_string()).unwrap();
    let mut child = Command::new(BIN)
        .args(["scan", "--from-file", saved.to_str().unwrap()])
        .args(["--base-url", "http://127.0.0.1:9", "--timeout-ms", "1000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("item/"), "{first}");
    // The reader goes away.
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(output.status.code(), Some(0), "{err}");
}
