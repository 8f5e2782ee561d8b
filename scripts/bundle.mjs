// How the build's steps (./minify.mjs, ./package-js.mjs,
// ./package-agent.mjs) have rolldown resolve wasm-bindgen's copies of our
// JavaScript that a wasm imports.
import { readFileSync } from "node:fs";
import { rolldown } from "rolldown";

/** wasm-bindgen's copy of a file of ours that a wasm imports (`#[wasm_bindgen(module = "/js/common/early.js")]`): ./snippets/<crate>-<hash>/js/<path>, its path under js/ and its name. */
const SNIPPET = /^\.\/snippets\/[^/]+\/js\/((?:[\w-]+\/)*([\w-]+\.js))$/;

/**
 * A rolldown plugin resolving each import of a snippet to the package's own
 * file beside the importer (`./<name>`, left outside the bundle), so that a
 * page loads each once; `found` collects the snippets' paths under js/
 * (`common/early.js`).
 */
export function resolveBuilt({ found = new Set() } = {}) {
  return {
    name: "x402-verdict-built",
    resolveId(source) {
      const [, path, name] = SNIPPET.exec(source) ?? [];
      if (!path) return null;
      found.add(path);
      return { id: `./${name}`, external: true };
    },
  };
}

/**
 * The glue at `file` as one ES module, its imports of snippets made imports
 * of the package's own files beside it; with the paths under js/ of the
 * snippets it imported.
 */
export async function withOwnImports(file) {
  const found = new Set();
  const bundle = await rolldown({ input: file, plugins: [resolveBuilt({ found })] });
  // The glue's pointer to its types (for Deno and JSR) stays its first line.
  const types = /^\/\* @ts-self-types="[^"]*" \*\/$/m.exec(readFileSync(file, "utf8"))?.[0];
  const { output } = await bundle.generate({ format: "es", banner: types });
  await bundle.close();
  return { code: output[0].code, snippets: found };
}
