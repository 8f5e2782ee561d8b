// Regenerates the demo's published metrics: demo/metrics/snapshot.json, and
// from it the static page in www/metrics/ (served at /metrics/ by `npm
// start`; scripts/build.mjs writes the page from the snapshot too).
//
//   npm run demo-metrics
//
// An operator's monthly job is the last two steps, against the real service:
//   x402-verdict metrics snapshot --base-url https://verify.example --out snapshot.json
//   x402-verdict metrics page --snapshot snapshot.json --out site/metrics
//
// For the demo, the reference service first replays five months of verdict
// traffic with its clock pinned (`serve --now`, in a build with the
// pinned-clock feature, which `npm run demo-metrics` makes in a target
// folder of its own; a release has no such option), over a registry whose
// history spans them, so the committed snapshot is reproducible: the same
// figures on every run.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { demoKeys } from "./demo.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
/** The command built with its clock pin (package.json's demo-metrics script). */
const BIN = join(ROOT, "target/pinned-clock/release/x402-verdict");
const WORK = join(ROOT, ".work/demo-metrics");
const SNAPSHOT = join(ROOT, "demo/metrics/snapshot.json");
const PAGE = join(ROOT, "www/metrics");

const seller = (name, chain, payTo, resourceUrl, attestedAt, { related = true, renewBy = "2027-06-30T00:00:00Z", revokedAt } = {}) => ({
  name, chain, payTo, resourceUrl, operator: "Demo operator", relatedParty: related, assuranceLevel: "G",
  status: revokedAt ? "revoked" : "active", attestedAt, lastRecheckedAt: attestedAt, recheckEveryHours: 24, renewBy,
  ...(revokedAt ? { revokedAt } : {}),
});

/** Eleven seller endpoints attested from May to November 2026: withdrawn, lapsed, related and independent ones. */
const SELLERS = [
  seller("premium", "base", "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", "https://api.example.com/premium-data", "2026-05-04T10:00:00Z"),
  seller("weather", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU", "https://weather.example.com/forecast?days=7", "2026-05-18T10:00:00Z"),
  seller("prices", "eip155:8453", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "https://data.example.org/v1/prices", "2026-06-09T10:00:00Z", { related: false }),
  seller("withdrawn", "base", "0x1111111111111111111111111111111111111111", "https://api.example.com/withdrawn", "2026-06-22T10:00:00Z", { revokedAt: "2026-09-12T15:00:00Z" }),
  seller("lapsed", "base", "0x2222222222222222222222222222222222222222", "https://api.example.com/lapsed", "2026-07-03T10:00:00Z", { related: false, renewBy: "2026-10-03T10:00:00Z" }),
  seller("stale", "base", "0x3333333333333333333333333333333333333333", "https://api.example.com/stale", "2026-07-27T10:00:00Z"),
  seller("tiles", "base", "0x7777777777777777777777777777777777777777", "https://maps.example.net/tiles", "2026-08-11T10:00:00Z", { related: false }),
  seller("translate", "base", "0x8888888888888888888888888888888888888888", "https://translate.example.com/v2", "2026-09-02T10:00:00Z", { related: false }),
  seller("search", "base", "0x9999999999999999999999999999999999999999", "https://search.example.io/q", "2026-09-20T10:00:00Z", { revokedAt: "2026-10-15T09:00:00Z" }),
  seller("images", "base", "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "https://images.example.com/resize", "2026-10-06T10:00:00Z", { related: false }),
  seller("news", "base", "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "https://news.example.org/feed", "2026-11-03T10:00:00Z", { related: false }),
];

/** Verdict requests replayed in each month (about 1 in 10 asks about an unlisted endpoint: a 404, also counted). */
const TRAFFIC = [["2026-06-15T12:00:00Z", 140], ["2026-07-15T12:00:00Z", 265], ["2026-08-15T12:00:00Z", 410], ["2026-09-15T12:00:00Z", 575], ["2026-10-15T12:00:00Z", 730]];
/** When the snapshot is taken: mid-November, so October is the last complete month. */
const SNAPSHOT_AT = "2026-11-16T09:00:00Z";

async function serve(now, registry) {
  const child = spawn(BIN, ["serve", "--listen", "127.0.0.1:0", "--registry", registry, "--keys", demoKeys(),
    "--operator", join(ROOT, "demo/operator.json"), "--data", join(WORK, "data"), "--now", now], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? "error" } });
  const url = await new Promise((ok, fail) => {
    createInterface({ input: child.stdout }).once("line", (line) => ok(line.replace(/^listening on /, "")));
    child.once("exit", (code) => fail(new Error(`serve exited with ${code}`)));
  });
  const stop = () => new Promise((done) => { child.once("exit", done); child.kill("SIGTERM"); });
  return { url, stop };
}

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
const registry = join(WORK, "registry.json");
writeFileSync(registry, JSON.stringify({ attestations: SELLERS.map(({ name, ...entry }) => entry) }, null, 2));
for (const [now, requests] of TRAFFIC) {
  const service = await serve(now, registry);
  const listed = SELLERS.filter((s) => s.attestedAt <= now);
  for (let i = 0; i < requests; i++) {
    const s = listed[i % listed.length];
    const resourceUrl = i % 10 === 9 ? "https://api.example.com/unlisted" : s.resourceUrl;
    const query = new URLSearchParams({ chain: s.chain, payTo: s.payTo, resourceUrl });
    const response = await fetch(`${service.url}/v0/verdict?${query}`);
    await response.arrayBuffer();
  }
  await service.stop();
}
const service = await serve(SNAPSHOT_AT, registry);
mkdirSync(join(ROOT, "demo/metrics"), { recursive: true });
execFileSync(BIN, ["metrics", "snapshot", "--base-url", service.url, "--out", SNAPSHOT], { stdio: "inherit" });
await service.stop();
execFileSync(BIN, ["metrics", "page", "--snapshot", SNAPSHOT, "--out", PAGE], { stdio: "inherit" });
