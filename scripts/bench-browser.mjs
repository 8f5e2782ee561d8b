// Browser figures for the badge in each engine (Chromium, Firefox, WebKit:
// tests/support/browser.mjs), printed side by side with ratios to Chromium
// (no assertions): the listing page's 100 badges (time until all settle,
// verdict requests made), the seller page's time to verified, and the cost
// of one lookupVerdict evaluation in wasm. The demo pages come from www/ on
// a loopback site that passes /v0/ on to the demo service, so that the
// test probe (tests/support/origin.mjs) times every badge from the start of
// the page in every engine.
//   npm run bench   (after a build)
//   X402_ENGINES=firefox node scripts/bench-browser.mjs
import { execFileSync } from "node:child_process";
import { startDemo } from "./demo.mjs";
import { median, timeBadges } from "./bench/timing.mjs";
import { ENGINES, launch } from "../tests/support/browser.mjs";
import { startOrigin } from "../tests/support/origin.mjs";

const RUNS = 5;
const WWW = new URL("../www/", import.meta.url).pathname;


/** The page's badges, once `count` have settled: when the last did, and the verdict requests made. */
async function settle(page, url, count) {
  await page.goto(url);
  await page.waitForFunction((n) => window.__settled?.length >= n, count, { timeout: 60000 });
  return page.evaluate(() => ({
    settled: Math.max(...window.__settled),
    requests: performance.getEntriesByType("resource").filter((e) => e.name.includes("/v0/verdict")).length,
  }));
}

/** 200 concurrent lookups share one request: the batch is one fetch plus 200 evaluations; with and without a key isolates the signature check. */
function lookups() {
  return (async () => {
    const { default: init, lookupVerdict } = await import("./pkg/index.js");
    await init();
    const config = await (await fetch("demo.json")).json();
    const e = config.endpoints.verified;
    const options = { baseUrl: location.origin, chain: e.chain, payTo: e.payTo, resourceUrl: e.resourceUrl, publicKey: config.publicKey };
    await lookupVerdict(options);
    const batch = async (extra) => {
      const started = performance.now();
      await Promise.all(Array.from({ length: 200 }, () => lookupVerdict({ ...options, ...extra })));
      return performance.now() - started;
    };
    const median = async (extra) => {
      const times = [];
      for (let i = 0; i < 7; i++) times.push(await batch(extra));
      return times.sort((a, b) => a - b)[3];
    };
    return { withKey: await median({}), withoutKey: await median({ publicKey: undefined }) };
  })();
}

const demo = await startDemo();
const site = await startOrigin();
site.folders.set("/", WWW);
site.proxy = demo.url;
site.init = [[timeBadges]];
const figures = {};
try {
  for (const engine of ENGINES) {
    const browser = await launch(engine);
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
      const listing = [];
      const seller = [];
      for (let i = 0; i < RUNS; i++) {
        listing.push(await settle(page, `${site.url}/listing.html`, 100));
        seller.push(await settle(page, `${site.url}/seller.html`, 1));
      }
      await page.goto(`${site.url}/index.html`);
      const perLookup = await page.evaluate(lookups);
      figures[engine] = {
        listing: median(listing.map((r) => r.settled)),
        requests: listing[0].requests,
        seller: median(seller.map((r) => r.settled)),
        lookup: perLookup.withoutKey / 200,
        check: (perLookup.withKey - perLookup.withoutKey) / 200,
      };
      await page.close();
    } finally {
      await browser.close();
    }
  }
} finally {
  await Promise.all([demo.stop(), site.stop()]);
}

const base = figures.chromium ?? Object.values(figures)[0];
const ratio = (value, of) => (of > 0 ? ` (${(value / of).toFixed(2)}×)` : "");
console.log(`browser figures, median of ${RUNS} loads each; ratios to ${figures.chromium ? "Chromium" : ENGINES[0]}; load: ${execFileSync("uptime").toString().trim()}`);
for (const [engine, f] of Object.entries(figures)) {
  console.log(`${engine.padEnd(9)} listing page, 100 badges settled ${f.listing.toFixed(0)} ms${ratio(f.listing, base.listing)} after navigation (${f.requests} verdict requests); seller page verified ${f.seller.toFixed(0)} ms${ratio(f.seller, base.seller)}; lookupVerdict ${f.lookup.toFixed(3)} ms each, signature check ${f.check.toFixed(3)} ms${ratio(f.check, base.check)}`);
}
