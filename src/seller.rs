//! The seller's side of an inlined or stapled verdict, for the x402-verdict
//! package's `x402-verdict/seller` module (feature `agent`): the verdict
//! fetched as the service returned it, with how long its `Cache-Control`
//! lets it be kept and served stale; until when the core takes a verdict
//! inlined ([`Lookup::inlined_until`](x402_verdict_core::Lookup::inlined_until)); the bound on the verdicts
//! kept; the words of the seller's own 402 page; and the x402 extension
//! that staples verdicts to a 402 ([`x402_verdict_core::staple`]). The
//! module's JavaScript keeps the verdicts and writes the markup; every rule
//! is the core's.

use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use x402_verdict_core::staple::{extension, EXTENSION_KEY, VERDICTS};
use x402_verdict_core::{
    line, reuse_seconds, stale_seconds, Evaluation, LookupOptions, MAX_KEPT_ANSWERS,
};

use crate::lookup::{judge, now, spawn, to_object};
use crate::words::seller::{option_label, PAYWALL_TEXT, PAYWALL_TITLE};
use crate::{fetch, options};

/// The type of what `fetchVerdict` returns, written by `cargo xtask
/// generate` (`verdict-types.d.ts`, beside the glue).
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
import type { FetchedVerdict } from "./verdict-types.js";
export type { FetchedVerdict };
"#;

/// Fetches the verdict for the endpoint `options` name (a request of its
/// own, never an answer kept) and resolves to it with its result and how
/// long it may be kept. Never rejects: every failure is a result without a
/// verdict.
#[wasm_bindgen(js_name = fetchVerdict, unchecked_return_type = "Promise<FetchedVerdict>")]
pub fn fetch_verdict(
    #[wasm_bindgen(unchecked_param_type = "LookupOptions")] options: JsValue,
) -> Promise {
    let options = options::from_js(&options);
    spawn(Box::pin(async move {
        let (result, verdict, cache_control) = match options {
            Err(problem) => (
                Evaluation::invalid_input(line(&problem)),
                None,
                String::new(),
            ),
            Ok(options) => fetched(&options).await,
        };
        let object = Object::new();
        let members: [(&str, JsValue); 4] = [
            ("result", to_object(&result)),
            ("verdict", verdict.map_or(JsValue::UNDEFINED, JsValue::from)),
            ("freshSeconds", reuse_seconds(&cache_control).into()),
            ("staleSeconds", stale_seconds(&cache_control).into()),
        ];
        for (name, value) in members {
            if !value.is_undefined() {
                let _ = Reflect::set(&object, &name.into(), &value);
            }
        }
        object.into()
    }))
}

/// The lookup's result, the verdict's text (a valid document's) and the
/// answer's `Cache-Control`.
async fn fetched(options: &LookupOptions) -> (Evaluation, Option<String>, String) {
    let Some(base) = &options.base_url else {
        return (Evaluation::no_service(), None, String::new());
    };
    let url = base.verdict_url(&options.lookup.endpoint);
    let (fetched, cache_control) = fetch::fetch_once(&url, base.origin(), options.timeout_ms).await;
    let result = judge(&options.lookup, &fetched);
    let verdict = match fetched {
        Ok((200, body)) if result.has_verdict() => String::from_utf8(body).ok(),
        _ => None,
    };
    (result, verdict, cache_control)
}

/// Until when (milliseconds since the epoch, the end of the last second)
/// the core takes the verdict inlined in `options` (their `verdict`) in
/// place of a request, when it does now; `null` otherwise: how long a
/// seller's server may go on inlining or stapling it without asking again.
#[wasm_bindgen(js_name = inlinedUntil)]
pub fn inlined_until(
    #[wasm_bindgen(unchecked_param_type = "LookupOptions")] options: JsValue,
) -> Option<f64> {
    let options = options::from_js(&options).ok()?;
    let until = (options.lookup).inlined_until(options.verdict.as_deref()?, now())?;
    Some((until.unix_seconds() + 1) as f64 * 1000.0)
}

/// The most verdicts a seller's server keeps at once (the core's bound on
/// kept answers).
#[wasm_bindgen(js_name = maxKeptVerdicts)]
pub fn max_kept_verdicts() -> u32 {
    MAX_KEPT_ANSWERS
}

/// The words of the seller's own 402 page: `[title, paragraph]`.
#[wasm_bindgen(js_name = paywallWords, unchecked_return_type = "[string, string]")]
pub fn paywall_words() -> Array {
    Array::of2(&PAYWALL_TITLE.into(), &PAYWALL_TEXT.into())
}

/// The label beside the badge of the paywall's option paying `payTo` on
/// `chain` ([`crate::words::seller::option_label`]).
#[wasm_bindgen(js_name = paywallOptionLabel)]
pub fn paywall_option_label(chain: &str, pay_to: &str) -> String {
    option_label(chain, pay_to)
}

/// The x402 extension that staples verdicts to a 402: `[its key, the
/// member of its info that changes from one 402 to the next]` (the
/// extension's `dynamicInfoFields`).
#[wasm_bindgen(js_name = stapleNames, unchecked_return_type = "[string, string]")]
pub fn staple_names() -> Array {
    Array::of2(&EXTENSION_KEY.into(), &VERDICTS.into())
}

/// The extension's value stapling `verdicts` (verdict documents' JSON text,
/// as the service returned them), as JSON text: `{"info": {"verdicts":
/// [...]}, "schema": …}` ([`x402_verdict_core::staple::extension`]).
#[wasm_bindgen(js_name = stapledExtension)]
pub fn stapled_extension(verdicts: Vec<String>) -> String {
    extension(verdicts.iter().map(String::as_str))
}
