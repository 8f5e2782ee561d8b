//! A live read's rows written as `scan --live --json` writes them and read
//! back as a snapshot beside the listing's page (`endpointsFromDiscovery`'s
//! `live`): each listed endpoint finds its row's kind and note by the
//! consumers' matching rule, the options added come with their item, and a
//! line that is no row is named without stopping the others.

use serde_json::{json, Value};
use x402_verdict_core::challenge::{Challenge, PaymentOption};
use x402_verdict_core::discovery::{DiscoveryEndpoints, Page};
use x402_verdict_core::live::{listed_resources, rows, Asked, LiveEndpoints, LiveSnapshot};

const A: &str = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
const B: &str = "0x1111111111111111111111111111111111111111";
const USDC: &str = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

fn item(resource: &str, pay_tos: &[&str]) -> Value {
    let accepts: Vec<Value> = pay_tos
        .iter()
        .map(|p| json!({ "scheme": "exact", "network": "eip155:8453", "amount": "1000", "asset": USDC, "payTo": p }))
        .collect();
    json!({ "resource": resource, "type": "http", "x402Version": 2, "accepts": accepts })
}

fn option(resource: &str, pay_to: &str) -> PaymentOption {
    let page = Page::from_json(item(resource, &[pay_to]).to_string().as_bytes()).unwrap();
    page.items[0].clone().unwrap().options.remove(0)
}

#[test]
fn a_snapshot_s_rows_stand_beside_the_listing_s_endpoints() {
    let listing = json!({ "items": [
        item("https://s.example/switched", &[A]),
        item("https://s.example/same", &[A]),
        item("https://s.example/more", &[A]),
        item("https://s.example/unread", &[A]),
    ] });
    let page = Page::from_json(listing.to_string().as_bytes()).unwrap();
    let items = page.items.iter().cloned().map(Result::unwrap);
    let resources = listed_resources(items);
    let live = |options: Vec<PaymentOption>| {
        Asked::Challenge(Challenge {
            version: 2,
            options,
        })
    };
    let asked = [
        live(vec![option("https://s.example/switched", B)]),
        // Its other spelling: the same resource.
        live(vec![option(
            "HTTPS://S.example:443/same",
            &A.to_lowercase(),
        )]),
        live(vec![
            option("https://s.example/more", A),
            option("https://s.example/more", B),
        ]),
    ];
    let mut text = String::new();
    for (resource, asked) in resources.iter().zip(&asked) {
        for row in rows(resource, asked) {
            let mut line = serde_json::to_value(&row).unwrap();
            line["result"] = json!({ "state": "unknown" });
            text.push_str(&line.to_string());
            text.push('\n');
        }
    }
    text.push_str("{\"resource\": 5}\n\nnot json\n");
    let read = LiveEndpoints::read(Ok(page), &text);
    let out = serde_json::to_value(&read).unwrap();
    let items = out["items"].as_array().unwrap();
    let switched = &items[0]["endpoints"][0];
    assert_eq!(switched["payTo"], A, "the listed endpoint");
    assert_eq!(
        switched["live"],
        json!({ "live": "changed", "note": format!("changed: another payTo (listed {A}, now {B})") })
    );
    assert_eq!(
        items[1]["endpoints"][0]["live"],
        json!({ "live": "live", "note": "live" })
    );
    assert_eq!(items[2]["endpoints"][0]["live"]["live"], "live");
    assert_eq!(items[2]["added"][0]["payTo"], B);
    assert_eq!(
        items[2]["added"][0]["live"],
        json!({ "live": "changed", "note": "changed: an option added" })
    );
    assert!(
        items[3]["endpoints"][0].get("live").is_none(),
        "not in the snapshot"
    );
    assert_eq!(
        out["liveReason"],
        "the live snapshot's line 5: resource is not a string"
    );
    // No snapshot: the page as before.
    let plain = serde_json::to_value(DiscoveryEndpoints::from(Page::from_json(
        listing.to_string().as_bytes(),
    )))
    .unwrap();
    assert!(plain["items"][0]["endpoints"][0].get("live").is_none());
    assert!(plain.get("liveReason").is_none());
    // Every row written reads back as itself.
    let snapshot = LiveSnapshot::from_json_lines(&text);
    for (resource, asked) in resources.iter().zip(&asked) {
        for row in rows(resource, asked) {
            if let Some(listed) = row.listed_option() {
                let back = &snapshot.rows[snapshot.listed(listed).unwrap()];
                assert_eq!(
                    (back.kind, &back.option, &back.change),
                    (row.kind, &row.option, &row.change)
                );
            }
        }
    }
}
