//! `checkPayment`, `checkPolicy`, `policyAnswered` and `rankOptions`: the
//! guard's decisions for the x402-verdict package (feature `agent`), made
//! by the core ([`x402_verdict_core::guard`]); the package's JavaScript
//! only asks and carries out.

use std::cell::RefCell;
use std::future::{poll_fn, Future};
use std::pin::pin;
use std::task::Poll;

use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use x402_verdict_core::guard::{preference, rank, Answer, Check, Policy};
use x402_verdict_core::{line, Evaluation, Lookup, LookupOptions, TrustedKeys, MAX_KEPT_ANSWERS};

use crate::fetch::{decode, fetch_shared, shared_answer};
use crate::lookup::{self, evaluate, judge, spawn, to_object};
use crate::options;

/// The types of the guard's decisions, written by `cargo xtask generate`
/// (`verdict-types.d.ts`, beside the glue).
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
import type { PaymentCheck, PolicyName } from "./verdict-types.js";
export type { PaymentCheck, PolicyName };
"#;

/// The one line saying why `name` is no policy, or undefined for a policy's
/// name or none (the default's).
#[wasm_bindgen(js_name = checkPolicy)]
pub fn check_policy(name: Option<String>) -> Option<String> {
    Policy::named(&name?).err()
}

/// The decision `check` once the agent's own policy function answered
/// `answer` (what it returned or resolved to, or what it threw), by the
/// core's rule ([`Check::answered`]): `true` pays; `{ abort: true, reason }`
/// refuses with `reason` when it is a string; anything else refuses with
/// the check's line. Never throws.
#[wasm_bindgen(js_name = policyAnswered, unchecked_return_type = "PaymentCheck")]
pub fn policy_answered(
    #[wasm_bindgen(unchecked_param_type = "PaymentCheck")] check: JsValue,
    answer: JsValue,
) -> JsValue {
    let member = |object: &JsValue, name: &str| {
        object
            .is_object()
            .then(|| Reflect::get(object, &name.into()).ok())
            .flatten()
            .unwrap_or(JsValue::UNDEFINED)
    };
    let reason = member(&answer, "reason").as_string();
    let read = if answer.as_bool() == Some(true) {
        Answer::Pay
    } else if member(&answer, "abort").as_bool() == Some(true) {
        Answer::Abort(reason.as_deref())
    } else {
        Answer::Other
    };
    let decided = Check {
        pays: member(&check, "pays").as_bool().unwrap_or(false),
        refusal: member(&check, "refusal").as_string().unwrap_or_default(),
    }
    .answered(read);
    let out = Object::assign(&Object::new(), check.unchecked_ref());
    let _ = Reflect::set(&out, &"pays".into(), &decided.pays.into());
    let _ = Reflect::set(&out, &"refusal".into(), &decided.refusal.into());
    out.into()
}

/// The order in which the client is handed the options whose decisions are
/// `checks` (in the challenge's order), by the core's rule ([`rank`]):
/// their indices, the most preferred first, leaving out those refused while
/// one paid remains.
#[wasm_bindgen(js_name = rankOptions, unchecked_return_type = "number[]")]
pub fn rank_options(
    #[wasm_bindgen(unchecked_param_type = "PaymentCheck[]")] checks: Vec<JsValue>,
) -> Array {
    let options: Vec<(u8, bool)> = checks
        .iter()
        .map(|check| {
            let get = |name: &str| Reflect::get(check, &name.into()).unwrap_or_default();
            let preference = get("preference").as_f64().map_or(u8::MAX, |p| p as u8);
            (preference, get("pays").as_bool().unwrap_or(false))
        })
        .collect();
    rank(&options)
        .into_iter()
        .map(|i| JsValue::from(i as u32))
        .collect()
}

/// Looks up the endpoint `options` name (as `lookupVerdict` does, except
/// that without a configured `publicKey` the service's published keys check
/// the signature; `resourceUrl` is the resource the refusal names) and resolves to the core's decision
/// under `policy`; `fetched`, when known, is the URL actually fetched. Never
/// rejects: no policy, or one that is no policy's name, is read as the default's, and
/// bad options read as `unknown`, `invalid_input`.
#[wasm_bindgen(js_name = checkPayment, unchecked_return_type = "Promise<PaymentCheck>")]
pub fn check_payment(
    #[wasm_bindgen(unchecked_param_type = "LookupOptions")] options: JsValue,
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
/// the service publishes ([`TrustedKeys::published`]), fetched within the
/// same timeout and kept as verdicts are (per `Cache-Control`, one request
/// in flight). A verdict given with them (stapled to the 402) is judged
/// first, under those keys, and the verdict is fetched only when it does
/// not stand in for the request; with none given, the verdict and the keys
/// are fetched together.
pub(crate) async fn evaluate_with_keys(mut options: LookupOptions) -> Evaluation {
    let base = match &options.base_url {
        Some(base) if options.lookup.keys.is_empty() => base.clone(),
        _ => return evaluate(&options).await,
    };
    let keys_url = base.keys_url();
    let keys = || {
        shared_answer(
            keys_url.clone(),
            base.origin().to_owned(),
            options.timeout_ms,
        )
    };
    if let Some(text) = options.verdict.take() {
        let answer = keys().await;
        let stapled = with_published(&keys_url, &answer, &mut options.lookup, |lookup| {
            lookup.evaluate_inlined(&text, lookup::now())
        });
        if let Some(result) = stapled {
            return result;
        }
    }
    let verdict = fetch_shared(
        base.verdict_url(&options.lookup.endpoint),
        base.origin().to_owned(),
        options.timeout_ms,
    );
    let (verdict, answer) = both(verdict, keys()).await;
    with_published(&keys_url, &answer, &mut options.lookup, |lookup| {
        judge(lookup, &verdict)
    })
}

thread_local! {
    /// The keys each service published, read once per answer: by the keys
    /// document's URL, the answer they were read from (the shared answer's
    /// JS value, the same for as long as it is kept per its
    /// `Cache-Control`) and the keys; at most [`MAX_KEPT_ANSWERS`] services.
    static PUBLISHED: RefCell<Vec<(String, JsValue, TrustedKeys)>> = const { RefCell::new(Vec::new()) };
}

/// `judge`'s result on `lookup` trusting the keys published in `answer`
/// (the shared answer to `url`): read once per answer and kept with it,
/// then lent to the lookup for the call, never copied, so that a lookup
/// costs the same however many keys the service publishes, beyond finding
/// the verdict's by its keyId.
fn with_published<R>(
    url: &str,
    answer: &JsValue,
    lookup: &mut Lookup,
    judge: impl FnOnce(&Lookup) -> R,
) -> R {
    PUBLISHED.with_borrow_mut(|published| {
        let at = match published.iter().position(|(kept, ..)| kept == url) {
            Some(at) if Object::is(&published[at].1, answer) => at,
            found => {
                let keys = TrustedKeys::published(lookup::answer(&decode(answer)));
                let entry = (url.to_owned(), answer.clone(), keys);
                match found {
                    Some(at) => {
                        published[at] = entry;
                        at
                    }
                    None => {
                        if published.len() >= MAX_KEPT_ANSWERS as usize {
                            published.remove(0);
                        }
                        published.push(entry);
                        published.len() - 1
                    }
                }
            }
        };
        // The published keys stand in for the configured ones, which keep
        // the transparency log the lookup reads proofs under.
        let keys = published[at].2.clone().with_log(lookup.keys.log().cloned());
        let configured = std::mem::replace(&mut lookup.keys, keys);
        let result = judge(lookup);
        lookup.keys = configured;
        result
    })
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
