//! The native module of the `x402-verdict` Python package
//! (`x402_verdict._native`): lookups over the native consumer
//! (`x402-verdict-consumer`, the command's own HTTP client) and the guard's
//! decisions, made by the core (`x402_verdict_core::guard`). The package's
//! Python only re-exports this module and hooks the official x402 client.
//!
//! Every lookup runs on one Tokio runtime with the GIL released: a sync
//! lookup blocks its own thread only; an async one is the sync one on the
//! event loop's default executor, and never blocks the loop.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::sync::OnceLock;

use futures_util::future::join_all;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyList, PyString, PyTuple};
use tokio::runtime::{Builder, Runtime};
use x402_verdict_core::guard::{preference, Policy};
use x402_verdict_core::json::Value as Json;
use x402_verdict_core::{
    check_timeout_ms, line, BaseUrl, Endpoint, Evaluation, OptionError, OptionRule, OptionsError,
    TimeoutError, TrustedKeys, DEFAULT_TIMEOUT_MS, OPTION_NAMES,
};

/// The Python names of the core's options, in the order of [`OPTION_NAMES`].
const PYTHON_NAMES: [&str; 7] = [
    "base_url",
    "chain",
    "pay_to",
    "resource_url",
    "public_keys",
    "timeout_ms",
    "strict",
];

/// The Python name of the core's option `name`.
fn python_name(name: &str) -> &'static str {
    OPTION_NAMES
        .iter()
        .position(|known| *known == name)
        .map_or("argument", |i| PYTHON_NAMES[i])
}

/// A `ValueError` whose one line is the core's line for `problem`.
fn value_error(problem: &OptionsError) -> PyErr {
    PyValueError::new_err(line(problem))
}

/// The one invalid argument `option`, as [`OptionsError`].
fn invalid(option: &'static str, rule: OptionRule) -> OptionsError {
    OptionsError::Invalid(vec![OptionError { option, rule }])
}

/// The text of a Python `str`; `None` for anything else.
fn text(value: &Bound<'_, PyAny>) -> Option<String> {
    if value.is_instance_of::<PyString>() {
        value.extract().ok()
    } else {
        None
    }
}

/// The endpoint three Python values name (`None` for one absent), or every
/// problem with them in the core's words.
fn endpoint_of(values: [Option<&Bound<'_, PyAny>>; 3]) -> Result<Endpoint, OptionsError> {
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

/// `public_keys` as the JSON value the core reads keys from: a string, or
/// a list or tuple of them (anything else is no key configuration).
fn keys_value(value: &Bound<'_, PyAny>) -> Json {
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
fn result_dict(py: Python<'_>, result: &Evaluation) -> PyResult<Py<PyAny>> {
    let json = serde_json::to_string(result).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let dict = py.import("json")?.call_method1("loads", (json,))?;
    Ok(dict.unbind())
}

/// The runtime every lookup runs on, created at the first lookup: one
/// worker thread drives the connections and timers while each lookup runs
/// on the thread that asked, the GIL released. No thread of it ever calls
/// into Python.
fn runtime() -> PyResult<&'static Runtime> {
    static RUNTIME: OnceLock<Result<Runtime, String>> = OnceLock::new();
    let built = RUNTIME.get_or_init(|| {
        Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("x402-verdict")
            .enable_all()
            .build()
            .map_err(|e| e.to_string())
    });
    built
        .as_ref()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the lookups' runtime: {e}")))
}

/// `verifier.method(*args)` as an awaitable that never blocks the running
/// event loop: run on the loop's default executor, whose threads Python
/// joins before it exits (so no lookup touches a finalizing interpreter).
fn in_executor<'py>(
    verifier: &Bound<'py, Verifier>,
    method: &str,
    args: Vec<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = verifier.py();
    let running = py.import("asyncio")?.call_method0("get_running_loop")?;
    let mut call = vec![py.None().into_bound(py), verifier.getattr(method)?];
    call.extend(args);
    running.call_method1("run_in_executor", PyTuple::new(py, call)?)
}

/// Looks endpoints up against one verification service; service problems
/// read `unknown`, never raise.
#[pyclass(frozen, module = "x402_verdict")]
struct Verifier {
    inner: x402_verdict_consumer::Verifier,
}

/// One payment option as the guard asks about it: its endpoint (or the
/// core's words for why its values name none) and its declared resource.
struct Asked {
    endpoint: Result<Endpoint, String>,
    resource: String,
}

/// `value`, unless absent or `None`.
fn given<'a, 'py>(value: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    value.filter(|v| !v.is_none())
}

/// The attribute `name` of `object`, unless absent or `None`.
fn attribute<'py>(object: &Bound<'py, PyAny>, name: &str) -> Option<Bound<'py, PyAny>> {
    object.getattr(name).ok().filter(|v| !v.is_none())
}

impl Asked {
    /// The option `requirement` of `payment_required` (x402's
    /// `PaymentRequired` and `PaymentRequirements`, v2 or v1): its
    /// `network`, `pay_to`, and the resource v2 declares once
    /// (`payment_required.resource.url`) and v1 on each option (`resource`).
    fn of(payment_required: &Bound<'_, PyAny>, requirement: &Bound<'_, PyAny>) -> Asked {
        let resource = attribute(payment_required, "resource")
            .and_then(|resource| attribute(&resource, "url"))
            .or_else(|| attribute(requirement, "resource"));
        let chain = attribute(requirement, "network");
        let pay_to = attribute(requirement, "pay_to");
        Asked {
            endpoint: endpoint_of([chain.as_ref(), pay_to.as_ref(), resource.as_ref()])
                .map_err(|problem| line(&problem)),
            resource: resource.as_ref().and_then(text).unwrap_or_default(),
        }
    }
}

/// What the core decided for one payment option (the guard's use).
#[pyclass(frozen, module = "x402_verdict")]
struct PaymentCheck {
    /// The lookup's structured result.
    #[pyo3(get)]
    result: Py<PyAny>,
    /// Whether the policy pays this option (always under a policy function,
    /// until [`PaymentCheck::answered`]).
    #[pyo3(get)]
    pays: bool,
    /// 0 human-backed, 1 unknown, 2 revoked: options are preferred in this order.
    #[pyo3(get)]
    preference: u8,
    /// The one line the guard aborts with when it does not pay this option.
    #[pyo3(get)]
    refusal: String,
}

#[pymethods]
impl PaymentCheck {
    /// The decision once the agent's policy function answered `answer`:
    /// `True` pays; an `AbortResult` (anything with a `str` `reason`)
    /// refuses with its own reason; anything else (`False`, `None`, an
    /// exception) refuses with the core's line.
    fn answered(&self, py: Python<'_>, answer: &Bound<'_, PyAny>) -> PaymentCheck {
        let pays = answer.is_instance_of::<PyBool>() && answer.is_truthy().unwrap_or(false);
        let own = attribute(answer, "reason").as_ref().and_then(text);
        PaymentCheck {
            result: self.result.clone_ref(py),
            pays,
            preference: self.preference,
            refusal: own
                .filter(|_| !pays)
                .unwrap_or_else(|| self.refusal.clone()),
        }
    }
}

/// Looks every option in `asked` up at once and decides on each under `policy`.
async fn decide(
    verifier: x402_verdict_consumer::Verifier,
    asked: Vec<Asked>,
    policy: Policy,
    fetched: Option<String>,
) -> Vec<(Evaluation, bool, String)> {
    join_all(asked.into_iter().map(|asked| {
        let (verifier, fetched) = (&verifier, fetched.as_deref());
        async move {
            let result = match asked.endpoint {
                Ok(endpoint) => verifier.check(endpoint).await,
                Err(problem) => Evaluation::invalid_input(problem),
            };
            let check = policy.check(&result, &asked.resource, fetched);
            (result, check.pays, check.refusal)
        }
    }))
    .await
}

/// The decisions as [`PaymentCheck`]s.
fn payment_checks(
    py: Python<'_>,
    decided: Vec<(Evaluation, bool, String)>,
) -> PyResult<Vec<PaymentCheck>> {
    decided
        .into_iter()
        .map(|(result, pays, refusal)| {
            Ok(PaymentCheck {
                result: result_dict(py, &result)?,
                pays,
                preference: preference(&result),
                refusal,
            })
        })
        .collect()
}

/// The policy named `name` (`policy_name`'s answer).
fn policy_of(name: &str) -> PyResult<Policy> {
    Policy::from_name(name).map_err(PyValueError::new_err)
}

#[pymethods]
impl Verifier {
    /// A verifier against `base_url` (without one, every lookup reads
    /// `unknown`, outcome `no_service`), trusting `public_keys` (base64
    /// Ed25519 keys), with a whole-exchange timeout and strict mode. It
    /// keeps each answer as long as the service's `Cache-Control` allows
    /// (at most an hour), as the badge and the npm package do.
    #[new]
    #[pyo3(
        signature = (base_url=None, public_keys=None, timeout_ms=None, strict=None),
        text_signature = "(base_url=None, public_keys=None, timeout_ms=3000, strict=False)"
    )]
    fn new(
        base_url: Option<&Bound<'_, PyAny>>,
        public_keys: Option<&Bound<'_, PyAny>>,
        timeout_ms: Option<&Bound<'_, PyAny>>,
        strict: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let base_url = given(base_url)
            .map(|value| match text(value) {
                Some(text) => BaseUrl::parse(&text)
                    .map_err(|e| value_error(&invalid("base_url", OptionRule::BaseUrl(e)))),
                None => Err(value_error(&invalid("base_url", OptionRule::NotAString))),
            })
            .transpose()?;
        let keys = match given(public_keys) {
            None => TrustedKeys::none(),
            Some(value) => TrustedKeys::from_json(&keys_value(value))
                .map_err(|e| value_error(&invalid("public_keys", OptionRule::Keys(e))))?,
        };
        let timeout_ms = match given(timeout_ms) {
            None => DEFAULT_TIMEOUT_MS,
            Some(value) => Some(value)
                .filter(|v| !v.is_instance_of::<PyBool>())
                .and_then(|v| v.extract::<u64>().ok())
                .and_then(|ms| check_timeout_ms(ms).ok())
                .ok_or_else(|| {
                    value_error(&invalid("timeout_ms", OptionRule::Timeout(TimeoutError)))
                })?,
        };
        let strict = match given(strict) {
            None => false,
            Some(value) if value.is_instance_of::<PyBool>() => value.is_truthy()?,
            Some(_) => return Err(value_error(&invalid("strict", OptionRule::NotABoolean))),
        };
        let inner = x402_verdict_consumer::Verifier::new(base_url, keys, strict, timeout_ms)
            .map_err(|e| PyRuntimeError::new_err(x402_verdict_consumer::error_chain(&e)))?
            .keeping_answers();
        Ok(Verifier { inner })
    }

    /// Looks one endpoint up: the structured result of the MCP tools
    /// `lookup_verdict` and `endpoint_status` (also this method's name), as
    /// a `dict`. Blocks this thread only (the GIL is released); raises
    /// `ValueError` for arguments that name no endpoint.
    fn lookup_verdict<'py>(
        &self,
        py: Python<'py>,
        chain: &Bound<'py, PyAny>,
        pay_to: &Bound<'py, PyAny>,
        resource_url: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let endpoint = endpoint_of([Some(chain), Some(pay_to), Some(resource_url)])
            .map_err(|e| value_error(&e))?;
        let (verifier, runtime) = (&self.inner, runtime()?);
        let result = py.detach(|| runtime.block_on(verifier.check(endpoint)));
        Ok(result_dict(py, &result)?.into_bound(py))
    }

    /// `lookup_verdict` as an awaitable that never blocks the running
    /// event loop (also named `endpoint_status_async`); arguments that name
    /// no endpoint raise at once.
    fn lookup_verdict_async<'py>(
        slf: &Bound<'py, Self>,
        chain: &Bound<'py, PyAny>,
        pay_to: &Bound<'py, PyAny>,
        resource_url: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let values = [chain, pay_to, resource_url];
        endpoint_of(values.map(Some)).map_err(|e| value_error(&e))?;
        in_executor(slf, "lookup_verdict", values.map(Clone::clone).to_vec())
    }

    /// The guard's decisions on `requirements`, options of
    /// `payment_required`, under the policy named `policy` (`fetched`: the
    /// URL actually fetched, when known), looked up at once: a list of
    /// [`PaymentCheck`]s, or when `awaitable` an awaitable of it that never
    /// blocks the event loop. Never raises for the options' values: those
    /// that name no endpoint read `unknown`, `invalid_input`.
    #[pyo3(signature = (payment_required, requirements, policy, fetched=None, awaitable=false))]
    fn check_options<'py>(
        slf: &Bound<'py, Self>,
        payment_required: &Bound<'py, PyAny>,
        requirements: Vec<Bound<'py, PyAny>>,
        policy: &str,
        fetched: Option<String>,
        awaitable: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let policy = policy_of(policy)?;
        if awaitable {
            let args = (payment_required, requirements, policy.as_str(), fetched);
            let args = args.into_pyobject(py)?.iter().collect();
            return in_executor(slf, "check_options", args);
        }
        let asked = requirements
            .iter()
            .map(|requirement| Asked::of(payment_required, requirement))
            .collect();
        let work = decide(slf.get().inner.clone(), asked, policy, fetched);
        let runtime = runtime()?;
        let decided = py.detach(|| runtime.block_on(work));
        Ok(payment_checks(py, decided)?.into_pyobject(py)?.into_any())
    }
}

/// The name of the guard's `policy`: `"function"` for a callable, the
/// policy's own for `"avoid-revoked"` or `"require-human-backed"`;
/// anything else raises `ValueError` with the core's line.
#[pyfunction]
fn policy_name(policy: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    if policy.is_callable() {
        return Ok(Policy::AgentFunction.as_str());
    }
    let name = text(policy).unwrap_or_default();
    Ok(policy_of(&name)?.as_str())
}

/// `requirements` in the guard's order: by the core's preference (ties
/// keep their order), leaving out those `checks` refuses while one they
/// pay remains.
#[pyfunction]
fn rank<'py>(
    requirements: Vec<Bound<'py, PyAny>>,
    checks: Vec<PyRef<'py, PaymentCheck>>,
) -> Vec<Bound<'py, PyAny>> {
    let mut ranked: Vec<(Bound<'py, PyAny>, &PaymentCheck)> = requirements
        .into_iter()
        .zip(checks.iter().map(|c| &**c))
        .collect();
    ranked.sort_by_key(|(_, check)| check.preference);
    let any_paid = ranked.iter().any(|(_, check)| check.pays);
    ranked
        .into_iter()
        .filter(|(_, check)| check.pays || !any_paid)
        .map(|(requirement, _)| requirement)
        .collect()
}

/// The `x402_verdict._native` module.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Verifier>()?;
    // The MCP tools' structured result is the same for both: `endpoint_status`
    // is `lookup_verdict` under the other tool's name.
    let verifier = module.getattr("Verifier")?;
    for (alias, name) in [
        ("endpoint_status", "lookup_verdict"),
        ("endpoint_status_async", "lookup_verdict_async"),
    ] {
        verifier.setattr(alias, verifier.getattr(name)?)?;
    }
    module.add_class::<PaymentCheck>()?;
    module.add_function(wrap_pyfunction!(policy_name, module)?)?;
    module.add_function(wrap_pyfunction!(rank, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
