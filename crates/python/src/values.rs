//! Python values as the core reads them: the arguments' texts, the endpoint
//! three of them name, a key configuration, an object's attributes; the
//! core's errors as `ValueError`; a result as a `dict`.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use x402_verdict_core::json::Value as Json;
use x402_verdict_core::{
    line, Endpoint, Evaluation, OptionError, OptionRule, OptionsError, OPTION_NAMES,
};

/// The Python names of the core's options, in the order of [`OPTION_NAMES`].
pub(crate) const PYTHON_NAMES: [&str; 8] = [
    "base_url",
    "chain",
    "pay_to",
    "resource_url",
    "public_keys",
    "root_keys",
    "timeout_ms",
    "strict",
];

/// The Python name of the core's option `name`.
pub(crate) fn python_name(name: &str) -> &'static str {
    OPTION_NAMES
        .iter()
        .position(|known| *known == name)
        .map_or("argument", |i| PYTHON_NAMES[i])
}

/// A `ValueError` whose one line is the core's line for `problem`.
pub(crate) fn value_error(problem: &OptionsError) -> PyErr {
    PyValueError::new_err(line(problem))
}

/// The one invalid argument `option`, as [`OptionsError`].
pub(crate) fn invalid(option: &'static str, rule: OptionRule) -> OptionsError {
    OptionsError::Invalid(vec![OptionError { option, rule }])
}

/// The text of a Python `str`; `None` for anything else.
pub(crate) fn text(value: &Bound<'_, PyAny>) -> Option<String> {
    if value.is_instance_of::<PyString>() {
        value.extract().ok()
    } else {
        None
    }
}

/// The endpoint three Python values name (`None` for one absent), or every
/// problem with them in the core's words.
pub(crate) fn endpoint_of(
    values: [Option<&Bound<'_, PyAny>>; 3],
) -> Result<Endpoint, OptionsError> {
    let mut problems = Vec::new();
    let mut texts = Vec::new();
    for (value, option) in values.into_iter().zip(&PYTHON_NAMES[1..4]) {
        match given(value) {
            None => problems.push(OptionError {
                option,
                rule: OptionRule::Missing,
            }),
            Some(value) => match text(value) {
                Some(text) => texts.push(text),
                None => problems.push(OptionError {
                    option,
                    rule: OptionRule::NotAString,
                }),
            },
        }
    }
    match texts.as_slice() {
        [chain, pay_to, resource_url] if problems.is_empty() => {
            Endpoint::new(chain, pay_to, resource_url)
                .map_err(|e| invalid(python_name(e.field), OptionRule::Endpoint(e.rule)))
        }
        _ => Err(OptionsError::Invalid(problems)),
    }
}

/// `public_keys` (or `root_keys`) as the JSON value the core reads keys from: a string, or
/// a list or tuple of them (anything else is no key configuration).
pub(crate) fn keys_value(value: &Bound<'_, PyAny>) -> Json {
    let item = |v: Bound<'_, PyAny>| text(&v).map_or(Json::Null, Json::String);
    if let Some(text) = text(value) {
        Json::String(text)
    } else if let Ok(list) = value.cast::<PyList>() {
        Json::Array(list.iter().map(item).collect())
    } else if let Ok(tuple) = value.cast::<PyTuple>() {
        Json::Array(tuple.iter().map(item).collect())
    } else {
        Json::Null
    }
}

/// The structured result as a Python `dict`, keys in the order of
/// `x402-verdict lookup --json`.
pub(crate) fn result_dict(py: Python<'_>, result: &Evaluation) -> PyResult<Py<PyAny>> {
    let json = serde_json::to_string(result).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let dict = py.import("json")?.call_method1("loads", (json,))?;
    Ok(dict.unbind())
}

/// `value`, unless absent or `None`.
pub(crate) fn given<'a, 'py>(
    value: Option<&'a Bound<'py, PyAny>>,
) -> Option<&'a Bound<'py, PyAny>> {
    value.filter(|v| !v.is_none())
}

/// The attribute `name` of `object`, unless absent or `None`.
pub(crate) fn attribute<'py>(object: &Bound<'py, PyAny>, name: &str) -> Option<Bound<'py, PyAny>> {
    object.getattr(name).ok().filter(|v| !v.is_none())
}
