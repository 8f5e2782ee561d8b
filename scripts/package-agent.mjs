// Makes the x402-verdict package (for code that pays) in `out` (run by
// scripts/build.mjs) from the wasm-pack build in `build`: its wasm and glue
// (`stem`.js, `stem`_bg.wasm, `stem`.d.ts), the JavaScript build from
// `jsBuild` (its glue holding the wasm2js translation, which ./minify.mjs
// made import ./early.js) as `stem`_js.js, js/early.js beside them (each
// glue's one import), js/agent/ (the entry, the engine's loader, the guard,
// the placement of the seller's snippets, the types) with the seller module
// bundled by rolldown with what it imports from the badge's JavaScript
// (js/options.js) and from the build (`generated`: the core's words, the
// package's file names), verdict-types.d.ts (the unions of the core's
// spellings that its types import), the licences and its package.json.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rolldown } from "rolldown";
import { parse } from "smol-toml";
import { resolveBuilt, withOwnImports } from "./bundle.mjs";

const ROOT = new URL("../", import.meta.url);
const LICENCES = ["LICENSE-MIT", "LICENSE-APACHE"];
/** The module of js/agent/ that is bundled (the others ship as they are). */
const SELLER = "seller.js";

/** Packages x402-verdict in `out` (see above). */
export async function packageAgent({ build, out, stem, jsBuild, generated }) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const { code: glue, snippets } = await withOwnImports(join(build, `${stem}.js`));
  if (!snippets.has("early.js")) throw new Error(`package-agent: expected an import of the snippet js/early.js in ${build}'s glue`);
  writeFileSync(join(out, `${stem}.js`), glue);
  const jsGlue = readFileSync(join(jsBuild, `${stem}.js`), "utf8");
  if (!jsGlue.includes("initJs")) throw new Error(`package-agent: ${jsBuild} holds no JavaScript build (minify.mjs with toJs)`);
  writeFileSync(join(out, `${stem}_js.js`), jsGlue);
  for (const name of [`${stem}_bg.wasm`, `${stem}.d.ts`]) copyFileSync(join(build, name), join(out, name));
  copyFileSync(join(generated, "verdict-types.d.ts"), join(out, "verdict-types.d.ts"));
  copyFileSync(new URL("js/early.js", ROOT), join(out, "early.js"));
  const agent = new URL("js/agent/", ROOT);
  for (const name of readdirSync(agent)) {
    if (name !== SELLER) copyFileSync(new URL(name, agent), join(out, name));
  }
  // The seller module, with the badge's option names and the package's file
  // names bundled in; the engine, the placement and parse5 stay imports.
  const seller = await rolldown({
    input: new URL(SELLER, agent).pathname,
    external: ["./engine.js", "./placement.js", "parse5"],
    plugins: [resolveBuilt({ generated })],
  });
  const { output } = await seller.generate({ format: "es" });
  await seller.close();
  writeFileSync(join(out, SELLER), output[0].code);
  for (const name of LICENCES) copyFileSync(new URL(name, ROOT), join(out, name));

  // The version is the workspace's, the parser's the root package.json's.
  const { version } = parse(readFileSync(new URL("Cargo.toml", ROOT), "utf8")).workspace.package;
  const manifest = {
    name: "x402-verdict",
    version,
    description: "Signed x402 verification verdicts for code that pays: lookupVerdict, endpointStatus and a guard for the official x402 client, on the Rust core compiled to wasm.",
    license: "MIT OR Apache-2.0",
    type: "module",
    main: "index.js",
    types: "index.d.ts",
    exports: {
      ".": { types: "./index.d.ts", default: "./index.js" },
      "./seller": { types: "./seller.d.ts", default: "./seller.js" },
    },
    engines: { node: ">=20" },
    // The seller module's HTML parser (js/agent/placement.js).
    dependencies: { parse5: `^${JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")).devDependencies.parse5}` },
    files: [...readdirSync(out), "package.json"].sort(),
    sideEffects: false,
  };
  writeFileSync(join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}
