//! Lookup options (the badge's `options` object or its `data-*` attributes),
//! read one by one from their source and checked as a whole: an invalid
//! option never leads to a fetch with half-valid input.

use crate::endpoint::{Endpoint, FieldRule};
use crate::evaluate::Lookup;
use crate::json::Value;
use crate::keys::{comma_separated, KeysError, TrustedKeys};
use crate::request::{check_timeout_ms, BaseUrl, BaseUrlError, TimeoutError, DEFAULT_TIMEOUT_MS};
use crate::writing::{
    error_from_words, error_without_cause, uDisplay, words_from_str, write_line, ErrorChain,
};

/// Everything one lookup needs, validated.
#[derive(Clone, Debug)]
pub struct LookupOptions {
    /// The service; `None` when `baseUrl` is absent (outcome `no_service`).
    pub base_url: Option<BaseUrl>,
    /// The endpoint, trust and strictness.
    pub lookup: Lookup,
    /// The whole-exchange timeout.
    pub timeout_ms: u32,
    /// The verdict inlined in the page (its JSON text), to use instead of a
    /// request when it may ([`Lookup::evaluate_inlined`]).
    pub verdict: Option<String>,
}

/// The transparency options (feature `transparency`), read after
/// [`OPTION_NAMES`], in this order: the log's verifier key, the
/// witnesses' (a list), the quorum (a whole number) and the policy (`off`,
/// `if-present`, `required`). No badge's wasm reads them: a badge on the
/// seller's own page verifies no proof.
#[cfg(feature = "transparency")]
pub const LOG_OPTION_NAMES: [&str; 4] = ["logKey", "witnessKeys", "witnessQuorum", "transparency"];

/// The option names, as JS and JSON spell them, in the order they are checked.
pub const OPTION_NAMES: [&str; 9] = [
    "baseUrl",
    "chain",
    "payTo",
    "resourceUrl",
    "publicKey",
    "rootKey",
    "timeoutMs",
    "strict",
    "verdict",
];

/// An option written as an HTML attribute (`data-public-key="k1, k2"`,
/// `data-timeout-ms="5000"`, `data-strict`), as the value the option takes:
/// for `publicKey` and `rootKey`, the list of its comma-separated keys; for `timeoutMs`,
/// the whole number its decimal digits write; for `strict`, its
/// [`strict_from_text`]. Any
/// other text is the option's value as written, which the option's own rule
/// then takes or refuses (`timeoutMs="soon"` is not an integer).
pub fn from_attribute(name: &str, text: String) -> Value {
    match name {
        "publicKey" | "rootKey" => Value::Array(
            comma_separated(&text)
                .map(|key| Value::String(key.to_owned()))
                .collect(),
        ),
        "timeoutMs" => whole_number(text.trim_ascii()).map_or(Value::String(text), Value::Integer),
        "strict" => strict_from_text(&text).map_or(Value::String(text), Value::Bool),
        _ => Value::String(text),
    }
}

/// A strictness flag written as text (an HTML attribute, an environment
/// variable): true when empty (an attribute's mere presence), `1`, `true`
/// or `strict`; false when `0` or `false`; `None` for any other text.
pub fn strict_from_text(text: &str) -> Option<bool> {
    match text {
        "" | "1" | "true" | "strict" => Some(true),
        "0" | "false" => Some(false),
        _ => None,
    }
}

/// The whole number `digits` writes in decimal (none for an empty text or
/// any other character), byte by byte for the wasm's size (no integer
/// parser); one past `u32` saturates, and so stays past every limit.
fn whole_number(digits: &str) -> Option<i64> {
    if digits.is_empty() {
        return None;
    }
    let n = digits.bytes().try_fold(0u32, |n, b| {
        let digit = b.wrapping_sub(b'0');
        (digit < 10).then(|| n.saturating_mul(10).saturating_add(u32::from(digit)))
    })?;
    Some(n.into())
}

/// One option as its source holds it: absent (`None`), a JSON value, or why
/// it could not be read.
pub type OptionField = Result<Option<Value>, ReadError>;

/// Why a source could not give an option as a JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Reading it threw (a getter, a proxy trap).
    Threw,
    /// It is a `BigInt`.
    BigInt,
    /// It is something else JSON cannot hold (a function, a symbol).
    NotJson,
    /// It nests deeper than [`MAX_DEPTH`](crate::json::MAX_DEPTH), or in a cycle.
    TooDeep,
}

impl ReadError {
    /// The problem, as a predicate (`could not be read`).
    pub fn as_str(self) -> &'static str {
        match self {
            ReadError::Threw => "could not be read",
            ReadError::BigInt => "is a BigInt, not a number",
            ReadError::NotJson => "is not a JSON value",
            ReadError::TooDeep => "is nested too deeply",
        }
    }
}

words_from_str!(ReadError);

/// Why options are refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionsError {
    /// The options are not an object at all.
    NotAnObject,
    /// Every invalid option, in the order of [`OPTION_NAMES`] (at least one).
    Invalid(Vec<OptionError>),
}

/// One invalid option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// Its name, as in [`OPTION_NAMES`].
    pub option: &'static str,
    /// The rule it breaks.
    pub rule: OptionRule,
}

/// A rule an option can break, for [`OptionError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionRule {
    /// Its source could not give it as a JSON value.
    Unreadable(ReadError),
    /// It is required and absent (or `null`).
    Missing,
    /// It must be a string and is not.
    NotAString,
    /// `baseUrl`: not an acceptable URL.
    BaseUrl(BaseUrlError),
    /// `chain`, `payTo` or `resourceUrl`: not an acceptable endpoint value.
    Endpoint(FieldRule),
    /// `publicKey` or `rootKey`: not an acceptable key configuration.
    Keys(KeysError),
    /// `timeoutMs`: not a whole number of milliseconds in range.
    Timeout(TimeoutError),
    /// `strict`: not `true` or `false`.
    NotABoolean,
    /// A transparency option ([`LOG_OPTION_NAMES`]) that breaks its rule.
    #[cfg(feature = "transparency")]
    Log(crate::transparency::LogRule),
}

impl uDisplay for OptionError {
    /// One clause naming the option and the rule it breaks (`payTo is
    /// missing`); for a `publicKey` that is no key configuration, the
    /// option's name alone, its [`KeysError`] being the cause.
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        f.write_str(self.option)?;
        let predicate = match &self.rule {
            OptionRule::Unreadable(problem) => problem.as_str(),
            OptionRule::Missing => "is missing",
            OptionRule::NotAString => "must be a string",
            OptionRule::BaseUrl(problem) => problem.as_str(),
            OptionRule::Endpoint(rule) => rule.as_str(),
            OptionRule::Keys(_) => return Ok(()),
            OptionRule::Timeout(problem) => problem.as_str(),
            OptionRule::NotABoolean => "must be true or false",
            #[cfg(feature = "transparency")]
            OptionRule::Log(rule) => rule.as_str(),
        };
        f.write_str(" ")?;
        f.write_str(predicate)
    }
}

impl uDisplay for OptionsError {
    /// One line naming every invalid option, each as its line
    /// ([`line()`](crate::line): the option, then its cause), separated by `; `. A
    /// list has no one cause: it is the level that holds them all.
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        match self {
            OptionsError::NotAnObject => f.write_str("options must be an object"),
            OptionsError::Invalid(errors) => {
                for (i, error) in errors.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write_line(error, f)?;
                }
                Ok(())
            }
        }
    }
}

impl ErrorChain for OptionError {
    type Wrapped = KeysError;
    /// A `publicKey`'s [`KeysError`]. The other rules complete the clause
    /// that names the option (`baseUrl is empty`, `timeoutMs must be …`):
    /// no cause of their own.
    fn wrapped(&self) -> Option<&KeysError> {
        match &self.rule {
            OptionRule::Keys(e) => Some(e),
            _ => None,
        }
    }
}

error_without_cause!(ReadError, OptionsError);
error_from_words!(OptionError);

impl LookupOptions {
    /// Reads each option through `read`, called once for each of
    /// [`OPTION_NAMES`], in that order; `null` counts as absent. (`read` is a
    /// trait object so that every source shares one copy of this code.)
    ///
    /// # Errors
    ///
    /// [`OptionsError::Invalid`], naming every invalid option.
    pub fn from_fields(
        read: &mut dyn FnMut(&'static str) -> OptionField,
    ) -> Result<Self, OptionsError> {
        let mut o = Reader {
            read,
            problems: Vec::new(),
        };
        let base_url = match o.take("baseUrl") {
            Some(Value::String(text)) => match BaseUrl::parse(&text) {
                Ok(url) => Some(url),
                Err(problem) => o.problem("baseUrl", OptionRule::BaseUrl(problem)),
            },
            Some(_) => o.problem("baseUrl", OptionRule::NotAString),
            None => None,
        };

        let before = o.problems.len();
        let mut text = |name| match o.take_required(name) {
            Some(Value::String(s)) => s,
            Some(_) => o.problem(name, OptionRule::NotAString).unwrap_or_default(),
            None => String::new(),
        };
        let (chain, pay_to, resource_url) = (text("chain"), text("payTo"), text("resourceUrl"));
        let endpoint = if o.problems.len() > before {
            None
        } else {
            Endpoint::new(&chain, &pay_to, &resource_url)
                .map_err(|e| o.problem::<()>(e.field, OptionRule::Endpoint(e.rule)))
                .ok()
        };

        let mut keys = |name| match o.take(name).map(|v| TrustedKeys::from_json(&v)) {
            None => TrustedKeys::none(),
            Some(Ok(keys)) => keys,
            Some(Err(e)) => o
                .problem(name, OptionRule::Keys(e))
                .unwrap_or_else(TrustedKeys::none),
        };
        let public = keys("publicKey");
        let roots = keys("rootKey");
        #[cfg(feature = "roots")]
        let keys = public.with_roots(&roots);
        // Without the feature, root keys are checked and pin nothing.
        #[cfg(not(feature = "roots"))]
        let keys = {
            drop(roots);
            public
        };

        let timeout_ms = match o.take("timeoutMs") {
            None => Some(DEFAULT_TIMEOUT_MS),
            Some(Value::Integer(ms)) => u64::try_from(ms)
                .ok()
                .and_then(|ms| check_timeout_ms(ms).ok()),
            Some(_) => None,
        }
        .or_else(|| o.problem("timeoutMs", OptionRule::Timeout(TimeoutError)))
        .unwrap_or(DEFAULT_TIMEOUT_MS);

        let strict = match o.take("strict") {
            None => false,
            Some(Value::Bool(b)) => b,
            Some(_) => o
                .problem("strict", OptionRule::NotABoolean)
                .unwrap_or_default(),
        };

        let verdict = match o.take("verdict") {
            None => None,
            Some(Value::String(text)) => Some(text),
            Some(_) => o.problem("verdict", OptionRule::NotAString),
        };

        #[cfg(feature = "transparency")]
        let keys = keys.with_log(o.log_config());

        match endpoint {
            Some(endpoint) if o.problems.is_empty() => Ok(LookupOptions {
                base_url,
                lookup: Lookup {
                    endpoint,
                    keys,
                    strict,
                },
                timeout_ms,
                verdict,
            }),
            _ => Err(OptionsError::Invalid(o.problems)),
        }
    }
}

/// Reads options one by one and collects the problems found.
struct Reader<'a> {
    read: &'a mut dyn FnMut(&'static str) -> OptionField,
    problems: Vec<OptionError>,
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
            Ok(None) => self.problem(name, OptionRule::Missing),
            read => read.unwrap_or_default(),
        }
    }

    /// `Err` when the option could not be read (the problem is noted).
    fn read_option(&mut self, name: &'static str) -> Result<Option<Value>, ()> {
        match (self.read)(name) {
            Ok(value) => Ok(value.filter(|v| !matches!(v, Value::Null))),
            Err(problem) => self
                .problem(name, OptionRule::Unreadable(problem))
                .ok_or(()),
        }
    }

    /// The transparency options ([`LOG_OPTION_NAMES`]), as the keys carry
    /// them; `None` (proofs not read) after noting the first that breaks
    /// a rule.
    #[cfg(feature = "transparency")]
    fn log_config(&mut self) -> Option<crate::transparency::LogConfig> {
        use crate::transparency::{LogConfig, LogConfigError, LogRule, LogSetting, LogSettings};
        let [log_key, witnesses, quorum, policy] = LOG_OPTION_NAMES.map(|name| self.take(name));
        let wrong = |setting| LogConfigError {
            setting,
            rule: match setting {
                LogSetting::WitnessQuorum => LogRule::NotAQuorum,
                _ => LogRule::NotText,
            },
        };
        fn text(value: &Option<Value>, setting: LogSetting) -> Result<Option<&str>, LogSetting> {
            match value {
                None => Ok(None),
                Some(Value::String(text)) => Ok(Some(text.as_str())),
                Some(_) => Err(setting),
            }
        }
        let settings = || -> Result<LogSettings<'_>, LogConfigError> {
            Ok(LogSettings {
                log_key: text(&log_key, LogSetting::LogKey).map_err(wrong)?,
                witness_keys: match &witnesses {
                    None => Vec::new(),
                    Some(Value::Array(keys)) => keys
                        .iter()
                        .map(|key| key.as_str().ok_or(wrong(LogSetting::WitnessKeys)))
                        .collect::<Result<_, _>>()?,
                    Some(_) => return Err(wrong(LogSetting::WitnessKeys)),
                },
                witness_quorum: match quorum {
                    None => None,
                    Some(Value::Integer(n)) => {
                        Some(u64::try_from(n).map_err(|_| wrong(LogSetting::WitnessQuorum))?)
                    }
                    Some(_) => return Err(wrong(LogSetting::WitnessQuorum)),
                },
                transparency: text(&policy, LogSetting::Transparency).map_err(wrong)?,
            })
        };
        match settings().and_then(|settings| LogConfig::from_settings(&settings)) {
            Ok(config) => config,
            Err(e) => self.problem(e.setting.option_name(), OptionRule::Log(e.rule)),
        }
    }

    /// Notes a problem; `None`, so that callers can fall through to a default.
    fn problem<T>(&mut self, option: &'static str, rule: OptionRule) -> Option<T> {
        self.problems.push(OptionError { option, rule });
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    impl LookupOptions {
        /// The options of a JSON object, as a badge reads a JS one.
        fn from_json_test(v: serde_json::Value) -> Result<Self, OptionsError> {
            let options = crate::json::from_serde(&v);
            Self::from_fields(&mut |name| Ok(options.get(name).cloned()))
        }
    }

    #[test]
    fn attribute_texts_read_as_the_values_their_options_take() {
        let cases = [
            ("publicKey", "k1", json!(["k1"])),
            ("publicKey", " k1 , k2 ", json!(["k1", "k2"])),
            ("timeoutMs", "5000", json!(5000)),
            ("timeoutMs", " 250 ", json!(250)),
            ("timeoutMs", "+5", json!("+5")),
            ("timeoutMs", "1.5", json!("1.5")),
            ("timeoutMs", "", json!("")),
            (
                "timeoutMs",
                "99999999999999999999",
                json!(4_294_967_295_u32),
            ),
            ("strict", "", json!(true)),
            ("strict", "true", json!(true)),
            ("strict", "strict", json!(true)),
            ("strict", "false", json!(false)),
            ("strict", "yes", json!("yes")),
            ("chain", " base ", json!(" base ")),
        ];
        for (name, text, expected) in cases {
            assert_eq!(
                from_attribute(name, text.into()),
                crate::json::from_serde(&expected),
                "{name}={text:?}"
            );
        }
        // What the rules then make of them.
        let read = |timeout: &str, strict: &str| {
            let fields = [
                ("baseUrl", "https://v.example"),
                ("chain", "base"),
                ("payTo", "0x1"),
                ("resourceUrl", "https://r"),
                ("timeoutMs", timeout),
                ("strict", strict),
            ];
            LookupOptions::from_fields(&mut |name| {
                Ok(fields
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(n, t)| from_attribute(n, (*t).into())))
            })
        };
        let o = read("5000", "").unwrap();
        assert_eq!((o.timeout_ms, o.lookup.strict), (5000, true));
        assert_eq!(
            read("soon", "false").unwrap_err().to_string(),
            read("1.5", "false").unwrap_err().to_string()
        );
        assert!(read("3000", "yes").is_err());
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
        use OptionRule::*;
        let error = |option, rule| OptionError { option, rule };
        let e = LookupOptions::from_json_test(json!({"baseUrl": "ftp://x", "chain": 5, "resourceUrl": "r", "timeoutMs": -1, "strict": "yes", "publicKey": "zz"})).unwrap_err();
        let key = KeysError::Key {
            at: crate::keys::KeyAt::Only,
            problem: crate::ed25519::KeyError::NotBase64,
        };
        assert_eq!(
            e,
            OptionsError::Invalid(vec![
                error("baseUrl", BaseUrl(BaseUrlError::NotHttp)),
                error("chain", NotAString),
                error("payTo", Missing),
                error("publicKey", Keys(key)),
                error("timeoutMs", Timeout(TimeoutError)),
                error("strict", NotABoolean),
            ])
        );
        assert_eq!(
            e.to_string(),
            "baseUrl is not an absolute http:// or https:// URL; chain must be a string; payTo is missing; publicKey: the public key is not base64; timeoutMs must be a whole number of milliseconds from 1 to 60000; strict must be true or false"
        );
        assert_eq!(
            LookupOptions::from_json_test(json!({"chain": "", "payTo": "p", "resourceUrl": "r"}))
                .unwrap_err(),
            OptionsError::Invalid(vec![error("chain", Endpoint(FieldRule::Empty))])
        );
        for timeout in [json!(1.5), json!(0), json!(60_001), json!("3000")] {
            assert_eq!(
                LookupOptions::from_json_test(
                    json!({"chain": "c", "payTo": "p", "resourceUrl": "r", "timeoutMs": timeout})
                )
                .unwrap_err(),
                OptionsError::Invalid(vec![error("timeoutMs", Timeout(TimeoutError))]),
                "{timeout}"
            );
        }
        assert_eq!(
            OptionsError::NotAnObject.to_string(),
            "options must be an object"
        );
    }

    #[test]
    fn an_unreadable_option_is_named_once_and_the_rest_still_checked() {
        let mut asked = Vec::new();
        let e = LookupOptions::from_fields(&mut |name| {
            asked.push(name);
            match name {
                "chain" => Err(ReadError::Threw),
                "payTo" => Ok(Some(Value::OtherNumber("1.5".into()))),
                "resourceUrl" => Ok(Some("r".into())),
                "baseUrl" => Ok(Some("".into())),
                "publicKey" => Err(ReadError::BigInt),
                _ => Ok(None),
            }
        })
        .unwrap_err();
        #[cfg(feature = "transparency")]
        let expected: Vec<&str> = OPTION_NAMES
            .iter()
            .chain(&LOG_OPTION_NAMES)
            .copied()
            .collect();
        #[cfg(not(feature = "transparency"))]
        let expected = OPTION_NAMES;
        assert_eq!(asked, expected, "each option read once, in order");
        let error = |option, rule| OptionError { option, rule };
        assert_eq!(
            e,
            OptionsError::Invalid(vec![
                error("baseUrl", OptionRule::BaseUrl(BaseUrlError::Empty)),
                error("chain", OptionRule::Unreadable(ReadError::Threw)),
                error("payTo", OptionRule::NotAString),
                error("publicKey", OptionRule::Unreadable(ReadError::BigInt)),
            ])
        );
        assert_eq!(
            e.to_string(),
            "baseUrl is empty; chain could not be read; payTo must be a string; publicKey is a BigInt, not a number"
        );
    }

    #[test]
    fn an_option_error_chains_to_the_error_it_wraps() {
        use crate::writing::line;
        use std::error::Error;
        let e = LookupOptions::from_json_test(
            json!({"chain": "c", "payTo": "p", "resourceUrl": "r", "publicKey": "zz", "strict": 1}),
        )
        .unwrap_err();
        assert_eq!(
            line(&e),
            "publicKey: the public key is not base64; strict must be true or false"
        );
        assert!(e.source().is_none(), "a list of options has no one cause");
        let OptionsError::Invalid(errors) = &e else {
            panic!("{e:?}")
        };
        let first = &errors[0];
        assert_eq!(first.to_string(), "publicKey");
        assert_eq!(line(first), "publicKey: the public key is not base64");
        let keys = first.source().expect("the keys error under it");
        assert_eq!(keys.to_string(), "the public key is not base64");
        assert!(
            keys.source().is_none(),
            "the key's problem completes the sentence"
        );
        assert!(errors[1].source().is_none(), "strict wraps no error");
        assert_eq!(errors[1].to_string(), "strict must be true or false");
        assert!(OptionsError::NotAnObject.source().is_none());
    }
}
