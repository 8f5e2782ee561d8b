// The x402-verdict package pinned to an operator's root key (version 1),
// its configuration unchanged throughout: the guard of the official x402
// fetch client (require-human-backed, strict) pays, lookupVerdict reads
// human-backed with a valid signature, and verdictCache keeps a verdict to
// inline that carries its certificate, across three signing-key rotations
// and a root rotation of the real reference service; a rollback to a key
// certified by the old root is refused once the newer one was seen, and
// what the root does not certify reads unknown under strict, saying why.
// A seller's 402 (x402-verdict/seller's verdictExtension on @x402/express)
// staples its verdict with its certificate and roots, and the guard pinned
// to the root alone pays on it with no request to the service.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { AGENT_PACKAGE } from "../support/package.mjs";
import { attested } from "../support/reference-service.mjs";
import { STEPS, freePort, rootOperator } from "../support/root-operator.mjs";
import { EVM_NETWORK, EVM_PAY_TO, startX402Servers } from "../support/x402-servers.mjs";

const { guard, lookupVerdict } = await import(`${AGENT_PACKAGE}index.js`);
const { verdictCache, verdictExtension } = await import(`${AGENT_PACKAGE}seller.js`);

/** A test key: the account signs offline and holds nothing. */
const ACCOUNT = privateKeyToAccount(`0x${"22".repeat(32)}`);
/** One route per step (and one for the rollback): no kept answer stands in for a request. */
const PATHS = [...STEPS.map((_, i) => `/step-${i}`), "/rollback"];

let paid, operator;

before(async () => {
  const routes = Object.fromEntries(PATHS.map((path) => [`GET ${path}`, { accepts: { scheme: "exact", price: "$0.01", network: EVM_NETWORK, payTo: EVM_PAY_TO }, description: "A step" }]));
  paid = await startX402Servers({ routes });
  operator = await rootOperator("agent", PATHS.map((path) => attested(EVM_NETWORK, EVM_PAY_TO, `${paid.url}${path}`)));
});

after(async () => {
  await Promise.all([paid?.stop(), operator?.stop()]);
});

test("pinned to the root, the guard, lookups and the seller's cache read every rotation", async () => {
  const options = { baseUrl: operator.url, rootKey: operator.rootKey, strict: true };
  const client = new x402Client().register("eip155:*", new ExactEvmScheme(toClientEvmSigner(ACCOUNT)));
  guard(client, { ...options, policy: "require-human-backed" });
  const pay = wrapFetchWithPayment(fetch, client);
  const cache = verdictCache(options);
  let kept;
  for (const [i, step] of STEPS.entries()) {
    if (i === 4) kept = operator.keepKeys();
    await operator.step(i);
    const resourceUrl = `${paid.url}${PATHS[i]}`;
    const result = await lookupVerdict({ ...options, chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl });
    assert.deepEqual([result.state, result.signature], ["human-backed", "valid"], `${step}: ${JSON.stringify(result)}`);
    const from = paid.payments.length;
    // The guard lets the payment through (the paid server holds no content at the step's path).
    await pay(resourceUrl);
    assert.equal(paid.payments.slice(from).length, 1, `${step}: paid once`);
    const inlined = await cache.fetch({ chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl });
    assert.ok(JSON.parse(inlined).certificate, `${step}: the inlined verdict carries its certificate`);
  }
  cache.clear();

  await operator.serve(kept);
  const resourceUrl = `${paid.url}/rollback`;
  const result = await lookupVerdict({ ...options, chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl });
  assert.deepEqual(
    [result.state, result.signature, result.reason, result.detail],
    ["unknown", "unverifiable", "signature_required", "key certificate of an older root (rollback)"],
  );
  const from = paid.payments.length;
  await assert.rejects(pay(resourceUrl));
  assert.equal(paid.payments.slice(from).length, 0, "a rolled-back verdict is never paid on");
});

test("a root the verdict's certificate does not chain to reads unknown under strict", async () => {
  await operator.serve();
  const other = await rootOperator("agent-other", []);
  const result = await lookupVerdict({
    baseUrl: operator.url, rootKey: [other.rootKey], strict: true,
    chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl: `${paid.url}${PATHS[0]}`,
  });
  assert.deepEqual([result.state, result.signature, result.detail], ["unknown", "unverifiable", "key certificate of another root"]);
});

/** A front to `target` that counts the requests it forwards (`asked`). */
async function countingFront(target) {
  const asked = [];
  const server = createServer(async (req, res) => {
    asked.push(req.url);
    const answer = await fetch(`${target}${req.url}`);
    res.writeHead(answer.status, { "Content-Type": "application/json" }).end(await answer.text());
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}`, asked, stop: () => new Promise((done) => server.close(done)) };
}

test("a seller's stapled verdict carries its certificate and roots; the guard pinned to the root alone pays on it with no request", async () => {
  // The seller's port first: its endpoint is in the operator's registry.
  const port = await freePort();
  const resourceUrl = `http://127.0.0.1:${port}/report`;
  const endpoint = { chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl };
  const stapler = await rootOperator("agent-staple", [attested(EVM_NETWORK, EVM_PAY_TO, resourceUrl)]);
  const cache = verdictCache({ baseUrl: stapler.url, rootKey: stapler.rootKey, strict: true });
  const [seller, front] = await Promise.all([startX402Servers({ port, extension: verdictExtension(cache) }), countingFront(stapler.url)]);
  try {
    await stapler.step(0);
    // A root rotation: the certificate is of root version 2, and the verdict carries that version.
    await stapler.step(4);
    assert.ok(await cache.fetch(endpoint), "the seller has its verdict");
    const required = (await fetch(resourceUrl)).headers.get("payment-required");
    const [stapled] = JSON.parse(Buffer.from(required, "base64").toString()).extensions["x402-verdict"].info.verdicts;
    assert.equal(typeof stapled.certificate, "string", "the stapled document carries its certificate");
    assert.equal(stapled.roots?.length, 1, "and root version 2");

    const seen = [];
    const client = new x402Client().register("eip155:*", new ExactEvmScheme(toClientEvmSigner(ACCOUNT)));
    guard(client, { baseUrl: front.url, rootKey: stapler.rootKey, strict: true, policy: "require-human-backed", onVerdict: (result) => seen.push(result) });
    const response = await wrapFetchWithPayment(fetch, client)(resourceUrl);
    assert.equal(response.status, 200);
    await response.arrayBuffer();
    assert.deepEqual(seen.map((r) => [r.state, r.signature]), [["human-backed", "valid"]]);
    assert.deepEqual(seller.payments.map((p) => p.path), ["/report"]);
    assert.deepEqual(front.asked, [], "no request reached the service");
  } finally {
    cache.clear();
    await Promise.all([seller.stop(), front.stop(), stapler.stop()]);
  }
});
