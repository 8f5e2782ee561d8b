//! The discovery listing reader: the endpoints of a page built to the
//! official bazaar types (`discovery-page.json`, which
//! `tests/interop/discovery-types.test.mjs` type-checks against
//! `@x402/extensions`), v1 items, and hostile pages and items, each refused
//! in one line while the other items are still read.

use serde_json::{json, Value};
use x402_verdict_core::discovery::{Page, PageError, Pagination, MAX_PAGE_BYTES};
use x402_verdict_core::writing::line;

const PAGE: &str = include_str!("discovery-page.json");

fn page(value: &Value) -> Result<Page, PageError> {
    Page::from_json(value.to_string().as_bytes())
}

/// Each item's endpoints as `chain payTo resource`, or its error's words.
fn read(page: &Page) -> Vec<String> {
    page.items
        .iter()
        .flat_map(|item| match item {
            Ok(item) => item
                .options
                .iter()
                .map(|o| {
                    let e = &o.endpoint;
                    format!("{} {} {}", e.chain(), e.pay_to(), e.resource_url())
                })
                .collect(),
            Err(e) => vec![line(e)],
        })
        .collect()
}

#[test]
fn a_page_of_the_official_shape_names_one_endpoint_per_option() {
    let page = Page::from_json(PAGE.as_bytes()).unwrap();
    assert_eq!(
        page.pagination,
        Some(Pagination {
            limit: 100,
            offset: 0,
            total: 2
        })
    );
    assert_eq!(
        read(&page),
        [
            "eip155:8453 0x209693Bc6afc0C5328bA36FaF03C514EF312287C https://api.example.com/premium-data",
            "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp 9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin https://api.example.com/premium-data",
            "eip155:8453 0x1111111111111111111111111111111111111111 https://weather.example/forecast",
        ]
    );
}

#[test]
fn a_v1_item_names_each_option_s_own_resource_and_an_item_reads_alone() {
    let item = json!({
        "resource": "https://old.example/a", "type": "http", "x402Version": 1,
        "accepts": [{
            "scheme": "exact", "network": "base-sepolia", "maxAmountRequired": "5",
            "resource": "https://old.example/a", "payTo": "0x2222222222222222222222222222222222222222",
            "asset": "0x036CbD53842c5426634e7929541eC2318f3dCF7e", "maxTimeoutSeconds": 60,
        }],
        "lastUpdated": "2026-01-01T00:00:00Z",
    });
    let alone = page(&item).unwrap();
    assert_eq!(alone.pagination, None);
    assert_eq!(
        read(&alone),
        ["base-sepolia 0x2222222222222222222222222222222222222222 https://old.example/a"]
    );
}

#[test]
fn a_wrong_item_is_named_and_the_others_are_still_read() {
    let mut listing: Value = serde_json::from_str(PAGE).unwrap();
    let good = listing["items"][1].clone();
    let with = |change: &dyn Fn(&mut Value)| {
        let mut item = good.clone();
        change(&mut item);
        item
    };
    listing["items"] = json!([
        good,
        "not an item",
        with(&|i| {
            i.as_object_mut().unwrap().remove("accepts");
        }),
        with(&|i| i["accepts"] = json!({})),
        with(&|i| i["accepts"] = json!([])),
        with(&|i| i["accepts"][0]["payTo"] = json!(7)),
        with(&|i| {
            i["accepts"][0].as_object_mut().unwrap().remove("network");
        }),
        with(&|i| i["resource"] = json!("https://a.example/\u{1b}[31mred")),
        with(&|i| i["x402Version"] = json!(3)),
        with(&|i| i["accepts"][0]["amount"] = json!("1e9")),
        with(&|i| i["accepts"] = json!(vec![good["accepts"][0].clone(); 33])),
        with(&|i| i["accepts"][0]["network"] = json!("x".repeat(513))),
    ]);
    let page = page(&listing).unwrap();
    let read = read(&page);
    assert_eq!(
        read[0],
        "eip155:8453 0x1111111111111111111111111111111111111111 https://weather.example/forecast"
    );
    assert_eq!(
        read[1..],
        [
            "items[1] is not an object",
            "items[2] (https://weather.example/forecast): accepts is missing",
            "items[3] (https://weather.example/forecast): accepts is not a list",
            "items[4] (https://weather.example/forecast): accepts is empty: the challenge offers no way to pay",
            "items[5] (https://weather.example/forecast): accepts[0].payTo is not a string",
            "items[6] (https://weather.example/forecast): accepts[0].network is missing",
            "items[7]: resource contains a control character",
            "items[8] (https://weather.example/forecast): x402Version is not 1 or 2",
            "items[9] (https://weather.example/forecast): accepts[0].amount is not a whole number in decimal digits",
            "items[10] (https://weather.example/forecast): accepts lists 33 options, more than 32",
            "items[11] (https://weather.example/forecast): accepts[0].network is longer than 512 bytes",
        ]
    );
    // The same endpoint under its other name matches (the chain's aliases).
    let aliased = &page.items[0].as_ref().unwrap().options[0].endpoint;
    let other = x402_verdict_core::Endpoint::new(
        "base",
        "0x1111111111111111111111111111111111111111",
        "https://weather.example/forecast",
    )
    .unwrap();
    assert_eq!(aliased.key(), other.key(), "eip155:8453 is base");
    // Nothing of a value is copied into a reason but the item's resource,
    // which follows the rule of every endpoint value, shortened.
    assert!(read.iter().all(|r| !r.contains('\u{1b}')));
    let long = format!("https://api.example.com/{}/last", "a".repeat(400));
    let mut item = good.clone();
    item["resource"] = json!(long);
    item["accepts"][0]["payTo"] = json!(null);
    let named = self::page(&json!({ "items": [item] })).unwrap();
    let line = self::read(&named).remove(0);
    assert!(
        line.starts_with("items[0] (https://api.example.com/aaa")
            && line.ends_with("aaa/last): accepts[0].payTo is missing")
            && line.contains('…')
            && line.len() < 140,
        "{line}"
    );
}

#[test]
fn a_payment_challenge_is_no_listing_and_no_item() {
    // x402 v1 names no resource at its top; v2 an object.
    let v1 = json!({ "x402Version": 1, "error": "X-PAYMENT header is required", "accepts": [{
        "scheme": "exact", "network": "base", "maxAmountRequired": "5", "resource": "https://a.example/",
        "payTo": "0x2222222222222222222222222222222222222222", "asset": "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    }] });
    let mut v2 = v1.clone();
    v2["x402Version"] = json!(2);
    v2["resource"] = json!({ "url": "https://a.example/" });
    for challenge in [v1, v2] {
        assert_eq!(page(&challenge), Err(PageError::Challenge));
        assert_eq!(
            line(&PageError::Challenge),
            "a payment challenge (accepts without a resource string), not a discovery listing or item"
        );
    }
}

#[test]
fn hostile_pages_are_refused_in_one_line() {
    let big = format!(
        "{{\"items\":[],\"pad\":\"{}\"}}",
        "x".repeat(MAX_PAGE_BYTES)
    );
    let many = json!({ "items": vec![json!({}); 1001], "pagination": { "limit": 1, "offset": 0, "total": 1 } });
    let cases: [(Vec<u8>, &str); 8] = [
        (big.into_bytes(), "the listing page is larger than 4 MiB"),
        (
            b"{\"items\":[] , \"items\":[]}".to_vec(),
            "the listing page is not strict JSON: ",
        ),
        (b"[]".to_vec(), "the listing page is not a JSON object"),
        (
            b"{\"hello\":1}".to_vec(),
            "neither a discovery listing (no items) nor a discovery item (no accepts)",
        ),
        (b"{\"items\":{}}".to_vec(), "items is not a list"),
        (
            many.to_string().into_bytes(),
            "items lists 1001 resources, more than 1000",
        ),
        (
            br#"{"items":[],"pagination":{"limit":1,"offset":-1,"total":5}}"#.to_vec(),
            "pagination.offset is not a whole number of at least 0",
        ),
        (
            br#"{"items":[],"pagination":[]}"#.to_vec(),
            "pagination is not an object",
        ),
    ];
    for (bytes, reason) in cases {
        let error = line(&Page::from_json(&bytes).unwrap_err());
        assert!(error.starts_with(reason), "{error:?} for {reason:?}");
        assert_eq!(error.lines().count(), 1, "{error}");
    }
    // A claimed total of 10^9 is only a number: the page holds what it holds.
    let claimed =
        json!({ "items": [], "pagination": { "limit": 100, "offset": 0, "total": 1_000_000_000 } });
    assert_eq!(
        page(&claimed).unwrap().pagination.unwrap().total,
        1_000_000_000
    );
}
