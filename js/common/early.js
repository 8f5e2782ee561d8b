// Verdict requests started before the wasm has loaded, so that a page's
// first badges wait for the slower of the two, not for one after the other.
// index.js starts one per endpoint while the engine is loading, at the URL
// the core states (VERDICT_URL, from words.js), for the lookups that begin
// and, where the service's protocol is not known yet, for those still
// waiting for their turn (sent ahead); the Rust's fetch (src/fetch.rs) takes
// the request whose URL is exactly the one it built and applies every rule
// to its answer (redirects, size, Cache-Control), or fetches by itself.
// Requests nobody took are abandoned once the engine has loaded (dropEarly).
// Nothing here decides anything about a verdict.

/** Requests not taken yet, by URL: [response promise, AbortController, when its lookup began (undefined while it waits for its turn)]. */
const early = new Map();

/**
 * Starts the request for `url` (unless one is waiting) with `init`, the
 * core's REQUEST_INIT (words.js, which index.js reads: this file is also
 * the wasm's own import, with no words beside it), as the Rust sends it.
 * The Rust that takes it counts the lookup's timeout from `began`, when the
 * lookup began: for a request sent ahead of its lookup's turn (`began`
 * undefined), from when the lookup begins (a later call for the same URL
 * records it), or from when the Rust takes it.
 */
export function requestEarly(url, init, began) {
  const waiting = early.get(url);
  if (waiting) {
    waiting[2] ??= began;
    return;
  }
  const controller = new AbortController();
  const response = fetch(url, { ...init, signal: controller.signal });
  // Seen by whoever takes it; a request nobody takes rejects unheard.
  response.catch(() => {});
  early.set(url, [response, controller, began]);
}

/** The waiting request for exactly `url`, taken (each is taken once), or undefined. */
export function takeEarly(url) {
  const found = early.get(url);
  early.delete(url);
  return found;
}

/**
 * Abandons every request not taken whose lookup began (the engine built
 * other URLs: options it refused); those sent ahead of their turn wait for
 * their lookups. With `only`, the request for that URL, if sent ahead and
 * its lookup not begun (a lookup that will not have its turn soon).
 */
export function dropEarly(only) {
  for (const [url, [, controller, began]] of early) {
    if (only ? url !== only || began !== undefined : began === undefined) continue;
    controller.abort();
    early.delete(url);
  }
}
