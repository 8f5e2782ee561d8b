// Prints figures for a listing of 1,000 badges (1,000 distinct endpoints,
// one service) in headless Chromium, the page on another origin than the
// service, at 0, 50 and 100 ms of service latency, lazy (the loader's
// default) and eager (data-loading="eager": every badge at load, within the
// request budget): requests sent until the first screen settled, the time
// until it settled, long tasks, the badges that ended unknown, and the
// requests after a jump to the bottom of the page.
//
//   bash scripts/build.sh && node scripts/bench-listing.mjs
import { launch } from "../tests/support/browser.mjs";
import { startListingService } from "../tests/support/listing-service.mjs";
import { startOrigin } from "../tests/support/origin.mjs";

const ROOT = new URL("../", import.meta.url).pathname;
const [listingService, site, browser] = await Promise.all([startListingService(), startOrigin(), launch()]);
const { service, url: base } = listingService;
site.folders.set("/pkg/", `${ROOT}pkg/`);
for (const mode of ["lazy", "eager"]) {
  const rows = Array.from({ length: 1000 }, (_, i) => `<tr><td>${i + 1}</td><td><span data-x402-verdict data-base-url="${base}" data-chain="base" data-pay-to="0x209693Bc6afc0C5328bA36FaF03C514EF312287C" data-resource-url="https://api.example.com/r${i}" data-loading="${mode}"></span></td></tr>`);
  site.pages.set(`/${mode}.html`, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>listing</title><style>td { height: 28px; padding: 0; border-bottom: 1px solid #ddd; }</style><script src="/pkg/embed.js"></script></head><body><table>${rows.join("")}</table></body></html>`);
}

function settled(scope) {
  const hosts = [...document.querySelectorAll(".x402-verdict-badge")].filter((h) => scope === "all" || (h.getBoundingClientRect().bottom > 0 && h.getBoundingClientRect().top < innerHeight));
  return hosts.length > 0 && hosts.every((h) => h.dataset.state !== "checking");
}

console.log("latency  mode   requests at first screen  first screen settled  long tasks >50 ms (max)  unknown  requests after a jump to the bottom  most in flight");
for (const latency of [0, 50, 100]) {
  for (const mode of ["lazy", "eager"]) {
    service.reset();
    service.latency = latency;
    const tab = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await tab.addInitScript(() => {
      window.__long = [];
      new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: "longtask", buffered: true });
    });
    await tab.goto(`${site.url}/${mode}.html`);
    await tab.waitForFunction(settled, "view", { timeout: 120000, polling: 10 });
    const firstScreen = await tab.evaluate(() => performance.now());
    const atFirstScreen = service.requests.length;
    if (mode === "eager") await tab.waitForFunction(settled, "all", { timeout: 120000 });
    const beforeJump = service.requests.length;
    await tab.evaluate(() => scrollTo(0, document.body.scrollHeight));
    await tab.waitForFunction(settled, "view", { timeout: 120000 });
    await tab.waitForTimeout(300);
    const { long, unknown } = await tab.evaluate(() => ({
      long: window.__long.filter((d) => d > 50),
      unknown: document.querySelectorAll(".x402-verdict-badge[data-state='unknown']").length,
    }));
    const ms = (n) => `${Math.round(n)} ms`;
    console.log(`${`${latency} ms`.padEnd(9)}${mode.padEnd(7)}${String(atFirstScreen).padEnd(26)}${ms(firstScreen).padEnd(22)}${`${long.length} (${long.length ? ms(Math.max(...long)) : "-"})`.padEnd(25)}${String(unknown).padEnd(9)}${String(service.requests.length - beforeJump).padEnd(37)}${service.most}`);
    await tab.close();
  }
}
await browser.close();
await Promise.all([site.stop(), listingService.stop()]);
