//! `lookup` against a hostile server on loopback: nothing it sends crashes
//! the consumer, every failure is `unknown` with `no_response`.

mod support;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::stream;
use serde_json::{json, Value};
use support::*;

const RESOURCE: &str = "https://api.example.com/premium-data";

async fn hostile(signed_elsewhere: Value) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let json_body = |s: String| ([(header::CONTENT_TYPE, "application/json")], s).into_response();
    let app = Router::new()
        .route("/500/v0/verdict", get(|| async { StatusCode::INTERNAL_SERVER_ERROR }))
        .route("/garbage/v0/verdict", get(|| async { "\u{0}\u{1}not json {{{" }))
        .route("/huge/v0/verdict", get(|| async { vec![b' '; 10 << 20] }))
        .route("/huge-chunked/v0/verdict", get(|| async {
            let chunks = (0..160).map(|_| Ok::<_, std::io::Error>(vec![b' '; 64 << 10]));
            Body::from_stream(stream::iter(chunks))
        }))
        .route("/stall/v0/verdict", get(|| async {
            tokio::time::sleep(Duration::from_secs(30)).await;
            "{}"
        }))
        .route("/stall-body/v0/verdict", get(|| async {
            let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(1);
            tokio::spawn(async move {
                let _ = tx.send(Ok(b"{\"verdict\":".to_vec())).await;
                tokio::time::sleep(Duration::from_secs(30)).await;
                drop(tx);
            });
            Response::new(Body::from_stream(stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|item| (item, rx)) })))
        }))
        .route("/dup/v0/verdict", get(move || async move {
            json_body(r#"{"verdict":{"v":1,"v":1},"signature":"AA=="}"#.to_owned())
        }))
        .route("/deep/v0/verdict", get(move || async move { json_body("[".repeat(20_000)) }))
        .route("/types/v0/verdict", get(move || async move {
            json_body(json!({"verdict": {"v": 1, "chain": ["<script>"], "payTo": PAY_TO, "resourceUrl": RESOURCE}}).to_string())
        }))
        .route("/mismatch/v0/verdict", get(move || async move { json_body(signed_elsewhere.to_string()) }))
        .route("/redirect/v0/verdict", get(|| async {
            (StatusCode::FOUND, [(header::LOCATION, "http://127.0.0.2:9/v0/verdict")]).into_response()
        }))
        // `/hops/{n}` redirects within the origin n times, then answers 404.
        .route("/hops/{n}/v0/verdict", get(|Path(n): Path<u32>| async move {
            match n {
                0 => StatusCode::NOT_FOUND.into_response(),
                n => (StatusCode::FOUND, [(header::LOCATION, format!("/hops/{}/v0/verdict", n - 1))]).into_response(),
            }
        }))
        .route("/not-modified/v0/verdict", get(|| async { StatusCode::NOT_MODIFIED }))
        .route("/multiple/v0/verdict", get(|| async {
            (StatusCode::MULTIPLE_CHOICES, [(header::LOCATION, "/hops/0/v0/verdict")]).into_response()
        }))
        .route("/no-location/v0/verdict", get(|| async { StatusCode::MOVED_PERMANENTLY }));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

#[tokio::test]
async fn every_hostile_answer_is_unknown_no_response() {
    let dir = scratch("hostile");
    let keys = dir.join("keys.json");
    let key = keygen(&keys, false).await;
    let elsewhere = sign(&keys, &json!({
        "v": 1, "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": "https://api.example.com/another",
        "outcome": "human_backed", "assuranceLevel": "G", "verifiedAt": hours_from_now(-1), "recheckEveryHours": 24,
    })).await;
    let host = hostile(elsewhere).await;
    let cases = [
        ("500", "http_status"),
        ("garbage", "malformed"),
        ("huge", "too_large"),
        ("huge-chunked", "too_large"),
        ("stall", "timeout"),
        ("stall-body", "timeout"),
        ("dup", "malformed"),
        ("deep", "malformed"),
        ("types", "malformed"),
        ("mismatch", "endpoint_mismatch"),
        ("redirect", "redirected"),
    ];
    for (path, reason) in cases {
        let started = Instant::now();
        let v = lookup(
            &format!("{host}/{path}"),
            RESOURCE,
            &[&key],
            &["--timeout-ms", "800"],
        )
        .await;
        let elapsed = started.elapsed();
        assert_eq!(
            (
                v["state"].as_str(),
                v["outcome"].as_str(),
                v["reason"].as_str()
            ),
            (Some("unknown"), Some("no_response"), Some(reason)),
            "{path}: {v}"
        );
        assert_eq!(
            (v["freshness"].as_str(), v["signature"].as_str()),
            (Some("unknown"), Some("not_checked")),
            "{path}"
        );
        assert!(
            elapsed < Duration::from_millis(2500),
            "{path} took {elapsed:?}"
        );
    }
}

#[tokio::test]
async fn same_origin_redirects_are_followed_five_times_and_a_final_3xx_is_a_status() {
    let dir = scratch("redirects");
    let key = keygen(&dir.join("keys.json"), false).await;
    let host = hostile(json!({})).await;
    for (path, outcome, reason) in [
        ("hops/5", "no_signal", "not_listed"),
        ("hops/6", "no_response", "redirected"),
        ("not-modified", "no_response", "http_status"),
        ("multiple", "no_response", "http_status"),
        ("no-location", "no_response", "http_status"),
    ] {
        let v = lookup(&format!("{host}/{path}"), RESOURCE, &[&key], &[]).await;
        assert_eq!(
            (v["outcome"].as_str(), v["reason"].as_str()),
            (Some(outcome), Some(reason)),
            "{path}: {v}"
        );
    }
}
