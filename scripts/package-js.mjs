// Adds the package's JavaScript to the wasm-pack build in <pkg dir> (run by
// scripts/build.sh after scripts/minify.mjs), with the JavaScript build from
// <js build dir> (minify.mjs --to-js: its glue holding the wasm2js
// translation):
//
// - words.js, the core's words (written by crates/core/examples/browser-words.rs),
//   goes into the files that import it, not beside them;
// - badge.js (the badge's DOM and its stylesheet, compacted; also imported
//   by both glues, which wasm-bindgen pointed at its own copy under
//   snippets/: each glue is rewritten to import ./badge.js, so a page loads
//   it once), index.js (the package's entry) and index.d.ts, each minified
//   with terser;
// - x402_verdict_badge_js.js, the JavaScript build (loaded only where the
//   wasm cannot run);
// - embed.js, the script-tag loader: js/badge.js, the words and js/embed.js
//   in one function scope, a classic script that also runs as a module;
// - LICENSE-MIT and LICENSE-APACHE, from the repository's root;
// - package.json: index.js is the entry; every file is listed; index.js and
//   embed.js have side effects (they define custom elements and render).
//
// Usage: node scripts/package-js.mjs <pkg dir> <js build dir>
import { copyFileSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { minify } from "terser";

const [dir = "pkg", jsDir] = process.argv.slice(2);
if (!jsDir) throw new Error("usage: node scripts/package-js.mjs <pkg dir> <js build dir>");
/** Collapses the badge's stylesheet (a template literal): no comments, no needless spaces. */
const compactCss = (code) => code.replace(/const CSS = `([^`]*)`;/, (_, css) => {
  const compact = css.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\s+/g, " ").replace(/\s*([{};:,])\s*/g, "$1").trim();
  return `const CSS = \`${compact}\`;`;
});
const wordsFile = join(dir, "words.js");
const words = readFileSync(wordsFile, "utf8").replace(/^export /gm, "");
/** The source with the core's words in place of its import of ./words.js. */
const withWords = (code) => code.replace(/^import \{[^}]*\} from "\.\/words\.js";$/m, () => words);
const source = (name) => withWords(compactCss(readFileSync(new URL(`../js/${name}`, import.meta.url), "utf8")));
const options = { module: true, compress: { passes: 2 }, mangle: true };
/** The licence files the package carries (its licence is `MIT OR Apache-2.0`). */
const LICENCES = ["LICENSE-MIT", "LICENSE-APACHE"];

for (const name of ["badge.js", "index.js"]) {
  writeFileSync(join(dir, name), (await minify(source(name), options)).code);
}
copyFileSync(new URL("../js/index.d.ts", import.meta.url), join(dir, "index.d.ts"));
for (const name of LICENCES) copyFileSync(new URL(`../${name}`, import.meta.url), join(dir, name));

const inline = source("badge.js").replace(/^export /gm, "");
const loader = `(() => {\n${inline}\n${words}\n${source("embed.js")}\n})();\n`;
const minified = await minify(loader, { ...options, module: false, toplevel: true });
writeFileSync(join(dir, "embed.js"), minified.code);
rmSync(wordsFile);

/** A glue importing the badge's DOM code as ./badge.js rather than wasm-bindgen's snippet copy. */
function withBadgeImport(glue) {
  const snippet = /(["'])\.\/snippets\/[^"']*\/js\/badge\.js\1/g;
  const imports = (glue.match(snippet) ?? []).length;
  if (imports > 1 || (imports === 0 && !glue.includes('"./badge.js"'))) {
    throw new Error("package-js: expected one import of the snippet js/badge.js in the glue");
  }
  return glue.replace(snippet, '"./badge.js"');
}
const glueFile = join(dir, "x402_verdict_badge.js");
writeFileSync(glueFile, withBadgeImport(readFileSync(glueFile, "utf8")));
const jsGlue = readFileSync(join(jsDir, "x402_verdict_badge.js"), "utf8");
if (!jsGlue.includes("initJs")) throw new Error(`package-js: ${jsDir} holds no JavaScript build (minify.mjs --to-js)`);
writeFileSync(join(dir, "x402_verdict_badge_js.js"), withBadgeImport(jsGlue));
rmSync(join(dir, "snippets"), { recursive: true, force: true });

const manifestFile = join(dir, "package.json");
const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
manifest.main = "index.js";
manifest.module = "index.js";
manifest.types = "index.d.ts";
manifest.files = [...readdirSync(dir).filter((f) => /\.(js|d\.ts|wasm)$/.test(f)), ...LICENCES].sort();
manifest.sideEffects = ["./index.js", "./embed.js", "./badge.js"];
writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
