//! JS values in, core options out: the badge validates nothing itself.

use js_sys::Reflect;
use wasm_bindgen::JsValue;
use x402_verdict_core::json::Value;
use x402_verdict_core::options::{OptionsError, ReadError};
use x402_verdict_core::LookupOptions;

use crate::json_value::to_value;

/// Reads each option from a JS `options` object by property access (any
/// realm: an object made in an iframe reads the same), then lets the core
/// check them all. An option that cannot be read, or holds what JSON cannot
/// (`NaN`, `Infinity`, a `BigInt`, a function), is named as invalid.
pub fn from_js(options: &JsValue) -> Result<LookupOptions, OptionsError> {
    if !options.is_object() {
        return Err(OptionsError::NotAnObject);
    }
    LookupOptions::from_fields(&mut |name| {
        let value = Reflect::get(options, &name.into()).map_err(|_| ReadError::Threw)?;
        to_value(&value, 0).map(|value| with_base_url_resolved(name, value))
    })
}

/// The option as the core should see it: a non-empty `baseUrl` resolved
/// against the page's URL (`/`, `/verify`), as `fetch` would; the core then
/// checks the absolute URL. An empty one stays empty, and invalid.
fn with_base_url_resolved(name: &str, value: Option<Value>) -> Option<Value> {
    match value {
        Some(Value::String(base)) if name == "baseUrl" && !base.is_empty() => {
            let page = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.base_uri().ok().flatten());
            let url = page.and_then(|page| web_sys::Url::new_with_base(&base, &page).ok());
            Some(Value::String(url.map_or(base, |url| url.href())))
        }
        other => other,
    }
}
