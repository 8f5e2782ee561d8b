// The x402-verdict package's engine, loaded once for its entry (index.js)
// and its seller module (seller.js): the Rust core compiled to wasm
// (./x402_verdict.js, its glue). Every decision and every word comes from
// it; this file only loads it: the wasm by fetch where the package is
// served over HTTP(S), from the package's folder with fs where it is a file
// (Node's fetch reads no file: URL); where WebAssembly cannot run
// (disabled, `node --jitless`, a page's policy), the JavaScript build of the
// same code (./x402_verdict_js.js, binaryen's wasm2js translation).
const WASM = new URL("./x402_verdict_bg.wasm", import.meta.url);
/** Node's file reader, named at run time so that bundlers for browsers leave it alone. */
const FS = "node:fs/promises";

/**
 * The glue whose module runs: the wasm's, or the JavaScript build's. The
 * wasm is read (or fetched) and compiled while the glue loads.
 */
async function load() {
  if (typeof WebAssembly === "object") {
    const wasm = WASM.protocol === "file:"
      ? import(/* @vite-ignore */ FS).then((fs) => fs.readFile(WASM)).then((bytes) => WebAssembly.compile(bytes))
      : fetch(WASM);
    // Awaited below; a failure meanwhile is not an unhandled rejection.
    wasm.catch(() => {});
    try {
      const wasmBuild = await import("./x402_verdict.js");
      await wasmBuild.default({ module_or_path: await wasm });
      return wasmBuild;
    } catch {
      // The JavaScript build below runs the same code.
    }
  }
  const jsBuild = await import("./x402_verdict_js.js");
  jsBuild.initJs();
  return jsBuild;
}

/** The engine's exports: lookupVerdict, checkPayment, checkPolicy, fetchVerdict, inlinedUntil, … */
export const engine = await load();
