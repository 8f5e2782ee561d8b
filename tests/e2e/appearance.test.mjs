// How the badge sits in pages of every shape, in each engine (Chromium,
// Firefox, WebKit: tests/support/browser.mjs; pages on another origin than
// the service): the page's colour scheme rather than the OS's,
// a forced theme, a size that follows the surrounding text, and hover text
// that stays on screen, never widens the page and escapes overflow: hidden.
// Screenshots of every state in both themes at two text sizes are saved to
// test-artifacts/ (appearance-<engine>-*.png) to be looked at.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { startDemo, ENDPOINTS } from "../../scripts/demo.mjs";
import { ENGINES, launch } from "../support/browser.mjs";
import { startOrigin } from "../support/origin.mjs";
import { PACKAGE } from "../support/package.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const ARTIFACTS = `${ROOT}test-artifacts/`;
const LIGHT = "rgb(244, 245, 247)";
const DARK = "rgb(42, 46, 53)";
let demo, site;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [demo, site] = await Promise.all([startDemo({ www: false }), startOrigin()]);
  site.folders.set("/pkg/", PACKAGE);
  site.proxy = demo.url;
  // A service that has not answered yet: the "checking" state.
  site.delays.set("/slow/v0/verdict", 20000);
});
after(() => Promise.all([demo?.stop(), site?.stop()]));

/** A marked span for a demo endpoint (the site passes /v0/ on to the service). */
function span(name, extra = "") {
  const { chain, payTo, resourceUrl } = ENDPOINTS[name];
  return `<span data-x402-verdict data-base-url="${site.url}" data-chain="${chain}" data-pay-to="${payTo}" data-resource-url="${resourceUrl}" data-public-key="${demo.publicKey}" ${extra}></span>`;
}
const checking = () => span("verified", `data-base-url="${site.url}/slow" data-timeout-ms="60000"`).replace(`data-base-url="${site.url}" `, "");

let count = 0;
/** In the page, before anything runs: CSS.supports answers false for features matching `pattern`, as a browser without them would. */
function hideFeature(pattern) {
  const supports = CSS.supports.bind(CSS);
  CSS.supports = (...query) => !new RegExp(pattern).test(query.join(" ")) && supports(...query);
}

for (const engine of ENGINES) describe(engine, () => {
let browser;
before(async () => { browser = await launch(engine); });
after(() => browser?.close());

async function open(body, { style = "", colorScheme = "light", viewport = { width: 800, height: 600 }, hide } = {}) {
  const path = `/a${++count}.html`;
  site.pages.set(path, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title><style>${style}</style><script src="/pkg/embed.js"></script></head><body>${body}</body></html>`);
  site.init = hide ? [[hideFeature, hide]] : [];
  const tab = await browser.newPage({ colorScheme, viewport });
  await tab.goto(site.url + path);
  await tab.waitForFunction(() => {
    const hosts = [...document.querySelectorAll("x402-verdict-view")];
    return hosts.length > 0 && hosts.filter((h) => h.dataset.state === "checking").length === document.querySelectorAll("[data-timeout-ms='60000']").length;
  }, null, { timeout: 15000 });
  return tab;
}

const backgrounds = (tab) => tab.$$eval("x402-verdict-view", (hosts) => hosts.map((h) => getComputedStyle(h.shadowRoot.querySelector(".badge")).backgroundColor));

describe("colour scheme", () => {
  const cases = [
    ["a light-only page on a dark OS", "dark", ":root { color-scheme: light; }", LIGHT],
    ["a page declaring nothing on a dark OS", "dark", "", LIGHT],
    ["a light-and-dark page on a dark OS", "dark", ":root { color-scheme: light dark; }", DARK],
    ["a light-and-dark page on a light OS", "light", ":root { color-scheme: light dark; }", LIGHT],
    ["a dark page on a light OS", "light", ":root { color-scheme: dark; }", DARK],
  ];
  for (const [name, os, style, expected] of cases) {
    test(`${name}: the badge follows the page`, async () => {
      const tab = await open(span("stale"), { colorScheme: os, style });
      assert.deepEqual(await backgrounds(tab), [expected]);
      await tab.close();
    });
  }

  test("theme forces the light or dark badge, as an attribute of either form", async () => {
    const tab = await open(`${span("stale", 'data-theme="dark"')} ${span("stale", 'data-theme="light"')} ${span("stale", 'data-theme="auto"')}`, { colorScheme: "dark", style: ":root { color-scheme: dark; }" });
    assert.deepEqual(await backgrounds(tab), [DARK, LIGHT, DARK]);
    await tab.close();
  });

  test("a browser without light-dark() gets the light badge, coloured, even on a dark page", async () => {
    const tab = await open(`${span("stale")} ${span("verified")}`, { colorScheme: "dark", style: ":root { color-scheme: dark; }", hide: "light-dark" });
    await tab.waitForFunction(() => document.querySelectorAll("x402-verdict-view[data-state='human-backed']").length === 1);
    assert.deepEqual(await backgrounds(tab), [LIGHT, "rgb(232, 245, 236)"]);
    await tab.close();
  });

  test("custom properties and parts style it from the page", async () => {
    const style = ":root { --x402-verdict-verified-background: rgb(1, 2, 3); --x402-verdict-font: monospace; } x402-verdict-view::part(label) { text-decoration: underline; }";
    const tab = await open(span("verified"), { style });
    await tab.waitForFunction(() => document.querySelector("x402-verdict-view").dataset.state === "human-backed");
    const looks = await tab.$eval("x402-verdict-view", (h) => {
      const badge = getComputedStyle(h.shadowRoot.querySelector(".badge"));
      return [badge.backgroundColor, badge.fontFamily, getComputedStyle(h.shadowRoot.querySelector(".label")).textDecorationLine];
    });
    assert.deepEqual(looks, ["rgb(1, 2, 3)", "monospace", "underline"]);
    await tab.close();
  });
});

describe("size follows the text", () => {
  test("the badge scales with the surrounding font size, from 11 to 20 px, the same height in every state", async () => {
    const row = (size) => `<p style="font-size:${size}px">${span("verified")} ${span("revoked")} ${span("stale")} ${checking()}</p>`;
    const tab = await open([10, 15, 20, 40].map(row).join(""), { style: "" });
    const sizes = await tab.$$eval("p", (rows) => rows.map((p) => [...p.querySelectorAll("x402-verdict-view")].map((h) => {
      const badge = h.shadowRoot.querySelector(".badge");
      return [getComputedStyle(badge).fontSize, Math.round(badge.getBoundingClientRect().height * 10) / 10];
    })));
    const fonts = sizes.map((r) => new Set(r.map(([f]) => f)));
    const heights = sizes.map((r) => new Set(r.map(([, h]) => h)));
    assert.deepEqual(fonts.map((f) => [...f]), [["11px"], ["12px"], ["16px"], ["20px"]]);
    assert.deepEqual(heights.map((h) => h.size), [1, 1, 1, 1], `heights ${JSON.stringify(sizes)}`);
    assert.deepEqual(heights.map((h) => [...h][0]), [18.5, 20, 26, 32]);
    await tab.close();
  });
});

// Where anchor positioning is missing (Firefox, older Safari), as far as scripts can tell: the top layer.
for (const [way, hide] of [["anchor positioning", undefined], ["the top layer, where anchor positioning is missing", "anchor"]]) {
  describe(`hover text, by ${way}`, () => {
    /** The hover text's box and the page's widths, with the badge hovered or not. */
    const measure = (tab, selector) => tab.$eval(selector, (host) => {
      const tip = host.shadowRoot.querySelector(".tip");
      const r = tip.getBoundingClientRect();
      const b = host.shadowRoot.querySelector(".badge").getBoundingClientRect();
      // Hit-test the tip's centre (it takes no pointer events; for this look only, it does,
      // by a sheet of the test's: a style attribute would be found below).
      const sheets = host.shadowRoot.adoptedStyleSheets;
      const look = new CSSStyleSheet();
      look.replaceSync(".tip { pointer-events: auto !important; }");
      host.shadowRoot.adoptedStyleSheets = [...sheets, look];
      const center = host.shadowRoot.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      host.shadowRoot.adoptedStyleSheets = sheets;
      return {
        shown: getComputedStyle(tip).display !== "none",
        inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
        // 6 px below the badge, or above it.
        beside: Math.abs(r.top - b.bottom - 6) < 1 || Math.abs(b.top - r.bottom - 6) < 1,
        onTop: center === tip,
        scroll: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
        topLayer: tip.matches("[popover]:popover-open"),
      };
    });
    /** No badge carries a style attribute (a strict Content-Security-Policy would refuse one). */
    const styleAttributes = (tab) => tab.$$eval("x402-verdict-view", (hosts) => hosts.filter((h) => h.hasAttribute("style") || h.shadowRoot.querySelector("[style]")).map((h) => h.outerHTML + h.shadowRoot.innerHTML));

    test("at the right edge, at the bottom and inside an overflow: hidden card it lies on screen; hidden, it never widens the page", async () => {
      const style = `.right { text-align: right; margin: 0; } .card { overflow: hidden; height: 40px; width: 200px; border: 1px solid #888; margin: 40px; }`;
      const tab = await open(`<p class="right" id="edge">${span("verified")}</p><div class="card" id="card">${span("revoked")}</div><p id="bottom" style="position:absolute; bottom:0; left:300px; margin:0">${span("stale")}</p>`, { style, hide });
      for (const id of ["edge", "card", "bottom"]) {
        const hidden = await measure(tab, `#${id} x402-verdict-view`);
        assert.equal(hidden.shown, false, id);
        assert.equal(hidden.scroll[0], hidden.scroll[1], `${id}: hidden, it does not widen the page`);
        await tab.hover(`#${id} x402-verdict-view`);
        const shown = await measure(tab, `#${id} x402-verdict-view`);
        await tab.screenshot({ path: `${ARTIFACTS}appearance-${engine}-tip-${id}${hide ? "-top-layer" : ""}.png` });
        // In the top layer where anchor positioning is missing; elsewhere where the engine's anchoring misplaced it (WebKit, #bottom).
        assert.deepEqual(shown, { shown: true, inside: true, beside: true, onTop: true, scroll: hidden.scroll, topLayer: hide ? true : shown.topLayer }, id);
        assert.deepEqual(await styleAttributes(tab), [], `${id}: no style attribute`);
        await tab.mouse.move(0, 0);
        assert.equal((await measure(tab, `#${id} x402-verdict-view`)).shown, false, `${id}: closed when the pointer leaves`);
      }
      await tab.close();
    });

    test("it follows the badge when the page scrolls", async () => {
      const tab = await open(`<p style="margin-top:200px">${span("verified")}</p><div style="height:2000px"></div>`, { hide });
      await tab.focus("x402-verdict-view >> .badge");
      const gap = () => tab.$eval("x402-verdict-view", (h) => {
        const [badge, tip] = [".badge", ".tip"].map((s) => h.shadowRoot.querySelector(s).getBoundingClientRect());
        return [Math.round(tip.top - badge.bottom), Math.round(tip.left - badge.left)];
      });
      assert.deepEqual(await gap(), [6, 0]);
      await tab.evaluate(() => scrollBy(0, 120));
      await tab.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      assert.deepEqual(await gap(), [6, 0]);
      await tab.close();
    });

    test("keyboard: focus shows it, Escape closes it, focus moving on and back shows it again", async () => {
      const tab = await open(`<button id="before">before</button> ${span("verified")} <button id="after">after</button>`, { hide });
      // Shown, and in the top layer when that is the way.
      const shown = () => tab.$eval("x402-verdict-view", (h) => {
        const tip = h.shadowRoot.querySelector(".tip");
        return [getComputedStyle(tip).display !== "none", tip.matches(":popover-open")];
      });
      // The top layer wherever the page finds no anchor positioning: hidden by the test, or missing (Firefox ESR 140).
      const anchorless = await tab.evaluate(() => !CSS.supports("anchor-name: --a"));
      const [opened, closed] = [[true, anchorless], [false, false]];
      await tab.focus("#before");
      await tab.keyboard.press("Tab");
      assert.deepEqual(await shown(), opened);
      assert.equal(await tab.$eval("x402-verdict-view", (h) => h.shadowRoot.querySelector(".badge").getAttribute("aria-describedby")), "tip");
      await tab.keyboard.press("Escape");
      assert.deepEqual(await shown(), closed);
      await tab.keyboard.press("Tab");
      assert.deepEqual(await shown(), closed, "blur closes it");
      await tab.keyboard.press("Shift+Tab");
      assert.deepEqual(await shown(), opened);
      await tab.keyboard.press("Tab");
      assert.deepEqual(await shown(), closed, "blur closes it");
      await tab.close();
    });
  });
}

test("screenshots: every state in both themes at two text sizes", async () => {
  const row = (size) => `<p style="font-size:${size}px">Operator: ${span("verified")} ${span("revoked")} ${span("stale")} ${checking()}</p>`;
  const body = `<section class="light">${row(14)}${row(22)}</section><section class="dark">${row(14)}${row(22)}</section>`;
  const style = `body { margin: 0; } section { padding: 12px 16px; } .light { background: #fff; color: #111; color-scheme: light; } .dark { background: #121417; color: #e6e8eb; color-scheme: dark; }`;
  const tab = await open(body, { style, viewport: { width: 640, height: 260 } });
  await tab.screenshot({ path: `${ARTIFACTS}appearance-${engine}-states.png` });
  await tab.hover(".dark x402-verdict-view");
  await tab.screenshot({ path: `${ARTIFACTS}appearance-${engine}-dark-tip.png` });
  const edge = await tab.$eval(".dark x402-verdict-view", (h) => getComputedStyle(h.shadowRoot.querySelector(".tip")).borderTopColor);
  assert.equal(edge, "rgb(138, 143, 152)", "the dark tooltip has a visible edge on a dark page");
  await tab.close();
});
});
