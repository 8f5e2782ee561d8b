//! The routing signal where the money moves: whether code that pays may pay
//! an endpoint, given its lookup's result, and the one line it says when it
//! may not (the `x402-verdict` package's `guard`).
//!
//! The policies read the state alone: `avoid-revoked` (the default) pays
//! on `human-backed` and `unknown`, `require-human-backed` pays on
//! `human-backed` only. Among several options, [`preference`] orders them:
//! human-backed first, unknown next, revoked last, and [`rank`] gives the
//! order the client selects in. Under an agent's own policy function, its
//! answer decides ([`Answer`], [`Check::answered`]). Every binding (the
//! `x402-verdict` npm package's guard, the Python package's) asks these,
//! so that they decide alike.

use crate::evaluate::{Evaluation, State};
use crate::resource::normalize;
use crate::writing::text;

/// The guard's decision on one payment option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// Whether the option may be paid.
    pub pays: bool,
    /// The one line the guard aborts with when it is not paid.
    pub refusal: String,
}

impl Check {
    /// The decision once the agent's own policy function answered
    /// `answer`: it pays on [`Answer::Pay`] alone; an [`Answer::Abort`]
    /// with a text reason refuses with that reason; anything else (a false
    /// answer, an abort without a text reason, a throw) refuses with the
    /// core's line.
    pub fn answered(&self, answer: Answer<'_>) -> Check {
        match answer {
            Answer::Pay => Check {
                pays: true,
                refusal: self.refusal.clone(),
            },
            Answer::Abort(Some(reason)) => Check {
                pays: false,
                refusal: reason.to_owned(),
            },
            Answer::Abort(None) | Answer::Other => Check {
                pays: false,
                refusal: self.refusal.clone(),
            },
        }
    }
}

/// What an agent's own policy function answered, as its binding reads it
/// from the language's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer<'a> {
    /// Exactly `true` (JavaScript's `true`, Python's `True`): pay.
    Pay,
    /// The language's abort result of the x402 client's hooks (JavaScript's
    /// `{ abort: true, reason }`, Python's `x402.schemas.AbortResult`), with
    /// its reason when that is text: refuse, in its words.
    Abort(Option<&'a str>),
    /// Anything else: `false`, none, any other value, a throw: refuse.
    Other,
}

/// How the guard decides on one payment option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Refuse a revoked endpoint; pay a human-backed or unknown one.
    AvoidRevoked,
    /// Pay a human-backed endpoint only.
    RequireHumanBacked,
    /// The agent's own function decides; the guard only words its refusal.
    AgentFunction,
}

impl Policy {
    /// Every policy, in the order the package documents them.
    pub const ALL: [Policy; 3] = [
        Policy::AvoidRevoked,
        Policy::RequireHumanBacked,
        Policy::AgentFunction,
    ];

    /// The policy when none is named.
    pub const DEFAULT: Policy = Policy::AvoidRevoked;

    /// The policy's name (`avoid-revoked`, `require-human-backed`, and
    /// `function` for the agent's own).
    pub const fn as_str(self) -> &'static str {
        match self {
            Policy::AvoidRevoked => "avoid-revoked",
            Policy::RequireHumanBacked => "require-human-backed",
            Policy::AgentFunction => "function",
        }
    }

    /// The policy named `name`, or the one line saying which names exist.
    pub fn from_name(name: &str) -> Result<Policy, String> {
        Policy::ALL
            .into_iter()
            .find(|policy| policy.as_str() == name)
            .ok_or_else(|| {
                text!(
                    "x402-verdict: unknown policy (expected \"{}\", \"{}\" or a function)",
                    Policy::AvoidRevoked.as_str(),
                    Policy::RequireHumanBacked.as_str()
                )
            })
    }

    /// The policy an agent names with a string: `function` is none, since
    /// only a function given as the policy makes the agent's function
    /// decide (a string naming it would pay every option unasked).
    ///
    /// # Errors
    ///
    /// The one line of [`Policy::from_name`], for `function` too.
    pub fn named(name: &str) -> Result<Policy, String> {
        match Policy::from_name(name) {
            Ok(Policy::AgentFunction) => Policy::from_name(""),
            named => named,
        }
    }

    /// Whether the policy pays an endpoint with this result. The agent's
    /// function is asked by its caller; here it pays.
    pub fn pays(self, result: &Evaluation) -> bool {
        match self {
            Policy::AvoidRevoked => result.state != State::Revoked,
            Policy::RequireHumanBacked => result.state == State::HumanBacked,
            Policy::AgentFunction => true,
        }
    }

    /// The decision on an option whose declared `resource` looked up to
    /// `result`. `fetched`, when the agent's setup lets the guard see it, is
    /// the URL actually fetched: under `require-human-backed`, a resource
    /// declared on another origin is refused with its own line, since its
    /// verdict says nothing of the server that asked for the payment.
    pub fn check(self, result: &Evaluation, resource: &str, fetched: Option<&str>) -> Check {
        let elsewhere = fetched
            .filter(|fetched| origin(fetched) != origin(resource) || origin(resource).is_none());
        match elsewhere {
            Some(fetched) if self == Policy::RequireHumanBacked => Check {
                pays: false,
                refusal: text!(
                    "x402-verdict: not paying {}: it is declared on another origin than the URL fetched, {} (policy {}).",
                    one_line(resource),
                    one_line(fetched),
                    self.as_str()
                ),
            },
            _ => Check {
                pays: self.pays(result),
                refusal: self.refusal(result, resource),
            },
        }
    }

    /// Why the guard refuses to pay `resource` under this policy, in one
    /// line: `x402-verdict: not paying https://api.example/data: state
    /// revoked, outcome revoked, reason revoked (policy avoid-revoked).`
    pub fn refusal(self, result: &Evaluation, resource: &str) -> String {
        let reason = result
            .reason
            .map_or_else(String::new, |r| text!(", reason {}", r.as_str()));
        text!(
            "x402-verdict: not paying {}: state {}, outcome {}{} (policy {}).",
            one_line(resource),
            result.state.as_str(),
            result.outcome.as_str(),
            reason,
            self.as_str()
        )
    }
}

/// The order in which options are preferred: 0 for human-backed, 1 for
/// unknown, 2 for revoked (the lower, the better).
pub fn preference(result: &Evaluation) -> u8 {
    match result.state {
        State::HumanBacked => 0,
        State::Unknown => 1,
        State::Revoked => 2,
    }
}

/// The order in which the client is handed the options, given each one's
/// [`preference`] and whether the policy pays it (in the challenge's
/// order): their indices, the most preferred first (ties keep the
/// challenge's order), leaving out those refused while one paid remains.
/// With none paid, every option stays, so that the guard's hook refuses the
/// one selected with its line.
pub fn rank(options: &[(u8, bool)]) -> Vec<usize> {
    let mut ranked: Vec<usize> = (0..options.len()).collect();
    ranked.sort_by_key(|&i| options[i].0);
    let any_paid = options.iter().any(|&(_, pays)| pays);
    ranked.retain(|&i| options[i].1 || !any_paid);
    ranked
}

/// The option to pay among `results` (one per accepted option, in the
/// challenge's order) under `policy`: the first of the most preferred
/// ([`preference`]) that the policy pays; `None` when it pays none.
pub fn chosen<'a>(
    policy: Policy,
    results: impl IntoIterator<Item = &'a Evaluation>,
) -> Option<usize> {
    let options: Vec<(u8, bool)> = results
        .into_iter()
        .map(|result| (preference(result), policy.pays(result)))
        .collect();
    rank(&options).first().copied().filter(|&i| options[i].1)
}

/// The origin (`scheme://host[:port]`, normalized) of an `http` or `https`
/// URL; `None` for any other value.
fn origin(url: &str) -> Option<String> {
    let normalized = normalize(url);
    let (scheme, rest) = normalized.split_once("://")?;
    if !matches!(scheme, "http" | "https") {
        return None;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(text!("{}://{}", scheme, &rest[..end]))
}

/// `text` with every control character (a line break included) shown as
/// `?`, so that a resource a server declared cannot break the line.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::{Outcome, Reason};
    use crate::response::{FetchFailure, Response};
    use crate::{Endpoint, Lookup, Timestamp, TrustedKeys};

    fn result(state: State, outcome: Outcome, reason: Option<Reason>) -> Evaluation {
        let mut result = Evaluation::without_verdict(outcome, Reason::NotListed, None);
        result.state = state;
        result.reason = reason;
        result
    }

    #[test]
    fn avoid_revoked_refuses_revoked_only() {
        let revoked = result(State::Revoked, Outcome::Revoked, Some(Reason::Revoked));
        let unknown = result(State::Unknown, Outcome::NoResponse, Some(Reason::Timeout));
        let backed = result(State::HumanBacked, Outcome::HumanBacked, None);
        assert!(!Policy::AvoidRevoked.pays(&revoked));
        assert!(Policy::AvoidRevoked.pays(&unknown));
        assert!(Policy::AvoidRevoked.pays(&backed));
        assert!(!Policy::RequireHumanBacked.pays(&revoked));
        assert!(!Policy::RequireHumanBacked.pays(&unknown));
        assert!(Policy::RequireHumanBacked.pays(&backed));
        assert!(Policy::AgentFunction.pays(&revoked));
    }

    #[test]
    fn prefers_human_backed_then_unknown() {
        let order: Vec<u8> = State::ALL
            .into_iter()
            .map(|state| preference(&result(state, Outcome::NoSignal, None)))
            .collect();
        assert_eq!(order, [0, 2, 1]);
    }

    #[test]
    fn chooses_the_first_most_preferred_option_paid() {
        let revoked = result(State::Revoked, Outcome::Revoked, Some(Reason::Revoked));
        let unknown = result(State::Unknown, Outcome::NoSignal, None);
        let backed = result(State::HumanBacked, Outcome::HumanBacked, None);
        let all = [
            revoked.clone(),
            unknown.clone(),
            backed.clone(),
            backed.clone(),
        ];
        assert_eq!(chosen(Policy::AvoidRevoked, &all), Some(2));
        assert_eq!(
            chosen(Policy::AvoidRevoked, &[revoked.clone(), unknown.clone()]),
            Some(1)
        );
        assert_eq!(
            chosen(Policy::RequireHumanBacked, &[unknown, revoked.clone()]),
            None
        );
        assert_eq!(chosen(Policy::AvoidRevoked, &[revoked]), None);
        assert_eq!(chosen(Policy::AvoidRevoked, &[]), None);
    }

    #[test]
    fn refusal_is_one_line_in_the_cores_words() {
        let lookup = Lookup {
            endpoint: Endpoint::new(
                "base",
                "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
                "https://api.example/data",
            )
            .unwrap(),
            keys: TrustedKeys::none(),
            strict: false,
        };
        let timed_out = lookup.evaluate(
            Response::Failed(FetchFailure::Timeout, None),
            Timestamp::from_unix_seconds(0),
        );
        assert_eq!(
            Policy::RequireHumanBacked.refusal(&timed_out, "https://api.example/data\nforged"),
            "x402-verdict: not paying https://api.example/data?forged: state unknown, outcome no_response, reason timeout (policy require-human-backed)."
        );
        let backed = result(State::HumanBacked, Outcome::HumanBacked, None);
        assert_eq!(
            Policy::AgentFunction.refusal(&backed, "https://a.example/"),
            "x402-verdict: not paying https://a.example/: state human-backed, outcome human_backed (policy function)."
        );
    }

    #[test]
    fn another_origin_is_refused_under_require_human_backed_only() {
        let backed = result(State::HumanBacked, Outcome::HumanBacked, None);
        let declared = "https://api.example/data";
        for fetched in ["HTTPS://API.example:443/other?q", "https://api.example"] {
            assert!(
                Policy::RequireHumanBacked
                    .check(&backed, declared, Some(fetched))
                    .pays,
                "{fetched}"
            );
        }
        let refused =
            Policy::RequireHumanBacked.check(&backed, declared, Some("https://evil.example/data"));
        assert_eq!(refused, Check {
            pays: false,
            refusal: "x402-verdict: not paying https://api.example/data: it is declared on another origin than the URL fetched, https://evil.example/data (policy require-human-backed).".to_owned(),
        });
        assert!(
            !Policy::RequireHumanBacked
                .check(&backed, "mcp://x", Some("https://api.example/"))
                .pays
        );
        assert!(
            Policy::AvoidRevoked
                .check(&backed, declared, Some("https://evil.example/"))
                .pays
        );
        assert!(
            Policy::RequireHumanBacked
                .check(&backed, declared, None)
                .pays
        );
    }

    #[test]
    fn names_round_trip_and_a_bad_one_is_one_line() {
        for policy in Policy::ALL {
            assert_eq!(Policy::from_name(policy.as_str()), Ok(policy));
        }
        assert_eq!(
            Policy::from_name("pay-anything"),
            Err("x402-verdict: unknown policy (expected \"avoid-revoked\", \"require-human-backed\" or a function)".to_owned())
        );
    }

    #[test]
    fn an_agent_names_no_function_policy() {
        assert_eq!(Policy::named("function"), Policy::from_name("pay-anything"));
        for policy in [Policy::AvoidRevoked, Policy::RequireHumanBacked] {
            assert_eq!(Policy::named(policy.as_str()), Ok(policy));
        }
    }
}
