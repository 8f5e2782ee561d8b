// The request budget where the service answers over HTTP/2, in each engine:
// a page of 130 eager badges for 130 endpoints by script tag, the service
// behind a loopback HTTP/2 front (tests/support/front.mjs) whose every answer
// takes 300 ms. With Timing-Allow-Origin (the reference service sends it),
// the page sees the first answers came over h2 and raises the budget from 6
// to 100 (the streams RFC 9113 asks servers to allow at least). Without it
// the protocol cannot be seen, and the budget holds: never more than 6.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startDemo, ENDPOINTS } from "../../scripts/demo.mjs";
import { ENGINES, launch } from "../support/browser.mjs";
import { startFront } from "../support/front.mjs";
import { startOrigin } from "../support/origin.mjs";
import { PACKAGE } from "../support/package.mjs";

const BADGES = 130;
let demo, site, front;

before(async () => {
  [demo, site] = await Promise.all([startDemo({ www: false }), startOrigin()]);
  site.folders.set("/pkg/", PACKAGE);
  front = await startFront(demo.url, { delayMs: 300 });
});
after(() => Promise.all([demo?.stop(), site?.stop(), front?.stop()]));

/** A page of BADGES eager badges, each for an endpoint of its own, looked up at the front. */
function page() {
  const { chain, payTo } = ENDPOINTS.verified;
  const spans = Array.from({ length: BADGES }, (_, i) =>
    `<span data-x402-verdict data-loading="eager" data-base-url="${front.url}" data-chain="${chain}" data-pay-to="${payTo}" data-resource-url="https://budget.example/r${i}"></span>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>budget</title></head><body>${spans.join(" ")}<script src="/pkg/embed.js"></script></body></html>`;
}

for (const engine of ENGINES) describe(engine, () => {
  let browser;
  before(async () => { browser = await launch(engine); });
  after(() => browser?.close());

  /** Loads the page; resolves to the badges' reasons and the verdict requests' protocols. */
  async function load(path) {
    site.pages.set(path, page());
    front.inFlight.most = 0;
    const tab = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    try {
      await tab.goto(site.url + path);
      await tab.waitForFunction((n) => {
        const hosts = document.querySelectorAll(".x402-verdict-badge");
        return hosts.length === n && [...hosts].every((h) => h.dataset.state !== "checking");
      }, BADGES, { timeout: 20000 });
      return await tab.evaluate(() => ({
        reasons: [...new Set([...document.querySelectorAll(".x402-verdict-badge")].map((h) => h.dataset.reason))],
        protocols: [...new Set(performance.getEntriesByType("resource").filter((e) => e.name.includes("/v0/verdict")).map((e) => e.nextHopProtocol))],
      }));
    } finally {
      await tab.close();
    }
  }

  test("answers seen to come over HTTP/2 raise the budget to 100; unseen, it holds at 6", async (t) => {
    front.timingAllowed = true;
    const seen = await load("/seen.html");
    assert.deepEqual(seen.reasons, ["not_listed"], "every badge got the service's answer");
    assert.deepEqual(seen.protocols, ["h2"]);
    const lifted = front.inFlight.most;
    assert.ok(lifted > 6 && lifted <= 100, `${lifted} requests in flight at most`);
    front.timingAllowed = false;
    const unseen = await load("/unseen.html");
    assert.deepEqual(unseen.reasons, ["not_listed"]);
    assert.deepEqual(unseen.protocols, [""], "without Timing-Allow-Origin the page cannot see the protocol");
    assert.ok(front.inFlight.most <= 6, `${front.inFlight.most} requests in flight at most`);
    t.diagnostic(`${engine}: at most ${lifted} in flight over h2 with the protocol seen, ${front.inFlight.most} without`);
    front.timingAllowed = true;
  });
});
