// The extension's build (pkg-extension/, scripts/package-extension.mjs):
// Mozilla's linter (addons-linter) passes on the Firefox build with no
// error and no warning; each manifest asks for the permissions the docs
// explain and no more (nothing that could block or alter a request); each
// zip holds exactly its folder's files, at its root.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import linter from "addons-linter";
import JSZip from "jszip";
import { EXTENSION } from "../support/extension.mjs";

const OUT = join(EXTENSION.chromium, "..");
const manifest = (browser) => JSON.parse(readFileSync(join(EXTENSION[browser], "manifest.json"), "utf8"));

test("Mozilla's linter passes on the Firefox build with no error or warning", async () => {
  const run = linter.createInstance({
    config: {
      _: [EXTENSION.firefox], logLevel: "fatal", stack: false, pretty: false, warningsAsErrors: false,
      metadata: false, output: "none", boring: false, selfHosted: false,
    },
    runAsBinary: false,
  });
  const { errors, warnings, summary } = await run.run();
  assert.deepEqual([...errors, ...warnings].map((m) => `${m.code}: ${m.message}`), []);
  assert.equal(summary.errors, 0);
});

test("each manifest asks for storage, webRequest (observing) and every host, and nothing that blocks or alters", () => {
  for (const browser of ["chromium", "firefox"]) {
    const m = manifest(browser);
    assert.equal(m.manifest_version, 3, browser);
    assert.deepEqual(m.permissions, ["storage", "webRequest"], browser);
    assert.deepEqual(m.host_permissions, ["<all_urls>"], browser);
    assert.equal(m.optional_permissions, undefined, browser);
    assert.deepEqual(m.content_scripts, [{ matches: ["<all_urls>"], js: ["content.js"], run_at: "document_idle" }], browser);
  }
  assert.deepEqual(manifest("chromium").background, { service_worker: "background.js", type: "module" });
  assert.deepEqual(manifest("firefox").background, { scripts: ["background.js"], type: "module" });
  assert.equal(manifest("chromium").storage.managed_schema, "schema.json");
});

test("each zip holds its folder's files at its root", async () => {
  for (const browser of ["chromium", "firefox"]) {
    const zip = await JSZip.loadAsync(readFileSync(join(OUT, `x402-verdict-${browser}.zip`)));
    const names = Object.keys(zip.files).sort();
    assert.deepEqual(names, readdirSync(EXTENSION[browser]).sort(), browser);
    const inZip = await zip.file("manifest.json").async("string");
    assert.equal(inZip, readFileSync(join(EXTENSION[browser], "manifest.json"), "utf8"), browser);
  }
});
