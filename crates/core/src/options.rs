//! Lookup options given as one JSON object (the badge's `options`), checked
//! as a whole: an invalid option never leads to a fetch with half-valid input.

use crate::endpoint::Endpoint;
use crate::evaluate::Lookup;
use crate::json::Value;
use crate::keys::TrustedKeys;
use crate::request::{check_timeout_ms, BaseUrl, DEFAULT_TIMEOUT_MS};

/// Everything one lookup needs, validated.
#[derive(Clone, Debug)]
pub struct LookupOptions {
    /// The service; `None` when `baseUrl` is absent (outcome `no_service`).
    pub base_url: Option<BaseUrl>,
    /// The endpoint, trust and strictness.
    pub lookup: Lookup,
    /// The whole-exchange timeout.
    pub timeout_ms: u32,
}

impl LookupOptions {
    /// Reads `baseUrl`, `chain`, `payTo`, `resourceUrl`, `publicKey`,
    /// `timeoutMs` and `strict` from a JSON object. `baseUrl`, `publicKey`,
    /// `timeoutMs` and `strict` are optional.
    ///
    /// # Errors
    ///
    /// One line naming every invalid option, separated by `; `.
    pub fn from_json(options: &Value) -> Result<Self, String> {
        let Value::Object(o) = options else {
            return Err("options must be an object".into());
        };
        let mut problems: Vec<String> = Vec::new();
        let present = |name: &str| o.get(name).filter(|v| **v != Value::Null);

        let base_url = present("baseUrl").and_then(|v| match v.as_str().map(BaseUrl::parse) {
            Some(Ok(url)) => Some(url),
            Some(Err(problem)) => {
                problems.push(format!("baseUrl {problem}"));
                None
            }
            None => {
                problems.push("baseUrl must be a string".into());
                None
            }
        });

        let mut field = |name: &str| match present(name) {
            Some(Value::String(s)) => s.clone(),
            Some(_) => {
                problems.push(format!("{name} must be a string"));
                String::new()
            }
            None => {
                problems.push(format!("{name} is missing"));
                String::new()
            }
        };
        let (chain, pay_to, resource_url) = (field("chain"), field("payTo"), field("resourceUrl"));
        let endpoint = if problems.iter().any(|p| !p.starts_with("baseUrl")) {
            None
        } else {
            Endpoint::new(&chain, &pay_to, &resource_url)
                .map_err(|e| problems.push(e.to_string()))
                .ok()
        };

        let keys = match present("publicKey") {
            None => TrustedKeys::none(),
            Some(v) => TrustedKeys::from_json(v).unwrap_or_else(|e| {
                problems.push(format!("publicKey: {e}"));
                TrustedKeys::none()
            }),
        };

        let timeout_ms = match present("timeoutMs") {
            None => Ok(DEFAULT_TIMEOUT_MS),
            Some(Value::Integer(ms)) => u64::try_from(*ms)
                .map_err(|_| "")
                .and_then(check_timeout_ms),
            Some(_) => Err(""),
        }
        .unwrap_or_else(|_| {
            problems
                .push("timeoutMs must be a whole number of milliseconds from 1 to 60000".into());
            DEFAULT_TIMEOUT_MS
        });

        let strict = match present("strict") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                problems.push("strict must be true or false".into());
                false
            }
        };

        match endpoint {
            Some(endpoint) if problems.is_empty() => Ok(LookupOptions {
                base_url,
                lookup: Lookup {
                    endpoint,
                    keys,
                    strict,
                },
                timeout_ms,
            }),
            _ => Err(problems.join("; ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    impl LookupOptions {
        fn from_json_test(v: serde_json::Value) -> Result<Self, String> {
            Self::from_json(&crate::json::from_serde(&v))
        }
    }

    #[test]
    fn defaults_apply() {
        let o = LookupOptions::from_json_test(json!({"baseUrl": "https://v.example/", "chain": "base", "payTo": "0x1", "resourceUrl": "https://r"})).unwrap();
        assert_eq!(o.timeout_ms, 3000);
        assert!(!o.lookup.strict);
        assert!(o.lookup.keys.is_empty());
        assert_eq!(o.base_url.unwrap().to_string(), "https://v.example");
    }

    #[test]
    fn absent_base_url_is_no_service_not_an_error() {
        let o = LookupOptions::from_json_test(
            json!({"chain": "base", "payTo": "0x1", "resourceUrl": "r"}),
        )
        .unwrap();
        assert!(o.base_url.is_none());
    }

    #[test]
    fn names_every_bad_option() {
        let e = LookupOptions::from_json_test(json!({"baseUrl": "ftp://x", "chain": 5, "resourceUrl": "r", "timeoutMs": -1, "strict": "yes", "publicKey": "zz"})).unwrap_err();
        assert_eq!(
            e,
            "baseUrl is not an absolute http:// or https:// URL; chain must be a string; payTo is missing; publicKey: the public key is not base64; timeoutMs must be a whole number of milliseconds from 1 to 60000; strict must be true or false"
        );
        assert_eq!(
            LookupOptions::from_json_test(json!(null)).unwrap_err(),
            "options must be an object"
        );
        assert_eq!(
            LookupOptions::from_json_test(json!([1])).unwrap_err(),
            "options must be an object"
        );
        assert_eq!(
            LookupOptions::from_json_test(json!({"chain": "", "payTo": "p", "resourceUrl": "r"}))
                .unwrap_err(),
            "chain is empty"
        );
        assert!(LookupOptions::from_json_test(
            json!({"chain": "c", "payTo": "p", "resourceUrl": "r", "timeoutMs": 1.5})
        )
        .is_err());
    }
}
