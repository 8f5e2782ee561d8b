//! The badge in headless Chromium (wasm-bindgen-test), against the real
//! reference service and a hostile fixture server, both on loopback.
//!
//! Run through `npm test` (scripts/test.sh), which starts both and passes
//! their addresses at compile time.

#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use js_sys::{Date, Reflect, JSON};
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{Element, ShadowRoot};
use x402_verdict_core::json::parse_strict;

wasm_bindgen_test_configure!(run_in_browser);

fn setting(value: Option<&'static str>, name: &str) -> &'static str {
    value.unwrap_or_else(|| panic!("{name} is not set: run the browser tests through `npm test`"))
}

fn service() -> &'static str {
    setting(option_env!("X402_TEST_SERVICE"), "X402_TEST_SERVICE")
}

fn fixtures() -> &'static str {
    setting(option_env!("X402_TEST_FIXTURES"), "X402_TEST_FIXTURES")
}

fn demo() -> Value {
    serde_json::from_str(setting(option_env!("X402_TEST_DEMO"), "X402_TEST_DEMO")).unwrap()
}

/// Options for a demo endpoint against `base`, with `extra` merged in.
fn options(base: &str, endpoint: &str, extra: Value) -> JsValue {
    let demo = demo();
    let e = &demo["endpoints"][endpoint];
    let mut o = json!({
        "baseUrl": base, "chain": e["chain"], "payTo": e["payTo"], "resourceUrl": e["resourceUrl"],
        "publicKey": demo["publicKey"],
    });
    if let (Some(o), Value::Object(extra)) = (o.as_object_mut(), extra) {
        o.extend(extra);
    }
    JSON::parse(&o.to_string()).unwrap()
}

/// `lookupVerdict` as JS uses it: the promise, awaited to its result.
async fn lookup_verdict(options: JsValue) -> JsValue {
    JsFuture::from(x402_verdict_badge::lookup_verdict(options))
        .await
        .expect("lookupVerdict never rejects")
}

/// `renderBadge` as JS uses it: the promise, awaited to the state it resolves to.
async fn render_badge(container: JsValue, options: JsValue) -> String {
    state_of(x402_verdict_badge::render_badge(container, options)).await
}

async fn state_of(promise: js_sys::Promise) -> String {
    let state = JsFuture::from(promise)
        .await
        .expect("renderBadge never rejects");
    state.as_string().expect("a state string")
}

fn container() -> Element {
    let document = web_sys::window().unwrap().document().unwrap();
    let element = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&element).unwrap();
    element
}

/// The badge's parts: (host state, label, hover text, shadow root).
fn parts(container: &Element) -> (String, String, String, ShadowRoot) {
    let host = container.first_element_child().expect("the badge host");
    let root = host.shadow_root().expect("an open shadow root");
    let text = |sel: &str| {
        root.query_selector(sel)
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap()
    };
    (
        host.get_attribute("data-state").unwrap(),
        text(".label"),
        text(".tip"),
        root,
    )
}

#[wasm_bindgen_test]
async fn every_state_reads_in_words_with_its_hover_text() {
    let cases = [
        (
            "verified",
            "human-backed",
            "verified · G",
            &["Last verified", "re-checked every 24 h"][..],
        ),
        (
            "verifiedSolana",
            "human-backed",
            "verified · A+",
            &["Last verified"],
        ),
        (
            "verifiedCaip",
            "human-backed",
            "verified · B",
            &["Last verified"],
        ),
        (
            "revoked",
            "revoked",
            "not verified",
            &["withdrawn", "Last verified"],
        ),
        (
            "lapsed",
            "revoked",
            "not verified",
            &["withdrawn or has lapsed"],
        ),
        (
            "stale",
            "unknown",
            "unknown",
            &["Stale", "re-checked every 24 h"],
        ),
        (
            "noSignal",
            "unknown",
            "unknown",
            &[
                "No signal",
                "Nothing in the payment flow depends on this badge.",
            ],
        ),
        ("tampered", "unknown", "unknown", &["signature failed"]),
        (
            "overdue",
            "unknown",
            "unknown",
            &["Re-check overdue", "every 24 h"],
        ),
    ];
    for (endpoint, state, label, hover) in cases {
        let c = container();
        let resolved =
            render_badge(c.clone().into(), options(service(), endpoint, json!({}))).await;
        let (host_state, shown, tip, root) = parts(&c);
        assert_eq!(
            (resolved.as_str(), host_state.as_str(), shown.as_str()),
            (state, state, label),
            "{endpoint}"
        );
        for words in hover {
            assert!(tip.contains(words), "{endpoint}: {tip:?} lacks {words:?}");
        }
        let badge = root.query_selector(".badge").unwrap().unwrap();
        assert_eq!(
            badge.get_attribute("tabindex").as_deref(),
            Some("0"),
            "focusable"
        );
        let tip_id = badge.get_attribute("aria-describedby").unwrap();
        assert!(
            root.get_element_by_id(&tip_id).is_some(),
            "the hover text is tied to the badge"
        );
        assert!(
            badge.get_attribute("style").is_none()
                && c.first_element_child()
                    .unwrap()
                    .get_attribute("style")
                    .is_none()
        );
    }
}

#[wasm_bindgen_test]
async fn placeholder_is_there_before_the_answer() {
    let c = container();
    let promise = x402_verdict_badge::render_badge(
        c.clone().into(),
        options(service(), "verified", json!({})),
    );
    // The placeholder is drawn before renderBadge returns; let the queued
    // microtasks run too (the lookup has not answered yet), then look.
    JsFuture::from(js_sys::Promise::resolve(&JsValue::NULL))
        .await
        .unwrap();
    let (state, label, tip, root) = parts(&c);
    assert_eq!(
        (state.as_str(), label.as_str(), tip.as_str()),
        ("checking", "checking", "Checking the verification service…")
    );
    let name = |root: &ShadowRoot| {
        root.query_selector(".badge")
            .unwrap()
            .unwrap()
            .get_attribute("aria-label")
    };
    assert_eq!(name(&root).as_deref(), Some("x402 verification: checking"));
    let height_before = c
        .first_element_child()
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .offset_height();
    assert_eq!(state_of(promise).await, "human-backed");
    let (_, label, _, root) = parts(&c);
    assert_eq!(name(&root), Some(format!("x402 verification: {label}")));
    let height_after = c
        .first_element_child()
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .offset_height();
    assert_eq!(height_before, height_after, "no layout shift");
}

#[wasm_bindgen_test]
async fn a_stalled_service_resolves_unknown_within_the_timeout() {
    for fixture in ["stall", "stall-body"] {
        let c = container();
        let started = Date::now();
        let base = format!("{}/{fixture}", fixtures());
        let state = render_badge(
            c.clone().into(),
            options(&base, "verified", json!({"timeoutMs": 600})),
        )
        .await;
        let elapsed = Date::now() - started;
        assert_eq!(state, "unknown", "{fixture}");
        assert!(
            (550.0..1500.0).contains(&elapsed),
            "{fixture}: resolved after {elapsed} ms"
        );
        assert!(
            parts(&c).2.contains("did not answer in time"),
            "{fixture}: {}",
            parts(&c).2
        );
    }
}

#[wasm_bindgen_test]
async fn garbage_options_and_containers_resolve_unknown() {
    let garbage = [
        JsValue::NULL,
        JsValue::UNDEFINED,
        JsValue::from(42),
        JsValue::from_str("base"),
        JSON::parse("{}").unwrap(),
        JSON::parse(r#"{"chain": 5, "payTo": [], "resourceUrl": null}"#).unwrap(),
        JSON::parse(
            r#"{"baseUrl": "javascript:alert(1)", "chain": "c", "payTo": "p", "resourceUrl": "r"}"#,
        )
        .unwrap(),
        JSON::parse(r#"{"chain": "c", "payTo": "p", "resourceUrl": "r", "timeoutMs": -5}"#)
            .unwrap(),
        JSON::parse(
            r#"{"chain": "c", "payTo": "p", "resourceUrl": "r", "publicKey": "not a key"}"#,
        )
        .unwrap(),
        js_sys::eval("({ chain: 'c', payTo: 'p', resourceUrl: 'r', timeoutMs: 10n })").unwrap(),
    ];
    for options in garbage.iter() {
        let c = container();
        assert_eq!(
            render_badge(c.clone().into(), options.clone()).await,
            "unknown",
            "{options:?}"
        );
        let (state, label, tip, _) = parts(&c);
        assert_eq!((state.as_str(), label.as_str()), ("unknown", "unknown"));
        assert!(tip.contains("misconfigured"), "{tip}");
        let result = lookup_verdict(options.clone()).await;
        assert_eq!(
            Reflect::get(&result, &"reason".into()).unwrap(),
            "invalid_input",
            "{options:?}"
        );
    }
    // No container at all, or not an element: unknown, nothing thrown.
    for not_a_container in [
        JsValue::NULL,
        JsValue::UNDEFINED,
        JsValue::from(7),
        JsValue::from_str("#badge"),
    ] {
        assert_eq!(
            render_badge(not_a_container, options(service(), "verified", json!({}))).await,
            "unknown"
        );
    }
    // A container not in any document yet is rendered all the same (it
    // shows when attached).
    let detached = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .create_element("div")
        .unwrap();
    assert_eq!(
        render_badge(
            detached.clone().into(),
            options(service(), "verified", json!({}))
        )
        .await,
        "human-backed"
    );
    assert_eq!(parts(&detached).1, "verified · G");
    // No base URL: no service, still an answer.
    let none =
        lookup_verdict(JSON::parse(r#"{"chain": "c", "payTo": "p", "resourceUrl": "r"}"#).unwrap())
            .await;
    assert_eq!(
        Reflect::get(&none, &"outcome".into()).unwrap(),
        "no_service"
    );
}

/// The `detail` of a lookup whose options are the JS expression `source`.
async fn detail_of(source: &str) -> String {
    let result = lookup_verdict(js_sys::eval(source).unwrap()).await;
    assert_eq!(
        Reflect::get(&result, &"reason".into()).unwrap(),
        "invalid_input",
        "{source}"
    );
    Reflect::get(&result, &"detail".into())
        .unwrap()
        .as_string()
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn options_that_json_cannot_hold_are_named_never_defaulted() {
    let endpoint = "chain: 'c', payTo: 'p', resourceUrl: 'r'";
    for (option, named) in [
        (
            "timeoutMs: NaN",
            "timeoutMs must be a whole number of milliseconds from 1 to 60000",
        ),
        (
            "timeoutMs: Infinity",
            "timeoutMs must be a whole number of milliseconds from 1 to 60000",
        ),
        ("timeoutMs: 2000n", "timeoutMs is a BigInt, not a number"),
        ("baseUrl: ''", "baseUrl is empty"),
        ("strict: NaN", "strict must be true or false"),
        (
            "get baseUrl() { throw new Error('no') }",
            "baseUrl could not be read",
        ),
        ("publicKey: [1n]", "publicKey is a BigInt, not a number"),
    ] {
        assert_eq!(
            detail_of(&format!("({{ {endpoint}, {option} }})")).await,
            named,
            "{option}"
        );
    }
    // Every invalid option at once, each named, in the order of the table.
    assert_eq!(
        detail_of(
            "({ baseUrl: '', get chain() { throw 1 }, payTo: NaN, resourceUrl: 'r', \
               publicKey: () => 1, timeoutMs: 10n, strict: Infinity })"
        )
        .await,
        "baseUrl is empty; chain could not be read; payTo must be a string; \
         publicKey is not a JSON value; timeoutMs is a BigInt, not a number; strict must be true or false"
    );
}

#[wasm_bindgen_test]
async fn options_made_in_another_realm_work() {
    // JSON.parse of an iframe's window makes the objects and arrays of that realm.
    let parse: js_sys::Function = js_sys::eval(
        "(() => { const f = document.createElement('iframe'); document.body.append(f); \
          return f.contentWindow.JSON.parse; })()",
    )
    .unwrap()
    .unchecked_into();
    let key = demo()["publicKey"].clone();
    let doc = json!({"keys": [{"algorithm": "Ed25519", "publicKey": key, "status": "current"}]});
    for public_key in [json!([key]), doc] {
        let local = options(service(), "verified", json!({ "publicKey": public_key }));
        let text = JSON::stringify(&local).unwrap();
        let foreign = parse.call1(&JsValue::NULL, &text).unwrap();
        assert!(
            !foreign.is_instance_of::<js_sys::Object>(),
            "from another realm"
        );
        let result = lookup_verdict(foreign).await;
        let get = |k: &str| Reflect::get(&result, &k.into()).unwrap().as_string();
        assert_eq!(
            (get("state").as_deref(), get("signature").as_deref()),
            (Some("human-backed"), Some("valid")),
            "{public_key}"
        );
    }
}

#[wasm_bindgen_test]
async fn service_markup_stays_text() {
    let before = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .query_selector_all("img, script")
        .unwrap()
        .length();
    let markup = r#"https://api.example.com/<img src=x onerror="window.__pwned=4">'"&"#;
    for (fixture, expected) in [("hostile", "human-backed"), ("hostile-grade", "unknown")] {
        let c = container();
        let o = JSON::parse(
            &json!({
                "baseUrl": format!("{}/{fixture}", fixtures()), "chain": "base<script>",
                "payTo": "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", "resourceUrl": markup,
            })
            .to_string(),
        )
        .unwrap();
        assert_eq!(
            render_badge(c.clone().into(), o).await,
            expected,
            "{fixture}"
        );
        let (_, label, tip, root) = parts(&c);
        assert!(
            !label.contains('<') && !tip.contains("onerror"),
            "{fixture}: {label} / {tip}"
        );
        assert_eq!(
            root.child_element_count(),
            2,
            "{fixture}: badge and tip only"
        );
        assert_eq!(
            root.query_selector_all("*").unwrap().length(),
            4,
            "{fixture}: no element added"
        );
        assert_eq!(root.query_selector_all("img, script").unwrap().length(), 0);
    }
    TimeoutFuture::new(50).await;
    let window = web_sys::window().unwrap();
    assert!(
        Reflect::get(&window, &"__pwned".into())
            .unwrap()
            .is_undefined(),
        "no script ran"
    );
    let after = window
        .document()
        .unwrap()
        .query_selector_all("img, script")
        .unwrap()
        .length();
    assert_eq!(before, after);
}

#[wasm_bindgen_test]
async fn badges_for_one_endpoint_share_one_request() {
    let resource = format!("https://api.example.com/shared-{}", Date::now());
    let o = || {
        JSON::parse(&json!({
            "baseUrl": format!("{}/count", fixtures()), "chain": "base", "payTo": "0xabc", "resourceUrl": resource,
        }).to_string())
        .unwrap()
    };
    let (a, b) = (container(), container());
    // Both start before either is awaited, as two badges on one page do.
    let first = x402_verdict_badge::render_badge(a.into(), o());
    let second = x402_verdict_badge::render_badge(b.into(), o());
    assert_eq!(state_of(first).await, "unknown");
    assert_eq!(state_of(second).await, "unknown");
    let count_url = format!(
        "{}/count?resourceUrl={}",
        fixtures(),
        js_sys::encode_uri_component(&resource)
    );
    let window = web_sys::window().unwrap();
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(&count_url))
        .await
        .unwrap()
        .unchecked_into();
    let body = JsFuture::from(response.json().unwrap()).await.unwrap();
    assert_eq!(
        Reflect::get(&body, &"count".into()).unwrap(),
        1,
        "two badges, one request"
    );
}

#[wasm_bindgen_test]
async fn structured_results_for_dashboards() {
    let get = |v: &JsValue, k: &str| Reflect::get(v, &k.into()).unwrap().as_string();
    let good = lookup_verdict(options(service(), "verified", json!({}))).await;
    assert_eq!(get(&good, "state").as_deref(), Some("human-backed"));
    assert_eq!(get(&good, "signature").as_deref(), Some("valid"));
    assert_eq!(get(&good, "assuranceLevel").as_deref(), Some("G"));
    assert_eq!(
        Reflect::get(&good, &"recheckEveryHours".into()).unwrap(),
        24
    );
    // A keys document selects by keyId; a wrong listed keyId is ignored.
    let key = demo()["publicKey"].clone();
    let doc = json!({"keys": [{"keyId": "0000000000000000", "algorithm": "Ed25519", "publicKey": key, "status": "current"}]});
    let with_doc = lookup_verdict(options(service(), "verified", json!({"publicKey": doc}))).await;
    assert_eq!(get(&with_doc, "signature").as_deref(), Some("valid"));
    // Another key: unverifiable; strict mode then refuses the positive claim.
    let other = json!("11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=");
    let loose = lookup_verdict(options(service(), "verified", json!({"publicKey": other}))).await;
    assert_eq!(
        (
            get(&loose, "state").as_deref(),
            get(&loose, "signature").as_deref()
        ),
        (Some("human-backed"), Some("unverifiable"))
    );
    let strict = lookup_verdict(options(
        service(),
        "verified",
        json!({"publicKey": other, "strict": true}),
    ))
    .await;
    assert_eq!(
        (
            get(&strict, "state").as_deref(),
            get(&strict, "reason").as_deref()
        ),
        (Some("unknown"), Some("signature_required"))
    );
    // A body over 64 KiB is abandoned.
    let huge = lookup_verdict(options(
        &format!("{}/huge", fixtures()),
        "verified",
        json!({}),
    ))
    .await;
    assert_eq!(get(&huge, "reason").as_deref(), Some("too_large"));
    // Nothing listens: no response.
    let closed = lookup_verdict(options("http://127.0.0.1:9", "verified", json!({}))).await;
    assert_eq!(get(&closed, "outcome").as_deref(), Some("no_response"));
}

/// The core's RFC 8785 writer, compiled to wasm32, reproduces the vectors
/// within the verdict domain (safe integers only) byte for byte.
#[wasm_bindgen_test]
fn rfc8785_vectors_in_the_browser_build() {
    macro_rules! vector {
        ($name:literal) => {
            (
                $name,
                include_str!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/crates/core/tests/vectors/jcs/input/",
                    $name,
                    ".json"
                )),
                include_str!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/crates/core/tests/vectors/jcs/output/",
                    $name,
                    ".json"
                )),
            )
        };
    }
    for (name, input, output) in [
        vector!("arrays"),
        vector!("french"),
        vector!("unicode"),
        vector!("weird"),
    ] {
        let canonical = parse_strict(input.as_bytes()).unwrap().canonical();
        assert_eq!(canonical.as_deref(), Some(output), "{name}");
    }
}

/// `endpointsFromPaymentRequired` as JS sees its result.
fn endpoints_of(input: JsValue) -> Value {
    let got = x402_verdict_badge::endpoints_from_payment_required(input);
    serde_json::from_str(&JSON::stringify(&got).unwrap().as_string().unwrap()).unwrap()
}

#[wasm_bindgen_test]
fn challenge_fixtures_read_as_natively() {
    // The fixtures of the native test (crates/core/tests/challenges.rs), given
    // as JS objects and strings: the same endpoints, or the same reason.
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../crates/core/tests/challenges.json")).unwrap();
    for case in &cases {
        let input = match &case["input"] {
            Value::String(text) => JsValue::from_str(text),
            object => JSON::parse(&object.to_string()).unwrap(),
        };
        let mut expected =
            json!({ "endpoints": case.get("endpoints").cloned().unwrap_or(json!([])) });
        if let Some(reason) = case.get("reason") {
            expected["reason"] = reason.clone();
        }
        assert_eq!(endpoints_of(input), expected, "{}", case["name"]);
    }
    // What no challenge can be: never a throw, no endpoints, a reason.
    let hostile = [
        JsValue::NULL,
        JsValue::UNDEFINED,
        JsValue::from(402),
        js_sys::Array::new().into(),
        js_sys::eval("({ x402Version: 2, amount: 10n })").unwrap(),
        js_sys::eval("(() => { const o = { x402Version: 1 }; o.self = o; return o; })()").unwrap(),
        js_sys::eval("({ get x402Version() { throw new Error('no'); } })").unwrap(),
    ];
    for input in hostile {
        let got = endpoints_of(input.clone());
        assert_eq!(got["endpoints"], json!([]), "{input:?}");
        assert!(got["reason"].is_string(), "{input:?}");
    }
    // An object is read by property access, never through JSON text: what
    // JSON cannot hold is named.
    for (input, reason) in [
        (
            "({ x402Version: 2, amount: 10n })",
            "a value in the challenge is a BigInt, not a number",
        ),
        (
            "({ get x402Version() { throw new Error('no'); } })",
            "a value in the challenge could not be read",
        ),
        (
            "[1]",
            "expected a challenge object, an MCP tool result or a PAYMENT-REQUIRED string",
        ),
        (
            "({ x402Version: 1, accepts: [{ toJSON() { return {}; } }] })",
            "a value in the challenge is not a JSON value",
        ),
    ] {
        let got = endpoints_of(js_sys::eval(input).unwrap());
        assert_eq!(got["reason"], reason, "{input}");
    }
}

#[wasm_bindgen_test]
async fn a_challenge_naming_the_caip2_id_finds_the_entry_listed_under_base() {
    let demo = demo();
    let listed = &demo["endpoints"]["verified"];
    assert_eq!(listed["chain"], "base");
    let challenge = json!({
        "x402Version": 2, "error": "PAYMENT-SIGNATURE header is required",
        "resource": {"url": listed["resourceUrl"], "description": "", "mimeType": "application/json"},
        "accepts": [{"scheme": "exact", "network": "eip155:8453", "amount": "10000",
                     "asset": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "payTo": listed["payTo"],
                     "maxTimeoutSeconds": 60, "extra": {"name": "USD Coin", "version": "2"}}]
    });
    let header = x402_verdict_core::encode_base64(challenge.to_string().as_bytes());
    let read = x402_verdict_badge::endpoints_from_payment_required(header.into());
    let endpoint = Reflect::get(&read, &"endpoints".into())
        .unwrap()
        .unchecked_into::<js_sys::Array>()
        .get(0);
    assert_eq!(
        Reflect::get(&endpoint, &"chain".into()).unwrap(),
        "eip155:8453"
    );
    // Straight into renderBadge, with a service and its key.
    Reflect::set(&endpoint, &"baseUrl".into(), &service().into()).unwrap();
    let key = demo["publicKey"].as_str().unwrap();
    Reflect::set(&endpoint, &"publicKey".into(), &key.into()).unwrap();
    let c = container();
    assert_eq!(
        render_badge(c.clone().into(), endpoint).await,
        "human-backed"
    );
    assert_eq!(parts(&c).1, "verified · G");
}
