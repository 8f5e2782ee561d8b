// Browser figures for the badge, printed (no assertions): the listing page's
// 100 badges (time until all settle, verdict requests made) and the cost of
// one lookupVerdict evaluation in wasm against the demo service.
//   npm run bench   (after a build)
import { startDemo } from "./demo.mjs";
import { launch } from "../tests/support/browser.mjs";

const demo = await startDemo();
const browser = await launch();
try {
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const page = await browser.newPage();
    let requests = 0;
    page.on("request", (r) => { if (r.url().includes("/v0/verdict")) requests++; });
    await page.goto(`${demo.url}/listing.html`);
    await page.waitForFunction(() => document.body.dataset.rendered === "100");
    const settled = await page.evaluate(() => performance.now());
    runs.push({ settled, requests });
    await page.close();
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`listing page: 100 badges settled ${median(runs.map((r) => r.settled)).toFixed(0)} ms after navigation (median of ${runs.length}), ${runs[0].requests} verdict requests`);

  const page = await browser.newPage();
  await page.goto(`${demo.url}/index.html`);
  const perLookup = await page.evaluate(async () => {
    const { default: init, lookupVerdict } = await import("./pkg/index.js");
    await init();
    const config = await (await fetch("demo.json")).json();
    const e = config.endpoints.verified;
    const options = { baseUrl: location.origin, chain: e.chain, payTo: e.payTo, resourceUrl: e.resourceUrl, publicKey: config.publicKey };
    await lookupVerdict(options);
    // 200 concurrent lookups share one request, so the batch time is one
    // fetch plus 200 evaluations; the median of 7 batches, with and without
    // a key, isolates the cost of the signature check.
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
  });
  const check = (perLookup.withKey - perLookup.withoutKey) / 200;
  console.log(`200 concurrent lookupVerdict (one shared request): ${perLookup.withKey.toFixed(1)} ms with signature checks, ${perLookup.withoutKey.toFixed(1)} ms without: ${check.toFixed(3)} ms per check`);
} finally {
  await browser.close();
  await demo.stop();
}
