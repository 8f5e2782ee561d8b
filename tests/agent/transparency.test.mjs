// The x402-verdict package with a transparency log (logKey, witnessKeys,
// witnessQuorum, transparency), on verdicts signed now with their proofs
// (tests/support/log-fixture.mjs) served from loopback: lookupVerdict reads
// a proven verdict human-backed under `required` and each refused proof
// unknown with the rule's reason, its signature valid; under `off` every
// result is today's; the guard of the official x402 fetch client
// (require-human-backed) pays on a proven verdict and refuses one signed
// outside the log, with configured keys or under those the service publishes.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { AGENT_PACKAGE } from "../support/package.mjs";
import { CASES, logFixture, logOptions, serveDocuments } from "../support/log-fixture.mjs";
import { EVM_NETWORK, EVM_PAY_TO, startX402Servers } from "../support/x402-servers.mjs";

const { guard, lookupVerdict } = await import(`${AGENT_PACKAGE}index.js`);

const ACCOUNT = privateKeyToAccount(`0x${"22".repeat(32)}`);

let paid, fixture, service, endpoint;

before(async () => {
  paid = await startX402Servers({ routes: { "GET /logged": { accepts: { scheme: "exact", price: "$0.01", network: EVM_NETWORK, payTo: EVM_PAY_TO }, description: "Logged" } } });
  endpoint = { chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl: `${paid.url}/logged` };
  fixture = logFixture(endpoint.chain, endpoint.payTo, endpoint.resourceUrl);
  service = await serveDocuments(fixture.documents);
});

after(async () => {
  await Promise.all([paid?.stop(), service?.stop()]);
});

const options = (name, log = {}) => ({ ...endpoint, baseUrl: `${service.url}/${name}`, publicKey: fixture.publicKey, ...log });

test("lookupVerdict reads each case as the rule says, and off changes nothing", async () => {
  for (const [name, quorum, reason, detail] of CASES) {
    const read = await lookupVerdict(options(name, logOptions(fixture, "required", quorum)));
    assert.equal(read.signature, "valid", `${name}: ${JSON.stringify(read)}`);
    if (reason) assert.deepEqual([read.state, read.reason, read.detail], ["unknown", reason, detail], name);
    else assert.equal(read.state, "human-backed", `${name}: ${JSON.stringify(read)}`);
    const plain = await lookupVerdict(options(name));
    assert.equal(plain.state, "human-backed", name);
    assert.deepEqual(await lookupVerdict(options(name, logOptions(fixture, "off", quorum))), plain, name);
  }
  // if-present reads a verdict without a proof as without a log.
  const outside = options("signedOutsideTheLog");
  assert.deepEqual(await lookupVerdict({ ...outside, ...logOptions(fixture, "if-present") }), await lookupVerdict(outside));
});

test("bad transparency options read unknown, naming the option", async () => {
  const read = await lookupVerdict(options("proven", { logKey: fixture.witnessKeys[0], transparency: "required" }));
  assert.deepEqual([read.state, read.reason, read.detail], ["unknown", "invalid_input", "logKey is a witness's cosignature key (type 0x04), not a log's"]);
  const quorum = await lookupVerdict(options("proven", { ...logOptions(fixture, "required"), witnessQuorum: 3 }));
  assert.equal(quorum.detail, "witnessQuorum is more than the witnesses given");
});

test("the guard under required pays on a proven verdict and refuses one signed outside the log", async () => {
  for (const [name, pays] of [["proven", true], ["signedOutsideTheLog", false]]) {
    const client = new x402Client().register("eip155:*", new ExactEvmScheme(toClientEvmSigner(ACCOUNT)));
    const { baseUrl, publicKey } = options(name);
    guard(client, { baseUrl, publicKey, strict: true, policy: "require-human-backed", ...logOptions(fixture, "required") });
    const pay = wrapFetchWithPayment(fetch, client);
    const from = paid.payments.length;
    if (pays) {
      await pay(endpoint.resourceUrl);
      assert.equal(paid.payments.length - from, 1, name);
    } else {
      await assert.rejects(pay(endpoint.resourceUrl), /reason no_transparency_proof/);
      assert.equal(paid.payments.length, from, `${name}: nothing sent`);
    }
  }
});

test("the guard without keys keeps the log under the keys the service publishes", async () => {
  const client = new x402Client().register("eip155:*", new ExactEvmScheme(toClientEvmSigner(ACCOUNT)));
  guard(client, { baseUrl: `${service.url}/signedOutsideTheLog`, policy: "require-human-backed", ...logOptions(fixture, "required") });
  const from = paid.payments.length;
  await assert.rejects(wrapFetchWithPayment(fetch, client)(endpoint.resourceUrl), /reason no_transparency_proof/);
  assert.equal(paid.payments.length, from);
});
