// The image badge (`GET /v0/badge.svg`), the badge where no script runs, in
// each engine (Chromium, Firefox, WebKit: tests/support/browser.mjs), as a
// README shows it: an <img> on GitHub's light and dark page colours, every
// state in every style at 1x and 2x (screenshots in
// test-artifacts/image-<engine>-<scheme>.png, to be looked at); opened on
// its own, under its Content-Security-Policy, it takes the reader's colour
// scheme; DOMPurify's SVG profile, in the page, removes nothing from it;
// shields.io's endpoint (`/v0/badge.json`) validates against shields'
// endpoint schema, written here from its documented keys; and the Markdown
// `x402-verdict snippet` prints, rendered by a CommonMark library, gives an
// image whose URL answers the badge, linked to the endpoint's page.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { execFileSync } from "node:child_process";
import Ajv from "ajv";
import { HtmlRenderer, Parser } from "commonmark";
import { BIN, startDemo, ENDPOINTS } from "../../scripts/demo.mjs";
import { ENGINES, launch } from "../support/browser.mjs";
import { runModule, startOrigin } from "../support/origin.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const ARTIFACTS = `${ROOT}test-artifacts/`;
const DOMPURIFY = dirname(createRequire(import.meta.url).resolve("dompurify"));
/** The demo endpoints drawn: one in each state, and one with no verdict. */
const STATES = ["verified", "revoked", "stale", "noSignal"];
const STYLES = ["flat", "flat-square", "for-the-badge"];
/** Each style's height in CSS pixels: shields.io's. */
const HEIGHT = { flat: 20, "flat-square": 20, "for-the-badge": 28 };
/** GitHub's page colours, light and dark. */
const PAGE = { light: "#ffffff", dark: "#0d1117" };
/** The verified badge's fill behind its words (js/common/badge.js's colours), per scheme. */
const VERIFIED_FILL = { light: "rgb(232, 245, 236)", dark: "rgb(18, 48, 29)" };
let demo, site;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [demo, site] = await Promise.all([startDemo({ www: false }), startOrigin()]);
  site.proxy = demo.url;
  site.folders.set("/dompurify/", DOMPURIFY);
});
after(() => Promise.all([demo?.stop(), site?.stop()]));

/** The image badge's path (on the site, which passes /v0/ on to the service). */
function badge(name, style, path = "/v0/badge.svg") {
  const { chain, payTo, resourceUrl } = ENDPOINTS[name];
  return `${path}?${new URLSearchParams({ chain, payTo, resourceUrl, ...(style && { style }) })}`;
}

test("the shields.io endpoint validates against shields' endpoint schema", async () => {
  // shields.io's endpoint badge: schemaVersion 1, label, message, and the
  // optional color and cacheSeconds (at least 300 there, any whole number
  // here); no other key (shields refuses unknown keys).
  const schema = {
    type: "object",
    additionalProperties: false,
    required: ["schemaVersion", "label", "message"],
    properties: {
      schemaVersion: { const: 1 },
      label: { type: "string" },
      message: { type: "string", minLength: 1 },
      color: { type: "string", minLength: 1 },
      labelColor: { type: "string" },
      isError: { type: "boolean" },
      namedLogo: { type: "string" },
      logoSvg: { type: "string" },
      logoColor: { type: "string" },
      logoWidth: { type: "integer" },
      style: { type: "string" },
      cacheSeconds: { type: "integer", minimum: 0 },
    },
  };
  const valid = new Ajv({ strict: true }).compile(schema);
  for (const name of STATES) {
    const answer = await fetch(site.url + badge(name, null, "/v0/badge.json"));
    assert.equal(answer.status, 200);
    const body = await answer.json();
    assert.ok(valid(body), JSON.stringify(valid.errors));
    assert.deepEqual(Object.keys(body).sort(), ["cacheSeconds", "color", "label", "message", "schemaVersion"]);
  }
});

test("the Markdown snippet, rendered by CommonMark, shows the badge and links to its page", async () => {
  // A resource URL with what Markdown and HTML would misread: parentheses, a quote, an ampersand.
  const { chain, payTo } = ENDPOINTS.verified;
  const resourceUrl = "https://api.example.com/premium-data";
  const cases = [[resourceUrl, "✓ verified · G"], ["https://api.example.com/a(b)?c='d'&e=\"f\"", "? unknown"]];
  for (const [resource, words] of cases) {
    const out = execFileSync(BIN, ["snippet", "--base-url", demo.url, "--chain", chain, "--pay-to", payTo, "--resource-url", resource], { encoding: "utf8" });
    const markdown = out.split("\n").find((line) => line.startsWith("[!["));
    const html = new HtmlRenderer().render(new Parser().parse(markdown));
    const [, href, src] = /^<p><a href="([^"]+)"><img src="([^"]+)" alt="x402 verdict" \/><\/a><\/p>\n$/.exec(html) ?? [];
    assert.ok(src, html);
    const unescape = (url) => url.replaceAll("&amp;", "&");
    const image = await fetch(unescape(src));
    assert.equal(image.status, 200);
    assert.equal(image.headers.get("content-type"), "image/svg+xml");
    assert.ok((await image.text()).includes(`>${words}</text>`), src);
    // The image's query names the endpoint, as the service reads it.
    const query = new URL(unescape(src)).searchParams;
    assert.deepEqual([query.get("chain"), query.get("payTo"), query.get("resourceUrl")], [chain, payTo, resource]);
    const page = await fetch(unescape(href));
    assert.equal(page.status, 200);
    assert.ok((await page.text()).includes("Compare this endpoint with the one you are asked to pay"));
  }
});

for (const engine of ENGINES) describe(engine, () => {
  let browser;
  before(async () => { browser = await launch(engine); });
  after(() => browser?.close());

  for (const scheme of ["light", "dark"]) {
    test(`every state and style at 1x and 2x on GitHub's ${scheme} page`, async () => {
      const rows = STATES.map((name) => `<p>${STYLES.map((style) => `<img src="${badge(name, style)}" alt="x402 verdict"> `).join("")}</p>
<p>${STYLES.map((style) => `<img src="${badge(name, style)}" height="${2 * HEIGHT[style]}" alt="x402 verdict"> `).join("")}</p>`).join("\n");
      const path = `/image-${scheme}.html`;
      site.pages.set(path, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>image badges</title><style>
body { background: ${PAGE[scheme]}; margin: 16px; font: 14px sans-serif; }
</style></head><body>${rows}</body></html>`);
      const tab = await browser.newPage({ colorScheme: scheme, viewport: { width: 1000, height: 760 } });
      await tab.goto(site.url + path);
      await tab.waitForFunction(() => [...document.images].every((i) => i.complete), null, { timeout: 15000 });
      // As drawn: the 1x row at the image's own size, the 2x row at twice its height, in proportion.
      // (WebKit's naturalHeight of an SVG is its drawn size, so the drawn boxes are compared.)
      const boxes = await tab.$$eval("img", (images) => images.map((i) => [i.getBoundingClientRect().width, i.getBoundingClientRect().height]));
      assert.equal(boxes.length, STATES.length * STYLES.length * 2);
      for (const [i, [width, height]] of boxes.entries()) {
        const style = STYLES[i % STYLES.length];
        const scale = Math.floor(i / STYLES.length) % 2 === 1 ? 2 : 1;
        assert.equal(height, scale * HEIGHT[style], `image ${i} (${style}, ${scale}x)`);
        const [oneX] = boxes[i - (scale - 1) * STYLES.length];
        assert.ok(oneX > 60 && Math.abs(width - scale * oneX) <= 1, `image ${i}: ${width} px wide, ${oneX} at 1x`);
      }
      // Every image decoded is drawn by the next frames (WebKit paints a moment later).
      await tab.waitForTimeout(300);
      await tab.screenshot({ path: `${ARTIFACTS}image-${engine}-${scheme}.png` });
      await tab.close();
    });

    test(`opened on its own under its policy, it takes the ${scheme} scheme`, async () => {
      const tab = await browser.newPage({ colorScheme: scheme, viewport: { width: 400, height: 200 } });
      await tab.goto(site.url + badge("verified", "flat"));
      const fill = await tab.evaluate(() => getComputedStyle(document.querySelector("path.r")).fill);
      assert.equal(fill, VERIFIED_FILL[scheme]);
      await tab.close();
    });
  }

  test("DOMPurify's SVG profile removes nothing from any state or style", async () => {
    site.pages.set("/purify.html", `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>purify</title></head><body></body></html>`);
    const tab = await browser.newPage();
    await tab.goto(`${site.url}/purify.html`);
    // Each badge, and whether it carries a verdict (the endpoint with no verdict has none).
    const urls = STATES.flatMap((name) => STYLES.map((style) => [badge(name, style), name !== "noSignal"]));
    const results = await runModule(tab, site, async (urls) => {
      const { default: DOMPurify } = await import("/dompurify/purify.es.mjs");
      const out = [];
      for (const [url, carries] of urls) {
        const text = await (await fetch(url)).text();
        const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
        const before = new XMLSerializer().serializeToString(svg);
        DOMPurify.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: true }, IN_PLACE: true });
        const removed = DOMPurify.removed.map((r) => r.element ? `element ${r.element.nodeName}` : `attribute ${r.attribute?.name}`);
        out.push({ url, removed, same: new XMLSerializer().serializeToString(svg) === before, metadata: Boolean(svg.querySelector("metadata[data-x402-verdict]")) === carries });
      }
      return out;
    }, urls);
    for (const { url, removed, same, metadata } of results) {
      assert.deepEqual(removed, [], url);
      assert.ok(same, url);
      assert.ok(metadata, `${url} keeps its verdict, if any`);
    }
    await tab.close();
  });
});
