// The buyer's browser extension (pkg-extension/) in real browsers, one launch
// per engine (tests/support/extension.mjs: Chromium with the unpacked
// extension in a persistent profile, Firefox ESR with it as a temporary
// add-on), against real parts on loopback: paywall routes of the official
// @x402/express 2.27 (one per state) and x402-express 1.2 (v1, its paywall
// page) with the loopback fake facilitator, and the reference service with a
// registry, behind a front that counts every request it gets and plays a
// tampered signature, a service down and a service slower than the timeout
// for one endpoint each, and a second front that holds every answer 10 s. For each: the toolbar's text and title, the popup's
// content (screenshots in test-artifacts/), the page's own badges
// cross-checked, the settings page, nothing sent but verdict and keys
// requests for the endpoints met, one request per endpoint, a page that
// meets thousands of 402s kept bounded, and the page never waiting for the
// extension. Last, the extension pinned to an operator's root key (its
// `rootKey` setting) reads ✓ across three signing-key rotations and a root
// rotation with its settings unchanged, and ✕ nothing another root certifies;
// so does Firefox's pinned by an organization's policy (storage.managed).
// With a transparency log (its logKey, witnessKeys, witnessQuorum and
// transparency settings: tests/support/log-fixture.mjs), under `required`
// a verdict the log proves reads ✓ and one signed outside it ?, its
// signature valid, and a quorum above the witnesses is not saved.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { demoKeys } from "../../scripts/demo.mjs";
import { ENGINES } from "../support/browser.mjs";
import { launchWithExtension } from "../support/extension.mjs";
import { logFixture, logOptions, serveDocuments } from "../support/log-fixture.mjs";
import { AGENT_PACKAGE } from "../support/package.mjs";
import { attested, serveRegistry } from "../support/reference-service.mjs";
import { STEPS, rootOperator } from "../support/root-operator.mjs";
import { EVM_NETWORK, EVM_PAY_TO, startX402Servers } from "../support/x402-servers.mjs";

const ARTIFACTS = new URL("../../test-artifacts/", import.meta.url).pathname;
const publicKey = JSON.parse(readFileSync(demoKeys(), "utf8")).current.publicKey;
const { verdictCache, verdictExtension } = await import(`${AGENT_PACKAGE}seller.js`);

/** The address each route asks payment to, named for what the service says of it. */
const PAY_TO = {
  human: "0x1000000000000000000000000000000000000001",
  revoked: "0x2000000000000000000000000000000000000002",
  unlisted: "0x3000000000000000000000000000000000000003",
  tampered: "0x4000000000000000000000000000000000000004",
  down: "0x5000000000000000000000000000000000000005",
  slow: "0x6000000000000000000000000000000000000006",
  stapled: "0x7000000000000000000000000000000000000007",
  held: "0x8000000000000000000000000000000000000008",
  logged: "0xa00000000000000000000000000000000000000a",
};
/** The address of the routes a root operator's service attests: one per rotation step (its own endpoint, so no kept verdict stands in), and one more. */
const ROTATED = "0x9000000000000000000000000000000000000009";
const ROTATED_PATHS = [...STEPS.map((_, i) => `/step-${i}`), "/foreign"];
const option = (payTo) => ({ scheme: "exact", price: "$0.01", network: EVM_NETWORK, payTo });
const ROUTES = {
  ...Object.fromEntries(Object.entries(PAY_TO).filter(([name]) => name !== "stapled").map(([name, payTo]) => [`GET /${name}`, { accepts: option(payTo), description: name }])),
  "GET /two": { accepts: [option(PAY_TO.human), option(PAY_TO.revoked)], description: "two addresses" },
  ...Object.fromEntries(ROTATED_PATHS.map((path) => [`GET ${path}`, { accepts: option(ROTATED), description: "rotated" }])),
};
/** The toolbar's marks, as the badge draws each state. */
const MARK = { human: "✓", revoked: "✕", unknown: "?", checking: "…" };

/** How long the held front keeps every answer: far past the extension's 3 s timeout. */
const HELD_MS = 10_000;

/**
 * The front of the verification service: forwards to `upstream()`, records
 * every request's path and query; for one address each, alters the
 * verdict's signature, drops the connection (the service down) or never
 * answers (slower than any timeout). With `holdMs`, it holds every answer
 * (verdicts and keys) that long first.
 */
async function startFront(upstream, holdMs = 0) {
  const asked = [];
  const stalled = new Set();
  const server = createServer(async (req, res) => {
    asked.push(req.url);
    const payTo = new URL(req.url, "http://x").searchParams.get("payTo");
    if (payTo === PAY_TO.down) return req.socket.destroy();
    if (payTo === PAY_TO.slow) return stalled.add(res);
    if (holdMs) await new Promise((ok) => setTimeout(ok, holdMs));
    if (res.destroyed) return;
    const answer = await fetch(`${upstream()}${req.url}`);
    let body = await answer.text();
    if (payTo === PAY_TO.tampered && answer.ok) {
      const document = JSON.parse(body);
      document.signature = (document.signature[0] === "A" ? "B" : "A") + document.signature.slice(1);
      body = JSON.stringify(document);
    }
    res.writeHead(answer.status, { "Content-Type": "application/json", "Cache-Control": answer.headers.get("cache-control") ?? "no-store" });
    res.end(body);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    asked,
    stop: () => new Promise((done) => {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      server.close(done);
    }),
  };
}

let shop, service, front, held;
/** The verdicts of the logged route, signed now with their proofs, and the loopback service of them by case. */
let logged, loggedService;
/** The seller whose 402 staples its verdict (x402-verdict/seller's verdictExtension), its verdicts, and its own way to the service. */
let stapledShop, sellerVerdicts, relay;
/** When the shop was last asked for each path (Date.now()). */
const shopAsked = new Map();
/** The header the human-backed route's 402 carries, which /flood repeats. */
let humanHeader;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  front = await startFront(() => service.url);
  held = await startFront(() => service.url, HELD_MS);
  // Every v2 paywall page carries a badge of its own for the human-backed endpoint (it draws nothing: the extension reads it),
  // and an image badge for it (the extension reads its endpoint from its URL).
  const image = () => `${service.url}/v0/badge.svg?${new URLSearchParams({ chain: EVM_NETWORK, payTo: PAY_TO.human, resourceUrl: `${shop.url}/human` })}`;
  const paywall = {
    generateHtml: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pay</title></head><body><p>Pay to read.</p>
      <span data-x402-verdict data-chain="${EVM_NETWORK}" data-pay-to="${PAY_TO.human}" data-resource-url="${shop.url}/human"></span>
      <img src="${image()}" alt="x402 verdict"></body></html>`,
  };
  const pages = {
    "/shop.html": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><p>Shop</p><script>fetch("/revoked")</script></body></html>`,
    "/flood.html": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Flood</title></head><body><p>Flood</p></body></html>`,
    "/flood": (req, res) => res.status(402).set("PAYMENT-REQUIRED", humanHeader).type("json").send("{}"),
  };
  shop = await startX402Servers({ routes: ROUTES, pages, paywall, before: (req, res, next) => (shopAsked.set(req.path, Date.now()), next()) });
  relay = await startFront(() => service.url);
  sellerVerdicts = verdictCache({ baseUrl: relay.url, publicKey, strict: true });
  stapledShop = await startX402Servers({ routes: { "GET /stapled": { accepts: option(PAY_TO.stapled), description: "stapled" } }, extension: verdictExtension(sellerVerdicts), paywall });
  humanHeader = (await fetch(`${shop.url}/human`)).headers.get("payment-required");
  logged = logFixture(EVM_NETWORK, PAY_TO.logged, `${shop.url}/logged`);
  loggedService = await serveDocuments(logged.documents);
  const at = (path) => `${shop.url}${path}`;
  service = await serveRegistry({
    attestations: [
      attested(EVM_NETWORK, PAY_TO.human, at("/human")),
      attested(EVM_NETWORK, PAY_TO.human, at("/two")),
      attested(EVM_NETWORK, PAY_TO.revoked, at("/revoked"), { status: "revoked" }),
      attested(EVM_NETWORK, PAY_TO.revoked, at("/two"), { status: "revoked" }),
      ...["tampered", "down", "slow", "held"].map((name) => attested(EVM_NETWORK, PAY_TO[name], at(`/${name}`))),
      attested("base-sepolia", EVM_PAY_TO, at("/legacy/quote")),
      attested(EVM_NETWORK, PAY_TO.stapled, `${stapledShop.url}/stapled`),
    ],
  }, "extension-registry.json");
});

after(async () => {
  sellerVerdicts?.clear();
  await Promise.all([shop?.stop(), stapledShop?.stop(), service?.stop(), front?.stop(), held?.stop(), relay?.stop(), loggedService?.stop()]);
});

/** Reads the toolbar of `tabId` until `settled` says it is; its last reading. */
async function toolbarWhen(browser, tabId, settled, what) {
  let last;
  for (let i = 0; i < 200; i++) {
    last = await browser.toolbar(tabId);
    if (settled(last)) return last;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  assert.fail(`${browser.engine}: the toolbar never showed ${what}: ${JSON.stringify(last)}`);
}
/** The toolbar shows `mark` and a verdict's title (its words come in one call after the mark's). */
const shows = (mark, title = /^(\d+ options: )?Verification: /) => (bar) => bar.text === mark && title.test(bar.title);

/** Reads the popup of `tabId` until it says what `expected` matches (the page's badges come when the page is idle); its last reading. */
async function popupWhen(browser, tabId, expected, screenshot) {
  let last;
  for (let i = 0; i < 20; i++) {
    last = await browser.popup(tabId, screenshot);
    if (expected.test(last)) return last;
    await new Promise((ok) => setTimeout(ok, 250));
  }
  assert.fail(`${browser.engine}: the popup never said ${expected}: ${last}`);
}

for (const engine of ENGINES.filter((e) => e === "chromium" || e === "firefox")) {
  describe(`the extension in ${engine}`, { concurrency: false }, () => {
    let browser;
    /** The root operator whose service the last tests set (tests/support/root-operator.mjs), one per engine. */
    let operator;
    before(async () => {
      browser = await launchWithExtension(engine);
    });
    after(async () => {
      await Promise.all([browser?.close(), operator?.stop()]);
    });

    test("loads with no manifest error or warning", async () => {
      assert.deepEqual(await browser.problems(), []);
    });

    test("with no service set, every endpoint reads unknown with the core's words, and the popup says how to set one", async () => {
      const sent = front.asked.length;
      const tab = await browser.open(`${shop.url}/human`);
      await toolbarWhen(browser, tab, shows(MARK.unknown, /^Verification: unknown; outcome no_service; .*reason no_base_url\.$/), "? for no service");
      const popup = await browser.popup(tab, `${ARTIFACTS}extension-popup-no-service-${engine}.png`);
      assert.match(popup, /No verification service is set, so every endpoint reads unknown\./);
      assert.match(popup, /Set one in this extension's settings/);
      assert.match(popup, /Open settings/);
      assert.equal(front.asked.length, sent, "nothing is sent without a service");
    });

    test("the settings page refuses what the badge would refuse, and saves the service", async () => {
      assert.match(await browser.settings({ baseUrl: "ftp://verify.example" }), /^Not saved: .*baseUrl/);
      assert.equal(await browser.settings({ baseUrl: front.url, publicKey: "", strict: true }), "Saved.");
    });

    test("a paywall per state: the toolbar's mark and title, and the popup's words", async () => {
      const cases = [
        ["/human", MARK.human, /^Verification: human-backed; outcome human_backed; freshness fresh; assurance G; .*signature valid\.$/, /verified · G/],
        ["/revoked", MARK.revoked, /^Verification: revoked; outcome revoked; .*reason revoked\.$/, /withdrawn or has lapsed/],
        ["/unlisted", MARK.unknown, /^Verification: unknown; outcome no_signal; .*reason not_listed\.$/, /No signal: the verification service holds nothing for this endpoint\./],
        ["/tampered", MARK.unknown, /^Verification: unknown; .*signature invalid; reason signature_invalid\.$/, /The verdict's signature failed to verify\./],
        ["/down", MARK.unknown, /^Verification: unknown; outcome no_response; .*reason network_error\.$/, /could not be reached/],
      ];
      for (const [path, mark, title, words] of cases) {
        const tab = await browser.open(`${shop.url}${path}`);
        await toolbarWhen(browser, tab, shows(mark, title), `${mark} and ${title} for ${path}`);
        const popup = await browser.popup(tab);
        assert.match(popup, /This page asks payment/, path);
        assert.match(popup, words, path);
        // Who it pays: the resource's host, the network's name, the address shortened in the middle.
        assert.ok(popup.includes(`127.0.0.1:${new URL(shop.url).port}`), path);
        assert.ok(popup.includes(`to ${PAY_TO[path.slice(1)].slice(0, 6)}…${PAY_TO[path.slice(1)].slice(-4)} on base-sepolia`), `${path}: ${popup}`);
      }
    });

    test("a service slower than the timeout: the page loads at once, the toolbar checks, then reads unknown (timeout)", async () => {
      const tab = await browser.open(`${shop.url}/slow`);
      // The page has loaded while its lookup still waits for the service (which never answers; the extension gives up after 3 s).
      await toolbarWhen(browser, tab, (bar) => bar.text === MARK.checking && bar.title === "Checking the verification service…", "… while checking");
      await toolbarWhen(browser, tab, shows(MARK.unknown, /outcome no_response; .*reason timeout\.$/), "? after the timeout");
    });

    test("a verdict stapled to the 402 is checked offline: ✓ with no verdict request for it", async () => {
      const resourceUrl = `${stapledShop.url}/stapled`;
      // The seller has its verdict (fetched now, so that it is under 300 s old whichever engine runs when).
      assert.ok(await sellerVerdicts.fetch({ chain: EVM_NETWORK, payTo: PAY_TO.stapled, resourceUrl }));
      const tab = await browser.open(resourceUrl);
      await toolbarWhen(browser, tab, shows(MARK.human, /^Verification: human-backed; .*signature valid\.$/), "✓ from the staple");
      assert.deepEqual(front.asked.filter((url) => url.includes(PAY_TO.stapled)), []);
    });

    test("two options, one revoked: ✕, the revoked one's line with the count, both in the popup", async () => {
      const tab = await browser.open(`${shop.url}/two`);
      await toolbarWhen(browser, tab, shows(MARK.revoked, /^2 options: Verification: revoked; /), "✕ and the revoked option's line");
      const popup = await popupWhen(browser, tab, /Badges drawn by this page/, `${ARTIFACTS}extension-popup-${engine}.png`);
      assert.match(popup, /verified · G/);
      assert.match(popup, /not verified/);
    });

    test("x402 v1: the paywall page of x402-express 1.2 is read by the content script", async () => {
      const tab = await browser.open(`${shop.url}/legacy/quote`);
      await toolbarWhen(browser, tab, shows(MARK.human, /^Verification: human-backed; /), "✓ for the v1 paywall");
      assert.match(await browser.popup(tab), /to 0x2096…287C on base-sepolia/);
    });

    test("a page whose script fetches a 402 API: the request's challenge in the toolbar and popup", async () => {
      const tab = await browser.open(`${shop.url}/shop.html`);
      await toolbarWhen(browser, tab, shows(MARK.revoked, /^Verification: revoked; /), "✕ for the page's fetch");
      const popup = await browser.popup(tab);
      assert.match(popup, /A request of this page asks payment/);
      assert.ok(popup.includes(`${shop.url}/revoked`));
    });

    test("the page's own badges, element and image: checked when about the endpoint asked, flagged when not", async () => {
      const count = (text, phrase) => text.split(phrase).length - 1;
      let tab = await browser.open(`${shop.url}/human`);
      await toolbarWhen(browser, tab, shows(MARK.human), "✓");
      let popup = await popupWhen(browser, tab, /Badges drawn by this page(.|\n)*The extension's own check(.|\n)*The extension's own check/);
      // A new document: the record of the page before it (its request's 402) is gone.
      assert.doesNotMatch(popup, /A request of this page asks payment/);
      assert.equal(count(popup, "The extension's own check of this endpoint:"), 2, popup);
      assert.doesNotMatch(popup, /not about the endpoint/);
      tab = await browser.open(`${shop.url}/revoked`);
      await toolbarWhen(browser, tab, shows(MARK.revoked), "✕");
      popup = await popupWhen(browser, tab, /not about the endpoint this page asks payment for\.(.|\n)*not about the endpoint this page asks payment for\./, `${ARTIFACTS}extension-popup-flag-${engine}.png`);
      assert.equal(count(popup, "This badge is not about the endpoint this page asks payment for."), 2, popup);
    });

    test("sends nothing but verdict and keys requests, for the endpoints of the 402s met, once per endpoint", async () => {
      const met = new Set([...Object.values(PAY_TO), EVM_PAY_TO]);
      for (const url of front.asked) {
        const { pathname, searchParams } = new URL(url, "http://x");
        if (pathname === "/v0/verification-keys") continue;
        assert.equal(pathname, "/v0/verdict", url);
        assert.ok(met.has(searchParams.get("payTo")), url);
      }
      // The human-backed endpoint was met three times in this engine (and the service's answer is fresh for a minute).
      const human = front.asked.filter((url) => url.includes(PAY_TO.human) && url.includes(encodeURIComponent(`${shop.url}/human`)));
      assert.ok(human.length >= 1 && human.length <= ENGINES.length, `${human.length} requests for one endpoint`);
    });

    test("a service worker the browser stopped comes back with the tab's record, and goes on observing", { skip: engine !== "chromium" && "Firefox's background is an event page" }, async () => {
      const tab = await browser.open(`${shop.url}/two`);
      await toolbarWhen(browser, tab, shows(MARK.revoked, /^2 options: /), "✕ before the stop");
      const asked = front.asked.length;
      await browser.stopWorker();
      // The popup's question wakes it: both options and their results, from the record it kept, with no request.
      const popup = await popupWhen(browser, tab, /verified · G/);
      assert.match(popup, /not verified/);
      assert.match(popup, /This page asks payment/);
      assert.equal(front.asked.length, asked, "the kept results are not asked again");
      assert.equal((await browser.toolbar(tab)).text, MARK.revoked);
      // A 402 met after the restart is read as before.
      await browser.open(`${shop.url}/unlisted`);
      await toolbarWhen(browser, tab, shows(MARK.unknown, /reason not_listed\.$/), "? for a page met after the restart");
    });

    test("after all these pages: still no error or warning from the extension", async () => {
      assert.deepEqual(await browser.problems(), []);
    });

    test("a page that meets thousands of 402s keeps its record bounded", { skip: engine !== "chromium" && "storage.session's bytes are read in Chromium only" }, async (t) => {
      const tab = await browser.open(`${shop.url}/flood.html`);
      const flood = (from, to) => browser.run(tab, `async () => { for (let i = ${from}; i < ${to}; i++) await fetch("/flood?i=" + i); }`);
      await flood(0, 1000);
      await toolbarWhen(browser, tab, shows(MARK.human), "✓ after a thousand 402s");
      const popup = await browser.popup(tab);
      assert.equal(popup.match(/A request of this page asks payment/g).length, 20);
      const bytes = await browser.sessionBytes();
      await flood(1000, 10000);
      await toolbarWhen(browser, tab, shows(MARK.human), "✓ after ten thousand 402s");
      const later = await browser.sessionBytes();
      t.diagnostic(`the tab's record: ${bytes} B after 1,000 402s, ${later} B after 10,000 (${(later / bytes).toFixed(2)}x)`);
      assert.ok(later <= bytes * 1.1, `${bytes} B after 1,000 402s, ${later} B after 10,000`);
      assert.equal((await browser.popup(tab)).match(/A request of this page asks payment/g).length, 20);
    });

    // Last ones: they set other services.
    test("a service that holds its answers 10 s, asked while other tabs load: unknown (timeout) within the timeout and a second, and still once the answers come", async (t) => {
      assert.equal(await browser.settings({ baseUrl: held.url, publicKey: "", strict: true }), "Saved.");
      // Other tabs load paywalls whose lookups ask the same service (their verdicts and its keys), as the tab's does.
      await browser.aside(["/revoked", "/unlisted", "/two", "/human"].map((path) => `${shop.url}${path}`));
      const sent = held.asked.length;
      const tab = await browser.open(`${shop.url}/held`);
      await toolbarWhen(browser, tab, (bar) => bar.text === MARK.checking, "… while checking");
      const bar = await toolbarWhen(browser, tab, shows(MARK.unknown, /outcome no_response; .*reason timeout\.$/), "? for the timeout");
      // The default timeout is 3 s: the toolbar reads unknown within it and a second of the 402, not when the service answers.
      const waited = Date.now() - shopAsked.get("/held");
      t.diagnostic(`${browser.engine}: the toolbar read unknown ${waited} ms after the 402`);
      assert.ok(waited < 4000, `${browser.engine}: the toolbar read unknown ${waited} ms after the 402`);
      assert.ok(held.asked.slice(sent).some((url) => url.includes(PAY_TO.held)), "the endpoint was asked");
      // The answers the service held come (the endpoint is attested: a late answer taken would read ✓); the toolbar stays unknown.
      await new Promise((ok) => setTimeout(ok, shopAsked.get("/held") + HELD_MS + 1500 - Date.now()));
      assert.deepEqual(await browser.toolbar(tab), bar);
    });

    test("pinned to the root (its rootKey setting), ✓ across three signing-key rotations and a root rotation, the settings unchanged", async () => {
      operator = await rootOperator(`extension-${engine}`, ROTATED_PATHS.map((path) => attested(EVM_NETWORK, ROTATED, `${shop.url}${path}`)));
      assert.equal(await browser.settings({ baseUrl: operator.url, rootKey: operator.rootKey, strict: true }), "Saved.");
      for (const [i, step] of STEPS.entries()) {
        await operator.step(i);
        const tab = await browser.open(`${shop.url}/step-${i}`);
        await toolbarWhen(browser, tab, shows(MARK.human, /^Verification: human-backed; outcome human_backed; .*signature valid\.$/), `✓ once ${step}`);
        assert.match(await browser.popup(tab), /verified · G/, step);
      }
    });

    test("pinned to another root: the service's certified verdict reads unknown, the signature required", async () => {
      const other = await rootOperator(`extension-other-${engine}`, []);
      assert.equal(await browser.settings({ baseUrl: operator.url, rootKey: other.rootKey, strict: true }), "Saved.");
      const tab = await browser.open(`${shop.url}/foreign`);
      await toolbarWhen(browser, tab, shows(MARK.unknown, /^Verification: unknown; .*signature unverifiable; reason signature_required\.$/), "? under another root");
    });

    test("under transparency required, a verdict the log proves reads ✓ and one signed outside it ?, its signature valid", async () => {
      const settings = (name, log) => ({ baseUrl: `${loggedService.url}/${name}`, publicKey: logged.publicKey, strict: true, ...log });
      const required = { ...logOptions(logged, "required"), witnessKeys: logged.witnessKeys.join(", "), witnessQuorum: "1" };
      assert.equal(await browser.settings(settings("proven", required)), "Saved.");
      let tab = await browser.open(`${shop.url}/logged`);
      await toolbarWhen(browser, tab, shows(MARK.human, /^Verification: human-backed; outcome human_backed; .*signature valid\.$/), "✓ when the log proves it");
      assert.equal(await browser.settings(settings("signedOutsideTheLog", required)), "Saved.");
      tab = await browser.open(`${shop.url}/logged`);
      await toolbarWhen(browser, tab, shows(MARK.unknown, /^Verification: unknown; outcome human_backed; .*signature valid; reason no_transparency_proof\.$/), "? when the log holds no proof");
      // Under off, the same verdict reads as without a log.
      assert.equal(await browser.settings(settings("signedOutsideTheLog", { ...required, transparency: "off" })), "Saved.");
      tab = await browser.open(`${shop.url}/logged`);
      await toolbarWhen(browser, tab, shows(MARK.human, /^Verification: human-backed; outcome human_backed; .*signature valid\.$/), "✓ under off");
    });

    test("a witness quorum above the witnesses is not saved, named", async () => {
      const log = { ...logOptions(logged, "required"), witnessKeys: logged.witnessKeys[0], witnessQuorum: "2" };
      assert.equal(await browser.settings({ baseUrl: loggedService.url, ...log }), "Not saved: witnessQuorum is more than the witnesses given");
    });
  });
}

// An organization's policy (storage.managed) pins the root: Firefox reads it
// from the user's managed-storage manifest (tests/support/extension.mjs), and
// the extension reads ✓ across the rotations with the policy unchanged.
// Chromium reads policies from /etc alone, which a test does not write; both
// engines read the settings in force through the same engine call.
if (ENGINES.includes("firefox")) {
  describe("the extension in firefox, the root pinned by an organization's policy", { concurrency: false }, () => {
    let browser, operator;
    before(async () => {
      operator = await rootOperator("extension-managed", ROTATED_PATHS.map((path) => attested(EVM_NETWORK, ROTATED, `${shop.url}${path}`)));
      browser = await launchWithExtension("firefox", { managed: { baseUrl: operator.url, rootKey: [operator.rootKey], strict: true } });
    });
    after(async () => {
      await Promise.all([browser?.close(), operator?.stop()]);
    });

    test("✓ across three signing-key rotations and a root rotation, the policy unchanged", async () => {
      for (const [i, step] of STEPS.entries()) {
        await operator.step(i);
        const tab = await browser.open(`${shop.url}/step-${i}`);
        await toolbarWhen(browser, tab, shows(MARK.human, /^Verification: human-backed; outcome human_backed; .*signature valid\.$/), `✓ once ${step}`);
      }
    });
  });
}
