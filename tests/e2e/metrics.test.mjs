// The static metrics page (www/metrics/, generated from the committed
// snapshot) in headless Chromium, served by the real reference service under
// its strict Content-Security-Policy: no request but the page and its
// stylesheet, no violation, tables equal to the snapshot; and the "nothing
// to publish yet" variant.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, startDemo } from "../../scripts/demo.mjs";
import { launch, watchViolations } from "../support/browser.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const ARTIFACTS = join(ROOT, "test-artifacts");
const SNAPSHOT = JSON.parse(readFileSync(join(ROOT, "demo/metrics/snapshot.json"), "utf8"));
let browser;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Opens `path` on `base`: every request the page makes, its CSP violations and script errors. */
async function open(base, path, shot) {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  const violations = await watchViolations(page);
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const response = await page.goto(`${base}${path}`, { waitUntil: "networkidle" });
  assert.equal(response.status(), 200);
  assert.match(response.headers()["content-security-policy"], /^default-src 'self'/);
  await page.screenshot({ path: join(ARTIFACTS, shot), fullPage: true });
  return { page, requests, errors, violations };
}

describe("metrics page", () => {
  test("the demo page: only its HTML and stylesheet, no CSP violation, tables equal to the snapshot", async () => {
    const demo = await startDemo();
    try {
      const { page, requests, errors, violations } = await open(demo.url, "/metrics/", "metrics.png");
      assert.deepEqual(requests, [`${demo.url}/metrics/`, `${demo.url}/metrics/metrics.css`]);
      assert.deepEqual(await violations(), []);
      assert.deepEqual(errors, []);
      assert.equal(await page.evaluate(() => document.scripts.length), 0, "no script");
      // The stylesheet applied (the disclosure box is tinted), and the disclosure is shown.
      const disclosure = await page.$eval("#disclosure", (e) => ({ text: e.textContent, bg: getComputedStyle(e).backgroundColor }));
      assert.notEqual(disclosure.bg, "rgba(0, 0, 0, 0)");
      assert.ok(disclosure.text.includes("Related party: yes."));
      assert.ok(disclosure.text.includes(SNAPSHOT.operator.disclosure));
      assert.ok((await page.textContent(".as-of")).includes(SNAPSHOT.asOf));
      let charts = 0;
      for (const series of SNAPSHOT.series) {
        const section = `section[data-series="${series.id}"]`;
        if (!series.available) {
          assert.ok((await page.textContent(`${section} .reason`)).includes(series.unavailableReason));
          assert.equal(await page.$$eval(`${section} svg`, (s) => s.length), 0);
          continue;
        }
        const rows = await page.$$eval(`${section} tbody tr`, (trs) => trs.map((tr) => ({
          period: tr.querySelector("th").textContent,
          figures: Object.fromEntries([...tr.querySelectorAll("td")].map((td) => [td.dataset.field, td.textContent])),
        })));
        assert.equal(rows.length, series.points.length, series.id);
        for (const [i, { period, ...figures }] of series.points.entries()) {
          assert.equal(rows[i].period, period);
          assert.deepEqual(Object.keys(rows[i].figures).sort(), Object.keys(figures).sort());
          for (const [name, value] of Object.entries(figures)) {
            const shown = rows[i].figures[name];
            assert.equal(value === null ? shown : Number(shown), value === null ? "–" : value, `${series.id} ${period} ${name}`);
          }
        }
        // One chart, with a text alternative naming every month.
        const svg = await page.$eval(`${section} svg`, (s) => ({ role: s.getAttribute("role"), desc: s.querySelector("desc").textContent }));
        assert.equal(svg.role, "img");
        for (const { period } of series.points) assert.ok(svg.desc.includes(period), `${series.id}: ${period} in the text alternative`);
        charts += 1;
      }
      assert.equal(charts, SNAPSHOT.series.filter((s) => s.available).length);
      await page.close();
    } finally {
      await demo.stop();
    }
  });

  test("nothing to publish yet: said plainly, with no chart", async () => {
    const dir = join(ROOT, ".work/metrics-empty");
    mkdirSync(dir, { recursive: true });
    const empty = {
      ...SNAPSHOT, period: null,
      series: SNAPSHOT.series.map((s) => ({ ...s, points: [] })),
    };
    writeFileSync(join(dir, "snapshot.json"), JSON.stringify(empty));
    execFileSync(BIN, ["metrics", "page", "--snapshot", join(dir, "snapshot.json"), "--out", join(dir, "site")]);
    const demo = await startDemo({ www: join(dir, "site") });
    try {
      const { page, requests, violations } = await open(demo.url, "/", "metrics-empty.png");
      assert.deepEqual(requests, [`${demo.url}/`, `${demo.url}/metrics.css`]);
      assert.deepEqual(await violations(), []);
      assert.equal(await page.textContent("#nothing-yet h2"), "Nothing to publish yet");
      assert.equal(await page.$$eval("svg, table", (e) => e.length), 0, "no empty chart or table");
      assert.ok((await page.textContent("#disclosure")).includes("Related party: yes."));
      await page.close();
    } finally {
      await demo.stop();
    }
  });
});
