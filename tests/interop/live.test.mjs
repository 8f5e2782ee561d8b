// `x402-verdict scan --live` against the official x402 servers, unmodified:
// `@x402/express` 2.27 (x402 v2, the challenge in PAYMENT-REQUIRED) and
// `x402-express` 1.2 (x402 v1, in the body), on loopback. A facilitator
// lists what each route asked when it was indexed (read from the routes'
// own 402s, as the bazaar indexes them); one route has since switched its
// payTo. The live options are looked up at the reference service.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import http from "node:http";
import { BIN } from "../../scripts/demo.mjs";
import { PUBLIC_KEY, attested, serveRegistry } from "../support/reference-service.mjs";
import { EVM_NETWORK, EVM_OTHER_PAY_TO, EVM_PAY_TO, SOLANA_PAY_TO, startX402Servers } from "../support/x402-servers.mjs";

let paid, service, listing;
const publicKey = PUBLIC_KEY;

/** The route the bazaar indexed with EVM_PAY_TO, and which asks EVM_OTHER_PAY_TO now. */
const SWITCHED = { "GET /switched": { accepts: { scheme: "exact", price: "$0.01", network: EVM_NETWORK, payTo: EVM_OTHER_PAY_TO }, description: "Switched" } };

/** What a route's 402 asks, as a discovery item (x402 v2 from the header, v1 from the body). */
async function indexed(url) {
  const answer = await fetch(url, { headers: { accept: "application/json" } });
  assert.equal(answer.status, 402, url);
  const header = answer.headers.get("payment-required");
  if (header) {
    const challenge = JSON.parse(Buffer.from(header, "base64").toString());
    return { resource: url, type: "http", x402Version: 2, accepts: challenge.accepts, lastUpdated: new Date().toISOString() };
  }
  const body = await answer.json();
  return { resource: url, type: "http", x402Version: 1, accepts: body.accepts, lastUpdated: new Date().toISOString() };
}

/** A facilitator serving `items` as one page of the bazaar's listing. */
async function facilitator(items) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ x402Version: 2, items, pagination: { limit: 100, offset: 0, total: items.length } }));
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${server.address().port}`, stop: () => new Promise((done) => server.close(done)) };
}

/** Runs `x402-verdict scan …`; resolves to { code, stdout, stderr }. */
const scan = (...args) =>
  new Promise((done) =>
    execFile(BIN, ["scan", ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? error.code : 0, stdout, stderr })));

before(async () => {
  paid = await startX402Servers({ routes: SWITCHED });
  const base = paid.url;
  // The switched route was attested for the address it asked when indexed.
  const attestations = [attested(EVM_NETWORK, EVM_PAY_TO, `${base}/switched`), attested("base-sepolia", EVM_PAY_TO, `${base}/legacy/quote`)];
  attestations.push(attested(EVM_NETWORK, EVM_PAY_TO, `${base}/weather`, { match: "path" }));
  attestations.push(attested("solana-devnet", SOLANA_PAY_TO, `${base}/weather`, { match: "path", status: "revoked" }));
  service = await serveRegistry({ attestations }, "live-registry.json");
  const items = await Promise.all(["/weather", "/report", "/legacy/quote", "/switched"].map((path) => indexed(`${base}${path}`)));
  // Indexed before the switch: the listing names the attested address.
  items[3].accepts[0].payTo = EVM_PAY_TO;
  // /pair listed with one of the two addresses it asks.
  const pair = await indexed(`${base}/pair`);
  pair.accepts = pair.accepts.filter((a) => a.payTo === EVM_PAY_TO);
  listing = await facilitator([...items, pair]);
});
after(async () => {
  await Promise.all([paid?.stop(), service?.stop(), listing?.stop()]);
});

test("the official servers' routes read live, the switched one changed, its live option looked up", async () => {
  const { code, stdout, stderr } = await scan(listing.url, "--live", "--json", "--base-url", service.url, "--public-key", publicKey);
  assert.equal(code, 3, stderr);
  assert.equal(stderr, "x402-verdict: 2 of 5 resources changed since they were listed\n");
  const rows = stdout.trim().split("\n").map((line) => JSON.parse(line));
  const of = (path) => rows.filter((r) => r.resource === `${paid.url}${path}`)
    .map(({ live, payTo, change, note, result }) => ({ live, payTo, change, note, state: result?.state, signature: result?.signature }));
  assert.deepEqual(of("/weather"), [
    { live: "live", payTo: EVM_PAY_TO, change: undefined, note: "live", state: "human-backed", signature: "valid" },
    { live: "live", payTo: SOLANA_PAY_TO, change: undefined, note: "live", state: "revoked", signature: "valid" },
  ]);
  assert.deepEqual(of("/switched"), [{
    live: "changed", payTo: EVM_OTHER_PAY_TO, change: ["payTo"],
    note: `changed: another payTo (listed ${EVM_PAY_TO}, now ${EVM_OTHER_PAY_TO})`, state: "unknown", signature: "not_checked",
  }]);
  // x402 v1 (x402-express 1.2): its network base-sepolia is eip155:84532.
  assert.deepEqual(of("/legacy/quote").map((r) => [r.live, r.state]), [["live", "human-backed"]]);
  assert.deepEqual(of("/report").map((r) => [r.live, r.state]), [["live", "unknown"]]);
  assert.deepEqual(of("/pair").map((r) => [r.live, r.payTo, r.note]), [
    ["live", EVM_PAY_TO, "live"],
    ["changed", EVM_OTHER_PAY_TO, "changed: an option added"],
  ]);
  // Not paid: the servers received no payment header.
  assert.deepEqual(paid.payments, []);
});

test("the same listing without --live reads no 402 and exits 0", async () => {
  const { code, stdout, stderr } = await scan(listing.url, "--base-url", service.url, "--public-key", publicKey);
  assert.equal(code, 0, stderr);
  assert.ok(!stdout.includes(EVM_OTHER_PAY_TO), "the listing's terms only");
});
