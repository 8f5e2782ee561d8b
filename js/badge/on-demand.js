// The package's files loaded only when they are needed, from beside the
// module entry (embed.js bundles ./embed-on-demand.js in this module's place).

/** Why the wasm did not load, and what to change (./explain.js). */
export const explainer = () => import("./explain.js");

/** The JavaScript build, where the wasm cannot run (./x402_verdict_badge_js.js). */
export const jsBuild = () => import("./x402_verdict_badge_js.js");
