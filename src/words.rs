//! The words only the browser says, in one place: the badge's own (what it
//! shows while checking, its accessible name) and the package's about its
//! own loading. `cargo xtask generate` writes them into the package as a
//! JS module (`js/generated/words.js`, beside the core's spellings the package's
//! JavaScript needs), so that the package's JavaScript holds no sentence of
//! its own. Placeholders in braces (`{url}`, `{status}`, `{error}`) are
//! filled in by the loader. The browser extension's own words are
//! [`extension`]; the seller module's, [`seller`].

pub mod extension;
pub mod seller;

/// What a badge shows while its lookup runs, before any result: the state
/// its host carries (`data-state`, which stylesheets and pages read), its
/// label and its hover text.
pub const CHECKING: [&str; 3] = ["checking", "checking", "Checking the verification service…"];

/// A badge's accessible name (its `aria-label`), from the label it shows:
/// the core's, which the image badge's name is too.
pub use x402_verdict_core::accessible_name;

/// The key (`Symbol.for` it) under which the package's JavaScript hands the
/// wasm the options it read from HTML attributes, as written: an object of
/// texts, each read by [`x402_verdict_core::from_attribute`] where the options
/// themselves hold no value for it.
pub const ATTRIBUTES_KEY: &str = "x402-verdict.attributes";

/// The credentials mode of a verdict request in the browser, the wasm's and
/// the loader's early ones alike (which the wasm takes only when they are
/// the request it would send): no cookies, no HTTP authentication.
pub const REQUEST_CREDENTIALS: &str = "omit";

/// The start of every warning the package writes to the console.
pub const WARNING_PREFIX: &str = "x402-verdict badge: ";

/// The hover text of a badge whose code could not load or run, before the
/// core's `NOTHING_DEPENDS_ON_THE_BADGE`.
pub const NOT_LOADED: &str = "The badge could not load, so nothing was checked.";

/// Why a payment challenge was not read: the badge's code could not load.
pub const CHALLENGE_UNREAD: &str = "the badge's code could not load, so the challenge was not read";

/// Why a discovery listing was not read: the badge's code could not load.
pub const LISTING_UNREAD: &str = "the badge's code could not load, so the listing was not read";

/// The package could not load its JavaScript build (said after why the wasm did not run).
pub const PACKAGE_UNLOADABLE: &str = "{url} could not be loaded ({error}). Serve the package's files with a JavaScript MIME type; on another origin, with Access-Control-Allow-Origin; and allow that origin in the page's script-src.";

/// Why the WebAssembly build did not run: the browser has no WebAssembly.
pub const WASM_UNAVAILABLE: &str =
    "WebAssembly is unavailable in this browser (disabled by policy, or iOS Lockdown Mode).";

/// Why the WebAssembly build did not run: its file answered an HTTP error.
pub const WASM_HTTP_STATUS: &str =
    "{url} answered HTTP {status}: serve it next to the package's index.js (or pass its URL to init()).";

/// Why the WebAssembly build did not run: the page's policy forbids compiling it.
pub const WASM_CSP: &str =
    "the page's Content-Security-Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to script-src.";

/// Why the WebAssembly build did not run: its file could not be fetched.
pub const WASM_UNFETCHABLE: &str = "{url} could not be fetched: allow its origin in the Content-Security-Policy's connect-src, and serve it with Access-Control-Allow-Origin when it is on another origin.";

/// Why the WebAssembly build did not run: anything else.
pub const WASM_OTHER: &str = "the wasm could not be loaded ({error}).";

/// What runs instead of the WebAssembly build (said after the reason).
pub const ON_JAVASCRIPT: &str = "Badges run on the JavaScript build of the same code instead: the same checks, signatures included, in a larger download.";
