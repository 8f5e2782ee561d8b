//! `checkPayment` and `checkPolicy`: the guard's decisions for the
//! x402-verdict package (feature `agent`), made by the core
//! ([`x402_verdict_core::guard`]); the package's JavaScript only asks and
//! carries out.

use std::future::{poll_fn, Future};
use std::pin::pin;
use std::task::Poll;

use js_sys::{Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use x402_verdict_core::guard::{preference, Policy};
use x402_verdict_core::writing::line;
use x402_verdict_core::{Evaluation, LookupOptions, TrustedKeys};

use crate::fetch::fetch_shared;
use crate::lookup::{answer, evaluate, judge, spawn, to_object};
use crate::options;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
import type { PolicyName } from "./verdict-types";
export type { PolicyName };

/** What the core decided for one payment option. */
export interface PaymentCheck {
  /** The lookup's structured result. */
  result: VerdictResult;
  /** Whether the policy pays this option (always true under `"function"`: the function decides). */
  pays: boolean;
  /** 0 human-backed, 1 unknown, 2 revoked: options are tried in this order. */
  preference: number;
  /** The one line the guard aborts with when it does not pay this option. */
  refusal: string;
}
"#;

/// The one line saying why `name` is no policy, or undefined for a policy's
/// name or none (the default's).
#[wasm_bindgen(js_name = checkPolicy)]
pub fn check_policy(name: Option<String>) -> Option<String> {
    Policy::from_name(&name?).err()
}

/// Looks up the endpoint `options` name (as `lookupVerdict` does, except
/// that without a configured `publicKey` the service's published keys check
/// the signature; `resourceUrl` is the resource the refusal names) and resolves to the core's decision
/// under `policy`; `fetched`, when known, is the URL actually fetched. Never
/// rejects: no policy, or one that is no policy's name, is read as the default's, and
/// bad options read as `unknown`, `invalid_input`.
#[wasm_bindgen(js_name = checkPayment, unchecked_return_type = "Promise<PaymentCheck>")]
pub fn check_payment(
    #[wasm_bindgen(unchecked_param_type = "BadgeOptions")] options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PolicyName | undefined")] policy: Option<String>,
    fetched: Option<String>,
) -> Promise {
    let policy = (policy.as_deref())
        .and_then(|name| Policy::from_name(name).ok())
        .unwrap_or(Policy::DEFAULT);
    let resource = Reflect::get(&options, &"resourceUrl".into())
        .ok()
        .and_then(|url| url.as_string())
        .unwrap_or_default();
    let options = options::from_js(&options);
    spawn(Box::pin(async move {
        let result = match options {
            Ok(options) => evaluate_with_keys(options).await,
            Err(problem) => Evaluation::invalid_input(line(&problem)),
        };
        let decided = policy.check(&result, &resource, fetched.as_deref());
        let check = Object::new();
        let members: [(&str, JsValue); 4] = [
            ("result", to_object(&result)),
            ("pays", decided.pays.into()),
            ("preference", preference(&result).into()),
            ("refusal", decided.refusal.into()),
        ];
        for (name, value) in members {
            let _ = Reflect::set(&check, &name.into(), &value);
        }
        check.into()
    }))
}

/// The lookup `options` ask for; when they configure no key, with the keys
/// the service publishes ([`TrustedKeys::published`]), fetched beside the
/// verdict within the same timeout and kept as verdicts are (per
/// `Cache-Control`, one request in flight).
pub(crate) async fn evaluate_with_keys(mut options: LookupOptions) -> Evaluation {
    let base = match &options.base_url {
        Some(base) if options.lookup.keys.is_empty() => base.clone(),
        _ => return evaluate(&options).await,
    };
    let fetch = |url| fetch_shared(url, base.origin().to_owned(), options.timeout_ms);
    let (verdict, keys) = both(
        fetch(base.verdict_url(&options.lookup.endpoint)),
        fetch(base.keys_url()),
    )
    .await;
    options.lookup.keys = TrustedKeys::published(answer(&keys));
    judge(&options.lookup, &verdict)
}

/// Both futures run together; their outputs once both are done.
async fn both<A: Future, B: Future>(a: A, b: B) -> (A::Output, B::Output) {
    let (mut a, mut b) = (pin!(a), pin!(b));
    let (mut from_a, mut from_b) = (None, None);
    poll_fn(|cx| {
        if from_a.is_none() {
            if let Poll::Ready(output) = a.as_mut().poll(cx) {
                from_a = Some(output);
            }
        }
        if from_b.is_none() {
            if let Poll::Ready(output) = b.as_mut().poll(cx) {
                from_b = Some(output);
            }
        }
        match (from_a.take(), from_b.take()) {
            (Some(a), Some(b)) => Poll::Ready((a, b)),
            (a, b) => {
                (from_a, from_b) = (a, b);
                Poll::Pending
            }
        }
    })
    .await
}
