// Makes the x402-verdict package (for code that pays) in <out dir> from the
// wasm-pack build in <build dir> (run by scripts/build.sh): its wasm and
// glue (<stem>.js, <stem>_bg.wasm, <stem>.d.ts, and verdict-types.d.ts, the unions
// of the core's spellings that its types import), the JavaScript build from
// <js build dir> (minify.mjs --to-js: its glue holding the wasm2js
// translation) as <stem>_js.js, js/early.js beside them (each glue's one
// import, rewritten from wasm-bindgen's snippet copy), js/agent/ (the entry,
// the engine's loader, the guard, the seller module, the types), the licences and its package.json.
//
// Usage: node scripts/package-agent.mjs <build dir> <out dir> <file name stem> <js build dir>
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [build, out, stem, jsBuild] = process.argv.slice(2);
if (!jsBuild) throw new Error("usage: node scripts/package-agent.mjs <build dir> <out dir> <file name stem> <js build dir>");
const ROOT = new URL("../", import.meta.url);
const LICENCES = ["LICENSE-MIT", "LICENSE-APACHE"];

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const snippet = /(["'])\.\/snippets\/[^"']*\/js\/early\.js\1/;
/** The glue in `dir`, importing the package's own ./early.js. */
function glue(dir) {
  const code = readFileSync(join(dir, `${stem}.js`), "utf8");
  if (!snippet.test(code)) throw new Error(`package-agent: expected an import of the snippet js/early.js in ${dir}'s glue`);
  return code.replace(snippet, '"./early.js"');
}
writeFileSync(join(out, `${stem}.js`), glue(build));
const jsGlue = glue(jsBuild);
if (!jsGlue.includes("initJs")) throw new Error(`package-agent: ${jsBuild} holds no JavaScript build (minify.mjs --to-js)`);
writeFileSync(join(out, `${stem}_js.js`), jsGlue);
for (const name of [`${stem}_bg.wasm`, `${stem}.d.ts`, "verdict-types.d.ts"]) copyFileSync(join(build, name), join(out, name));
copyFileSync(new URL("js/early.js", ROOT), join(out, "early.js"));
for (const name of readdirSync(new URL("js/agent/", ROOT))) copyFileSync(new URL(`js/agent/${name}`, ROOT), join(out, name));
for (const name of LICENCES) copyFileSync(new URL(name, ROOT), join(out, name));

const crate = readFileSync(new URL("Cargo.toml", ROOT), "utf8");
const version = crate.match(/^version = "([^"]+)"$/m)[1];
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
  // The seller module's HTML parser (js/agent/placement.js), the root package.json's version.
  dependencies: { parse5: `^${JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")).devDependencies.parse5}` },
  files: [...readdirSync(out), "package.json"].sort(),
  sideEffects: false,
};
writeFileSync(join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
