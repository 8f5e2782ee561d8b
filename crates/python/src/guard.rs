//! The guard's decisions on a payment's options (the package's `guard`):
//! each option's endpoint and the verdict its 402 staples for it, read from
//! the official client's objects; its lookup; the core's decision under the
//! policy, and the order of the options.

use futures_util::future::join_all;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};
use x402_verdict_core::guard::{preference, Answer, Check, Policy};
use x402_verdict_core::json::parse_strict;
use x402_verdict_core::staple::{Staple, EXTENSION_KEY};
use x402_verdict_core::{line, Endpoint, Evaluation};

use crate::values::{attribute, endpoint_of, result_dict, text};

/// One payment option as the guard asks about it: its endpoint (or the
/// core's words for why its values name none), its declared resource, and
/// the verdict its 402 staples for it.
pub(crate) struct Asked {
    endpoint: Result<Endpoint, String>,
    resource: String,
    stapled: Option<String>,
}

/// The verdicts stapled to `payment_required` (x402's `PaymentRequired`),
/// read by the core from its wire form (pydantic's `model_dump_json`): none
/// for x402 v1, without the extension, or for anything the core does not
/// read.
pub(crate) fn staple_of(payment_required: &Bound<'_, PyAny>) -> Staple {
    // Most 402s staple nothing: those are not written out at all.
    let extensions = attribute(payment_required, "extensions");
    if !extensions.is_some_and(|e| e.contains(EXTENSION_KEY).unwrap_or(false)) {
        return Staple::default();
    }
    let by_alias = PyDict::new(payment_required.py());
    let wire = (by_alias.set_item("by_alias", true).ok()).and_then(|()| {
        let dumped = payment_required.call_method("model_dump_json", (), Some(&by_alias));
        dumped.ok()?.extract::<String>().ok()
    });
    wire.and_then(|json| parse_strict(json.as_bytes()).ok())
        .map(|value| Staple::read(&value))
        .unwrap_or_default()
}

impl Asked {
    /// The option `requirement` of `payment_required` (x402's
    /// `PaymentRequired` and `PaymentRequirements`, v2 or v1): its
    /// `network`, `pay_to`, and the resource v2 declares once
    /// (`payment_required.resource.url`) and v1 on each option (`resource`);
    /// with the verdict `staple` holds for its endpoint.
    pub(crate) fn of(
        payment_required: &Bound<'_, PyAny>,
        requirement: &Bound<'_, PyAny>,
        staple: &Staple,
    ) -> Asked {
        let resource = attribute(payment_required, "resource")
            .and_then(|resource| attribute(&resource, "url"))
            .or_else(|| attribute(requirement, "resource"));
        let chain = attribute(requirement, "network");
        let pay_to = attribute(requirement, "pay_to");
        let endpoint = endpoint_of([chain.as_ref(), pay_to.as_ref(), resource.as_ref()])
            .map_err(|problem| line(&problem));
        let stapled = endpoint.as_ref().ok().and_then(|e| staple.verdict_for(e));
        Asked {
            stapled: stapled.map(str::to_owned),
            endpoint,
            resource: resource.as_ref().and_then(text).unwrap_or_default(),
        }
    }

    /// The option's endpoint, when its values name one.
    pub(crate) fn endpoint(&self) -> Option<&Endpoint> {
        self.endpoint.as_ref().ok()
    }
}

/// What the core decided for one payment option (the guard's use).
#[pyclass(frozen, module = "x402_verdict")]
pub(crate) struct PaymentCheck {
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
    /// A decision as the guard holds it: the lookup's `result`, whether the
    /// policy pays the option, its preference and the line refusing it.
    #[new]
    fn new(result: Py<PyAny>, pays: bool, preference: u8, refusal: String) -> Self {
        PaymentCheck {
            result,
            pays,
            preference,
            refusal,
        }
    }

    /// The decision once the agent's policy function answered `answer`
    /// (what it returned, or the exception it raised), by the core's rule
    /// (`Check::answered`): `True` pays; an `x402.schemas.AbortResult`
    /// refuses with its own reason when that is a `str`; anything else
    /// (`False`, `None`, another object, an exception) refuses with the
    /// core's line.
    fn answered(&self, py: Python<'_>, answer: &Bound<'_, PyAny>) -> PaymentCheck {
        let reason = attribute(answer, "reason").as_ref().and_then(text);
        let read = if answer.is_instance_of::<PyBool>() && answer.is_truthy().unwrap_or(false) {
            Answer::Pay
        } else if is_abort_result(answer) {
            Answer::Abort(reason.as_deref())
        } else {
            Answer::Other
        };
        let decided = Check {
            pays: self.pays,
            refusal: self.refusal.clone(),
        }
        .answered(read);
        PaymentCheck {
            result: self.result.clone_ref(py),
            pays: decided.pays,
            preference: self.preference,
            refusal: decided.refusal,
        }
    }
}

/// Whether `answer` is the official client's abort result of its hooks
/// (`x402.schemas.AbortResult`); never, where `x402` is not installed.
fn is_abort_result(answer: &Bound<'_, PyAny>) -> bool {
    let py = answer.py();
    py.import("x402.schemas")
        .and_then(|schemas| schemas.getattr("AbortResult"))
        .and_then(|class| answer.is_instance(&class))
        .unwrap_or(false)
}

/// Looks every option in `asked` up at once (its stapled verdict first,
/// [`x402_verdict_consumer::Verifier::check_paying`]) and decides on each
/// under `policy`.
pub(crate) async fn decide(
    verifier: x402_verdict_consumer::Verifier,
    asked: Vec<Asked>,
    policy: Policy,
    fetched: Option<String>,
) -> Vec<(Evaluation, bool, String)> {
    join_all(asked.into_iter().map(|asked| {
        let (verifier, fetched) = (&verifier, fetched.as_deref());
        async move {
            let result = match asked.endpoint {
                Ok(endpoint) => {
                    verifier
                        .check_paying(endpoint, asked.stapled.as_deref())
                        .await
                        .0
                }
                Err(problem) => Evaluation::invalid_input(problem),
            };
            let check = policy.check(&result, &asked.resource, fetched);
            (result, check.pays, check.refusal)
        }
    }))
    .await
}

/// The decisions as [`PaymentCheck`]s.
pub(crate) fn payment_checks(
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
pub(crate) fn policy_of(name: &str) -> PyResult<Policy> {
    Policy::from_name(name).map_err(PyValueError::new_err)
}

/// The name of the guard's `policy`: `"function"` for a callable, the
/// policy's own for `"avoid-revoked"` or `"require-human-backed"`;
/// anything else raises `ValueError` with the core's line.
#[pyfunction]
pub(crate) fn policy_name(policy: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    if policy.is_callable() {
        return Ok(Policy::AgentFunction.as_str());
    }
    let name = text(policy).unwrap_or_default();
    Ok(Policy::named(&name)
        .map_err(PyValueError::new_err)?
        .as_str())
}

/// `requirements` in the guard's order, by the core's rule
/// (`x402_verdict_core::guard::rank`): by preference (ties keep their
/// order), leaving out those `checks` refuses while one they pay remains.
#[pyfunction]
pub(crate) fn rank<'py>(
    requirements: Vec<Bound<'py, PyAny>>,
    checks: Vec<PyRef<'py, PaymentCheck>>,
) -> Vec<Bound<'py, PyAny>> {
    let options: Vec<(u8, bool)> = checks
        .iter()
        .take(requirements.len())
        .map(|check| (check.preference, check.pays))
        .collect();
    x402_verdict_core::guard::rank(&options)
        .into_iter()
        .map(|i| requirements[i].clone())
        .collect()
}
