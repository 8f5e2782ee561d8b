// Verdicts carried with their transparency proofs, stapled and inlined,
// against real parts: the reference service keeping a log cosigned by one
// `x402-verdict witness` (serveRegistry's `log`), and the same service
// without a log; a seller's @x402/express 2.27 server for each, with
// x402-verdict/seller's verdictExtension stapling its verdictCache's
// verdicts into the 402, and badgeHtml inlining them in a page; paid by
// @x402/fetch 2.27 with the guard under `transparency: "required"`
// (require-human-backed, strict) and the loopback fake facilitator. The
// buyer's service is asked through a front of its own (a site passing every
// request on), which counts what the buyer asked: nothing, when the proof
// came with the verdict.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { startOrigin } from "../support/origin.mjs";
import { AGENT_PACKAGE } from "../support/package.mjs";
import { PUBLIC_KEY, attested, serveRegistry } from "../support/reference-service.mjs";
import { EVM_NETWORK, EVM_PAY_TO, startX402Servers } from "../support/x402-servers.mjs";

const { guard, lookupVerdict } = await import(`${AGENT_PACKAGE}index.js`);
const { badgeHtml, verdictCache, verdictExtension } = await import(`${AGENT_PACKAGE}seller.js`);
const ACCOUNT = privateKeyToAccount(`0x${"33".repeat(32)}`);
const KEY = "x402-verdict";

/**
 * For the service with a log (`logged`) and the one without (`plain`): the
 * service, the fronts its seller and its buyer ask it through, the seller's
 * cache and x402 server.
 */
const worlds = { logged: {}, plain: {} };

before(async () => {
  for (const world of Object.values(worlds)) {
    [world.sellerFront, world.buyerFront] = await Promise.all([startOrigin(), startOrigin()]);
    world.cache = verdictCache({ baseUrl: world.sellerFront.url, publicKey: PUBLIC_KEY });
    world.seller = await startX402Servers({ extension: verdictExtension(world.cache) });
  }
  for (const [name, world] of Object.entries(worlds)) {
    const registry = { attestations: [attested(EVM_NETWORK, EVM_PAY_TO, world.seller.url, { match: "prefix" })] };
    world.service = await serveRegistry(registry, `staple-log-${name}.json`, { log: name === "logged" });
    world.sellerFront.upstream = world.buyerFront.upstream = world.service.url;
    world.endpoint = { chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl: `${world.seller.url}/report` };
    world.document = await world.cache.fetch(world.endpoint);
  }
});

after(async () => {
  const all = Object.values(worlds);
  for (const world of all) world.cache?.clear();
  await Promise.all(all.flatMap((w) => [w.service, w.seller, w.sellerFront, w.buyerFront]).map((part) => part?.stop()));
});

/** The buyer's transparency options: the logged service's log key, its witness, a quorum of 1, under `transparency`. */
const trust = (transparency = "required") => ({
  logKey: worlds.logged.service.logKey, witnessKeys: [worlds.logged.service.witnessKey], witnessQuorum: 1, transparency,
});

/** The requests the buyer sent to its service through `world`'s front, from `from` on. */
const asked = (world, from = 0) => world.buyerFront.requests.slice(from).filter((path) => path.startsWith("/v0/"));

/** The decoded PAYMENT-REQUIRED of the seller's `/report` as a client without a payment sees it. */
async function challengeOf(world) {
  const response = await fetch(world.endpoint.resourceUrl);
  assert.equal(response.status, 402);
  await response.arrayBuffer();
  return JSON.parse(Buffer.from(response.headers.get("payment-required"), "base64").toString());
}

/**
 * Pays `world`'s `/report` with @x402/fetch guarded under `transparency`; resolves to
 * { status, error, payments, seen, asked } (`asked`: the buyer's requests to its service).
 */
async function pay(world, transparency) {
  const client = new x402Client().register("eip155:*", new ExactEvmScheme(toClientEvmSigner(ACCOUNT)));
  const seen = [];
  guard(client, {
    baseUrl: world.buyerFront.url, publicKey: PUBLIC_KEY, strict: true, policy: "require-human-backed",
    onVerdict: (result) => seen.push(result), ...trust(transparency),
  });
  const [payments, requests] = [world.seller.payments.length, world.buyerFront.requests.length];
  let status, error;
  try {
    const response = await wrapFetchWithPayment(fetch, client)(world.endpoint.resourceUrl);
    status = response.status;
    await response.arrayBuffer();
  } catch (e) {
    error = e;
  }
  return { status, error, payments: world.seller.payments.slice(payments), seen, asked: asked(world, requests) };
}

describe("stapled: the seller's 402 carries its verdict's proof (verdictExtension on @x402/express 2.27)", () => {
  test("the logged service's verdict is stapled with its proof, which the seller's cache kept as served", async () => {
    const { logged } = worlds;
    const kept = JSON.parse(logged.document);
    assert.match(kept.logProof, /^c2sp\.org\/tlog-proof@v1\n/);
    const [stapled] = (await challengeOf(logged)).extensions[KEY].info.verdicts;
    assert.deepEqual(stapled, kept);
  });

  test("the guard under required pays on the stapled proven verdict with no request to its service", async () => {
    const { status, error, payments, seen, asked } = await pay(worlds.logged, "required");
    assert.equal(error, undefined);
    assert.equal(status, 200);
    assert.equal(payments.length, 1);
    assert.deepEqual(seen.map((r) => [r.state, r.signature]), [["human-backed", "valid"]]);
    assert.deepEqual(asked, []);
  });

  test("a service without a log: its verdict is stapled bare, and the guard under required refuses it, sending nothing", async () => {
    const { plain } = worlds;
    const [stapled] = (await challengeOf(plain)).extensions[KEY].info.verdicts;
    assert.equal(stapled.verdict.outcome, "human_backed");
    assert.equal(stapled.logProof, undefined);
    const { error, payments, seen, asked } = await pay(plain, "required");
    assert.match(error?.message ?? "", /x402-verdict: not paying .*\/report: state unknown, outcome human_backed, reason no_transparency_proof \(policy require-human-backed\)\.$/);
    assert.equal(payments.length, 0);
    assert.deepEqual(seen.map((r) => [r.state, r.reason, r.signature]), [["unknown", "no_transparency_proof", "valid"]]);
    // The staple stood in for the lookup: refused on it, no request to the service.
    assert.deepEqual(asked, []);
  });

  test("the same bare staple under off is paid as today, with no request", async () => {
    const { status, payments, seen, asked } = await pay(worlds.plain, "off");
    assert.equal(status, 200);
    assert.equal(payments.length, 1);
    assert.deepEqual(seen.map((r) => r.state), ["human-backed"]);
    assert.deepEqual(asked, []);
  });
});

describe("inlined: the seller's page carries its verdict's proof (badgeHtml)", () => {
  /** The verdict `world`'s seller inlines in its page for its endpoint, read back from the page's HTML. */
  const inlined = (world) => {
    const html = badgeHtml({ ...world.endpoint, baseUrl: world.sellerFront.url, publicKey: PUBLIC_KEY, verdict: world.cache.get(world.endpoint) });
    const [, value] = html.match(/ data-verdict="([^"]*)"/);
    return value.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(c));
  };
  /** lookupVerdict of `world`'s endpoint with its inlined verdict, under required: the result and the requests it sent. */
  const lookup = async (world) => {
    const from = world.buyerFront.requests.length;
    const read = await lookupVerdict({ ...world.endpoint, verdict: inlined(world), baseUrl: world.buyerFront.url, publicKey: PUBLIC_KEY, strict: true, ...trust() });
    return { read, asked: asked(world, from) };
  };

  test("lookupVerdict reads the inlined proven verdict human-backed with no request", async () => {
    assert.deepEqual(JSON.parse(inlined(worlds.logged)), JSON.parse(worlds.logged.document));
    const { read, asked } = await lookup(worlds.logged);
    assert.deepEqual([read.state, read.signature], ["human-backed", "valid"]);
    assert.deepEqual(asked, []);
  });

  test("an inlined verdict of a service without a log reads unknown, no_transparency_proof, with no request", async () => {
    const { read, asked } = await lookup(worlds.plain);
    assert.deepEqual([read.state, read.reason, read.signature], ["unknown", "no_transparency_proof", "valid"]);
    assert.deepEqual(asked, []);
  });
});
