// The package examples of the README and docs/embedding.md compile under
// `tsc --strict` against the package's types (pkg/index.d.ts), as a
// TypeScript user would write them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { PACKAGE } from "../support/package.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const DIR = `${ROOT}.work/types/`;

test("the package examples of the docs compile under tsc --strict", () => {
  const examples = ["README.md", "docs/embedding.md"].flatMap((page) => {
    const text = readFileSync(`${ROOT}${page}`, "utf8");
    return [...text.matchAll(/```js\n([\s\S]*?)```/g)].map(([, code]) => code).filter((code) => code.includes('"x402-verdict-badge"'));
  });
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const files = examples.map((code, i) => {
    const file = `${DIR}example${i}.ts`;
    writeFileSync(file, code);
    return file;
  });
  writeFileSync(`${DIR}tsconfig.json`, JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler",
      lib: ["es2022", "dom"], skipLibCheck: false, paths: { "x402-verdict-badge": [`${PACKAGE}index.d.ts`] },
    },
    files,
  }));
  try {
    execFileSync(`${ROOT}node_modules/.bin/tsc`, ["-p", `${DIR}tsconfig.json`], { encoding: "utf8" });
  } catch (e) {
    assert.fail(`tsc --strict:\n${e.stdout}${e.stderr}`);
  }
});
