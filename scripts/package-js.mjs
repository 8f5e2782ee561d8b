// Adds the package's JavaScript to the wasm-pack build in <pkg dir> (run by
// scripts/build.sh after scripts/minify.mjs), with the JavaScript build from
// <js build dir> (minify.mjs --to-js: its glue holding the wasm2js
// translation) and the glue of the script tag's wasm (wasm-pack.toml's
// [embed-build], whose wasm build.sh put in <pkg dir>):
//
// - words.js, the core's words and src/words.rs' (`cargo xtask generate words`),
//   goes into the files that import it, not beside them;
// - badge.js (the badge's DOM and its stylesheet, compacted), early.js (the
//   verdict requests started while the wasm loads), explain.js (why the
//   wasm did not load: fetched only then) and index.d.ts, each minified
//   with terser; index.js, the package's entry, bundled by rolldown from
//   js/index.js and the modules it imports (engine, options, budget,
//   retry, render, element), those files aside; both glues import
//   badge.js and early.js, which wasm-bindgen pointed at its own copies
//   under snippets/: each glue is rewritten to import ./badge.js and
//   ./early.js, so that a page loads each once;
// - x402_verdict_badge_js.js, the JavaScript build (loaded only where the
//   wasm cannot run);
// - embed.js, the script-tag loader: the sources of js/embed.js and of
//   everything it imports (index.js and its modules, badge.js, early.js, the core's words
//   once, and the script tag's glue in place of the module entry's) bundled
//   by rolldown into one classic script that also runs as a module
//   (import.meta.url becomes the script's own URL); the JavaScript build
//   and explain.js stay outside it, loaded by their absolute URL next to
//   embed.js, and the challenge reader (x402_verdict_challenge.js and its
//   wasm, which build.sh put here) is left out;
// - LICENSE-MIT and LICENSE-APACHE, from the repository's root;
// - package.json: index.js is the entry; every file is listed; index.js and
//   embed.js have side effects (they define custom elements and render).
//
// Usage: node scripts/package-js.mjs <pkg dir> <js build dir> <script tag's glue> [--sources <dir>]
// (--sources: a copy of js/ to package instead, for the benchmarks' variants)
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";
import { minify } from "terser";

const [dir = "pkg", jsDir, embedGlue, sourcesFlag, sourcesDir] = process.argv.slice(2);
if (!embedGlue || (sourcesFlag && (sourcesFlag !== "--sources" || !sourcesDir))) {
  throw new Error("usage: node scripts/package-js.mjs <pkg dir> <js build dir> <script tag's glue> [--sources <dir>]");
}
/** The package's JavaScript sources: js/, or a copy of it (the benchmarks vary one constant). */
const JS = sourcesDir ? resolve(sourcesDir) : fileURLToPath(new URL("../js", import.meta.url));
/** Collapses the badge's stylesheet (a template literal): no comments, no needless spaces. */
const compactCss = (code) => code.replace(/const CSS = `([^`]*)`;/, (_, css) => {
  const compact = css.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\s+/g, " ").replace(/\s*([{};:,])\s*/g, "$1").trim();
  return `const CSS = \`${compact}\`;`;
});
const wordsFile = join(dir, "words.js");
const wordsModule = readFileSync(wordsFile, "utf8");
const words = wordsModule.replace(/^export /gm, "");
/** The source with the core's words in place of its import of ./words.js. */
const withWords = (code) => code.replace(/^import \{[^}]*\} from "\.\/words\.js";$/m, () => words);
const source = (name) => withWords(compactCss(readFileSync(join(JS, name), "utf8")));
// ES2020 output (the package needs ES2022 anyway: private fields, `??=`),
// function expressions that use neither `this` nor `arguments` as arrows,
// and methods in shorthand: none is constructed, and the script tag's
// bytes count.
const options = { module: true, ecma: 2020, compress: { passes: 2, unsafe_arrows: true, unsafe_methods: true }, mangle: true };
/** The licence files the package carries (its licence is `MIT OR Apache-2.0`). */
const LICENCES = ["LICENSE-MIT", "LICENSE-APACHE"];

for (const name of ["badge.js", "early.js", "explain.js"]) {
  writeFileSync(join(dir, name), (await minify(source(name), options)).code);
}
copyFileSync(join(JS, "index.d.ts"), join(dir, "index.d.ts"));
for (const name of LICENCES) copyFileSync(new URL(`../${name}`, import.meta.url), join(dir, name));

rmSync(wordsFile);

/** A glue importing the package's own ./badge.js and ./early.js rather than wasm-bindgen's snippet copies. */
function withOwnImports(glue) {
  const snippet = /(["'])\.\/snippets\/[^"']*\/js\/(badge|early)\.js\1/g;
  const found = new Set([...glue.matchAll(snippet)].map((m) => m[2]));
  for (const name of ["badge", "early"]) {
    if (!found.has(name) && !glue.includes(`"./${name}.js"`)) throw new Error(`package-js: expected an import of the snippet js/${name}.js in the glue`);
  }
  return glue.replace(snippet, (_, quote, name) => `${quote}./${name}.js${quote}`);
}
const glueFile = join(dir, "x402_verdict_badge.js");
writeFileSync(glueFile, withOwnImports(readFileSync(glueFile, "utf8")));
const jsGlue = readFileSync(join(jsDir, "x402_verdict_badge.js"), "utf8");
if (!jsGlue.includes("initJs")) throw new Error(`package-js: ${jsDir} holds no JavaScript build (minify.mjs --to-js)`);
const JS_BUILD = "x402_verdict_badge_js.js";
writeFileSync(join(dir, JS_BUILD), withOwnImports(jsGlue));
rmSync(join(dir, "snippets"), { recursive: true, force: true });

// The sources of the package's modules, staged with one copy of the core's
// words, for the two bundles below.
const sources = join(dir, ".sources");
mkdirSync(sources, { recursive: true });
for (const name of readdirSync(JS).filter((f) => f.endsWith(".js"))) {
  writeFileSync(join(sources, name), compactCss(readFileSync(join(JS, name), "utf8")));
}
writeFileSync(join(sources, "words.js"), wordsModule);

// index.js: the entry's modules (engine, options, budget, rendering, the
// element) bundled into one ES module, minified as a whole; the files the
// wasm's glue shares (badge.js, early.js) and those loaded on demand stay
// files of their own beside it.
const SHARED = /^\.\/(badge|early|explain|x402_verdict_badge|x402_verdict_badge_js|x402_verdict_challenge)\.js$/;
// Every module is kept for its side effects too (element.js defines the
// element): a function, since rolldown would otherwise take the package's
// own package.json, whose sideEffects name only the files it ships.
const TREESHAKE = { moduleSideEffects: () => true };
const entry = await rolldown({ input: join(sources, "index.js"), external: [SHARED], treeshake: TREESHAKE });
const { output: entryOutput } = await entry.generate({ format: "es" });
await entry.close();
writeFileSync(join(dir, "index.js"), (await minify(entryOutput[0].code, options)).code);

// The script-tag loader: one classic script, bundled from the same sources
// (minified once, as a whole) and the script tag's own glue (its wasm has
// renderBadge alone), where engine.js imports the module entry's.
// A classic script from another origin (a CDN) without a crossorigin
// attribute resolves import() against about:blank: in embed.js, the files it
// loads on demand are named by their absolute URL, next to embed.js.
const absolute = (code) => [JS_BUILD, "explain.js"].reduce((text, name) => {
  const relative = `import("./${name}")`;
  if (!text.includes(relative)) throw new Error(`package-js: expected ${relative} in engine.js`);
  return text.replaceAll(relative, `import(new URL("./${name}", import.meta.url).href)`);
}, code);
const engineFile = join(sources, "engine.js");
writeFileSync(engineFile, absolute(readFileSync(engineFile, "utf8")));
writeFileSync(join(sources, "x402_verdict_badge.js"), withOwnImports(readFileSync(embedGlue, "utf8")));
const bundle = await rolldown({
  input: join(sources, "embed.js"),
  treeshake: TREESHAKE,
  // The challenge reader (its glue next to embed.js), which embed.js never calls.
  external: [/x402_verdict_challenge\.js/],
  // embed.js keeps its own URL there, as it starts.
  transform: { define: { "import.meta.url": 'globalThis[Symbol.for("x402-verdict.script")]' } },
  // The script tag's glue has no lookupVerdict, which engine.js reads from it as undefined: nothing on a
  // page of badges by script tag can call it.
  onLog(level, log, handler) {
    if (log.code === "IMPORT_IS_UNDEFINED" && log.message.includes("lookupVerdict")) return;
    handler(level, log);
  },
});
const { output } = await bundle.generate({ format: "iife" });
await bundle.close();
rmSync(sources, { recursive: true });
const embed = (await minify(output[0].code, { ...options, module: false, toplevel: true })).code;
if (embed.includes("import.meta")) throw new Error("package-js: embed.js is a classic script and must not read import.meta");
writeFileSync(join(dir, "embed.js"), embed);

const manifestFile = join(dir, "package.json");
const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
manifest.main = "index.js";
manifest.module = "index.js";
manifest.types = "index.d.ts";
manifest.files = [...readdirSync(dir).filter((f) => /\.(js|d\.ts|wasm)$/.test(f)), ...LICENCES].sort();
manifest.sideEffects = ["./index.js", "./embed.js", "./badge.js"];
writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
