//! JS values in, core options out: the badge validates nothing itself.

use js_sys::{Array, Reflect};
use wasm_bindgen::JsValue;
use x402_verdict_core::json::{Object, Value, MAX_DEPTH, MAX_SAFE_INTEGER};
use x402_verdict_core::options::OptionField;
use x402_verdict_core::LookupOptions;

/// The problem of a value whose getter (or proxy trap) threw.
const UNREADABLE: &str = "could not be read";

/// Reads each option from a JS `options` object by property access (any
/// realm: an object made in an iframe reads the same), then lets the core
/// check them all. An option that cannot be read, or holds what JSON cannot
/// (`NaN`, `Infinity`, a `BigInt`, a function), is named as invalid.
pub fn from_js(options: &JsValue) -> Result<LookupOptions, String> {
    if !options.is_object() {
        return Err("options must be an object".into());
    }
    LookupOptions::from_fields(&mut |name| {
        let value = Reflect::get(options, &name.into()).map_err(|_| UNREADABLE)?;
        to_value(&value, 0).map(|value| resolved(name, value))
    })
}

/// The option as the core should see it: a non-empty `baseUrl` resolved
/// against the page's URL (`/`, `/verify`), as `fetch` would; the core then
/// checks the absolute URL. An empty one stays empty, and invalid.
fn resolved(name: &str, value: Option<Value>) -> Option<Value> {
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

/// A JS value as JSON: `undefined` and `null` are absent; a number is an
/// integer only when it is a whole, safe one (`NaN`, `Infinity` and `1.5`
/// are not).
fn to_value(value: &JsValue, depth: usize) -> OptionField {
    if value.is_null_or_undefined() {
        return Ok(None);
    }
    Ok(Some(if let Some(b) = value.as_bool() {
        Value::Bool(b)
    } else if let Some(n) = value.as_f64() {
        match n as i64 {
            i if i as f64 == n && (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&i) => {
                Value::Integer(i)
            }
            // JavaScript prints it (`NaN`, `Infinity`, `1.5`): no float
            // formatting code in the wasm.
            _ => Value::OtherNumber(
                String::from(
                    js_sys::Number::from(n)
                        .to_string_with_radix(10)
                        .unwrap_or_default(),
                )
                .into(),
            ),
        }
    } else if let Some(text) = value.as_string() {
        Value::String(text)
    } else if value.is_bigint() {
        return Err("is a BigInt, not a number");
    } else if !value.is_object() {
        return Err("is not a JSON value");
    } else if depth >= MAX_DEPTH {
        return Err("is nested too deeply");
    } else if Array::is_array(value) {
        let length = Reflect::get(value, &"length".into())
            .ok()
            .and_then(|n| n.as_f64());
        let mut items = Vec::new();
        for i in 0..length.unwrap_or_default() as u32 {
            let item = Reflect::get_u32(value, i).map_err(|_| UNREADABLE)?;
            items.push(to_value(&item, depth + 1)?.unwrap_or(Value::Null));
        }
        Value::Array(items)
    } else {
        let mut object = Object::new();
        let keys = Reflect::own_keys(value).map_err(|_| UNREADABLE)?;
        for key in keys.iter() {
            let Some(name) = key.as_string() else {
                continue;
            };
            let member = Reflect::get(value, &key).map_err(|_| UNREADABLE)?;
            if let Some(member) = to_value(&member, depth + 1)? {
                object.insert(&name, member);
            }
        }
        Value::Object(object)
    }))
}
