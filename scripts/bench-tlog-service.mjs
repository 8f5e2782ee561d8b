// npm run bench-transparency-service: `serve --log` on this machine. Prints
// the machine's load (uptime), then:
//
// - appends per second: --appends (20,000) new statements asked at once,
//   --concurrency (1,000) at a time (URLs under a prefix attestation: each a
//   new entry), each answered only when its batch's checkpoint is written
//   (batches of 250 ms; no witness), and how many checkpoints that took;
// - the log's size on disk: its files' bytes and the blocks they take; per
//   million entries worked out from its full tiles and bundles (which grow
//   with the entries: their bytes per entry times a million), plus the
//   partial tiles each checkpoint leaves behind (which grow with the
//   checkpoints: their bytes per checkpoint);
// - the service's verdict throughput, with the log and without it: wrk
//   (1 thread, --connections 64, --seconds 10) asking one endpoint's
//   verdict, signed per request; with the log, its statement is in the log
//   and each verdict carries its proof (kept per checkpoint). Both services
//   run, wrk alternates between them --rounds times (3); the ratio is the
//   median with over the median without.
//
//   node scripts/bench-tlog-service.mjs [--appends 20000] [--concurrency 1000]
//                                      [--seconds 10] [--connections 64] [--rounds 3] [--bin PATH]
//
// The service is the release build (built first), wrk Debian's package
// (scripts/setup.sh), and the load generators run on the same machine.
import { execFileSync, spawn } from "node:child_process";
import http from "node:http";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const WORK = join(ROOT, ".work/bench-tlog");

const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const appends = Number(option("appends", "20000"));
const concurrency = Number(option("concurrency", "1000"));
const seconds = Number(option("seconds", "10"));
const connections = Number(option("connections", "64"));
const rounds = Number(option("rounds", "3"));
const BIN = option("bin", join(ROOT, "target/release/x402-verdict"));
const R = "https://api.example.com/";
const PAY_TO = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";

const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

/** Starts `serve` with `extra` arguments; resolves with its base URL and process. */
function serve(extra) {
  const child = spawn(
    BIN,
    ["serve", "--listen", "127.0.0.1:0", "--registry", join(WORK, "registry.json"), "--keys", join(WORK, "keys.json"),
      "--max-connections", "4096", ...extra],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  return new Promise((done) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (line.startsWith("listening on ")) done({ url: line.slice("listening on ".length), child });
    });
  });
}

const stop = (service) => new Promise((done) => {
  service.child.on("exit", done);
  service.child.kill("SIGTERM");
});

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

/** The verdict for `resource` at `base`: its status and body. */
const verdict = (base, resource) => new Promise((done, fail) => {
  const query = new URLSearchParams({ chain: "base", payTo: PAY_TO, resourceUrl: resource });
  http.get(`${base}/v0/verdict?${query}`, { agent }, (response) => {
    let body = "";
    response.on("data", (chunk) => { body += chunk; });
    response.on("end", () => done({ status: response.statusCode, body }));
  }).on("error", fail);
});

/** Every file under `dir`: how many, their bytes, and the blocks they take (bytes). */
function files(dir) {
  let count = 0, bytes = 0, blocks = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const stat = statSync(join(entry.parentPath, entry.name));
    count += 1;
    bytes += stat.size;
    blocks += stat.blocks * 512;
  }
  return { count, bytes, blocks };
}

/** wrk against `url`: requests per second and non-2xx answers. */
function wrk(url) {
  const out = execFileSync("wrk", ["-t", "1", "-c", String(connections), "-d", `${seconds}s`, url], { encoding: "utf8" });
  const number = (re) => Number((re.exec(out) ?? [0, 0])[1]);
  return { rps: number(/Requests\/sec:\s+([\d.]+)/), errors: number(/Non-2xx or 3xx responses: (\d+)/) };
}

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
if (!process.argv.includes("--bin")) {
  execFileSync("cargo", ["build", "--release", "--quiet", "-p", "x402-verdict"], { cwd: ROOT, stdio: "inherit" });
}
for (const name of ["keys.json", "log.json"]) execFileSync(BIN, ["keygen", "--out", join(WORK, name)], { stdio: "ignore" });
const hours = (h) => new Date(Date.now() + h * 3600_000).toISOString().replace(/\.\d+Z$/, "Z");
const attestation = (resourceUrl, match) => ({
  chain: "base", payTo: PAY_TO, resourceUrl, match, operator: "Bench Co", relatedParty: false,
  assuranceLevel: "G", status: "active", attestedAt: hours(-24 * 90), lastRecheckedAt: hours(-1),
  recheckEveryHours: 24, renewBy: hours(24 * 30),
});
writeFileSync(join(WORK, "registry.json"), JSON.stringify({
  attestations: [attestation(`${R}hot`, "exact"), attestation(`${R}items`, "prefix")],
}));
const log = join(WORK, "log");
const logArgs = ["--log", log, "--log-keys", join(WORK, "log.json"), "--log-origin", "bench.example/log"];

console.log(`transparency-service: ${new Date().toISOString().slice(0, 10)}; uptime: ${uptime()}`);

// Appends.
let service = await serve(logArgs);
let next = 0;
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (next < appends) {
    const { status } = await verdict(service.url, `${R}items/${next++}`);
    if (status !== 200) throw new Error(`a verdict answered ${status}`);
  }
}));
const elapsed = (performance.now() - started) / 1000;
const checkpoints = readdirSync(join(log, "tile/0"), { recursive: true }).filter((name) => String(name).includes(".p/")).length;
console.log(`appends: ${appends} new statements, ${concurrency} at a time: ${elapsed.toFixed(1)} s, ${Math.round(appends / elapsed)} appends/s (each answered with its proof after its batch's checkpoint); about ${checkpoints} checkpoints (partial level-0 tiles written)`);

// Disk: full tiles and bundles grow with the entries; the partial ones a
// batch leaves behind, with the batches.
const disk = files(log);
const full = { count: 0, bytes: 0, blocks: 0 };
for (const entry of readdirSync(log, { withFileTypes: true, recursive: true })) {
  const path = join(entry.parentPath, entry.name);
  if (!entry.isFile() || path.includes(".p/") || entry.name === "checkpoint") continue;
  const stat = statSync(path);
  full.count += 1;
  full.bytes += stat.size;
  full.blocks += stat.blocks * 512;
}
const fullEntries = Math.floor(appends / 256) * 256;
const mb = (n) => (n / 1e6).toFixed(0);
const perMillion = (n) => mb((n / fullEntries) * 1e6);
const partialKb = (n) => ((n / checkpoints) / 1e3).toFixed(0);
console.log(`disk: ${disk.count} files, ${disk.bytes} bytes (${disk.blocks} in blocks) at ${appends} entries, ${(disk.bytes / appends).toFixed(0)} bytes per entry; its full tiles and bundles (${full.count} files, ${fullEntries} entries): ${perMillion(full.bytes)} MB of files (${perMillion(full.blocks)} MB of blocks) per million entries, plus the partial tiles each checkpoint leaves, about ${partialKb(disk.bytes - full.bytes)} KB (${partialKb(disk.blocks - full.blocks)} KB of blocks) each here`);

// Throughput, with the log (the hot statement appended first) and without,
// both running, wrk alternating between them; the median of each.
const hot = `${R}hot`;
const query = new URLSearchParams({ chain: "base", payTo: PAY_TO, resourceUrl: hot });
const first = await verdict(service.url, hot);
if (!JSON.parse(first.body).logProof) throw new Error("the verdict carries no proof");
const proofBytes = JSON.parse(first.body).logProof.length;
const plain = await serve([]);
const runs = { with: [], without: [] };
for (let round = 0; round < rounds; round++) {
  runs.without.push(wrk(`${plain.url}/v0/verdict?${query}`));
  runs.with.push(wrk(`${service.url}/v0/verdict?${query}`));
}
await stop(service);
await stop(plain);
agent.destroy();
const median = (list) => list.map((r) => r.rps).sort((a, b) => a - b)[Math.floor(list.length / 2)];
const errors = (list) => list.reduce((sum, r) => sum + r.errors, 0);
const [withLog, without] = [median(runs.with), median(runs.without)];
console.log(`throughput: wrk 1 thread, ${connections} connections, ${seconds} s, ${rounds} runs each, alternating (median): with the log ${Math.round(withLog)} verdicts/s (${errors(runs.with)} errors; proof ${proofBytes} bytes at ${appends + 1} entries), without ${Math.round(without)} verdicts/s (${errors(runs.without)} errors): ratio ${(withLog / without).toFixed(2)}`);
console.log(`uptime at the end: ${uptime()}`);
