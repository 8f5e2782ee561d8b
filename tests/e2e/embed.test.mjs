// The badge on pages written outside this repository, served from another
// origin than the verification service (two loopback servers on different
// ports), in each engine (Chromium, Firefox, WebKit: tests/support/browser.mjs):
// the script-tag loader (classic and module, from the site or a CDN), the
// Content-Security-Policy recipes of docs/embedding.md
// copied verbatim, the JavaScript build when the wasm cannot run, the
// <x402-verdict-badge> element and late elements, and the JS API on
// containers of every kind.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { startDemo, ENDPOINTS } from "../../scripts/demo.mjs";
import { ENGINES, launch } from "../support/browser.mjs";
import { fetched, fetchedCount, runModule, seen as probed, startOrigin } from "../support/origin.mjs";
import { PACKAGE } from "../support/package.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const ARTIFACTS = `${ROOT}test-artifacts/`;
let demo, site, cdn;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [demo, site, cdn] = await Promise.all([startDemo({ www: false }), startOrigin(), startOrigin()]);
  for (const origin of [site, cdn]) origin.folders.set("/pkg/", PACKAGE);
  cdn.cors = true;
});
after(() => Promise.all([demo?.stop(), site?.stop(), cdn?.stop()]));

/** Attributes for a demo endpoint, with the given prefix (`data-` for marked spans). */
function attributes(name, prefix = "data-", extra = {}) {
  const { chain, payTo, resourceUrl } = ENDPOINTS[name];
  const all = { "base-url": demo.url, chain, "pay-to": payTo, "resource-url": resourceUrl, "public-key": demo.publicKey, ...extra };
  return Object.entries(all).map(([k, v]) => (v === true ? `${prefix}${k}` : `${prefix}${k}="${v}"`)).join(" ");
}
const marked = (name, extra) => `<span data-x402-verdict ${attributes(name, "data-", extra)}></span>`;
const page = (body, head = "") => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>${head}</head><body>${body}</body></html>`;

let pageCount = 0;

/** What the page's probe saw: warnings, errors, CSP violations, and the verdict requests made. */
async function look(tab) {
  const seen = await probed(tab);
  seen.verdicts = (await fetched(tab, "/v0/verdict")).length;
  return seen;
}

for (const engine of ENGINES) describe(engine, () => {
let browser;
before(async () => { browser = await launch(engine); });
after(() => browser?.close());

/** Serves `html` from `site` (with `csp`, the probe from `probe`), opens it; `seen()` reads what happened in it. */
async function open(html, { csp = null, init, origin = site, probe = "/__probe.js" } = {}) {
  const path = `/p${++pageCount}.html`;
  origin.pages.set(path, html);
  origin.csp = csp;
  origin.init = init ? [[init]] : [];
  origin.probe = probe;
  const tab = await browser.newPage({ viewport: { width: 900, height: 600 } });
  await tab.goto(origin.url + path);
  return { tab, seen: () => look(tab) };
}

/** Waits until `count` badges have settled, then reads every badge: state, label, hover text. */
async function settled(tab, count = 1, shot) {
  await tab.waitForFunction((n) => {
    const hosts = document.querySelectorAll("x402-verdict-view");
    return hosts.length >= n && [...hosts].every((h) => h.dataset.state !== "checking");
  }, count, { timeout: 15000 });
  if (shot) await tab.screenshot({ path: `${ARTIFACTS}embed-${engine}-${shot}.png` });
  return tab.$$eval("x402-verdict-view", (hosts) => hosts.map((h) => ({
    state: h.dataset.state,
    label: h.shadowRoot.querySelector(".label").textContent,
    tip: h.shadowRoot.querySelector(".tip").textContent,
    styled: getComputedStyle(h.shadowRoot.querySelector(".badge")).display === "inline-flex",
  })));
}

const states = (badges) => badges.map((b) => b.state);

/** The badge's wasm: the script tag's (renderBadge alone), and the module entry's. */
const EMBED_WASM = "/pkg/x402_verdict_embed_bg.wasm";
const MODULE_WASM = "/pkg/x402_verdict_badge_bg.wasm";
/** The address a live snapshot says a listed resource asks now, instead of its listed one. */
const OTHER_PAY_TO = "0x7777777777777777777777777777777777777777";

/** Runs `run` while the badge's wasm, either, arrives 1.5 s late; resolves to what it gives. */
async function withWasmLate(run) {
  for (const wasm of [EMBED_WASM, MODULE_WASM]) site.delays.set(wasm, 1500);
  try {
    return await run();
  } finally {
    for (const wasm of [EMBED_WASM, MODULE_WASM]) site.delays.delete(wasm);
  }
}

describe("script-tag loader", () => {
  test("a classic script tag (no type=module) renders every badge", async () => {
    const { tab, seen } = await open(page(`<p>${marked("verified")} ${marked("revoked")}</p><script src="/pkg/embed.js"></script>`));
    const badges = await settled(tab, 2, "classic");
    assert.deepEqual(states(badges), ["human-backed", "revoked"]);
    assert.equal(badges[0].label, "verified · G");
    assert.ok(badges.every((b) => b.styled));
    const files = (await fetched(tab, "/pkg/")).map((url) => new URL(url).pathname).sort();
    assert.deepEqual(files, ["/pkg/embed.js", EMBED_WASM], "a page of badges loads the loader and its wasm, and nothing else of the package");
    const { errors, warnings } = await seen();
    assert.deepEqual([errors, warnings], [[], []]);
    await tab.close();
  });

  test("attribute texts are read by the core: a list of keys, strict, a timeout with spaces, a timeout refused", async () => {
    // RFC 8032's first test key: a valid key that signed nothing here.
    const other = "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=";
    const spans = [
      marked("verified", { "public-key": `${other}, ${demo.publicKey}`, strict: true }),
      marked("verified", { "public-key": other, strict: true }),
      marked("verified", { "timeout-ms": " 5000 " }),
      marked("verified", { "timeout-ms": "soon" }),
    ];
    const { tab } = await open(page(`${spans.join(" ")}<script src="/pkg/embed.js"></script>`));
    await settled(tab, 4);
    const shown = await tab.$$eval("x402-verdict-view", (hosts) => hosts.map((h) => [h.dataset.state, h.dataset.reason ?? ""]));
    assert.deepEqual(shown.map(([state]) => state), ["human-backed", "unknown", "human-backed", "unknown"]);
    assert.match(shown[1][1], /^signature_/, "strict, and no trusted key signed it");
    assert.equal(shown[3][1], "invalid_input");
    await tab.close();
  });

  test("the wasm 1.5 s late: each timeout counts from the badge's ask, its attribute's, not the default", async () => {
    // The slow service: the demo's answers, passed on by the CDN origin 3.5 s
    // late, with the demo's own CORS headers (not the CDN's beside them).
    cdn.proxy = demo.url;
    cdn.cors = false;
    cdn.delays.set("/v0/verdict", 3500);
    try {
      await withWasmLate(async () => {
        const spans = [
          marked("verified", { "base-url": cdn.url, "timeout-ms": "1000" }),
          // Answered at once, but its 1 s had run out when the wasm came.
          marked("verified", { "timeout-ms": "1000" }),
          // Past the default 3 s, within its own 5 s.
          marked("verified", { "base-url": cdn.url, "timeout-ms": "5000" }),
        ];
        const { tab } = await open(page(`${spans.join(" ")}<script src="/pkg/embed.js"></script>`));
        await settled(tab, 3);
        const shown = await tab.$$eval("x402-verdict-view", (hosts) => hosts.map((h) => [h.dataset.state, h.dataset.reason ?? ""]));
        assert.deepEqual(shown, [["unknown", "timeout"], ["unknown", "timeout"], ["human-backed", ""]]);
        await tab.close();
      });
    } finally {
      cdn.proxy = null;
      cdn.cors = true;
      cdn.delays.clear();
    }
  });

  test("a module script tag from a CDN folder renders, the wasm resolved next to the loader", async () => {
    const { tab, seen } = await open(page(`${marked("verified")}<script type="module" src="${cdn.url}/pkg/embed.js"></script>`));
    assert.deepEqual(states(await settled(tab)), ["human-backed"]);
    assert.ok(cdn.requests.includes(EMBED_WASM), "the wasm came from the CDN folder");
    const { errors, warnings } = await seen();
    assert.deepEqual([errors, warnings], [[], []]);
    await tab.close();
  });

  test("the verdict request goes out while the wasm downloads, and is the badge's only one", async () => {
    await withWasmLate(async () => {
      const { tab, seen } = await open(page(`${marked("verified")}<script src="/pkg/embed.js"></script>`));
      assert.deepEqual(states(await settled(tab)), ["human-backed"]);
      const [verdicts, wasms] = await tab.evaluate(() => ["/v0/verdict", "_bg.wasm"].map((part) => performance.getEntriesByType("resource").filter((e) => e.name.includes(part))));
      assert.equal(verdicts.length, 1, "one request for the badge, taken by the wasm");
      assert.equal(wasms.length, 1);
      assert.ok(verdicts[0].startTime < wasms[0].responseStart, `the verdict was asked at ${verdicts[0].startTime} ms, before the wasm's first byte at ${wasms[0].responseStart} ms`);
      const { errors, warnings } = await seen();
      assert.deepEqual([errors, warnings], [[], []]);
      await tab.close();
    });
  });

  test("100 eager badges, the wasm 1.5 s late: the first verdict requests leave in the loader's own task, one per endpoint", async () => {
    await withWasmLate(async () => {
      const { resourceUrl } = ENDPOINTS.verified;
      const rows = Array.from({ length: 100 }, (_, i) => `<div>${marked("verified", { "resource-url": `${resourceUrl}/${i % 50}`, loading: "eager" })}</div>`);
      // When each verdict request is sent (fetch called: a resource timing entry's startTime is when the
      // engine's network side began, which WebKit may stamp later, out of the page's hands).
      const init = () => {
        const send = window.fetch;
        window.__asked = [];
        window.fetch = function (input) {
          if (String(input?.url ?? input).includes("/v0/verdict")) window.__asked.push(performance.now());
          return send.apply(this, arguments);
        };
      };
      // The next script runs once the loader's task (and its microtasks) is done.
      const { tab } = await open(page(`${rows.join("")}<script src="/pkg/embed.js"></script><script>window.afterLoader = performance.now();</script>`), { init });
      await settled(tab, 100);
      const { afterLoader, asked, requests } = await tab.evaluate(() => ({
        afterLoader: window.afterLoader,
        asked: window.__asked,
        requests: performance.getEntriesByType("resource").filter((e) => e.name.includes("/v0/verdict")).length,
      }));
      assert.equal(requests, 50, "one request per endpoint");
      assert.equal(asked.length, 50, "each sent once");
      const first = asked.filter((t) => t <= afterLoader).length;
      assert.ok(first >= 4, `${first} requests sent before the loader's task ended at ${afterLoader} ms (first at ${Math.min(...asked)} ms)`);
      await tab.close();
    });
  });

  test("a CDN without CORS: a classic loader shows unknown and says why; a module loader cannot run at all", async () => {
    cdn.cors = false;
    try {
      const classic = await open(page(`${marked("verified")}<script src="${cdn.url}/pkg/embed.js"></script>`));
      const [badge] = await settled(classic.tab, 1, "cdn-without-cors");
      assert.deepEqual([badge.state, badge.label], ["unknown", "unknown"]);
      assert.match(badge.tip, /could not load/);
      const { warnings } = await classic.seen();
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0], /Access-Control-Allow-Origin/);
      // explain.js cannot load from there either: the wasm's own error says why.
      assert.match(warnings[0], /x402_verdict_embed_bg\.wasm: /);
      await classic.tab.close();
      // The browser refuses a cross-origin module script without CORS before
      // any of its code runs: nothing can draw (docs/embedding.md says so).
      const module = await open(page(`${marked("verified")}<script type="module" src="${cdn.url}/pkg/embed.js"></script>`));
      await module.tab.waitForTimeout(500);
      assert.equal(await module.tab.$$eval("x402-verdict-view", (h) => h.length), 0);
      await module.tab.close();
    } finally {
      cdn.cors = true;
    }
  });

  /**
   * Opens a line with a badge whose wasm arrives 1.5 s late, `init` run first in the page; resolves
   * to the tab, once the badge has settled (human-backed), and what the page's probe saw.
   */
  async function lateWasm(init) {
    site.delays.set(EMBED_WASM, 1500);
    try {
      const body = `<p id="line">Operator verification: ${marked("verified")} <span id="after">and the rest of the line.</span></p><p id="next">Next paragraph.</p>`;
      const { tab, seen } = await open(page(body, `<script src="/pkg/embed.js"></script>`), { init });
      const [badge] = await settled(tab, 1, "late-wasm");
      assert.equal(badge.state, "human-backed");
      assert.deepEqual((await seen()).errors, []);
      return tab;
    } finally {
      site.delays.clear();
    }
  }

  test("the wasm arriving 1.5 s late: the placeholder in every frame from the first, and nothing on its line moves", async () => {
    // Each animation frame from the first with the marked span parsed, until one after the badge
    // settled: the badge's state and box, and (once the parser is past the line: Chromium runs
    // frames it does not paint while it parses) where the rest of the line and the next paragraph lie.
    const tab = await lateWasm(() => {
      const frames = (window.__frames = []);
      const box = (el) => el && [...Object.values(el.getBoundingClientRect().toJSON())].map((n) => Math.round(n * 4) / 4);
      requestAnimationFrame(function frame() {
        const span = document.querySelector("#line [data-x402-verdict]");
        const host = span?.querySelector("x402-verdict-view");
        const next = document.getElementById("next");
        const words = host && [".label", ".tip"].map((part) => host.shadowRoot.querySelector(part).textContent).concat(host.shadowRoot.querySelector(".badge").getAttribute("aria-label"));
        if (span) frames.push({ state: host?.dataset.state ?? "none", words, layout: next && JSON.stringify([box(host), box(document.getElementById("after")), box(next)]) });
        if (frames.filter((f) => f.state === "human-backed").length < 2) requestAnimationFrame(frame);
      });
    });
    await tab.waitForFunction(() => window.__frames.filter((f) => f.state === "human-backed").length === 2);
    const frames = await tab.evaluate(() => window.__frames);
    assert.equal(frames[0].state, "checking", "the first frame that shows the line shows the placeholder, before the wasm arrived");
    assert.deepEqual([...new Set(frames.map((f) => f.state))], ["checking", "human-backed"]);
    const layouts = [...new Set(frames.map((f) => f.layout).filter(Boolean))];
    assert.equal(layouts.length, 1, `the badge, the rest of its line and the next paragraph never move: ${layouts.join(" then ")}`);
    assert.ok(frames.find((f) => f.layout).state === "checking", "the line was laid out whole before the wasm arrived");
    const [[, , width]] = JSON.parse(layouts[0]);
    assert.ok(width > 50, `width ${width}`);
    // The loader drew that placeholder before the wasm arrived; the wasm draws its own (the glue's
    // renderBadge, read as it returns, before any answer): the same words, the core's.
    const drawnByWasm = await runModule(tab, site, async () => {
      const glue = await import("/pkg/x402_verdict_badge.js");
      await glue.default();
      const container = document.body.appendChild(document.createElement("span"));
      glue.renderBadge(container, { baseUrl: location.origin, chain: "base", payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", resourceUrl: "https://a.example/x" });
      const root = container.firstElementChild.shadowRoot;
      return [".label", ".tip"].map((part) => root.querySelector(part).textContent).concat(root.querySelector(".badge").getAttribute("aria-label"));
    });
    assert.deepEqual(frames[0].words, drawnByWasm);
    assert.equal(drawnByWasm[2], `x402 verification: ${drawnByWasm[0]}`);
    await tab.close();
  });

  // Firefox and WebKit have no first-paint entry and no Layout Instability API (layout-shift entries): the test above
  // asserts the same frame by frame in every engine.
  test("the wasm arriving 1.5 s late: the placeholder is in the first paint, and no layout shift", { skip: engine !== "chromium" && `${engine} has no first-paint entry and no layout-shift entries (the frame-by-frame test above runs here)` }, async () => {
    const tab = await lateWasm(() => {
      window.__shift = 0;
      new PerformanceObserver((list) => list.getEntries().forEach((e) => { window.__shift += e.value; })).observe({ type: "layout-shift", buffered: true });
      new MutationObserver(() => {
        if (!window.__drawn && document.querySelector("x402-verdict-view")) window.__drawn = performance.now();
      }).observe(document, { childList: true, subtree: true });
    });
    const { drawn, paint, shift } = await tab.evaluate(() => ({
      drawn: window.__drawn,
      paint: performance.getEntriesByName("first-paint")[0]?.startTime,
      shift: window.__shift,
    }));
    assert.ok(paint > 0 && drawn <= paint, `placeholder drawn at ${drawn} ms, first paint at ${paint} ms`);
    assert.ok(paint < 1500, "the page painted before the wasm arrived");
    assert.equal(shift, 0, "no layout shift from placeholder to badge");
    await tab.close();
  });
});

describe("when the wasm cannot run, the JavaScript build renders, signatures checked", () => {
  /** Opens a page with a plain, a strict, a revoked and a tampered badge; returns its one warning. */
  async function jsBuild(options, shot) {
    const { tab, seen } = await open(page(`${marked("verified")} ${marked("verified", { strict: true })} ${marked("revoked")} ${marked("tampered")}<script src="/pkg/embed.js"></script>`), options);
    const badges = await settled(tab, 4, shot);
    const files = await tab.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name.slice(e.name.lastIndexOf("/") + 1)));
    const { errors, warnings } = await seen();
    await tab.close();
    assert.deepEqual(states(badges), ["human-backed", "human-backed", "revoked", "unknown"]);
    assert.match(badges[0].tip, /Last verified/);
    assert.match(badges[3].tip, /signature failed to verify/);
    assert.ok(badges.every((b) => b.styled));
    assert.ok(files.includes("x402_verdict_badge_js.js"), "the JavaScript build ran");
    assert.deepEqual(errors, []);
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0], /JavaScript build of the same code/);
    return warnings[0];
  }

  test("a Content-Security-Policy without 'wasm-unsafe-eval'", async () => {
    const warning = await jsBuild({ csp: `script-src 'self'; connect-src 'self' ${demo.url}` }, "js-build-csp");
    assert.match(warning, /add 'wasm-unsafe-eval' to script-src/);
  });

  test("the first CSP recipe as many paste it: connect-src without the package's origin", async () => {
    const warning = await jsBuild({ csp: `script-src 'self' 'wasm-unsafe-eval'; connect-src ${demo.url}` }, "js-build-connect-src");
    assert.match(warning, /could not be fetched: allow its origin in the Content-Security-Policy's connect-src/);
  });

  test("the .wasm file missing (404)", async () => {
    site.statuses.set(EMBED_WASM, 404);
    try {
      assert.match(await jsBuild({}, "js-build-404"), /HTTP 404/);
    } finally {
      site.statuses.clear();
    }
  });

  test("the .wasm file and explain.js missing: the JavaScript build runs, and the warning still names the wasm and its status", async () => {
    site.statuses.set(EMBED_WASM, 404);
    site.statuses.set("/pkg/explain.js", 404);
    try {
      const { tab, seen } = await open(page(`${marked("verified")}<script src="/pkg/embed.js"></script>`));
      const [badge] = await settled(tab, 1, "js-build-unexplained");
      const { warnings } = await seen();
      await tab.close();
      assert.equal(badge.state, "human-backed");
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0], /x402_verdict_embed_bg\.wasm: HTTP 404/);
    } finally {
      site.statuses.clear();
    }
  });

  test("WebAssembly disabled (as in iOS Lockdown Mode)", async () => {
    const warning = await jsBuild({ init: () => { delete globalThis.WebAssembly; } }, "js-build-no-wasm");
    assert.match(warning, /WebAssembly is unavailable/);
  });
});

describe("Content-Security-Policy recipes, copied from docs/embedding.md", () => {
  const embedding = readFileSync(`${ROOT}docs/embedding.md`, "utf8");
  const recipes = [...embedding.matchAll(/<!-- csp: ([\w-]+) -->\s*```\n([^\n]+)\n```/g)].map(([, name, policy]) => ({ name, policy }));

  test("docs/embedding.md gives three recipes", () => {
    assert.deepEqual(recipes.map((r) => r.name), ["same-origin", "service-elsewhere", "cdn"]);
  });

  for (const name of ["same-origin", "service-elsewhere", "cdn"]) {
    test(`${name}: the badge renders verified, no violation`, async () => {
      const { policy } = recipes.find((r) => r.name === name);
      const csp = policy.replaceAll("https://verify.example", demo.url).replaceAll("https://cdn.example", cdn.url);
      // Same origin: the site passes the verdict path on to the service.
      const base = name === "same-origin" ? site.url : demo.url;
      if (name === "same-origin") site.proxy = demo.url;
      const loader = name === "cdn" ? `${cdn.url}/pkg/embed.js` : "/pkg/embed.js";
      // The policy allows scripts from the CDN only: the probe comes from there too.
      const probe = name === "cdn" ? `${cdn.url}/__probe.js` : "/__probe.js";
      try {
        const { tab, seen } = await open(page(`${marked("verified", { "base-url": base })}<script src="${loader}"></script>`), { csp, probe });
        const [badge] = await settled(tab, 1, `csp-${name}`);
        assert.equal(badge.state, "human-backed");
        assert.ok(badge.styled);
        const { errors, warnings, violations } = await seen();
        assert.deepEqual([violations, errors, warnings], [[], [], []]);
        await tab.close();
      } finally {
        site.proxy = null;
      }
    });
  }

  test("the CDN recipe without 'wasm-unsafe-eval', embed.js by a plain script tag: the JavaScript build renders from the CDN, and the warning says what to add", async () => {
    const policy = [...readFileSync(`${ROOT}docs/embedding.md`, "utf8").matchAll(/<!-- csp: cdn -->\s*```\n([^\n]+)\n```/g)][0][1];
    const csp = policy.replace(" 'wasm-unsafe-eval'", "").replaceAll("https://verify.example", demo.url).replaceAll("https://cdn.example", cdn.url);
    const { tab, seen } = await open(page(`${marked("verified")}<script src="${cdn.url}/pkg/embed.js"></script>`), { csp, probe: `${cdn.url}/__probe.js` });
    const [badge] = await settled(tab, 1, "csp-cdn-no-wasm");
    const { warnings } = await seen();
    await tab.close();
    assert.equal(badge.state, "human-backed");
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0], /add 'wasm-unsafe-eval' to script-src.*JavaScript build of the same code/);
  });
});

describe("dynamic pages", () => {
  test("badges added 500 ms after load, as spans and as <x402-verdict-badge>, render; attribute changes re-render once", async () => {
    const { tab, seen } = await open(page(`<div id="later"></div><script src="/pkg/embed.js"></script>`));
    await tab.waitForTimeout(500);
    await tab.evaluate(([span, element]) => {
      document.getElementById("later").innerHTML = `<p>${span}</p><p><x402-verdict-badge id="el" ${element}></x402-verdict-badge></p>`;
      window.__events = [];
      document.addEventListener("x402-verdict:state", (e) => window.__events.push(e.detail.state));
    }, [marked("verified"), attributes("revoked", "")]);
    assert.deepEqual(states(await settled(tab, 2, "added-later")), ["human-backed", "revoked"]);
    assert.equal(await tab.$eval("#el", (el) => el.state), "revoked");
    const before = await fetchedCount(tab, "/v0/verdict", 2);
    // The same value again, then an endpoint change: one render, and no
    // request, since the span above asked for that endpoint and its answer is kept.
    const { resourceUrl, payTo } = ENDPOINTS.verified;
    await tab.$eval("#el", (el, [r, p]) => {
      el.setAttribute("chain", el.getAttribute("chain"));
      el.setAttribute("resource-url", r);
      el.setAttribute("pay-to", p);
    }, [resourceUrl, payTo]);
    await tab.waitForFunction(() => document.getElementById("el").state === "human-backed");
    assert.equal((await seen()).verdicts - before, 0);
    // A property set from JS (as React 19 and Vue do) re-renders; the same value does not.
    await tab.$eval("#el", (el) => { el.strict = true; });
    await tab.waitForFunction(() => window.__events.length === 3);
    await tab.$eval("#el", (el) => { el.strict = true; });
    await tab.waitForTimeout(300);
    assert.deepEqual(await tab.evaluate(() => window.__events), ["revoked", "human-backed", "human-backed"]);
    const after = await seen();
    assert.equal(after.verdicts - before, 0, "every re-render took the kept answer");
    assert.deepEqual(after.errors, []);
    await tab.close();
  });
});

describe("the JS API never throws and never hangs", () => {
  // Run as a module script of the page (runModule): a WebDriver script's import() in Firefox
  // loads a second copy of the package in the driver's sandbox, whose fetch answers fail the
  // package's checks (every call settled unknown, network_error).
  test("before init, in template and DOMParser documents, an iframe, a container appended later, any ParentNode", async () => {
    const { chain, payTo, resourceUrl } = ENDPOINTS.verified;
    const options = { baseUrl: demo.url, chain, payTo, resourceUrl, publicKey: demo.publicKey };
    const { tab, seen } = await open(page(`<div id="here"></div><iframe id="frame" srcdoc="<p id=in></p>"></iframe>
<template id="tpl"><span id="in-template"></span></template><div id="marked"></div>`));
    // A boolean: WebKitWebDriver cannot send back an element of another frame ("cannot serialize cyclic structures").
    await tab.waitForFunction(() => Boolean(document.getElementById("frame").contentDocument?.getElementById("in")));
    const result = await runModule(tab, site, async ([options, marked]) => {
      // No init(): the first call loads the wasm itself.
      const { renderBadge, renderAll, lookupVerdict } = await import("/pkg/index.js");
      const template = document.getElementById("tpl").content.getElementById("in-template");
      const parsed = new DOMParser().parseFromString("<p id=parsed></p>", "text/html").getElementById("parsed");
      const framed = document.getElementById("frame").contentDocument.getElementById("in");
      const later = document.createElement("span");
      const calls = {
        here: renderBadge(document.getElementById("here"), options),
        template: renderBadge(template, options),
        parsed: renderBadge(parsed, options),
        framed: renderBadge(framed, options),
        later: renderBadge(later, options),
        none: renderBadge(null, options),
        text: renderBadge(document.createTextNode("x"), options),
        bad: renderBadge(document.getElementById("marked"), { chain: 5 }),
        lookup: lookupVerdict(options).then((r) => r.state),
      };
      const timeout = new Promise((done) => setTimeout(() => done("hung"), 10000));
      const settledStates = {};
      for (const [name, promise] of Object.entries(calls)) settledStates[name] = await Promise.race([promise, timeout]);
      // Attached afterwards: each shows, styled by its new document's sheet.
      document.body.append(later, document.getElementById("tpl").content, parsed);
      const shadowHost = document.createElement("div");
      document.body.append(shadowHost);
      const root = shadowHost.attachShadow({ mode: "open" });
      root.innerHTML = marked;
      const fragment = document.createDocumentFragment();
      fragment.append(document.createRange().createContextualFragment(marked));
      const all = { shadow: await renderAll(root), fragment: await renderAll(fragment) };
      // The same options again: nothing is drawn anew (a render would show "checking" at once).
      const again = renderAll(root);
      all.untouched = root.querySelector("x402-verdict-view").dataset.state;
      all.again = await again;
      all.nothing = await renderAll(42);
      const look = (host) => ({
        state: host.dataset.state,
        label: host.shadowRoot.querySelector(".label").textContent,
        display: getComputedStyle(host.shadowRoot.querySelector(".badge")).display,
        sheets: host.shadowRoot.adoptedStyleSheets.length,
      });
      const hostIn = (el) => el.querySelector("x402-verdict-view");
      return {
        settledStates,
        all,
        shown: {
          later: look(hostIn(later)),
          template: look(hostIn(document.getElementById("in-template"))),
          parsed: look(hostIn(document.getElementById("parsed"))),
          framed: look(hostIn(framed)),
          sameSheet: hostIn(document.getElementById("here")).shadowRoot.adoptedStyleSheets[0] === hostIn(later).shadowRoot.adoptedStyleSheets[0],
          frameSheet: hostIn(framed).shadowRoot.adoptedStyleSheets[0] !== hostIn(later).shadowRoot.adoptedStyleSheets[0],
        },
      };
    }, [options, marked("verified")]);
    await tab.screenshot({ path: `${ARTIFACTS}embed-${engine}-api.png`, fullPage: true });
    const verified = "human-backed";
    assert.deepEqual(result.settledStates, {
      here: verified, template: verified, parsed: verified, framed: verified, later: verified,
      none: "unknown", text: "unknown", bad: "unknown", lookup: verified,
    });
    assert.deepEqual(result.all, { shadow: [verified], fragment: [verified], untouched: verified, again: [verified], nothing: [] });
    for (const name of ["later", "template", "parsed", "framed"]) {
      assert.deepEqual(result.shown[name], { state: verified, label: "verified · G", display: "inline-flex", sheets: 1 }, name);
    }
    assert.ok(result.shown.sameSheet, "one stylesheet per document");
    assert.ok(result.shown.frameSheet, "the iframe's document has its own");
    assert.deepEqual((await seen()).errors, []);
    await tab.close();
  });

  /** A v2 challenge's PAYMENT-REQUIRED header for the demo's verified endpoint. */
  function paymentRequired() {
    const { chain, payTo, resourceUrl } = ENDPOINTS.verified;
    const accepts = [{ scheme: "exact", network: chain, amount: "1000", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", payTo, maxTimeoutSeconds: 60 }];
    return Buffer.from(JSON.stringify({ x402Version: 2, resource: { url: resourceUrl }, accepts })).toString("base64");
  }

  /** A discovery listing page of two items, the second without accepts, for the demo's verified endpoint. */
  function discoveryPage() {
    const { chain, payTo, resourceUrl } = ENDPOINTS.verified;
    const accepts = [{ scheme: "exact", network: chain, amount: "1000", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", payTo, maxTimeoutSeconds: 60, extra: {} }];
    const item = { resource: resourceUrl, type: "http", x402Version: 2, accepts, lastUpdated: "2026-11-30T12:00:00Z" };
    return { x402Version: 2, items: [item, { ...item, accepts: undefined }], pagination: { limit: 2, offset: 0, total: 2 } };
  }

  /**
   * A live snapshot (scan --live --json's rows) for discoveryPage(): its first item's resource
   * asks another payTo now (the line's own note says otherwise: the core writes the note anew);
   * then a line that is no row.
   */
  function liveSnapshot() {
    const [{ resource, accepts: [listed] }] = discoveryPage().items;
    const option = { chain: listed.network, payTo: listed.payTo, resourceUrl: resource, scheme: listed.scheme, asset: listed.asset, amount: listed.amount };
    const row = { resource, live: "changed", ...option, payTo: OTHER_PAY_TO, change: ["payTo"], listed: option, status: 402, note: "live", result: { state: "unknown" } };
    return `${JSON.stringify(row)}\n{"resource": 5}\n`;
  }

  /**
   * Renders a badge, then reads one challenge twice through endpointsFromPaymentRequired, and a
   * discovery page (as an object and as text) and a page that is none through endpointsFromDiscovery;
   * what each step fetched of the package.
   */
  async function readChallengeTwice(tab) {
    return runModule(tab, site, async ([options, header, listing, live]) => {
      const { renderBadge, endpointsFromPaymentRequired, endpointsFromDiscovery } = await import("/pkg/index.js");
      const files = () => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.startsWith("/pkg/x402_verdict_")).sort();
      const state = await renderBadge(document.body.appendChild(document.createElement("span")), options);
      const beforeReading = files();
      const [first, second] = [await endpointsFromPaymentRequired(header), await endpointsFromPaymentRequired({ x402Version: 2, accepts: [] })];
      const discovery = [await endpointsFromDiscovery(listing), await endpointsFromDiscovery(JSON.stringify(listing)), await endpointsFromDiscovery([]),
        await endpointsFromDiscovery(listing, { live })];
      return { state, beforeReading, afterReading: files(), first, second, discovery };
    }, [{ baseUrl: demo.url, ...ENDPOINTS.verified, publicKey: demo.publicKey }, paymentRequired(), discoveryPage(), liveSnapshot()]);
  }

  /** What endpointsFromDiscovery gave for discoveryPage(), its text, a value that is no page, and the page with liveSnapshot(). */
  function assertDiscovery([object, text, none, live]) {
    const { chain, payTo, resourceUrl } = ENDPOINTS.verified;
    assert.deepEqual(object, text, "the page and its JSON text read alike");
    assert.deepEqual(object.items.map((i) => i.endpoints.map((e) => [e.chain, e.payTo, e.resourceUrl])), [[[chain, payTo, resourceUrl]], []]);
    assert.equal(object.items[1].reason, `items[1] (${resourceUrl}): accepts is missing`);
    assert.deepEqual(object.pagination, { limit: 2, offset: 0, total: 2 });
    assert.deepEqual(none, { items: [], reason: "the listing page is not a JSON object" });
    assert.deepEqual(live.items[0].endpoints[0].live, { live: "changed", note: `changed: another payTo (listed ${payTo}, now ${OTHER_PAY_TO})` });
    assert.deepEqual(live.items[1].endpoints, []);
    assert.equal(live.liveReason, "the live snapshot's line 2: resource is not a string");
  }

  test("endpointsFromPaymentRequired loads the challenge reader's wasm at its first call, once; a badge never does", async () => {
    const { tab, seen } = await open(page(""));
    const read = await readChallengeTwice(tab);
    assert.equal(read.state, "human-backed");
    assert.deepEqual(read.beforeReading, ["/pkg/x402_verdict_badge.js", MODULE_WASM]);
    assert.deepEqual(read.afterReading, ["/pkg/x402_verdict_badge.js", MODULE_WASM, "/pkg/x402_verdict_challenge.js", "/pkg/x402_verdict_challenge_bg.wasm"]);
    const { chain, payTo, resourceUrl } = ENDPOINTS.verified;
    assert.deepEqual(read.first.endpoints.map((e) => [e.chain, e.payTo, e.resourceUrl, e.amount]), [[chain, payTo, resourceUrl, "1000"]]);
    assert.equal(read.first.reason, undefined);
    assert.deepEqual(read.second.endpoints, []);
    assert.match(read.second.reason, /accepts/, "the core's reason for an empty accepts list");
    assertDiscovery(read.discovery);
    const { errors, warnings } = await seen();
    assert.deepEqual([errors, warnings], [[], []]);
    await tab.close();
  });

  test("reading a challenge before any badge: the reader's wasm loads beside the badge's, not after it", async () => {
    await withWasmLate(async () => {
      const { tab, seen } = await open(page(""));
      const read = await runModule(tab, site, async (header) => {
        const { endpointsFromPaymentRequired } = await import("/pkg/index.js");
        const { endpoints } = await endpointsFromPaymentRequired(header);
        const timing = (file) => performance.getEntriesByType("resource").find((e) => e.name.endsWith(file));
        const [badge, reader] = [timing("/x402_verdict_badge_bg.wasm"), timing("/x402_verdict_challenge_bg.wasm")];
        return { endpoints: endpoints.length, readerAsked: reader.startTime, badgeArrived: badge.responseEnd };
      }, paymentRequired());
      assert.equal(read.endpoints, 1);
      assert.ok(read.readerAsked < read.badgeArrived, `the reader's wasm was asked at ${read.readerAsked} ms, the badge's arrived at ${read.badgeArrived} ms`);
      const { errors, warnings } = await seen();
      assert.deepEqual([errors, warnings], [[], []]);
      await tab.close();
    });
  });

  test("the challenge reader's wasm missing (404): the JavaScript build reads the challenge, and one warning says why", async () => {
    site.statuses.set("/pkg/x402_verdict_challenge_bg.wasm", 404);
    try {
      const { tab, seen } = await open(page(""));
      const read = await readChallengeTwice(tab);
      assert.equal(read.state, "human-backed", "the badge runs on its wasm");
      assert.ok(read.afterReading.includes("/pkg/x402_verdict_badge_js.js"));
      assert.equal(read.first.endpoints.length, 1);
      assert.match(read.second.reason, /accepts/);
      assertDiscovery(read.discovery);
      const { errors, warnings } = await seen();
      assert.equal(errors.length, 0);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /HTTP 404.*JavaScript build of the same code/);
      await tab.close();
    } finally {
      site.statuses.clear();
    }
  });
});

describe("the element before its definition", () => {
  test("properties a framework set before the package loaded are kept (the element upgrades with them)", async () => {
    const { chain, payTo, resourceUrl } = ENDPOINTS.verified;
    const options = { baseUrl: demo.url, chain, payTo, resourceUrl, publicKey: [demo.publicKey] };
    const early = `const el = document.createElement("x402-verdict-badge"); Object.assign(el, ${JSON.stringify(options)}); document.body.append(el);`;
    const { tab, seen } = await open(page(`<script>${early}</script><script src="/pkg/embed.js"></script>`));
    await tab.waitForFunction(() => document.querySelector("x402-verdict-badge")?.state === "human-backed", null, { timeout: 15000 });
    assert.deepEqual(states(await settled(tab, 1, "upgraded")), ["human-backed"]);
    assert.deepEqual(await tab.$eval("x402-verdict-badge", (el) => [el.chain, Object.hasOwn(el, "chain")]), [chain, false]);
    assert.deepEqual((await seen()).errors, []);
    await tab.close();
  });
});
});
