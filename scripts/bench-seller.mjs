// The package against a plain-JavaScript badge (scripts/bench/plain-badge.js:
// one module, fetch, RFC 8785, WebCrypto's Ed25519), side by side in one
// Chromium run, the same pages on one loopback origin and the reference
// service on another, signing with the demo key:
//
// - a seller's page with one badge by script tag, at 0, 100 and 300 ms per
//   request (Chromium's network emulation through playwright-core's CDP
//   session, cache disabled, a fresh context per load): time from navigation
//   to "verified", and the requests the page made; and the same page with
//   its verdict inlined and the wasm's preload hint in its head, as
//   x402-verdict/seller writes it (the verdict fetched anew before each row,
//   so that it is never older than the badge takes); and the floor of each
//   (scripts/bench/floor.js in embed.js's place: the page's requests and no
//   work), the least any badge could take over the same round trips, so
//   that the package's own work reads as its time less its floor's;
// - a dashboard of 100 eager badges for 50 endpoints, at 0, 100 and 300 ms
//   per request: time until all settle; with the service over HTTP/1.1 and
//   over HTTP/2 (a TLS front, tests/support/front.mjs: the protocol the
//   verdict requests used, their nextHopProtocol, is printed), and each time also
//   with the package's request budget lifted (scripts/bench/budget.mjs), to
//   see where the budget pays; and over HTTP/2 as the tab's next page, after
//   the same page settled untimed (the package starts from the protocol the
//   tab last saw), and with the package loaded from the service (whose
//   protocol the package's first file shows).
//
// Package and plain loads alternate, so that the machine's load falls on
// both alike; medians of RUNS loads, ratios printed. No assertions.
//   npm run bench   (after a build)
//   RUNS=9 node scripts/bench-seller.mjs
//   ONLY=dashboard node scripts/bench-seller.mjs   (the rows whose name holds it)
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { BIN, demoKeys, ENDPOINTS } from "./demo.mjs";
import { budgetPackage } from "./bench/budget.mjs";
import { median, timeBadges } from "./bench/timing.mjs";
import { launch } from "../tests/support/browser.mjs";
import { startFront } from "../tests/support/front.mjs";
import { startOrigin } from "../tests/support/origin.mjs";
import { AGENT_PACKAGE, PACKAGE } from "../tests/support/package.mjs";

const RUNS = Number(process.env.RUNS ?? 5);
const ONLY = process.env.ONLY ?? "";
const LATENCIES = [0, 100, 300];
const DASHBOARD = { badges: 100, endpoints: 50 };
const ROOT = new URL("../", import.meta.url).pathname;
const WORK = join(ROOT, ".work/bench-seller");
const PREFIX = "https://bench.example.com/api";
const at = (hours) => new Date(Math.floor(Date.now() / 1000) * 1000 + hours * 3600e3).toISOString().replace(/\.\d+Z$/, "Z");

/** The reference service with the seller's endpoint and, by one prefix attestation, the dashboard's 50; it serves the package too (www/pkg). */
async function startService() {
  mkdirSync(WORK, { recursive: true });
  const keys = demoKeys();
  const attested = (endpoint, match) => ({
    chain: endpoint.chain, payTo: endpoint.payTo, resourceUrl: endpoint.resourceUrl, ...(match && { match }),
    operator: "Bench operator", relatedParty: true, assuranceLevel: "G", status: "active",
    attestedAt: at(-24 * 60), lastRecheckedAt: at(-1), recheckEveryHours: 24, renewBy: at(24 * 180),
  });
  const registry = { attestations: [attested(ENDPOINTS.verified), attested({ ...ENDPOINTS.verified, resourceUrl: PREFIX }, "prefix")] };
  writeFileSync(join(WORK, "registry.json"), JSON.stringify(registry));
  const child = spawn(BIN, ["serve", "--listen", "127.0.0.1:0", "--registry", join(WORK, "registry.json"), "--keys", keys, "--data", join(WORK, "data"), "--www", join(ROOT, "www")], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((ok, fail) => {
    createInterface({ input: child.stdout }).once("line", (line) => ok(line.replace(/^listening on /, "")));
    child.once("exit", (code) => fail(new Error(`x402-verdict serve exited with ${code}`)));
  });
  const publicKey = JSON.parse(readFileSync(keys, "utf8")).current.publicKey;
  return { url, publicKey, stop: () => child.kill("SIGINT") };
}


/**
 * One cold load of `url` at `latency` ms per request (with `first`, the tab's
 * next page after `first`, which settled untimed): when its `count` badges
 * settled, the requests made, and the verdict requests' protocols.
 */
async function load(browser, url, latency, count, first) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  try {
    await context.addInitScript(timeBadges);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency, downloadThroughput: -1, uploadThroughput: -1 });
    let requests = 0;
    page.on("request", () => requests++);
    if (first) {
      await page.goto(first);
      await page.waitForFunction((n) => window.__settled?.length >= n, count, { timeout: 60000 });
      requests = 0;
    }
    await page.goto(url);
    await page.waitForFunction((n) => window.__settled?.length >= n, count, { timeout: 60000 });
    const settled = await page.evaluate(() => Math.max(...window.__settled));
    const protocols = await page.evaluate(() => [...new Set(performance.getEntriesByType("resource").filter((e) => e.name.includes("/v0/verdict")).map((e) => e.nextHopProtocol))].join(" "));
    const states = await page.$$eval("x402-verdict-view", (hosts) => hosts.filter((h) => h.dataset.state === "human-backed").length);
    if (states !== count) throw new Error(`${url}: ${states} of ${count} badges verified; others: ${await page.$$eval("x402-verdict-view", (hosts) => [...new Set(hosts.filter((h) => h.dataset.state !== "human-backed").map((h) => `${h.dataset.state} ${h.dataset.reason}`))].join(", "))}`);
    return { settled, requests, protocols };
  } finally {
    await context.close();
  }
}

const service = await startService();
const http2 = await startFront(service.url);
/** A budget no page reaches: requests leave as they are asked for. */
const NO_BUDGET = 1000;
const site = await startOrigin();
site.probe = null;
site.folders.set("/pkg/", PACKAGE);
site.folders.set("/unbudgeted/", await budgetPackage(NO_BUDGET));
site.folders.set("/plain/", join(ROOT, "scripts/bench/"));
const page = (body, script) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title></head><body>${body}${script}</body></html>`;
const attributes = (base, { chain, payTo, resourceUrl }) => `data-base-url="${base}" data-chain="${chain}" data-pay-to="${payTo}" data-resource-url="${resourceUrl}" data-public-key="${service.publicKey}"`;
const { badgeHtml, headHtml } = await import(`${AGENT_PACKAGE}seller.js`);
/** The floors' script (scripts/bench/floor.js): the page's requests, and no work. */
const FLOOR_SCRIPT = "/plain/floor.js";
/**
 * The seller page as x402-verdict/seller writes it (the verdict inlined,
 * fetched now; the preload hint in its head), at /seller-inlined.html, and
 * its floor, with floor.js in embed.js's place, at /seller-inlined-floor.html.
 */
async function setInlinedSellerPages() {
  const { chain, payTo, resourceUrl } = ENDPOINTS.verified;
  const verdict = await (await fetch(`${service.url}/v0/verdict?${new URLSearchParams({ chain, payTo, resourceUrl })}`)).text();
  const badge = badgeHtml({ baseUrl: service.url, publicKey: service.publicKey, strict: false, chain, payTo, resourceUrl, verdict });
  const head = headHtml({ badgeScriptUrl: "/pkg/embed.js" });
  const sellerPage = (headSnippet) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>${headSnippet}</head><body><p>Operator verification: ${badge}</p></body></html>`;
  site.pages.set("/seller-inlined.html", sellerPage(head));
  site.pages.set("/seller-inlined-floor.html", sellerPage(head.replace('src="/pkg/embed.js"', `src="${FLOOR_SCRIPT}"`)));
}
const SCRIPTS = { package: `<script src="/pkg/embed.js"></script>`, unbudgeted: `<script src="/unbudgeted/embed.js"></script>`, plain: `<script type="module" src="/plain/plain-badge.js"></script>` };
const MARKS = { package: "data-x402-verdict", unbudgeted: "data-x402-verdict", plain: "data-plain-badge" };
// The script-tag page's floor: the package's page with floor.js in embed.js's place.
site.pages.set("/seller-floor.html", page(`<p>Operator verification: <span data-x402-verdict ${attributes(service.url, ENDPOINTS.verified)}></span></p>`, `<script src="${FLOOR_SCRIPT}"></script>`));
const PROTOCOLS = { "HTTP/1.1": service.url, "HTTP/2": http2.url };
const dashboardEndpoint = (i) => ({ ...ENDPOINTS.verified, resourceUrl: `${PREFIX}/${i % DASHBOARD.endpoints}` });
for (const kind of Object.keys(SCRIPTS)) {
  site.pages.set(`/seller-${kind}.html`, page(`<p>Operator verification: <span ${MARKS[kind]} ${attributes(service.url, ENDPOINTS.verified)}></span></p>`, SCRIPTS[kind]));
  for (const [protocol, base] of Object.entries(PROTOCOLS)) {
    const rows = Array.from({ length: DASHBOARD.badges }, (_, i) => `<div><span ${MARKS[kind]} data-loading="eager" ${attributes(base, dashboardEndpoint(i))}></span></div>`);
    site.pages.set(`/dashboard-${protocol.replace("/", "")}-${kind}.html`, page(rows.join(""), SCRIPTS[kind]));
  }
}
// The dashboard over HTTP/2 with the package loaded from the service, which shows its protocol from the package's first file on.
const fromService = Array.from({ length: DASHBOARD.badges }, (_, i) => `<div><span data-x402-verdict data-loading="eager" ${attributes(http2.url, dashboardEndpoint(i))}></span></div>`).join("");
site.pages.set("/dashboard-from-service-package.html", page(fromService, `<script src="${http2.url}/pkg/embed.js"></script>`));
site.pages.set("/dashboard-from-service-plain.html", site.pages.get("/dashboard-HTTP2-plain.html"));

/** The seller page's variants: by script tag, inlined, the plain badge, and the floors of the first two. */
const SELLER_KINDS = ["package", "inlined", "plain", "floor", "inlined-floor"];
const browser = await launch("chromium");
const rows = [];
try {
  const measure = async (name, path, latency, count, kinds, next = false) => {
    if (!name.includes(ONLY)) return;
    const runs = Object.fromEntries(kinds.map((kind) => [kind, []]));
    for (let i = 0; i < RUNS; i++) {
      for (const kind of kinds) {
        const url = `${site.url}/${path}-${kind}.html`;
        runs[kind].push(await load(browser, url, latency, count, next ? `${url}?first` : undefined));
      }
    }
    const figures = Object.fromEntries(kinds.map((kind) => [kind, {
      ms: median(runs[kind].map((x) => x.settled)),
      requests: median(runs[kind].map((x) => x.requests)),
      protocols: [...new Set(runs[kind].map((x) => x.protocols))].join(" "),
    }]));
    rows.push({ name, figures });
  };
  // A first load of each page, not counted (the browser's and the service's first work).
  await setInlinedSellerPages();
  for (const kind of SELLER_KINDS) await load(browser, `${site.url}/seller-${kind}.html`, 0, 1);
  for (const latency of LATENCIES) {
    await setInlinedSellerPages();
    await measure(`seller page, 1 badge, ${latency} ms per request`, "seller", latency, 1, SELLER_KINDS);
  }
  for (const protocol of Object.keys(PROTOCOLS)) {
    for (const latency of LATENCIES) {
      const name = `dashboard, ${DASHBOARD.badges} eager badges / ${DASHBOARD.endpoints} endpoints, ${protocol}, ${latency} ms`;
      await measure(name, `dashboard-${protocol.replace("/", "")}`, latency, DASHBOARD.badges, ["package", "unbudgeted", "plain"]);
    }
  }
  // The tab's next page: the package starts from the protocol the first page saw.
  for (const latency of LATENCIES) {
    const name = `dashboard, the tab's next page, HTTP/2, ${latency} ms`;
    await measure(name, "dashboard-HTTP2", latency, DASHBOARD.badges, ["package", "unbudgeted", "plain"], true);
  }
  for (const latency of LATENCIES) {
    await measure(`dashboard, the package from the service, HTTP/2, ${latency} ms`, "dashboard-from-service", latency, DASHBOARD.badges, ["package", "plain"]);
  }
} finally {
  await browser.close();
  await site.stop();
  await http2.stop();
  service.stop();
}

console.log(`package vs plain-JS badge, Chromium, median of ${RUNS} cold loads each; load: ${execFileSync("uptime").toString().trim()}`);
const cell = (f) => (f ? `${f.ms.toFixed(0)} ms, ${f.requests} req` : "").padStart(18);
const ratio = (f, to, width) => (f && to ? `${(f.ms / to.ms).toFixed(2)}x` : "").padStart(width);
const sellerRows = rows.filter(({ figures }) => figures.floor);
if (sellerRows.length) {
  console.log("(inlined: the seller page with its verdict inlined and the wasm preloaded, as x402-verdict/seller writes it; floor: the same page's requests and no work, scripts/bench/floor.js, the least any badge could take over those round trips; ratios against the plain badge)");
  console.log(`${"".padEnd(62)}${"package".padStart(18)}${"inlined".padStart(18)}${"plain JS".padStart(18)}${"floor".padStart(18)}${"inlined floor".padStart(18)}${"ratio".padStart(8)}${"inlined".padStart(9)}${"floor".padStart(7)}${"inl. floor".padStart(11)}`);
  for (const { name, figures: f } of sellerRows) {
    console.log(`${name.padEnd(62)}${cell(f.package)}${cell(f.inlined)}${cell(f.plain)}${cell(f.floor)}${cell(f["inlined-floor"])}${ratio(f.package, f.plain, 8)}${ratio(f.inlined, f.plain, 9)}${ratio(f.floor, f.plain, 7)}${ratio(f["inlined-floor"], f.plain, 11)}`);
  }
}
const dashboardRows = rows.filter(({ figures }) => !figures.floor);
if (dashboardRows.length) {
  console.log("(no budget: the package with its request budget lifted; ratios against the plain badge; the protocol of the verdict requests)");
  console.log(`${"".padEnd(62)}${"package".padStart(18)}${"no budget".padStart(18)}${"plain JS".padStart(18)}${"ratio".padStart(8)}${"no budget".padStart(11)}  protocol`);
  for (const { name, figures: { package: pkg, unbudgeted, plain } } of dashboardRows) {
    console.log(`${name.padEnd(62)}${cell(pkg)}${cell(unbudgeted)}${cell(plain)}${ratio(pkg, plain, 8)}${ratio(unbudgeted, plain, 11)}  ${pkg.protocols}`);
  }
}
