// The x402-verdict package's entry, for code that pays (Node 20 and browser
// apps): the same Rust core as the badge, compiled to wasm. Every decision
// and every word comes from it (./x402_verdict.js, its glue); this file only
// loads it: the wasm by fetch where the package is served over HTTP(S), from
// the package's folder with fs where it is a file (Node's fetch reads no
// file: URL); where WebAssembly cannot run (disabled, `node --jitless`, a
// page's policy), the JavaScript build of the same code
// (./x402_verdict_js.js, binaryen's wasm2js translation).
import { guardWith } from "./guard.js";

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

const engine = await load();

/** Looks one endpoint up; resolves to the structured result (the MCP `lookup_verdict` tool's), never rejects. */
export const lookupVerdict = (options) => engine.lookupVerdict(options);

/** Looks one endpoint up; resolves to the structured result (the MCP `endpoint_status` tool's, the same), never rejects. */
export const endpointStatus = (options) => engine.lookupVerdict(options);

/** Hooks `client` (an x402Client from @x402/core or @x402/fetch) so that it pays only what `options.policy` allows; returns it. */
export const guard = (client, options) => guardWith(engine, client, options);
