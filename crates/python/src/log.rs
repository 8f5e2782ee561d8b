//! The `Verifier`'s transparency arguments (`log_key`, `witness_keys`,
//! `witness_quorum`, `transparency`), read by the core's rule and its
//! errors named as Python spells them.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBool;
use x402_verdict_core::json::Value as Json;
use x402_verdict_core::transparency::{
    LogConfig, LogConfigError, LogRule, LogSetting, LogSettings,
};

use crate::values::{given, keys_value, text};

/// The Python name of a transparency setting.
fn python_name(setting: LogSetting) -> &'static str {
    match setting {
        LogSetting::LogKey => "log_key",
        LogSetting::WitnessKeys => "witness_keys",
        LogSetting::WitnessQuorum => "witness_quorum",
        LogSetting::Transparency => "transparency",
    }
}

/// A `ValueError` naming the argument and the rule it breaks.
fn value_error(error: LogConfigError) -> PyErr {
    PyValueError::new_err(error.line_naming(python_name))
}

/// The configuration of the four arguments, in the order `log_key`,
/// `witness_keys`, `witness_quorum`, `transparency` (`None` or absent:
/// not given); `None` under the policy `off`.
///
/// # Errors
///
/// `ValueError`, one line naming the first argument that is not a setting.
pub(crate) fn config(arguments: [Option<&Bound<'_, PyAny>>; 4]) -> PyResult<Option<LogConfig>> {
    let [log_key, witnesses, quorum, policy] = arguments.map(given);
    let wrong = |setting, rule| value_error(LogConfigError { setting, rule });
    let text_of = |value: Option<&Bound<'_, PyAny>>, setting| {
        value
            .map(|v| text(v).ok_or_else(|| wrong(setting, LogRule::NotText)))
            .transpose()
    };
    let log_key = text_of(log_key, LogSetting::LogKey)?;
    let policy = text_of(policy, LogSetting::Transparency)?;
    let witnesses: Vec<String> = match witnesses.map(keys_value) {
        None => Vec::new(),
        Some(Json::String(key)) => vec![key],
        Some(Json::Array(keys)) => keys
            .into_iter()
            .map(|key| match key {
                Json::String(key) => Ok(key),
                _ => Err(wrong(LogSetting::WitnessKeys, LogRule::NotText)),
            })
            .collect::<PyResult<_>>()?,
        Some(_) => return Err(wrong(LogSetting::WitnessKeys, LogRule::NotText)),
    };
    let quorum = quorum
        .map(|v| {
            Some(v)
                .filter(|v| !v.is_instance_of::<PyBool>())
                .and_then(|v| v.extract::<u64>().ok())
                .ok_or_else(|| wrong(LogSetting::WitnessQuorum, LogRule::NotAQuorum))
        })
        .transpose()?;
    LogConfig::from_settings(&LogSettings {
        log_key: log_key.as_deref(),
        witness_keys: witnesses.iter().map(String::as_str).collect(),
        witness_quorum: quorum,
        transparency: policy.as_deref(),
    })
    .map_err(value_error)
}
