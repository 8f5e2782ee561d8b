// Adds the package's JavaScript to the wasm-pack build in `dir` (run by
// scripts/build.mjs after ./minify.mjs), with the JavaScript build from
// `jsDir` (its glue holding the wasm2js translation), the glue of the
// script tag's wasm (wasm-pack.toml's [embed-build], whose wasm the build
// put in `dir`) and the modules `cargo xtask generate` wrote in
// js/generated/ (the core's words, words.js; the package's file names,
// files.js), which rolldown bundles into the files that import them:
//
// - badge.js (the badge's DOM and its stylesheet, compacted) and early.js
//   (the verdict requests started while the wasm loads), from js/common/,
//   and explain.js (why the wasm did not load: fetched only then), each
//   minified with terser, and index.d.ts, with verdict-types.d.ts (the
//   types the types import); index.js, the package's entry, bundled by rolldown from
//   js/badge/index.js and the modules it imports (engine, options, budget, retry,
//   render, element), the files it shares with the glues (badge.js,
//   early.js) and those loaded on demand aside;
// - x402_verdict_badge_js.js, the JavaScript build (loaded only where the
//   wasm cannot run);
// - embed.js, the script-tag loader: js/badge/embed.js and everything it imports
//   (index.js and its modules, badge.js, early.js, the core's words once,
//   and the script tag's glue in place of the module entry's) bundled by
//   rolldown into one classic script that also runs as a module
//   (import.meta.url becomes the script's own URL); the JavaScript build
//   and explain.js stay outside it, loaded by their absolute URL next to
//   embed.js (js/badge/embed-on-demand.js in place of js/badge/on-demand.js), and the
//   challenge reader (x402_verdict_challenge.js and its wasm, which the
//   build put here) is left out;
// - LICENSE-MIT and LICENSE-APACHE, from the repository's root;
// - package.json: wasm-pack's, with js/badge/package.template.json's members
//   (index.js is the entry, its exports; index.js and embed.js have side
//   effects: they define custom elements and render), every file listed.
import { copyFileSync, cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";
import { minify } from "terser";
import { resolveBuilt } from "./bundle.mjs";

/** Collapses the badge's stylesheet (a template literal): no comments, no needless spaces. */
const compactCss = (code) => code.replace(/const CSS = `([^`]*)`;/, (_, css) => {
  const compact = css.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\s+/g, " ").replace(/\s*([{};:,])\s*/g, "$1").trim();
  return `const CSS = \`${compact}\`;`;
});
// ES2020 output (the package needs ES2022 anyway: private fields, `??=`),
// function expressions that use neither `this` nor `arguments` as arrows,
// and methods in shorthand: none is constructed, and the script tag's
// bytes count.
const TERSER = { module: true, ecma: 2020, compress: { passes: 2, unsafe_arrows: true, unsafe_methods: true }, mangle: true };
/** The licence files the package carries (its licence is `MIT OR Apache-2.0`). */
const LICENCES = ["LICENSE-MIT", "LICENSE-APACHE"];
/** The JavaScript build's file in the package. */
const JS_BUILD = "x402_verdict_badge_js.js";
/** The files the entry leaves aside: the glues themselves, and those loaded on demand. */
const ASIDE = /^\.\/(explain|x402_verdict_badge|x402_verdict_badge_js|x402_verdict_challenge)\.js$/;
/** The files of js/common/ the package ships beside its entry (the glues import them too), by name. */
const SHARED = ["badge.js", "early.js"];
// Every constant inlined where it is used (the selectors, built from the
// attribute's and the element's names, become literals): 20 B of gzip off
// embed.js.
const INLINE = { inlineConst: { mode: "all", pass: 2 } };
// Every module is kept for its side effects too (element.js defines the
// element): a function, since rolldown would otherwise take the package's
// own package.json, whose sideEffects name only the files it ships.
const TREESHAKE = { moduleSideEffects: () => true };

/** One ES module bundled by rolldown from `input`, with `options`. */
async function bundled(input, options, format = "es") {
  const bundle = await rolldown({ input, treeshake: TREESHAKE, optimization: INLINE, ...options });
  const { output } = await bundle.generate({ format });
  await bundle.close();
  return output[0].code;
}

/**
 * Packages the badge in `dir` (see above); `sources`: a copy of js/ to
 * package instead (the benchmarks vary one constant).
 */
export async function packageBadge({ dir, jsDir, embedGlue, sources: sourcesDir }) {
  const JS = sourcesDir ? resolve(sourcesDir) : fileURLToPath(new URL("../js", import.meta.url));
  // The sources of the package's modules (js/: the badge's, the common and
  // the generated ones), staged with the badge's stylesheet compacted, for
  // the bundles below.
  const sources = resolve(dir, ".sources");
  rmSync(sources, { recursive: true, force: true });
  cpSync(JS, sources, { recursive: true });
  const badge = join(sources, "badge");
  const common = join(sources, "common");
  for (const name of readdirSync(common).filter((f) => f.endsWith(".js"))) {
    writeFileSync(join(common, name), compactCss(readFileSync(join(common, name), "utf8")));
  }
  // js/common/'s files the package ships beside the entry: imports of them
  // from js/badge/ stay imports of the files beside it.
  const besideEntry = {
    name: "x402-verdict-beside-entry",
    resolveId(source) {
      const name = /^\.\.\/common\/([\w-]+\.js)$/.exec(source)?.[1];
      return SHARED.includes(name) ? { id: `./${name}`, external: true } : null;
    },
  };
  const plugins = [resolveBuilt()];

  // badge.js and early.js import nothing; explain.js, the core's words.
  for (const name of SHARED) writeFileSync(join(dir, name), (await minify(readFileSync(join(common, name), "utf8"), TERSER)).code);
  writeFileSync(join(dir, "explain.js"), (await minify(await bundled(join(badge, "explain.js"), { plugins }), TERSER)).code);
  copyFileSync(join(JS, "badge/index.d.ts"), join(dir, "index.d.ts"));
  copyFileSync(join(JS, "generated/verdict-types.d.ts"), join(dir, "verdict-types.d.ts"));
  for (const name of LICENCES) copyFileSync(new URL(`../${name}`, import.meta.url), join(dir, name));
  const jsGlue = readFileSync(join(jsDir, "x402_verdict_badge.js"), "utf8");
  if (!jsGlue.includes("initJs")) throw new Error(`package-js: ${jsDir} holds no JavaScript build (minify.mjs with toJs)`);
  writeFileSync(join(dir, JS_BUILD), jsGlue);

  // index.js: the entry's modules (engine, options, budget, rendering, the
  // element) bundled into one ES module, minified as a whole.
  const entry = await bundled(join(badge, "index.js"), { external: [ASIDE], plugins: [besideEntry, ...plugins] });
  writeFileSync(join(dir, "index.js"), (await minify(entry, TERSER)).code);

  // The script-tag loader: one classic script, bundled from the same sources
  // (minified once, as a whole) and the script tag's own glue (its wasm has
  // renderBadge alone), where engine.js imports the module entry's.
  // A classic script from another origin (a CDN) without a crossorigin
  // attribute resolves import() against about:blank: in embed.js, the files it
  // loads on demand are named by their absolute URL, next to embed.js.
  // The glue imports js/common/'s files as files beside it (./minify.mjs).
  const glue = join(badge, "x402_verdict_badge.js");
  copyFileSync(embedGlue, glue);
  const onDemand = {
    name: "x402-verdict-embed-on-demand",
    resolveId(source, importer) {
      if (source === "./on-demand.js") return join(badge, "embed-on-demand.js");
      const name = /^\.\/([\w-]+\.js)$/.exec(source)?.[1];
      return importer === glue && SHARED.includes(name) ? join(common, name) : null;
    },
  };
  const embedCode = await bundled(join(badge, "embed.js"), {
    plugins: [onDemand, ...plugins],
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
  }, "iife");
  rmSync(sources, { recursive: true });
  const embed = (await minify(embedCode, { ...TERSER, module: false, toplevel: true })).code;
  if (embed.includes("import.meta")) throw new Error("package-js: embed.js is a classic script and must not read import.meta");
  writeFileSync(join(dir, "embed.js"), embed);

  // The manifest: wasm-pack's (from Cargo.toml: the name, description,
  // version, licence, repository, keywords), the source template's
  // members (js/badge/package.template.json: the entry, types, exports, side
  // effects), and every file the package holds.
  const manifestFile = join(dir, "package.json");
  const manifest = { ...JSON.parse(readFileSync(manifestFile, "utf8")), ...JSON.parse(readFileSync(join(JS, "badge/package.template.json"), "utf8")) };
  manifest.files = [...readdirSync(dir).filter((f) => /\.(js|d\.ts|wasm)$/.test(f)), ...LICENCES].sort();
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
}
