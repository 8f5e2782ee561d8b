//! The x402 resource server extension that staples verdicts to a seller's
//! 402 (`x402_verdict.verdict_extension`), for the official Python
//! server's `x402ResourceServer.register_extension` (its FastAPI and Flask
//! middleware): the extension's key, its dynamic field, and each 402's
//! value, all the core's ([`x402_verdict_core::staple`]).

use std::sync::Mutex;

use pyo3::prelude::*;
use x402_verdict_core::staple::{extension, Staple, EXTENSION_KEY, VERDICTS};

use crate::guard::Asked;
use crate::values::attribute;
use crate::{runtime, Verifier};

/// The resource server extension `x402-verdict`: each 402 of a route
/// declaring it (`extensions={"x402-verdict": {}}`) carries the verdicts
/// its verifier keeps of the 402's options.
#[pyclass(frozen, module = "x402_verdict")]
pub(crate) struct VerdictExtension {
    verifier: x402_verdict_consumer::Verifier,
    /// The value last written and the verdicts it staples: every 402
    /// stapling the same verdicts shares it (the server only reads it).
    last: Mutex<Option<(Vec<String>, Py<PyAny>)>>,
}

/// The extension stapling the verdicts `verifier` keeps to each 402 of
/// the routes declaring it, for `x402ResourceServer.register_extension`.
#[pyfunction]
pub(crate) fn verdict_extension(verifier: PyRef<'_, Verifier>) -> VerdictExtension {
    VerdictExtension {
        verifier: verifier.inner.clone(),
        last: Mutex::new(None),
    }
}

#[pymethods]
impl VerdictExtension {
    /// `x402-verdict`: the key a route declares under `extensions`.
    #[getter]
    fn key(&self) -> &'static str {
        EXTENSION_KEY
    }

    /// The fields of its info that change from one 402 to the next (its
    /// `verdicts`), which the server leaves out of its check of the
    /// extensions a paying client echoes.
    #[getter]
    fn dynamic_info_fields(&self) -> Vec<&'static str> {
        vec![VERDICTS]
    }

    /// None: the extension has no verify or settle hooks.
    #[getter]
    fn hooks(&self) -> Option<Py<PyAny>> {
        None
    }

    /// None: the extension has no transport hooks.
    #[getter]
    fn transport_hooks(&self) -> Option<Py<PyAny>> {
        None
    }

    /// The route's declaration, as it is (the extension needs nothing of
    /// the request).
    fn enrich_declaration<'py>(
        &self,
        declaration: Bound<'py, PyAny>,
        transport_context: &Bound<'py, PyAny>,
    ) -> Bound<'py, PyAny> {
        let _ = transport_context;
        declaration
    }

    /// None: a settlement response carries nothing of the extension.
    fn enrich_settlement_response(
        &self,
        declaration: &Bound<'_, PyAny>,
        context: &Bound<'_, PyAny>,
    ) -> Option<Py<PyAny>> {
        let _ = (declaration, context);
        None
    }

    /// The extension's value for one 402 (`context`: x402's
    /// `ServerPaymentRequiredContext`): `{"info": {"verdicts": [...]},
    /// "schema": {...}}`, the verdicts kept of its options that the core
    /// takes in place of a request now, answered at once; an option whose
    /// verdict is not kept is fetched in the background, and stapled from
    /// then on. 402s stapling the same verdicts share one value.
    fn enrich_payment_required_response<'py>(
        &self,
        declaration: &Bound<'py, PyAny>,
        context: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = declaration;
        let py = context.py();
        let _entered = runtime()?.enter();
        let payment_required = attribute(context, "payment_required_response");
        let accepts = payment_required
            .as_ref()
            .and_then(|p| attribute(p, "accepts"));
        let mut verdicts = Vec::new();
        if let (Some(payment_required), Some(accepts)) = (&payment_required, accepts) {
            for requirement in accepts.try_iter()? {
                let asked = Asked::of(payment_required, &requirement?, &Staple::default());
                let endpoint = asked.endpoint().cloned();
                verdicts.extend(endpoint.and_then(|e| self.verifier.stapled_verdict(e)));
            }
        }
        // The lock is never held while Python runs (another thread could
        // take the GIL and wait on it).
        let last = || {
            self.last
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
        };
        if let Some((_, value)) = last().as_ref().filter(|(stapled, _)| *stapled == verdicts) {
            return Ok(value.bind(py).clone());
        }
        let text = extension(verdicts.iter().map(String::as_str));
        let value = py.import("json")?.call_method1("loads", (text,))?;
        *last() = Some((verdicts, value.clone().unbind()));
        Ok(value)
    }
}
