//! One verdict request from the browser: `fetch` without credentials,
//! an `AbortController` whose timer covers the whole exchange (headers and
//! body), a 64 KiB body cap, and no redirect to another origin.
//!
//! The page's first requests may have been started before the wasm loaded
//! (`js/common/early.js`): the one whose URL is exactly the one built here is taken
//! instead of a new request, and its answer meets every rule below.
//!
//! Badges on one page asking the same service about the same endpoint share
//! one answer: a request in flight (with the same timeout), and once it has
//! settled, its status and body for as long as the response's
//! `Cache-Control` allows ([`reuse_seconds`](x402_verdict_core::reuse_seconds)), however far apart
//! in time the badges are drawn. Failures are never kept; a request in
//! flight that fails gives each of its lookups the fetcher's own words
//! about why ([`Words`]), for the result's `detail`.
//!
//! In the agent's build (feature `agent`, for Node as for browsers) the
//! request is the global `fetch`'s, not the window's, and kept answers go
//! when a later lookup finds them expired, not by a timer (which would keep
//! a Node process alive for as long as an answer is fresh).

use crate::words::REQUEST_CREDENTIALS;
use gloo_timers::callback::Timeout;
use js_sys::{Array, Map, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, ReadableStreamDefaultReader, ReadableStreamReadResult, RequestInit,
};
use x402_verdict_core::{
    reuse_seconds, words, FetchFailure, MAX_BODY_BYTES, MAX_KEPT_ANSWERS, VERDICT_MEDIA_TYPE,
};

/// What one fetch got: an HTTP status and body, or why there was none.
pub type Fetched = Result<(u16, Vec<u8>), Unfetched>;

/// Why a fetch got no HTTP answer, and the fetcher's own words about it
/// when it had any ([`said`]), which the core's
/// [`Response::Failed`](x402_verdict_core::Response::Failed) carries.
pub type Unfetched = (FetchFailure, Option<Words>);

/// A fetcher's words, kept where a caller reads the structured result
/// (the builds with `lookupVerdict`: features `lookup` and `agent`). The
/// script tag's build (`renderBadge` alone) keeps none: a browser words
/// every failure alike (`Failed to fetch`, `Load failed`), saying no more
/// than the hover text does, and carrying the words cost that build's wasm
/// about 0.25 KB gzip, past its budget.
#[cfg(any(feature = "lookup", feature = "agent"))]
pub type Words = String;

/// No words, in the script tag's build (see above): none can be made, so
/// the code that carries them is left out.
#[cfg(not(any(feature = "lookup", feature = "agent")))]
pub enum Words {}

#[cfg(not(any(feature = "lookup", feature = "agent")))]
impl core::ops::Deref for Words {
    type Target = str;
    fn deref(&self) -> &str {
        match *self {}
    }
}

#[wasm_bindgen(module = "/js/common/early.js")]
extern "C" {
    /// The request started early for exactly `url`, taken: `[response
    /// promise, AbortController, when its lookup was asked (Date.now();
    /// undefined for one sent ahead of its turn)]`, or undefined.
    #[wasm_bindgen(js_name = takeEarly)]
    fn take_early(url: &str) -> JsValue;
}

#[cfg(feature = "agent")]
#[wasm_bindgen]
extern "C" {
    /// The global `fetch` (Node's and every browser's).
    #[wasm_bindgen(catch, js_name = fetch)]
    fn global_fetch(url: &str, init: &RequestInit) -> Result<Promise, JsValue>;
}

thread_local! {
    /// The requests in flight, and those settled whose answer is still
    /// fresh: a JS `Map` from `"{timeout} {url}"` to the promise of its
    /// [`encode`]d result.
    static IN_FLIGHT: Map = Map::new();
    /// In the agent's build: when each kept answer of [`IN_FLIGHT`] expires
    /// (`Date.now()` milliseconds), by the same key.
    #[cfg(feature = "agent")]
    static EXPIRES: Map = Map::new();
}

/// Forgets the answer kept for `key`, and when it expires.
fn forget(key: &JsValue) {
    IN_FLIGHT.with(|map| map.delete(key));
    #[cfg(feature = "agent")]
    EXPIRES.with(|map| map.delete(key));
}

/// Keeps the settled answer for `key` for `seconds`.
#[cfg(not(feature = "agent"))]
fn keep(key: JsValue, seconds: u32) {
    Timeout::new(seconds * 1000, move || forget(&key)).forget();
}

/// Keeps the settled answer for `key` for `seconds`: until a lookup after
/// then finds it expired.
#[cfg(feature = "agent")]
fn keep(key: JsValue, seconds: u32) {
    let deadline = js_sys::Date::now() + f64::from(seconds) * 1000.0;
    EXPIRES.with(|map| map.set(&key, &JsValue::from(deadline)));
}

/// Forgets every kept answer that has expired (at most
/// [`MAX_KEPT_ANSWERS`] to look at), so that none is reused late and the
/// expired ones leave room for new answers.
#[cfg(feature = "agent")]
fn forget_expired() {
    let now = js_sys::Date::now();
    let expired = Array::new();
    EXPIRES.with(|map| {
        map.for_each(&mut |deadline, key| {
            if deadline.as_f64().is_some_and(|deadline| deadline <= now) {
                expired.push(&key);
            }
        })
    });
    for key in expired.iter() {
        forget(&key);
    }
}

/// Fetches `url`, or shares the answer to a request for the same URL and
/// timeout: in flight, or settled and still fresh.
pub async fn fetch_shared(url: String, origin: String, timeout_ms: u32) -> Fetched {
    match JsFuture::from(shared(url, origin, timeout_ms)).await {
        Ok(value) => decode(&value),
        Err(_) => Err((FetchFailure::Network, None)),
    }
}

/// [`fetch_shared`]'s answer as every lookup sharing it gets it: one JS
/// value for as long as the answer is kept (so that what is derived from
/// it can be kept with it), to be [`decode`]d.
#[cfg(feature = "agent")]
pub async fn shared_answer(url: String, origin: String, timeout_ms: u32) -> JsValue {
    // The promise never rejects ([`crate::lookup::spawn`]).
    let answer = JsFuture::from(shared(url, origin, timeout_ms)).await;
    answer.unwrap_or_else(|_| JsValue::from(FetchFailure::Network as u32))
}

/// The promise of the [`encode`]d answer for `url` and `timeout_ms`: the
/// one shared, or a new request's.
fn shared(url: String, origin: String, timeout_ms: u32) -> Promise {
    let key = JsValue::from(words(&timeout_ms) + " " + &url);
    #[cfg(feature = "agent")]
    forget_expired();
    IN_FLIGHT.with(|map| match map.get(&key).dyn_into::<Promise>() {
        Ok(shared) => shared,
        Err(_) => {
            let promise = crate::lookup::spawn(Box::pin({
                let key = key.clone();
                async move {
                    let (fetched, cache_control) = fetch_once(&url, &origin, timeout_ms).await;
                    let reuse = reuse_seconds(&cache_control);
                    // The settled promise stays in the map while its answer
                    // is fresh (within MAX_KEPT_ANSWERS), then goes.
                    if reuse == 0 || IN_FLIGHT.with(Map::size) > MAX_KEPT_ANSWERS {
                        forget(&key);
                    } else {
                        keep(key, reuse);
                    }
                    encode(&fetched)
                }
            }));
            map.set(&key, &promise);
            promise
        }
    })
}

/// The failures, numbered by their place here for [`encode`] and [`decode`]:
/// the order of the core's type, so that a failure's number is `failure as
/// usize` (checked as this compiles).
const FAILURES: [FetchFailure; 4] = [
    FetchFailure::Timeout,
    FetchFailure::Network,
    FetchFailure::TooLarge,
    FetchFailure::Redirected,
];

const _: () = {
    let mut number = 0;
    while number < FAILURES.len() {
        assert!(FAILURES[number] as usize == number);
        number += 1;
    }
};

/// Fetched as a JS value, so that every waiter can read it: `[status,
/// bytes]`; a failure's number in [`FAILURES`], or `[number, words]` when
/// the fetcher had words.
fn encode(fetched: &Fetched) -> JsValue {
    match fetched {
        Ok((status, body)) => {
            Array::of2(&JsValue::from(*status), &Uint8Array::from(body.as_slice())).into()
        }
        Err((failure, words)) => {
            let number = JsValue::from(*failure as u32);
            match words {
                Some(words) => Array::of2(&number, &JsValue::from_str(words)).into(),
                None => number,
            }
        }
    }
}

/// What [`encode`] wrote.
pub fn decode(value: &JsValue) -> Fetched {
    let failure = |number: f64| {
        let failure = FAILURES.get(number as usize).copied();
        failure.unwrap_or(FetchFailure::Network)
    };
    if let Some(number) = value.as_f64() {
        return Err((failure(number), None));
    }
    let parts: Array = value.clone().unchecked_into();
    let first = parts.get(0).as_f64().unwrap_or_default();
    if let Some(words) = words_of(&parts.get(1)) {
        return Err((failure(first), Some(words)));
    }
    Ok((
        first as u16,
        parts.get(1).unchecked_into::<Uint8Array>().to_vec(),
    ))
}

/// One exchange, and its answer's `Cache-Control` (empty for a failure).
pub async fn fetch_once(url: &str, origin: &str, timeout_ms: u32) -> (Fetched, String) {
    let early: Option<Array> = take_early(url).dyn_into().ok();
    let controller = match &early {
        Some(early) => early.get(1).unchecked_into(),
        None => match AbortController::new() {
            Ok(controller) => controller,
            Err(error) => return (Err((FetchFailure::Network, said(&error))), String::new()),
        },
    };
    // The timeout counts from when the badge asked: a request started early
    // has used some of it, or all (a timeout, whatever has arrived); one
    // sent ahead of its lookup's turn, from now.
    let used = early.as_ref().map_or(0.0, |early| {
        early
            .get(2)
            .as_f64()
            .map_or(0.0, |asked| js_sys::Date::now() - asked)
    });
    if used >= f64::from(timeout_ms) {
        controller.abort();
        return (Err((FetchFailure::Timeout, None)), String::new());
    }
    let abort = controller.clone();
    let timer = Timeout::new(timeout_ms - used.max(0.0) as u32, move || abort.abort());
    let sent = early.map(|early| early.get(0).unchecked_into::<Promise>());
    let result = exchange(url, origin, &controller, sent).await;
    drop(timer);
    match result {
        // Our own timer's abort: a timeout, whatever the rejection says.
        Err(Failure::Js(_)) if controller.signal().aborted() => {
            (Err((FetchFailure::Timeout, None)), String::new())
        }
        Err(Failure::Js(words)) => (Err((FetchFailure::Network, words)), String::new()),
        Err(Failure::Protocol(failure)) => {
            controller.abort();
            (Err((failure, None)), String::new())
        }
        Ok((status, body, cache_control)) => (Ok((status, body)), cache_control),
    }
}

enum Failure {
    /// A promise rejected or a call threw (network error, CORS, a body
    /// that broke off, abort by the timer), and what it said ([`said`]).
    Js(Option<Words>),
    /// The answer broke a limit.
    Protocol(FetchFailure),
}

impl From<JsValue> for Failure {
    fn from(error: JsValue) -> Self {
        Failure::Js(said(&error))
    }
}

/// What the fetcher said of a failure: the `message` of what it threw
/// when it is a string (an `Error`'s; anything else says nothing), and in
/// the agent's build what its `cause` says (its message, else its code),
/// where Node's fetch keeps the reason: `fetch failed: connect
/// ECONNREFUSED 127.0.0.1:9`.
#[cfg(any(feature = "lookup", feature = "agent"))]
fn said(error: &JsValue) -> Option<Words> {
    let text = |of: &JsValue, name: &str| {
        let text = Reflect::get(of, &name.into()).ok()?.as_string();
        text.filter(|text| !text.is_empty())
    };
    let words = text(error, "message")?;
    #[cfg(feature = "agent")]
    if let Ok(cause) = Reflect::get(error, &"cause".into()) {
        if let Some(cause) = text(&cause, "message").or_else(|| text(&cause, "code")) {
            return Some(words + ": " + &cause);
        }
    }
    Some(words)
}

/// Nothing: the build keeps no [`Words`].
#[cfg(not(any(feature = "lookup", feature = "agent")))]
fn said(_: &JsValue) -> Option<Words> {
    None
}

/// `value` as [`Words`], when it is a string.
#[cfg(any(feature = "lookup", feature = "agent"))]
fn words_of(value: &JsValue) -> Option<Words> {
    value.as_string()
}

/// Nothing: the build keeps no [`Words`].
#[cfg(not(any(feature = "lookup", feature = "agent")))]
fn words_of(_: &JsValue) -> Option<Words> {
    None
}

/// The status, the body and the `Cache-Control` of the answer, from the
/// request `sent` early when there is one, else from a new one.
async fn exchange(
    url: &str,
    origin: &str,
    controller: &AbortController,
    sent: Option<Promise>,
) -> Result<(u16, Vec<u8>, String), Failure> {
    let sent = match sent {
        Some(sent) => sent,
        None => {
            #[cfg(not(feature = "agent"))]
            let window = web_sys::window().ok_or(Failure::Js(None))?;
            // A GET that follows redirects (fetch's defaults: the browser
            // cannot stop at each hop; where it ended up is checked below).
            let init = RequestInit::new();
            Reflect::set(&init, &"credentials".into(), &REQUEST_CREDENTIALS.into())?;
            init.set_signal(Some(&controller.signal()));
            let headers = js_sys::Object::new();
            Reflect::set(&headers, &"Accept".into(), &VERDICT_MEDIA_TYPE.into())?;
            init.set_headers(&headers);
            #[cfg(feature = "agent")]
            let sent = global_fetch(url, &init)?;
            #[cfg(not(feature = "agent"))]
            let sent = window.fetch_with_str_and_init(url, &init);
            sent
        }
    };
    let response: web_sys::Response = JsFuture::from(sent).await?.dyn_into()?;
    if response.redirected() && !response.url().starts_with(&(origin.to_owned() + "/")) {
        return Err(Failure::Protocol(FetchFailure::Redirected));
    }
    let headers = response.headers();
    let declared = headers
        .get("content-length")?
        .and_then(|n| n.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES) {
        return Err(Failure::Protocol(FetchFailure::TooLarge));
    }
    let mut body = Vec::new();
    if let Some(stream) = response.body() {
        let reader: ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
        loop {
            let chunk: ReadableStreamReadResult =
                JsFuture::from(reader.read()).await?.unchecked_into();
            if chunk.get_done() == Some(true) {
                break;
            }
            let bytes: Uint8Array = chunk.get_value().dyn_into()?;
            if body.len() + bytes.length() as usize > MAX_BODY_BYTES {
                let _ = reader.cancel();
                return Err(Failure::Protocol(FetchFailure::TooLarge));
            }
            body.extend_from_slice(&bytes.to_vec());
        }
    }
    let cache_control = headers.get("cache-control")?.unwrap_or_default();
    Ok((response.status(), body, cache_control))
}
