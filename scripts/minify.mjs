// Shrinks a wasm and its glue as wasm-pack built them (scripts/build.mjs
// runs it on each):
//
// 1. binaryen's wasm-opt gives the wasm's imports, exports and import module
//    one- or two-letter names (wasm-bindgen names each import after its JS
//    function plus a 16-digit hash, which gzip cannot compress), and prints
//    the old-to-new mapping; it also drops the `producers` and
//    `target_features` sections, which only tools read (this is the last
//    wasm-opt run: earlier ones read the features from the latter);
// 2. the JS glue and the `InitOutput` type are rewritten with that mapping,
//    and the build fails if any old name is left behind;
// 3. with `toJs` (the JavaScript build, for pages where WebAssembly cannot
//    run), binaryen's wasm2js translates the wasm to JavaScript, and the
//    translation joins the glue, which gains `initJs()`: it instantiates the
//    translation with the glue's imports, as WebAssembly would the wasm;
// 4. rolldown resolves the glue's imports of wasm-bindgen's copies of our
//    files (snippets/<crate>/js/common/early.js) to files beside it (./early.js,
//    where the copy moves), so that a page loads the package's own once;
// 5. terser minifies the glue.
//
// The public API (`renderBadge`, `renderAll`, `lookupVerdict`, `default`,
// `initSync`) keeps its names: only the wasm's private interface changes.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { minify } from "terser";
import { buildConfig } from "./build-config.mjs";
import { withOwnImports } from "./bundle.mjs";

const escape = (name) => name.replace(/[$]/g, "\\$");
// binaryen from npm, never Debian's.
const binaryen = (tool) => fileURLToPath(new URL(`../node_modules/.bin/${tool}`, import.meta.url));

/** Replaces the one match of `pattern` in `text` by `replacement`. */
function rewriteOnce(text, pattern, replacement, what) {
  const found = text.match(pattern)?.length ?? 0;
  if (found !== 1) throw new Error(`minify: expected one ${what}, found ${found}`);
  return text.replace(pattern, replacement);
}

/**
 * Shrinks the wasm `stem`_bg.wasm in `dir` and its glue `stem`.js (`stem`:
 * wasm-pack's --out-name, the crate's unless told); with `toJs`, joins the
 * glue and the wasm's JavaScript translation.
 */
export async function minifyBuild(dir, { toJs = false, stem = "x402_verdict_badge" } = {}) {
  const files = {
    wasm: join(dir, `${stem}_bg.wasm`),
    glue: join(dir, `${stem}.js`),
    types: join(dir, `${stem}.d.ts`),
  };
  const module = `./${stem}_bg.js`;

  let glue = readFileSync(files.glue, "utf8");
  if (!glue.includes(JSON.stringify(module))) {
    console.log(`minify: ${dir} is minified already`);
    return;
  }
  const wasmOpt = binaryen("wasm-opt");
  const mapping = JSON.parse(
    execFileSync(wasmOpt, ["--minify-imports-and-exports-and-modules", "--strip-producers", "--strip-target-features", files.wasm, "-o", files.wasm], {
      encoding: "utf8",
    }),
  );

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

  if (toJs) glue = withTranslation(glue, files.wasm);
  // The glue's imports of wasm-bindgen's copies of our files (snippets/)
  // resolved by rolldown to the files beside it, where those copies move
  // (the package's own steps put theirs there).
  writeFileSync(files.glue, glue);
  let snippets;
  ({ code: glue, snippets } = await withOwnImports(files.glue));
  const copies = join(dir, "snippets");
  for (const crate of existsSync(copies) ? readdirSync(copies) : []) {
    for (const path of snippets) copyFileSync(join(copies, crate, "js", path), join(dir, basename(path)));
  }
  rmSync(copies, { recursive: true, force: true });

  const minified = await minify(glue, {
    module: true,
    compress: { passes: 2 },
    mangle: true,
    // Keeps the pointer to the types for Deno and JSR.
    format: { comments: /@ts-self-types/ },
  });
  writeFileSync(files.glue, minified.code);
}

/**
 * The glue with the wasm2js translation of the wasm inside it (in a scope
 * of its own) and `initJs()`, which instantiates the translation with the
 * glue's imports and finishes the glue's initialisation, as `initSync` does
 * with a WebAssembly instance.
 */
function withTranslation(code, wasm) {
  const translated = execFileSync(binaryen("wasm2js"), [...buildConfig().wasm2jsPasses, wasm], { encoding: "utf8", maxBuffer: 64 << 20 });
  // wasm2js writes an ES module: an import of the import module, asmFunc,
  // then the instance's exports. Only asmFunc and its helpers are kept.
  let body = rewriteOnce(translated, /^import \* as \w+ from '\w+';$/gm, "", "import of the wasm's import module");
  // When the memory grows, wasm2js copies it into a new buffer but leaves
  // the old one intact, so the glue's views of it (renewed only when
  // detached, as a wasm memory's are on growth) would go stale: the old
  // buffer is detached, as WebAssembly would.
  body = rewriteOnce(body, /^(\s*)buffer = newBuffer;$/gm, "$1structuredClone(buffer, { transfer: [buffer] });\n$1buffer = newBuffer;", "memory growth");
  const tail = body.indexOf("\nvar retasmFunc = asmFunc(");
  if (tail < 0) throw new Error("minify: no instantiation in the wasm2js output");
  for (const [what, pattern] of [["wasm variable", /^let [^;]*\bwasm\b[^;]*;$/m], ["__wbg_get_imports", /^function __wbg_get_imports\(\)/m], ["__wbg_finalize_init", /^function __wbg_finalize_init\(instance, module\)/m]]) {
    if (!pattern.test(code)) throw new Error(`minify: the glue has no ${what}`);
  }
  return `${code}
const asmFunc = (() => {${body.slice(0, tail)}
return asmFunc;
})();
/** Instantiates the JavaScript translation of the wasm (once). */
export function initJs() {
  return wasm ?? __wbg_finalize_init({ exports: asmFunc(__wbg_get_imports()) }, undefined);
}
`;
}
