//! Lookup options (the badge's `options` object or its `data-*` attributes),
//! read one by one from their source and checked as a whole: an invalid
//! option never leads to a fetch with half-valid input.

use crate::endpoint::Endpoint;
use crate::evaluate::Lookup;
use crate::json::Value;
use crate::keys::TrustedKeys;
use crate::request::{check_timeout_ms, BaseUrl, DEFAULT_TIMEOUT_MS};
use crate::text::joined;

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

/// The option names, as JS and JSON spell them, in the order they are checked.
pub const OPTION_NAMES: [&str; 7] = [
    "baseUrl",
    "chain",
    "payTo",
    "resourceUrl",
    "publicKey",
    "timeoutMs",
    "strict",
];

/// One option as its source holds it: absent (`None`), a JSON value, or a
/// problem that kept it from being read (for example a getter that threw),
/// in a few words.
pub type OptionField = Result<Option<Value>, &'static str>;

impl LookupOptions {
    /// Reads each option through `read`, called once for each of
    /// [`OPTION_NAMES`], in that order; `null` counts as absent. (`read` is a
    /// trait object so that every source shares one copy of this code.)
    ///
    /// # Errors
    ///
    /// One line naming every invalid option, separated by `; `.
    pub fn from_fields(read: &mut dyn FnMut(&'static str) -> OptionField) -> Result<Self, String> {
        let mut o = Reader {
            read,
            problems: Vec::new(),
        };
        let base_url = match o.take("baseUrl") {
            Some(Value::String(text)) => match BaseUrl::parse(&text) {
                Ok(url) => Some(url),
                Err(problem) => o.problem(format!("baseUrl {problem}")),
            },
            Some(_) => o.problem("baseUrl must be a string".into()),
            None => None,
        };

        let before = o.problems.len();
        let mut text = |name| match o.take_required(name) {
            Some(Value::String(s)) => s,
            Some(_) => o
                .problem(format!("{name} must be a string"))
                .unwrap_or_default(),
            None => String::new(),
        };
        let (chain, pay_to, resource_url) = (text("chain"), text("payTo"), text("resourceUrl"));
        let endpoint = if o.problems.len() > before {
            None
        } else {
            Endpoint::new(&chain, &pay_to, &resource_url)
                .map_err(|e| o.problems.push(e.to_string()))
                .ok()
        };

        let keys = match o.take("publicKey").map(|v| TrustedKeys::from_json(&v)) {
            None => TrustedKeys::none(),
            Some(Ok(keys)) => keys,
            Some(Err(e)) => o
                .problem(format!("publicKey: {e}"))
                .unwrap_or_else(TrustedKeys::none),
        };

        let timeout_ms = match o.take("timeoutMs") {
            None => Some(DEFAULT_TIMEOUT_MS),
            Some(Value::Integer(ms)) => u64::try_from(ms)
                .ok()
                .and_then(|ms| check_timeout_ms(ms).ok()),
            Some(_) => None,
        }
        .or_else(|| {
            o.problem("timeoutMs must be a whole number of milliseconds from 1 to 60000".into())
        })
        .unwrap_or(DEFAULT_TIMEOUT_MS);

        let strict = match o.take("strict") {
            None => false,
            Some(Value::Bool(b)) => b,
            Some(_) => o
                .problem("strict must be true or false".into())
                .unwrap_or_default(),
        };

        match endpoint {
            Some(endpoint) if o.problems.is_empty() => Ok(LookupOptions {
                base_url,
                lookup: Lookup {
                    endpoint,
                    keys,
                    strict,
                },
                timeout_ms,
            }),
            _ => Err(joined(&o.problems, "; ")),
        }
    }
}

/// Reads options one by one and collects the problems found.
struct Reader<'a> {
    read: &'a mut dyn FnMut(&'static str) -> OptionField,
    problems: Vec<String>,
}

impl Reader<'_> {
    /// The option `name`; `None` when it is absent, `null` or unreadable
    /// (a problem, noted).
    fn take(&mut self, name: &'static str) -> Option<Value> {
        self.read_option(name).unwrap_or_default()
    }

    /// The option `name`, which must be present; `None` after noting why not.
    fn take_required(&mut self, name: &'static str) -> Option<Value> {
        match self.read_option(name) {
            Ok(None) => self.problem(format!("{name} is missing")),
            read => read.unwrap_or_default(),
        }
    }

    /// `Err` when the option could not be read (the problem is noted).
    fn read_option(&mut self, name: &'static str) -> Result<Option<Value>, ()> {
        match (self.read)(name) {
            Ok(value) => Ok(value.filter(|v| *v != Value::Null)),
            Err(problem) => self.problem(format!("{name} {problem}")).ok_or(()),
        }
    }

    /// Notes a problem; `None`, so that callers can fall through to a default.
    fn problem<T>(&mut self, problem: String) -> Option<T> {
        self.problems.push(problem);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    impl LookupOptions {
        /// The options of a JSON object, as a badge reads a JS one.
        fn from_json_test(v: serde_json::Value) -> Result<Self, String> {
            let options = crate::json::from_serde(&v);
            Self::from_fields(&mut |name| Ok(options.get(name).cloned()))
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
            LookupOptions::from_json_test(json!({"chain": "", "payTo": "p", "resourceUrl": "r"}))
                .unwrap_err(),
            "chain is empty"
        );
        assert!(LookupOptions::from_json_test(
            json!({"chain": "c", "payTo": "p", "resourceUrl": "r", "timeoutMs": 1.5})
        )
        .is_err());
    }

    #[test]
    fn an_unreadable_option_is_named_once_and_the_rest_still_checked() {
        let mut asked = Vec::new();
        let e = LookupOptions::from_fields(&mut |name| {
            asked.push(name);
            match name {
                "chain" => Err("could not be read"),
                "payTo" => Ok(Some(Value::OtherNumber("1.5".into()))),
                "resourceUrl" => Ok(Some("r".into())),
                "baseUrl" => Ok(Some("".into())),
                _ => Ok(None),
            }
        })
        .unwrap_err();
        assert_eq!(asked, OPTION_NAMES, "each option read once, in order");
        assert_eq!(
            e,
            "baseUrl is empty; chain could not be read; payTo must be a string"
        );
    }
}
