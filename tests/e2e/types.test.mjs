// The README's JavaScript examples compile under `tsc --strict` against the
// package's types (pkg/index.d.ts), as a TypeScript user would write them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { PACKAGE } from "../support/package.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const DIR = `${ROOT}.work/types/`;

test("the README's examples compile under tsc --strict", () => {
  const readme = readFileSync(`${ROOT}README.md`, "utf8");
  const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map(([, code]) => code).filter((code) => code.includes('"x402-verdict-badge"'));
  assert.ok(examples.length >= 2, "the README has package examples");
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
