// x402-verdict/seller against real parts: the reference service (a registry
// attesting one address of a paid route and revoking the other) behind a
// counting front, the official @x402/express 2.27 middleware (and
// @x402/hono 2.27's, in Node), unmodified,
// with the loopback fake facilitator (tests/support/x402-servers.mjs), and
// real browsers in each engine (tests/support/browser.mjs). Its verdict cache
// in Node (one request per endpoint in flight, also across its dropping,
// kept per Cache-Control); a
// browser's GET of a paid route gets the 402 paywall with a badge per
// accepted option, verified and not verified, with no request from the
// browser to the service once the verdicts are warm, and badges that fetch
// before; the page stays a 402 page when the service is down; and a seller's
// own page under a strict Content-Security-Policy with a nonce.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { UNREACHABLE, demoKeys } from "../../scripts/demo.mjs";
import { ENGINES, launch } from "../support/browser.mjs";
import { fetched, startOrigin } from "../support/origin.mjs";
import { AGENT_PACKAGE, PACKAGE } from "../support/package.mjs";
import { attested, serveRegistry } from "../support/reference-service.mjs";
import { EVM_NETWORK, EVM_PAY_TO, SOLANA_NETWORK, SOLANA_PAY_TO, startX402Servers } from "../support/x402-servers.mjs";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { Hono } from "hono";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { paymentMiddleware as honoPaymentMiddleware, x402ResourceServer } from "@x402/hono";
import { ExactSvmScheme } from "@x402/svm/exact/server";

const { badgeHtml, headHtml, verdictCache, verdictPaywall } = await import(`${AGENT_PACKAGE}seller.js`);
const { engine: core } = await import(`${AGENT_PACKAGE}engine.js`);
const publicKey = JSON.parse(readFileSync(demoKeys(), "utf8")).current.publicKey;

/** The nonce of the request being answered. */
const nonces = new AsyncLocalStorage();
/** A strict policy: scripts only with this request's nonce. */
const policy = (nonce, service) => `default-src 'none'; script-src 'nonce-${nonce}' 'wasm-unsafe-eval'; connect-src 'self' ${service}; style-src 'self'; img-src 'self'`;

let front, service, shop, down;
/** The paywall providers of the shop (warm) and of the shop whose service is down. */
let paywall, downPaywall;

before(async () => {
  // The front counts the verdict requests the service gets; its upstream is the service, started once the shop's URL is known.
  front = await startOrigin();
  paywall = verdictPaywall({ baseUrl: front.url, publicKey, badgeScriptUrl: "/pkg/embed.js", nonce: () => nonces.getStore() });
  const before = (req, res, next) => {
    const nonce = randomBytes(12).toString("base64");
    res.setHeader("Content-Security-Policy", policy(nonce, front.url));
    nonces.run(nonce, next);
  };
  const sellerPage = (req, res) => {
    const nonce = nonces.getStore();
    const endpoint = { chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl: `${shop.url}/weather` };
    const badge = badgeHtml({ baseUrl: front.url, publicKey, ...endpoint, verdict: paywall.cache.get(endpoint) });
    res.type("html").send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>shop</title>${headHtml({ badgeScriptUrl: "/pkg/embed.js", nonce })}</head><body><p>Weather ${badge}</p></body></html>`);
  };
  shop = await startX402Servers({ paywall, before, pages: { "/seller": sellerPage }, folders: { "/pkg": PACKAGE } });
  const resource = `${shop.url}/weather`;
  service = await serveRegistry({
    attestations: [attested(EVM_NETWORK, EVM_PAY_TO, resource), attested(SOLANA_NETWORK, SOLANA_PAY_TO, resource, { status: "revoked" })],
  }, "seller-registry.json");
  front.upstream = service.url;
  downPaywall = verdictPaywall({ baseUrl: UNREACHABLE, publicKey, badgeScriptUrl: "/pkg/embed.js" });
  down = await startX402Servers({ paywall: downPaywall, folders: { "/pkg": PACKAGE } });
});
after(async () => {
  paywall?.cache.clear();
  downPaywall?.cache.clear();
  await Promise.all([front?.stop(), service?.stop(), shop?.stop(), down?.stop()]);
});

const atService = () => front.requests.filter((p) => p === "/v0/verdict").length;
/** The endpoints of GET /weather: its two accepted options. */
const weather = () => [
  { chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl: `${shop.url}/weather` },
  { chain: SOLANA_NETWORK, payTo: SOLANA_PAY_TO, resourceUrl: `${shop.url}/weather` },
];
/** A browser's GET, as the middleware tells one (Accept: text/html, a Mozilla user agent). */
const asBrowser = { headers: { Accept: "text/html,application/xhtml+xml", "User-Agent": "Mozilla/5.0 (X11; Linux x86_64)" } };

test("the verdict cache asks once per endpoint at a time, and keeps the answer per Cache-Control", async () => {
  const cache = verdictCache({ baseUrl: front.url, publicKey });
  try {
    const [endpoint] = weather();
    front.requests.length = 0;
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.fetch(endpoint)));
    assert.equal(atService(), 1, "five at once: one request");
    assert.ok(answers.every((a) => a === answers[0] && JSON.parse(a).verdict.outcome === "human_backed"));
    assert.equal(cache.get(endpoint), answers[0], "kept (max-age=60)");
    assert.equal(atService(), 1);
    // A verdict the badge would not take (no keys configured) is never handed out to inline.
    const keyless = verdictCache({ baseUrl: front.url });
    assert.equal(await keyless.fetch(endpoint), undefined);
    keyless.clear();
  } finally {
    cache.clear();
  }
});

test("an endpoint whose request is in flight gets no second one when it is dropped and asked again", async () => {
  // A loopback service that holds the answers about one endpoint until told, and answers the others at once.
  const held = { chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl: "https://api.example.com/held" };
  const asked = new Map();
  let release;
  const released = new Promise((done) => { release = done; });
  const server = createServer(async (req, res) => {
    const resource = new URL(req.url, "http://localhost").searchParams.get("resourceUrl");
    asked.set(resource, (asked.get(resource) ?? 0) + 1);
    if (resource === held.resourceUrl) await released;
    res.writeHead(404, { "Content-Type": "application/json", "Cache-Control": "no-store" }).end('{"error":"no attestation for this endpoint"}');
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const cache = verdictCache({ baseUrl: `http://127.0.0.1:${server.address().port}`, publicKey });
  try {
    cache.get(held);
    for (const until = Date.now() + 20000; asked.get(held.resourceUrl) !== 1;) {
      assert.ok(Date.now() < until, "the held endpoint's request reached the service");
      await new Promise((done) => setTimeout(done, 10));
    }
    // As many others as the cache keeps: the held endpoint, least recently asked, is dropped.
    const others = Array.from({ length: core.maxKeptVerdicts() }, (_, i) => ({ ...held, resourceUrl: `https://api.example.com/other/${i}` }));
    for (const other of others) cache.get(other);
    cache.get(held);
    release();
    assert.equal(await cache.fetch(held), undefined);
    await Promise.all(others.map((other) => cache.fetch(other)));
    assert.equal(asked.get(held.resourceUrl), 1, "one request for the held endpoint reached the service");
    assert.equal(asked.size, others.length + 1);
  } finally {
    cache.clear();
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

test("badgeHtml and headHtml escape everything they write", () => {
  const html = badgeHtml({ baseUrl: "https://v.example/?a=1&b=\"2\"", publicKey: ["k1", "k2"], chain: "base", payTo: "0x1", resourceUrl: "https://r.example/<x>", verdict: `{"a":"'</span><script>"}` });
  assert.equal(html, '<span data-x402-verdict data-base-url="https://v.example/?a=1&#38;b=&#34;2&#34;" data-chain="base" data-pay-to="0x1" data-resource-url="https://r.example/&#60;x&#62;" data-public-key="k1,k2" data-verdict="{&#34;a&#34;:&#34;&#39;&#60;/span&#62;&#60;script&#62;&#34;}" data-strict></span>');
  assert.equal(headHtml({ badgeScriptUrl: "https://cdn.example/b/embed.js", nonce: "n\"1" }),
    '<link rel="preload" href="https://cdn.example/b/x402_verdict_embed_bg.wasm" as="fetch" type="application/wasm" crossorigin nonce="n&#34;1"><script src="https://cdn.example/b/embed.js" nonce="n&#34;1"></script>');
});

test("a paywall page rendered before the first answer carries badges that fetch; once warm, their verdicts inlined", async () => {
  front.requests.length = 0;
  const cold = await (await fetch(`${shop.url}/weather`, asBrowser)).text();
  assert.equal(cold.match(/<span data-x402-verdict /g)?.length, 2);
  assert.doesNotMatch(cold, /data-verdict=/);
  // Each badge beside the option it speaks of, so that a buyer can tell them apart.
  for (const { chain, payTo } of weather()) {
    assert.match(cold, new RegExp(`<li><span data-x402-verdict [^>]*data-pay-to="${payTo}"[^>]*></span> to ${payTo} on ${chain}</li>`));
  }
  for (const endpoint of weather()) await paywall.cache.fetch(endpoint);
  assert.equal(atService(), 2, "one request per endpoint, started by the first page");
  const response = await fetch(`${shop.url}/weather`, asBrowser);
  assert.equal(response.status, 402);
  const warm = await response.text();
  assert.equal(warm.match(/ data-verdict="/g)?.length, 2);
  const nonce = /script-src 'nonce-([^']+)'/.exec(response.headers.get("content-security-policy"))[1];
  assert.ok(warm.includes(`<script src="/pkg/embed.js" nonce="${nonce}"></script>`), "the script tag carries this answer's nonce");
});

test("@x402/hono 2.27 takes the same paywall: its 402 page carries a badge per option, their verdicts inlined once warm", async () => {
  const hono = verdictPaywall({ baseUrl: front.url, publicKey, badgeScriptUrl: "/pkg/embed.js" });
  try {
    const server = new x402ResourceServer(new HTTPFacilitatorClient({ url: shop.facilitator.url }))
      .register(EVM_NETWORK, new ExactEvmScheme())
      .register(SOLANA_NETWORK, new ExactSvmScheme());
    // The route declares the resource the registry attests (the Express shop's /weather).
    const resource = `${shop.url}/weather`;
    const accepts = [
      { scheme: "exact", price: "$0.01", network: EVM_NETWORK, payTo: EVM_PAY_TO },
      { scheme: "exact", price: "$0.01", network: SOLANA_NETWORK, payTo: SOLANA_PAY_TO },
    ];
    const app = new Hono();
    app.use(honoPaymentMiddleware({ "GET /forecast": { accepts, resource, description: "A forecast" } }, server, undefined, hono));
    app.get("/forecast", (c) => c.json({ paid: true }));
    const get = () => app.request("http://127.0.0.1/forecast", asBrowser);
    const cold = await get();
    assert.equal(cold.status, 402);
    assert.ok(cold.headers.get("payment-required"));
    const page = await cold.text();
    assert.equal(page.match(/<span data-x402-verdict /g)?.length, 2);
    for (const endpoint of weather()) await hono.cache.fetch(endpoint);
    const warm = await (await get()).text();
    assert.equal(warm.match(/ data-verdict="/g)?.length, 2);
  } finally {
    hono.cache.clear();
  }
});

test("the paywall stays a 402 page with the challenge when the service is down", async () => {
  const response = await fetch(`${down.url}/weather`, asBrowser);
  assert.equal(response.status, 402);
  assert.match(response.headers.get("content-type"), /^text\/html/);
  assert.ok(response.headers.get("payment-required"));
  const page = await response.text();
  assert.equal(page.match(/<span data-x402-verdict /g)?.length, 2, "a badge per accepted option");
  assert.doesNotMatch(page, /data-verdict=/, "nothing to inline");
});

for (const engine of ENGINES) describe(engine, () => {
  let browser;
  before(async () => { browser = await launch(engine); });
  after(() => browser?.close());

  /** Opens `url`; resolves to the badges' states once settled, and the verdict requests the page made. */
  async function open(url, count = 2) {
    const tab = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await tab.goto(url);
    await tab.waitForFunction((n) => {
      const hosts = document.querySelectorAll("x402-verdict-view");
      return hosts.length >= n && [...hosts].every((h) => h.dataset.state !== "checking");
    }, count, { timeout: 20000 });
    await tab.waitForTimeout(300);
    const states = await tab.$$eval("x402-verdict-view", (hosts) => hosts.map((h) => h.dataset.state));
    return { tab, states, requests: (await fetched(tab, "/v0/verdict")).length };
  }

  test("a browser's GET of a paid route gets the paywall with a badge per option: verified and not verified, with no request from the browser once warm", async () => {
    for (const endpoint of weather()) await paywall.cache.fetch(endpoint);
    front.requests.length = 0;
    const { tab, states, requests } = await open(`${shop.url}/weather`);
    assert.deepEqual(states, ["human-backed", "revoked"]);
    assert.equal(requests, 0, "no verdict request from the page");
    assert.equal(atService(), 0, "none at the service either");
    await tab.close();
  });

  test("a seller's own page under a strict Content-Security-Policy with a nonce: its badge, inlined, verified with no request", async () => {
    await paywall.cache.fetch(weather()[0]);
    front.requests.length = 0;
    const { tab, states, requests } = await open(`${shop.url}/seller`, 1);
    assert.deepEqual(states, ["human-backed"]);
    assert.equal(requests + atService(), 0);
    const loaded = await tab.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.startsWith("/pkg/")).sort());
    // WebKit lists both files twice in its Resource Timing (the preloaded wasm, and embed.js, which nothing preloads).
    const expected = ["/pkg/embed.js", "/pkg/x402_verdict_embed_bg.wasm"];
    assert.deepEqual(engine === "webkit" ? [...new Set(loaded)] : loaded, expected, "the preloaded wasm is the one embed.js takes");
    await tab.close();
  });

  test("with the service down, the 402 page still renders and its badges read unknown", async () => {
    const { tab, states } = await open(`${down.url}/weather`);
    assert.deepEqual(states, ["unknown", "unknown"]);
    assert.match(await tab.evaluate(() => document.title), /./);
    await tab.close();
  });
});
