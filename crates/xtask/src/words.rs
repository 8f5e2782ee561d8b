//! `words.js`: the words and spellings the badge package's JavaScript
//! needs, as an ES module: the core's (the verdict request, the option
//! names, the result of a badge whose code could not run) and the browser
//! crate's own ([`x402_verdict_badge::words`]: the console's and the
//! loader's sentences).

use serde_json::{json, Value};
use x402_verdict_badge::words::{self as browser, accessible_name, CHECKING};
use x402_verdict_core::{
    Evaluation, Outcome, Reason, State, NOTHING_DEPENDS_ON_THE_BADGE, OPTION_NAMES,
    VERDICT_MEDIA_TYPE, VERDICT_URL,
};

/// The module.
pub fn module() -> String {
    // A badge whose code could not run: no answer, nothing checked.
    let not_run = Evaluation::without_verdict(Outcome::NoResponse, Reason::NetworkError, None);
    let retry: Vec<&str> = Reason::ALL
        .into_iter()
        .filter(|r| r.may_pass())
        .map(Reason::as_str)
        .collect();
    let [state, label, hover] = CHECKING;
    let constants: [(&str, Value); 11] = [
        ("UNKNOWN", json!(State::Unknown.as_str())),
        ("VERDICT_URL", json!(VERDICT_URL)),
        (
            "REQUEST_INIT",
            json!({
                "credentials": browser::REQUEST_CREDENTIALS,
                "headers": { "Accept": VERDICT_MEDIA_TYPE },
            }),
        ),
        ("OPTION_NAMES", json!(OPTION_NAMES)),
        // mount()'s arguments after the container.
        (
            "CHECKING",
            json!([state, label, hover, accessible_name(label)]),
        ),
        ("ATTRIBUTES_KEY", json!(browser::ATTRIBUTES_KEY)),
        ("RETRY_REASONS", json!(retry)),
        (
            "NOT_RUN",
            serde_json::to_value(&not_run).expect("an evaluation serializes"),
        ),
        (
            "NOT_LOADED",
            json!({
                "label": not_run.badge_label(),
                "name": accessible_name(&not_run.badge_label()),
                "hover": format!("{} {}", browser::NOT_LOADED, NOTHING_DEPENDS_ON_THE_BADGE),
                "challenge": browser::CHALLENGE_UNREAD,
                "listing": browser::LISTING_UNREAD,
            }),
        ),
        (
            "WARNINGS",
            json!({
                "prefix": browser::WARNING_PREFIX,
                "packageUnloadable": browser::PACKAGE_UNLOADABLE,
            }),
        ),
        // Said only when the wasm did not run (js/badge/explain.js, loaded then).
        (
            "WASM_REASONS",
            json!({
                "unavailable": browser::WASM_UNAVAILABLE,
                "httpStatus": browser::WASM_HTTP_STATUS,
                "csp": browser::WASM_CSP,
                "unfetchable": browser::WASM_UNFETCHABLE,
                "other": browser::WASM_OTHER,
                "onJavaScript": browser::ON_JAVASCRIPT,
            }),
        ),
    ];
    crate::es_module(&constants)
}
