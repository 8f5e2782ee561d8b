// What users get holds no test surface: the release command (built by
// scripts/build.sh, as `cargo install` builds it) has no clock pin, which
// the tests' build has (feature pinned-clock). The package's JavaScript
// build exporting no test hook is checked in the browsers
// (tests/e2e/nowasm.test.mjs).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";

const BIN = new URL("../../target/release/x402-verdict", import.meta.url).pathname;

test("the release command's serve has no --now", () => {
  const run = spawnSync(BIN, ["serve", "--registry", "r.json", "--keys", "k.json", "--now", "2026-01-01T00:00:00Z"], { encoding: "utf8" });
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /unexpected argument '--now'/);
  const help = spawnSync(BIN, ["serve", "--help"], { encoding: "utf8" });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /--registry/);
  assert.doesNotMatch(help.stdout, /--now/);
});
