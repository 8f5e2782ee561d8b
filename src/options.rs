//! JS values in, core options out: the badge validates nothing itself.

use js_sys::JSON;
use wasm_bindgen::JsValue;
use x402_verdict_core::json::{parse_strict, Value};
use x402_verdict_core::LookupOptions;

/// Reads a JS `options` value through `JSON.stringify`, then lets the core
/// check it. Anything `JSON.stringify` cannot take (a BigInt, a cycle, a
/// throwing getter) is an invalid options value.
pub fn from_js(options: &JsValue) -> Result<LookupOptions, String> {
    let text = JSON::stringify(options)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or("options must be an object")?;
    let mut value = parse_strict(text.as_bytes()).map_err(|_| "options must be an object")?;
    if let Value::Object(options) = &mut value {
        if let Some(Value::String(base)) = options.get("baseUrl") {
            let base = resolve(base);
            options.insert("baseUrl", Value::String(base));
        }
    }
    LookupOptions::from_json(&value)
}

/// Resolves a relative `baseUrl` (`/`, `/verify`) against the page's URL,
/// as `fetch` would; the core then checks the absolute URL.
fn resolve(base: &str) -> String {
    let page = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten());
    page.and_then(|page| web_sys::Url::new_with_base(base, &page).ok())
        .map_or_else(|| base.to_owned(), |url| url.href())
}
