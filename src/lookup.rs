//! `renderBadge` and `lookupVerdict`: one endpoint looked up, its verdict
//! fetched, checked by the core, and rendered or returned.

use std::future::Future;
use std::pin::Pin;

use js_sys::Promise;
use wasm_bindgen::prelude::*;
#[cfg(any(feature = "lookup", feature = "agent"))]
use x402_verdict_core::MemberValue;
#[cfg(feature = "badge")]
use x402_verdict_core::State;
use x402_verdict_core::{line, Evaluation, Lookup, LookupOptions, Response, Timestamp};

#[cfg(feature = "badge")]
use crate::render;
use crate::{fetch, options};

#[cfg(feature = "badge")]
const UNKNOWN: &str = State::Unknown.as_str();

/// The types of what the wasm reads and returns, written by `cargo xtask
/// generate` (`verdict-types.d.ts`, beside the glue in both packages, with
/// the unions of the core's spellings and its limits), once for both
/// packages: the badge's `index.d.ts` and x402-verdict's import them from
/// the glue.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
import type { BadgeState, Freshness, LookupOptions, Outcome, Reason, SignatureStatus, VerdictResult } from "./verdict-types.js";
export type { BadgeState, Freshness, LookupOptions, Outcome, Reason, SignatureStatus, VerdictResult };
"#;

/// Renders one badge into `container` (replacing its content; a "checking"
/// placeholder at once) and resolves to the state it rendered. Never rejects:
/// bad options, a missing container, a network error, a timeout or a hostile
/// response all resolve to `"unknown"`. The container may belong to any
/// document or realm, and need not be connected yet.
#[cfg(feature = "badge")]
#[wasm_bindgen(js_name = renderBadge, unchecked_return_type = "Promise<BadgeState>")]
pub fn render_badge(
    #[wasm_bindgen(unchecked_param_type = "Element | null")] container: JsValue,
    #[wasm_bindgen(unchecked_param_type = "LookupOptions")] options: JsValue,
) -> Promise {
    let Some(badge) = render::Badge::mount(&container) else {
        warn("renderBadge: container is not an element");
        return Promise::resolve(&JsValue::from_str(UNKNOWN));
    };
    let options = options::from_js(&options);
    spawn(Box::pin(async move {
        let result = match options {
            Err(problem) => {
                let problem = line(&problem);
                warn(&("renderBadge: ".to_owned() + &problem));
                Evaluation::invalid_input(problem)
            }
            Ok(options) => evaluate(&options).await,
        };
        badge.show(&result);
        JsValue::from_str(result.state.as_str())
    }))
}

/// Looks one endpoint up and resolves to the structured result, for
/// dashboards that draw their own UI. Never rejects.
#[cfg(any(feature = "lookup", feature = "agent"))]
#[wasm_bindgen(js_name = lookupVerdict, unchecked_return_type = "Promise<VerdictResult>")]
pub fn lookup_verdict(
    #[wasm_bindgen(unchecked_param_type = "LookupOptions")] options: JsValue,
) -> Promise {
    let options = options::from_js(&options);
    spawn(Box::pin(async move {
        let result = match options {
            Ok(options) => evaluate(&options).await,
            Err(problem) => Evaluation::invalid_input(line(&problem)),
        };
        to_object(&result)
    }))
}

/// The structured result as a plain JS object, written member by member as
/// the core lists them (no serializer in the page's wasm).
#[cfg(any(feature = "lookup", feature = "agent"))]
pub(crate) fn to_object(result: &Evaluation) -> JsValue {
    let object = js_sys::Object::new();
    for (name, value) in result.members() {
        let value = match value {
            MemberValue::Text(text) => JsValue::from_str(&text),
            MemberValue::Number(number) => JsValue::from(number),
        };
        let _ = js_sys::Reflect::set(&object, &name.into(), &value);
    }
    object.into()
}

/// Runs `future` on the microtask queue and returns a promise of its value
/// that never rejects. Every caller shares this one instance of the
/// future-to-promise glue (each would otherwise get its own copy).
pub(crate) fn spawn(future: Pin<Box<dyn Future<Output = JsValue>>>) -> Promise {
    wasm_bindgen_futures::future_to_promise(async move { Ok(future.await) })
}

/// The lookup `options` ask for, evaluated by the core at the current time:
/// the verdict inlined in them when the core takes it in place of a request,
/// else the verdict fetched (or shared).
pub(crate) async fn evaluate(options: &LookupOptions) -> Evaluation {
    if let Some(result) =
        (options.verdict.as_deref()).and_then(|text| options.lookup.evaluate_inlined(text, now()))
    {
        return result;
    }
    let Some(base) = &options.base_url else {
        return Evaluation::no_service();
    };
    let url = base.verdict_url(&options.lookup.endpoint);
    let fetched = fetch::fetch_shared(url, base.origin().to_owned(), options.timeout_ms).await;
    judge(&options.lookup, &fetched)
}

/// The core's evaluation of what was `fetched` for `lookup`, now.
pub(crate) fn judge(lookup: &Lookup, fetched: &fetch::Fetched) -> Evaluation {
    lookup.evaluate(answer(fetched), now())
}

/// What was fetched, as the core reads an answer.
pub(crate) fn answer(fetched: &fetch::Fetched) -> Response<'_> {
    match fetched {
        Ok((status, body)) => Response::Http {
            status: *status,
            body,
        },
        Err((failure, words)) => Response::Failed(*failure, words.as_deref()),
    }
}

/// The current time, to the second.
pub(crate) fn now() -> Timestamp {
    Timestamp::from_unix_seconds((js_sys::Date::now() / 1000.0) as i64)
}

#[cfg(feature = "badge")]
fn warn(message: &str) {
    web_sys::console::warn_1(&message.into());
}
