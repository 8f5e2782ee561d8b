// The discovery listing against the official bazaar extension
// (@x402/extensions 2.27): the core's listing fixture type-checks as its
// DiscoveryResourcesResponse, the official client reads the demo's
// facilitator route (`serve --demo-discovery`), and `scan` reads the same
// route to the same resources.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { HTTPFacilitatorClient } from "@x402/core/http";
import { withBazaar } from "@x402/extensions/bazaar";
import { BIN, LISTED, discoveryItems, startDemo } from "../../scripts/demo.mjs";

const run = promisify(execFile);
const ROOT = new URL("../../", import.meta.url).pathname;
let demo;

before(async () => {
  demo = await startDemo({ www: false });
});
after(() => demo?.stop());

/** Type-checks `source` with TypeScript (strict) against the installed official types; resolves to tsc's output. */
async function typeCheck(name, source) {
  const dir = `${ROOT}.work/types`;
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/${name}.ts`;
  writeFileSync(file, source);
  const args = ["--noEmit", "--strict", "--skipLibCheck", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", file];
  return run(`${ROOT}node_modules/.bin/tsc`, args, { cwd: ROOT }).then(() => "", (e) => e.stdout + e.stderr);
}

test("the core's listing fixture and the demo's items are the official DiscoveryResourcesResponse", async () => {
  const fixture = readFileSync(`${ROOT}crates/core/tests/discovery-page.json`, "utf8");
  const demoPage = JSON.stringify({ x402Version: 2, items: discoveryItems().slice(0, 50), pagination: { limit: 50, offset: 0, total: LISTED } });
  const source = (page) => `import type { DiscoveryResourcesResponse } from "@x402/extensions/bazaar";\nexport const page = ${page.trim()} satisfies DiscoveryResourcesResponse;\n`;
  assert.equal(await typeCheck("fixture", source(fixture)), "");
  assert.equal(await typeCheck("demo", source(demoPage)), "");
  // The check can fail: an item without accepts is no DiscoveryResource.
  const broken = JSON.parse(fixture);
  delete broken.items[0].accepts;
  assert.match(await typeCheck("broken", source(JSON.stringify(broken))), /accepts/);
});

test("the official bazaar client and scan read the demo's facilitator route alike", async () => {
  const client = withBazaar(new HTTPFacilitatorClient({ url: demo.url }));
  const pages = [];
  for (let offset = 0; offset < LISTED; offset += 250) pages.push(await client.extensions.bazaar.listResources({ limit: 250, offset }));
  assert.deepEqual(pages.map((p) => p.pagination), [0, 250, 500, 750].map((offset) => ({ limit: 250, offset, total: LISTED })));
  const official = pages.flatMap((p) => p.items);
  assert.equal(official.length, LISTED);
  const unique = new Set(official.flatMap((item) => item.accepts.map((a) => `${a.network} ${a.payTo.toLowerCase()} ${item.resource}`)));
  const { stdout, stderr } = await run(BIN, ["scan", demo.url, "--base-url", demo.url, "--public-key", demo.publicKey, "--json", "--page-size", "250"]);
  assert.equal(stderr, "");
  const scanned = stdout.trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(new Set(scanned.map((s) => `${s.chain} ${s.payTo.toLowerCase()} ${s.resourceUrl}`)), unique);
  const states = {};
  for (const s of scanned) (states[s.result.state] ??= []).push(s);
  assert.deepEqual(Object.keys(states).sort(), ["human-backed", "revoked", "unknown"]);
  assert.ok(states["human-backed"].every((s) => s.result.signature === "valid"));
});
