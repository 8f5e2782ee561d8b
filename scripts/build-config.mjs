// The package's build configuration: wasm-pack.toml at the top level, read
// with smol-toml and checked. scripts/size.mjs imports it; scripts/build.sh
// runs `node scripts/build-config.mjs` and evaluates the bash assignments it
// prints.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
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

/** `value` quoted for bash. */
const quote = (value) => `'${String(value).replaceAll("'", `'\\''`)}'`;

/** The configuration as bash assignments (lists as arrays). */
export function shellAssignments(config) {
  return [
    `target=${quote(config.target)}`,
    `out_dir=${quote(config.outDir)}`,
    `profile=${quote(config.profile)}`,
    `features=${quote(config.features.join(","))}`,
    `embed_features=${quote(config.embedFeatures.join(","))}`,
    `embed_name=${quote(config.embedName)}`,
    `challenge_features=${quote(config.challengeFeatures.join(","))}`,
    `challenge_name=${quote(config.challengeName)}`,
    `agent_features=${quote(config.agentFeatures.join(","))}`,
    `agent_out_dir=${quote(config.agentOutDir)}`,
    `agent_name=${quote(config.agentName)}`,
    `extension_features=${quote(config.extensionFeatures.join(","))}`,
    `extension_out_dir=${quote(config.extensionOutDir)}`,
    `extension_name=${quote(config.extensionName)}`,
    `wasm_opt_passes=(${config.wasmOptPasses.map(quote).join(" ")})`,
    `size_rustflags=${quote(config.sizeRustflags.join(" "))}`,
    `size_cargo_args=(${config.sizeCargoArgs.map(quote).join(" ")})`,
    `fallback_warning=${quote(config.fallbackWarning)}`,
    `js_rustflags=${quote(config.jsRustflags.join(" "))}`,
    `js_test_features=${quote(config.jsTestFeatures.join(","))}`,
    `js_test_out_dir=${quote(config.jsTestOutDir)}`,
    `js_wasm_opt_passes=(${config.jsWasmOptPasses.map(quote).join(" ")})`,
  ].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    console.log(shellAssignments(buildConfig()));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
