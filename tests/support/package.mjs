// The folder the build writes the package to (wasm-pack.toml's out-dir), as
// an absolute path ending in a slash: the tests and benchmarks serve and read
// the package from there.
import { buildConfig } from "../../scripts/build-config.mjs";

/** The package's folder. */
export const PACKAGE = new URL(`../../${buildConfig().outDir}/`, import.meta.url).pathname;
