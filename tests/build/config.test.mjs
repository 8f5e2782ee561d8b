// wasm-pack.toml is the package's one build configuration: the build and the
// size check read it, a bad setting is named in one line, and Cargo.toml
// holds no wasm-pack settings of its own.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { buildConfig } from "../../scripts/build-config.mjs";
import { wasmPackCommand } from "../../scripts/build.mjs";

const ROOT = new URL("../../", import.meta.url);
const read = (file) => readFileSync(new URL(file, ROOT), "utf8");

test("the build reads its settings from wasm-pack.toml", () => {
  const config = buildConfig();
  assert.equal(config.target, "web");
  assert.equal(config.outDir, "pkg");
  assert.equal(config.profile, "wasm-release");
  assert.equal(config.budgetGzip, 48 * 1024);
  assert.deepEqual(
    [config.features, config.embedFeatures, config.embedName, config.challengeFeatures, config.challengeName],
    [["lookup"], ["badge"], "x402_verdict_embed", ["challenge"], "x402_verdict_challenge"],
  );
  // The x402-verdict package, for code that pays: its own wasm and folder.
  assert.deepEqual([config.agentFeatures, config.agentOutDir, config.agentName], [["agent", "challenge"], "pkg-agent", "x402_verdict"]);
  assert.ok(config.wasmOptPasses.includes("-Oz"));
  // The Cargo profile it names exists; wasm-pack's own metadata does not.
  const cargo = read("Cargo.toml");
  assert.match(cargo, new RegExp(`^\\[profile\\.${config.profile}\\]$`, "m"));
  assert.doesNotMatch(cargo, /metadata\.wasm-pack/);
  // The wasm-pack command the build runs from them: with the size build
  // (unstable flags, enabled for it alone), and without (the fallback).
  const options = { outDir: config.outDir, stem: config.embedName, rustflags: config.jsRustflags, cargoArgs: ["--features", config.embedFeatures.join(",")] };
  const sized = wasmPackCommand(config, { ...options, sizeBuild: true });
  const args = ["build", "--no-opt", "--profile", "wasm-release", "--target", "web", "--out-dir", "pkg", "--out-name", "x402_verdict_embed", ".", "--features", "badge"];
  assert.deepEqual(sized.args, ["--log-level", "warn", ...args, ...config.sizeCargoArgs]);
  assert.ok(sized.args.includes("-Zbuild-std=std,panic_abort"));
  assert.deepEqual(sized.env, { RUSTC_BOOTSTRAP: "1", RUSTFLAGS: [...config.sizeRustflags, "-Ctarget-cpu=mvp"].join(" ") });
  const plain = wasmPackCommand(config, { ...options, sizeBuild: false });
  assert.deepEqual(plain, { args: ["--log-level", "warn", ...args], env: { RUSTFLAGS: "-Ctarget-cpu=mvp" } });
});

test("a bad setting is named in one line", () => {
  const dir = mkdtempSync(join(tmpdir(), "build-config-"));
  const original = read("wasm-pack.toml");
  for (const [edit, message] of [
    [(t) => t.replace(/budget-gzip = \d+/, 'budget-gzip = "48 KB"'), "wasm-pack.toml: [size] budget-gzip must be a whole number of bytes"],
    [(t) => t.replace(/^target = .*$/m, ""), "wasm-pack.toml: [package] target must be a wasm-pack target"],
    [(t) => t.replace(/^out-name = .*$/m, ""), "wasm-pack.toml: [embed-build] out-name must be a file name stem"],
    [(t) => t.replace('"-Oz", ', "-Oz, "), /^wasm-pack\.toml: /],
  ]) {
    const file = join(dir, "wasm-pack.toml");
    writeFileSync(file, edit(original));
    assert.throws(() => buildConfig(file), (error) => {
      assert.equal(error.message.split("\n").length, 1);
      if (typeof message === "string") assert.equal(error.message, message);
      else assert.match(error.message, message);
      return true;
    });
  }
});
