// Shrinks the package wasm-pack built (run by scripts/build.sh):
//
// 1. binaryen's wasm-opt gives the wasm's imports, exports and import module
//    one- or two-letter names (wasm-bindgen names each import after its JS
//    function plus a 16-digit hash, which gzip cannot compress), and prints
//    the old-to-new mapping; it also drops the `producers` and
//    `target_features` sections, which only tools read (this is the last
//    wasm-opt run: earlier ones read the features from the latter);
// 2. the JS glue and the `InitOutput` type are rewritten with that mapping,
//    and the build fails if any old name is left behind;
// 3. terser minifies the glue.
//
// The public API (`renderBadge`, `renderAll`, `lookupVerdict`, `default`,
// `initSync`) keeps its names: only the wasm's private interface changes.
//
// Usage: node scripts/minify.mjs <pkg dir>
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { minify } from "terser";

const dir = process.argv[2] ?? "pkg";
const stem = "x402_verdict_badge";
const files = {
  wasm: join(dir, `${stem}_bg.wasm`),
  glue: join(dir, `${stem}.js`),
  types: join(dir, `${stem}.d.ts`),
};
const module = `./${stem}_bg.js`;
const escape = (name) => name.replace(/[$]/g, "\\$");

let glue = readFileSync(files.glue, "utf8");
if (!glue.includes(JSON.stringify(module))) {
  console.log(`minify: ${dir} is minified already`);
  process.exit(0);
}

// binaryen from npm, never Debian's.
const wasmOpt = fileURLToPath(new URL("../node_modules/.bin/wasm-opt", import.meta.url));
const mapping = JSON.parse(
  execFileSync(wasmOpt, ["--minify-imports-and-exports-and-modules", "--strip-producers", "--strip-target-features", files.wasm, "-o", files.wasm], {
    encoding: "utf8",
  }),
);

/** Replaces the one match of `pattern` in `text` by `replacement`. */
function rewriteOnce(text, pattern, replacement, what) {
  const found = text.match(pattern)?.length ?? 0;
  if (found !== 1) throw new Error(`minify: expected one ${what}, found ${found}`);
  return text.replace(pattern, replacement);
}

const modules = new Set();
for (const [from, name, short] of mapping.imports) {
  modules.add(from);
  glue = rewriteOnce(glue, new RegExp(`\\b${escape(name)}: function`, "g"), `${JSON.stringify(short)}: function`, `definition of import ${name}`);
}
// binaryen names every import module "a".
if (modules.size !== 1 || !modules.has(module)) throw new Error(`minify: unexpected import modules ${[...modules]}`);
glue = rewriteOnce(glue, `${JSON.stringify(module)}: import0`, `"a": import0`, "import object");

let types = readFileSync(files.types, "utf8");
const initOutput = /export interface InitOutput \{[^}]*\}/;
let declaration = types.match(initOutput)?.[0];
if (!declaration) throw new Error("minify: no InitOutput in the types");
for (const [name, short] of mapping.exports) {
  glue = glue.replace(new RegExp(`\\bwasm\\.${escape(name)}\\b`, "g"), `wasm.${short}`);
  declaration = declaration.replace(new RegExp(`readonly ${escape(name)}:`), `readonly ${short}:`);
}
// Nothing may be left under an old name.
const shortExports = new Set(mapping.exports.map(([, short]) => short));
const used = [...glue.matchAll(/\bwasm\.([A-Za-z_$][\w$]*)/g), ...declaration.matchAll(/readonly ([\w$]+):/g)];
for (const [, name] of used) {
  if (!shortExports.has(name)) throw new Error(`minify: export ${name} is still used under its old name`);
}
for (const [, name] of mapping.imports) {
  if (glue.includes(name)) throw new Error(`minify: import ${name} is still named in the glue`);
}
writeFileSync(files.types, types.replace(initOutput, declaration));
// The types of the raw wasm exports (not part of the package's files) would
// now name exports that no longer exist.
rmSync(join(dir, `${stem}_bg.wasm.d.ts`), { force: true });

const minified = await minify(glue, {
  module: true,
  compress: { passes: 2 },
  mangle: true,
  // Keeps the pointer to the types for Deno and JSR.
  format: { comments: /@ts-self-types/ },
});
writeFileSync(files.glue, minified.code);
