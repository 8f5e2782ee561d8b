// A verdict's transparency proof checked in wasm: the time to take one
// verdict document inlined (no request) by the x402-verdict package's
// lookupVerdict (pkg-agent/, the core compiled to wasm) in Node, under
// `transparency: "required"` (its proof checked: the log's signature, one
// witness's cosignature, the inclusion proof) against the same document
// under `"off"` (the proof not read), in logs of 10^4 and 10^6 entries
// (`cargo xtask log-fixture`: documents signed now, their proofs). The
// difference is the proof's check. The native figures are the core's
// (`npm run bench-transparency`).
//
// Medians of CALLS timed calls of each, the two alternating one by one
// (so that both meet the machine's load alike), after a warm-up; each
// result checked (human-backed, signature valid). Goal: under 5 ms.
//   npm run bench-transparency-wasm   (the agent package built first)
//   CALLS=2000 node scripts/bench-transparency-wasm.mjs
import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { ENDPOINTS, UNREACHABLE } from "./demo.mjs";
import { median } from "./bench/timing.mjs";
import { AGENT_PACKAGE } from "../tests/support/package.mjs";

const CALLS = Number(process.env.CALLS ?? 2000);
const WARM = 200;
const { lookupVerdict } = await import(`${AGENT_PACKAGE}index.js`);
const { chain, payTo, resourceUrl } = ENDPOINTS.verified;

/** One call's time in µs; its result must be verified. */
async function once(options) {
  const start = performance.now();
  const result = await lookupVerdict(options);
  const took = (performance.now() - start) * 1000;
  if (result.state !== "human-backed" || result.signature !== "valid") throw new Error(JSON.stringify(result));
  return took;
}

const row = (label, us) => console.log(`${label.padEnd(68)}${us.toFixed(2).padStart(9)} µs`);
const load = () => execFileSync("uptime", { encoding: "utf8" }).trim();
console.log(`one inlined verdict document taken offline by the x402-verdict package's wasm in Node ${process.versions.node} (lookupVerdict), median of ${CALLS} calls each, alternating; load: ${load()}`);
for (const size of [10_000, 1_000_000]) {
  const fixture = JSON.parse(execFileSync("cargo", ["xtask", "log-fixture", chain, payTo, resourceUrl, String(size)], { encoding: "utf8" }));
  const verdict = JSON.stringify(fixture.documents.proven);
  const base = { baseUrl: UNREACHABLE, chain, payTo, resourceUrl, publicKey: fixture.publicKey, verdict };
  const log = { logKey: fixture.logKey, witnessKeys: fixture.witnessKeys, witnessQuorum: 1 };
  const cases = { off: { ...base, ...log, transparency: "off" }, required: { ...base, ...log, transparency: "required" } };
  for (let i = 0; i < WARM; i++) for (const options of Object.values(cases)) await once(options);
  const times = { off: [], required: [] };
  for (let i = 0; i < CALLS; i++) {
    for (const name of i % 2 ? ["required", "off"] : ["off", "required"]) times[name].push(await once(cases[name]));
  }
  const [off, required] = [median(times.off), median(times.required)];
  const proof = Buffer.byteLength(fixture.documents.proven.logProof);
  row(`${String(size).padStart(8)} entries, off: the proof not read (${Buffer.byteLength(verdict)} B)`, off);
  row(`${String(size).padStart(8)} entries, required: its proof checked (${proof} B)`, required);
  row(`${String(size).padStart(8)} entries, the proof's check (required - off; goal < 5 ms)`, required - off);
}
console.log(`load at the end: ${load()}`);
