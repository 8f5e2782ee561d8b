//! JS values in, core options out: the badge validates nothing itself, and
//! reads nothing of an attribute's text (the core does).

use crate::words::ATTRIBUTES_KEY;
use js_sys::{Reflect, Symbol};
use wasm_bindgen::JsValue;
use x402_verdict_core::json::Value;
use x402_verdict_core::{from_attribute, LookupOptions, OptionsError, ReadError};

use crate::json_value::to_value;

/// Reads each option from a JS `options` object by property access (any
/// realm: an object made in an iframe reads the same), then lets the core
/// check them all. An option that cannot be read, or holds what JSON cannot
/// (`NaN`, `Infinity`, a `BigInt`, a function), is named as invalid.
pub fn from_js(options: &JsValue) -> Result<LookupOptions, OptionsError> {
    if !options.is_object() {
        return Err(OptionsError::NotAnObject);
    }
    // The texts of the options the package read from HTML attributes.
    let attributes = Reflect::get(options, &Symbol::for_(ATTRIBUTES_KEY)).unwrap_or_default();
    LookupOptions::from_fields(&mut |name| {
        let value = Reflect::get(options, &name.into()).map_err(|_| ReadError::Threw)?;
        let text = if value.is_undefined() && attributes.is_object() {
            Reflect::get(&attributes, &name.into())
                .ok()
                .and_then(|t| t.as_string())
        } else {
            None
        };
        let value = match text {
            Some(text) => Some(from_attribute(name, text)),
            None => to_value(&value, 0)?,
        };
        Ok(with_base_url_resolved(name, value))
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
