// The x402-verdict package (pkg-agent/) in Node, for code that pays, side by
// side in one run, against the reference service with the demo key:
//
// - the guard's added time per payment: x402Client.createPaymentPayload
//   (@x402/evm's exact scheme, a viem local account: signing is offline)
//   guarded, minus the same call unguarded, with the verdict's first lookup
//   at loopback and at 100 ms to the service (a loopback front that waits
//   100 ms before each request), and with the verdict cached;
// - cold start: a fresh Node process, from the import of the package to the
//   first verdict, beside a plain fetch plus WebCrypto Ed25519 lookup
//   written here (it checks far less: a floor, not a verifier).
//
// Medians of RUNS, guarded and plain runs alternating. No assertions.
//   npm run bench   (after a build)
//   RUNS=15 node scripts/bench-agent.mjs
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { loadavg } from "node:os";
import { x402Client } from "@x402/core/client";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { ENDPOINTS, startDemo } from "./demo.mjs";
import { median } from "./bench/timing.mjs";
import { AGENT_PACKAGE } from "../tests/support/package.mjs";

const RUNS = Number(process.env.RUNS ?? 9);
const INDEX = `${AGENT_PACKAGE}index.js`;
const { guard } = await import(INDEX);
const SIGNER = toClientEvmSigner(privateKeyToAccount(`0x${"11".repeat(32)}`));
const { chain, payTo, resourceUrl } = ENDPOINTS.verified;

/** A v2 challenge for the demo's verified endpoint (USDC on Base). */
const challenge = () => ({
  x402Version: 2,
  resource: { url: resourceUrl, description: "bench", mimeType: "application/json" },
  accepts: [{
    scheme: "exact", network: "eip155:8453", amount: "10000", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    payTo, maxTimeoutSeconds: 60, extra: { name: "USD Coin", version: "2" },
  }],
});

/** A front to `target` that waits `ms` before each request. */
async function slowFront(target, ms) {
  const server = createServer(async (req, res) => {
    await new Promise((ok) => setTimeout(ok, ms));
    const answer = await fetch(`${target}${req.url}`);
    res.writeHead(answer.status, { "Content-Type": "application/json", "Cache-Control": answer.headers.get("cache-control") ?? "no-store" });
    res.end(await answer.text());
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}`, stop: () => new Promise((ok) => (server.closeAllConnections(), server.close(ok))) };
}

/** Milliseconds of one createPaymentPayload by `client`. */
async function timed(client) {
  const began = performance.now();
  await client.createPaymentPayload(challenge());
  return performance.now() - began;
}

const client = (options) => {
  const c = new x402Client().register("eip155:*", new ExactEvmScheme(SIGNER));
  return options ? guard(c, options) : c;
};

/** The guard's added milliseconds per payment (median), for a guard made by `options(i)` on run i. */
async function added(options, { reuse = false } = {}) {
  const plain = client();
  const reused = reuse ? client(options(0)) : undefined;
  if (reused) await timed(reused);
  const guarded = [];
  const unguarded = [];
  for (let i = 0; i < RUNS; i++) {
    unguarded.push(await timed(plain));
    guarded.push(await timed(reused ?? client(options(i + 1))));
  }
  return median(guarded) - median(unguarded);
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

const demo = await startDemo({ www: false });
const front = await slowFront(demo.url, 100);
try {
  const keyed = (baseUrl) => (i) => ({ baseUrl, publicKey: demo.publicKey, strict: true, timeoutMs: 3000 + i });
  const rows = [
    // A new timeout per run is a new cache entry: every run's lookup is a first one.
    ["first lookup, loopback", await added(keyed(demo.url))],
    ["first lookup, 100 ms to the service", await added(keyed(front.url))],
    ["verdict cached", await added(keyed(demo.url), { reuse: true })],
  ];
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
  const [a, b] = [median(pkg), median(plain)];
  console.log("\nCold start, import to first verdict (a fresh process each):");
  console.log(`  x402-verdict                           ${a.toFixed(1)} ms`);
  console.log(`  plain fetch + WebCrypto                ${b.toFixed(1)} ms`);
  console.log(`  ratio                                  ${(a / b).toFixed(2)}x`);
} finally {
  await Promise.all([front.stop(), demo.stop()]);
}
