// An operator of the reference service with a root of trust, for the tests
// of every consumer pinned to a root: its root key (`keygen --root`), its
// key file certified under it (`certify`), rotated as docs/service.md's
// runbook says (`keygen --rotate` then `certify`; `root rotate` then
// `certify`), and `serve` restarted on one port after each step, so that a
// consumer's configuration (base URL, root key) never changes.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import { BIN } from "../../scripts/demo.mjs";

const WORK = new URL("../../.work/root-operator/", import.meta.url).pathname;

/** The command's standard output; it must succeed. */
const run = (...args) => execFileSync(BIN, args, { encoding: "utf8" });
/** The `publicKey` line's key in a command's output. */
const publicKeyOf = (out) => out.match(/^publicKey (.+)$/m)[1];

/** A loopback port nobody listens on (bound once, then closed). */
export const freePort = () => new Promise((ok) => {
  const server = createServer().listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    server.close(() => ok(port));
  });
});

/**
 * The steps every rotation test walks: the first certificate, three
 * signing-key rotations, then a root rotation (version 2).
 */
export const STEPS = ["certified", "key rotated once", "key rotated twice", "key rotated thrice", "root rotated"];

/**
 * An operator named `name` whose registry holds `attestations`; resolves to
 * { url, rootKey, step(i), serve(keys?), keepKeys(), stop() }: `step(i)`
 * performs STEPS[i] and restarts the service; `keepKeys()` copies the key
 * file as it is now (for a rollback), and `serve(kept)` serves a copy.
 */
export async function rootOperator(name, attestations) {
  const dir = `${WORK}${name}-${process.pid}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let root = `${dir}root-1.json`;
  const rootKey = publicKeyOf(run("keygen", "--root", "--out", root));
  const keys = `${dir}keys.json`;
  run("keygen", "--out", keys);
  const registry = `${dir}registry.json`;
  writeFileSync(registry, JSON.stringify({ attestations }));
  const addr = `127.0.0.1:${await freePort()}`;
  let child;
  const stop = () => new Promise((done) => {
    if (!child || child.exitCode !== null) return done();
    child.once("exit", done);
    child.kill("SIGTERM");
  });
  const serve = async (file = keys) => {
    await stop();
    child = spawn(BIN, ["serve", "--listen", addr, "--registry", registry, "--keys", file], {
      stdio: ["ignore", "pipe", "ignore"], env: { ...process.env, RUST_LOG: "error" },
    });
    await new Promise((ok, fail) => {
      createInterface({ input: child.stdout }).once("line", ok);
      child.once("exit", (code) => fail(new Error(`serve exited with ${code}`)));
    });
  };
  const certify = () => run("certify", "--root", root, "--keys", keys);
  let kept = 0;
  return {
    url: `http://${addr}`,
    rootKey,
    serve,
    stop,
    async step(i) {
      if (i >= 1 && i <= 3) {
        run("keygen", "--out", keys, "--rotate");
      } else if (i === 4) {
        const next = `${dir}root-2.json`;
        run("root", "rotate", "--root", root, "--out", next);
        root = next;
      }
      certify();
      await serve();
    },
    keepKeys() {
      const copy = `${dir}kept-${kept++}.json`;
      copyFileSync(keys, copy);
      chmodSync(copy, 0o600);
      return copy;
    },
  };
}
