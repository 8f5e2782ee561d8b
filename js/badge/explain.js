// Why the badge's wasm did not load, and what to change: loaded (by
// index.js, beside the JavaScript build) only when the wasm cannot run, so
// that a page where it runs never downloads these words. They are the
// browser crate's (src/words.rs, in ./generated/words.js by `cargo xtask generate`).
import { WASM_REASONS } from "../generated/words.js";

/** The smallest module there is: instantiating it fails only where the page's policy refuses WebAssembly (WebKit compiles it all the same). */
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/**
 * Whether the page refuses to run WebAssembly (a Content-Security-Policy
 * without 'wasm-unsafe-eval'), found by trying, not by reading the error's
 * words, which every engine spells its own way ("blocked by CSP" in Firefox),
 * nor by a securitypolicyviolation event, which WebKit does not fire for it.
 */
async function wasmRefused() {
  try {
    await WebAssembly.instantiate(EMPTY_MODULE);
    return false;
  } catch {
    return true;
  }
}

/** Why the wasm at `url` did not load for `error` (as index.js's fetched() throws it), and what to change. */
export async function explain(error, url) {
  const text = String(error?.message ?? error);
  const fill = (words) => words.replace("{url}", url).replace("{status}", error?.status).replace("{error}", text);
  if (typeof WebAssembly !== "object") return WASM_REASONS.unavailable;
  if (error?.status) return fill(WASM_REASONS.httpStatus);
  if (await wasmRefused()) return WASM_REASONS.csp;
  if (error?.unfetched) return fill(WASM_REASONS.unfetchable);
  return fill(WASM_REASONS.other);
}

/** What runs instead, said after the reason. */
export const INSTEAD = WASM_REASONS.onJavaScript;
