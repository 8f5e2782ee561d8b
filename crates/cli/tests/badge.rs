//! The badge where no script runs, through the real service on loopback:
//! the image badge (`/v0/badge.svg`) in each state and style, its headers,
//! its 400; shields.io's endpoint (`/v0/badge.json`); the page an image
//! links to (`/v0/endpoint`); `check --badge` on a served, a tampered and a
//! swapped image; and `snippet`.

mod support;

use reqwest::header::{
    HeaderMap, CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, IF_NONE_MATCH,
};
use serde_json::Value;
use support::*;

/// The query of `resource` (under [`R`]) with `extra` after it.
fn query(resource: &str, extra: &str) -> String {
    let mut url = reqwest::Url::parse("http://x/").unwrap();
    url.query_pairs_mut()
        .append_pair("chain", CHAIN)
        .append_pair("payTo", PAY_TO)
        .append_pair("resourceUrl", &format!("{R}{resource}"));
    format!("{}{extra}", url.query().unwrap())
}

async fn get(url: &str) -> (u16, HeaderMap, String) {
    let answer = reqwest::get(url).await.unwrap();
    let (status, headers) = (answer.status().as_u16(), answer.headers().clone());
    (status, headers, answer.text().await.unwrap())
}

fn header(headers: &HeaderMap, name: impl reqwest::header::AsHeaderName) -> &str {
    headers.get(name).map(|v| v.to_str().unwrap()).unwrap_or("")
}

/// `check --badge SOURCE --json` trusting `key`: (about, result).
async fn check_badge(source: &str, key: &str) -> (Value, Value) {
    let (code, out, err) = run(&["check", "--badge", source, "--public-key", key, "--json"]).await;
    assert_eq!(code, 0, "{err}");
    let out: Value = serde_json::from_str(&out).unwrap();
    (out["about"].clone(), out["result"].clone())
}

#[tokio::test]
async fn the_image_badge_in_each_state_and_style() {
    let (_dir, key, service) = start_demo().await;
    let cases = [
        ("good", "✓ verified · G", "human-backed"),
        ("revoked", "✕ not verified", "revoked"),
        ("stale", "? unknown", "unknown"),
        ("unlisted", "? unknown", "unknown"),
    ];
    for (resource, words, state) in cases {
        for style in [
            "",
            "&style=flat",
            "&style=flat-square",
            "&style=for-the-badge",
        ] {
            let url = format!("{}/v0/badge.svg?{}", service.url, query(resource, style));
            let (status, headers, svg) = get(&url).await;
            assert_eq!(status, 200, "{url}");
            assert_eq!(header(&headers, CONTENT_TYPE), "image/svg+xml");
            assert_eq!(header(&headers, "x-content-type-options"), "nosniff");
            let policy = header(&headers, CONTENT_SECURITY_POLICY);
            assert!(
                policy.starts_with("default-src 'none'; style-src 'sha256-")
                    && policy.ends_with("; sandbox"),
                "{policy}"
            );
            let cache = header(&headers, CACHE_CONTROL);
            let max_age: u32 = cache
                .split("max-age=")
                .nth(1)
                .unwrap()
                .split(',')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!(max_age <= 300, "{cache}");
            assert!(svg.len() <= 4096, "{} bytes", svg.len());
            let shown = if style.ends_with("for-the-badge") {
                words.to_uppercase()
            } else {
                words.to_owned()
            };
            assert!(svg.contains(&format!(">{shown}</text>")), "{svg}");
            // The same answer again is not sent again.
            let again = reqwest::Client::new()
                .get(&url)
                .header(IF_NONE_MATCH, header(&headers, ETAG))
                .send()
                .await
                .unwrap();
            assert!(matches!(again.status().as_u16(), 200 | 304));
        }
        // It carries the verdict the verdict route answers, and reads as it.
        let url = format!("{}/v0/badge.svg?{}", service.url, query(resource, ""));
        let (about, result) = check_badge(&url, &key).await;
        assert_eq!(result["state"], state, "{resource}: {result}");
        if resource != "unlisted" {
            assert_eq!(about["resourceUrl"], format!("{R}{resource}"));
            assert_eq!(about["payTo"], PAY_TO);
        }
    }
    let good = format!("{}/v0/badge.svg?{}", service.url, query("good", ""));
    let (_, result) = check_badge(&good, &key).await;
    assert_eq!(result["signature"], "valid");
}

#[tokio::test]
async fn a_bad_query_is_a_400_image_that_says_why() {
    let (_dir, _key, service) = start_demo().await;
    let (status, headers, svg) = get(&format!("{}/v0/badge.svg?chain=base", service.url)).await;
    assert_eq!(status, 400);
    assert_eq!(header(&headers, CONTENT_TYPE), "image/svg+xml");
    assert!(
        svg.contains("? unknown") && svg.contains("missing query parameter payTo"),
        "{svg}"
    );
    let (status, _, svg) = get(&format!(
        "{}/v0/badge.svg?{}",
        service.url,
        query("good", "&style=plastic")
    ))
    .await;
    assert_eq!(status, 400);
    assert!(
        svg.contains("query parameter style must be flat, flat-square or for-the-badge"),
        "{svg}"
    );
    let (status, _, body) = get(&format!("{}/v0/badge.json?chain=base", service.url)).await;
    assert_eq!(status, 400);
    assert_eq!(body, r#"{"error":"missing query parameter payTo"}"#);
}

#[tokio::test]
async fn check_badge_refuses_a_tampered_or_swapped_image() {
    let (dir, key, service) = start_demo().await;
    let svg = |resource: &'static str| {
        let url = format!("{}/v0/badge.svg?{}", service.url, query(resource, ""));
        async move { get(&url).await.2 }
    };
    let (good, revoked) = (svg("good").await, svg("revoked").await);
    let save = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    // The served file reads valid.
    let (_, result) = check_badge(&save("good.svg", &good), &key).await;
    assert_eq!(
        (result["state"].as_str(), result["signature"].as_str()),
        (Some("human-backed"), Some("valid"))
    );
    // Its verdict edited.
    let tampered = good
        .replace(
            "assuranceLevel&quot;:&quot;G",
            "assuranceLevel&quot;:&quot;A",
        )
        .replace("\"assuranceLevel\":\"G", "\"assuranceLevel\":\"A");
    assert_ne!(tampered, good);
    let (_, result) = check_badge(&save("tampered.svg", &tampered), &key).await;
    assert_eq!(result["state"], "unknown", "{result}");
    // The verified picture carrying the revoked endpoint's verdict.
    let metadata = |svg: &str| {
        svg[svg.find("<metadata").unwrap()..svg.find("</metadata>").unwrap()].to_owned()
    };
    let swapped = good.replace(&metadata(&good), &metadata(&revoked));
    let (about, result) = check_badge(&save("swapped.svg", &swapped), &key).await;
    assert_eq!(result["state"], "unknown", "{result}");
    assert!(
        result["detail"]
            .as_str()
            .unwrap()
            .contains("another picture"),
        "{result}"
    );
    assert_eq!(about["resourceUrl"], Value::Null);
    // Under a key that did not sign it.
    let other = keygen(&dir.join("stranger.json"), false).await;
    let (_, result) = check_badge(&save("good2.svg", &good), &other).await;
    assert_eq!(result["state"], "unknown", "{result}");
    // Without a key: refused.
    let (code, _, err) = run(&["check", "--badge", &save("good3.svg", &good)]).await;
    assert_eq!(code, 2);
    assert_eq!(err.trim(), "x402-verdict: --badge needs --public-key or --root-key: an image badge is checked under the keys you trust");
}

#[tokio::test]
async fn the_shields_endpoint_has_exactly_its_schemas_members() {
    let (_dir, _key, service) = start_demo().await;
    for (resource, message) in [
        ("good", "✓ verified · G"),
        ("revoked", "✕ not verified"),
        ("unlisted", "? unknown"),
    ] {
        let (status, headers, body) = get(&format!(
            "{}/v0/badge.json?{}",
            service.url,
            query(resource, "")
        ))
        .await;
        assert_eq!(status, 200);
        assert_eq!(header(&headers, CONTENT_TYPE), "application/json");
        let body: Value = serde_json::from_str(&body).unwrap();
        let mut names: Vec<&String> = body.as_object().unwrap().keys().collect();
        names.sort();
        assert_eq!(
            names,
            ["cacheSeconds", "color", "label", "message", "schemaVersion"]
        );
        assert_eq!(body["schemaVersion"], 1);
        assert_eq!(body["label"], "x402");
        assert_eq!(body["message"], message);
        assert!(body["color"].as_str().unwrap().starts_with('#'));
        assert!(body["cacheSeconds"].as_u64().unwrap() <= 300);
    }
}

#[tokio::test]
async fn the_endpoint_page_says_what_the_verdict_is_about() {
    let (_dir, key, service) = start_demo().await;
    let (status, headers, html) = get(&format!(
        "{}/v0/endpoint?{}",
        service.url,
        query("good", "")
    ))
    .await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, CONTENT_TYPE), "text/html; charset=utf-8");
    assert!(header(&headers, CONTENT_SECURITY_POLICY).starts_with("default-src 'self'"));
    for shown in [
        format!("<dd>{R}good</dd>"),
        format!("<dd>{PAY_TO}</dd>"),
        "<dd>base</dd>".to_owned(),
        "Compare this endpoint with the one you are asked to pay".to_owned(),
        // The operator's name, escaped (the registry's holds markup).
        "<dd>Example Co &lt;script&gt;alert(1)&lt;/script&gt;</dd>".to_owned(),
        "<dt>Assurance</dt><dd>G</dd>".to_owned(),
        "<dt>Re-checked</dt><dd>every 24 hours</dd>".to_owned(),
        "Verification: human-backed; outcome human_backed".to_owned(),
        format!("data-public-key=\"{key}\""),
    ] {
        assert!(html.contains(&shown), "{shown} not in {html}");
    }
    assert!(!html.contains("<script>alert"));
    let (status, _, html) = get(&format!(
        "{}/v0/endpoint?{}",
        service.url,
        query("unlisted", "")
    ))
    .await;
    assert_eq!(status, 200);
    assert!(
        html.contains("No signal: the verification service holds nothing for this endpoint."),
        "{html}"
    );
}

#[tokio::test]
async fn snippets_name_the_badge_of_the_endpoint() {
    let (code, out, err) = run(&[
        "snippet",
        "--base-url",
        "https://verify.example/",
        "--chain",
        "base",
        "--pay-to",
        PAY_TO,
        "--resource-url",
        "https://api.example.com/p(1)?a=b&c=\"d\"",
    ])
    .await;
    assert_eq!(code, 0, "{err}");
    let q = "chain=base&payTo=0x209693Bc6afc0C5328bA36FaF03C514EF312287C&resourceUrl=https%3A%2F%2Fapi.example.com%2Fp%281%29%3Fa%3Db%26c%3D%22d%22";
    assert!(out.contains(&format!("[![x402 verdict](https://verify.example/v0/badge.svg?{q})](https://verify.example/v0/endpoint?{q})")), "{out}");
    assert!(
        out.contains("resource-url=\"https://api.example.com/p(1)?a=b&amp;c=&quot;d&quot;\""),
        "{out}"
    );
    assert!(out.contains("https://img.shields.io/endpoint?url=https%3A%2F%2Fverify.example%2Fv0%2Fbadge.json%3Fchain%3Dbase%26"), "{out}");
    // No key given: the badges pin nothing, and are not strict.
    assert!(!out.contains("strict"), "{out}");
    // The root pinned (as embedders are told to), and a signing key beside it.
    let (root, key) = (
        "UwS8HHj6QEF/XU93+JNNAQfdAFIPN4hjvO+W8mW0mQg=",
        "pCQx4Ank3AUWRo4XNpyeReTlr0a/ROSkfdb21beXmQw=",
    );
    let endpoint = [
        "--base-url",
        "https://v.example",
        "--chain",
        "base",
        "--pay-to",
        PAY_TO,
        "--resource-url",
        "https://a.example/",
    ];
    let (code, out, err) = run(&[&["snippet", "--root-key", root][..], &endpoint].concat()).await;
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!(" data-root-key=\"{root}\" data-strict></span>")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            " root-key=\"{root}\" strict></x402-verdict-badge>"
        )),
        "{out}"
    );
    assert!(!out.contains("public-key"), "{out}");
    let both = [
        &["snippet", "--root-key", root, "--public-key", key][..],
        &endpoint,
    ]
    .concat();
    let (code, out, err) = run(&both).await;
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!(
            " data-root-key=\"{root}\" data-public-key=\"{key}\" data-strict></span>"
        )),
        "{out}"
    );
    let (code, _, err) = run(&[
        "snippet",
        "--base-url",
        "https://v.example",
        "--chain",
        "",
        "--pay-to",
        PAY_TO,
        "--resource-url",
        "https://a.example/",
    ])
    .await;
    assert_eq!(code, 2);
    assert!(err.starts_with("x402-verdict: chain"), "{err}");
}
