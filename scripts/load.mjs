// npm run load: the reference service under load on this machine, with a
// generated registry of 3, 1,000 and 128,000 attestations. For each size it
// prints how long `serve` took to start (and the CPU time it used), then for a listed endpoint (a
// verdict signed per request) and an unlisted one (a 404, the cheapest
// flood) what wrk measured: requests/s, p50 and p99 latency, errors, and the
// server's resident memory before and after.
//
//   node scripts/load.mjs [--seconds 10] [--connections 256] [--sizes 3,1000,128000] [--count]
//                         [--match exact|path|prefix] [--baseline OTHER_BINARY]
//                         [--clients 200] [--calls 20] [--delay-ms 300]
//                         [--scan-items 10000] [--scan-concurrency 64] [--scan-delay-ms 100] [--scan-origins 500]
//
// --count runs the service with a --data folder, so that every verdict answer
// is also counted (the published metrics): compare with a run without it.
// --match gives every attestation that coverage and asks a URL it covers
// (path: the entry's path with a query; prefix: a path two segments below it).
// --baseline runs each size with another build of x402-verdict too (an older
// commit's, given exact attestations and asked their exact URLs, as today),
// and prints this build's req/s as a ratio of that one's.
//
// Then `mcp --listen` beside `serve`: --clients clients (200) each make --calls
// calls (20) one after the other, every call for another endpoint; MCP's
// tools/call goes to the service through a proxy that adds --delay-ms (300)
// to each answer, `serve` is asked its verdicts directly. For each: calls/s,
// p50 and p99, errors, and the server's resident memory before, at its peak
// (sampled every 20 ms) and after.
//
// Last, `scan` of a facilitator's listing of --scan-items (10,000) endpoints,
// all listed in the service's registry, at --scan-concurrency (64): against
// the service on loopback, then through the proxy --scan-delay-ms (100) away.
// For each: lookups/s, the wall time, and scan's peak resident memory.
// Then `scan --live` of --scan-items resources on --scan-origins (500)
// loopback sellers, each answering 402 with the challenge the listing names
// (so each resource's 402 is read and its option looked up at the service
// on loopback): with the sellers on loopback, then --scan-delay-ms away.
// For each: resources/s, the wall time, and scan's peak resident memory.
//
// wrk (Debian's package) is installed by scripts/setup.sh; the service is
// the release build, and the load generator runs on the same machine.
import { spawn, execFileSync } from "node:child_process";
import http from "node:http";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "target/release/x402-verdict");
const WORK = join(ROOT, ".work/load");

const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const seconds = Number(option("seconds", "10"));
const connections = Number(option("connections", "256"));
const sizes = option("sizes", "3,1000,128000").split(",").map(Number);
const count = process.argv.includes("--count");
const match = option("match", "exact");
const baseline = option("baseline", null);
const clients = Number(option("clients", "200"));
const calls = Number(option("calls", "20"));
const delayMs = Number(option("delay-ms", "300"));
const scanItems = Number(option("scan-items", "10000"));
const scanConcurrency = Number(option("scan-concurrency", "64"));
const scanDelayMs = Number(option("scan-delay-ms", "100"));
const scanOrigins = Number(option("scan-origins", "500"));
const ASKED = { exact: "", path: "?city=Paris&units=metric", prefix: "/items/7" }[match];
if (ASKED === undefined) throw new Error(`--match ${match}: expected exact, path or prefix`);

const iso = (hours) => new Date(Date.now() + hours * 3600e3).toISOString().replace(/\.\d+Z$/, "Z");
const payTo = (i) => `0x${i.toString(16).padStart(40, "0")}`;
const RESOURCE = "https://api.example.com/premium-data";

function registry(size, match) {
  const attestations = [];
  for (let i = 0; i < size; i++) {
    attestations.push({
      chain: "base", payTo: payTo(i + 1), resourceUrl: `${RESOURCE}/${i}`, operator: `Operator ${i}`,
      relatedParty: false, assuranceLevel: "G", status: "active", attestedAt: iso(-24 * 30),
      lastRecheckedAt: iso(-1), recheckEveryHours: 24, renewBy: iso(24 * 300), ...(match ? { match } : {}),
    });
  }
  return { attestations, published: [] };
}

function query(i, asked) {
  const q = new URLSearchParams({ chain: "base", payTo: payTo(i + 1), resourceUrl: `${RESOURCE}/${i}${asked}` });
  return `/v0/verdict?${q}`;
}

const rssKib = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;

/** Starts `bin` with `args` and waits for its `listening on URL` line. */
async function listening(bin, args, env = {}) {
  const child = spawn(bin, args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, RUST_LOG: "error", ...env } });
  const url = await new Promise((ok, fail) => {
    createInterface({ input: child.stdout }).once("line", (line) => ok(line.replace(/^listening on /, "")));
    child.once("exit", (code) => fail(new Error(`${args[0]} exited with ${code}`)));
  });
  return { child, url };
}

async function start(bin, registryPath, keys) {
  const started = process.hrtime.bigint();
  const data = count ? ["--data", join(WORK, "data")] : [];
  const child = spawn(bin, ["serve", "--listen", "127.0.0.1:0", "--registry", registryPath, "--keys", keys, ...data], {
    stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, RUST_LOG: "error" },
  });
  const url = await new Promise((ok, fail) => {
    createInterface({ input: child.stdout }).once("line", (line) => ok(line.replace(/^listening on /, "")));
    child.once("exit", (code) => fail(new Error(`serve exited with ${code}`)));
  });
  return { child, url, startMs: Number(process.hrtime.bigint() - started) / 1e6, startCpuMs: cpuMs(child.pid) };
}

/** The CPU time a process has used (user + system), in ms: a figure other jobs on the machine do not inflate. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Runs wrk against `url`; `status` is the answer every request should get. */
function wrk(url, status) {
  const out = execFileSync("wrk", ["-t", "1", "-c", String(connections), "-d", `${seconds}s`, "--latency", url], {
    encoding: "utf8",
  });
  const number = (re) => Number((re.exec(out) ?? [0, 0])[1]);
  const latency = (pct) => {
    const m = new RegExp(`^\\s+${pct}%\\s+([\\d.]+)(us|ms|s)$`, "m").exec(out);
    return m ? Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]] : NaN;
  };
  const total = number(/(\d+) requests in/);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket ? socket.slice(1).map(Number).reduce((a, b) => a + b, 0) : 0;
  const non2xx = number(/Non-2xx or 3xx responses: (\d+)/);
  const wrongStatus = status === 200 ? non2xx : total - non2xx;
  return { rps: number(/Requests\/sec:\s+([\d.]+)/), p50: latency(50), p99: latency(99), errors: socketErrors + wrongStatus, total };
}

mkdirSync(WORK, { recursive: true });
execFileSync("cargo", ["build", "--release", "--quiet", "-p", "x402-verdict"], { cwd: ROOT, stdio: "inherit" });
const keys = join(WORK, "keys.json");
rmSync(keys, { force: true });
execFileSync(BIN, ["keygen", "--out", keys], { stdio: "ignore" });

const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`load: wrk, 1 thread, ${connections} connections, ${seconds} s per run, ${availableParallelism()} cores, ${new Date().toISOString().slice(0, 10)}, match ${match}${count ? ", verdict answers counted (--data)" : ""}; load average ${load()}`);
console.log(`${"entries".padStart(8)} ${"build".padEnd(9)}${"start (CPU)".padStart(18)}  ${"request".padEnd(9)}${"req/s".padStart(9)}${"p50".padStart(10)}${"p99".padStart(10)}${"errors".padStart(8)}   memory before -> after`);
let failed = false;
// [name, binary, `match` written in the registry, what the asked URL adds to an entry's]
const current = ["this", BIN, match === "exact" ? null : match, ASKED];
const builds = baseline ? [["baseline", resolve(baseline), null, ""], current] : [current];
for (const size of sizes) {
  const rps = new Map();
  for (const [build, bin, coverage, asked] of builds) {
    const registryPath = join(WORK, `registry-${size}-${build}.json`);
    writeFileSync(registryPath, JSON.stringify(registry(size, coverage)));
    const service = await start(bin, registryPath, keys);
    for (const [name, path, status] of [["listed", query(size - 1, asked), 200], ["unlisted", query(size, asked), 404]]) {
      const before = rssKib(service.child.pid);
      const r = wrk(`${service.url}${path}`, status);
      const after = rssKib(service.child.pid);
      failed ||= r.errors > 0 || r.total === 0;
      rps.set(`${build} ${name}`, r.rps);
      console.log(
        `${String(size).padStart(8)} ${build.padEnd(9)}${`${service.startMs.toFixed(0)} ms (${service.startCpuMs} ms)`.padStart(18)}  ${name.padEnd(9)}${r.rps.toFixed(0).padStart(9)}` +
          `${`${r.p50.toFixed(2)} ms`.padStart(10)}${`${r.p99.toFixed(2)} ms`.padStart(10)}${String(r.errors).padStart(8)}   ${mib(before)} -> ${mib(after)}`,
      );
    }
    service.child.kill("SIGINT");
    await new Promise((done) => service.child.once("exit", done));
  }
  if (baseline) {
    const ratio = (name) => (rps.get(`this ${name}`) / rps.get(`baseline ${name}`)).toFixed(2);
    console.log(`${String(size).padStart(8)} req/s this / baseline: listed ${ratio("listed")}, unlisted ${ratio("unlisted")}; load average ${load()}`);
  }
}
for (const [build, bin] of builds) failed = (await clientsAgainstServers(build, bin)) || failed;
failed = (await scanListing()) || failed;
if (failed) {
  console.error("load: some requests failed or got the wrong status");
  process.exit(1);
}

/** A proxy on loopback that answers each request `delay` ms later, with the service's answer. */
async function delayingProxy(target, delay = delayMs) {
  const server = http.createServer(async (req, res) => {
    await new Promise((done) => setTimeout(done, delay));
    const answer = await fetch(`${target}${req.url}`, { headers: { accept: req.headers.accept ?? "*/*" } });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

/** `clients` clients making `calls` requests each, one after the other: calls/s, p50, p99, errors, RSS. */
async function clientLoad(pid, request) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const before = rssKib(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKib(pid))), 20);
  const latencies = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let k = 0; k < calls; k++) {
        const t = performance.now();
        const ok = await request(agent, c * calls + k).catch(() => false);
        latencies.push(performance.now() - t);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = performance.now() - started;
  clearInterval(sampler);
  agent.destroy();
  await new Promise((done) => setTimeout(done, 500));
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { rate: latencies.length / (elapsed / 1000), p50: pct(50), p99: pct(99), errors, before, peak, after: rssKib(pid) };
}

/** One HTTP request through `agent`: its status and body text. */
function send(agent, url, { method = "GET", headers = {}, body } = {}) {
  return new Promise((ok, fail) => {
    const req = http.request(url, { agent, method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => ok({ status: res.statusCode, text }));
    });
    req.on("error", fail);
    req.end(body);
  });
}

/** `mcp --listen` (its service `delayMs` away) beside `serve`, under `clients` × `calls`. */
async function clientsAgainstServers(build, bin) {
  const size = clients * calls;
  const registryPath = join(WORK, `registry-clients-${size}.json`);
  writeFileSync(registryPath, JSON.stringify(registry(size, null)));
  const publicKey = JSON.parse(readFileSync(keys, "utf8")).current.publicKey;
  const service = await start(bin, registryPath, keys);
  const proxy = await delayingProxy(service.url);
  const mcp = await listening(bin, ["mcp", "--listen", "127.0.0.1:0"], {
    VERIFICATION_BASE_URL: proxy.url,
    VERIFICATION_PUBLIC_KEY: publicKey,
  });
  const endpoint = (i) => ({ chain: "base", payTo: payTo(i + 1), resourceUrl: `${RESOURCE}/${i}` });
  const toolCall = (agent, i) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "endpoint_status", arguments: endpoint(i) } });
    return send(agent, mcp.url, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
    }).then((r) => r.status === 200 && JSON.parse(r.text).result?.structuredContent?.state === "human-backed");
  };
  const verdict = (agent, i) => send(agent, `${service.url}${query(i, "")}`).then((r) => r.status === 200);
  console.log(`\n${build} build: ${clients} clients x ${calls} calls each, each call for another endpoint; load average ${load()}`);
  console.log(`${"server".padEnd(34)}${"calls/s".padStart(9)}${"p50".padStart(11)}${"p99".padStart(11)}${"errors".padStart(8)}   memory before -> peak -> after`);
  let failed = false;
  for (const [name, pid, call] of [
    [`mcp --listen (service ${delayMs} ms away)`, mcp.child.pid, toolCall],
    ["serve (verdicts, direct)", service.child.pid, verdict],
  ]) {
    const r = await clientLoad(pid, call);
    failed ||= r.errors > 0;
    console.log(
      `${name.padEnd(34)}${r.rate.toFixed(0).padStart(9)}${`${r.p50.toFixed(1)} ms`.padStart(11)}${`${r.p99.toFixed(1)} ms`.padStart(11)}${String(r.errors).padStart(8)}   ${mib(r.before)} -> ${mib(r.peak)} -> ${mib(r.after)}`,
    );
  }
  for (const child of [mcp.child, service.child]) {
    child.kill("SIGINT");
    await new Promise((done) => child.once("exit", done));
  }
  proxy.server.close();
  return failed;
}

/** A facilitator on loopback serving `items` as the bazaar extension's paged listing. */
async function facilitator(items) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://facilitator");
    const limit = Number(url.searchParams.get("limit") ?? 100);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const page = { x402Version: 2, items: items.slice(offset, offset + limit), pagination: { limit, offset, total: items.length } };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(page));
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

/** Runs `scan` to its end: lookups/s, wall time, peak RSS (VmHWM, sampled until it exits), the endpoints printed. */
async function timedScan(args) {
  const started = performance.now();
  const child = spawn(BIN, ["scan", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  let lines = 0;
  createInterface({ input: child.stdout }).on("line", () => lines++);
  let peak = 0;
  const sampler = setInterval(() => {
    const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
    if (m) peak = Math.max(peak, Number(m[1]));
  }, 20);
  const code = await new Promise((done) => child.once("exit", done));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  return { code, lines, seconds, rate: lines / seconds, peak };
}

/** `scan` of a listing of `scanItems` endpoints, with the service on loopback and `scanDelayMs` away. */
async function scanListing() {
  const registryPath = join(WORK, `registry-scan-${scanItems}.json`);
  writeFileSync(registryPath, JSON.stringify(registry(scanItems, null)));
  const publicKey = JSON.parse(readFileSync(keys, "utf8")).current.publicKey;
  const service = await start(BIN, registryPath, keys);
  const proxy = await delayingProxy(service.url, scanDelayMs);
  const items = Array.from({ length: scanItems }, (_, i) => ({
    resource: `${RESOURCE}/${i}`, type: "http", x402Version: 2, lastUpdated: iso(-1),
    accepts: [{ scheme: "exact", network: "eip155:8453", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", amount: "1000", payTo: payTo(i + 1), maxTimeoutSeconds: 60, extra: {} }],
  }));
  const listing = await facilitator(items);
  console.log(`\nscan of a listing of ${scanItems} endpoints, --concurrency ${scanConcurrency}, --page-size 1000; load average ${load()}`);
  console.log(`${"verification service".padEnd(24)}${"lookups/s".padStart(11)}${"time".padStart(10)}${"endpoints".padStart(11)}   peak memory`);
  let failed = false;
  for (const [name, base] of [["on loopback", service.url], [`${scanDelayMs} ms away`, proxy.url]]) {
    const r = await timedScan([listing.url, "--base-url", base, "--public-key", publicKey, "--concurrency", String(scanConcurrency), "--page-size", "1000", "--max-items", String(scanItems)]);
    failed ||= r.code !== 0 || r.lines !== scanItems;
    console.log(`${name.padEnd(24)}${r.rate.toFixed(0).padStart(11)}${`${r.seconds.toFixed(1)} s`.padStart(10)}${String(r.lines).padStart(11)}   ${mib(r.peak)}`);
  }
  listing.server.close();
  failed = (await scanLive(service.url, publicKey)) || failed;
  service.child.kill("SIGINT");
  await new Promise((done) => service.child.once("exit", done));
  proxy.server.close();
  return failed;
}

/**
 * `scan --live` of a listing of `scanItems` resources on `scanOrigins`
 * loopback origins (sellers answering 402 with an x402 v2 challenge that
 * matches the listing), at --scan-concurrency, each resource's option
 * looked up at the service on loopback: with the sellers on loopback, then
 * each answering `scanDelayMs` later.
 */
async function scanLive(serviceUrl, publicKey) {
  let delay = 0;
  const option = (payTo) => ({ scheme: "exact", network: "eip155:8453", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", amount: "1000", payTo, maxTimeoutSeconds: 60, extra: {} });
  const answer = (req, res) => {
    const url = `http://${req.headers.host}${req.url}`;
    const i = Number(req.url.slice(1));
    const challenge = { x402Version: 2, error: "PAYMENT-SIGNATURE header is required", resource: { url }, accepts: [option(payTo(i + 1))] };
    setTimeout(() => {
      res.writeHead(402, { "payment-required": Buffer.from(JSON.stringify(challenge)).toString("base64"), "content-type": "application/json" });
      res.end("{}");
    }, delay);
  };
  const origins = [];
  for (let o = 0; o < scanOrigins; o++) {
    const server = http.createServer(answer);
    await new Promise((done) => server.listen(0, "127.0.0.1", done));
    origins.push(server);
  }
  const items = Array.from({ length: scanItems }, (_, i) => ({
    resource: `http://127.0.0.1:${origins[i % scanOrigins].address().port}/${i}`, type: "http", x402Version: 2,
    lastUpdated: iso(-1), accepts: [option(payTo(i + 1))],
  }));
  const listing = await facilitator(items);
  console.log(`\nscan --live of ${scanItems} resources on ${scanOrigins} origins, --concurrency ${scanConcurrency}, --per-origin 2, the service on loopback; load average ${load()}`);
  console.log(`${"sellers".padEnd(24)}${"resources/s".padStart(13)}${"time".padStart(10)}${"rows".padStart(9)}   peak memory`);
  let failed = false;
  for (const [name, ms] of [["on loopback", 0], [`${scanDelayMs} ms away`, scanDelayMs]]) {
    delay = ms;
    const r = await timedScan([listing.url, "--live", "--base-url", serviceUrl, "--public-key", publicKey, "--concurrency", String(scanConcurrency),
      "--page-size", "1000", "--max-items", String(scanItems), "--timeout-ms", "10000"]);
    failed ||= r.code !== 0 || r.lines !== scanItems;
    console.log(`${name.padEnd(24)}${r.rate.toFixed(0).padStart(13)}${`${r.seconds.toFixed(1)} s`.padStart(10)}${String(r.lines).padStart(9)}   ${mib(r.peak)}`);
  }
  for (const server of origins) server.close();
  listing.server.close();
  return failed;
}
