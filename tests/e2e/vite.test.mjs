// A small app that imports the package, built for production by Vite (the
// package installed from its `npm pack` tarball, as a site would), served
// from another origin than the verification service: its badges render
// verified, from the wasm Vite emitted.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { startDemo, ENDPOINTS } from "../../scripts/demo.mjs";
import { launch } from "../support/browser.mjs";
import { startOrigin } from "../support/origin.mjs";
import { PACKAGE } from "../support/package.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const APP = `${ROOT}.work/vite-app/`;
let demo, site, browser;

before(async () => {
  rmSync(APP, { recursive: true, force: true });
  const installed = `${APP}node_modules/x402-verdict-badge`;
  mkdirSync(installed, { recursive: true });
  const tarball = execFileSync("npm", ["pack", PACKAGE, "--pack-destination", APP, "--silent"], { encoding: "utf8" }).trim().split("\n").pop();
  execFileSync("tar", ["-xzf", `${APP}${tarball}`, "-C", installed, "--strip-components=1"]);
  writeFileSync(`${APP}index.html`, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>app</title></head>
<body><p>Seller: <span id="badge"></span></p><p>Element: <x402-verdict-badge id="element"></x402-verdict-badge></p>
<script type="module" src="/main.js"></script></body></html>`);
  writeFileSync(`${APP}main.js`, `import { endpointsFromPaymentRequired, renderBadge } from "x402-verdict-badge";
const options = JSON.parse(new URLSearchParams(location.search).get("options"));
const element = document.getElementById("element");
element.addEventListener("x402-verdict:state", (e) => { document.body.dataset.element = e.detail.state; });
Object.assign(element, options);
renderBadge(document.getElementById("badge"), options).then((state) => { document.body.dataset.state = state; });
const accepts = [{ scheme: "exact", network: options.chain, amount: "1", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", payTo: options.payTo, maxTimeoutSeconds: 60 }];
endpointsFromPaymentRequired({ x402Version: 2, resource: { url: options.resourceUrl }, accepts }).then((read) => {
  document.body.dataset.endpoints = read.endpoints.map((e) => e.resourceUrl).join(" ") || read.reason;
});
`);
  execFileSync(process.execPath, [`${ROOT}node_modules/vite/bin/vite.js`, "build", APP, "--logLevel", "error"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  [demo, site, browser] = await Promise.all([startDemo({ www: false }), startOrigin(), launch()]);
  site.folders.set("/", `${APP}dist/`);
});
after(async () => {
  await browser?.close();
  await Promise.all([demo?.stop(), site?.stop()]);
});

test("a Vite production build of an app importing the package renders verified badges and reads a challenge", async () => {
  const assets = readdirSync(`${APP}dist/assets`);
  assert.equal(assets.filter((f) => f.endsWith(".wasm")).length, 2, `Vite emitted the badge's wasm and the challenge reader's: ${assets}`);
  const { chain, payTo, resourceUrl } = ENDPOINTS.verified;
  const options = { baseUrl: demo.url, chain, payTo, resourceUrl, publicKey: demo.publicKey };
  const tab = await browser.newPage();
  const problems = [];
  tab.on("console", (m) => { if (["warning", "error"].includes(m.type())) problems.push(m.text()); });
  tab.on("pageerror", (e) => problems.push(String(e)));
  await tab.goto(`${site.url}/index.html?options=${encodeURIComponent(JSON.stringify(options))}`);
  await tab.waitForFunction(() => document.body.dataset.state && document.body.dataset.element && document.body.dataset.endpoints, null, { timeout: 15000 });
  await tab.screenshot({ path: `${ROOT}test-artifacts/vite-app.png` });
  assert.deepEqual(await tab.evaluate(() => ({ ...document.body.dataset })), { state: "human-backed", element: "human-backed", endpoints: resourceUrl });
  const label = await tab.$eval("#badge x402-verdict-view", (h) => h.shadowRoot.querySelector(".label").textContent);
  assert.equal(label, "verified · G");
  assert.deepEqual(problems, []);
  await tab.close();
});
