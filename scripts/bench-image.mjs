// npm run bench-image: the image badge on this machine. The bytes of the
// SVG of each state in each style, as the demo service answers it; then,
// on the same service, how many answers per second it gives for the image
// badge (`/v0/badge.svg`, which asks its verdict route, evaluates the
// signed document and draws it) against the verdict itself
// (`/v0/verdict`), for a verified endpoint (a verdict signed per request),
// measured by wrk in alternate runs, and the badge's as a ratio of the
// verdict's, the median of each round's ratio (each round's two runs see
// about the same load; the goal: at least 0.8).
//
//   node scripts/bench-image.mjs [--seconds 5] [--connections 64] [--rounds 3]
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { startDemo, ENDPOINTS } from "./demo.mjs";

const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return Number(i > 0 ? process.argv[i + 1] : fallback);
};
const [seconds, connections, rounds] = [option("seconds", 5), option("connections", 64), option("rounds", 3)];
const STATES = { verified: "verified", revoked: "revoked", stale: "unknown (stale)", noSignal: "unknown (no verdict)" };
const STYLES = ["flat", "flat-square", "for-the-badge"];

const query = (name, style) => {
  const { chain, payTo, resourceUrl } = ENDPOINTS[name];
  return new URLSearchParams({ chain, payTo, resourceUrl, ...(style && { style }) }).toString();
};

/** wrk's requests per second for `url`, every answer a 200. */
function rps(url) {
  const out = execFileSync("wrk", ["-t", "1", "-c", String(connections), "-d", `${seconds}s`, url], { encoding: "utf8" });
  if (/Non-2xx or 3xx responses: \d+/.test(out) || /Socket errors/.test(out)) throw new Error(`wrk saw errors:\n${out}`);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]);
}

const demo = await startDemo({ www: false });
try {
  console.log("image badge bytes (SVG, as served), by state and style:");
  console.log(`${"state".padEnd(22)}${STYLES.map((s) => s.padStart(15)).join("")}`);
  for (const [name, label] of Object.entries(STATES)) {
    const sizes = [];
    for (const style of STYLES) sizes.push((await (await fetch(`${demo.url}/v0/badge.svg?${query(name, style)}`)).arrayBuffer()).byteLength);
    console.log(`${label.padEnd(22)}${sizes.map((n) => String(n).padStart(15)).join("")}`);
  }
  const verdict = `${demo.url}/v0/verdict?${query("verified")}`;
  const badge = `${demo.url}/v0/badge.svg?${query("verified")}`;
  const runs = { verdict: [], badge: [] };
  for (let i = 0; i < rounds; i++) {
    runs.verdict.push(rps(verdict));
    runs.badge.push(rps(badge));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`\nanswers/s, verified endpoint (a verdict signed per request), wrk 1 thread, ${connections} connections, ${seconds} s per run, ${rounds} alternate runs each, median:`);
  console.log(`/v0/verdict     ${median(runs.verdict).toFixed(0).padStart(8)}   (runs: ${runs.verdict.map((r) => r.toFixed(0)).join(", ")})`);
  console.log(`/v0/badge.svg   ${median(runs.badge).toFixed(0).padStart(8)}   (runs: ${runs.badge.map((r) => r.toFixed(0)).join(", ")})`);
  const ratios = runs.badge.map((b, i) => b / runs.verdict[i]);
  console.log(`badge / verdict ${median(ratios).toFixed(2).padStart(8)}x  (median of the rounds' ratios: ${ratios.map((r) => r.toFixed(2)).join(", ")}; goal >= 0.8x); load average ${loadavg().map((l) => l.toFixed(2)).join(", ")}`);
} finally {
  await demo.stop();
}
