// Prints figures for a listing of 1,000 badges (1,000 distinct endpoints,
// one service) in headless Chromium, the page on another origin than the
// service, at 0, 50 and 100 ms of service latency, side by side in one run:
//
// - lazy: the package as the loader uses it (badges ask near the view);
// - eager: the package with data-loading="eager" (every badge at load,
//   within the request budget);
// - no badge: the same page without the loader, the control for long tasks
//   (the page's own parsing and layout of 1,000 rows).
//
// For each: requests sent until the first screen settled, the time until it
// settled (after navigation), the most requests in flight at the service,
// long tasks (count, total and longest), the most the package's own scripts
// ran in one frame (long animation frames, by script source: the badge's
// share of a long task, apart from the page's parsing and layout), the
// badges that ended unknown, and the requests after a jump to the bottom of
// the page; then the ratios of eager to lazy.
//
//   npm run bench-listing
//   npm run bench-listing -- --runs 5 --latencies 0,100 --budgets 4,5,6
//
// Options: --runs N (each case N times, interleaved; medians with the range),
// --latencies 0,50,100, --modes lazy,eager, --budgets 4,5,6 (the package with
// each request budget: scripts/bench/budget.mjs; for measuring only, there is
// no such option).
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { budgetPackage } from "./bench/budget.mjs";
import { launch } from "../tests/support/browser.mjs";
import { startListingService } from "../tests/support/listing-service.mjs";
import { startOrigin } from "../tests/support/origin.mjs";
import { PACKAGE } from "../tests/support/package.mjs";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "1" },
    latencies: { type: "string", default: "0,50,100" },
    modes: { type: "string", default: "lazy,eager" },
    budgets: { type: "string" },
  },
});
const list = (text, name) => text.split(",").map((item) => {
  if (!/^\d+$/.test(item.trim())) throw new Error(`bench-listing: --${name} takes numbers separated by commas, not "${text}"`);
  return Number(item);
});
const runs = list(args.runs, "runs")[0];
const latencies = list(args.latencies, "latencies");
const modes = args.modes.split(",");
for (const mode of modes) if (!["lazy", "eager"].includes(mode)) throw new Error(`bench-listing: --modes takes lazy and eager, not "${mode}"`);

if (!existsSync(`${PACKAGE}embed.js`)) throw new Error(`bench-listing: no package in ${PACKAGE}: run \`bash scripts/build.sh\` first`);
/** The cases: a label, the package folder (none: the control page without badges) and the loading mode. */
const cases = [];
if (args.budgets) {
  for (const budget of list(args.budgets, "budgets")) {
    const pkg = await budgetPackage(budget);
    for (const mode of modes) cases.push({ label: `${mode} b${budget}`, pkg, mode });
  }
} else {
  for (const mode of modes) cases.push({ label: mode, pkg: PACKAGE, mode });
}
cases.push({ label: "no badge", pkg: null, mode: "eager" });

const [listingService, site, browser] = await Promise.all([startListingService(), startOrigin(), launch()]);
const { service, url: base } = listingService;
cases.forEach((c, i) => {
  const rows = Array.from({ length: 1000 }, (_, n) => `<tr><td>${n + 1}</td><td><span data-x402-verdict data-base-url="${base}" data-chain="base" data-pay-to="0x209693Bc6afc0C5328bA36FaF03C514EF312287C" data-resource-url="https://api.example.com/r${n}" data-loading="${c.mode}"></span></td></tr>`);
  if (c.pkg) site.folders.set(`/pkg${i}/`, c.pkg);
  const loader = c.pkg ? `<script src="/pkg${i}/embed.js"></script>` : "";
  c.path = `/case${i}.html`;
  site.pages.set(c.path, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>listing</title><style>td { height: 28px; padding: 0; border-bottom: 1px solid #ddd; }</style>${loader}</head><body><table>${rows.join("")}</table></body></html>`);
});

/**
 * In the page, before anything runs: long tasks; for each long animation
 * frame, how long the package's own scripts ran in it (entry points whose
 * source is under /pkg…/, with the style and layout they forced), to tell
 * the badge's share of a long task from the page's; and when the badges of
 * the first screen settled. Nothing here reads layout while badges render
 * (a read there would force a layout inside the package's task and be
 * counted as the badge's): the rows of the first screen are found once,
 * when the page has parsed.
 */
function observe() {
  const bench = (window.__bench = { long: [], badgeScript: [], firstScreen: null, first: null });
  new PerformanceObserver((list) => list.getEntries().forEach((e) => bench.long.push(e.duration))).observe({ type: "longtask", buffered: true });
  new PerformanceObserver((list) => {
    for (const frame of list.getEntries()) {
      const ours = frame.scripts.filter((s) => new URL(s.sourceURL || "x:", location.href).pathname.startsWith("/pkg"));
      bench.badgeScript.push(ours.reduce((ms, s) => ms + s.duration, 0));
    }
  }).observe({ type: "long-animation-frame", buffered: true });
  document.addEventListener("DOMContentLoaded", () => {
    bench.first = [...document.querySelectorAll("[data-x402-verdict]")].filter((s) => s.getBoundingClientRect().top < innerHeight);
  });
  new MutationObserver((_, watcher) => {
    if (!bench.first || !window.__settled(bench.first)) return;
    bench.firstScreen = performance.now();
    watcher.disconnect();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
  /** Whether every one of these marked elements holds a badge that is no longer checking. */
  window.__settled = (marked) => marked.every((m) => {
    const state = m.querySelector("x402-verdict-view")?.dataset.state;
    return state !== undefined && state !== "checking";
  });
}

/** Every badge of the page ("all") or of the last screen ("last", after the jump) settled. */
function settled(scope) {
  const marked = [...document.querySelectorAll("[data-x402-verdict]")];
  return window.__settled(scope === "all" ? marked : marked.slice(-window.__bench.first.length - 1));
}

/** One page load of case `c` at `latency`: its figures. */
async function measure(c, latency) {
  service.reset();
  service.latency = latency;
  const tab = await browser.newPage({ viewport: { width: 800, height: 600 } });
  await tab.addInitScript(observe);
  // Counted as the page sends them (the browser may hold some back, 6 connections per host).
  let sent = 0;
  tab.on("request", (request) => { if (request.url().startsWith(base)) sent++; });
  await tab.goto(site.url + c.path);
  const figures = { requests: null, firstScreen: null, most: null, unknown: null, afterJump: null };
  if (c.pkg) {
    await tab.waitForFunction(() => window.__bench.firstScreen !== null, null, { timeout: 120000, polling: 50 });
    figures.firstScreen = await tab.evaluate(() => window.__bench.firstScreen);
    figures.requests = sent;
    if (c.mode === "eager") await tab.waitForFunction(settled, "all", { timeout: 120000, polling: 100 });
    const beforeJump = sent;
    await tab.evaluate(() => scrollTo(0, document.body.scrollHeight));
    await tab.waitForFunction(settled, "last", { timeout: 120000, polling: 100 });
    await tab.waitForTimeout(300);
    figures.afterJump = sent - beforeJump;
    figures.most = service.most;
  } else {
    await tab.waitForLoadState("load");
    await tab.evaluate(() => scrollTo(0, document.body.scrollHeight));
    await tab.waitForTimeout(300);
  }
  const { long, badgeScript, unknown } = await tab.evaluate(() => ({
    long: window.__bench.long.filter((d) => d > 50),
    badgeScript: window.__bench.badgeScript,
    unknown: document.querySelectorAll("x402-verdict-view[data-state='unknown']").length,
  }));
  await tab.close();
  return {
    ...figures,
    unknown: c.pkg ? unknown : null,
    longCount: long.length,
    longTotal: long.reduce((a, b) => a + b, 0),
    longMost: long.length ? Math.max(...long) : 0,
    badgeMost: c.pkg ? Math.max(0, ...badgeScript) : null,
  };
}

const load = () => loadavg().map((n) => n.toFixed(2)).join(" ");
console.log(`1,000 badges, 1,000 endpoints, one service; ${runs} run(s) of each case, interleaved; load average at start ${load()}`);
const results = new Map();
for (let r = 0; r < runs; r++) {
  for (const latency of latencies) {
    for (const c of cases) {
      const key = `${latency}|${c.label}`;
      if (!c.pkg && latency !== latencies[0]) continue; // the control has no service to wait for
      if (!results.has(key)) results.set(key, { latency, c, runs: [] });
      results.get(key).runs.push(await measure(c, latency));
    }
  }
}
await browser.close();
await Promise.all([site.stop(), listingService.stop()]);

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** The median of a figure over the runs, with its range when there are several; "-" when not measured. */
function figure(entry, name, unit = "") {
  const xs = entry.runs.map((r) => r[name]);
  if (xs[0] === null) return "-";
  const fmt = (n) => `${Math.round(n)}${unit}`;
  const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
  return lo === hi ? fmt(lo) : `${fmt(median(xs))} (${fmt(lo)}–${fmt(hi)})`;
}
const columns = [
  ["latency", 8], ["case", 10], ["requests at first screen", 26], ["first screen settled", 26], ["most in flight", 16],
  ["long tasks >50 ms", 19], ["long task total", 26], ["longest", 24], ["badge's script, most in a frame", 33],
  ["unknown", 18], ["requests after jump", 20],
];
console.log(columns.map(([name, width]) => name.padEnd(width)).join(""));
for (const entry of results.values()) {
  const cells = [
    entry.c.pkg ? `${entry.latency} ms` : "-", entry.c.label, figure(entry, "requests"), figure(entry, "firstScreen", " ms"),
    figure(entry, "most"), figure(entry, "longCount"), figure(entry, "longTotal", " ms"), figure(entry, "longMost", " ms"),
    figure(entry, "badgeMost", " ms"), figure(entry, "unknown"), figure(entry, "afterJump"),
  ];
  console.log(cells.map((cell, i) => cell.padEnd(columns[i][1])).join(""));
}

// Eager against lazy (the default), medians.
const ratio = (a, b) => (b === 0 ? (a === 0 ? "=" : "∞") : `${(a / b).toFixed(2)}×`);
const pairs = cases.filter((c) => c.mode === "lazy" && c.pkg).map((l) => [cases.find((c) => c.mode === "eager" && c.pkg === l.pkg), l]);
for (const [eager, lazy] of pairs.filter(([eager]) => eager)) {
  console.log(`${eager.label} / ${lazy.label}, medians:`);
  for (const latency of latencies) {
    const [e, l] = [eager, lazy].map((c) => results.get(`${latency}|${c.label}`).runs);
    const m = (rs, name) => median(rs.map((r) => r[name]));
    console.log(`  ${latency} ms: requests at first screen ${ratio(m(e, "requests"), m(l, "requests"))}, first screen settled ${ratio(m(e, "firstScreen"), m(l, "firstScreen"))}, long task total ${ratio(m(e, "longTotal"), m(l, "longTotal"))}, badge's script most in a frame ${ratio(m(e, "badgeMost"), m(l, "badgeMost"))}, unknown ${m(e, "unknown")} / ${m(l, "unknown")}, requests after the jump ${m(e, "afterJump")} / ${m(l, "afterJump")}`);
  }
}
console.log(`load average at end ${load()}`);
