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
// before; the page stays a 402 page when the service is down; a seller's
// own page under a strict Content-Security-Policy with a nonce; and the
// markup-injection trial: a provider's pages carrying a hostile
// resource description, each served with the badges where the HTML parser
// puts the page's head and body, or as the provider wrote it, never with an
// element or a script that neither wrote.
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
import { parse } from "parse5";

const { badgeHtml, headHtml, verdictCache, verdictPaywall } = await import(`${AGENT_PACKAGE}seller.js`);
const { engine: core } = await import(`${AGENT_PACKAGE}engine.js`);
const publicKey = JSON.parse(readFileSync(demoKeys(), "utf8")).current.publicKey;

/** The nonce of the request being answered. */
const nonces = new AsyncLocalStorage();
/** A strict policy: scripts only with this request's nonce. */
const policy = (nonce, service) => `default-src 'none'; script-src 'nonce-${nonce}' 'wasm-unsafe-eval'; connect-src 'self' ${service}; style-src 'self'; img-src 'self'`;

/**
 * The trial's resource descriptions: each ends the head, the body or a script
 * in a page that takes it for markup, then adds an image whose error handler
 * sets a global.
 */
const HOSTILE = {
  head: "Premium data </head><img src=x onerror=window.x402Pwned=31>",
  body: "Premium data </body><img src=x onerror=window.x402Pwned=32>",
  script: "Premium data </script><img src=x onerror=window.x402Pwned=33>",
};
/** A description as a provider writes it in a double-quoted attribute (escaping only & and "), and in an inline script's JSON (escaping only </script). */
const inAttribute = (text) => text.replaceAll("&", "&amp;").replaceAll('"', "&quot;");
const inScript = (text) => JSON.stringify({ description: text }).replace(/<\/script/gi, "<\\/script");
/** The provider's pages by where they carry the description (its text as written, unescaped, where the context takes no markup). */
const TRIAL_PAGES = {
  attribute: (d) => `<!doctype html><html><head><meta charset="utf-8"><meta name="description" content="${inAttribute(d)}"><title>Pay</title></head><body><main id="provider" data-description="${inAttribute(d)}"><h1>Pay</h1></main></body></html>`,
  "script-json": (d) => `<!doctype html><html><head><title>Pay</title><script>window.paywall = ${inScript(d)};</script></head><body><main id="provider"><h1>Pay</h1></main></body>\n<script>window.again = ${inScript(d)};</script></html>`,
  comment: (d) => `<!doctype html><html><head><title>Pay</title><!-- ${d} --></head><body><main id="provider"><h1>Pay</h1></main><!-- ${d} --></body></html>`,
  template: (d) => `<!doctype html><html><head><title>Pay</title><template><p title="${inAttribute(d)}">${d}</p></template></head><body><main id="provider"><h1>Pay</h1><template><p>${d}</p></template></main></body></html>`,
  noscript: (d) => `<!doctype html><html><head><title>Pay</title></head><body><main id="provider"><h1>Pay</h1><noscript><p>${d}</p></noscript></main></body></html>`,
  "no-head": (d) => `<!doctype html><html><title>Pay</title><meta name="description" content="${inAttribute(d)}"><main id="provider"><h1>Pay</h1></main>`,
  "two-heads": (d) => `<!doctype html><html><head><title>Pay</title></head><head><meta name="description" content="${inAttribute(d)}"></head><body><main id="provider"><h1>Pay</h1></main></body></html>`,
};
/** The trial's paths: a page for each place and hostile text. */
const TRIAL = Object.keys(TRIAL_PAGES).flatMap((place) => Object.keys(HOSTILE).map((text) => ({ place, text, path: `/trial/${place}/${text}` })));
/** The trial's provider: the page of the route's place, with its description; `pages` keeps each page it wrote, by path. */
const trialProvider = {
  pages: new Map(),
  generateHtml({ resource }) {
    const { pathname } = new URL(resource.url);
    const page = TRIAL_PAGES[pathname.split("/")[2]](resource.description);
    this.pages.set(pathname, page);
    return page;
  },
};
/** The names of the elements of `html` as a browser's parser makes them, in document order (a template's content aside). */
function elementsOf(html) {
  const names = [];
  const walk = (node) => {
    if (node.tagName) names.push(node.tagName);
    for (const child of node.childNodes ?? []) walk(child);
  };
  walk(parse(html));
  return names;
}

let front, service, shop, down, trial;
/** The paywall providers of the shop (warm) and of the shop whose service is down. */
let paywall, downPaywall, trialPaywall;

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
  // The trial's shop: no Content-Security-Policy, so that an injected handler would run.
  const evm = { scheme: "exact", price: "$0.01", network: EVM_NETWORK, payTo: EVM_PAY_TO };
  const svm = { scheme: "exact", price: "$0.01", network: SOLANA_NETWORK, payTo: SOLANA_PAY_TO };
  const routes = Object.fromEntries(TRIAL.map(({ text, path }) => [`GET ${path}`, { accepts: [evm, svm], description: HOSTILE[text] }]));
  // At the service itself, not the front: its kept verdicts, fetched anew each minute, must not count as the shop's requests.
  trialPaywall = verdictPaywall({ baseUrl: service.url, publicKey, badgeScriptUrl: "/pkg/embed.js", paywall: trialProvider });
  trial = await startX402Servers({ paywall: trialPaywall, routes, folders: { "/pkg": PACKAGE } });
});
after(async () => {
  paywall?.cache.clear();
  downPaywall?.cache.clear();
  trialPaywall?.cache.clear();
  await Promise.all([front?.stop(), service?.stop(), shop?.stop(), down?.stop(), trial?.stop()]);
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
  // The longest timeout, so that the held request outlasts asking 1,024 others on a loaded machine (at 3 s it could time out first, and be asked again).
  const cache = verdictCache({ baseUrl: `http://127.0.0.1:${server.address().port}`, publicKey, timeoutMs: 60000 });
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
  // The module's own page: the head snippet in its head, the badges after its words ("each badge below").
  assert.match(cold, /<script src="\/pkg\/embed\.js"[^>]*><\/script><\/head>/);
  assert.match(cold, /<\/p><ul data-x402-verdict-paywall>.*<\/ul><\/main><\/body>/);
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

/** The module's snippets in a served page: the head snippet, and the badges' list. */
const OWN = /<link rel="preload" href="\/pkg\/x402_verdict_embed_bg\.wasm"[^>]*><script src="\/pkg\/embed\.js"><\/script>|<ul data-x402-verdict-paywall>.*?<\/ul>/g;

test("the trial's pages are served as the provider wrote them, with the module's two snippets inserted whole", async () => {
  for (const { path } of TRIAL) {
    const response = await fetch(`${trial.url}${path}`, asBrowser);
    assert.equal(response.status, 402, path);
    const served = await response.text();
    assert.equal(served.match(OWN)?.length, 2, `${path}: the head snippet and the list`);
    assert.equal(served.replace(OWN, ""), trialProvider.pages.get(path), path);
  }
});

/** A 402 whose description is hostile, for the pages of the tests below. */
const HOSTILE_REQUIRED = {
  x402Version: 2,
  resource: { url: "https://api.example.com/premium-data", description: HOSTILE.head },
  accepts: [{ scheme: "exact", network: EVM_NETWORK, payTo: EVM_PAY_TO, amount: "10000", asset: EVM_PAY_TO, maxTimeoutSeconds: 60 }],
};

/** What verdictPaywall serves for a provider whose page is `page`. */
function servedFor(page) {
  const provider = verdictPaywall({ baseUrl: UNREACHABLE, publicKey, badgeScriptUrl: "/pkg/embed.js", paywall: { generateHtml: () => page } });
  try {
    return provider.generateHtml(HOSTILE_REQUIRED, {});
  } finally {
    provider.cache.clear();
  }
}

test("a page the badges cannot go in where the parser puts its head and body is served as the provider wrote it", () => {
  const pages = {
    "a <noscript> holding markup in the head (without scripting, the head ends before the snippet)": `<!doctype html><html><head><noscript><p title="${inAttribute(HOSTILE.head)}"></p></noscript></head><body><h1>Pay</h1></body></html>`,
    "a frameset (no body)": `<!doctype html><html><head><title>Pay</title></head><frameset><frame src="/a"></frameset></html>`,
    "a body implied by a <div>, then a frameset (the list would keep the body)": `<!doctype html><title>Pay</title><div></div><frameset><frame src="/a"></frameset>`,
  };
  for (const [name, page] of Object.entries(pages)) assert.equal(servedFor(page), page, name);
});

test("the list goes first in the body, so a body that ends inside an open element or a comment still takes it", () => {
  const pages = {
    // Each page, and what the list follows in it.
    "a body that ends inside a link": [`<!doctype html><html><head><title>Pay</title></head><body class="pay"><a href="/">Pay\n</body></html>`, `<body class="pay">`],
    "a page that ends inside a comment": [`<!doctype html><html><head><title>Pay</title></head><body><h1>Pay</h1><!-- ${HOSTILE.body}`, "<body>"],
    "a body implied by its text": [`<!doctype html><title>Pay</title>Pay <b>now</b>`, "</title>"],
  };
  for (const [name, [page, before]] of Object.entries(pages)) {
    const served = servedFor(page);
    assert.equal(served.match(OWN)?.length, 2, `${name}: the head snippet and the list`);
    assert.equal(served.replace(OWN, ""), page, name);
    assert.ok(served.includes(`${before}<ul data-x402-verdict-paywall>`), `${name}: the list right after ${before}`);
  }
});

test("a large page whose body starts early is placed from its start alone: the same as a whole parse would give", () => {
  // The x402 1.x paywall's shape: 3.5 MB of inline script in the body.
  const script = `<script>${"var a = '</head></body>';\n".repeat(150000)}</script>`;
  const page = `<!doctype html><html><head><title>Pay</title></head><body><div id="root"></div>${script}</body></html>`;
  const served = servedFor(page);
  assert.equal(served.replace(OWN, ""), page);
  const at = served.indexOf("<ul data-x402-verdict-paywall>");
  assert.equal(served.slice(0, at), page.slice(0, page.indexOf("<div")).replace("</head>", `${served.match(OWN)[0]}</head>`));
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
    // Fetched anew now, so that no kept verdict runs out of its minute while the page loads.
    paywall.cache.clear();
    for (const endpoint of weather()) await paywall.cache.fetch(endpoint);
    front.requests.length = 0;
    const { tab, states, requests } = await open(`${shop.url}/weather`);
    assert.deepEqual(states, ["human-backed", "revoked"]);
    assert.equal(requests, 0, "no verdict request from the page");
    assert.equal(atService(), 0, "none at the service either");
    await tab.close();
  });

  test("a seller's own page under a strict Content-Security-Policy with a nonce: its badge, inlined, verified with no request", async () => {
    paywall.cache.clear();
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

  test("the trial's pages (a hostile description in an attribute, a script's JSON, a comment, a template, a noscript; no </head>; two): the badges where the page's head and body are, no element or script of the description's", async () => {
    for (const { place, path } of TRIAL) {
      const tab = await browser.newPage({ viewport: { width: 1000, height: 800 } });
      try {
        await tab.goto(`${trial.url}${path}`);
        await tab.waitForFunction(() => {
          const hosts = document.querySelectorAll("[data-x402-verdict-paywall] x402-verdict-view");
          return document.readyState === "complete" && hosts.length === 2 && [...hosts].every((h) => h.dataset.state !== "checking");
        }, undefined, { timeout: 20000 });
        const found = await tab.evaluate(() => {
          const list = document.querySelector("[data-x402-verdict-paywall]");
          const script = document.querySelector('script[src="/pkg/embed.js"]');
          const own = (e) => e.closest("[data-x402-verdict-paywall]") || e.matches('link[href="/pkg/x402_verdict_embed_bg.wasm"], script[src="/pkg/embed.js"]');
          return {
            pwned: window.x402Pwned ?? null,
            list: list.parentElement.localName,
            script: script.parentElement.localName,
            scriptAfterList: Boolean(list.compareDocumentPosition(script) & Node.DOCUMENT_POSITION_FOLLOWING),
            elements: [...document.querySelectorAll("*")].filter((e) => !own(e)).map((e) => e.localName),
          };
        });
        assert.equal(found.pwned, null, `${path}: no script of the description's ran`);
        assert.deepEqual(found.elements, elementsOf(trialProvider.pages.get(path)), `${path}: the provider's elements, and no other`);
        assert.equal(found.list, "body", `${path}: the list in the body`);
        // With no <head> the parser located, the head snippet follows the list.
        assert.deepEqual([found.script, found.scriptAfterList], place === "no-head" ? ["body", true] : ["head", false], `${path}: embed.js`);
      } finally {
        await tab.close();
      }
    }
  });

  test("with the service down, the 402 page still renders and its badges read unknown", async () => {
    const { tab, states } = await open(`${down.url}/weather`);
    assert.deepEqual(states, ["unknown", "unknown"]);
    assert.match(await tab.evaluate(() => document.title), /./);
    await tab.close();
  });
});
