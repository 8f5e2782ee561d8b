// Verdicts inlined in the page (data-verdict, the element's verdict
// attribute, renderBadge's and lookupVerdict's verdict option), in each
// engine: the badge uses a validly signed verdict for its own endpoint, at
// most MAX_INLINED_AGE_SECONDS old, with no request to the verification
// service, counted at the service (a front that passes every request on to
// the reference service) and in the page (its Resource Timing entries, so
// that an answer from the browser's HTTP cache counts too); anything else
// (tampered, old, about another resource, not JSON, larger than a fetched
// body may be) is looked up live, as if nothing were inlined. A verdict
// stapled to a 402 reaches the badge through endpointsFromPaymentRequired
// (each endpoint's verdict option) and is taken the same way.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { BIN, ENDPOINTS, demoKeys, startDemo } from "../../scripts/demo.mjs";
import { ENGINES, launch } from "../support/browser.mjs";
import { fetched, runModule, seen, startOrigin } from "../support/origin.mjs";
import { PACKAGE } from "../support/package.mjs";

let demo, service, site;
/** The verdicts the service signed for the demo endpoints, as it returned them (JSON text), by name. */
const verdicts = {};

before(async () => {
  [demo, service, site] = await Promise.all([startDemo({ www: false }), startOrigin(), startOrigin()]);
  service.upstream = demo.url;
  site.folders.set("/pkg/", PACKAGE);
  for (const name of ["verified", "revoked", "verifiedCaip"]) verdicts[name] = await verdictOf(ENDPOINTS[name]);
  // A seller forging a verdict for its unlisted endpoint from a verified one: the signature fails.
  verdicts.forged = verdicts.verified.replace(ENDPOINTS.verified.payTo, ENDPOINTS.noSignal.payTo).replace(ENDPOINTS.verified.resourceUrl, ENDPOINTS.noSignal.resourceUrl);
  // The verified endpoint's verdict, validly signed, issued two hours ago.
  const hoursAgo = (h) => new Date(Math.floor(Date.now() / 1000 - h * 3600) * 1000).toISOString().replace(/\.\d+Z$/, "Z");
  const { chain, payTo, resourceUrl } = ENDPOINTS.verified;
  const old = { v: 1, chain, payTo, resourceUrl, outcome: "human_backed", assuranceLevel: "G", verifiedAt: hoursAgo(2), recheckEveryHours: 24, issuedAt: hoursAgo(2) };
  verdicts.old = execFileSync(BIN, ["sign", "--keys", demoKeys(), "-"], { input: JSON.stringify(old) }).toString().trim();
});
after(() => Promise.all([demo?.stop(), service?.stop(), site?.stop()]));

/** The signed verdict for `endpoint` as the service returns it (asked directly, not through the counting front). */
async function verdictOf({ chain, payTo, resourceUrl }) {
  const response = await fetch(`${demo.url}/v0/verdict?${new URLSearchParams({ chain, payTo, resourceUrl })}`);
  assert.equal(response.status, 200);
  return response.text();
}

/** `text` as an HTML attribute's value. */
const attribute = (text) => text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");

/** A marked span for the demo endpoint `name` (badge options from `prefix`ed attributes), inlining `verdict` when given. */
function badge(name, verdict, { prefix = "data-", tag = "span" } = {}) {
  const { chain, payTo, resourceUrl } = ENDPOINTS[name];
  const all = { "base-url": service.url, chain, "pay-to": payTo, "resource-url": resourceUrl, "public-key": demo.publicKey, strict: "", ...(verdict === undefined ? {} : { verdict }) };
  const attributes = Object.entries(all).map(([k, v]) => `${prefix}${k}="${attribute(v)}"`).join(" ");
  return tag === "span" ? `<span data-x402-verdict ${attributes}></span>` : `<${tag} ${attributes}></${tag}>`;
}
const page = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>inlined</title><script src="/pkg/embed.js"></script></head><body>${body}</body></html>`;

let pages = 0;

for (const engine of ENGINES) describe(engine, () => {
  let browser;
  before(async () => { browser = await launch(engine); });
  after(() => browser?.close());

  /** Opens `html` from the site, waits for `count` badges to settle; resolves to their states and reasons, the verdict requests the service got and the page made, and what the probe saw. */
  async function open(html, count = 1) {
    const path = `/inline${++pages}.html`;
    site.pages.set(path, html);
    service.requests.length = 0;
    const tab = await browser.newPage({ viewport: { width: 900, height: 600 } });
    await tab.goto(site.url + path);
    await tab.waitForFunction((n) => {
      const hosts = document.querySelectorAll("x402-verdict-view");
      return hosts.length >= n && [...hosts].every((h) => h.dataset.state !== "checking");
    }, count, { timeout: 15000 });
    // Time for a request sent late to be seen.
    await tab.waitForTimeout(300);
    const badges = await tab.$$eval("x402-verdict-view", (hosts) => hosts.map((h) => [h.dataset.state, h.dataset.reason ?? ""]));
    const result = {
      tab,
      badges,
      atService: service.requests.filter((p) => p === "/v0/verdict").length,
      inPage: (await fetched(tab, "/v0/verdict")).length,
      seen: await seen(tab),
    };
    return result;
  }

  test("a valid inlined verdict renders with no request to the service: verified, and revoked", async () => {
    const { tab, badges, atService, inPage, seen } = await open(page(`${badge("verified", verdicts.verified)} ${badge("revoked", verdicts.revoked)}`), 2);
    assert.deepEqual(badges, [["human-backed", ""], ["revoked", "revoked"]]);
    assert.deepEqual({ atService, inPage }, { atService: 0, inPage: 0 });
    assert.deepEqual([seen.errors, seen.warnings], [[], []]);
    await tab.close();
  });

  test("the page's first badges in view render without waiting for an intersection report; one far below waits for its own", async () => {
    // Intersection reports withheld: what renders did not wait for one.
    site.init.push([() => {
      window.IntersectionObserver = class {
        observe() {}
        unobserve() {}
        disconnect() {}
      };
    }]);
    try {
      const below = `<div style="height: 4000px"></div>${badge("verifiedCaip", verdicts.verifiedCaip)}`;
      const path = `/inline${++pages}.html`;
      site.pages.set(path, page(`<p>${badge("verified", verdicts.verified)} ${badge("revoked", verdicts.revoked)}</p>${below}`));
      service.requests.length = 0;
      const tab = await browser.newPage({ viewport: { width: 900, height: 600 } });
      await tab.goto(site.url + path);
      await tab.waitForFunction(() => [...document.querySelectorAll("x402-verdict-view")].filter((h) => h.dataset.state !== "checking").length >= 2, null, { timeout: 15000 });
      await tab.waitForTimeout(300);
      const badges = await tab.$$eval("[data-x402-verdict]", (spans) => spans.map((s) => s.firstElementChild?.dataset.state ?? "none"));
      assert.deepEqual(badges, ["human-backed", "revoked", "checking"], "the two in view rendered; the one 4000 px below waits to come near the viewport");
      assert.equal(service.requests.filter((p) => p === "/v0/verdict").length, 0);
      await tab.close();
    } finally {
      site.init.pop();
    }
  });

  test("a forged inlined verdict never reads verified: the service is asked, and answers unlisted", async () => {
    const { tab, badges, inPage } = await open(page(badge("noSignal", verdicts.forged)));
    assert.deepEqual(badges, [["unknown", "not_listed"]]);
    assert.equal(inPage, 1);
    await tab.close();
  });

  test("inlined verdicts that cannot stand in are looked up live: two hours old, another resource, not JSON", async () => {
    const html = page([
      badge("verified", verdicts.old),
      badge("verifiedCaip", verdicts.verified),
      badge("revoked", "{not json"),
    ].join(" "));
    const { tab, badges, inPage, seen } = await open(html, 3);
    assert.deepEqual(badges, [["human-backed", ""], ["human-backed", ""], ["revoked", "revoked"]]);
    assert.equal(inPage, 3, "one live request for each");
    assert.deepEqual([seen.errors, seen.warnings], [[], []], "no page error, no warning");
    await tab.close();
  });

  test("the element, renderBadge and lookupVerdict take the verdict as the script tag does; a listing may inline some badges and fetch others", async () => {
    const html = page(`${badge("verified", verdicts.verified, { prefix: "", tag: "x402-verdict-badge" })} ${badge("verifiedCaip")}`);
    const { tab, badges, atService, inPage } = await open(html, 2);
    assert.deepEqual(badges, [["human-backed", ""], ["human-backed", ""]]);
    assert.equal(inPage, 1, "the badge without a verdict alone asks");
    // Answered by the browser's HTTP cache where an earlier test asked for the same endpoint (max-age=60).
    assert.ok(atService <= 1);
    const { chain, payTo, resourceUrl } = ENDPOINTS.revoked;
    const options = { baseUrl: service.url, chain, payTo, resourceUrl, publicKey: demo.publicKey, strict: true, verdict: verdicts.revoked };
    const api = await runModule(tab, site, async (options) => {
      const { renderBadge, lookupVerdict } = await import("/pkg/index.js");
      const here = document.body.appendChild(document.createElement("p"));
      const tampered = { ...options, verdict: options.verdict.replace('"revoked"', '"human_backed"') };
      return {
        rendered: await renderBadge(here, options),
        looked: (await lookupVerdict(options)).state,
        tampered: (await lookupVerdict(tampered)).state,
        notText: (await lookupVerdict({ ...options, verdict: { verdict: {} } })).detail,
      };
    }, options);
    assert.deepEqual(api, { rendered: "revoked", looked: "revoked", tampered: "revoked", notText: "verdict must be a string" });
    assert.equal((await fetched(tab, "/v0/verdict")).length, 2, "the tampered verdict alone was looked up live");
    await tab.close();
  });

  test("a 402's stapled verdicts: endpointsFromPaymentRequired gives each option's, and renderBadge renders from it with no request; one padded to 10 MB is looked up live", async () => {
    const { tab } = await open(page(badge("verified", verdicts.verified)));
    const stapled = ENDPOINTS.verifiedCaip;
    const unstapled = ENDPOINTS.noSignal;
    const option = ({ chain, payTo }) => ({ scheme: "exact", network: chain === "base" ? "eip155:8453" : chain, amount: "10000", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", payTo, maxTimeoutSeconds: 60, extra: {} });
    // Two options of one resource: the first stapled, the second not (both named at the stapled one's resource).
    const challenge = {
      x402Version: 2, resource: { url: stapled.resourceUrl, description: "", mimeType: "application/json" },
      accepts: [option(stapled), option(unstapled)],
      extensions: { "x402-verdict": { info: { verdicts: [JSON.parse(verdicts.verifiedCaip)] } } },
    };
    const keys = { baseUrl: service.url, publicKey: demo.publicKey, strict: true };
    const padded = verdicts.verified.replace("{", `{${" ".repeat(10 << 20)}`);
    const api = await runModule(tab, site, async ({ challenge, keys, padded, verified }) => {
      const { endpointsFromPaymentRequired, renderBadge } = await import("/pkg/index.js");
      const header = btoa(JSON.stringify(challenge));
      const fromObject = await endpointsFromPaymentRequired(challenge);
      const fromHeader = await endpointsFromPaymentRequired(header);
      const before = performance.getEntriesByType("resource").filter((e) => e.name.includes("/v0/verdict")).length;
      const staple = document.body.appendChild(document.createElement("p"));
      const rendered = await renderBadge(staple, { ...fromHeader.endpoints[0], ...keys });
      const afterStaple = performance.getEntriesByType("resource").filter((e) => e.name.includes("/v0/verdict")).length;
      const large = await renderBadge(document.body.appendChild(document.createElement("p")), { ...verified, ...keys, verdict: padded });
      return {
        same: JSON.stringify(fromObject) === JSON.stringify(fromHeader),
        verdicts: fromHeader.endpoints.map((e) => typeof e.verdict),
        rendered, requests: afterStaple - before, large,
      };
    }, { challenge, keys, padded, verified: { chain: ENDPOINTS.verified.chain, payTo: ENDPOINTS.verified.payTo, resourceUrl: ENDPOINTS.verified.resourceUrl } });
    assert.deepEqual(api, { same: true, verdicts: ["string", "undefined"], rendered: "human-backed", requests: 0, large: "human-backed" });
    const live = await fetched(tab, "/v0/verdict");
    assert.equal(live.filter((url) => url.includes(encodeURIComponent(ENDPOINTS.verified.payTo))).length, 1, "the padded verdict was looked up live");
    await tab.close();
  });
});
