// Written by `cargo xtask generate`: do not edit.
export const UNKNOWN = "unknown";
export const VERDICT_URL = "{base}/v0/verdict?chain={chain}&payTo={payTo}&resourceUrl={resourceUrl}";
export const REQUEST_INIT = {"credentials":"omit","headers":{"Accept":"application/json"}};
export const OPTION_NAMES = ["baseUrl","chain","payTo","resourceUrl","publicKey","rootKey","timeoutMs","strict","verdict"];
export const CHECKING = ["checking","checking","Checking the verification service…","x402 verification: checking"];
export const ATTRIBUTES_KEY = "x402-verdict.attributes";
export const RETRY_REASONS = ["network_error","timeout"];
export const NOT_RUN = {"freshness":"unknown","outcome":"no_response","reason":"network_error","signature":"not_checked","state":"unknown"};
export const NOT_LOADED = {"challenge":"the badge's code could not load, so the challenge was not read","hover":"The badge could not load, so nothing was checked. Nothing in the payment flow depends on this badge.","label":"unknown","listing":"the badge's code could not load, so the listing was not read","name":"x402 verification: unknown"};
export const WARNINGS = {"packageUnloadable":"{url} could not be loaded ({error}). Serve the package's files with a JavaScript MIME type; on another origin, with Access-Control-Allow-Origin; and allow that origin in the page's script-src.","prefix":"x402-verdict badge: "};
export const WASM_REASONS = {"csp":"the page's Content-Security-Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to script-src.","httpStatus":"{url} answered HTTP {status}: serve it next to the package's index.js (or pass its URL to init()).","onJavaScript":"Badges run on the JavaScript build of the same code instead: the same checks, signatures included, in a larger download.","other":"the wasm could not be loaded ({error}).","unavailable":"WebAssembly is unavailable in this browser (disabled by policy, or iOS Lockdown Mode).","unfetchable":"{url} could not be fetched: allow its origin in the Content-Security-Policy's connect-src, and serve it with Access-Control-Allow-Origin when it is on another origin."};
