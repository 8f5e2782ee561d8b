//! `endpointsFromPaymentRequired` and `endpointsFromDiscovery`: the
//! endpoints an x402 payment challenge accepts, or that each resource of a
//! facilitator's discovery listing accepts, read by the core, ready to be
//! given to `renderBadge` (with the verdict a challenge staples for each).

use wasm_bindgen::prelude::*;
use x402_verdict_core::live::LiveEndpoints;
use x402_verdict_core::{Challenge, ChallengeEndpoints, DiscoveryEndpoints, Page};

use crate::json_value::to_value;

/// The types of what the challenge reader returns, written with the
/// others by `cargo xtask generate` (`verdict-types.d.ts`, beside the glue
/// in both packages), their limits the core's.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
import type { DiscoveryEndpoints, LiveNote, PaymentEndpoint, PaymentEndpoints } from "./verdict-types.js";
export type { DiscoveryEndpoints, LiveNote, PaymentEndpoint, PaymentEndpoints };
"#;

/// Reads an x402 payment challenge: an x402 v1 body object, a v2
/// `PaymentRequired` object, a `PAYMENT-REQUIRED` header string (or JSON
/// text of any of these), or an MCP tool result. Returns its endpoints, or
/// none and the reason it cannot be read. Never throws.
#[wasm_bindgen(js_name = endpointsFromPaymentRequired, unchecked_return_type = "PaymentEndpoints")]
pub fn endpoints_from_payment_required(
    #[wasm_bindgen(unchecked_param_type = "string | object")] input: JsValue,
) -> JsValue {
    let read = match input.as_string() {
        Some(text) => ChallengeEndpoints::from(Challenge::from_text(&text)),
        None => ChallengeEndpoints::from_value(to_value(&input, 0)),
    };
    to_js(&read, "endpoints")
}

/// Reads a facilitator's discovery listing page (`GET
/// /discovery/resources`: an object with `items`, or its JSON text) or one
/// of its items. Returns each item's endpoints, or none and the reason it
/// cannot be read, and the page's pagination; with `live`, the text of a
/// live snapshot (`x402-verdict scan --live --json`), each endpoint's row
/// of it. Never throws.
#[wasm_bindgen(js_name = endpointsFromDiscovery, unchecked_return_type = "DiscoveryEndpoints")]
pub fn endpoints_from_discovery(
    #[wasm_bindgen(unchecked_param_type = "string | object")] input: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | undefined")] live: JsValue,
) -> JsValue {
    let page = match input.as_string() {
        Some(text) => Page::from_json(text.as_bytes()),
        None => Page::read_value(to_value(&input, 0)),
    };
    // Anything but text is no snapshot.
    match live.as_string() {
        Some(snapshot) => to_js(&LiveEndpoints::read(page, &snapshot), "items"),
        None => to_js(&DiscoveryEndpoints::from(page), "items"),
    }
}

/// `value` as a plain JS object, through serde; should it not write, no
/// endpoints and why, in the shape the TypeScript types state (`list`
/// names the member that holds them: `endpoints` or `items`).
fn to_js(value: &impl serde::Serialize, list: &str) -> JsValue {
    serde::Serialize::serialize(value, &serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or_else(|error| {
            let object = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&object, &list.into(), &js_sys::Array::new());
            let _ = js_sys::Reflect::set(&object, &"reason".into(), &error.to_string().into());
            object.into()
        })
}
