//! Strict JSON parsing: duplicate member names and deep nesting are errors.
//!
//! `serde_json` keeps the last of two equal member names; a signed protocol
//! must not, because two readers could then see two different documents.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// The deepest nesting of arrays and objects a document may have.
pub const MAX_DEPTH: usize = 16;

/// Parses `bytes` as one JSON value, rejecting duplicate member names anywhere
/// and nesting deeper than [`MAX_DEPTH`].
///
/// # Errors
///
/// A one-line description of the first problem found (syntax, a duplicate
/// member name, nesting too deep, trailing characters).
pub fn parse_strict(bytes: &[u8]) -> Result<Value, String> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = Strict { depth: 0 }
        .deserialize(&mut de)
        .map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(value)
}

/// A seed that builds a [`Value`] one nesting level down.
#[derive(Clone, Copy)]
struct Strict {
    depth: usize,
}

impl Strict {
    fn nested<E: serde::de::Error>(self) -> Result<Self, E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom(format_args!(
                "nesting deeper than {MAX_DEPTH} levels"
            )));
        }
        Ok(Strict {
            depth: self.depth + 1,
        })
    }
}

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = self.nested()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inner = self.nested()?;
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(A::Error::custom("duplicate member name"));
            }
            let value = map.next_value_seed(inner)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_plain_documents() {
        let v = parse_strict(br#"{"a":[1,{"b":null}],"c":"d"}"#).unwrap();
        assert_eq!(v["a"][1]["b"], Value::Null);
    }

    #[test]
    fn rejects_duplicates_at_any_depth() {
        assert!(parse_strict(br#"{"a":1,"a":2}"#)
            .unwrap_err()
            .contains("duplicate"));
        assert!(parse_strict(br#"{"x":[{"a":1,"a":1}]}"#)
            .unwrap_err()
            .contains("duplicate"));
    }

    #[test]
    fn caps_depth_without_recursing_further() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse_strict(ok.as_bytes()).is_ok());
        let deep = "[".repeat(100_000);
        assert!(parse_strict(deep.as_bytes())
            .unwrap_err()
            .contains("nesting"));
    }

    #[test]
    fn rejects_trailing_data_and_garbage() {
        assert!(parse_strict(b"{} {}").is_err());
        assert!(parse_strict(b"\xff\xfe").is_err());
        assert!(parse_strict(b"").is_err());
    }
}
