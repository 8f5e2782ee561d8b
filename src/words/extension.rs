//! The words only the buyer's browser extension says (`pkg-extension/`):
//! its name, and every word of its toolbar, popup and settings.
//! `cargo xtask generate` writes them into its JavaScript
//! (`js/generated/extension-words.js`, `schema.json`) beside its bounds and spellings ([`crate::buyer`]) and the core's, so that the JavaScript holds no
//! sentence of its own.

/// The extension's name, in its manifest and stores.
pub const NAME: &str = "x402-verdict: the buyer's check";

/// The extension's description, in its manifest and stores (at most 132
/// characters, the Chrome Web Store's limit).
pub const DESCRIPTION: &str = "Shows, in the toolbar where no page can draw, whether a verified operator stands behind the x402 endpoint a page asks you to pay.";

/// The toolbar's title in a tab that met no 402.
pub const NOTHING_ASKED_TITLE: &str = "x402-verdict: no payment asked in this tab";

/// The popup in a tab that met no 402.
pub const NOTHING_ASKED: &str = "No x402 payment has been asked in this tab since its page loaded.";

/// The heading of the challenge of the tab's top document.
pub const ASKED_BY_PAGE: &str = "This page asks payment";

/// The heading of a challenge that a request of the page met.
pub const ASKED_BY_REQUEST: &str = "A request of this page asks payment";

/// Before the reason a challenge could not be read.
pub const UNREAD: &str = "Its terms could not be read: ";

/// Why a 402 that a request of the page met was not read: no
/// `PAYMENT-REQUIRED` header (an x402 v1 answer keeps its terms in its
/// body, which the extension does not read).
pub const BODY_UNREAD: &str = "the answer carries no PAYMENT-REQUIRED header, and its body (where x402 v1 keeps the terms) is not read by the extension";

/// The popup's words when no verification service is set.
pub const NO_SERVICE: &str = "No verification service is set, so every endpoint reads unknown.";

/// How to set one.
pub const SET_SERVICE: &str = "Set one in this extension's settings: the service's base URL, and its keys (or none, to use the keys it publishes).";

/// The button that opens the settings.
pub const OPEN_SETTINGS: &str = "Open settings";

/// The heading of the page's own badges.
pub const PAGE_BADGES: &str = "Badges drawn by this page";

/// Beside a page's badge about an endpoint the page asks payment for: the
/// extension's own result follows.
pub const BADGE_CHECKED: &str = "The extension's own check of this endpoint:";

/// A page's badge about an endpoint none of the tab's challenges asks
/// payment for.
pub const BADGE_NOT_ASKED: &str =
    "This badge is not about the endpoint this page asks payment for.";

/// A page's badge while the tab met no 402: nothing to compare it with.
pub const BADGE_UNCOMPARED: &str =
    "This page has asked no payment yet, so this badge is compared with nothing.";

/// Before the reason a page's badge names no endpoint.
pub const BADGE_UNREAD: &str = "This badge names no endpoint: ";

/// The settings page's title.
pub const SETTINGS_TITLE: &str = "x402-verdict settings";

/// The label of the service's base URL.
pub const SETTING_BASE_URL: &str = "Verification service (its base URL)";

/// The label of the keys.
pub const SETTING_PUBLIC_KEY: &str =
    "Its Ed25519 public keys, base64, separated by commas (none: the keys the service publishes)";

/// The label of the root keys.
pub const SETTING_ROOT_KEY: &str =
    "Or its root keys, base64, separated by commas: each verdict's certificate then names the key";

/// The label of the transparency log's key.
pub const SETTING_LOG_KEY: &str =
    "Its transparency log's verifier key (<origin>+<keyid>+<base64>; none: no log)";

/// The label of the witnesses' keys.
pub const SETTING_WITNESS_KEYS: &str = "The log's witnesses' verifier keys, separated by commas";

/// The label of the witness quorum.
pub const SETTING_WITNESS_QUORUM: &str =
    "How many of them must cosign (none: one with witnesses, else none)";

/// The label of the transparency policy.
pub const SETTING_TRANSPARENCY: &str =
    "Transparency: off, if-present (a proof carried is checked) or required (an endpoint reads verified only with a valid proof)";

/// The label of strict mode.
pub const SETTING_STRICT: &str =
    "Strict: an endpoint reads verified only with a signature from these keys";

/// The save button.
pub const SAVE: &str = "Save";

/// Said once the settings are saved.
pub const SAVED: &str = "Saved.";

/// Said of settings an organization's policy sets (`storage.managed`),
/// which the page shows but does not change.
pub const MANAGED: &str = "Set by your organization's policy.";

/// Before the reason settings are refused.
pub const SETTINGS_REFUSED: &str = "Not saved: ";

/// The title of the settings an organization sets, in the managed-policy
/// schema (`schema.json`, Chromium's `storage.managed_schema`).
pub const POLICY_TITLE: &str =
    "The verification service an organization sets for the x402-verdict extension";

/// The description of those settings, in the managed-policy schema.
pub const POLICY_DESCRIPTION: &str = "As the extension's own settings: baseUrl, the service's base URL; publicKey, its base64 Ed25519 keys (none: the keys it publishes); rootKey, its base64 Ed25519 root keys, under which each verdict's certificate names the signing key; strict, an endpoint reads verified only with a signature from these keys. With a transparency log: logKey, its verifier key (<origin>+<keyid>+<base64>); witnessKeys, its witnesses' verifier keys; witnessQuorum, how many of them must cosign a checkpoint; transparency, off (the default), if-present or required (an endpoint reads verified only with a valid proof that its verdict is in the log).";
