// The badge pinned to an operator's root key, in each engine, its markup
// unchanged throughout: by the module entry (`data-root-key` read by
// renderAll, the element's `root-key`) and by the script tag (embed.js, at
// the end of the body, and in the <head> as x402-verdict/seller's headHtml
// writes it; also badges added after the page loaded): human-backed under
// strict (which needs a valid signature) across three signing-key rotations
// and a root rotation of the real reference service; a verdict inlined with
// its certificate and roots is taken with no request; a root the
// certificate does not chain to reads unknown, the signature required.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ENGINES, launch } from "../support/browser.mjs";
import { fetched, startOrigin } from "../support/origin.mjs";
import { AGENT_PACKAGE, PACKAGE } from "../support/package.mjs";
import { attested } from "../support/reference-service.mjs";
import { STEPS, rootOperator } from "../support/root-operator.mjs";

const { headHtml } = await import(`${AGENT_PACKAGE}seller.js`);

const CHAIN = "base";
const PAY_TO = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
const resourceOf = (i) => `https://api.example.com/step-${i}`;

let operator, front, site;
const browsers = {};

before(async () => {
  operator = await rootOperator("badge", STEPS.map((_, i) => attested(CHAIN, PAY_TO, resourceOf(i))));
  [front, site] = await Promise.all([startOrigin(), startOrigin()]);
  front.upstream = operator.url;
  site.folders.set("/pkg/", PACKAGE);
  for (const engine of ENGINES) browsers[engine] = await launch(engine);
});

after(async () => {
  await Promise.all(Object.values(browsers).map((b) => b.close()));
  await Promise.all([operator?.stop(), front?.stop(), site?.stop()]);
});

const attribute = (text) => text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");

/** How a page loads the badge: the module entry; embed.js at the end of the body; embed.js in the head, its wasm preloaded (headHtml). */
const LOADERS = {
  module: { head: `<script type="module">import { renderAll } from "/pkg/index.js"; renderAll();</script>`, end: "" },
  script: { head: "", end: `<script src="/pkg/embed.js"></script>` },
  head: { head: headHtml({ badgeScriptUrl: "/pkg/embed.js" }), end: "" },
};

/** The page: a marked span for step `i`'s endpoint pinned to `rootKey`, strict, inlining `verdict` when given, loaded by `loader`. */
function page(i, rootKey, verdict, loader = "module") {
  const all = { "base-url": front.url, chain: CHAIN, "pay-to": PAY_TO, "resource-url": resourceOf(i), "root-key": rootKey, strict: "", ...(verdict ? { verdict } : {}) };
  const attributes = Object.entries(all).map(([k, v]) => `data-${k}="${attribute(v)}"`).join(" ");
  const element = `<x402-verdict-badge base-url="${front.url}" chain="${CHAIN}" pay-to="${PAY_TO}" resource-url="${resourceOf(i)}" root-key="${rootKey}" strict></x402-verdict-badge>`;
  const { head, end } = LOADERS[loader];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>pinned</title>${head}</head><body><span data-x402-verdict ${attributes}></span> ${verdict ? "" : element}${end}</body></html>`;
}

let pages = 0;

/** Opens `html` in `engine`; resolves to each badge's [state, reason] and the verdict requests the page made. */
async function open(engine, html, count) {
  const path = `/pinned${++pages}.html`;
  site.pages.set(path, html);
  const tab = await browsers[engine].newPage({ viewport: { width: 900, height: 600 } });
  try {
    await tab.goto(site.url + path);
    await tab.waitForFunction((n) => {
      const hosts = document.querySelectorAll("x402-verdict-view");
      return hosts.length >= n && [...hosts].every((h) => h.dataset.state !== "checking");
    }, count, { timeout: 15000 });
    await tab.waitForTimeout(300);
    const badges = await tab.$$eval("x402-verdict-view", (hosts) => hosts.map((h) => [h.dataset.state, h.dataset.reason ?? ""]));
    const wasms = (await fetched(tab, "_bg.wasm")).map((url) => url.slice(url.lastIndexOf("/") + 1));
    return { badges, requests: (await fetched(tab, "/v0/verdict")).length, wasms };
  } finally {
    await tab.close();
  }
}

/** The wasm each loader fetches: the script tag has one, whatever its badges pin. */
const WASM = { module: "x402_verdict_badge_bg.wasm", script: "x402_verdict_embed_bg.wasm", head: "x402_verdict_embed_bg.wasm" };

test("pinned to the root, the badge and the element read human-backed across every rotation, in each engine and loader", async () => {
  for (const [i, step] of STEPS.entries()) {
    await operator.step(i);
    for (const engine of ENGINES) {
      for (const loader of Object.keys(LOADERS)) {
        const { badges, wasms } = await open(engine, page(i, operator.rootKey, undefined, loader), 2);
        assert.deepEqual(badges, [["human-backed", ""], ["human-backed", ""]], `${engine}, ${loader}, ${step}`);
        assert.deepEqual([...new Set(wasms)], [WASM[loader]], `${engine}, ${loader}: one wasm`);
      }
    }
  }
});

test("by the script tag, badges added after the page has loaded pin their root too", async () => {
  // The page starts with no badge; a script adds both once it has loaded.
  const [, added] = /<body>(.*)<script src/s.exec(page(4, operator.rootKey, undefined, "script"));
  const later = `addEventListener("load", () => setTimeout(() => document.body.insertAdjacentHTML("beforeend", ${JSON.stringify(added)}), 300));`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>later</title></head><body><script src="/pkg/embed.js"></script><script>${later}</script></body></html>`;
  for (const engine of ENGINES) {
    const { badges, wasms } = await open(engine, html, 2);
    assert.deepEqual(badges, [["human-backed", ""], ["human-backed", ""]], engine);
    assert.deepEqual([...new Set(wasms)], ["x402_verdict_embed_bg.wasm"], engine);
  }
});

test("a verdict inlined with its certificate and roots is taken with no request; another root reads unknown", async () => {
  const query = new URLSearchParams({ chain: CHAIN, payTo: PAY_TO, resourceUrl: resourceOf(4) });
  const verdict = await (await fetch(`${operator.url}/v0/verdict?${query}`)).text();
  assert.ok(JSON.parse(verdict).roots, "certified by root version 2, it carries the roots");
  const other = await rootOperator("badge-other", []);
  for (const engine of ENGINES) {
    for (const loader of Object.keys(LOADERS)) {
      front.requests.length = 0;
      const inlined = await open(engine, page(4, operator.rootKey, verdict, loader), 1);
      // The preload hint and the fetch it serves are listed apart in some engines.
      assert.deepEqual({ ...inlined, wasms: [...new Set(inlined.wasms)] }, { badges: [["human-backed", ""]], requests: 0, wasms: [WASM[loader]] }, `${engine}, ${loader}`);
      assert.equal(front.requests.length, 0, `${engine}, ${loader}: no request reached the service`);
      const foreign = await open(engine, page(4, other.rootKey, undefined, loader), 2);
      assert.deepEqual(foreign.badges, [["unknown", "signature_required"], ["unknown", "signature_required"]], `${engine}, ${loader}`);
    }
  }
});
