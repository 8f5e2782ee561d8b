// What ./on-demand.js loads, in embed.js: a classic script (from a CDN,
// maybe) resolves import() against the page, or about:blank, so each file
// is named by its absolute URL next to embed.js (the bundle's
// import.meta.url: scripts/package-js.mjs).

/** Why the wasm did not load, and what to change (./explain.js). */
export const explainer = () => import(new URL("./explain.js", import.meta.url).href);

/** The JavaScript build, where the wasm cannot run (./x402_verdict_badge_js.js). */
export const jsBuild = () => import(new URL("./x402_verdict_badge_js.js", import.meta.url).href);
