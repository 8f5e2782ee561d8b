//! `endpointsFromPaymentRequired` and `endpointsFromDiscovery`: the
//! endpoints an x402 payment challenge accepts, or that each resource of a
//! facilitator's discovery listing accepts, read by the core, ready to be
//! given to `renderBadge` (with the verdict a challenge staples for each).

use wasm_bindgen::prelude::*;
use x402_verdict_core::live::LiveEndpoints;
use x402_verdict_core::{Challenge, ChallengeEndpoints, DiscoveryEndpoints, Page};

use crate::json_value::to_value;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = const_format::concatcp!(
    r#"
/** One way to pay a challenge accepts; with a `baseUrl`, it is the options of `renderBadge` and `lookupVerdict`. */
export interface PaymentEndpoint {
  /** The option's `network` (an x402 v1 name or a CAIP-2 id). */
  chain: string;
  payTo: string;
  /** v1: the option's `resource`; v2: the challenge's `resource.url`. */
  resourceUrl: string;
  scheme: string;
  asset: string;
  /** In the asset's smallest unit, as decimal digits. */
  amount: string;
  /**
   * The verdict the challenge staples for this option (x402 v2's `x402-verdict`
   * extension), as JSON text: the `verdict` option of `renderBadge` and
   * `lookupVerdict`, used with no request when it is validly signed under
   * `publicKey`, about this endpoint and at most "#,
    x402_verdict_core::MAX_INLINED_AGE_SECONDS,
    r#" s old. Absent when none is stapled.
   */
  verdict?: string;
}

/** The endpoints of a challenge, or none and the reason. */
export interface PaymentEndpoints {
  endpoints: PaymentEndpoint[];
  reason?: string;
}

/** What a live snapshot (`x402-verdict scan --live --json`'s output) says of an endpoint: its row's kind and its line. */
export interface LiveNote {
  live: "live" | "changed" | "not-402" | "unreachable";
  /** The row in one line: `live`, `changed: another payTo (listed 0x…, now 0x…)`, `not-402: answered HTTP 404`. */
  note: string;
}

/** The endpoints of each resource of a discovery listing's page, in order (each, like a challenge's, none and the reason when it cannot be read), with the page's pagination; or no items and why the page cannot be read. With a live snapshot, each endpoint's row of it (`live`, where the snapshot has one), each item's options that its resource asks now and the listing does not name (`added`), and why a line of the snapshot was not read (`liveReason`). */
export interface DiscoveryEndpoints {
  items: (PaymentEndpoints & { endpoints: (PaymentEndpoint & { live?: LiveNote })[]; added?: (PaymentEndpoint & { live: LiveNote })[] })[];
  pagination?: { limit: number; offset: number; total: number };
  reason?: string;
  liveReason?: string;
}
"#
);

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
