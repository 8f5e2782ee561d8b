//! Published metrics through the real service on loopback: figures from a
//! registry with a known history, verdict counts across restarts and
//! month boundaries (pinned clock), the data folder's checks, and the
//! `metrics snapshot` and `metrics page` commands.

mod support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};
use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use x402_verdict_core::json::{ParseError, ParseErrorKind};
use x402_verdict_core::{BaseUrl, Endpoint};
use x402_verdict_metrics::{MemberPath, MetricsError, MetricsRule, PublishedMetrics};

const SELLER: &str = "Seller Co <b>";

/// One attestation with a history; `revoked_at` only with status revoked.
fn entry(
    name: &str,
    attested: &str,
    related: bool,
    renew_by: &str,
    revoked: Option<Option<&str>>,
) -> Value {
    let mut e = json!({
        "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": format!("{R}{name}"),
        "operator": SELLER, "relatedParty": related, "assuranceLevel": "G",
        "status": if revoked.is_some() { "revoked" } else { "active" },
        "attestedAt": attested, "lastRecheckedAt": attested, "recheckEveryHours": 24,
        "renewBy": renew_by,
    });
    if let Some(Some(at)) = revoked {
        e["revokedAt"] = json!(at);
    }
    e
}

/// A: related, May. B: independent, the last second of May. C: related, the
/// first second of June, withdrawn on the first second of August. D:
/// independent, June, lapsed on 20 August. E: revoked, date unknown (never
/// counted as standing). F: attested in the current month (never shown).
fn history() -> Value {
    json!({ "attestations": [
        entry("a", "2026-05-10T09:00:00Z", true, "2027-05-10T00:00:00Z", None),
        entry("b", "2026-05-31T23:59:59Z", false, "2027-05-31T00:00:00Z", None),
        entry("c", "2026-06-01T00:00:00Z", true, "2027-06-01T00:00:00Z", Some(Some("2026-08-01T00:00:00Z"))),
        entry("d", "2026-06-15T00:00:00Z", false, "2026-08-20T00:00:00Z", None),
        entry("e", "2026-07-02T00:00:00Z", false, "2027-07-02T00:00:00Z", Some(None)),
        entry("f", "2026-09-03T00:00:00Z", false, "2027-09-03T00:00:00Z", None),
    ] })
}

const DISCLOSURE: &str = "The operator runs a related-party pilot <script>alert(1)</script>.";

struct Setup {
    dir: PathBuf,
    registry: PathBuf,
    keys: PathBuf,
    operator: PathBuf,
}

impl Setup {
    async fn new(registry: &Value) -> Setup {
        Setup::new_in(scratch("metrics"), registry).await
    }

    /// The files in `dir`.
    async fn new_in(dir: PathBuf, registry: &Value) -> Setup {
        let ServiceFiles {
            dir,
            keys,
            registry: path,
            ..
        } = ServiceFiles::new_in(dir, &registry.to_string()).await;
        let operator = dir.join("operator.json");
        std::fs::write(
            &operator,
            json!({ "operator": "Example operator", "relatedParty": true, "disclosure": DISCLOSURE })
                .to_string(),
        )
        .unwrap();
        Setup {
            dir,
            registry: path,
            keys,
            operator,
        }
    }

    fn data(&self) -> String {
        self.dir.join("data").display().to_string()
    }

    /// The service with the operator file and the data folder, its clock pinned to `now`.
    async fn start(&self, now: &str) -> Service {
        let operator = self.operator.display().to_string();
        let data = self.data();
        Service::start_with(
            &self.registry,
            &self.keys,
            &[
                "--operator",
                operator.as_str(),
                "--data",
                data.as_str(),
                "--now",
                now,
            ],
        )
        .await
    }

    /// `serve` that must refuse to start: its exit code and stderr.
    async fn refused(&self, extra: &[&str]) -> (i32, String) {
        let (registry, keys) = (
            self.registry.display().to_string(),
            self.keys.display().to_string(),
        );
        let mut args = serve_args(&registry, &keys);
        args.extend(extra);
        let (code, _, err) = run(&args).await;
        (code, err)
    }
}

/// Asks for `name` `n` times; returns the statuses.
async fn ask(base: &str, name: &str, n: usize) -> Vec<u16> {
    let url = BaseUrl::parse(base)
        .unwrap()
        .verdict_url(&Endpoint::new(CHAIN, PAY_TO, &format!("{R}{name}")).unwrap());
    let mut statuses = Vec::new();
    for _ in 0..n {
        statuses.push(reqwest::get(&url).await.unwrap().status().as_u16());
    }
    statuses
}

async fn metrics(base: &str) -> (reqwest::header::HeaderMap, String) {
    let response = reqwest::get(format!("{base}/v0/metrics")).await.unwrap();
    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    (headers, response.text().await.unwrap())
}

#[tokio::test]
async fn figures_match_the_hand_computed_history_and_counts_survive_restarts() {
    let setup = Setup::new(&history()).await;
    // June: two found, one not listed (all counted), one bad query (not
    // counted); then SIGTERM well within the second: the shutdown flush saves them.
    let s = setup.start("2026-06-20T10:00:00Z").await;
    assert_eq!(ask(&s.url, "a", 2).await, [200, 200]);
    assert_eq!(ask(&s.url, "unlisted", 1).await, [404]);
    let bad = reqwest::get(format!("{}/v0/verdict?chain=base", s.url))
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    s.stop_with("TERM").await;
    // The last second of July, then Ctrl-C (SIGINT).
    let s = setup.start("2026-07-31T23:59:59Z").await;
    assert_eq!(ask(&s.url, "c", 2).await, [200, 200]);
    s.stop_with("INT").await;
    // The first second of August; the periodic flush saves the counts before a crash (SIGKILL).
    let s = setup.start("2026-08-01T00:00:00Z").await;
    assert_eq!(ask(&s.url, "e", 4).await, [200; 4]);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    s.stop_with("KILL").await;
    // September: the current month, counted but never shown.
    let s = setup.start("2026-09-15T12:00:00Z").await;
    ask(&s.url, "b", 1).await;
    let (headers, body) = metrics(&s.url).await;
    assert_eq!(headers["access-control-allow-origin"], "*");
    assert_eq!(headers["cache-control"], "public, max-age=3600");
    assert_eq!(headers["content-type"], "application/json");
    let related = |id: &str, discipline: &str, points: Value| json!({ "id": id, "discipline": discipline, "relatedParty": true, "available": true, "points": points });
    let document: Value = serde_json::from_str(&body).unwrap();
    let unavailable = |i: usize| document["series"][i]["unavailableReason"].clone();
    assert_eq!(
        document,
        json!({
            "schema": "published-metrics/v1",
            "asOf": "2026-08-31",
            "period": { "from": "2026-05", "to": "2026-08" },
            "relatedParty": true,
            "operator": { "operator": "Example operator", "relatedParty": true, "disclosure": DISCLOSURE },
            "series": [
                related("sellers_attested", "registry-based", json!([
                    { "period": "2026-05", "cumulative": 2, "active": 2, "independent": 1 },
                    { "period": "2026-06", "cumulative": 4, "active": 4, "independent": 2 },
                    { "period": "2026-07", "cumulative": 5, "active": 4, "independent": 2 },
                    { "period": "2026-08", "cumulative": 5, "active": 2, "independent": 1 },
                ])),
                related("retention_90d", "registry-based", json!([
                    { "period": "2026-05", "eligible": 0, "retained": 0, "ratio": null },
                    { "period": "2026-06", "eligible": 0, "retained": 0, "ratio": null },
                    { "period": "2026-07", "eligible": 0, "retained": 0, "ratio": null },
                    { "period": "2026-08", "eligible": 3, "retained": 2, "ratio": 0.6667 },
                ])),
                // Counting started in June: May has no point.
                related("verifications_free_path", "aggregate", json!([
                    { "period": "2026-06", "verdicts": 3 },
                    { "period": "2026-07", "verdicts": 2 },
                    { "period": "2026-08", "verdicts": 4 },
                ])),
                { "id": "independent_verifiers", "discipline": "aggregate", "relatedParty": true,
                  "available": false, "unavailableReason": unavailable(3), "points": [] },
                { "id": "revenue", "discipline": "context", "relatedParty": true,
                  "available": false, "unavailableReason": unavailable(4), "points": [] },
            ]
        })
    );
    assert!(
        unavailable(3).as_str().unwrap().len() > 20 && unavailable(4).as_str().unwrap().len() > 20
    );
    // No identifier: no payTo, no resource URL, no seller's name.
    for secret in [
        PAY_TO,
        &PAY_TO.to_lowercase(),
        "api.example.com",
        "Seller Co",
        "0x",
    ] {
        assert!(!body.contains(secret), "{secret} appears in {body}");
    }
    assert!(
        PublishedMetrics::parse(body.as_bytes()).is_ok(),
        "the core's reader accepts it"
    );
    s.stop_with("TERM").await;
}

#[tokio::test]
async fn nothing_to_publish_without_a_complete_month_and_no_counts_without_data() {
    let setup = Setup::new(&json!({ "attestations": [
        entry("a", "2026-09-01T00:00:00Z", true, "2027-05-10T00:00:00Z", None) ] }))
    .await;
    let operator = setup.operator.display().to_string();
    let s = Service::start_with(
        &setup.registry,
        &setup.keys,
        &[
            "--operator",
            operator.as_str(),
            "--now",
            "2026-09-30T23:59:59Z",
        ],
    )
    .await;
    let (_, body) = metrics(&s.url).await;
    let document: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(document["asOf"], "2026-08-31");
    assert_eq!(document["period"], Value::Null);
    assert_eq!(document["series"][0]["points"], json!([]));
    assert_eq!(document["series"][2]["available"], false);
    assert!(document["series"][2]["unavailableReason"]
        .as_str()
        .unwrap()
        .contains("--data"));
    assert!(PublishedMetrics::parse(body.as_bytes())
        .unwrap()
        .period
        .is_none());
    s.stop_with("TERM").await;
    // Without an operator file, no metrics are published.
    let s = Service::start(&setup.registry, &setup.keys).await;
    let response = reqwest::get(format!("{}/v0/metrics", s.url)).await.unwrap();
    assert_eq!(response.status(), 404);
    s.stop_with("TERM").await;
}

#[tokio::test]
async fn a_corrupt_or_unusable_data_folder_or_operator_file_refuses_start() {
    let setup = Setup::new(&history()).await;
    let one_line = |code: i32, err: &str, expected: &str| {
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(expected), "{expected} not in {err}");
    };
    let data = setup.dir.join("corrupt");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("verdict-counts.sqlite3"), vec![0x5a; 8192]).unwrap();
    let (code, err) = setup.refused(&["--data", data.to_str().unwrap()]).await;
    one_line(code, &err, "verdict-counts.sqlite3: file is not a database");
    // A database file that cannot be opened for writing (a folder in its place).
    let data = setup.dir.join("unwritable");
    std::fs::create_dir_all(data.join("verdict-counts.sqlite3")).unwrap();
    let (code, err) = setup.refused(&["--data", data.to_str().unwrap()]).await;
    one_line(
        code,
        &err,
        "verdict-counts.sqlite3: unable to open database file",
    );
    let (code, err) = setup
        .refused(&["--data", setup.registry.to_str().unwrap()])
        .await;
    one_line(code, &err, "registry.json: not a folder");
    let bad = setup.dir.join("bad-operator.json");
    std::fs::write(&bad, r#"{"operator":"Op","relatedParty":true}"#).unwrap();
    let (code, err) = setup.refused(&["--operator", bad.to_str().unwrap()]).await;
    one_line(code, &err, "bad-operator.json: missing field `disclosure`");
    let (code, err) = setup.refused(&["--now", "yesterday"]).await;
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("invalid value 'yesterday' for '--now <NOW>': is not an RFC 3339 UTC time"),
        "{err}"
    );
    // The database the refused starts found is still as it was.
    assert_eq!(
        std::fs::read(setup.dir.join("corrupt/verdict-counts.sqlite3")).unwrap(),
        vec![0x5a; 8192]
    );
}

#[tokio::test]
async fn an_unwritable_data_folder_refuses_start_even_within_the_same_second() {
    // Another user runs the command on these files: they are where it can reach them.
    let reachable = ReachableFolder::new("metrics");
    let setup = Setup::new_in(reachable.0.clone(), &history()).await;
    for readable in [&setup.registry, &setup.operator] {
        std::fs::set_permissions(
            readable,
            std::os::unix::fs::PermissionsExt::from_mode(0o644),
        )
        .unwrap();
    }
    let now = "2026-09-10T12:00:00Z";
    setup.start(now).await.stop_with("TERM").await;
    // The folder made unwritable (the database file itself still is), then a
    // start at the same second: `lastStart` would be written unchanged.
    let data = setup.dir.join("data");
    for path in [&data, &data.join("verdict-counts.sqlite3"), &setup.keys] {
        give_to_another_user(path);
    }
    std::fs::set_permissions(&data, std::os::unix::fs::PermissionsExt::from_mode(0o555)).unwrap();
    let (registry, keys, operator) = (
        setup.registry.display().to_string(),
        setup.keys.display().to_string(),
        setup.operator.display().to_string(),
    );
    let data_arg = setup.data();
    // A start that got past the check would serve until stopped.
    let mut args = serve_args(&registry, &keys);
    args.extend(["--operator", &operator, "--data", &data_arg, "--now", now]);
    let refused = run_as_another_user(&args);
    let (code, out, err) = tokio::time::timeout(Duration::from_secs(60), refused)
        .await
        .expect("the service started on an unwritable data folder");
    assert_eq!(
        (code, out.as_str(), err.lines().count()),
        (2, "", 1),
        "{err}"
    );
    assert!(
        err.contains("verdict-counts.sqlite3: not writable"),
        "{err}"
    );
    // An empty database file is not taken for a fresh one.
    let empty = setup.dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let file = empty.join("verdict-counts.sqlite3");
    std::fs::write(&file, "").unwrap();
    let (code, err) = setup.refused(&["--data", empty.to_str().unwrap()]).await;
    let f = file.display();
    assert_eq!(
        (code, err.trim()),
        (2, format!("x402-verdict: {f}: the file is empty (0 bytes), so not a verdict counts database; restore it, or remove it to count from zero: rm {f}").as_str())
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"", "left as it was");
}

/// A one-shot server answering 200 with `body` to the first request.
async fn serve_once(body: &'static str) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut buffer = [0; 4096];
        let _ = socket.read(&mut buffer).await;
        let response = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = socket.write_all(response.as_bytes()).await;
    });
    url
}

#[tokio::test]
async fn snapshot_is_atomic_and_a_failed_read_loses_nothing() {
    let setup = Setup::new(&history()).await;
    let s = setup.start("2026-09-15T12:00:00Z").await;
    let out_dir = setup.dir.join("snapshots");
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = out_dir.join("metrics.json");
    let out_arg = out.display().to_string();
    let (code, stdout, err) = run(&[
        "metrics",
        "snapshot",
        "--base-url",
        &s.url,
        "--out",
        &out_arg,
    ])
    .await;
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("as of 2026-08-31"), "{stdout}");
    let (_, served) = metrics(&s.url).await;
    let saved = std::fs::read_to_string(&out).unwrap();
    assert_eq!(saved, served, "the snapshot is the document as served");
    s.stop_with("TERM").await;
    // The detail is the core reader's error for the document served.
    let invalid = |body: &str, expected: MetricsError| {
        assert_eq!(
            PublishedMetrics::parse(body.as_bytes()),
            Err(expected.clone())
        );
        format!(
            "the snapshot is unchanged, not a valid published-metrics/v1 document: {}",
            x402_verdict_consumer::error_chain(&expected)
        )
    };
    let (no_as_of, duplicate) = (
        r#"{"schema":"published-metrics/v1"}"#,
        r#"{"schema":"published-metrics/v1","schema":1}"#,
    );
    let failures = [
        (
            "http://127.0.0.1:9".to_owned(),
            "the snapshot is unchanged, unreachable: error sending request: ".to_owned(),
        ),
        (
            serve_once(no_as_of).await,
            invalid(
                no_as_of,
                MetricsError {
                    at: MemberPath::root().member("asOf"),
                    rule: MetricsRule::NotDate,
                },
            ),
        ),
        (
            serve_once(duplicate).await,
            invalid(
                duplicate,
                MetricsError {
                    at: MemberPath::root(),
                    rule: MetricsRule::NotJson(ParseError {
                        kind: ParseErrorKind::DuplicateMemberName,
                        offset: 44,
                    }),
                },
            ),
        ),
    ];
    for (base, detail) in failures {
        let (code, _, err) = run(&[
            "metrics",
            "snapshot",
            "--base-url",
            &base,
            "--out",
            &out_arg,
        ])
        .await;
        assert_ne!(code, 0);
        let (err, expected) = (
            err.trim_end(),
            format!("x402-verdict: {base}/v0/metrics: {detail}"),
        );
        if detail.ends_with(": ") {
            // The HTTP client's words, the system's last (refused).
            assert!(
                err.starts_with(&expected) && err.to_lowercase().contains("refused"),
                "{err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
        } else {
            assert_eq!(err, expected);
        }
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            saved,
            "nothing is lost"
        );
        assert_eq!(
            names_in(&out_dir),
            ["metrics.json"],
            "no temporary file is left"
        );
    }
}

#[tokio::test]
async fn page_writes_nothing_from_a_missing_or_invalid_snapshot() {
    let dir = scratch("page");
    let out = dir.join("site");
    let out_arg = out.display().to_string();
    let missing = dir.join("missing.json");
    let invalid = dir.join("invalid.json");
    std::fs::write(
        &invalid,
        r#"{"schema":"published-metrics/v1","asOf":"2026-08-30"}"#,
    )
    .unwrap();
    let not_last_day = MetricsError {
        at: MemberPath::root().member("asOf"),
        rule: MetricsRule::NotLastDay,
    };
    assert_eq!(
        PublishedMetrics::parse(&std::fs::read(&invalid).unwrap()),
        Err(not_last_day.clone())
    );
    let not_last_day = format!(
        "{}: not a valid published-metrics/v1 document: {not_last_day}",
        invalid.display()
    );
    for (snapshot, expected) in [
        (&missing, "missing.json: No such file"),
        (&invalid, not_last_day.as_str()),
    ] {
        let (code, _, err) = run(&[
            "metrics",
            "page",
            "--snapshot",
            snapshot.to_str().unwrap(),
            "--out",
            &out_arg,
        ])
        .await;
        assert_ne!(code, 0);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(expected), "{err}");
        assert!(!out.exists(), "nothing is written");
    }
}

#[tokio::test]
async fn the_committed_demo_snapshot_makes_a_self_contained_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = scratch("demo-page");
    let (code, _, err) = run(&[
        "metrics",
        "page",
        "--snapshot",
        root.join("demo/metrics/snapshot.json").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
    .await;
    assert_eq!(code, 0, "{err}");
    assert!(out.join("metrics.css").is_file());
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        !page.contains("<script") && !page.contains("style=") && !page.contains("http"),
        "no script, inline style or external resource"
    );
}
