//! The native module of the `x402-verdict` Python package
//! (`x402_verdict._native`): lookups over the native consumer
//! (`x402-verdict-consumer`, the command's own HTTP client) and the guard's
//! decisions, made by the core (`x402_verdict_core::guard`). The package's
//! Python only re-exports this module and hooks the official x402 client.
//!
//! Every lookup runs on one Tokio runtime. One that needs no waiting (a
//! kept answer, a verdict stapled to the 402) is done at once, the GIL
//! held; any other waits with the GIL released: a sync lookup blocks its
//! own thread only; an async one is the sync one on the event loop's
//! default executor, and never blocks the loop.

use std::future::Future;
use std::pin::{pin, Pin};
use std::sync::OnceLock;

use futures_util::FutureExt;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyTuple};
use tokio::runtime::{Builder, Runtime};
use x402_verdict_core::{
    check_timeout_ms, BaseUrl, OptionRule, TimeoutError, TrustedKeys, DEFAULT_TIMEOUT_MS,
};

use guard::{decide, payment_checks, policy_name, policy_of, rank, staple_of, Asked, PaymentCheck};
use values::{endpoint_of, given, invalid, keys_value, result_dict, text, value_error};

mod extension;
mod guard;
mod log;
mod values;

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

/// `work`'s output when it needs no waiting (a kept answer, a verdict
/// stapled to the 402): polled once in the runtime's context, with the GIL
/// held, so that such a lookup costs no hand-over of the GIL (which, with
/// another Python thread busy, can take the interpreter's switch interval).
/// A request it starts goes on, shared, for the next poll.
fn at_once<F: Future>(work: Pin<&mut F>) -> PyResult<Option<F::Output>> {
    let _entered = runtime()?.enter();
    Ok(work.now_or_never())
}

/// `work`'s output: at once when it needs no waiting ([`at_once`]), else
/// on the runtime with the GIL released.
fn finish<F>(py: Python<'_>, work: F) -> PyResult<F::Output>
where
    F: Future + Send,
    F::Output: Send,
{
    let mut work = pin!(work);
    if let Some(output) = at_once(work.as_mut())? {
        return Ok(output);
    }
    let runtime = runtime()?;
    Ok(py.detach(|| runtime.block_on(work)))
}

/// An awaitable already done with `value`, on the running event loop.
fn done<'py>(py: Python<'py>, value: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let future = py
        .import("asyncio")?
        .call_method0("get_running_loop")?
        .call_method0("create_future")?;
    future.call_method1("set_result", (value,))?;
    Ok(future)
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

#[pymethods]
impl Verifier {
    /// A verifier against `base_url` (without one, every lookup reads
    /// `unknown`, outcome `no_service`), trusting `public_keys` (base64
    /// Ed25519 keys) and the keys certified under `root_keys` (the
    /// service's pinned root keys), with a whole-exchange timeout and
    /// strict mode; under `transparency` (`off`, the default; `if-present`;
    /// `required`), reading the proofs verdicts carry that their statement
    /// is in the log of `log_key`, cosigned by `witness_quorum` of
    /// `witness_keys`. It
    /// keeps each answer as long as the service's `Cache-Control` allows
    /// (at most an hour), as the badge and the npm package do.
    #[new]
    #[pyo3(
        signature = (base_url=None, public_keys=None, timeout_ms=None, strict=None, root_keys=None,
            log_key=None, witness_keys=None, witness_quorum=None, transparency=None),
        text_signature = "(base_url=None, public_keys=None, timeout_ms=3000, strict=False, root_keys=None, log_key=None, witness_keys=None, witness_quorum=None, transparency='off')"
    )]
    #[expect(clippy::too_many_arguments, reason = "Python's keyword arguments")]
    fn new(
        base_url: Option<&Bound<'_, PyAny>>,
        public_keys: Option<&Bound<'_, PyAny>>,
        timeout_ms: Option<&Bound<'_, PyAny>>,
        strict: Option<&Bound<'_, PyAny>>,
        root_keys: Option<&Bound<'_, PyAny>>,
        log_key: Option<&Bound<'_, PyAny>>,
        witness_keys: Option<&Bound<'_, PyAny>>,
        witness_quorum: Option<&Bound<'_, PyAny>>,
        transparency: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let base_url = given(base_url)
            .map(|value| match text(value) {
                Some(text) => BaseUrl::parse(&text)
                    .map_err(|e| value_error(&invalid("base_url", OptionRule::BaseUrl(e)))),
                None => Err(value_error(&invalid("base_url", OptionRule::NotAString))),
            })
            .transpose()?;
        let configured = |value: Option<&Bound<'_, PyAny>>, name| match given(value) {
            None => Ok(TrustedKeys::none()),
            Some(value) => TrustedKeys::from_json(&keys_value(value))
                .map_err(|e| value_error(&invalid(name, OptionRule::Keys(e)))),
        };
        let keys = configured(public_keys, "public_keys")?
            .with_roots(&configured(root_keys, "root_keys")?)
            .with_log(log::config([
                log_key,
                witness_keys,
                witness_quorum,
                transparency,
            ])?);
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
    /// a `dict`. Blocks this thread only (the GIL released while it
    /// waits); raises `ValueError` for arguments that name no endpoint.
    fn lookup_verdict<'py>(
        &self,
        py: Python<'py>,
        chain: &Bound<'py, PyAny>,
        pay_to: &Bound<'py, PyAny>,
        resource_url: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let endpoint = endpoint_of([Some(chain), Some(pay_to), Some(resource_url)])
            .map_err(|e| value_error(&e))?;
        let result = finish(py, self.inner.check(endpoint))?;
        Ok(result_dict(py, &result)?.into_bound(py))
    }

    /// `lookup_verdict` as an awaitable that never blocks the running
    /// event loop (also named `endpoint_status_async`): done at once when
    /// the answer is kept; arguments that name no endpoint raise at once.
    fn lookup_verdict_async<'py>(
        slf: &Bound<'py, Self>,
        chain: &Bound<'py, PyAny>,
        pay_to: &Bound<'py, PyAny>,
        resource_url: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let values = [chain, pay_to, resource_url];
        let endpoint = endpoint_of(values.map(Some)).map_err(|e| value_error(&e))?;
        let py = slf.py();
        if let Some(result) = at_once(pin!(slf.get().inner.check(endpoint)))? {
            return done(py, result_dict(py, &result)?.into_bound(py));
        }
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
        let staple = staple_of(payment_required);
        let asked = requirements
            .iter()
            .map(|requirement| Asked::of(payment_required, requirement, &staple))
            .collect();
        let work = decide(slf.get().inner.clone(), asked, policy, fetched.clone());
        if awaitable {
            if let Some(decided) = at_once(pin!(work))? {
                return done(
                    py,
                    payment_checks(py, decided)?.into_pyobject(py)?.into_any(),
                );
            }
            let args = (payment_required, requirements, policy.as_str(), fetched);
            let args = args.into_pyobject(py)?.iter().collect();
            return in_executor(slf, "check_options", args);
        }
        let decided = finish(py, work)?;
        Ok(payment_checks(py, decided)?.into_pyobject(py)?.into_any())
    }
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
    module.add_class::<extension::VerdictExtension>()?;
    module.add_function(wrap_pyfunction!(extension::verdict_extension, module)?)?;
    module.add_function(wrap_pyfunction!(policy_name, module)?)?;
    module.add_function(wrap_pyfunction!(rank, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
