// The reference verification service (`x402-verdict serve`, target/release)
// with a registry of attestations, signed with the demo key, on a loopback
// port: what the interop and agent tests ask.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { BIN, demoKeys } from "../../scripts/demo.mjs";
import { freePort } from "./root-operator.mjs";

const WORK = new URL("../../.work/x402-servers/", import.meta.url).pathname;
/** The demo key file the service signs with. */
export const KEYS = demoKeys();
/** Its current public key, which consumers trust. */
export const PUBLIC_KEY = JSON.parse(readFileSync(KEYS, "utf8")).current.publicKey;

/** The time `h` hours from now, to the second, as the registry writes it. */
const hours = (h) => new Date(Math.floor(Date.now() / 1000) * 1000 + h * 3600e3).toISOString().replace(/\.\d+Z$/, "Z");

/** An attestation of `resourceUrl` (with `match` when given). */
export function attested(chain, payTo, resourceUrl, { match, status = "active", recheckedHoursAgo = 1 } = {}) {
  return {
    chain, payTo, resourceUrl, ...(match ? { match } : {}), operator: "Weather Co", relatedParty: false,
    assuranceLevel: "G", status, attestedAt: hours(-24 * 30), lastRecheckedAt: hours(-recheckedHoursAgo),
    recheckEveryHours: 24, renewBy: hours(24 * 300),
  };
}

/** Starts BIN with `args`; resolves to { url, printed, stop }: `printed`, the lines it printed before its address. */
async function listening(args) {
  const child = spawn(BIN, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, RUST_LOG: "error" } });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const printed = [];
  const url = await new Promise((ok, fail) => {
    createInterface({ input: child.stdout }).on("line", (line) => (line.startsWith("listening on ") ? ok(line.replace(/^listening on /, "")) : printed.push(line)));
    child.once("close", (code) => fail(Object.assign(new Error(`${args[0]} exited with ${code}`), { code, stderr })));
  });
  return { url, printed, stop: () => new Promise((done) => (child.exitCode !== null ? done() : (child.once("exit", done), child.kill("SIGINT")))) };
}

/**
 * Starts `serve` with `registry` (written to `name` under .work/x402-servers); resolves to { url, stop }.
 * With `log`, the service keeps a transparency log (`--log`, a new key and folder) cosigned by one
 * `x402-verdict witness` of its own, both on loopback: it resolves to { url, logKey, witnessKey, stop }
 * too, the verifier keys consumers take as `logKey` and `witnessKeys`.
 */
export async function serveRegistry(registry, name = "registry.json", { log = false } = {}) {
  mkdirSync(WORK, { recursive: true });
  const path = `${WORK}${name}`;
  writeFileSync(path, JSON.stringify(registry, null, 2));
  const serve = ["serve", "--listen", "127.0.0.1:0", "--registry", path, "--keys", KEYS];
  if (!log) return listening(serve);
  const dir = `${WORK}${name}-log-${process.pid}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const keys of ["log.json", "witness.json"]) execFileSync(BIN, ["keygen", "--out", `${dir}${keys}`], { stdio: "ignore" });
  // The witness's address is the service's --witness-url; the service prints the log key the witness takes.
  const witnessAt = `127.0.0.1:${await freePort()}`;
  const service = await listening([...serve, "--log", `${dir}log`, "--log-keys", `${dir}log.json`, "--log-origin", "verdicts.test/log",
    "--witness-url", `http://${witnessAt}`]);
  const logKey = service.printed.find((line) => line.startsWith("log key ")).slice("log key ".length);
  const witness = await listening(["witness", "--listen", witnessAt, "--keys", `${dir}witness.json`, "--log-key", logKey,
    "--state", `${dir}witness-state`]).catch(async (e) => {
    await service.stop();
    throw e;
  });
  const witnessKey = witness.printed.find((line) => line.startsWith("witness key ")).slice("witness key ".length);
  return { url: service.url, logKey, witnessKey, stop: () => Promise.all([service.stop(), witness.stop()]) };
}
