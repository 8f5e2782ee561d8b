// The reference verification service (`x402-verdict serve`, target/release)
// with a registry of attestations, signed with the demo key, on a loopback
// port: what the interop and agent tests ask.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { BIN, demoKeys } from "../../scripts/demo.mjs";

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

/** Starts `serve` with `registry` (written to `name` under .work/x402-servers); resolves to { url, stop }. */
export async function serveRegistry(registry, name = "registry.json") {
  mkdirSync(WORK, { recursive: true });
  const path = `${WORK}${name}`;
  writeFileSync(path, JSON.stringify(registry, null, 2));
  const child = spawn(BIN, ["serve", "--listen", "127.0.0.1:0", "--registry", path, "--keys", KEYS], {
    stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, RUST_LOG: "error" },
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const url = await new Promise((ok, fail) => {
    createInterface({ input: child.stdout }).once("line", (line) => ok(line.replace(/^listening on /, "")));
    child.once("close", (code) => fail(Object.assign(new Error(`serve exited with ${code}`), { code, stderr })));
  });
  return { url, stop: () => new Promise((done) => (child.exitCode !== null ? done() : (child.once("exit", done), child.kill("SIGINT")))) };
}
