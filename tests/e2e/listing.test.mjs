// Listings of many badges (Chromium, the page on another origin than the
// service): badges look their endpoint up only near the viewport, at most a
// few requests are in flight per service (counted at the service), the
// timeout of each runs from the moment it is sent (so a slow, healthy
// service leaves no badge unknown), a badge that timed out tries again when
// it comes back into view, badges are drawn a few at a time, frame by frame,
// and badges for one endpoint share one answer for as long as its
// Cache-Control allows, however far apart they are drawn.
// (Long tasks are measured by scripts/bench-listing.mjs, which prints figures.)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { launch } from "../support/browser.mjs";
import { startListingService } from "../support/listing-service.mjs";
import { startOrigin } from "../support/origin.mjs";
import { PACKAGE } from "../support/package.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
/** The budget for a service on another origin than the page (js/index.js). */
const BUDGET = 6;
const ROW = 30;
/** A healthy service that counts requests and the most in flight at once. */
let listingService, service, site, browser;

before(async () => {
  [listingService, site, browser] = await Promise.all([startListingService(), startOrigin(), launch()]);
  service = listingService.service;
  site.folders.set("/pkg/", PACKAGE);
});
after(async () => {
  await browser?.close();
  await Promise.all([site?.stop(), listingService?.stop()]);
});

/** A listing of `count` rows, each with a badge for its own endpoint. */
function listing(count, extra = "") {
  const base = listingService.url;
  const rows = Array.from({ length: count }, (_, i) => `<tr><td>${i + 1}</td><td><span data-x402-verdict data-base-url="${base}" data-chain="base" data-pay-to="0x209693Bc6afc0C5328bA36FaF03C514EF312287C" data-resource-url="https://api.example.com/r${i}" ${typeof extra === "function" ? extra(i) : extra}></span></td></tr>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>listing</title><style>td { height: ${ROW - 2}px; padding: 0; border-bottom: 1px solid #ddd; } table { border-collapse: collapse; }</style><script src="/pkg/embed.js"></script></head><body><table>${rows.join("")}</table></body></html>`;
}

let pages = 0;
/** Opens `html`, the service answering with `cacheControl` from the first request on. */
async function open(html, cacheControl = "") {
  const path = `/listing${++pages}.html`;
  site.pages.set(path, html);
  service.reset();
  service.cacheControl = cacheControl;
  const tab = await browser.newPage({ viewport: { width: 800, height: 600 } });
  await tab.goto(site.url + path);
  return tab;
}

/** The states of the badges whose rows are in the viewport. */
const inView = (tab) => tab.$$eval(".x402-verdict-badge", (hosts) => hosts
  .filter((h) => { const r = h.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })
  .map((h) => h.dataset.state));
const settledInView = (tab) => tab.waitForFunction(() => {
  const hosts = [...document.querySelectorAll(".x402-verdict-badge")].filter((h) => { const r = h.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
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
  const shown = await tab.$$eval(".x402-verdict-badge", (hosts) => hosts
    .filter((h) => { const r = h.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })
    .map((h) => h.parentElement.dataset.resourceUrl));
  assert.ok(shown.length > 10 && shown.every((r) => service.requests.includes(r)), "the rows scrolled to were fetched");
  assert.ok(!service.requests.includes("https://api.example.com/r250"), "the rows jumped over were not");
  assert.ok(service.most <= BUDGET, `at most ${BUDGET} in flight (saw ${service.most})`);
  await tab.screenshot({ path: `${ROOT}test-artifacts/listing-1000.png` });
  await tab.close();
});

test("250 eager badges at 100 ms of latency: none ends unknown, never more than the budget in flight", async () => {
  service.latency = 100;
  const tab = await open(listing(250, 'data-loading="eager"'));
  await tab.waitForFunction(() => [...document.querySelectorAll(".x402-verdict-badge")].every((h) => h.dataset.state !== "checking") && document.querySelectorAll(".x402-verdict-badge").length === 250, null, { timeout: 30000 });
  const states = await tab.$$eval(".x402-verdict-badge", (hosts) => hosts.map((h) => h.dataset.state));
  assert.equal(states.filter((s) => s !== "human-backed").length, 0, "no badge of a healthy service ends unknown");
  assert.equal(service.requests.length, 250);
  assert.ok(service.most <= BUDGET, `at most ${BUDGET} in flight (saw ${service.most})`);
  await tab.close();
});

test("1,000 eager badges are drawn a few at a time, frame by frame (no long task of a thousand shadow roots)", async () => {
  service.latency = 0;
  const path = "/drawn-per-frame.html";
  site.pages.set(path, listing(1000, 'data-loading="eager"'));
  const tab = await browser.newPage({ viewport: { width: 800, height: 600 } });
  // The badges drawn between two animation frames, counted in the page.
  await tab.addInitScript(() => {
    window.__perFrame = [];
    let last = 0;
    const count = () => {
      const now = document.querySelectorAll(".x402-verdict-badge").length;
      window.__perFrame.push(now - last);
      last = now;
      requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
  });
  await tab.goto(site.url + path);
  await tab.waitForFunction(() => document.querySelectorAll(".x402-verdict-badge").length === 1000, null, { timeout: 30000 });
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
  const first = () => tab.$eval(".x402-verdict-badge", (h) => [h.dataset.state, h.dataset.reason ?? null, h.shadowRoot.querySelector(".tip").textContent]);
  await tab.waitForFunction(() => document.querySelector(".x402-verdict-badge").dataset.state === "unknown", null, { timeout: 5000 });
  const [state, reason, tip] = await first();
  assert.deepEqual([state, reason], ["unknown", "timeout"]);
  assert.match(tip, /did not answer in time/);
  assert.doesNotMatch(tip, /could not be reached/);
  await tab.evaluate(() => scrollTo(0, 2000));
  await tab.waitForTimeout(5200);
  await tab.evaluate(() => scrollTo(0, 0));
  await tab.waitForFunction(() => document.querySelector(".x402-verdict-badge").dataset.state === "human-backed", null, { timeout: 5000 });
  assert.equal(service.requests.filter((r) => r === "https://api.example.com/r0").length, 2);
  await tab.close();
});

/** A page with one eager badge for r0; `more()` in the page adds another for it. */
const sameEndpoint = () => listing(1, 'data-loading="eager"').replace("</body>", `<script type="module">
  window.more = () => {
    const span = document.querySelector("[data-x402-verdict]").cloneNode();
    document.body.append(span);
  };
</script></body>`);
const settledCount = (tab, n, timeout = 15000) => tab.waitForFunction((n) => {
  const hosts = [...document.querySelectorAll(".x402-verdict-badge")];
  return hosts.length === n && hosts.every((h) => h.dataset.state !== "checking");
}, n, { timeout });
const states = (tab) => tab.$$eval(".x402-verdict-badge", (hosts) => hosts.map((h) => h.dataset.state));
/** The verdict requests the page sends (counted in the page, so that one the browser's HTTP cache answers counts too). */
function pageRequests(tab) {
  const sent = [];
  tab.on("request", (r) => { if (r.url().includes("/v0/verdict")) sent.push(r.url()); });
  return sent;
}

test("badges for one endpoint drawn seconds apart share one answer while its max-age lasts, and ask again after", async () => {
  service.latency = 0;
  const tab = await open(sameEndpoint(), "public, max-age=2");
  const sent = pageRequests(tab);
  await settledCount(tab, 1);
  const first = sent.length; // 0 or 1: the first request may have left before counting began
  // Long after the first answer settled (no request in flight to share).
  await tab.waitForTimeout(300);
  await tab.evaluate(() => window.more());
  await settledCount(tab, 2);
  assert.equal(sent.length, first, "the second badge took the kept answer");
  await tab.waitForTimeout(2200);
  await tab.evaluate(() => window.more());
  await settledCount(tab, 3);
  assert.equal(sent.length, first + 1, "an expired answer is asked again");
  assert.deepEqual(await states(tab), ["human-backed", "human-backed", "human-backed"]);
  await tab.close();
});

test("an answer the service marks no-store is never kept", async () => {
  service.latency = 0;
  const tab = await open(sameEndpoint(), "no-store, max-age=60");
  const sent = pageRequests(tab);
  await settledCount(tab, 1);
  const first = sent.length;
  await tab.evaluate(() => window.more());
  await settledCount(tab, 2);
  assert.equal(sent.length, first + 1, "the second badge asked again");
  assert.equal(service.requests.length, 2);
  assert.deepEqual(await states(tab), ["human-backed", "human-backed"]);
  await tab.close();
});

test("main thread slowed 6x: 300 eager badges for 30 endpoints cost one request per endpoint", async () => {
  service.latency = 20;
  const path = `/throttled${++pages}.html`;
  site.pages.set(path, listing(300, 'data-loading="eager"').replace(/api\.example\.com\/r(\d+)"/g, (_, i) => `api.example.com/r${i % 30}"`));
  service.reset();
  service.cacheControl = "public, max-age=60";
  const tab = await browser.newPage({ viewport: { width: 800, height: 600 } });
  const cdp = await tab.context().newCDPSession(tab);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  const sent = pageRequests(tab);
  await tab.goto(site.url + path);
  await settledCount(tab, 300, 90000);
  assert.equal(new Set(service.requests).size, 30);
  assert.equal(sent.length, 30, "one request per endpoint, however the drawing was spread");
  assert.ok((await states(tab)).every((s) => s === "human-backed"));
  await tab.close();
});
