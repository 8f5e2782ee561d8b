// The www/ pages in each engine (Chromium, Firefox, WebKit:
// tests/support/browser.mjs), served by the real reference service with a
// strict Content-Security-Policy, through a test origin that passes every
// request on and answers with the service's headers, its pages given the
// probe (tests/support/origin.mjs: warnings, errors and CSP violations from
// the first moment in every engine, and verdict requests counted in the
// page).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { discoveryItems, startDemo, writeLiveSnapshot, shopItems, ENDPOINTS, LISTED, SHOP_ROUTES, SWITCHED_PAY_TO, UNREACHABLE } from "../../scripts/demo.mjs";
import { EVM_PAY_TO, SOLANA_PAY_TO, startX402Servers } from "../support/x402-servers.mjs";
import { ENGINES, launch } from "../support/browser.mjs";
import { tabToFirstBadge } from "../support/focus.mjs";
import { fetchedCount, seen, slowMainThread, startOrigin } from "../support/origin.mjs";

const ARTIFACTS = new URL("../../test-artifacts/", import.meta.url).pathname;
const STRICT = /default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'/;
let demo, site, shop;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // The demo shop's routes (the official @x402/express), listed first, and
  // what scan --live finds of them now: the explorer's snapshot.
  shop = await startX402Servers({ routes: SHOP_ROUTES });
  demo = await startDemo({ shop: shop.url });
  await writeLiveSnapshot(demo);
  site = await startOrigin();
  site.upstream = demo.url;
});
after(() => Promise.all([site?.stop(), demo?.stop(), shop?.stop()]));

const badgesSettled = () => document.querySelectorAll("x402-verdict-view[data-state='checking']").length === 0
  && document.querySelectorAll("x402-verdict-view").length > 0;

/** The verdict requests the page in `page` sent, `expected` awaited (an answer from the browser's HTTP cache counts too). */
const verdictRequests = (page, expected) => fetchedCount(page, "/v0/verdict", expected);

for (const engine of ENGINES) describe(engine, () => {
let browser;
before(async () => { browser = await launch(engine); });
after(() => browser?.close());

/**
 * Opens a www page (its main thread kept busy when `slow`), after checking that the service
 * serves it with the strict policy; waits until `ready` holds in the page. `seen()` reads the
 * page's errors and CSP violations.
 */
async function open(name, ready = badgesSettled, slow = false) {
  const response = await fetch(`${site.url}/${name}`);
  assert.match(response.headers.get("content-security-policy"), STRICT);
  site.init = slow ? [[slowMainThread]] : [];
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  await page.goto(`${site.url}/${name}`);
  await page.waitForFunction(ready, null, { timeout: slow ? 90000 : 20000 });
  await page.screenshot({ path: `${ARTIFACTS}pages-${engine}-${name.replace(".html", "")}.png`, fullPage: true });
  return { page, seen: () => seen(page) };
}

/** Every badge on the page: its state, label and hover text (through the shadow root). */
function badges(page, scope = "") {
  return page.$$eval(`${scope} x402-verdict-view`, (hosts) => hosts.map((h) => ({
    state: h.dataset.state,
    label: h.shadowRoot.querySelector(".label").textContent,
    tip: h.shadowRoot.querySelector(".tip").textContent,
    row: h.closest("[data-expected]")?.dataset.expected,
  })));
}

  test("seller page: one badge from a script tag, verified, no CSP violation", async () => {
    const { page, seen } = await open("seller.html");
    const [badge, ...rest] = await badges(page);
    assert.equal(rest.length, 0);
    assert.deepEqual([badge.state, badge.label], ["human-backed", "verified · G"]);
    assert.match(badge.tip, /Last verified .* UTC; promised to be re-checked every 24 h\./);
    const { violations, errors } = await seen();
    assert.deepEqual([violations, errors], [[], []]);
    await page.close();
  });

  test("listing: 100 badges reach their expected states with one request per endpoint", async () => {
    const { page, seen } = await open("listing.html");
    await page.waitForFunction(() => document.body.dataset.rendered === "100");
    const all = await badges(page);
    assert.equal(all.length, 100);
    for (const [i, b] of all.entries()) assert.equal(b.state, b.row, `row ${i + 1}: ${b.label} / ${b.tip}`);
    // Rows are read from payment challenges: a v1 body names `base`, a v2 challenge its CAIP-2 id.
    const chains = await page.$$eval("tr[data-endpoint]", (rows) => Object.fromEntries(rows.map((r) => [r.dataset.endpoint, r.children[2].textContent])));
    assert.equal(chains.verified, "base");
    assert.equal(chains.stale, "eip155:8453");
    assert.equal(chains.verifiedSolana, ENDPOINTS.verifiedSolana.chain);
    const endpoints = await page.$$eval("tr[data-endpoint]", (rows) => new Set(rows.map((r) => r.dataset.endpoint)).size);
    assert.ok(endpoints >= 5 && endpoints < 100);
    assert.equal(await verdictRequests(page, endpoints), endpoints, "badges for the same endpoint share one request");
    const outside = await page.$$eval("x402-verdict-view", (hs) =>
      hs.filter((h) => h.getBoundingClientRect().right > document.documentElement.clientWidth).length);
    assert.equal(outside, 0, "every badge lies inside the page width");
    const { violations, errors } = await seen();
    assert.deepEqual([violations, errors], [[], []]);
    await page.close();
  });

  test("listing, main thread busy five sixths of the time: still one request per endpoint", async () => {
    const { page, seen } = await open("listing.html", badgesSettled, true);
    await page.waitForFunction(() => document.body.dataset.rendered === "100", null, { timeout: 90000 });
    const endpoints = await page.$$eval("tr[data-endpoint]", (rows) => new Set(rows.map((r) => r.dataset.endpoint)).size);
    assert.equal(await verdictRequests(page, endpoints), endpoints, "badges for the same endpoint share one answer, however slowly they are drawn");
    for (const [i, b] of (await badges(page)).entries()) assert.equal(b.state, b.row, `row ${i + 1}: ${b.label} / ${b.tip}`);
    assert.deepEqual((await seen()).errors, []);
    await page.close();
  });

  test("discovery listing: 1,000 resources read with endpointsFromDiscovery, lazy badges, one request per endpoint, a filter for human-backed", async () => {
    const response = await fetch(`${site.url}/explorer.html`);
    assert.match(response.headers.get("content-security-policy"), STRICT);
    site.init = [];
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto(`${site.url}/explorer.html`);
    await page.waitForFunction(() => document.body.dataset.listed, null, { timeout: 30000 });
    // One row per way to pay: the shop's /weather has two.
    const ways = discoveryItems(shop.url).reduce((n, item) => n + item.accepts.length, 0);
    assert.equal(ways, LISTED + 1);
    assert.equal(await page.evaluate(() => document.body.dataset.listed), String(ways));
    // The rows in view settle; what each shows is its endpoint's state.
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll("tbody tr")].filter((r) => r.getBoundingClientRect().top < innerHeight);
      return rows.length > 0 && rows.every((r) => r.querySelector("x402-verdict-view")?.dataset.state && r.querySelector("x402-verdict-view").dataset.state !== "checking");
    }, null, { timeout: 20000 });
    // The shop's attested routes (scripts/demo.mjs, shopAttestations), and the demo endpoints.
    const attested = {
      [`${EVM_PAY_TO} ${shop.url}/weather`]: "human-backed",
      [`${SOLANA_PAY_TO} ${shop.url}/weather`]: "revoked",
      [`${EVM_PAY_TO} ${shop.url}/forecast`]: "human-backed",
    };
    const expected = (payTo, resourceUrl) => attested[`${payTo} ${resourceUrl}`]
      ?? Object.values(ENDPOINTS).find((e) => e.payTo === payTo && e.resourceUrl === resourceUrl)?.state ?? "unknown";
    const shown = () => page.$$eval("tbody tr", (rows) => rows.filter((r) => !r.hidden && r.getBoundingClientRect().top < innerHeight)
      .map((r) => ({ resourceUrl: r.children[1].textContent, payTo: r.children[4].textContent, state: r.querySelector("x402-verdict-view").dataset.state })));
    const first = await shown();
    assert.ok(first.length >= 10, `${first.length} rows in view`);
    for (const row of first) assert.equal(row.state, expected(row.payTo, row.resourceUrl), JSON.stringify(row));
    // Beside each shop row's badge, what its resource asks now (the snapshot
    // scan --live wrote): the bait-and-switch reads changed beside a verified badge.
    const now = await page.$$eval("tbody tr", (rows) => rows.slice(0, 5).map((r) => ({
      resourceUrl: r.children[1].textContent, kind: r.dataset.live, note: r.children[6].textContent,
      state: r.querySelector("x402-verdict-view").dataset.state,
    })));
    const kinds = Object.fromEntries(shopItems(shop.url).map((item) => [item.resource, item.live]));
    assert.deepEqual(now.map((r) => r.kind), now.map((r) => kinds[r.resourceUrl]), JSON.stringify(now));
    const forecast = now.find((r) => r.resourceUrl === `${shop.url}/forecast`);
    assert.deepEqual(forecast, {
      resourceUrl: `${shop.url}/forecast`, kind: "changed", state: "human-backed",
      note: `changed: another payTo (listed ${EVM_PAY_TO}, now ${SWITCHED_PAY_TO})`,
    });
    assert.deepEqual(now.filter((r) => r.kind === "live").map((r) => r.note), ["live", "live"]);
    assert.equal(now.find((r) => r.kind === "not-402").note, "not-402: answered HTTP 404");
    assert.match(now.find((r) => r.kind === "unreachable").note, /^unreachable: no answer: error sending request: /);
    const unique = new Set((await page.$$eval("tbody tr", (rows) => rows.map((r) => `${r.children[4].textContent} ${r.children[1].textContent}`)))).size;
    const asked = await verdictRequests(page, 0);
    assert.ok(asked < unique / 2, `${asked} verdicts asked for before scrolling, of ${unique} endpoints: badges out of view wait`);
    // The filter looks every endpoint up once, and keeps the human-backed rows.
    await page.evaluate(() => document.getElementById("human-backed").click());
    await page.waitForFunction(() => document.body.dataset.filtered, null, { timeout: 30000 });
    const humanBacked = (await page.$$eval("tbody tr", (rows) => rows.map((r) => [r.children[4].textContent, r.children[1].textContent])))
      .filter(([payTo, url]) => expected(payTo, url) === "human-backed").length;
    assert.equal(await page.evaluate(() => document.body.dataset.filtered), String(humanBacked));
    assert.equal(await verdictRequests(page, unique), unique, "one request per endpoint, the badges' and the filter's shared");
    await page.waitForFunction(() => [...document.querySelectorAll("tbody tr")].filter((r) => !r.hidden && r.getBoundingClientRect().top < innerHeight)
      .every((r) => r.querySelector("x402-verdict-view").dataset.state !== "checking"), null, { timeout: 20000 });
    for (const row of await shown()) assert.equal(row.state, "human-backed", JSON.stringify(row));
    await page.screenshot({ path: `${ARTIFACTS}pages-${engine}-explorer.png` });
    const { violations, errors } = await seen(page);
    assert.deepEqual([violations, errors], [[], []]);
    await page.close();
  });

  test("dashboard: lookupVerdict results drawn by the page, pinned to the root", async () => {
    const { page, seen } = await open("dashboard.html", () => document.body.dataset.rendered === "6");
    const cards = await page.$$eval(".card", (cs) => cs.map((c) => [c.dataset.endpoint, c.dataset.state, c.querySelector("dd").textContent]));
    for (const [name, state, signal] of cards) {
      assert.equal(state, ENDPOINTS[name].state, name);
      assert.equal(signal, state, name);
    }
    assert.equal(cards.length, 6);
    // The page pins the demo's root key alone (www/demo.js): a verified card's signature is valid by its verdict's certificate.
    const signatures = await page.$$eval(".card", (cs) => cs.map((c) => {
      const terms = [...c.querySelectorAll("dt")].map((dt) => dt.textContent);
      return [c.dataset.endpoint, c.querySelectorAll("dd")[terms.indexOf("Signature")].textContent];
    }));
    for (const [name, signature] of signatures) if (ENDPOINTS[name].state === "human-backed") assert.equal(signature, "valid", name);
    const { violations, errors } = await seen();
    assert.deepEqual([violations, errors], [[], []]);
    await page.close();
  });

  test("index page: served with the strict CSP, links to every demo", async () => {
    const { page, seen } = await open("index.html", () => document.readyState === "complete");
    const links = await page.$$eval("main a", (as) => as.map((a) => a.getAttribute("href")));
    assert.deepEqual(links, ["seller.html", "listing.html", "explorer.html", "dashboard.html", "states.html", "metrics/"]);
    assert.deepEqual((await seen()).violations, []);
    await page.close();
  });

  test("states page: every state, in words, with hover text reachable by keyboard", async () => {
    const { page, seen } = await open("states.html");
    await page.waitForFunction(() => document.body.dataset.rendered === "7");
    const rows = await page.$$eval("[data-case]", (slots) => slots.map((s) => {
      const h = s.querySelector("x402-verdict-view");
      return [s.dataset.case, h.dataset.state, h.shadowRoot.querySelector(".label").textContent, h.shadowRoot.querySelector(".tip").textContent];
    }));
    const expect = {
      "Verified (human-backed)": ["human-backed", "verified · G", /Last verified/],
      Revoked: ["revoked", "not verified", /withdrawn/],
      Stale: ["unknown", "unknown", /Stale/],
      "No signal": ["unknown", "unknown", /No signal.*Nothing in the payment flow depends on this badge/],
      "Unreachable service": ["unknown", "unknown", /could not be reached.*Nothing in the payment flow/],
      "Tampered signature": ["unknown", "unknown", /signature failed/],
      "Overdue re-check": ["unknown", "unknown", /Re-check overdue/],
    };
    assert.equal(rows.length, 7);
    for (const [name, state, label, tip] of rows) {
      const [s, l, t] = expect[name];
      assert.deepEqual([state, label], [s, l], name);
      assert.match(tip, t, name);
    }
    // Same height in every state.
    const heights = await page.$$eval("x402-verdict-view", (hs) => hs.map((h) => h.getBoundingClientRect().height));
    assert.equal(new Set(heights).size, 1, `heights ${heights}`);
    // Keyboard: Tab focuses the first badge and shows its hover text.
    const hidden = await page.$eval("x402-verdict-view", (h) => getComputedStyle(h.shadowRoot.querySelector(".tip")).display);
    assert.equal(hidden, "none");
    assert.deepEqual(await tabToFirstBadge(page), { active: true, host: true, badge: true }, "Tab focused the first badge");
    const shown = await page.$eval("x402-verdict-view", (h) => getComputedStyle(h.shadowRoot.querySelector(".tip")).display);
    assert.equal(shown, "block");
    await page.screenshot({ path: `${ARTIFACTS}pages-${engine}-states-focused.png` });
    // The one violation allowed: the deliberately unreachable service is another origin.
    for (const v of (await seen()).violations) {
      assert.equal(v.directive, "connect-src");
      assert.ok(v.blocked.startsWith(UNREACHABLE), v.blocked);
    }
    await page.close();
  });

  test("a page on another origin loads the package from the demo server, as from a CDN, under its own strict CSP", async () => {
    const elsewhere = await startOrigin();
    const { chain, payTo, resourceUrl } = ENDPOINTS.verified;
    // The seller's policy, and the probe's one file by its full path (it records violations in every engine).
    elsewhere.csp = `default-src 'self'; script-src ${demo.url} ${elsewhere.url}/__probe.js 'wasm-unsafe-eval'; connect-src ${demo.url}; style-src 'self'`;
    elsewhere.pages.set("/", `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>elsewhere</title></head><body><p>Operator: <span data-x402-verdict data-base-url="${demo.url}" data-chain="${chain}" data-pay-to="${payTo}" data-resource-url="${resourceUrl}" data-public-key="${demo.publicKey}"></span></p><script src="${demo.url}/pkg/embed.js"></script></body></html>`);
    const page = await browser.newPage();
    try {
      await page.goto(`${elsewhere.url}/`);
      await page.waitForFunction(badgesSettled, null, { timeout: 20000 });
      assert.deepEqual((await badges(page)).map((b) => [b.state, b.label]), [["human-backed", "verified · G"]]);
      const { violations, errors } = await seen(page);
      assert.deepEqual([violations, errors], [[], []]);
    } finally {
      await page.close();
      await elsewhere.stop();
    }
  });
});
