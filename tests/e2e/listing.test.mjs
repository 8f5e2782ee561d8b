// Listings of many badges, in each engine (Chromium, Firefox, WebKit:
// tests/support/browser.mjs; the page on another origin than the service): badges look their endpoint up only near the viewport, at most a
// few requests are in flight per service (counted at the service), the
// timeout of each runs from the moment it is sent (so a slow, healthy
// service leaves no badge unknown), a badge that timed out tries again when
// it comes back into view, badges are drawn a few at a time, frame by frame,
// and badges for one endpoint share one answer for as long as its
// Cache-Control allows, however far apart they are drawn.
// (Long tasks are measured by scripts/bench-listing.mjs, which prints figures.)
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { ENGINES, launch } from "../support/browser.mjs";
import { startListingService } from "../support/listing-service.mjs";
import { fetchedCount, slowMainThread, startOrigin } from "../support/origin.mjs";
import { PACKAGE } from "../support/package.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
/** The budget for a service on another origin than the page (js/badge/budget.js). */
const BUDGET = 6;
const ROW = 30;
/** A healthy service that counts requests and the most in flight at once. */
let listingService, service, site;

before(async () => {
  [listingService, site] = await Promise.all([startListingService(), startOrigin()]);
  service = listingService.service;
  site.folders.set("/pkg/", PACKAGE);
});
after(() => Promise.all([site?.stop(), listingService?.stop()]));

/** A listing of `count` rows, each with a badge for its own endpoint. */
function listing(count, extra = "") {
  const base = listingService.url;
  const rows = Array.from({ length: count }, (_, i) => `<tr><td>${i + 1}</td><td><span data-x402-verdict data-base-url="${base}" data-chain="base" data-pay-to="0x209693Bc6afc0C5328bA36FaF03C514EF312287C" data-resource-url="https://api.example.com/r${i}" ${typeof extra === "function" ? extra(i) : extra}></span></td></tr>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>listing</title><style>td { height: ${ROW - 2}px; padding: 0; border-bottom: 1px solid #ddd; } table { border-collapse: collapse; }</style><script src="/pkg/embed.js"></script></head><body><table>${rows.join("")}</table></body></html>`;
}

let pages = 0;

/** The verdict requests the page in `tab` sent, `expected` awaited (counted in the page, so that one the browser's HTTP cache answers counts too). */
const pageRequests = (tab, expected) => fetchedCount(tab, "/v0/verdict", expected);

for (const engine of ENGINES) describe(engine, () => {
let browser;
before(async () => { browser = await launch(engine); });
after(() => browser?.close());

/** Opens `html` (with `init` run first in the page), the service's counts reset, its answers sent with `cacheControl`. */
async function open(html, { init, cacheControl = "" } = {}) {
  const path = `/listing${++pages}.html`;
  site.pages.set(path, html);
  site.init = init ? [[init]] : [];
  service.reset();
  service.cacheControl = cacheControl;
  const tab = await browser.newPage({ viewport: { width: 800, height: 600 } });
  await tab.goto(site.url + path);
  return tab;
}

/** The states of the badges whose rows are in the viewport. */
const inView = (tab) => tab.$$eval("x402-verdict-view", (hosts) => hosts
  .filter((h) => { const r = h.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })
  .map((h) => h.dataset.state));
const settledInView = (tab) => tab.waitForFunction(() => {
  const hosts = [...document.querySelectorAll("x402-verdict-view")].filter((h) => { const r = h.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
  return hosts.length > 0 && hosts.every((h) => h.dataset.state !== "checking");
}, null, { timeout: 15000 });

test("a listing of 1,000: requests only for the rows in view and the margin; scrolling fetches the next", async () => {
  service.latency = 20;
  const tab = await open(listing(1000));
  await settledInView(tab);
  await tab.waitForTimeout(300);
  const rowsNear = Math.ceil((600 + 2 * 200) / ROW) + 1;
  const atLoad = service.requests.length;
  assert.ok(atLoad >= Math.floor(600 / ROW) && atLoad <= rowsNear, `${atLoad} requests at load, ${rowsNear} rows within the margin`);
  assert.ok((await inView(tab)).every((s) => s === "human-backed"));
  await tab.evaluate(() => scrollTo(0, 15000));
  await settledInView(tab);
  assert.ok((await inView(tab)).every((s) => s === "human-backed"));
  const afterScroll = service.requests.length;
  assert.ok(afterScroll > atLoad && afterScroll <= atLoad + 2 * rowsNear, `${afterScroll - atLoad} requests after one jump`);
  const shown = await tab.$$eval("x402-verdict-view", (hosts) => hosts
    .filter((h) => { const r = h.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })
    .map((h) => h.parentElement.dataset.resourceUrl));
  assert.ok(shown.length > 10 && shown.every((r) => service.requests.includes(r)), "the rows scrolled to were fetched");
  assert.ok(!service.requests.includes("https://api.example.com/r250"), "the rows jumped over were not");
  assert.ok(service.most <= BUDGET, `at most ${BUDGET} in flight (saw ${service.most})`);
  await tab.screenshot({ path: `${ROOT}test-artifacts/listing-${engine}-1000.png` });
  await tab.close();
});

test("250 eager badges at 100 ms of latency: none ends unknown, never more than the budget in flight", async () => {
  service.latency = 100;
  const tab = await open(listing(250, 'data-loading="eager"'));
  await tab.waitForFunction(() => [...document.querySelectorAll("x402-verdict-view")].every((h) => h.dataset.state !== "checking") && document.querySelectorAll("x402-verdict-view").length === 250, null, { timeout: 30000 });
  const states = await tab.$$eval("x402-verdict-view", (hosts) => hosts.map((h) => h.dataset.state));
  assert.equal(states.filter((s) => s !== "human-backed").length, 0, "no badge of a healthy service ends unknown");
  assert.equal(service.requests.length, 250);
  assert.ok(service.most <= BUDGET, `at most ${BUDGET} in flight (saw ${service.most})`);
  await tab.close();
});

test("1,000 eager badges are drawn a few at a time, frame by frame (no long task of a thousand shadow roots)", async () => {
  service.latency = 0;
  // The badges drawn between two animation frames, counted in the page.
  const tab = await open(listing(1000, 'data-loading="eager"'), { init: () => {
    window.__perFrame = [];
    let last = 0;
    const count = () => {
      const now = document.querySelectorAll("x402-verdict-view").length;
      window.__perFrame.push(now - last);
      last = now;
      requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
  } });
  await tab.waitForFunction(() => document.querySelectorAll("x402-verdict-view").length === 1000, null, { timeout: 30000 });
  const perFrame = await tab.evaluate(() => window.__perFrame);
  // 50 a frame, and a count taken between two frames' drawing sees at most two.
  assert.ok(Math.max(...perFrame) <= 100, `at most 100 badges drawn between two frames (saw ${Math.max(...perFrame)})`);
  assert.ok(perFrame.filter((n) => n > 0).length >= 10, "drawn over many frames");
  await tab.close();
});

test("a badge that timed out tries again when it comes back into view", async () => {
  service.latency = 0;
  service.stallOnce.add("https://api.example.com/r0");
  const tab = await open(listing(100, 'data-timeout-ms="500"'));
  const first = () => tab.$eval("x402-verdict-view", (h) => [h.dataset.state, h.dataset.reason ?? null, h.shadowRoot.querySelector(".tip").textContent]);
  await tab.waitForFunction(() => document.querySelector("x402-verdict-view").dataset.state === "unknown", null, { timeout: 5000 });
  const [state, reason, tip] = await first();
  assert.deepEqual([state, reason], ["unknown", "timeout"]);
  assert.match(tip, /did not answer in time/);
  assert.doesNotMatch(tip, /could not be reached/);
  await tab.evaluate(() => scrollTo(0, 2000));
  await tab.waitForTimeout(5200);
  await tab.evaluate(() => scrollTo(0, 0));
  await tab.waitForFunction(() => document.querySelector("x402-verdict-view").dataset.state === "human-backed", null, { timeout: 5000 });
  assert.equal(service.requests.filter((r) => r === "https://api.example.com/r0").length, 2);
  await tab.close();
});

/**
 * A page with one eager badge for the resource `name`; `more()` in the page adds another for it.
 * A name of each test's own: a WebDriver session keeps one HTTP cache from test to test.
 */
const sameEndpoint = (name) => listing(1, 'data-loading="eager"').replace("/r0\"", `/${name}"`).replace("</body>", `<script type="module">
  window.more = () => {
    const span = document.querySelector("[data-x402-verdict]").cloneNode();
    document.body.append(span);
  };
</script></body>`);
const settledCount = (tab, n, timeout = 15000) => tab.waitForFunction((n) => {
  const hosts = [...document.querySelectorAll("x402-verdict-view")];
  return hosts.length === n && hosts.every((h) => h.dataset.state !== "checking");
}, n, { timeout });
const states = (tab) => tab.$$eval("x402-verdict-view", (hosts) => hosts.map((h) => h.dataset.state));
test("badges for one endpoint drawn seconds apart share one answer while its max-age lasts, and ask again after", async () => {
  service.latency = 0;
  const tab = await open(sameEndpoint("kept-2s"), { cacheControl: "public, max-age=2" });
  await settledCount(tab, 1);
  assert.equal(await pageRequests(tab, 1), 1);
  // Long after the first answer settled (no request in flight to share).
  await tab.waitForTimeout(300);
  await tab.evaluate(() => window.more());
  await settledCount(tab, 2);
  assert.equal(await pageRequests(tab, 1), 1, "the second badge took the kept answer");
  await tab.waitForTimeout(2200);
  await tab.evaluate(() => window.more());
  await settledCount(tab, 3);
  assert.equal(await pageRequests(tab, 2), 2, "an expired answer is asked again");
  assert.deepEqual(await states(tab), ["human-backed", "human-backed", "human-backed"]);
  await tab.close();
});

test("an answer the service marks no-store is never kept", async () => {
  service.latency = 0;
  const tab = await open(sameEndpoint("no-store"), { cacheControl: "no-store, max-age=60" });
  await settledCount(tab, 1);
  await tab.evaluate(() => window.more());
  await settledCount(tab, 2);
  assert.equal(await pageRequests(tab, 2), 2, "the second badge asked again");
  assert.equal(service.requests.length, 2);
  assert.deepEqual(await states(tab), ["human-backed", "human-backed"]);
  await tab.close();
});

test("main thread busy five sixths of the time: 300 eager badges for 30 endpoints cost one request per endpoint", async () => {
  service.latency = 20;
  const html = listing(300, 'data-loading="eager"').replace(/api\.example\.com\/r(\d+)"/g, (_, i) => `api.example.com/r${i % 30}"`);
  // The answers kept as long as the drawing may take.
  const tab = await open(html, { init: slowMainThread, cacheControl: "public, max-age=60" });
  await settledCount(tab, 300, 90000);
  assert.equal(new Set(service.requests).size, 30);
  assert.equal(await pageRequests(tab, 30), 30, "one request per endpoint, however the drawing was spread");
  assert.ok((await states(tab)).every((s) => s === "human-backed"));
  await tab.close();
});
});
