// The page an image badge links to (`GET /v0/endpoint`), opened as a buyer
// opens it, in each engine (Chromium, Firefox, WebKit:
// tests/support/browser.mjs), served by the real reference service itself
// (the page names the service by the Host it was asked under) with its
// strict Content-Security-Policy: its badge is verified in the browser by
// the wasm package and shows the endpoint's state, with no CSP violation
// (Chromium reports them), and the endpoint is named in full.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { startDemo, ENDPOINTS } from "../../scripts/demo.mjs";
import { ENGINES, launch, watchViolations } from "../support/browser.mjs";

const ARTIFACTS = new URL("../../test-artifacts/", import.meta.url).pathname;
const STRICT = /default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'/;
let demo;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  demo = await startDemo();
});
after(() => demo?.stop());

/** The page's path for the demo endpoint `name`. */
function pagePath(name) {
  const { chain, payTo, resourceUrl } = ENDPOINTS[name];
  return `/v0/endpoint?${new URLSearchParams({ chain, payTo, resourceUrl })}`;
}

const settled = () => {
  const view = document.querySelector("x402-verdict-view");
  return Boolean(view?.dataset.state) && view.dataset.state !== "checking";
};

for (const engine of ENGINES) describe(engine, () => {
  let browser;
  before(async () => { browser = await launch(engine); });
  after(() => browser?.close());

  for (const name of ["verified", "revoked", "noSignal"]) {
    test(`the ${name} endpoint's page: its badge checked in the browser, the endpoint in full`, async () => {
      const answer = await fetch(demo.url + pagePath(name));
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get("content-security-policy"), STRICT);
      const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
      const violations = engine === "chromium" ? await watchViolations(page) : async () => [];
      await page.goto(demo.url + pagePath(name));
      await page.waitForFunction(settled, null, { timeout: 20000 });
      const shown = await page.evaluate(() => ({
        state: document.querySelector("x402-verdict-view").dataset.state,
        text: document.body.innerText,
      }));
      await page.screenshot({ path: `${ARTIFACTS}endpoint-page-${engine}-${name}.png`, fullPage: true });
      const { state, payTo, resourceUrl, chain } = ENDPOINTS[name];
      assert.equal(shown.state, state);
      for (const value of [payTo, resourceUrl, chain]) assert.ok(shown.text.includes(value), `${value} on the page`);
      assert.match(shown.text, /Compare this endpoint with the one you are asked to pay/);
      assert.deepEqual(await violations(), []);
      await page.close();
    });
  }
});
