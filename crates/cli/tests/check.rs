//! `check` end to end: the demo paid resource of the real service, resources
//! on a loopback server answering 402 in each form (or not at all), and saved
//! challenges; each option looked up at the real service.

mod support;

use std::sync::{Arc, Mutex};

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};
use support::*;
use x402_verdict_core::keys::encode_base64;

const USDC: &str = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const SOLANA: &str = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
const SOLANA_PAY_TO: &str = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";

/// An x402 v2 challenge for the registry's `good` endpoint, named by its
/// CAIP-2 id (the registry lists it under `base`), and an unlisted option.
fn v2_challenge() -> Value {
    json!({
        "x402Version": 2, "error": "PAYMENT-SIGNATURE header is required",
        "resource": {"url": format!("{R}good"), "description": "Good data", "mimeType": "application/json"},
        "accepts": [
            {"scheme": "exact", "network": "eip155:8453", "amount": "10000", "asset": USDC,
             "payTo": PAY_TO, "maxTimeoutSeconds": 60, "extra": {"name": "USD Coin", "version": "2"}},
            {"scheme": "exact", "network": SOLANA, "amount": "10000", "asset": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
             "payTo": SOLANA_PAY_TO, "maxTimeoutSeconds": 60, "extra": {}}
        ]
    })
}

/// The same endpoint as an x402 v1 body.
fn v1_challenge() -> Value {
    json!({
        "x402Version": 1, "error": "X-PAYMENT header is required",
        "accepts": [{"scheme": "exact", "network": "base", "maxAmountRequired": "2500",
                     "resource": format!("{R}good"), "description": "Good data", "mimeType": "application/json",
                     "payTo": PAY_TO.to_lowercase(), "maxTimeoutSeconds": 300, "asset": USDC,
                     "outputSchema": {"input": {"type": "http", "method": "GET"}}, "extra": {"name": "USD Coin", "version": "2"}}]
    })
}

/// The real service with one attestation (`good`, under `base`) and the demo
/// paid resource answering [`v2_challenge`].
async fn service() -> (String, Service) {
    let entry = attestation(&format!("{R}good"), "active", 1, 24 * 30);
    let files = ServiceFiles::new("check", &json!({ "attestations": [entry] }).to_string()).await;
    let paid = files.dir.join("paid.json");
    std::fs::write(&paid, v2_challenge().to_string()).unwrap();
    let options = ["--demo-paid", paid.to_str().unwrap()];
    let service = Service::start_with(&files.registry, &files.keys, &options).await;
    (files.public_key, service)
}

/// A loopback server with a resource for each case; records every request's headers.
async fn resources() -> (String, Arc<Mutex<Vec<HeaderMap>>>) {
    let seen: Arc<Mutex<Vec<HeaderMap>>> = Arc::default();
    let recorded = seen.clone();
    let body = |status: StatusCode, value: String| {
        (status, [(header::CONTENT_TYPE, "application/json")], value).into_response()
    };
    let v1 = v1_challenge().to_string();
    let header = encode_base64(v2_challenge().to_string().as_bytes());
    let mut disagreeing = v2_challenge();
    disagreeing["accepts"][0]["payTo"] = json!("0x0000000000000000000000000000000000000001");
    let disagreeing = disagreeing.to_string();
    let app =
        Router::new()
            .route(
                "/v1",
                get(move |headers: HeaderMap| {
                    recorded.lock().unwrap().push(headers);
                    let v1 = v1.clone();
                    async move { body(StatusCode::PAYMENT_REQUIRED, v1) }
                }),
            )
            .route(
                "/v2-disagreeing",
                get(move || async move {
                    (
                        StatusCode::PAYMENT_REQUIRED,
                        [("Payment-Required", header.clone())],
                        disagreeing.clone(),
                    )
                        .into_response()
                }),
            )
            .route(
                "/broken",
                get(move || async move {
                    body(
                        StatusCode::PAYMENT_REQUIRED,
                        json!({"x402Version": 1, "accepts": [{"network": "base", "resource": "https://a.example/x", "maxAmountRequired": "1"}]}).to_string(),
                    )
                }),
            )
            .route(
                "/html",
                get(|| async {
                    (StatusCode::PAYMENT_REQUIRED, "<html>Pay us</html>").into_response()
                }),
            )
            .route("/free", get(|| async { "free content" }))
            .route(
                "/failing",
                get(|| async { (StatusCode::BAD_GATEWAY, "upstream down").into_response() }),
            )
            .route(
                "/loop",
                get(|| async { (StatusCode::FOUND, [(header::LOCATION, "/loop")]).into_response() }),
            )
            .route(
                "/nowhere",
                get(|| async { StatusCode::TEMPORARY_REDIRECT.into_response() }),
            )
            .route(
                "/not-modified",
                get(|| async { StatusCode::NOT_MODIFIED.into_response() }),
            )
            .route(
                "/stall",
                get(|| async {
                    tokio::time::sleep(std::time::Duration::from_secs(30)).await;
                    "too late"
                }),
            )
            .route(
                "/away",
                get(|| async {
                    (
                        StatusCode::FOUND,
                        [(header::LOCATION, "http://127.0.0.2:9/paid")],
                    )
                        .into_response()
                }),
            )
            .route(
                "/post-only",
                post(move || async move {
                    body(StatusCode::PAYMENT_REQUIRED, v1_challenge().to_string())
                }),
            );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}"), seen)
}

async fn check(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["check"];
    all.extend(args);
    run(&all).await
}

#[tokio::test]
async fn checks_every_option_of_the_demo_paid_resource() {
    let (key, service) = service().await;
    let base = service.url.as_str();
    let paid = format!("{base}/demo/paid");
    let (code, out, err) = check(&[&paid, "--base-url", base, "--public-key", &key]).await;
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with(&format!(
        "network eip155:8453, asset {USDC}, amount 10000, payTo {PAY_TO}, scheme exact, resource {R}good: Verification: human-backed; outcome human_backed;"
    )), "{}", lines[0]);
    assert!(lines[0].ends_with("; signature valid."), "{}", lines[0]);
    assert!(lines[1].starts_with(&format!("network {SOLANA}, asset EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v, amount 10000, payTo {SOLANA_PAY_TO}, ")), "{}", lines[1]);
    assert!(lines[1].ends_with("; reason not_listed."), "{}", lines[1]);

    let (code, out, _) = check(&[
        &paid,
        "--base-url",
        base,
        "--public-key",
        &key,
        "--json",
        "--strict",
    ])
    .await;
    assert_eq!(code, 0);
    let got: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(got["status"], 402);
    assert_eq!(got["x402Version"], 2);
    let first = &got["options"][0];
    assert_eq!(
        (
            &first["chain"],
            &first["payTo"],
            &first["resourceUrl"],
            &first["scheme"],
            &first["asset"],
            &first["amount"]
        ),
        (
            &json!("eip155:8453"),
            &json!(PAY_TO),
            &json!(format!("{R}good")),
            &json!("exact"),
            &json!(USDC),
            &json!("10000")
        )
    );
    assert_eq!(
        (&first["result"]["state"], &first["result"]["signature"]),
        (&json!("human-backed"), &json!("valid"))
    );
    assert_eq!(got["options"][1]["result"]["reason"], "not_listed");
    assert_eq!(got["options"].as_array().unwrap().len(), 2);

    // The demo's header and body, read straight.
    let answer = reqwest::get(&paid).await.unwrap();
    assert_eq!(answer.status(), 402);
    let header = answer.headers()["payment-required"]
        .to_str()
        .unwrap()
        .to_owned();
    let body: Value = answer.json().await.unwrap();
    assert_eq!(body, v2_challenge());
    let (code, from_header, _) = check(&[
        "--header",
        &header,
        "--base-url",
        base,
        "--public-key",
        &key,
    ])
    .await;
    let (_, from_url, _) = check(&[&paid, "--base-url", base, "--public-key", &key]).await;
    assert_eq!((code, from_header), (0, from_url));

    // No base URL: every option is looked up nowhere, and says so.
    let (code, out, _) = check(&[&paid]).await;
    assert_eq!(code, 0);
    assert_eq!(
        out.lines()
            .filter(|l| l.contains("outcome no_service"))
            .count(),
        2,
        "{out}"
    );
}

#[tokio::test]
async fn reads_every_http_form_and_never_pays() {
    let (key, service) = service().await;
    let base = service.url.as_str();
    let (host, seen) = resources().await;
    let with_service = |url: String| {
        let key = key.clone();
        async move { check(&[&url, "--base-url", base, "--public-key", &key]).await }
    };

    // x402 v1 in the body: the lower-case payTo and `base` name the attested endpoint.
    let (code, out, err) = with_service(format!("{host}/v1")).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("network base, asset "), "{out}");
    assert!(
        out.contains(", amount 2500, ") && out.contains("Verification: human-backed;"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 1);
    let headers = seen.lock().unwrap().pop().unwrap();
    for name in ["payment-signature", "x-payment", "authorization", "cookie"] {
        assert!(headers.get(name).is_none(), "sent {name}");
    }
    assert_eq!(headers["accept"], "application/json");

    // A resource that asks with POST only.
    let (code, out, _) = check(&[
        &format!("{host}/post-only"),
        "--method",
        "POST",
        "--base-url",
        base,
    ])
    .await;
    assert_eq!(code, 0);
    assert!(out.contains("network base,"), "{out}");

    // Not 402: one line saying what it answered, no lookup, exit 0.
    for (path, answered) in [
        ("free", "answered HTTP 200"),
        ("nothing-here", "answered HTTP 404"),
    ] {
        let url = format!("{host}/{path}");
        let (code, out, err) = with_service(url.clone()).await;
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(
            out,
            format!(
                "GET {url} {answered}: it asks for no payment, so there is nothing to check.\n"
            )
        );
    }
    // No challenge to read: exit 1, one line saying what happened, nothing
    // on stdout (not "asks for no payment").
    for (path, what) in [
        ("failing", " answered HTTP 502, a server error"),
        (
            "away",
            " answered HTTP 302, a redirect to another origin (http://127.0.0.2:9), not followed",
        ),
        (
            "loop",
            " answered HTTP 302, still redirecting after 5 redirects (a redirect loop)",
        ),
        (
            "nowhere",
            " answered HTTP 307, a redirect without a Location",
        ),
        (
            "not-modified",
            " answered HTTP 304, Not Modified, though nothing conditional was asked",
        ),
        ("stall", ": no complete answer within 800 ms"),
    ] {
        let url = format!("{host}/{path}");
        let (code, out, err) = check(&[&url, "--timeout-ms", "800", "--json"]).await;
        assert_eq!((code, out.as_str()), (1, ""), "{path}: {err}");
        assert_eq!(
            err,
            format!("x402-verdict: could not read a challenge: GET {url}{what}\n")
        );
    }
    let (code, out, _) = check(&[&format!("{host}/free"), "--json"]).await;
    assert_eq!(code, 0);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap(),
        json!({"status": 200, "options": []})
    );

    // A challenge that cannot be read: exit 2, one line naming what is wrong.
    for (path, problem) in [
        ("broken", "answered 402, but no PAYMENT-REQUIRED header, and the body: accepts[0].payTo is missing"),
        ("html", "answered 402, but no PAYMENT-REQUIRED header, and the body: not strict JSON: expected a JSON value at byte 0"),
        ("v2-disagreeing", "answered 402, but the PAYMENT-REQUIRED header and the body disagree (accepts[0])"),
    ] {
        let url = format!("{host}/{path}");
        let (code, out, err) = with_service(url.clone()).await;
        assert_eq!((code, out.as_str()), (2, ""));
        assert_eq!(err, format!("x402-verdict: GET {url} {problem}\n"));
    }
    let (code, _, err) = check(&["ftp://example.com/x"]).await;
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "x402-verdict: ftp://example.com/x: not an absolute http:// or https:// URL\n"
        )
    );
    // A refused connection: exit 1, with the cause under reqwest's words.
    let (code, _, err) = check(&["http://127.0.0.1:9/paid"]).await;
    assert_eq!(code, 1);
    assert!(
        err.starts_with(
            "x402-verdict: could not read a challenge: GET http://127.0.0.1:9/paid: no answer: error sending request"
        ) && err.contains("Connection refused"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

#[tokio::test]
async fn reads_saved_challenges_without_asking_anyone() {
    let (key, service) = service().await;
    let base = service.url.as_str();
    let dir = scratch("saved");
    let save = |name: &str, value: &Value| {
        let path = dir.join(name);
        std::fs::write(&path, value.to_string()).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let mcp_result = json!({
        "content": [{"type": "text", "text": json!({"x402/error": {"code": 402, "message": "Payment required", "data": v2_challenge()}}).to_string()}],
        "isError": true
    });
    for (name, value, lines) in [
        ("v1.json", v1_challenge(), 1),
        ("v2.json", v2_challenge(), 2),
        ("mcp.json", mcp_result, 2),
        (
            "rpc.json",
            json!({"jsonrpc": "2.0", "id": 7, "result": {"structuredContent": v2_challenge(), "isError": true}}),
            2,
        ),
    ] {
        let path = save(name, &value);
        let (code, out, err) = check(&[
            "--from-file",
            &path,
            "--base-url",
            base,
            "--public-key",
            &key,
        ])
        .await;
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(out.lines().count(), lines, "{name}: {out}");
        assert!(
            out.lines()
                .next()
                .unwrap()
                .contains("Verification: human-backed;"),
            "{name}: {out}"
        );
    }
    let ok = save(
        "ok.json",
        &json!({"content": [{"type": "text", "text": "Sunny"}], "isError": false}),
    );
    let (code, out, _) = check(&["--from-file", &ok]).await;
    assert_eq!((code, out), (0, format!("{ok} is a tool result that is not an error: it asks for no payment, so there is nothing to check.\n")));

    let mut many = v1_challenge();
    many["accepts"] = json!(vec![v1_challenge()["accepts"][0].clone(); 33]);
    for (name, value, problem) in [
        (
            "other.json",
            json!({"hello": "world"}),
            "neither an x402 challenge (no x402Version) nor an MCP tool result",
        ),
        ("many.json", many, "accepts lists 33 options, more than 32"),
        (
            "v2-body.json",
            json!({}),
            "the challenge is {}, the body an x402 v2 server sends: its challenge is in the PAYMENT-REQUIRED header: run `x402-verdict check URL`, which reads that header, or pass its value with --header",
        ),
    ] {
        let path = save(name, &value);
        let (code, _, err) = check(&["--from-file", &path]).await;
        assert_eq!(
            (code, err),
            (2, format!("x402-verdict: {path}: {problem}\n"))
        );
    }
    let (code, _, err) = check(&["--header", "not base64!"]).await;
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "x402-verdict: the PAYMENT-REQUIRED header is not base64\n"
        )
    );
    // Exactly one source.
    let (code, _, _) = check(&[]).await;
    assert_eq!(code, 2);
    let (code, _, _) = check(&["http://127.0.0.1:9/", "--header", "e30="]).await;
    assert_eq!(code, 2);
    // A method means nothing without a URL to ask.
    let (code, _, err) = check(&["--header", "e30=", "--method", "POST"]).await;
    assert_eq!(code, 2);
    assert!(err.contains("--method"), "{err}");
    // Read from a file, the JSON has no HTTP status.
    let path = save("v2-again.json", &v2_challenge());
    let (code, out, _) = check(&["--from-file", &path, "--json"]).await;
    assert_eq!(code, 0);
    let got: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((got.get("status"), &got["x402Version"]), (None, &json!(2)));
}

/// [`v2_challenge`] stapling `documents` (the x402 extension `x402-verdict`).
fn stapled(documents: &[Value]) -> Value {
    let mut challenge = v2_challenge();
    challenge["extensions"] = json!({"x402-verdict": {"info": {"verdicts": documents}}});
    challenge
}

/// Each option's result state and where its verdict came from, in `check
/// --json`'s output.
fn states_and_sources(out: &str) -> Vec<(String, String)> {
    let got: Value = serde_json::from_str(out).unwrap();
    let options = got["options"].as_array().unwrap();
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    options
        .iter()
        .map(|o| (text(&o["result"]["state"]), text(&o["verdictFrom"])))
        .collect()
}

#[tokio::test]
async fn takes_the_verdicts_a_challenge_staples() {
    let (key, service) = service().await;
    let base = service.url.as_str();
    let mut url = reqwest::Url::parse(&format!("{base}/v0/verdict")).unwrap();
    let resource = format!("{R}good");
    url.query_pairs_mut()
        .append_pair("chain", "eip155:8453")
        .append_pair("payTo", PAY_TO)
        .append_pair("resourceUrl", &resource);
    let document: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
    let header = |challenge: &Value| encode_base64(challenge.to_string().as_bytes());
    let good = header(&stapled(std::slice::from_ref(&document)));
    let stapled_human_backed = ("human-backed".to_owned(), "stapled".to_owned());

    // The service unreachable: the stapled option reads from its staple,
    // the other is looked up (and gets no answer).
    let nowhere = "http://127.0.0.1:9";
    let args = [
        "--header",
        &good,
        "--base-url",
        nowhere,
        "--public-key",
        &key,
    ];
    let (code, out, err) = check(&[&args[..], &["--json"]].concat()).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        states_and_sources(&out),
        [
            stapled_human_backed.clone(),
            ("unknown".into(), "fetched".into())
        ]
    );
    let got: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(got["options"][0]["result"]["signature"], "valid");
    assert_eq!(got["options"][1]["result"]["reason"], "network_error");
    // The text line is the same as for a fetched verdict.
    let (_, text, _) = check(&args).await;
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("Verification: human-backed;"),
        "{text}"
    );

    // Asked at a resource answering 402 with it, read the same.
    let app = Router::new().route(
        "/paid",
        get(move || async move {
            let header = [("Payment-Required", good.clone())];
            (StatusCode::PAYMENT_REQUIRED, header, "{}").into_response()
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let paid = format!("http://{}/paid", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let (code, out, err) =
        check(&[&paid, "--base-url", nowhere, "--public-key", &key, "--json"]).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(states_and_sources(&out)[0], stapled_human_backed);

    // Saved to a file, read the same.
    let path = scratch("stapled").join("stapled.json");
    std::fs::write(&path, stapled(std::slice::from_ref(&document)).to_string()).unwrap();
    let path = path.to_str().unwrap();
    let (_, out, _) = check(&[
        "--from-file",
        path,
        "--base-url",
        nowhere,
        "--public-key",
        &key,
        "--json",
    ])
    .await;
    assert_eq!(states_and_sources(&out)[0], stapled_human_backed);

    // What cannot stand in is looked up as if nothing were stapled.
    let mut tampered = document.clone();
    tampered["verdict"]["assuranceLevel"] = json!("A+");
    let mut many = vec![json!({}); 32];
    many.push(document.clone());
    for (name, challenge, keys) in [
        (
            "tampered",
            stapled(&[tampered]),
            vec!["--public-key", key.as_str()],
        ),
        (
            "33 documents",
            stapled(&many),
            vec!["--public-key", key.as_str()],
        ),
        (
            "no keys configured",
            stapled(std::slice::from_ref(&document)),
            vec![],
        ),
    ] {
        let value = header(&challenge);
        let args = [
            &["--header", value.as_str(), "--base-url", base, "--json"][..],
            &keys[..],
        ]
        .concat();
        let (code, out, err) = check(&args).await;
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(
            states_and_sources(&out)[0],
            ("human-backed".into(), "fetched".into()),
            "{name}"
        );
    }

    // A staple that makes the challenge larger than a challenge may be: the
    // challenge is refused, with one line.
    let mut large = document.clone();
    large["pad"] = json!("x".repeat(70 * 1024));
    let (code, _, err) = check(&[
        "--header",
        &header(&stapled(&[large])),
        "--base-url",
        nowhere,
    ])
    .await;
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "x402-verdict: the PAYMENT-REQUIRED header is longer than base64 of 64 KiB\n"
        )
    );
}

#[tokio::test]
async fn serve_refuses_a_demo_challenge_it_cannot_send() {
    let ServiceFiles {
        dir,
        keys,
        registry,
        ..
    } = ServiceFiles::new("paid-refused", "{}").await;
    let paid = dir.join("paid.json");
    std::fs::write(&paid, v1_challenge().to_string()).unwrap();
    let (r, k, p) = (
        registry.to_str().unwrap(),
        keys.to_str().unwrap(),
        paid.to_str().unwrap(),
    );
    let mut args = serve_args(r, k);
    args.extend(["--demo-paid", p]);
    let (code, _, err) = run(&args).await;
    assert_eq!((code, err), (2, format!("x402-verdict: {p}: x402Version is not 2 (the PAYMENT-REQUIRED header is x402 v2)\n")));
    let mut bad = v2_challenge();
    bad["accepts"][0]["amount"] = json!("1.5");
    std::fs::write(&paid, bad.to_string()).unwrap();
    let (code, _, err) = run(&args).await;
    assert_eq!(
        (code, err),
        (
            2,
            format!(
                "x402-verdict: {p}: accepts[0].amount is not a whole number in decimal digits\n"
            )
        )
    );
}
