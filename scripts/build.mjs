// Builds what `npm run build` ships, as wasm-pack.toml says (read once,
// through ./build-config.mjs). scripts/build.sh runs it after set-up and
// after `cargo xtask generate`, which keeps the committed generated files
// (js/generated/: the core's words, the extension's, the types, the
// package's file names) current:
//
// - the command (cargo build --release), the Python wheel (maturin, for
//   manylinux2014 through zig) and the demo's published-metrics page;
// - each wasm of the packages: wasm-pack --no-opt (with the size build when
//   the toolchain takes its flags), wasm-opt, then ./minify.mjs; and the
//   JavaScript builds (wasm2js), for where WebAssembly cannot run;
// - the x402-verdict package (./package-agent.mjs), the browser extension
//   (./package-extension.mjs) and the badge's package (./package-js.mjs),
//   whose JavaScript rolldown bundles, and a copy of the badge's in www/pkg
//   for the demo pages.
//
// Why each setting is what it is: docs/building.md.
//
// Usage: node scripts/build.mjs [--tests]
// (--tests, as `npm test` runs it: also wasm-pack.toml's [js-test-build],
// the builds for the tests alone, never packaged)
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, rmSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildConfig } from "./build-config.mjs";
import { minifyBuild } from "./minify.mjs";
import { packageAgent } from "./package-agent.mjs";
import { packageExtension } from "./package-extension.mjs";
import { packageBadge } from "./package-js.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** binaryen's tools from npm, never Debian's. */
const binaryen = (tool) => join(ROOT, "node_modules/.bin", tool);

/** Runs `command` in the repository, its output shown; throws when it fails. */
function run(command, args, env = {}) {
  execFileSync(command, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
}

/**
 * The wasm-pack command line of one wasm and its glue (`stem`.js,
 * `stem`_bg.wasm) in `outDir`, with `cargoArgs` (its features), and its
 * environment: the size build's flags when `sizeBuild`, then `rustflags`.
 */
export function wasmPackCommand(config, { outDir, stem, rustflags = [], cargoArgs = [], sizeBuild }) {
  const args = ["--log-level", "warn", "build", "--no-opt", "--profile", config.profile, "--target", config.target, "--out-dir", outDir, "--out-name", stem, ".", ...cargoArgs];
  if (!sizeBuild) return { args, env: { RUSTFLAGS: rustflags.join(" ") } };
  return {
    args: [...args, ...config.sizeCargoArgs],
    env: { RUSTC_BOOTSTRAP: "1", RUSTFLAGS: [...config.sizeRustflags, ...rustflags].join(" ") },
  };
}

/**
 * Whether this toolchain takes the size build's flags: it has the standard
 * library's source, and rustc accepts the flags (it checks them while it
 * parses them, so printing the target's cfg is enough).
 */
function takesSizeBuild(config) {
  try {
    const sysroot = execFileSync("rustc", ["--print", "sysroot"], { encoding: "utf8" }).trim();
    if (!existsSync(join(sysroot, "lib/rustlib/src/rust/library"))) return false;
    execFileSync("rustc", [...config.sizeRustflags, "--print", "cfg", "--target", "wasm32-unknown-unknown"], {
      stdio: "ignore", env: { ...process.env, RUSTC_BOOTSTRAP: "1" },
    });
    return true;
  } catch {
    return false;
  }
}

/** The features argument of cargo: only these features, without the defaults. */
const only = (features) => ["--no-default-features", "--features", features.join(",")];

async function main(tests) {
  const config = buildConfig();
  const sizeBuild = takesSizeBuild(config);
  if (!sizeBuild) {
    const version = execFileSync("rustc", ["--version"], { encoding: "utf8" }).trim();
    console.error(`[build] warning: ${version} ${config.fallbackWarning}`);
  }
  /** One wasm and its glue, `targetDir` its own Cargo target folder when given (other flags: its own build cache). */
  // The root crate alone: wasm-pack builds in the root folder, where a bare
  // `cargo build` means the workspace's default members (every crate).
  const wasmPack = (options, targetDir) => {
    const cargoArgs = ["--package", "x402-verdict-badge", ...(options.cargoArgs ?? [])];
    const { args, env } = wasmPackCommand(config, { ...options, cargoArgs, sizeBuild });
    run("wasm-pack", args, targetDir ? { ...env, CARGO_TARGET_DIR: targetDir } : env);
  };
  const wasmOpt = (passes, wasm) => run(binaryen("wasm-opt"), [...passes, wasm, "-o", wasm]);

  run("cargo", ["build", "--release", "-p", "x402-verdict", "--quiet"]);
  // The Python package (crates/python): one abi3 wheel (CPython 3.9 and
  // newer) that needs nothing else at run time, linked by zig against
  // glibc 2.17 (manylinux2014: docs/building.md#the-python-wheel), with the
  // maturin and zig that scripts/setup.sh installs into .work/venv.
  const wheels = join(ROOT, "target/wheels");
  for (const name of existsSync(wheels) ? readdirSync(wheels) : []) {
    if (/^x402_verdict-.*\.whl$/.test(name)) rmSync(join(wheels, name));
  }
  const venv = join(ROOT, ".work/venv/bin");
  run(join(venv, "maturin"), ["build", "--release", "--quiet", "--zig", "--compatibility", "manylinux2014", "--manifest-path", "crates/python/Cargo.toml", "--out", "target/wheels"], {
    PATH: `${venv}:${process.env.PATH}`,
  });
  // The demo's published-metrics page, from the committed snapshot (served at /metrics/ by npm start).
  run("target/release/x402-verdict", ["metrics", "page", "--snapshot", "demo/metrics/snapshot.json", "--out", "www/metrics"]);

  // The module entry's wasm (renderBadge and lookupVerdict), in the package's folder.
  const badge = "x402_verdict_badge";
  wasmPack({ outDir: config.outDir, stem: badge, cargoArgs: only(config.features) });
  wasmOpt(config.wasmOptPasses, join(config.outDir, `${badge}_bg.wasm`));
  await minifyBuild(config.outDir);

  /** A wasm of the package's besides the module entry's, built and shrunk the same way in a folder of its own; its wasm is added to the package. */
  const sideWasm = async (dir, stem, features) => {
    wasmPack({ outDir: dir, stem, cargoArgs: only(features) });
    wasmOpt(config.wasmOptPasses, join(dir, `${stem}_bg.wasm`));
    await minifyBuild(dir, { stem });
    cpSync(join(dir, `${stem}_bg.wasm`), join(config.outDir, `${stem}_bg.wasm`));
  };
  // The script tag's wasm (renderBadge alone): its glue goes into embed.js.
  const embedDir = "target/embed-build/pkg";
  await sideWasm(embedDir, config.embedName, config.embedFeatures);
  // endpointsFromPaymentRequired's own wasm, with its glue beside it.
  const challengeDir = "target/challenge-build/pkg";
  await sideWasm(challengeDir, config.challengeName, config.challengeFeatures);
  for (const ext of ["js", "d.ts"]) cpSync(join(challengeDir, `${config.challengeName}.${ext}`), join(config.outDir, `${config.challengeName}.${ext}`));

  // The same code for pages where WebAssembly cannot run, translated to
  // JavaScript by binaryen's wasm2js: built for the first WebAssembly
  // features only (wasm2js needs one table, so no reference types), in a
  // target folder of its own, its wasm optimized and minified as the
  // other's, then translated and joined to its glue.
  const jsBuild = async (outDir, stem, cargoArgs, targetDir) => {
    wasmPack({ outDir, stem, rustflags: config.jsRustflags, cargoArgs }, targetDir);
    wasmOpt(config.jsWasmOptPasses, join(outDir, `${stem}_bg.wasm`));
    await minifyBuild(outDir, { toJs: true, stem });
  };
  const jsDir = "target/js-build/pkg";
  await jsBuild(jsDir, badge, [], "target/js-build");
  // The same, with the test hook's features (the signature check exported),
  // for tests/e2e/nowasm.test.mjs.
  if (tests) await jsBuild(config.jsTestOutDir, badge, ["--features", config.jsTestFeatures.join(",")], "target/js-build");

  // The x402-verdict package, for code that pays: its own wasm (the guard's
  // decisions, no DOM) and glue, its JavaScript build (the agent's features
  // alone), and its JavaScript (js/agent/).
  const agentDir = "target/agent-build/pkg";
  wasmPack({ outDir: agentDir, stem: config.agentName, cargoArgs: only(config.agentFeatures) });
  wasmOpt(config.wasmOptPasses, join(agentDir, `${config.agentName}_bg.wasm`));
  const agentJsDir = "target/agent-js-build/pkg";
  await jsBuild(agentJsDir, config.agentName, only(config.agentFeatures), "target/agent-js-build");

  await packageAgent({ build: agentDir, out: config.agentOutDir, stem: config.agentName, jsBuild: agentJsDir });

  // The buyer's browser extension: its engine's wasm and glue, then its
  // JavaScript, each browser's folder and zip (./package-extension.mjs).
  const extensionDir = "target/extension-build/pkg";
  wasmPack({ outDir: extensionDir, stem: config.extensionName, cargoArgs: only(config.extensionFeatures) });
  wasmOpt(config.wasmOptPasses, join(extensionDir, `${config.extensionName}_bg.wasm`));
  await packageExtension({ build: extensionDir, out: config.extensionOutDir, stem: config.extensionName });
  await packageBadge({ dir: config.outDir, jsDir, embedGlue: join(embedDir, `${config.embedName}.js`) });
  // A copy, not a link: the service serves no file from outside its --www folder.
  rmSync("www/pkg", { recursive: true, force: true });
  cpSync(config.outDir, "www/pkg", { recursive: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.length > 1 || (args.length === 1 && args[0] !== "--tests")) {
    console.error("usage: node scripts/build.mjs [--tests]");
    process.exit(2);
  }
  process.chdir(ROOT);
  try {
    await main(args[0] === "--tests");
  } catch (error) {
    // A command that failed said why above; anything else is said in one line.
    console.error(`[build] ${error.message.split("\n")[0]}`);
    process.exit(1);
  }
}
