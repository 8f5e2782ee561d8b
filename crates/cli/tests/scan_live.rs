//! `scan --live` against loopback sellers and a fake facilitator: every
//! row kind (live, changed, not-402, unreachable) read as `check` reads a
//! 402, the bait-and-switch and its exit code, a redirect to another
//! origin, a 402 with garbage, terminal escapes in a live 402, the
//! politeness (per origin, its delay, the User-Agent), a slow origin beside
//! fast ones, and 10,000 resources on 500 origins at bounded memory.

mod support;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};
use support::*;
use x402_verdict_core::keys::encode_base64;

const USDC: &str = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const OTHER: &str = "0x1111111111111111111111111111111111111111";
const SOLANA: &str = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
const SOLANA_PAY_TO: &str = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";

/// An accepted option: (network, payTo, amount).
type Terms<'a> = (&'a str, &'a str, &'a str);

fn accepts(options: &[Terms]) -> Vec<Value> {
    options
        .iter()
        .map(|(network, pay_to, amount)| {
            json!({ "scheme": "exact", "network": network, "amount": amount, "asset": USDC,
                    "payTo": pay_to, "maxTimeoutSeconds": 60, "extra": {} })
        })
        .collect()
}

/// The x402 v2 answer of `resource` asking `options`: 402, the challenge in
/// PAYMENT-REQUIRED, `{}` as the body (as `@x402/express` answers).
fn payment_required(resource: &str, options: &[Terms]) -> Response {
    let challenge = json!({ "x402Version": 2, "error": "PAYMENT-SIGNATURE header is required",
        "resource": { "url": resource, "mimeType": "application/json" }, "accepts": accepts(options) });
    let header = encode_base64(challenge.to_string().as_bytes());
    (
        StatusCode::PAYMENT_REQUIRED,
        [("payment-required", header)],
        "{}",
    )
        .into_response()
}

/// A discovery item for `resource` listing `options` (x402 v2).
fn item(resource: &str, options: &[Terms]) -> Value {
    json!({ "resource": resource, "type": "http", "x402Version": 2, "accepts": accepts(options),
            "lastUpdated": "2026-11-30T12:00:00Z" })
}

async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

/// A facilitator listing `items` in pages (`GET /discovery/resources`).
async fn facilitator(items: Vec<Value>) -> String {
    let items = Arc::new(items);
    let app = Router::new().route(
        "/discovery/resources",
        get(
            |RawQuery(q): RawQuery, State(items): State<Arc<Vec<Value>>>| async move {
                let q = q.unwrap_or_default();
                let number = |name: &str, or: usize| {
                    q.split('&')
                        .find_map(|p| p.strip_prefix(name)?.strip_prefix('='))
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(or)
                };
                let (limit, offset) = (number("limit", 100), number("offset", 0));
                let end = (offset + limit).min(items.len());
                let page = &items[offset.min(end)..end];
                axum::Json(json!({ "x402Version": 2, "items": page,
                    "pagination": { "limit": limit, "offset": offset, "total": items.len() } }))
            },
        ),
    );
    serve(app.with_state(items)).await
}

/// What a seller saw: each request's path and headers.
type Seen = Arc<Mutex<Vec<(String, HeaderMap)>>>;

/// A seller with a route per case; its 402s name their resource as asked.
async fn seller() -> (String, Seen) {
    let seen: Seen = Arc::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let at = base.clone();
    let recorded = seen.clone();
    let app = Router::new().route(
        "/{case}",
        get(move |Path(case): Path<String>, headers: HeaderMap| {
            let url = format!("{at}/{case}");
            recorded.lock().unwrap().push((case.clone(), headers));
            async move {
                let backed = ("eip155:8453", PAY_TO, "1000");
                match case.as_str() {
                    "same" | "switched" => {
                        let pay_to = if case == "same" { PAY_TO } else { OTHER };
                        payment_required(&url, &[("eip155:8453", pay_to, "1000")])
                    }
                    "more" => payment_required(&url, &[backed, (SOLANA, SOLANA_PAY_TO, "5")]),
                    "fewer" => payment_required(&url, &[backed]),
                    "free" => "free content".into_response(),
                    "missing" => StatusCode::NOT_FOUND.into_response(),
                    "down" => StatusCode::SERVICE_UNAVAILABLE.into_response(),
                    "garbage" => (StatusCode::PAYMENT_REQUIRED, "<html>\u{1b}[2JPay us</html>")
                        .into_response(),
                    "escape" => {
                        payment_required(&url, &[("eip155:8453", "0x\u{1b}]0;owned\u{7}", "1000")])
                    }
                    "away" => (
                        StatusCode::FOUND,
                        [(header::LOCATION, "http://localhost:9/paid")],
                    )
                        .into_response(),
                    "slow" => {
                        tokio::time::sleep(Duration::from_secs(30)).await;
                        payment_required(&url, &[backed])
                    }
                    _ => StatusCode::NOT_FOUND.into_response(),
                }
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, seen)
}

async fn scan(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["scan"];
    all.extend(args);
    run(&all).await
}

/// The real service attesting `PAY_TO` (on `base`) for each of `resources`.
async fn service_for(resources: &[String]) -> (String, Service) {
    let entries: Vec<Value> = resources
        .iter()
        .map(|r| attestation(r, "active", 1, 24 * 30))
        .collect();
    let registry = json!({ "attestations": entries }).to_string();
    let files = ServiceFiles::new("live", &registry).await;
    let service = Service::start(&files.registry, &files.keys).await;
    (files.public_key, service)
}

#[tokio::test]
async fn every_row_kind_in_text_and_json() {
    let (base, seen) = seller().await;
    let url = |case: &str| format!("{base}/{case}");
    let listed = ("base", PAY_TO, "1000");
    let items = vec![
        // The listing's other spellings of the live terms: one chain, one address.
        item(&url("same"), &[("base", &PAY_TO.to_lowercase(), "01000")]),
        item(&url("switched"), &[listed]),
        item(&url("more"), &[listed]),
        item(&url("fewer"), &[listed, (SOLANA, SOLANA_PAY_TO, "5")]),
        item(&url("free"), &[listed]),
        item(&url("missing"), &[listed]),
        item(&url("down"), &[listed]),
        item(&url("garbage"), &[listed]),
        item(&url("escape"), &[listed]),
        item(&url("away"), &[listed]),
        item("http://127.0.0.1:9/closed", &[listed]),
        item(&url("slow"), &[listed]),
        item("mcp://tools/quote", &[listed]),
        // Listed twice: read once.
        item(&url("same"), &[listed]),
    ];
    let facilitator = facilitator(items).await;
    let attested: Vec<String> = ["same", "switched", "more", "fewer"]
        .iter()
        .map(|c| url(c))
        .collect();
    let (key, service) = service_for(&attested).await;
    let args = [
        facilitator.as_str(),
        "--live",
        "--base-url",
        &service.url,
        "--public-key",
        &key,
        "--timeout-ms",
        "2000",
    ];
    let (code, out, err) = scan(&args).await;
    assert_eq!(code, 3, "a changed resource exits 3: {err}");
    assert_eq!(
        err,
        "x402-verdict: 3 of 13 resources changed since they were listed\n"
    );
    let mut lines: Vec<&str> = out.lines().collect();
    lines.sort_unstable();
    let verified = "Verification: human-backed; outcome human_backed;";
    let unlisted = "Verification: unknown; outcome no_signal; freshness unknown; assurance none; last re-checked never; signature not_checked; reason not_listed.";
    let row = |network: &str, pay_to: &str, case: &str, rest: &str| {
        format!(
            "network {network}, payTo {pay_to}, resource {}: {rest}",
            url(case)
        )
    };
    let mut expected = vec![
        row("eip155:8453", PAY_TO, "same", &format!("live; {verified}")),
        row("eip155:8453", OTHER, "switched", &format!("changed: another payTo (listed {PAY_TO}, now {OTHER}); {unlisted}")),
        row("eip155:8453", PAY_TO, "more", &format!("live; {verified}")),
        row(SOLANA, SOLANA_PAY_TO, "more", &format!("changed: an option added; {unlisted}")),
        row("eip155:8453", PAY_TO, "fewer", &format!("live; {verified}")),
        row(SOLANA, SOLANA_PAY_TO, "fewer", "changed: a listed option gone; no verdict looked up."),
        row("base", PAY_TO, "free", "not-402: answered HTTP 200; no verdict looked up."),
        row("base", PAY_TO, "missing", "not-402: answered HTTP 404; no verdict looked up."),
        row("base", PAY_TO, "down", "not-402: answered HTTP 503, a server error; no verdict looked up."),
        row("base", PAY_TO, "garbage", "not-402: answered 402, but no PAYMENT-REQUIRED header, and the body: not strict JSON: expected a JSON value at byte 0; no verdict looked up."),
        row("base", PAY_TO, "escape", "not-402: answered 402, but the PAYMENT-REQUIRED header: accepts[0].payTo contains a control character; no verdict looked up."),
        row("base", PAY_TO, "away", "unreachable: answered HTTP 302, a redirect to another origin (http://localhost:9), not followed; no verdict looked up."),
        row("base", PAY_TO, "slow", "unreachable: no complete answer within 2000 ms; no verdict looked up."),
        format!("network base, payTo {PAY_TO}, resource mcp://tools/quote: unreachable: not an absolute http:// or https:// URL; no verdict looked up."),
    ];
    // The closed port, in the HTTP client's words.
    let closed = lines
        .iter()
        .position(|l| l.contains("127.0.0.1:9/closed"))
        .map(|i| lines.remove(i))
        .unwrap();
    assert!(
        closed.starts_with(&format!("network base, payTo {PAY_TO}, resource http://127.0.0.1:9/closed: unreachable: no answer: error sending request: "))
            && closed.to_lowercase().contains("refused")
            && closed.ends_with("; no verdict looked up."),
        "{closed}"
    );
    expected.sort_unstable();
    assert_eq!(lines.len(), expected.len(), "{out}");
    for (line, expected) in lines.iter().zip(&expected) {
        if expected.ends_with(verified) {
            assert!(line.starts_with(expected.as_str()), "{line}\n{expected}");
        } else {
            assert_eq!(line, expected);
        }
    }
    assert!(!out.contains('\u{1b}') && !err.contains('\u{1b}'));
    // Each resource asked once, without paying, naming the tool.
    let seen = seen.lock().unwrap().clone();
    let mut asked: Vec<&str> = seen.iter().map(|(case, _)| case.as_str()).collect();
    asked.sort_unstable();
    let mut cases = [
        "same", "switched", "more", "fewer", "free", "missing", "down", "garbage", "escape",
        "away", "slow",
    ];
    cases.sort_unstable();
    assert_eq!(asked, cases);
    for (_, headers) in seen.iter() {
        let agent = headers[header::USER_AGENT].to_str().unwrap();
        assert_eq!(agent, concat!("x402-verdict/", env!("CARGO_PKG_VERSION")));
        for name in ["payment-signature", "x-payment", "cookie", "authorization"] {
            assert!(!headers.contains_key(name), "{name}");
        }
    }

    // The same rows as JSON: the row, and a live option's result.
    let (code, out, _) = scan(&[&args[..], &["--json"]].concat()).await;
    assert_eq!(code, 3);
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 15);
    let of = |case: &str| -> Vec<&Value> {
        rows.iter().filter(|r| r["resource"] == url(case)).collect()
    };
    let switched = of("switched");
    assert_eq!(switched.len(), 1);
    assert_eq!(
        (
            &switched[0]["live"],
            &switched[0]["change"],
            &switched[0]["payTo"],
            &switched[0]["status"]
        ),
        (
            &json!("changed"),
            &json!(["payTo"]),
            &json!(OTHER),
            &json!(402)
        )
    );
    assert_eq!(switched[0]["listed"]["payTo"], PAY_TO);
    assert_eq!(
        switched[0]["result"]["state"], "unknown",
        "the verdict of the live option, never the listed one"
    );
    let fewer = of("fewer");
    assert_eq!(fewer[0]["result"]["state"], "human-backed");
    assert_eq!(fewer[1]["change"], json!(["gone"]));
    assert!(
        fewer[1].get("result").is_none(),
        "a gone option is never looked up"
    );
    let missing = of("missing");
    assert_eq!(
        (&missing[0]["live"], &missing[0]["status"]),
        (&json!("not-402"), &json!(404))
    );
    assert_eq!(missing[0]["note"], "not-402: answered HTTP 404");
    let away = of("away");
    assert_eq!(
        (&away[0]["live"], away[0].get("status")),
        (&json!("unreachable"), None)
    );
}

#[tokio::test]
async fn the_bait_and_switch_exits_3_whatever_else_happens() {
    let (base, _) = seller().await;
    let url = |case: &str| format!("{base}/{case}");
    let listed = ("eip155:8453", PAY_TO, "1000");
    let honest = facilitator(vec![
        item(&url("same"), &[listed]),
        item(&url("missing"), &[listed]),
    ])
    .await;
    let (code, out, err) = scan(&[&honest, "--live"]).await;
    assert_eq!(
        (code, err.as_str()),
        (0, ""),
        "not-402 and live exit 0: {out}"
    );
    let (code, _, err) = scan(&[&honest, "--live", "--json"]).await;
    assert_eq!((code, err.as_str()), (0, ""));

    // A listing whose second page fails after the bait: both said, 3 wins.
    let app = Router::new().route(
        "/discovery/resources",
        get({
            let switched = item(&url("switched"), &[listed]);
            move |RawQuery(q): RawQuery| {
                let switched = switched.clone();
                async move {
                    if q.unwrap_or_default().contains("offset=0") {
                        let page = json!({ "items": [switched], "pagination": { "limit": 1, "offset": 0, "total": 2 } });
                        return axum::Json(page).into_response();
                    }
                    StatusCode::INTERNAL_SERVER_ERROR.into_response()
                }
            }
        }),
    );
    let failing = serve(app).await;
    let (code, out, err) = scan(&[&failing, "--live", "--page-size", "1"]).await;
    assert_eq!(code, 3, "{err}");
    assert!(out.contains(": changed: another payTo"), "{out}");
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        [
            format!("x402-verdict: could not read the listing: {failing}/discovery/resources?limit=1&offset=1: answered HTTP 500"),
            "x402-verdict: 1 of 1 resources changed since they were listed".to_owned(),
        ]
    );
    // Without --live the same listing reads no 402: exit 1.
    let (code, _, _) = scan(&[&failing, "--page-size", "1"]).await;
    assert_eq!(code, 1);
    // The live options alone need --live.
    let (code, _, err) = scan(&[&failing, "--per-origin", "3"]).await;
    assert_eq!(code, 2, "{err}");
}

/// A seller on its own origin counting its requests in flight (the most at
/// once) and the times they started, answering 402 after `delay`.
struct Counted {
    url: String,
    most: Arc<AtomicUsize>,
    starts: Arc<Mutex<Vec<Instant>>>,
}

async fn counted(delay: Duration) -> Counted {
    let now = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let starts: Arc<Mutex<Vec<Instant>>> = Arc::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (n, m, s, at) = (now.clone(), most.clone(), starts.clone(), base.clone());
    let app = Router::new().route(
        "/{i}",
        get(move |Path(i): Path<u32>| {
            let (n, m, s, url) = (n.clone(), m.clone(), s.clone(), format!("{at}/{i}"));
            async move {
                s.lock().unwrap().push(Instant::now());
                m.fetch_max(n.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
                tokio::time::sleep(delay).await;
                n.fetch_sub(1, Ordering::SeqCst);
                payment_required(&url, &[("eip155:8453", PAY_TO, "1000")])
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    Counted {
        url: base,
        most,
        starts,
    }
}

#[tokio::test]
async fn a_slow_origin_holds_only_its_own_share() {
    let slow = counted(Duration::from_millis(2500)).await;
    let mut fast = Vec::new();
    for _ in 0..4 {
        fast.push(counted(Duration::ZERO).await);
    }
    let listed = [("eip155:8453", PAY_TO, "1000")];
    // The slow origin's resources first in the listing.
    let mut items: Vec<Value> = (0..6)
        .map(|i| item(&format!("{}/{i}", slow.url), &listed))
        .collect();
    for i in 0..40 {
        items.push(item(&format!("{}/{i}", fast[i % 4].url), &listed));
    }
    let facilitator = facilitator(items).await;
    let started = Instant::now();
    let (code, out, err) = scan(&[
        &facilitator,
        "--live",
        "--concurrency",
        "8",
        "--timeout-ms",
        "20000",
    ])
    .await;
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 46);
    assert!(
        lines
            .iter()
            .all(|l| l.contains(": live; Verification: unknown; outcome no_service;")),
        "{out}"
    );
    // Every fast resource printed before the first slow one.
    let first_slow = lines.iter().position(|l| l.contains(&slow.url)).unwrap();
    assert_eq!(first_slow, 40, "{out}");
    assert_eq!(
        slow.most.load(Ordering::SeqCst),
        2,
        "--per-origin's default"
    );
    for f in &fast {
        assert!(f.most.load(Ordering::SeqCst) <= 2);
    }
    // Six slow reads, two at a time: three rounds of 2.5 s at least.
    assert!(started.elapsed() >= Duration::from_millis(7500));
}

#[tokio::test]
async fn an_origin_waits_its_delay_between_two_reads() {
    let one = counted(Duration::ZERO).await;
    let listed = [("eip155:8453", PAY_TO, "1000")];
    let items: Vec<Value> = (0..4)
        .map(|i| item(&format!("{}/{i}", one.url), &listed))
        .collect();
    let facilitator = facilitator(items).await;
    let (code, _, err) = scan(&[
        &facilitator,
        "--live",
        "--per-origin",
        "4",
        "--origin-delay-ms",
        "300",
    ])
    .await;
    assert_eq!(code, 0, "{err}");
    let starts = one.starts.lock().unwrap();
    assert_eq!(starts.len(), 4);
    for pair in starts.windows(2) {
        let gap = pair[1] - pair[0];
        // The client's start is 300 ms after the one before; the server's
        // may be a little less late when the one before waited longer.
        assert!(gap >= Duration::from_millis(250), "{gap:?}");
    }
}

/// Peak resident memory (VmHWM) of `pid` while it runs, in KiB.
fn peak_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
        })
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_resources_on_500_origins_at_bounded_memory() {
    let mut origins = Vec::new();
    for _ in 0..500 {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let at = base.clone();
        let app = Router::new().route(
            "/{i}",
            get(move |Path(i): Path<u32>| {
                let url = format!("{at}/{i}");
                async move {
                    // One resource in ten switched.
                    let pay_to = if i % 10 == 3 { OTHER } else { PAY_TO };
                    payment_required(&url, &[("eip155:8453", pay_to, "1000")])
                }
            }),
        );
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        origins.push(base);
    }
    let listed = [("eip155:8453", PAY_TO, "1000")];
    let items: Vec<Value> = (0..10_000)
        .map(|i| item(&format!("{}/{}", origins[i % 500], i / 500), &listed))
        .collect();
    let facilitator = facilitator(items).await;
    let started = Instant::now();
    let child = tokio::process::Command::new(BIN)
        .args([
            "scan",
            &facilitator,
            "--live",
            "--json",
            "--page-size",
            "1000",
            "--concurrency",
            "64",
        ])
        .args(["--timeout-ms", "30000"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let pid = child.id().unwrap();
    let (peak, files) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let sampler = {
        let (peak, files) = (peak.clone(), files.clone());
        tokio::spawn(async move {
            loop {
                peak.fetch_max(peak_kib(pid) as usize, Ordering::SeqCst);
                let open = std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, Iterator::count);
                files.fetch_max(open, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
    };
    let out = tokio::time::timeout(Duration::from_secs(600), child.wait_with_output())
        .await
        .expect("a scan of 10,000 resources ends")
        .unwrap();
    sampler.abort();
    let elapsed = started.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut kinds: HashMap<String, usize> = HashMap::new();
    for line in stdout.lines() {
        let row: Value = serde_json::from_str(line).unwrap();
        *kinds
            .entry(row["live"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    let peak_mib = peak.load(Ordering::SeqCst) as f64 / 1024.0;
    println!(
        "scan --live: 10000 resources on 500 origins in {:.1} s ({:.0} resources/s), peak RSS {peak_mib:.1} MiB, at most {} files open",
        elapsed.as_secs_f64(),
        10_000.0 / elapsed.as_secs_f64(),
        files.load(Ordering::SeqCst)
    );
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(kinds.get("live"), Some(&9000));
    assert_eq!(kinds.get("changed"), Some(&1000));
    assert!(
        peak_mib > 1.0 && peak_mib < 150.0,
        "peak RSS {peak_mib:.1} MiB"
    );
    // Sockets within the reads in flight (64, and as many closing), not
    // one per origin: no idle connection is kept to a seller (a pooled
    // client held 512 files here).
    let most_open = files.load(Ordering::SeqCst);
    assert!(
        (1..=200).contains(&most_open),
        "{most_open} files open at once"
    );
}

#[tokio::test]
async fn ctrl_c_after_a_bait_and_switch_still_exits_3() {
    let (base, _) = seller().await;
    let url = |case: &str| format!("{base}/{case}");
    let listed = [("eip155:8453", PAY_TO, "1000")];
    let items = vec![
        item(&url("same"), &listed),
        item(&url("switched"), &listed),
        item(&url("slow"), &listed),
    ];
    let facilitator = facilitator(items).await;
    let args = ["scan", &facilitator, "--live", "--timeout-ms", "60000"];
    let (code, stdout, stderr) = interrupted(&args, Duration::from_millis(1500)).await;
    assert_eq!(code, 3, "{stderr}");
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert_eq!(
        stderr,
        "x402-verdict: interrupted: 2 of 3 resources read\nx402-verdict: 1 of 3 resources changed since they were listed\n"
    );
}
