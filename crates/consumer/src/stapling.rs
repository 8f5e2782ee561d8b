//! The seller's side of a staple ([`Verifier::stapled_verdict`]): the
//! verdict a seller's server staples to its 402 for one of its endpoints,
//! answered at once from what it keeps, never waiting on the service.

use x402_verdict_core::Endpoint;

use crate::{now, Verifier};

impl Verifier {
    /// The verdict document to staple to a 402 for `endpoint`, as the
    /// service returned it (its JSON text), answered at once: a verdict
    /// this verifier keeps (reusable per its `Cache-Control`, or within
    /// its `stale-while-revalidate` while it is fetched anew) that the core
    /// takes in place of a request now under this verifier's keys
    /// ([`Lookup::evaluate_inlined`](x402_verdict_core::Lookup::evaluate_inlined),
    /// asked once per verdict: so none without configured keys). When
    /// none may be reused, it is fetched in the background on the current
    /// Tokio runtime (one request at once per endpoint; none outside a
    /// runtime) and stapled from then on. `None` for a verifier that keeps
    /// no answers or has no service.
    pub fn stapled_verdict(&self, endpoint: Endpoint) -> Option<String> {
        let (kept, base_url) = (self.kept.as_ref()?, self.base_url.as_ref()?);
        let url = base_url.verdict_url(&endpoint);
        let servable = kept.servable(&url);
        if !servable.as_ref().is_some_and(|(_, reusable)| *reusable) {
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                let verifier = self.clone();
                runtime.spawn(async move { verifier.answer(url).await });
            }
        }
        let (answer, _) = servable.filter(|(answer, _)| answer.status == 200)?;
        let stands_in = answer.stands_in(&self.lookup(endpoint), now());
        let text = std::str::from_utf8(&answer.body)
            .ok()
            .filter(|_| stands_in)?;
        Some(text.to_owned())
    }
}
