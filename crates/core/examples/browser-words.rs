//! Prints the words and spellings the browser package's JavaScript needs, as
//! an ES module (`scripts/build.sh` writes it into the package as
//! `words.js`), so that the JavaScript holds no copy of the core's:
//!
//! ```sh
//! cargo run -q -p x402-verdict-core --example browser-words > pkg/words.js
//! ```

use serde_json::{json, Value};
use x402_verdict_core::options::OPTION_NAMES;
use x402_verdict_core::text::{accessible_name, CHECKING};
use x402_verdict_core::{
    browser, Evaluation, Outcome, Reason, State, VERDICT_MEDIA_TYPE, VERDICT_URL,
};

fn main() {
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
                "hover": browser::NOT_LOADED,
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
        // Said only when the wasm did not run (js/explain.js, loaded then).
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
    println!(
        "// Written by crates/core/examples/browser-words.rs (the core's words): do not edit."
    );
    for (name, value) in constants {
        println!("export const {name} = {value};");
    }
}
