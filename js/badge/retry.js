// When a lazy badge tries again: one that ended unknown for want of an
// answer (a timeout, a network error: the core's RETRY_REASONS) looks its
// endpoint up anew when it comes back into view, at most every
// RETRY_AFTER_MS. No DOM: it runs (and is tested) in Node as in a browser.

/** The least time between a badge's lookup ending and its next try. */
export const RETRY_AFTER_MS = 5000;

/**
 * For a badge whose lookup ended now for `reason`: undefined when `reasons`
 * (the core's RETRY_REASONS) do not include it, else the function to call
 * each time the badge comes back into view, which calls `again` (once) and
 * returns true when RETRY_AFTER_MS have passed since, by the clock `now`.
 */
export function retryOnReturn(reason, reasons, again, now = Date.now) {
  if (!reasons.includes(reason)) return undefined;
  const ended = now();
  let tried = false;
  return () => {
    if (tried || now() - ended < RETRY_AFTER_MS) return false;
    tried = true;
    again();
    return true;
  };
}
