// The package against a plain-JavaScript badge (scripts/bench/plain-badge.js:
// one module, fetch, RFC 8785, WebCrypto's Ed25519), side by side in one
// Chromium run, the same pages on one loopback origin and the reference
// service on another, signing with the demo key:
//
// - a seller's page with one badge by script tag, at 0, 100 and 300 ms per
//   request (Chromium's network emulation through playwright-core's CDP
//   session, cache disabled, a fresh context per load): time from navigation
//   to "verified", and the requests the page made;
// - a dashboard of 100 eager badges for 50 endpoints, at 0, 100 and 300 ms
//   per request: time until all settle.
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
import { median, timeBadges } from "./bench/timing.mjs";
import { launch } from "../tests/support/browser.mjs";
import { startOrigin } from "../tests/support/origin.mjs";
import { PACKAGE } from "../tests/support/package.mjs";

const RUNS = Number(process.env.RUNS ?? 5);
const ONLY = process.env.ONLY ?? "";
const LATENCIES = [0, 100, 300];
const DASHBOARD = { badges: 100, endpoints: 50 };
const ROOT = new URL("../", import.meta.url).pathname;
const WORK = join(ROOT, ".work/bench-seller");
const PREFIX = "https://bench.example.com/api";
const at = (hours) => new Date(Math.floor(Date.now() / 1000) * 1000 + hours * 3600e3).toISOString().replace(/\.\d+Z$/, "Z");

/** The reference service with the seller's endpoint and, by one prefix attestation, the dashboard's 50. */
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
  const child = spawn(BIN, ["serve", "--listen", "127.0.0.1:0", "--registry", join(WORK, "registry.json"), "--keys", keys, "--data", join(WORK, "data")], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((ok, fail) => {
    createInterface({ input: child.stdout }).once("line", (line) => ok(line.replace(/^listening on /, "")));
    child.once("exit", (code) => fail(new Error(`x402-verdict serve exited with ${code}`)));
  });
  const publicKey = JSON.parse(readFileSync(keys, "utf8")).current.publicKey;
  return { url, publicKey, stop: () => child.kill("SIGINT") };
}


/** One cold load of `url` at `latency` ms per request: when its `count` badges settled, and the requests made. */
async function load(browser, url, latency, count) {
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
    await page.goto(url);
    await page.waitForFunction((n) => window.__settled?.length >= n, count, { timeout: 60000 });
    const settled = await page.evaluate(() => Math.max(...window.__settled));
    const states = await page.$$eval(".x402-verdict-badge", (hosts) => hosts.filter((h) => h.dataset.state === "human-backed").length);
    if (states !== count) throw new Error(`${url}: ${states} of ${count} badges verified; others: ${await page.$$eval(".x402-verdict-badge", (hosts) => [...new Set(hosts.filter((h) => h.dataset.state !== "human-backed").map((h) => `${h.dataset.state} ${h.dataset.reason}`))].join(", "))}`);
    return { settled, requests };
  } finally {
    await context.close();
  }
}

const service = await startService();
const site = await startOrigin();
site.probe = null;
site.folders.set("/pkg/", PACKAGE);
site.folders.set("/plain/", join(ROOT, "scripts/bench/"));
const page = (body, script) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title></head><body>${body}${script}</body></html>`;
const attributes = ({ chain, payTo, resourceUrl }) => `data-base-url="${service.url}" data-chain="${chain}" data-pay-to="${payTo}" data-resource-url="${resourceUrl}" data-public-key="${service.publicKey}"`;
const SCRIPTS = { package: `<script src="/pkg/embed.js"></script>`, plain: `<script type="module" src="/plain/plain-badge.js"></script>` };
const MARKS = { package: "data-x402-verdict", plain: "data-plain-badge" };
const dashboardEndpoint = (i) => ({ ...ENDPOINTS.verified, resourceUrl: `${PREFIX}/${i % DASHBOARD.endpoints}` });
for (const kind of ["package", "plain"]) {
  site.pages.set(`/seller-${kind}.html`, page(`<p>Operator verification: <span ${MARKS[kind]} ${attributes(ENDPOINTS.verified)}></span></p>`, SCRIPTS[kind]));
  const rows = Array.from({ length: DASHBOARD.badges }, (_, i) => `<div><span ${MARKS[kind]} data-loading="eager" ${attributes(dashboardEndpoint(i))}></span></div>`);
  site.pages.set(`/dashboard-${kind}.html`, page(rows.join(""), SCRIPTS[kind]));
}

const browser = await launch("chromium");
const rows = [];
try {
  const measure = async (name, path, latency, count) => {
    if (!name.includes(ONLY)) return;
    const runs = { package: [], plain: [] };
    for (let i = 0; i < RUNS; i++) {
      for (const kind of ["package", "plain"]) runs[kind].push(await load(browser, `${site.url}/${path}-${kind}.html`, latency, count));
    }
    const [pkg, plain] = [runs.package, runs.plain].map((r) => ({ ms: median(r.map((x) => x.settled)), requests: median(r.map((x) => x.requests)) }));
    rows.push({ name, pkg, plain });
  };
  // A first load of each page, not counted (the browser's and the service's first work).
  for (const kind of ["package", "plain"]) await load(browser, `${site.url}/seller-${kind}.html`, 0, 1);
  for (const latency of LATENCIES) await measure(`seller page, 1 badge, ${latency} ms per request`, "seller", latency, 1);
  for (const latency of LATENCIES) {
    await measure(`dashboard, ${DASHBOARD.badges} eager badges / ${DASHBOARD.endpoints} endpoints, ${latency} ms`, "dashboard", latency, DASHBOARD.badges);
  }
} finally {
  await browser.close();
  await site.stop();
  service.stop();
}

console.log(`package vs plain-JS badge, Chromium, median of ${RUNS} cold loads each; load: ${execFileSync("uptime").toString().trim()}`);
console.log(`${"".padEnd(58)}${"package".padStart(18)}${"plain JS".padStart(18)}${"ratio".padStart(8)}`);
for (const { name, pkg, plain } of rows) {
  const cell = (f) => `${f.ms.toFixed(0)} ms, ${f.requests} req`.padStart(18);
  console.log(`${name.padEnd(58)}${cell(pkg)}${cell(plain)}${`${(pkg.ms / plain.ms).toFixed(2)}x`.padStart(8)}`);
}
