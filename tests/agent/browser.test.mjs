// The same guard in a web app in Chromium: an app using @x402/fetch 2.27,
// @x402/evm, a viem local account and the x402-verdict package (installed
// from its `npm pack` tarball), built for production by Vite, pays
// @x402/express 2.27 routes (the app served on their origin, its wasm the
// one Vite emitted), the reference service on another origin. The paid
// server counts the payment headers it receives.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { launch } from "../support/browser.mjs";
import { AGENT_PACKAGE } from "../support/package.mjs";
import { KEYS, attested, serveRegistry } from "../support/reference-service.mjs";
import { EVM_NETWORK, EVM_PAY_TO, startX402Servers } from "../support/x402-servers.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const APP = `${ROOT}.work/agent-app/`;
const PUBLIC_KEY = JSON.parse(readFileSync(KEYS, "utf8")).current.publicKey;

let paid, service, browser, tab;

before(async () => {
  rmSync(APP, { recursive: true, force: true });
  const installed = `${APP}node_modules/x402-verdict`;
  mkdirSync(installed, { recursive: true });
  const tarball = execFileSync("npm", ["pack", AGENT_PACKAGE, "--pack-destination", APP, "--silent"], { encoding: "utf8" }).trim().split("\n").pop();
  execFileSync("tar", ["-xzf", `${APP}${tarball}`, "-C", installed, "--strip-components=1"]);
  copyFileSync(new URL("app/app.js", import.meta.url), `${APP}app.js`);
  writeFileSync(`${APP}index.html`, '<!doctype html><title>app</title><script type="module" src="/app.js"></script>');
  execFileSync(process.execPath, [`${ROOT}node_modules/vite/bin/vite.js`, "build", APP, "--logLevel", "error"], {
    cwd: ROOT, stdio: ["ignore", "inherit", "inherit"],
  });
  assert.ok(readdirSync(`${APP}dist/assets`).some((f) => f.endsWith(".wasm")), "Vite emitted the package's wasm");
  paid = await startX402Servers({ folders: { "/": `${APP}dist/` } });
  service = await serveRegistry({
    attestations: [
      attested(EVM_NETWORK, EVM_PAY_TO, `${paid.url}/report`, { match: "path" }),
      attested(EVM_NETWORK, EVM_PAY_TO, `${paid.url}/weather`, { match: "path", status: "revoked" }),
    ],
  }, "agent-browser-registry.json");
  browser = await launch("chromium");
  tab = await browser.newPage();
  await tab.goto(`${paid.url}/index.html`);
  await tab.waitForFunction(() => window.ready === true);
});

after(async () => {
  await browser?.close();
  await Promise.all([paid?.stop(), service?.stop()]);
});

/** Pays `path` in the page; resolves to its { status } or { error } and the payment headers received. */
async function payInPage(path, policy) {
  const from = paid.payments.length;
  const options = { baseUrl: service.url, publicKey: PUBLIC_KEY, strict: true, ...(policy ? { policy } : {}) };
  const outcome = await tab.evaluate(([url, options]) => window.pay(url, options), [`${paid.url}${path}`, options]);
  return { ...outcome, payments: paid.payments.slice(from).filter((p) => p.path === path) };
}

test("in Chromium: human-backed is paid once; revoked is refused before signing, with the guard's reason", async () => {
  const backed = await payInPage("/report");
  assert.deepEqual([backed.status, backed.error, backed.payments.length], [200, undefined, 1]);
  const revoked = await payInPage("/weather");
  assert.equal(revoked.payments.length, 0);
  assert.ok(revoked.error.endsWith(
    `x402-verdict: not paying ${paid.url}/weather: state revoked, outcome revoked, reason revoked (policy avoid-revoked).`,
  ), revoked.error);
});

test("in Chromium: require-human-backed refuses an endpoint nobody attested", async () => {
  const { error, payments } = await payInPage("/v1x", "require-human-backed");
  assert.equal(payments.length, 0);
  assert.match(error, /state unknown, outcome no_signal, reason not_listed \(policy require-human-backed\)\.$/);
});
