// The root of trust in wasm: the time to take one verdict document inlined
// (as a seller inlines or staples it: no request) pinned to the signing
// key, bare, against the same document carrying its key certificate pinned
// to the root key alone, through the x402-verdict package (pkg-agent/, the
// core compiled to wasm) in Node: its lookupVerdict, what a guard and a
// seller's cache call. The document is the reference service's own
// (`x402-verdict sign` with a key file `certify` certified under a fresh
// root); the bare one is the same document without its `certificate` (the
// signature covers the verdict alone). Also the first chained call, which
// verifies the certificate before the package keeps it.
//
// Medians of CALLS timed calls of each, bare and chained calls alternating
// one by one (so that both meet the machine's load alike), after a warm-up;
// each result checked (human-backed, signature valid, under strict). The
// native figures are the core's (cargo bench -p x402-verdict-core). No
// assertions beyond that.
//   npm run bench-trust   (builds first)
//   CALLS=4000 node scripts/bench-trust.mjs
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { BIN, ENDPOINTS, UNREACHABLE } from "./demo.mjs";
import { median } from "./bench/timing.mjs";
import { AGENT_PACKAGE } from "../tests/support/package.mjs";

const CALLS = Number(process.env.CALLS ?? 4000);
const WARM = 200;
const WORK = new URL("../.work/", import.meta.url).pathname;

/** The command's standard output; it must succeed. */
const run = (args, input) => execFileSync(BIN, args, { encoding: "utf8", input });
/** The `publicKey` line's key in a command's output. */
const publicKeyOf = (out) => out.match(/^publicKey (.+)$/m)[1];

// A root, a key file certified under it, and one verdict signed with it.
mkdirSync(WORK, { recursive: true });
const dir = mkdtempSync(join(WORK, "bench-trust-"));
chmodSync(dir, 0o700);
const [rootFile, keys] = [join(dir, "root.json"), join(dir, "keys.json")];
const rootKey = publicKeyOf(run(["keygen", "--root", "--out", rootFile]));
const publicKey = publicKeyOf(run(["keygen", "--out", keys]));
run(["certify", "--root", rootFile, "--keys", keys]);
const { chain, payTo, resourceUrl } = ENDPOINTS.verified;
const now = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace(/\.\d+Z$/, "Z");
const chained = run(["sign", "--keys", keys, "-"], JSON.stringify({
  v: 1, chain, payTo, resourceUrl, outcome: "human_backed", assuranceLevel: "G", verifiedAt: now, recheckEveryHours: 24,
})).trim();
rmSync(dir, { recursive: true });
const { certificate, ...rest } = JSON.parse(chained);
if (typeof certificate !== "string") throw new Error("x402-verdict sign wrote no certificate");
const bare = JSON.stringify(rest);

const { lookupVerdict } = await import(`${AGENT_PACKAGE}index.js`);
// Nothing listens at the base URL: a document not taken would read unknown (no_response).
const options = { baseUrl: UNREACHABLE, chain, payTo, resourceUrl, strict: true };
const cases = {
  bare: { ...options, verdict: bare, publicKey },
  chained: { ...options, verdict: chained, rootKey },
};

/** One call, its time in µs; its result must be verified under strict. */
async function once(name) {
  const start = performance.now();
  const result = await lookupVerdict(cases[name]);
  const took = (performance.now() - start) * 1000;
  if (result.state !== "human-backed" || result.signature !== "valid") throw new Error(`${name}: ${JSON.stringify(result)}`);
  return took;
}

// The package warmed on the bare path, then the first chained call (its certificate verified, then kept), then that path warmed too.
for (let i = 0; i < WARM; i++) await once("bare");
const first = await once("chained");
for (let i = 0; i < WARM; i++) await once("chained");
const times = { bare: [], chained: [] };
for (let i = 0; i < CALLS; i++) {
  for (const name of i % 2 ? ["chained", "bare"] : ["bare", "chained"]) times[name].push(await once(name));
}
const [b, c] = [median(times.bare), median(times.chained)];
const load = execFileSync("uptime", { encoding: "utf8" }).trim();

const bytes = (text) => Buffer.byteLength(text);
const row = (label, us) => console.log(`${label.padEnd(58)}${us.toFixed(2).padStart(9)} µs`);
console.log(`one inlined verdict document, taken offline by the x402-verdict package's wasm in Node ${process.versions.node} (lookupVerdict, strict), median of ${CALLS} calls each, alternating; load: ${load}`);
row(`bare, pinned to its signing key (${bytes(bare)} B)`, b);
row(`chained, pinned to the root, its certificate (${bytes(chained)} B)`, c);
row("  the first chained call (its certificate verified)", first);
console.log(`a verdict under its root takes ${(c / b).toFixed(2)}x the time under its key (wasm)`);
