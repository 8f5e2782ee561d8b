//! `endpointsFromPaymentRequired`: the endpoints an x402 payment challenge
//! accepts, read by the core, ready to be given to `renderBadge`.

use wasm_bindgen::prelude::*;
use x402_verdict_core::challenge::Endpoints;
use x402_verdict_core::json::Value;
use x402_verdict_core::Challenge;

use crate::json_value::to_value;
use crate::to_js;

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
    let unread = |reason: String| Endpoints {
        endpoints: Vec::new(),
        reason: Some(reason),
    };
    let read = match input.as_string() {
        Some(text) => Endpoints::from(Challenge::from_text(&text)),
        None => match to_value(&input, 0) {
            Ok(Some(value @ Value::Object(_))) => Endpoints::from(Challenge::from_saved(&value)),
            Ok(_) => unread(
                "expected a challenge object, an MCP tool result or a PAYMENT-REQUIRED string"
                    .into(),
            ),
            Err(problem) => unread(format!("a value in the challenge {problem}")),
        },
    };
    to_js(&read)
}
