// How the build's steps (./minify.mjs, ./package-js.mjs,
// ./package-agent.mjs) have rolldown resolve what the build generates: the
// modules in target/generated/ (the core's words, the package's file names)
// and wasm-bindgen's copies of our JavaScript that a wasm imports.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { rolldown } from "rolldown";

/** wasm-bindgen's copy of a file of ours that a wasm imports (`#[wasm_bindgen(module = "/js/early.js")]`): ./snippets/<crate>-<hash>/js/<name>. */
const SNIPPET = /^\.\/snippets\/[^/]+\/js\/([\w-]+\.js)$/;

/**
 * A rolldown plugin resolving `./<name>` to `generated`/<name> where the
 * build generated it (words.js, files.js), and each import of a snippet to
 * the package's own file beside the importer (`./<name>`, left outside the
 * bundle), so that a page loads each once; `found` collects the snippets'
 * names.
 */
export function resolveBuilt({ generated, found = new Set() }) {
  return {
    name: "x402-verdict-built",
    resolveId(source) {
      const snippet = SNIPPET.exec(source)?.[1];
      if (snippet) {
        found.add(snippet);
        return { id: `./${snippet}`, external: true };
      }
      const built = generated && /^\.\/([\w-]+\.js)$/.exec(source)?.[1];
      return built && existsSync(join(generated, built)) ? { id: join(generated, built) } : null;
    },
  };
}

/**
 * The glue at `file` as one ES module, its imports of snippets made imports
 * of the package's own files beside it; with the names of the snippets it
 * imported.
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
