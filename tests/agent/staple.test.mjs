// Verdicts stapled to the 402 (the x402 extension x402-verdict), against
// real parts: the reference service behind counting fronts (one the
// seller's server asks, one the paying agent asks), the official
// @x402/express and @x402/hono 2.27 middleware with x402-verdict/seller's
// verdictExtension registered, unmodified, and the loopback fake
// facilitator; paid by @x402/fetch 2.27 and @x402/axios clients with the
// guard. A hostile seller's staples come from an extension of the same key
// that staples what each test gives it. Each test counts the requests the
// agent's service got and the payment headers the paid server received.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createPrivateKey, generateKeyPairSync, sign } from "node:crypto";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import canonicalize from "canonicalize";
import axios from "axios";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { wrapAxiosWithPayment, x402Client as x402AxiosClient } from "@x402/axios";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { ExactEvmScheme as ExactEvmServerScheme } from "@x402/evm/exact/server";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { paymentMiddleware as honoPaymentMiddleware, x402ResourceServer } from "@x402/hono";
import { privateKeyToAccount } from "viem/accounts";
import { UNREACHABLE } from "../../scripts/demo.mjs";
import { AGENT_PACKAGE } from "../support/package.mjs";
import { KEYS, attested, serveRegistry } from "../support/reference-service.mjs";
import { EVM_NETWORK, EVM_PAY_TO, SOLANA_NETWORK, SOLANA_PAY_TO, startX402Servers } from "../support/x402-servers.mjs";

const { guard } = await import(`${AGENT_PACKAGE}index.js`);
const { verdictCache, verdictExtension, verdictPaywall } = await import(`${AGENT_PACKAGE}seller.js`);
const ACCOUNT = privateKeyToAccount(`0x${"11".repeat(32)}`);
const DEMO_KEY = JSON.parse(readFileSync(KEYS, "utf8")).current;
const PUBLIC_KEY = DEMO_KEY.publicKey;
const KEY = "x402-verdict";

// ---- signing, as the service does (RFC 8785 by the canonicalize package, Node's Ed25519) ----

/** The DER prefix of an Ed25519 PKCS #8 key, before its 32-byte seed. */
const PKCS8 = Buffer.from("302e020100300506032b657004220420", "hex");
const DEMO_SECRET = createPrivateKey({ key: Buffer.concat([PKCS8, Buffer.from(DEMO_KEY.secretKey, "base64")]), format: "der", type: "pkcs8" });
const OTHER_SECRET = generateKeyPairSync("ed25519").privateKey;
const at = (secondsAgo) => new Date(Math.floor(Date.now() / 1000 - secondsAgo) * 1000).toISOString().replace(/\.\d+Z$/, "Z");

/** A verdict document about `endpoint`, issued `age` seconds ago, signed by `secret` (the demo key's by default). */
function signed({ chain, payTo, resourceUrl }, { outcome = "human_backed", age = 0, secret = DEMO_SECRET } = {}) {
  const verdict = {
    v: 1, chain, payTo, resourceUrl, outcome, assuranceLevel: "G", verifiedAt: at(age + 3600), recheckEveryHours: 24,
    issuedAt: at(age), keyId: DEMO_KEY.keyId,
  };
  const signature = sign(null, Buffer.from(`x402-verdict/v1\n${canonicalize(verdict)}`), secret).toString("base64");
  return { verdict, signature };
}

// ---- the services ----

/**
 * A counting front to the reference service (`target()`, read at each
 * request): `/<mode>/v0/…` is forwarded as `/v0/…`; `nokeys` answers the
 * keys 404, `stall` holds every answer until `release()`, `brief` keeps
 * verdicts fresh for one second (Cache-Control max-age=1, and stale for
 * 300). `asked(mode, what, payTo?)` counts the requests of a mode for
 * `verdict` or `verification-keys` (for one address only, given `payTo`).
 */
async function startFront(target) {
  const asked = new Map();
  let held = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://front");
    const [, mode, ...rest] = url.pathname.split("/");
    for (const count of [`${mode} ${rest.at(-1)}`, `${mode} ${rest.at(-1)} ${url.searchParams.get("payTo")}`]) {
      asked.set(count, (asked.get(count) ?? 0) + 1);
    }
    if (mode === "nokeys" && rest.at(-1) === "verification-keys") return res.writeHead(404).end();
    if (mode === "stall") await new Promise((ok) => held.push(ok));
    const answer = await fetch(`${target()}/${rest.join("/")}${url.search}`).catch(() => null);
    if (!answer || res.destroyed) return res.destroy();
    const cache = mode === "brief" ? "max-age=1, stale-while-revalidate=300" : answer.headers.get("cache-control");
    res.writeHead(answer.status, { "Content-Type": "application/json", ...(cache ? { "Cache-Control": cache } : {}) });
    res.end(await answer.text());
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    asked: (mode, what, payTo) => asked.get(payTo ? `${mode} ${what} ${payTo}` : `${mode} ${what}`) ?? 0,
    stalled: () => held.length,
    release: () => (held.forEach((ok) => ok()), (held = [])),
    stop: () => new Promise((done) => (held.forEach((ok) => ok()), server.closeAllConnections(), server.close(done))),
  };
}

/** A seller's x402 server (@x402/express 2.27) registering `extension`, declared by every v2 route. */
async function seller(extension) {
  const server = await startX402Servers({ extension });
  servers.push(server);
  return server;
}

/** A verdict cache of the seller, asking through the front in `mode` (or at `baseUrl`), cleared after the tests. */
function sellerCache(mode, baseUrl = `${front.url}/${mode}`) {
  const cache = verdictCache({ baseUrl, publicKey: PUBLIC_KEY });
  caches.push(cache);
  return cache;
}

/** A seller on @x402/hono 2.27 (served by @hono/node-server) registering `extension`: `GET /forecast`; its payment headers by path. */
async function honoSeller(extension, facilitator) {
  const server = new x402ResourceServer(new HTTPFacilitatorClient({ url: facilitator }))
    .register(EVM_NETWORK, new ExactEvmServerScheme())
    .registerExtension(extension);
  const app = new Hono();
  const payments = [];
  app.use(async (c, next) => {
    if (c.req.header("payment-signature")) payments.push(c.req.path);
    await next();
  });
  app.use(honoPaymentMiddleware({
    "GET /forecast": {
      accepts: { scheme: "exact", price: "$0.01", network: EVM_NETWORK, payTo: EVM_PAY_TO },
      description: "A forecast", extensions: { [extension.key]: {} },
    },
  }, server));
  app.get("/forecast", (c) => c.json({ paid: true }));
  const http = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 });
  await new Promise((ok) => http.once("listening", ok));
  const stop = () => {
    http.closeAllConnections();
    return new Promise((ok) => http.close(ok));
  };
  const hono = { url: `http://127.0.0.1:${http.address().port}`, payments, stop };
  servers.push(hono);
  return hono;
}

let service, front, servers = [], caches = [];
/** The hostile seller, and what it staples: a function of the 402, giving `info.verdicts`. */
let hostile, staples = () => [];
/**
 * The sellers with verdictExtension: their verdicts asked of a stalled
 * service, of none, of one keeping them a second; on Hono; with
 * verdictPaywall, whose own cache asks in the mode `paywall`.
 */
let stalled, down, brief, hono, paywalled;
/** The 402s' staples of `brief`, as JSON, in order. */
const briefStaples = [];

before(async () => {
  front = await startFront(() => service.url);
  hostile = await seller({
    key: KEY,
    dynamicInfoFields: ["verdicts"],
    enrichPaymentRequiredResponse: async (declaration, { paymentRequiredResponse: pr }) => ({ info: { verdicts: staples(pr) } }),
  });
  stalled = await seller(verdictExtension(sellerCache("stall")));
  stalled.cache = caches.at(-1);
  down = await seller(verdictExtension(sellerCache("down", UNREACHABLE)));
  down.cache = caches.at(-1);
  const briefExtension = verdictExtension(sellerCache("brief"));
  brief = await seller({
    ...briefExtension,
    enrichPaymentRequiredResponse: async (...args) => {
      const value = await briefExtension.enrichPaymentRequiredResponse(...args);
      briefStaples.push(JSON.stringify(value.info.verdicts));
      return value;
    },
  });
  brief.cache = caches.at(-1);
  hono = await honoSeller(verdictExtension(sellerCache("hono")), hostile.facilitator.url);
  hono.cache = caches.at(-1);
  const paywall = verdictPaywall({ baseUrl: `${front.url}/paywall`, publicKey: PUBLIC_KEY, badgeScriptUrl: "/pkg/embed.js" });
  caches.push(paywall.cache);
  paywalled = await startX402Servers({ paywall, extension: verdictExtension(sellerCache("stapling")) });
  servers.push(paywalled);
  paywalled.cache = caches.at(-1);
  paywalled.paywall = paywall;
  service = await serveRegistry({
    attestations: [
      attested(EVM_NETWORK, EVM_PAY_TO, `${hostile.url}/report`, { match: "path" }),
      attested(EVM_NETWORK, EVM_PAY_TO, `${hostile.url}/v1x`, { match: "path", status: "revoked" }),
      ...[stalled, down, brief, hono, paywalled].map((s) => attested(EVM_NETWORK, EVM_PAY_TO, s.url, { match: "prefix" })),
    ],
  }, "staple-registry.json");
});

after(async () => {
  for (const cache of caches) cache.clear();
  await Promise.all([front?.stop(), service?.stop(), ...servers.map((s) => s.stop())]);
});

// ---- paying ----

const paymentsOf = (server, path, from = 0) => server.payments.slice(from).filter((p) => p.path === path);

/** A fetch paying with an @x402/fetch client guarded with `options`; `hooks` registered after the guard's. */
function payingFetch(options, { fetchFn = fetch, onBeforePaymentCreation } = {}) {
  const client = new x402Client().register("eip155:*", new ExactEvmScheme(toClientEvmSigner(ACCOUNT)));
  guard(client, { publicKey: PUBLIC_KEY, strict: true, ...options });
  if (onBeforePaymentCreation) client.onBeforePaymentCreation(onBeforePaymentCreation);
  return wrapFetchWithPayment(fetchFn, client);
}

/** Fetches `path` of `server` with `options`; resolves to { status, error, payments, seen } (`seen`: the guard's results). */
async function pay(server, path, options = {}, extra) {
  const from = server.payments.length;
  const seen = [];
  let status, error;
  try {
    const response = await payingFetch({ onVerdict: (result) => seen.push(result), ...options }, extra)(`${server.url}${path}`);
    status = response.status;
    await response.arrayBuffer();
  } catch (e) {
    error = e;
  }
  return { status, error, payments: paymentsOf(server, path, from), seen };
}

/** The 402 of `url` as a client without a payment sees it: its decoded PAYMENT-REQUIRED. */
async function challengeOf(url, fetchFn = fetch) {
  const response = await fetchFn(url);
  assert.equal(response.status, 402);
  await response.arrayBuffer();
  return JSON.parse(Buffer.from(response.headers.get("payment-required"), "base64").toString());
}

/** The endpoint of the EVM option of `path` on `server`. */
const evm = (server, path) => ({ chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl: `${server.url}${path}` });

/** The agent's service: through the front, in `mode`. */
const agentService = (mode) => ({ baseUrl: `${front.url}/${mode}` });

describe("a seller's 402 staples its verdicts (x402-verdict/seller's verdictExtension)", () => {
  test("@x402/express 2.27: the first 402 waits on nothing and staples none; from then on each option's kept verdict", async () => {
    const first = await challengeOf(`${stalled.url}/weather`);
    assert.deepEqual(first.extensions[KEY].info.verdicts, []);
    // The 402 was answered while the service holds both options' requests.
    while (front.stalled() < 2) await new Promise((ok) => setTimeout(ok, 20));
    front.release();
    const solana = { chain: SOLANA_NETWORK, payTo: SOLANA_PAY_TO, resourceUrl: `${stalled.url}/weather` };
    for (const endpoint of [evm(stalled, "/weather"), solana]) await stalled.cache.fetch(endpoint);
    const warm = await challengeOf(`${stalled.url}/weather`);
    const { info, schema } = warm.extensions[KEY];
    // The EVM address is attested; nobody attested the Solana one (a 404 is no verdict: nothing to staple).
    assert.deepEqual(info.verdicts.map((d) => [d.verdict.chain, d.verdict.outcome]), [[EVM_NETWORK, "human_backed"]]);
    assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
    assert.equal(schema.properties.verdicts.maxItems, 32);
    // The rest of the 402 is the middleware's own.
    assert.deepEqual(warm.accepts, first.accepts);
  });

  test("the service down at the seller: the 402 as without a verdict, no staple", async () => {
    for (let i = 0; i < 2; i++) {
      const challenge = await challengeOf(`${down.url}/report`);
      await down.cache.fetch(evm(down, "/report"));
      assert.equal(challenge.x402Version, 2);
      assert.equal(challenge.accepts.length, 1);
      assert.deepEqual(challenge.extensions[KEY].info.verdicts, []);
    }
  });

  test("@x402/hono 2.27 staples the same way, and a guarded agent pays it with no request to the service", async () => {
    await hono.cache.fetch(evm(hono, "/forecast"));
    const challenge = await challengeOf(`${hono.url}/forecast`);
    assert.equal(challenge.extensions[KEY].info.verdicts[0].verdict.outcome, "human_backed");
    const response = await payingFetch(agentService("agent-hono"))(`${hono.url}/forecast`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { paid: true });
    assert.deepEqual(hono.payments, ["/forecast"]);
    assert.equal(front.asked("agent-hono", "verdict"), 0);
  });

  test("verdictPaywall's badges take the 402's staple: no request of the paywall's own for a stapled option", async () => {
    await paywalled.cache.fetch(evm(paywalled, "/weather"));
    const response = await fetch(`${paywalled.url}/weather`, { headers: { Accept: "text/html", "User-Agent": "Mozilla/5.0" } });
    assert.equal(response.status, 402);
    const html = await response.text();
    const [document] = JSON.parse(Buffer.from(response.headers.get("payment-required"), "base64").toString()).extensions[KEY].info.verdicts;
    const inlined = [...html.matchAll(/ data-verdict="([^"]*)"/g)].map(([, value]) => value.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(c)));
    assert.deepEqual(inlined.map((text) => JSON.parse(text)), [document]);
    // Its own cache asked for the option nothing was stapled for (Solana, not attested), never for the stapled one.
    await paywalled.paywall.cache.fetch({ chain: SOLANA_NETWORK, payTo: SOLANA_PAY_TO, resourceUrl: `${paywalled.url}/weather` });
    assert.ok(front.asked("paywall", "verdict", SOLANA_PAY_TO) >= 1);
    assert.equal(front.asked("paywall", "verdict", EVM_PAY_TO), 0);
  });

  test("a paid round trip whose staple was refreshed in between settles", async () => {
    const endpoint = evm(brief, "/report");
    const before = await brief.cache.fetch(endpoint);
    assert.ok(before);
    // Between the 402 and the paid retry the seller's verdict is fetched
    // anew (it was kept for a second) and so signed anew.
    const refreshed = async () => {
      await new Promise((ok) => setTimeout(ok, 1100));
      for (let now = brief.cache.get(endpoint); now === before || now === undefined; now = brief.cache.get(endpoint)) {
        await new Promise((ok) => setTimeout(ok, 50));
      }
    };
    const { status, error, payments } = await pay(brief, "/report", agentService("round-trip"), { onBeforePaymentCreation: refreshed });
    assert.equal(error, undefined);
    assert.equal(status, 200);
    assert.equal(payments.length, 1);
    const [unpaid, retry] = briefStaples.slice(-2);
    assert.equal(JSON.parse(unpaid).length, 1);
    assert.notEqual(retry, unpaid, "the paid retry's 402 staples the refreshed verdict");
  });
});

describe("the guard takes the staple of the option it pays (@x402/fetch 2.27)", () => {
  /** Staples `documents(endpoint)` for the EVM option of every 402 of the hostile seller. */
  const stapling = (documents) => {
    staples = (pr) => documents({ chain: pr.accepts[0].network, payTo: pr.accepts[0].payTo, resourceUrl: pr.resource.url });
  };

  test("a fresh stapled human-backed verdict: paid, with no request to the service", async () => {
    stapling((endpoint) => [signed(endpoint)]);
    const { status, payments, seen } = await pay(hostile, "/report", agentService("fresh"));
    assert.equal(status, 200);
    assert.equal(payments.length, 1);
    assert.deepEqual(seen.map((r) => [r.state, r.signature]), [["human-backed", "valid"]]);
    assert.equal(front.asked("fresh", "verdict") + front.asked("fresh", "verification-keys"), 0);
  });

  test("without publicKey, only the keys document, once while it is kept", async () => {
    stapling((endpoint) => [signed(endpoint)]);
    for (let i = 0; i < 2; i++) {
      const { status, seen } = await pay(hostile, "/report", { ...agentService("keyed"), publicKey: undefined });
      assert.equal(status, 200);
      assert.deepEqual(seen.map((r) => [r.state, r.signature]), [["human-backed", "valid"]]);
    }
    assert.equal(front.asked("keyed", "verification-keys"), 1);
    assert.equal(front.asked("keyed", "verdict"), 0);
  });

  test("a revoked stapled verdict: never paid, nothing signed, no request", async () => {
    stapling((endpoint) => [signed(endpoint, { outcome: "revoked" })]);
    const { error, payments, seen } = await pay(hostile, "/report", agentService("revoked"));
    assert.equal(payments.length, 0);
    assert.match(error.message, /x402-verdict: not paying .*\/report: state revoked, outcome revoked, reason revoked \(policy avoid-revoked\)\.$/);
    assert.deepEqual(seen.map((r) => r.state), ["revoked"]);
    assert.equal(front.asked("revoked", "verdict"), 0);
  });

  // /v1x is revoked at the service: a staple that does not stand in is looked up live, and refused.
  const live = [
    ["tampered", "tampered", (endpoint) => {
      const document = signed(endpoint);
      document.verdict.assuranceLevel = "A+";
      return [document];
    }],
    ["301 s old", "aged", (endpoint) => [signed(endpoint, { age: 301 })]],
    ["another endpoint's", "other-endpoint", (endpoint) => [signed({ ...endpoint, resourceUrl: `${hostile.url}/report` })]],
    ["another key's", "other-key", (endpoint) => [signed(endpoint, { secret: OTHER_SECRET })]],
    ["more documents than the core reads", "many", (endpoint) => [...Array.from({ length: 32 }, () => ({})), signed(endpoint)]],
  ];
  for (const [name, mode, documents] of live) {
    test(`${name}: looked up live, the live verdict's result (revoked: not paid)`, async () => {
      stapling(documents);
      const { error, payments, seen } = await pay(hostile, "/v1x", agentService(mode));
      assert.equal(payments.length, 0);
      assert.ok(error, "refused");
      assert.deepEqual(seen.map((r) => r.state), ["revoked"]);
      assert.equal(front.asked(mode, "verdict"), 1);
    });
  }

  test("no keys to be had (no publicKey, the keys document 404): looked up live", async () => {
    stapling((endpoint) => [signed(endpoint)]);
    const { payments, seen } = await pay(hostile, "/v1x", { ...agentService("nokeys"), publicKey: undefined, strict: false });
    assert.equal(payments.length, 0);
    assert.deepEqual(seen.map((r) => [r.state, r.signature]), [["revoked", "unverifiable"]]);
    assert.equal(front.asked("nokeys", "verdict"), 1);
  });

  test("a document over the byte bound: past the HTTP client's header limit the fetch fails; handed over as an object, the staple is ignored", async () => {
    const padded = (endpoint) => [{ ...signed(endpoint), pad: "x".repeat(70 * 1024) }];
    stapling(padded);
    const { error, payments } = await pay(hostile, "/v1x", agentService("large"));
    assert.ok(error, "the 402's headers are over Node's limit");
    assert.equal(payments.length, 0);
    assert.equal(front.asked("large", "verdict"), 0);
    // The same challenge handed to the guarded client as an object.
    const client = new x402Client().register("eip155:*", new ExactEvmScheme(toClientEvmSigner(ACCOUNT)));
    guard(client, { ...agentService("large"), publicKey: PUBLIC_KEY, strict: true });
    const endpoint = evm(hostile, "/v1x");
    const challenge = {
      x402Version: 2, resource: { url: endpoint.resourceUrl, description: "", mimeType: "application/json" },
      accepts: [{ scheme: "exact", network: EVM_NETWORK, amount: "10000", asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", payTo: EVM_PAY_TO, maxTimeoutSeconds: 60, extra: { name: "USDC", version: "2" } }],
      extensions: { [KEY]: { info: { verdicts: padded(endpoint) } } },
    };
    await assert.rejects(client.createPaymentPayload(challenge), /state revoked, outcome revoked, reason revoked/);
    assert.equal(front.asked("large", "verdict"), 1);
  });

  test("a fresh staple while the service is down: the staple's result", async () => {
    stapling((endpoint) => [signed(endpoint)]);
    const { status, payments, seen } = await pay(hostile, "/report", { baseUrl: UNREACHABLE });
    assert.equal(status, 200);
    assert.equal(payments.length, 1);
    assert.deepEqual(seen.map((r) => r.state), ["human-backed"]);
  });

  test("@x402/axios: a fresh stapled verdict is paid with no request; a revoked one is refused", async () => {
    const payingAxios = () => {
      const client = new x402AxiosClient().register("eip155:*", new ExactEvmScheme(toClientEvmSigner(ACCOUNT)));
      guard(client, { ...agentService("axios"), publicKey: PUBLIC_KEY, strict: true });
      return wrapAxiosWithPayment(axios.create(), client);
    };
    const from = hostile.payments.length;
    stapling((endpoint) => [signed(endpoint)]);
    assert.equal((await payingAxios().get(`${hostile.url}/report`)).status, 200);
    stapling((endpoint) => [signed(endpoint, { outcome: "revoked" })]);
    const error = await payingAxios().get(`${hostile.url}/report`).then(() => null, (e) => e);
    assert.match(error?.message ?? "", /state revoked/);
    assert.equal(paymentsOf(hostile, "/report", from).length, 1);
    assert.equal(front.asked("axios", "verdict"), 0);
  });
});
