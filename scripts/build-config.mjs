// The packages' build configuration: wasm-pack.toml at the top level, read
// with smol-toml and checked. scripts/build.mjs builds by it; scripts/size.mjs
// and the tests read it too.
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";

const FILE = new URL("../wasm-pack.toml", import.meta.url);

/** Reads `file` (default: wasm-pack.toml); throws one line naming what is wrong. */
export function buildConfig(file = FILE) {
  const name = "wasm-pack.toml";
  let toml;
  try {
    toml = parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${name}: ${error.message.split("\n")[0]}`);
  }
  const setting = (table, key, check, what) => {
    const value = toml[table]?.[key];
    if (!check(value)) throw new Error(`${name}: [${table}] ${key} must be ${what}`);
    return value;
  };
  const text = (v) => typeof v === "string" && v.length > 0;
  const texts = (v) => Array.isArray(v) && v.every(text);
  return {
    target: setting("package", "target", text, "a wasm-pack target"),
    outDir: setting("package", "out-dir", text, "a folder"),
    profile: setting("package", "profile", text, "a Cargo profile"),
    features: setting("package", "features", texts, "a list of the crate's features"),
    embedFeatures: setting("embed-build", "features", texts, "a list of the crate's features"),
    embedName: setting("embed-build", "out-name", text, "a file name stem"),
    challengeFeatures: setting("challenge-build", "features", texts, "a list of the crate's features"),
    challengeName: setting("challenge-build", "out-name", text, "a file name stem"),
    agentFeatures: setting("agent-build", "features", texts, "a list of the crate's features"),
    agentOutDir: setting("agent-build", "out-dir", text, "a folder"),
    agentName: setting("agent-build", "out-name", text, "a file name stem"),
    extensionFeatures: setting("extension-build", "features", texts, "a list of the crate's features"),
    extensionOutDir: setting("extension-build", "out-dir", text, "a folder"),
    extensionName: setting("extension-build", "out-name", text, "a file name stem"),
    wasmOptPasses: setting("wasm-opt", "passes", texts, "a list of wasm-opt arguments"),
    sizeRustflags: setting("size-build", "rustflags", texts, "a list of rustc flags"),
    sizeCargoArgs: setting("size-build", "cargo-args", texts, "a list of cargo arguments"),
    fallbackWarning: setting("size-build", "fallback-warning", text, "a message"),
    jsRustflags: setting("js-build", "rustflags", texts, "a list of rustc flags"),
    jsTestFeatures: setting("js-test-build", "features", texts, "a list of the crate's features"),
    jsTestOutDir: setting("js-test-build", "out-dir", text, "a folder"),
    jsWasmOptPasses: setting("js-build", "wasm-opt-passes", texts, "a list of wasm-opt arguments"),
    wasm2jsPasses: setting("js-build", "wasm2js-passes", texts, "a list of wasm2js arguments"),
    budgetGzip: setting("size", "budget-gzip", (v) => Number.isSafeInteger(v) && v > 0, "a whole number of bytes"),
  };
}
