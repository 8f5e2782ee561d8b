//! `extension-words.js`: the bounds, spellings and words the browser
//! extension's JavaScript needs, as an ES module
//! (`scripts/package-extension.mjs` bundles it into the extension): the
//! core's (the challenge's header and status, a v1 paywall's bound) and
//! the browser crate's ([`x402_verdict_badge::buyer`],
//! [`x402_verdict_badge::words::extension`]).

use serde_json::{json, Value};
use x402_verdict_badge::buyer as e;
use x402_verdict_badge::words::extension as w;
use x402_verdict_badge::words::CHECKING;
use x402_verdict_core as core;

/// The module.
pub fn module() -> String {
    let constants: [(&str, Value); 6] = [
        (
            "LIMITS",
            json!({
                "challenges": e::MAX_CHALLENGES_KEPT,
                "badges": e::MAX_PAGE_BADGES,
                "paywallText": core::MAX_PAYWALL_TEXT,
            }),
        ),
        (
            "PAGE_BADGES",
            json!({ "selector": e::PAGE_BADGE_SELECTOR, "prefixes": e::PAGE_BADGE_PREFIXES, "images": e::PAGE_IMAGE_SELECTOR }),
        ),
        (
            "CHALLENGE",
            json!({ "status": core::PAYMENT_REQUIRED_STATUS, "header": core::PAYMENT_REQUIRED_HEADER }),
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
                "name": w::NAME,
                "description": w::DESCRIPTION,
                "nothingAskedTitle": w::NOTHING_ASKED_TITLE,
                "nothingAsked": w::NOTHING_ASKED,
                "askedByPage": w::ASKED_BY_PAGE,
                "askedByRequest": w::ASKED_BY_REQUEST,
                "unread": w::UNREAD,
                "noService": w::NO_SERVICE,
                "setService": w::SET_SERVICE,
                "openSettings": w::OPEN_SETTINGS,
                "pageBadges": w::PAGE_BADGES,
                "settingsTitle": w::SETTINGS_TITLE,
                "settingBaseUrl": w::SETTING_BASE_URL,
                "settingPublicKey": w::SETTING_PUBLIC_KEY,
                "settingRootKey": w::SETTING_ROOT_KEY,
                "settingLogKey": w::SETTING_LOG_KEY,
                "settingWitnessKeys": w::SETTING_WITNESS_KEYS,
                "settingWitnessQuorum": w::SETTING_WITNESS_QUORUM,
                "settingTransparency": w::SETTING_TRANSPARENCY,
                "settingStrict": w::SETTING_STRICT,
                "save": w::SAVE,
                "saved": w::SAVED,
                "managed": w::MANAGED,
                "settingsRefused": w::SETTINGS_REFUSED,
            }),
        ),
    ];
    crate::es_module(&constants)
}
