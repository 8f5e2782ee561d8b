//! JS values in, core options out: the badge validates nothing itself.

use js_sys::JSON;
use wasm_bindgen::JsValue;
use web_sys::Element;
use x402_verdict_core::json::{parse_strict, Object, Value};
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

/// Reads the options of a `data-x402-verdict` element from its attributes:
/// `data-base-url`, `data-chain`, `data-pay-to`, `data-resource-url`,
/// `data-public-key` (one or several base64 keys separated by commas),
/// `data-timeout-ms` and `data-strict`.
pub fn from_attributes(element: &Element) -> Result<LookupOptions, String> {
    let mut options = Object::new();
    let attr = |name: &str| element.get_attribute(name);
    for (attribute, key) in [
        ("data-base-url", "baseUrl"),
        ("data-chain", "chain"),
        ("data-pay-to", "payTo"),
        ("data-resource-url", "resourceUrl"),
    ] {
        if let Some(value) = attr(attribute) {
            let value = if key == "baseUrl" {
                resolve(&value)
            } else {
                value
            };
            options.insert(key, Value::String(value));
        }
    }
    if let Some(keys) = attr("data-public-key") {
        let list = keys
            .split(',')
            .map(|k| Value::String(k.trim().to_owned()))
            .collect();
        options.insert("publicKey", Value::Array(list));
    }
    if let Some(ms) = attr("data-timeout-ms") {
        let number = ms
            .trim()
            .parse::<u32>()
            .map_or(Value::String(ms), |n| Value::Integer(n.into()));
        options.insert("timeoutMs", number);
    }
    if let Some(strict) = attr("data-strict") {
        let on = matches!(strict.as_str(), "" | "true" | "strict");
        let value = if on || strict == "false" {
            Value::Bool(on)
        } else {
            Value::String(strict)
        };
        options.insert("strict", value);
    }
    LookupOptions::from_json(&Value::Object(options))
}
