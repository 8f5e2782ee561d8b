// Verdict requests started before the wasm has loaded, so that a page's
// first badges wait for the slower of the two, not for one after the other.
// index.js starts one per endpoint while the engine is loading, at the URL
// the core states (VERDICT_URL, from words.js); the Rust's fetch
// (src/fetch.rs) takes the request whose URL is exactly the one it built and
// applies every rule to its answer (redirects, size, Cache-Control), or
// fetches by itself. Requests nobody took are abandoned once the engine has
// loaded (dropEarly). Nothing here decides anything about a verdict.

/** Requests not taken yet, by URL: [response promise, AbortController, when it was asked]. */
const early = new Map();

/**
 * Starts the request for `url` (unless one is waiting) with `init`, the
 * core's REQUEST_INIT (words.js, which index.js reads: this file is also
 * the wasm's own import, with no words beside it), as the Rust sends it.
 * The Rust that takes it counts the lookup's timeout from when it was asked.
 */
export function requestEarly(url, init) {
  if (early.has(url)) return;
  const controller = new AbortController();
  const response = fetch(url, { ...init, signal: controller.signal });
  // Seen by whoever takes it; a request nobody takes rejects unheard.
  response.catch(() => {});
  early.set(url, [response, controller, Date.now()]);
}

/** The waiting request for exactly `url`, taken (each is taken once), or undefined. */
export function takeEarly(url) {
  const found = early.get(url);
  early.delete(url);
  return found;
}

/** Abandons every request not taken (the engine built other URLs: options it refused). */
export function dropEarly() {
  for (const [, controller] of early.values()) controller.abort();
  early.clear();
}
