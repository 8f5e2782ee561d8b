// Adds the package's JavaScript to the wasm-pack build in <pkg dir> (run by
// scripts/build.sh after scripts/minify.mjs):
//
// - badge.js (the badge's DOM and its stylesheet, compacted; also imported by the wasm's glue, which
//   wasm-bindgen pointed at its own copy under snippets/: the glue is
//   rewritten to import ./badge.js, so a page loads it once), index.js (the
//   package's entry), fallback.js (loaded only when the wasm fails) and
//   index.d.ts, each minified with terser;
// - embed.js, the script-tag loader: js/badge.js and js/embed.js in one
//   function scope, a classic script that also runs as a module;
// - LICENSE-MIT and LICENSE-APACHE, from the repository's root;
// - package.json: index.js is the entry; every file is listed; index.js and
//   embed.js have side effects (they define custom elements and render).
//
// Usage: node scripts/package-js.mjs <pkg dir>
import { copyFileSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { minify } from "terser";

const dir = process.argv[2] ?? "pkg";
/** Collapses the badge's stylesheet (a template literal): no comments, no needless spaces. */
const compactCss = (code) => code.replace(/const CSS = `([^`]*)`;/, (_, css) => {
  const compact = css.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\s+/g, " ").replace(/\s*([{};:,])\s*/g, "$1").trim();
  return `const CSS = \`${compact}\`;`;
});
/** The core's network aliases (crates/core/src/network.rs), for the fallback's endpoint binding. */
function networkAliases() {
  const rust = readFileSync(new URL("../crates/core/src/network.rs", import.meta.url), "utf8");
  const table = /pub const NETWORK_ALIASES: &\[\(&str, &str\)\] = &\[([^\]]*)\];/.exec(rust)?.[1] ?? "";
  const pairs = [...table.matchAll(/\("([^"]+)", "([^"]+)"\)/g)].map(([, v1, caip2]) => [v1, caip2]);
  if (pairs.length < 2) throw new Error("package-js: NETWORK_ALIASES not found in crates/core/src/network.rs");
  return pairs;
}
const withAliases = (code) => code.replace("/* NETWORK_ALIASES */ []", () => JSON.stringify(networkAliases()));
const source = (name) => withAliases(compactCss(readFileSync(new URL(`../js/${name}`, import.meta.url), "utf8")));
const options = { module: true, compress: { passes: 2 }, mangle: true };
/** The licence files the package carries (its licence is `MIT OR Apache-2.0`). */
const LICENCES = ["LICENSE-MIT", "LICENSE-APACHE"];

for (const name of ["badge.js", "index.js", "fallback.js"]) {
  writeFileSync(join(dir, name), (await minify(source(name), options)).code);
}
copyFileSync(new URL("../js/index.d.ts", import.meta.url), join(dir, "index.d.ts"));
for (const name of LICENCES) copyFileSync(new URL(`../${name}`, import.meta.url), join(dir, name));

const inline = source("badge.js").replace(/^export /gm, "");
const loader = `(() => {\n${inline}\n${source("embed.js")}\n})();\n`;
const minified = await minify(loader, { ...options, module: false, toplevel: true });
writeFileSync(join(dir, "embed.js"), minified.code);

// The glue imports the badge's DOM code from wasm-bindgen's snippet copy.
const glueFile = join(dir, "x402_verdict_badge.js");
const glue = readFileSync(glueFile, "utf8");
const snippet = /(["'])\.\/snippets\/[^"']*\/js\/badge\.js\1/g;
const imports = (glue.match(snippet) ?? []).length;
if (imports > 1 || (imports === 0 && !glue.includes('"./badge.js"'))) {
  throw new Error("package-js: expected one import of the snippet js/badge.js in the glue");
}
writeFileSync(glueFile, glue.replace(snippet, '"./badge.js"'));
rmSync(join(dir, "snippets"), { recursive: true, force: true });

const manifestFile = join(dir, "package.json");
const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
manifest.main = "index.js";
manifest.module = "index.js";
manifest.types = "index.d.ts";
manifest.files = [...readdirSync(dir).filter((f) => /\.(js|d\.ts|wasm)$/.test(f)), ...LICENCES].sort();
manifest.sideEffects = ["./index.js", "./embed.js", "./badge.js"];
writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
