// The x402-verdict package (pkg-agent/) in Node, for code that pays and for
// sellers' servers, side by side in one run, against the reference service
// with the demo key:
//
// - the guard's added time per payment: x402Client.createPaymentPayload
//   (@x402/evm's exact scheme, a viem local account: signing is offline)
//   guarded, minus the same call unguarded, with the verdict's first lookup
//   at loopback and at 100 ms to the service (a loopback front that waits
//   100 ms before each request), with the verdict stapled to the 402 (the
//   x402-verdict extension) at 100 ms to the service, and with the verdict
//   cached; the requests the service got for the stapled payments;
// - the same with the verdict cached and no configured key, the service
//   publishing 1, 100 or as many keys as its 64 KiB keys document holds
//   (the guard reads them once per answer, not at each payment);
// - a seller's 402 (@x402/express 2.27, a loopback fake facilitator, two
//   accepted options, their verdicts kept) with and without
//   x402-verdict/seller's verdictExtension stapling them, beside its floor:
//   an extension stapling the same value as a constant (the middleware's
//   own cost of the larger header);
// - cold start: a fresh Node process, from the import of the package to the
//   first verdict, beside a plain fetch plus WebCrypto Ed25519 lookup
//   written here (it checks far less: a floor, not a verifier).
//
// Medians of RUNS, guarded and plain runs alternating. No assertions.
//   npm run bench   (after a build)
//   RUNS=15 node scripts/bench-agent.mjs
import { execFile } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import { loadavg } from "node:os";
import { x402Client } from "@x402/core/client";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { readFileSync } from "node:fs";
import { ENDPOINTS, demoKeys, startDemo } from "./demo.mjs";
import { median } from "./bench/timing.mjs";
import { AGENT_PACKAGE } from "../tests/support/package.mjs";
import { EVM_NETWORK, EVM_PAY_TO, SOLANA_NETWORK, SOLANA_PAY_TO, startX402Servers } from "../tests/support/x402-servers.mjs";

const RUNS = Number(process.env.RUNS ?? 9);
const INDEX = `${AGENT_PACKAGE}index.js`;
const { guard } = await import(INDEX);
const { verdictCache, verdictExtension } = await import(`${AGENT_PACKAGE}seller.js`);
const SIGNER = toClientEvmSigner(privateKeyToAccount(`0x${"11".repeat(32)}`));
const { chain, payTo, resourceUrl } = ENDPOINTS.verified;

/** A v2 challenge for the demo's verified endpoint (USDC on Base), stapling `verdicts` when given. */
const challenge = (verdicts) => ({
  x402Version: 2,
  resource: { url: resourceUrl, description: "bench", mimeType: "application/json" },
  accepts: [{
    scheme: "exact", network: "eip155:8453", amount: "10000", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    payTo, maxTimeoutSeconds: 60, extra: { name: "USD Coin", version: "2" },
  }],
  ...(verdicts ? { extensions: { "x402-verdict": { info: { verdicts } } } } : {}),
});

/**
 * A front to `target` (or to what it returns, at each request) that waits
 * `ms` before each request; `keys`, when
 * given, is the keys document it publishes in place of the service's.
 * `asked` counts its requests.
 */
async function slowFront(target, ms, keys) {
  const front = { asked: 0 };
  const upstream = typeof target === "function" ? target : () => target;
  const server = createServer(async (req, res) => {
    front.asked++;
    await new Promise((ok) => setTimeout(ok, ms));
    if (keys && req.url.startsWith("/v0/verification-keys")) {
      res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" });
      return res.end(keys);
    }
    const answer = await fetch(`${upstream()}${req.url}`);
    res.writeHead(answer.status, { "Content-Type": "application/json", "Cache-Control": answer.headers.get("cache-control") ?? "no-store" });
    res.end(await answer.text());
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  front.url = `http://127.0.0.1:${server.address().port}`;
  front.stop = () => new Promise((ok) => (server.closeAllConnections(), server.close(ok)));
  return front;
}

/** A keys document publishing `publicKey` and `count - 1` other keys, as the service writes one. */
function keysDocument(publicKey, count) {
  const others = Array.from({ length: count - 1 }, () => generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" }).subarray(12).toString("base64"));
  return JSON.stringify({ keys: [publicKey, ...others].map((key, i) => ({ algorithm: "Ed25519", publicKey: key, status: i ? "previous" : "current" })) });
}

/** The most keys a keys document within the 64 KiB a consumer reads can publish, as keysDocument writes it. */
function mostKeys(publicKey) {
  const entry = keysDocument(publicKey, 2).length - keysDocument(publicKey, 1).length;
  return Math.floor((64 * 1024 - keysDocument(publicKey, 1).length) / entry);
}

/** Milliseconds of one createPaymentPayload by `client` of the challenge stapling `verdicts`. */
async function timed(client, verdicts) {
  const began = performance.now();
  await client.createPaymentPayload(challenge(verdicts?.()));
  return performance.now() - began;
}

const client = (options) => {
  const c = new x402Client().register("eip155:*", new ExactEvmScheme(SIGNER));
  return options ? guard(c, options) : c;
};

/**
 * The guard's added milliseconds per payment (median), for a guard made by
 * `options(i)` on run i, over `runs` runs; `verdicts()`, when given, the
 * verdicts its challenges staple (the unguarded client pays the same
 * challenges).
 */
async function added(options, { reuse = false, verdicts, runs = RUNS } = {}) {
  const plain = client();
  const reused = reuse ? client(options(0)) : undefined;
  if (reused) await timed(reused, verdicts);
  const guarded = [];
  const unguarded = [];
  for (let i = 0; i < runs; i++) {
    unguarded.push(await timed(plain, verdicts));
    guarded.push(await timed(reused ?? client(options(i + 1)), verdicts));
  }
  return median(guarded) - median(unguarded);
}

/** Milliseconds of one unpaid GET of `url` (its 402). */
async function asked(url) {
  const began = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  return performance.now() - began;
}

/**
 * The median milliseconds of a seller's 402 (`GET /weather` of each shop,
 * asked in turn): without the extension, with one stapling the very
 * value `stapledShop`'s verdictExtension staples as a constant (the
 * floor: what the middleware's header costs, with nothing read or judged),
 * and with verdictExtension, its verdicts kept; and how many it staples.
 */
async function sellerRows(plainShop, stapledShop) {
  const header = (await fetch(`${stapledShop.url}/weather`)).headers.get("payment-required");
  const value = JSON.parse(Buffer.from(header, "base64").toString()).extensions["x402-verdict"];
  const floorShop = await startX402Servers({ extension: { key: "x402-verdict", enrichPaymentRequiredResponse: async () => value } });
  const shops = { plain: plainShop, floor: floorShop, stapled: stapledShop };
  const times = { plain: [], floor: [], stapled: [] };
  try {
    for (let i = 0; i < 20; i++) for (const shop of Object.values(shops)) await asked(`${shop.url}/weather`);
    for (let i = 0; i < RUNS * 20; i++) {
      for (const [name, shop] of Object.entries(shops)) times[name].push(await asked(`${shop.url}/weather`));
    }
  } finally {
    await floorShop.stop();
  }
  return { plain: median(times.plain), floor: median(times.floor), stapled: median(times.stapled), count: value.info.verdicts.length };
}

/** A fresh Node process running `code` (an ES module printing its milliseconds); resolves to them. */
const child = (code) => new Promise((ok, fail) =>
  execFile(process.execPath, ["--input-type=module", "-e", code], (error, stdout, stderr) => (error ? fail(new Error(stderr)) : ok(Number(stdout)))));

const coldPackage = (options) => `
const began = performance.now();
const { lookupVerdict } = await import(${JSON.stringify(INDEX)});
const result = await lookupVerdict(${JSON.stringify(options)});
if (result.state !== "human-backed") throw new Error(JSON.stringify(result));
console.log(performance.now() - began);`;

const coldPlain = ({ baseUrl, publicKey }) => `
const began = performance.now();
const canonical = (v) => Array.isArray(v) ? "[" + v.map(canonical).join(",") + "]"
  : v && typeof v === "object" ? "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canonical(v[k])).join(",") + "}"
  : JSON.stringify(v);
const query = new URLSearchParams(${JSON.stringify({ chain, payTo, resourceUrl })});
const { verdict, signature } = await (await fetch(${JSON.stringify(baseUrl)} + "/v0/verdict?" + query)).json();
const key = await crypto.subtle.importKey("raw", Buffer.from(${JSON.stringify(publicKey)}, "base64"), { name: "Ed25519" }, false, ["verify"]);
const valid = await crypto.subtle.verify("Ed25519", key, Buffer.from(signature, "base64"), new TextEncoder().encode("x402-verdict/v1\\n" + canonical(verdict)));
if (!valid || verdict.outcome !== "human_backed") throw new Error("not human-backed");
console.log(performance.now() - began);`;

// The sellers first, so that the demo registry attests their options; the
// stapling one asks the service through a front.
const sellerFront = await slowFront(() => demo.url, 0);
const seller = verdictCache({ baseUrl: sellerFront.url, publicKey: JSON.parse(readFileSync(demoKeys(), "utf8")).current.publicKey });
const plainShop = await startX402Servers();
const stapledShop = await startX402Servers({ extension: verdictExtension(seller) });
const shopEndpoints = [
  { chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl: `${stapledShop.url}/weather` },
  { chain: SOLANA_NETWORK, payTo: SOLANA_PAY_TO, resourceUrl: `${stapledShop.url}/weather` },
];
const demo = await startDemo({ www: false, attestations: shopEndpoints.map((e) => [e]) });
const front = await slowFront(demo.url, 100);
const keyFronts = [];
try {
  const keyed = (baseUrl) => (i) => ({ baseUrl, publicKey: demo.publicKey, strict: true, timeoutMs: 3000 + i });
  const unkeyed = (baseUrl) => (i) => ({ baseUrl, strict: true, timeoutMs: 3000 + i });
  const stapled = await (await fetch(`${demo.url}/v0/verdict?${new URLSearchParams({ chain, payTo, resourceUrl })}`)).json();
  const rows = [
    // A new timeout per run is a new cache entry: every run's lookup is a first one.
    ["first lookup, loopback", await added(keyed(demo.url))],
    ["first lookup, 100 ms to the service", await added(keyed(front.url))],
  ];
  const before = front.asked;
  rows.push(["stapled, 100 ms to the service", await added(keyed(front.url), { verdicts: () => [stapled] })]);
  const stapledRequests = front.asked - before;
  rows.push(["verdict cached", await added(keyed(demo.url), { reuse: true, runs: RUNS * 5 })]);
  const most = mostKeys(demo.publicKey);
  const keyRows = [];
  for (const count of [1, 100, most]) {
    const keysFront = await slowFront(demo.url, 0, keysDocument(demo.publicKey, count));
    keyFronts.push(keysFront);
    // Kept answers cost a few hundred microseconds beside a signature of milliseconds: more runs.
    keyRows.push([count, await added(unkeyed(keysFront.url), { reuse: true, runs: RUNS * 5 })]);
  }
  for (const e of shopEndpoints) await seller.fetch(e);
  const sellers = await sellerRows(plainShop, stapledShop);
  const options = { baseUrl: demo.url, chain, payTo, resourceUrl, publicKey: demo.publicKey, strict: true };
  const pkg = [];
  const plain = [];
  for (let i = 0; i < RUNS; i++) {
    pkg.push(await child(coldPackage(options)));
    plain.push(await child(coldPlain(options)));
  }
  console.log(`x402-verdict in Node ${process.version}, ${RUNS} runs, load ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  console.log("\nThe guard's added time per payment (median guarded minus median unguarded createPaymentPayload):");
  for (const [name, ms] of rows) console.log(`  ${name.padEnd(38)} ${ms.toFixed(2)} ms`);
  console.log(`  (verdict cached: ${RUNS * 5} runs)`);
  console.log(`  requests to the service, stapled       ${stapledRequests} (${RUNS} payments)`);
  console.log(`\nThe same, verdict cached, no configured key: the keys the service publishes (${RUNS * 5} runs):`);
  for (const [count, ms] of keyRows) {
    const name = count === most ? `${count} keys (a 64 KiB document)` : `${count} key${count === 1 ? "" : "s"}`;
    console.log(`  ${name.padEnd(38)} ${ms.toFixed(2)} ms`);
  }
  console.log(`  ratio, ${most} keys to 1                 ${(keyRows.at(-1)[1] / keyRows[0][1]).toFixed(2)}x`);
  console.log(`\nA seller's 402 (@x402/express, GET /weather, two options; median of ${RUNS * 20}):`);
  console.log(`  without the extension                  ${sellers.plain.toFixed(2)} ms`);
  console.log(`  the same staple as a constant (floor)  ${sellers.floor.toFixed(2)} ms`);
  console.log(`  with verdictExtension (${sellers.count} stapled)       ${sellers.stapled.toFixed(2)} ms`);
  console.log(`  ratio to without                       ${(sellers.stapled / sellers.plain).toFixed(2)}x (its floor ${(sellers.floor / sellers.plain).toFixed(2)}x)`);
  console.log(`  ratio to its floor                     ${(sellers.stapled / sellers.floor).toFixed(2)}x`);
  const [a, b] = [median(pkg), median(plain)];
  console.log("\nCold start, import to first verdict (a fresh process each):");
  console.log(`  x402-verdict                           ${a.toFixed(1)} ms`);
  console.log(`  plain fetch + WebCrypto                ${b.toFixed(1)} ms`);
  console.log(`  ratio                                  ${(a / b).toFixed(2)}x`);
} finally {
  seller.clear();
  await Promise.all([front.stop(), sellerFront.stop(), demo.stop(), plainShop.stop(), stapledShop.stop(), ...keyFronts.map((f) => f.stop())]);
}
