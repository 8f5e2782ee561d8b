// What the browser benchmarks share: the in-page timer of badges and the median.

/** In the page, from its start: the time each badge settled (left "checking"), in window.__settled. */
export function timeBadges() {
  window.__settled = [];
  new MutationObserver((changes) => {
    for (const { target } of changes) {
      if (target.localName === "x402-verdict-view" && target.dataset.state !== "checking") window.__settled.push(performance.now());
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
}

/** The median of `xs` (the upper one of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
