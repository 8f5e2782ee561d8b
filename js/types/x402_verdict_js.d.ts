// The x402-verdict package's JavaScript build (./x402_verdict_js.js,
// written by scripts/package-agent.mjs from binaryen's wasm2js
// translation, which scripts/minify.mjs joins to the glue): the wasm
// glue's exports, and initJs, which instantiates the translation. For tsc
// (tsconfig.json).
export * from "./x402_verdict.js";
/** Instantiates the JavaScript translation in the wasm's place. */
export function initJs(): void;
