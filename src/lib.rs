//! The x402 verification badge: a WebAssembly module that fetches the signed
//! verdict for one x402 endpoint, checks its Ed25519 signature in the
//! browser, and renders *verified*, *not verified* or *unknown*.
//!
//! This crate translates and renders; every protocol decision is made by
//! [`x402_verdict_core`].
//!
//! ```js
//! import init, { renderBadge } from "x402-verdict-badge";
//! await init();
//! const state = await renderBadge(document.getElementById("badge"), {
//!   baseUrl: "https://verify.example", chain: "base",
//!   payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
//!   resourceUrl: "https://api.example.com/premium-data",
//!   publicKey: "<base64 Ed25519 public key>",
//! });
//! ```

// The build's features (Cargo.toml): `badge` is renderBadge and
// lookupVerdict, the page's wasm; `challenge` is endpointsFromPaymentRequired
// and endpointsFromDiscovery, a wasm of its own that the package loads only
// when one of them is called; `agent` is lookupVerdict and checkPayment
// without the badge's DOM, the wasm of the x402-verdict package for code
// that pays (with its seller module's side: fetchVerdict, inlinedUntil),
// built with `challenge` too; `extension` is the buyer's browser extension's
// engine, on the agent's lookups and the challenge reader.
pub mod buyer;
#[cfg(feature = "challenge")]
mod challenge;
#[cfg(feature = "extension")]
mod extension;
#[cfg(any(feature = "badge", feature = "agent"))]
mod fetch;
#[cfg(feature = "agent")]
mod guard;
#[cfg(any(feature = "badge", feature = "agent", feature = "challenge"))]
mod json_value;
#[cfg(any(feature = "badge", feature = "agent"))]
mod lookup;
#[cfg(any(feature = "badge", feature = "agent"))]
mod options;
#[cfg(feature = "badge")]
mod render;
#[cfg(feature = "agent")]
mod seller;
pub mod words;

/// The badge's look, as the browser draws it: read natively by the
/// repository's generators (the image badge's palette), from the crate's
/// own files, so that a build from the crate's tarball finds it too.
pub mod look {
    /// The badge's stylesheet and element code (`js/common/badge.js`).
    pub const STYLESHEET: &str = include_str!("../js/common/badge.js");
}

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(feature = "challenge")]
pub use challenge::{endpoints_from_discovery, endpoints_from_payment_required};
#[cfg(feature = "extension")]
pub use extension::{
    check_endpoint, cross_check, read_challenge, settings_from_form, settings_in_force, toolbar_of,
};
#[cfg(feature = "agent")]
pub use guard::{check_payment, check_policy};
#[cfg(any(feature = "lookup", feature = "agent"))]
pub use lookup::lookup_verdict;
#[cfg(feature = "badge")]
pub use lookup::render_badge;
#[cfg(feature = "agent")]
pub use seller::{fetch_verdict, inlined_until, max_kept_verdicts, paywall_words};

/// Checks an Ed25519 signature exactly as a verdict's is checked (the
/// core's strict verification; each argument base64): how the tests run the
/// Wycheproof cases through the JavaScript build, in a build for the tests
/// alone with the `verify-export` feature (wasm-pack.toml's
/// `[js-test-build]`), never in a package.
#[cfg(feature = "verify-export")]
#[doc(hidden)]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = verifyEd25519, skip_typescript)]
pub fn verify_ed25519(public_key: &str, message: &str, signature: &str) -> bool {
    use x402_verdict_core::{decode_base64, parse_public_key};
    let (Ok(key), Some(message), Some(signature)) = (
        parse_public_key(public_key),
        decode_base64(message),
        decode_base64(signature),
    ) else {
        return false;
    };
    x402_verdict_core::verify_strict(&key, &message, &signature)
}
