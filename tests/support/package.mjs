// The folders the build writes the packages to (wasm-pack.toml's out-dirs), as
// an absolute path ending in a slash: the tests and benchmarks serve and read
// the package from there.
import { buildConfig } from "../../scripts/build-config.mjs";

const config = buildConfig();

/** The package's folder. */
export const PACKAGE = new URL(`../../${config.outDir}/`, import.meta.url).pathname;

/** The x402-verdict package's folder (wasm-pack.toml's [agent-build] out-dir). */
export const AGENT_PACKAGE = new URL(`../../${config.agentOutDir}/`, import.meta.url).pathname;

/** The JavaScript build made for the tests alone (`scripts/build.sh --tests`): the package's, with the signature check exported (feature verify-export). */
export const JS_TEST_BUILD = new URL(`../../${config.jsTestOutDir}/`, import.meta.url).pathname;
