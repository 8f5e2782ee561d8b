//! The words every consumer shows: the MCP tools' one-line texts and the
//! badge's label and hover text.
//!
//! Absent fields read as `none` (assurance) and `never` (last re-check), so a
//! line always has the same shape; a reason, when present, ends the line.

use crate::evaluate::{Evaluation, Outcome, Reason, State};
use crate::signing::SignatureStatus;
use crate::writing::text;

impl Evaluation {
    /// The `lookup_verdict` line, for example
    /// `Verification: human-backed; outcome human_backed; freshness fresh;
    /// assurance G; last re-checked 2026-09-01T08:00:00Z; signature valid.`
    pub fn text_line(&self) -> String {
        let assurance = self.assurance_level.as_deref().unwrap_or("none");
        let checked = self
            .verified_at
            .map_or_else(|| "never".to_owned(), |t| t.to_rfc3339());
        let reason = self
            .reason
            .map_or_else(String::new, |r| text!("; reason {}", r.as_str()));
        text!(
            "Verification: {}; outcome {}; freshness {}; assurance {}; last re-checked {}; signature {}{}.",
            self.state.as_str(),
            self.outcome.as_str(),
            self.freshness.as_str(),
            assurance,
            checked,
            self.signature.as_str(),
            reason,
        )
    }

    /// The `endpoint_status` line, for example `Verification signal: human-backed.`
    pub fn status_line(&self) -> String {
        text!("Verification signal: {}.", self.state.as_str())
    }

    /// The badge's visible words: `verified · G`, `not verified` or `unknown`.
    pub fn badge_label(&self) -> String {
        match (self.state, &self.assurance_level) {
            (State::HumanBacked, Some(level)) => text!("verified · {}", level),
            (State::HumanBacked, None) => "verified".to_owned(),
            (State::Revoked, _) => "not verified".to_owned(),
            (State::Unknown, _) => "unknown".to_owned(),
        }
    }

    /// The badge's hover text: when it was verified and its cadence, or why
    /// the state is what it is; then the detail, in parentheses, when there
    /// is one.
    pub fn badge_hover(&self) -> String {
        let last = self
            .verified_at
            .map(|t| text!("Last verified {}", t.to_human()));
        // When it was last verified and how often it is promised to be
        // re-checked, as one sentence.
        let when = |last: Option<String>| {
            let cadence = self
                .recheck_every_hours
                .map(|h| text!("promised to be re-checked every {}", hours(h)));
            match (last, cadence) {
                (Some(last), Some(cadence)) => text!("{}; {}.", last, cadence),
                (Some(one), None) | (None, Some(one)) => one + ".",
                (None, None) => String::new(),
            }
        };
        let mut hover = Sentences::default();
        match self.state {
            State::HumanBacked => {
                hover.say("A verified operator backed by a guarantee deposit stands behind this endpoint.");
                hover.say(&when(last));
                match self.signature {
                    SignatureStatus::NotChecked => {
                        hover.say("Signature not checked: no verification key is configured.");
                    }
                    SignatureStatus::Unverifiable => hover.say(
                        "The signature could not be checked: it is not from a configured key.",
                    ),
                    SignatureStatus::Valid | SignatureStatus::Invalid => {}
                }
            }
            State::Revoked => {
                hover.say("The attestation for this endpoint was withdrawn or has lapsed.");
                hover.say(
                    &(last.unwrap_or_else(|| "When it was last verified is not known".into())
                        + "."),
                );
            }
            State::Unknown => {
                hover.say(self.why_unknown());
                if matches!(self.reason, Some(Reason::Overdue | Reason::Stale)) {
                    hover.say(&when(last));
                }
                if !self.has_verdict() {
                    hover.say(NOTHING_DEPENDS_ON_THE_BADGE);
                }
            }
        }
        match &self.detail {
            Some(detail) => text!("{} ({})", hover.0, detail),
            None => hover.0,
        }
    }

    fn why_unknown(&self) -> &'static str {
        match self.reason {
            Some(Reason::Overdue) => {
                "Re-check overdue: the last verification is older than its promised cadence."
            }
            Some(Reason::Stale) => "Stale: the service reports the operator's re-check is overdue.",
            Some(Reason::SignatureInvalid) => "The verdict's signature failed to verify.",
            Some(Reason::SignatureRequired) => {
                "Strict mode: the verdict carries no signature verified by a configured key."
            }
            Some(Reason::VerifiedInFuture) => {
                "The verdict claims a verification time in the future."
            }
            Some(Reason::NoSignal | Reason::NotListed) => {
                "No signal: the verification service holds nothing for this endpoint."
            }
            Some(Reason::NoBaseUrl) => "No verification service is configured.",
            Some(Reason::InvalidInput) => "The badge is misconfigured, so nothing was checked.",
            Some(Reason::EndpointMismatch) => {
                "No response: the verdict received was about another endpoint."
            }
            Some(Reason::Timeout) => {
                "No response: the verification service did not answer in time."
            }
            Some(Reason::Malformed) => {
                "No response: the verification service sent an invalid verdict."
            }
            Some(Reason::TooLarge) => "No response: the verification service sent too much data.",
            _ if self.outcome == Outcome::NoResponse => {
                "No response: the verification service could not be reached."
            }
            _ => "No verification signal.",
        }
    }
}

/// What an unknown badge without a verdict adds to its hover text, and what
/// a badge whose code could not load says after why: the payment never
/// waits on the badge.
pub const NOTHING_DEPENDS_ON_THE_BADGE: &str = "Nothing in the payment flow depends on this badge.";

/// A badge's accessible name, from the label it shows:
/// `x402 verification: verified · G`. The browser badge's `aria-label` and
/// the image badge's name alike.
pub fn accessible_name(label: &str) -> String {
    // Pushed, not written: the wasm holds no `core::fmt`.
    let mut name = String::from("x402 verification: ");
    name.push_str(label);
    name
}

fn hours(h: u32) -> String {
    match h {
        h if h % 24 == 0 && h >= 48 => text!("{} days", h / 24),
        h => text!("{} h", h),
    }
}

/// Sentences written one after another, a space between two.
#[derive(Default)]
struct Sentences(String);

impl Sentences {
    /// Adds `sentence`, unless it is empty.
    fn say(&mut self, sentence: &str) {
        if sentence.is_empty() {
            return;
        }
        if !self.0.is_empty() {
            self.0.push(' ');
        }
        self.0.push_str(sentence);
    }
}
