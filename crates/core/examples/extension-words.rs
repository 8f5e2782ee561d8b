//! Prints the words, spellings and bounds the browser extension's
//! JavaScript needs, as an ES module (`scripts/package-extension.mjs`
//! bundles it into the extension), so that its JavaScript holds no copy of
//! the core's:
//!
//! ```sh
//! cargo run -q -p x402-verdict-core --example extension-words > extension-words.js
//! ```

use serde_json::{json, Value};
use x402_verdict_core::extension as e;
use x402_verdict_core::text::CHECKING;

fn main() {
    let constants: [(&str, Value); 6] = [
        (
            "LIMITS",
            json!({
                "challenges": e::MAX_CHALLENGES_KEPT,
                "badges": e::MAX_PAGE_BADGES,
                "paywallText": e::MAX_PAYWALL_TEXT,
            }),
        ),
        (
            "PAGE_BADGES",
            json!({ "selector": e::PAGE_BADGE_SELECTOR, "prefixes": e::PAGE_BADGE_PREFIXES }),
        ),
        (
            "CHALLENGE",
            json!({ "status": e::PAYMENT_REQUIRED_STATUS, "header": e::PAYMENT_REQUIRED_HEADER }),
        ),
        (
            "SETTINGS",
            json!({ "key": e::SETTINGS_KEY, "members": e::SETTINGS_MEMBERS }),
        ),
        // The badge's state while a lookup runs (its mark and colour).
        ("CHECKING_STATE", json!(CHECKING[0])),
        (
            "WORDS",
            json!({
                "name": e::NAME,
                "description": e::DESCRIPTION,
                "nothingAskedTitle": e::NOTHING_ASKED_TITLE,
                "nothingAsked": e::NOTHING_ASKED,
                "askedByPage": e::ASKED_BY_PAGE,
                "askedByRequest": e::ASKED_BY_REQUEST,
                "unread": e::UNREAD,
                "noService": e::NO_SERVICE,
                "setService": e::SET_SERVICE,
                "openSettings": e::OPEN_SETTINGS,
                "pageBadges": e::PAGE_BADGES,
                "settingsTitle": e::SETTINGS_TITLE,
                "settingBaseUrl": e::SETTING_BASE_URL,
                "settingPublicKey": e::SETTING_PUBLIC_KEY,
                "settingStrict": e::SETTING_STRICT,
                "save": e::SAVE,
                "saved": e::SAVED,
                "managed": e::MANAGED,
                "settingsRefused": e::SETTINGS_REFUSED,
            }),
        ),
    ];
    println!(
        "// Written by crates/core/examples/extension-words.rs (the core's words): do not edit."
    );
    for (name, value) in constants {
        println!("export const {name} = {value};");
    }
}
