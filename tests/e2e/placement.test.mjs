// The hover text on screen in every engine and layout: badges near each
// edge of the viewport, in an overflow: hidden box, in an absolutely
// positioned card at the right edge and in a scrolled container, at 12 px
// and 24 px text, on light and dark pages, in Chromium, Firefox and WebKit
// (WebKit does not accept the badge as an anchor when its containing block
// is absolutely positioned against the root: the badge sees its hover text
// misplaced and places it itself). Then the demo's states page with a hover
// text open, a screenshot per engine in test-artifacts/states-<engine>.png.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { startDemo, ENDPOINTS } from "../../scripts/demo.mjs";
import { ENGINES, launch } from "../support/browser.mjs";
import { tabToFirstBadge } from "../support/focus.mjs";
import { startOrigin } from "../support/origin.mjs";
import { PACKAGE } from "../support/package.mjs";

const ARTIFACTS = new URL("../../test-artifacts/", import.meta.url).pathname;
let demo, site;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [demo, site] = await Promise.all([startDemo(), startOrigin()]);
  site.folders.set("/pkg/", PACKAGE);
});
after(() => Promise.all([demo?.stop(), site?.stop()]));

/** A badge for the demo's revoked endpoint (its hover text is one of the longest), with an id. */
function badge(id) {
  const { chain, payTo, resourceUrl } = ENDPOINTS.revoked;
  return `<span id="${id}" data-x402-verdict data-base-url="${demo.url}" data-chain="${chain}" data-pay-to="${payTo}" data-resource-url="${resourceUrl}" data-public-key="${demo.publicKey}"></span>`;
}

/** Every layout, by the id of its badge. */
const LAYOUTS = ["top-left", "top-right", "bottom-left", "bottom-right", "hidden", "card", "scrolled", "inline"];
const STYLE = `body { margin: 0; }
.corner { position: absolute; margin: 0; }
.top { top: 0; } .bottom { bottom: 0; } .left { left: 0; } .right { right: 0; }
.flow { margin: 90px 0 0 24px; width: 320px; }
.box { overflow: hidden; height: 3em; border: 1px solid; }
.scroller { overflow: auto; height: 7em; border: 1px solid; margin-top: 12px; }
.scroller .space { height: 4em; } .scroller .more { height: 30em; }
.card { position: absolute; right: 0; top: 45%; width: 11em; padding: 4px; border: 1px solid; }`;

function layout(size, scheme) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>placement</title>
<style>${STYLE} :root { color-scheme: ${scheme}; font-size: ${size}px; }</style><script src="/pkg/embed.js"></script></head><body>
<p class="corner top left">${badge("top-left")}</p><p class="corner top right">${badge("top-right")}</p>
<p class="corner bottom left">${badge("bottom-left")}</p><p class="corner bottom right">${badge("bottom-right")}</p>
<div class="flow"><div class="box">In a box: ${badge("hidden")}</div>
<div class="scroller" id="scroller"><div class="space"></div>${badge("scrolled")}<div class="more"></div></div>
<p>Inline: ${badge("inline")}</p></div>
<div class="card">Seller ${badge("card")}</div></body></html>`;
}

/** Where the open hover text of the badge in `#id` lies, against the badge and the viewport. */
const measure = (host) => {
  const root = host.shadowRoot;
  const tip = root.querySelector(".tip");
  const [b, t] = [root.querySelector(".badge").getBoundingClientRect(), tip.getBoundingClientRect()];
  // Hit-test the tip's centre, letting it take pointer events by a sheet of the test's.
  const sheets = root.adoptedStyleSheets;
  const look = new CSSStyleSheet();
  look.replaceSync(".tip { pointer-events: auto !important; }");
  root.adoptedStyleSheets = [...sheets, look];
  const center = root.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2);
  root.adoptedStyleSheets = sheets;
  const { clientWidth, clientHeight, scrollWidth } = document.documentElement;
  return {
    shown: getComputedStyle(tip).display !== "none",
    inside: t.left >= 0 && t.top >= 0 && t.right <= clientWidth && t.bottom <= clientHeight,
    beside: Math.abs(t.top - b.bottom - 6) < 1 || Math.abs(b.top - t.bottom - 6) < 1,
    onTop: center === tip,
    widened: scrollWidth > clientWidth,
    rect: [t.left, t.top, t.right, t.bottom].map(Math.round),
  };
};

for (const engine of ENGINES) {
  describe(engine, () => {
    let browser;
    before(async () => { browser = await launch(engine); });
    after(() => browser?.close());

    for (const size of [12, 24]) {
      for (const scheme of ["light", "dark"]) {
        test(`${size} px text, ${scheme} page: every badge's hover text opens on screen, 6 px from its badge, on top`, async () => {
          const path = `/placement-${size}-${scheme}.html`;
          site.pages.set(path, layout(size, scheme));
          const tab = await browser.newPage({ viewport: { width: 800, height: 600 } });
          await tab.goto(site.url + path);
          await tab.waitForFunction((n) => [...document.querySelectorAll("x402-verdict-view")].filter((h) => h.dataset.state === "revoked").length === n, LAYOUTS.length, { timeout: 20000 });
          // The scrolled container shows its badge part way down, after a scroll.
          await tab.evaluate(() => { document.getElementById("scroller").scrollTop = 30; });
          for (const id of LAYOUTS) {
            const host = `#${id} x402-verdict-view`;
            await tab.hover(host);
            await tab.waitForFunction((s) => getComputedStyle(document.querySelector(s).shadowRoot.querySelector(".tip")).display !== "none", host, { timeout: 5000 });
            // One frame: a misplaced hover text is moved by the next.
            await tab.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
            const where = await tab.$eval(host, measure);
            if (size === 24 && scheme === "dark") await tab.screenshot({ path: `${ARTIFACTS}placement-${engine}-${id}.png` });
            assert.deepEqual({ ...where, rect: undefined }, { shown: true, inside: true, beside: true, onTop: true, widened: false, rect: undefined }, `${id}: ${JSON.stringify(where)}`);
            // Away to an empty spot: it closes.
            await tab.mouse.move(560, 170);
            await tab.waitForFunction((s) => getComputedStyle(document.querySelector(s).shadowRoot.querySelector(".tip")).display === "none", host, { timeout: 5000 });
          }
          await tab.close();
        });
      }
    }

    test("the states page: the first badge focused by Tab shows its hover text on screen (screenshot)", async () => {
      const tab = await browser.newPage({ viewport: { width: 1000, height: 800 } });
      await tab.goto(`${demo.url}/states.html`);
      await tab.waitForFunction(() => document.body.dataset.rendered === "7", null, { timeout: 20000 });
      // The keyboard focus is on the first badge, so that what opened the hover text is focus.
      assert.deepEqual(await tabToFirstBadge(tab), { active: true, host: true, badge: true }, "Tab focused the first badge");
      const where = await tab.$eval("x402-verdict-view", measure);
      await tab.screenshot({ path: `${ARTIFACTS}states-${engine}.png` });
      assert.deepEqual([where.shown, where.inside, where.beside, where.onTop], [true, true, true, true], JSON.stringify(where));
      await tab.close();
    });
  });
}
