// The docs' examples compiled under `tsc --strict` against a package's types,
// as a TypeScript user would write them: what tests/e2e/types.test.mjs (the
// badge) and tests/agent/types.test.mjs (x402-verdict) share.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * Compiles every ```js example of `pages` that imports `name`, with
 * `prelude` before each, `name` resolved to `types` (a .d.ts), in
 * .work/<folder>/; fails with tsc's output. Returns how many it compiled.
 */
export function compileExamples({ pages, name, types, folder, prelude = "" }) {
  const dir = `${ROOT}.work/${folder}/`;
  const examples = pages.flatMap((page) => {
    const text = readFileSync(`${ROOT}${page}`, "utf8");
    return [...text.matchAll(/```js\n([\s\S]*?)```/g)].map(([, code]) => code).filter((code) => code.includes(`"${name}"`));
  });
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = examples.map((code, i) => {
    const file = `${dir}example${i}.ts`;
    writeFileSync(file, prelude ? `${prelude}${code}\nexport {};\n` : code);
    return file;
  });
  writeFileSync(`${dir}tsconfig.json`, JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler",
      lib: ["es2022", "dom"], skipLibCheck: !!prelude, paths: { [name]: [types] },
    },
    files,
  }));
  try {
    execFileSync(`${ROOT}node_modules/.bin/tsc`, ["-p", `${dir}tsconfig.json`], { encoding: "utf8" });
  } catch (e) {
    assert.fail(`tsc --strict:\n${e.stdout}${e.stderr}`);
  }
  return examples.length;
}
