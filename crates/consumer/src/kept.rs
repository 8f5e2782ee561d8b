//! Answers kept for reuse, by URL, as the core's cache rules
//! ([`reuse_seconds`], [`stale_seconds`]) allow (as the badge keeps
//! them): reused while the service's `Cache-Control` `max-age` runs (at
//! most an hour); a seller's server may also serve one while it is fetched
//! anew, within its `stale-while-revalidate`; at most [`MAX_KEPT_ANSWERS`]
//! at once; failures never. Lookups of one URL at once share one request.
//!
//! What is worked out from an answer is kept with it: until when it may be
//! stapled (under the keys last asked about), and the keys a keys document
//! publishes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use futures_util::future::{BoxFuture, Shared};
use x402_verdict_core::{
    reuse_seconds, stale_seconds, Lookup, Response, Timestamp, TrustedKeys, MAX_KEPT_ANSWERS,
};

/// One answer received: its status and body, reused until `until`, served
/// while it is fetched anew until `stale_until`.
#[derive(Clone, Debug)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) body: Arc<[u8]>,
    until: Instant,
    stale_until: Instant,
    worked_out: Arc<WorkedOut>,
}

/// What was worked out from one answer, kept with it.
#[derive(Debug, Default)]
struct WorkedOut {
    /// Until when the body stands in for a request, and under which keys.
    inlined_until: Mutex<Option<(TrustedKeys, Option<Timestamp>)>>,
    /// The keys the answer publishes, read as a keys document.
    published: OnceLock<TrustedKeys>,
}

impl Answer {
    /// An answer of `status` and `body` with this `Cache-Control`, and the
    /// seconds it may be reused (0: it is not kept).
    pub(crate) fn new(status: u16, body: Vec<u8>, cache_control: &str) -> (Answer, u32) {
        let reuse = reuse_seconds(cache_control);
        let now = Instant::now();
        let until = now + Duration::from_secs(reuse.into());
        let answer = Answer {
            status,
            body: body.into(),
            until,
            stale_until: until + Duration::from_secs(stale_seconds(cache_control).into()),
            worked_out: Arc::default(),
        };
        (answer, reuse)
    }

    /// The answer as the core reads it.
    pub(crate) fn response(&self) -> Response<'_> {
        Response::Http {
            status: self.status,
            body: &self.body,
        }
    }

    /// Whether this answer's body (a verdict about `lookup`'s endpoint, the
    /// one whose URL it answers) stands in for a request at `now`
    /// ([`Lookup::evaluate_inlined`]): the core is asked once under the
    /// same keys, for the last second it does ([`Lookup::inlined_until`]).
    pub(crate) fn stands_in(&self, lookup: &Lookup, now: Timestamp) -> bool {
        let slot = &self.worked_out.inlined_until;
        let kept = slot.lock().ok().and_then(|kept| kept.clone());
        let until = match kept {
            Some((keys, until)) if keys == lookup.keys => until,
            _ => {
                let text = std::str::from_utf8(&self.body).unwrap_or_default();
                let until = lookup.inlined_until(text, now);
                if let Ok(mut slot) = slot.lock() {
                    *slot = Some((lookup.keys.clone(), until));
                }
                until
            }
        };
        until.is_some_and(|until| now <= until)
    }

    /// The keys this answer publishes ([`TrustedKeys::published`]), read
    /// once.
    pub(crate) fn published_keys(&self) -> &TrustedKeys {
        (self.worked_out.published).get_or_init(|| TrustedKeys::published(self.response()))
    }
}

/// A request under way for one URL, which every lookup of it awaits.
pub(crate) type Asking = Shared<BoxFuture<'static, Result<Answer, crate::FetchError>>>;

/// Answers kept for reuse, by URL, and the requests under way.
#[derive(Debug, Default)]
pub(crate) struct Kept {
    answers: Mutex<HashMap<String, Answer>>,
    asking: Mutex<HashMap<String, Asking>>,
}

impl Kept {
    /// The answer kept for `url`, while it may be reused.
    pub(crate) fn get(&self, url: &str) -> Option<Answer> {
        let kept = self.answers.lock().ok()?;
        kept.get(url).filter(|a| a.until > Instant::now()).cloned()
    }

    /// The answer kept for `url` while it may be served during its
    /// refetch (reusable or stale), and whether it may still be reused.
    pub(crate) fn servable(&self, url: &str) -> Option<(Answer, bool)> {
        let kept = self.answers.lock().ok()?;
        let now = Instant::now();
        let answer = kept.get(url).filter(|a| a.stale_until > now)?;
        Some((answer.clone(), answer.until > now))
    }

    /// Keeps `answer` for `url` (answers past serving go first; past the
    /// limit, it is not kept).
    pub(crate) fn keep(&self, url: &str, answer: Answer) {
        let Ok(mut kept) = self.answers.lock() else {
            return;
        };
        let now = Instant::now();
        kept.retain(|_, a| a.stale_until > now);
        if kept.len() < MAX_KEPT_ANSWERS as usize || kept.contains_key(url) {
            kept.insert(url.to_owned(), answer);
        }
    }

    /// The request under way for `url`, or the one `start` starts.
    pub(crate) fn asking(&self, url: &str, start: impl FnOnce() -> Asking) -> Asking {
        match self.asking.lock() {
            Ok(mut asking) => asking.entry(url.to_owned()).or_insert_with(start).clone(),
            Err(_) => start(),
        }
    }

    /// The request for `url` is answered: the next lookup asks anew.
    pub(crate) fn answered(&self, url: &str) {
        if let Ok(mut asking) = self.asking.lock() {
            asking.remove(url);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(cache_control: &str) -> Answer {
        Answer::new(404, b"{}".to_vec(), cache_control).0
    }

    #[test]
    fn kept_answers_expire_and_stop_at_the_limit() {
        let kept = Kept::default();
        kept.keep("a", answer("max-age=60"));
        assert_eq!(kept.get("a").map(|a| a.status), Some(404));
        kept.keep("b", answer("max-age=0"));
        assert!(kept.get("b").is_none(), "an expired answer is never reused");
        for i in 1..MAX_KEPT_ANSWERS {
            kept.keep(&i.to_string(), answer("max-age=60"));
        }
        kept.keep("over", answer("max-age=60"));
        assert!(
            kept.get("over").is_none(),
            "past the limit, a new answer is not kept"
        );
        kept.keep("a", answer("max-age=120"));
        assert!(
            kept.get("a").is_some(),
            "a kept answer may be renewed at the limit"
        );
    }

    #[test]
    fn a_stale_answer_is_servable_but_never_reused() {
        let kept = Kept::default();
        kept.keep("fresh", answer("max-age=60, stale-while-revalidate=300"));
        assert!(matches!(kept.servable("fresh"), Some((_, true))));
        let mut stale = answer("max-age=60, stale-while-revalidate=300");
        stale.until = Instant::now() - Duration::from_secs(1);
        kept.keep("stale", stale.clone());
        assert!(kept.get("stale").is_none());
        assert!(matches!(kept.servable("stale"), Some((_, false))));
        stale.stale_until = stale.until;
        kept.keep("gone", stale);
        assert!(kept.servable("gone").is_none());
    }
}
