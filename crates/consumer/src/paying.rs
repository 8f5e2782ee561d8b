//! The lookup of code about to pay ([`Verifier::check_paying`]): a verdict
//! stapled to the 402 first, and without configured keys the keys the
//! service publishes, as the TypeScript guard does.

use futures_util::future::join;
use x402_verdict_core::staple::Source;
use x402_verdict_core::{Endpoint, Evaluation, TrustedKeys};

use crate::{judge, now, Answer, FetchError, Verifier};

impl Verifier {
    /// [`Verifier::check_stapled`], except that when this verifier has no
    /// configured key, signatures are checked under the keys the service
    /// publishes at its keys URL, kept as answers are (per their
    /// `Cache-Control`, one request at once): with `stapled`, the keys are
    /// fetched first and the verdict only when the staple does not stand
    /// in for it (so a valid staple costs the keys document alone, and
    /// nothing while it is kept); without, both together. Keys fetched
    /// from the service they check prove only what the transport proves
    /// (that the verdict is the one the service signed); configured keys
    /// prove who signed.
    pub async fn check_paying(
        &self,
        endpoint: Endpoint,
        stapled: Option<&str>,
    ) -> (Evaluation, Source) {
        let Some(base_url) = self.base_url.as_ref().filter(|_| self.keys.is_empty()) else {
            return self.check_stapled(endpoint, stapled).await;
        };
        let keys_url = base_url.keys_url();
        let mut lookup = self.lookup(endpoint);
        if let Some(text) = stapled {
            let keys = self.answer(keys_url.clone()).await;
            lookup.keys = published(&keys).with_log(self.keys.log().cloned());
            if let Some(result) = lookup.evaluate_inlined(text, now()) {
                return (result, Source::Stapled);
            }
        }
        let verdict_url = base_url.verdict_url(&lookup.endpoint);
        let (verdict, keys) = join(self.answer(verdict_url), self.answer(keys_url)).await;
        lookup.keys = published(&keys).with_log(self.keys.log().cloned());
        (judge(&lookup, &verdict), Source::Fetched)
    }
}

/// The keys an answer to the keys URL publishes (none when no answer came:
/// signatures then read `unverifiable`).
fn published(answer: &Result<Answer, FetchError>) -> TrustedKeys {
    match answer {
        Ok(answer) => answer.published_keys().clone(),
        Err(failed) => TrustedKeys::published(failed.response()),
    }
}
