//! JS values as the core's JSON values, read by property access (any realm:
//! an object made in an iframe reads the same), never through JSON text.

use js_sys::{Array, Reflect};
use wasm_bindgen::JsValue;
use x402_verdict_core::json::{Object, Value, MAX_DEPTH, MAX_SAFE_INTEGER};
use x402_verdict_core::{OptionField, ReadError};

/// A JS value as JSON: `undefined` and `null` are absent; a number is an
/// integer only when it is a whole, safe one (`NaN`, `Infinity` and `1.5`
/// are not). `depth` is how deep `value` lies (0 for the value asked about):
/// past [`MAX_DEPTH`], or in a cycle, it is refused.
pub fn to_value(value: &JsValue, depth: usize) -> OptionField {
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
        return Err(ReadError::BigInt);
    } else if !value.is_object() {
        return Err(ReadError::NotJson);
    } else if depth >= MAX_DEPTH {
        return Err(ReadError::TooDeep);
    } else if Array::is_array(value) {
        let length = Reflect::get(value, &"length".into())
            .ok()
            .and_then(|n| n.as_f64());
        let mut items = Vec::new();
        for i in 0..length.unwrap_or_default() as u32 {
            let item = Reflect::get_u32(value, i).map_err(|_| ReadError::Threw)?;
            items.push(to_value(&item, depth + 1)?.unwrap_or(Value::Null));
        }
        Value::Array(items)
    } else {
        let mut object = Object::new();
        let keys = Reflect::own_keys(value).map_err(|_| ReadError::Threw)?;
        for key in keys.iter() {
            let Some(name) = key.as_string() else {
                continue;
            };
            let member = Reflect::get(value, &key).map_err(|_| ReadError::Threw)?;
            if let Some(member) = to_value(&member, depth + 1)? {
                object.insert(&name, member);
            }
        }
        Value::Object(object)
    }))
}
