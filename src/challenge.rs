//! `endpointsFromPaymentRequired`: the endpoints an x402 payment challenge
//! accepts, read by the core, ready to be given to `renderBadge`.

use js_sys::{Array, Object, Reflect, JSON};
use wasm_bindgen::prelude::*;
use x402_verdict_core::challenge::Endpoints;
use x402_verdict_core::{Challenge, PaymentOption};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
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
}

/** The endpoints of a challenge, or none and the reason. */
export interface PaymentEndpoints {
  endpoints: PaymentEndpoint[];
  reason?: string;
}
"#;

/// Reads an x402 payment challenge: an x402 v1 body object, a v2
/// `PaymentRequired` object, a `PAYMENT-REQUIRED` header string (or JSON
/// text of any of these), or an MCP tool result. Returns its endpoints, or
/// none and the reason it cannot be read. Never throws.
#[wasm_bindgen(js_name = endpointsFromPaymentRequired, unchecked_return_type = "PaymentEndpoints")]
pub fn endpoints_from_payment_required(
    #[wasm_bindgen(unchecked_param_type = "string | object")] input: JsValue,
) -> JsValue {
    let text = input.as_string().ok_or(()).or_else(|()| {
        JSON::stringify(&input)
            .ok()
            .and_then(|text| text.as_string())
            .filter(|text| text.starts_with('{'))
            .ok_or_else(|| {
                "expected a challenge object, an MCP tool result or a PAYMENT-REQUIRED string"
                    .to_owned()
            })
    });
    let read = Endpoints::from(text.and_then(|text| Challenge::from_text(&text)));
    // Built property by property: serde's code for a list of structs costs
    // the wasm more than these few calls.
    let endpoints: Array = read.endpoints.iter().map(option_to_js).collect();
    let out = Object::new();
    let _ = Reflect::set(&out, &"endpoints".into(), &endpoints);
    if let Some(reason) = &read.reason {
        let _ = Reflect::set(&out, &"reason".into(), &reason.into());
    }
    out.into()
}

fn option_to_js(option: &PaymentOption) -> Object {
    let e = &option.endpoint;
    let object = Object::new();
    for (name, value) in [
        ("chain", e.chain()),
        ("payTo", e.pay_to()),
        ("resourceUrl", e.resource_url()),
        ("scheme", &option.scheme),
        ("asset", &option.asset),
        ("amount", &option.amount),
    ] {
        let _ = Reflect::set(&object, &name.into(), &value.into());
    }
    object
}
