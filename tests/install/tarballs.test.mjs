// Both npm packages as a registry user gets them: `npm pack`ed, then
// installed with `npm install <tarball>` into a fresh project outside the
// clone (its other packages, @x402/fetch among them, from the npm cache or
// the registry), and used there: from Node (the official @x402/fetch
// client, guarded, refuses a revoked endpoint and pays a human-backed one;
// the seller module writes its snippets), from a Vite production build
// (its badges render, in headless Chromium, against the reference service
// on loopback) and from TypeScript (the types resolve, under
// `moduleResolution` "bundler" and "node16", with every declaration
// checked). Their package.json names the files they ship, and the types
// and entries it points at are among them.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { parse } from "smol-toml";
import { launch } from "../support/browser.mjs";
import { startOrigin } from "../support/origin.mjs";
import { AGENT_PACKAGE, PACKAGE } from "../support/package.mjs";
import { PUBLIC_KEY, attested, serveRegistry } from "../support/reference-service.mjs";
import { EVM_NETWORK, EVM_PAY_TO, startX402Servers } from "../support/x402-servers.mjs";

const ROOT = realpathSync(new URL("../../", import.meta.url).pathname);
const run = promisify(execFile);
/** The root package.json's pins, which the fresh project installs too. */
const PINS = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies;
/** The version every package of the workspace has. */
const VERSION = parse(readFileSync(join(ROOT, "Cargo.toml"), "utf8")).workspace.package.version;

/** A folder outside the clone with no node_modules above it: nothing of the clone's resolves from there. */
function freshFolder() {
  const system = realpathSync(tmpdir());
  // npm test points TMPDIR into the clone (.work/tmp).
  const base = system.startsWith(ROOT) ? "/tmp" : system;
  for (let up = base; up !== dirname(up); up = dirname(up)) {
    assert.ok(!existsSync(join(up, "node_modules")), `${up} holds a node_modules folder`);
  }
  return mkdtempSync(join(base, "x402-verdict-install-"));
}

let app, paid, service, site, browser;

before(async () => {
  app = freshFolder();
  const packed = await run("npm", ["pack", PACKAGE, AGENT_PACKAGE, "--pack-destination", app, "--silent"], { encoding: "utf8" });
  const tarballs = packed.stdout.trim().split("\n").map((name) => join(app, name));
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "fresh-app", private: true, type: "module" }));
  await run("npm", [
    "install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs,
    `@x402/fetch@${PINS["@x402/fetch"]}`, `@x402/evm@${PINS["@x402/evm"]}`, `viem@${PINS.viem}`,
  ], { cwd: app, encoding: "utf8" });
  paid = await startX402Servers();
  service = await serveRegistry({
    attestations: [
      attested(EVM_NETWORK, EVM_PAY_TO, `${paid.url}/report`, { match: "path" }),
      attested(EVM_NETWORK, EVM_PAY_TO, `${paid.url}/weather`, { match: "path", status: "revoked" }),
    ],
  }, "install-registry.json");
  [site, browser] = await Promise.all([startOrigin(), launch()]);
});

after(async () => {
  await browser?.close();
  await Promise.all([paid?.stop(), service?.stop(), site?.stop()]);
  if (app) rmSync(app, { recursive: true, force: true });
});

/** The installed package `name`'s folder and manifest. */
function installed(name) {
  const dir = join(app, "node_modules", name);
  return { dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) };
}

test("each installed package holds the files its package.json lists, and its types and entries among them", () => {
  for (const name of ["x402-verdict-badge", "x402-verdict"]) {
    const { dir, manifest } = installed(name);
    assert.equal(manifest.version, VERSION, `${name}'s version is the workspace's`);
    const shipped = readdirSync(dir).filter((f) => f !== "README.md");
    assert.deepEqual(shipped.sort(), [...new Set([...manifest.files, "package.json"])].sort(), `${name} ships the files it lists`);
    const targets = [manifest.main, manifest.types, ...Object.values(manifest.exports ?? {}).flatMap((e) => [e.types, e.default])];
    for (const target of targets.filter(Boolean)) assert.ok(existsSync(join(dir, target)), `${name}: ${target}`);
  }
});

test("from Node: the guard on the official @x402/fetch client refuses a revoked endpoint and pays a human-backed one; the seller module writes its snippets", async () => {
  const script = join(app, "pay.mjs");
  writeFileSync(script, `import { guard } from "x402-verdict";
import { badgeHtml, headHtml } from "x402-verdict/seller";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";

const [baseUrl, publicKey, ...urls] = process.argv.slice(2);
// A test key: the account signs offline and holds nothing.
const signer = toClientEvmSigner(privateKeyToAccount("0x${"11".repeat(32)}"));
const client = new x402Client().register("eip155:*", new ExactEvmScheme(signer));
guard(client, { baseUrl, publicKey, strict: true });
const paying = wrapFetchWithPayment(fetch, client);
const answers = [];
for (const url of urls) {
  try {
    const response = await paying(url);
    answers.push({ status: response.status });
  } catch (error) {
    answers.push({ error: error.message });
  }
}
const html = badgeHtml({ baseUrl, publicKey, chain: "base", payTo: "0x1", resourceUrl: urls[0] }) + headHtml({ badgeScriptUrl: "https://cdn.example/x402-verdict-badge/embed.js" });
console.log(JSON.stringify({ answers, html }));
`);
  const { stdout } = await run(process.execPath, [script, service.url, PUBLIC_KEY, `${paid.url}/weather`, `${paid.url}/report`], { cwd: app, encoding: "utf8" });
  const { answers: [revoked, backed], html } = JSON.parse(stdout);
  assert.ok(revoked.error?.endsWith(`x402-verdict: not paying ${paid.url}/weather: state revoked, outcome revoked, reason revoked (policy avoid-revoked).`), JSON.stringify(revoked));
  assert.deepEqual(backed, { status: 200 });
  assert.deepEqual(paid.payments.map((p) => p.path), ["/report"]);
  assert.ok(html.startsWith(`<span data-x402-verdict data-base-url="${service.url}" data-chain="base"`), html);
  assert.ok(html.endsWith('<link rel="preload" href="https://cdn.example/x402-verdict-badge/x402_verdict_embed_bg.wasm" as="fetch" type="application/wasm" crossorigin><script src="https://cdn.example/x402-verdict-badge/embed.js"></script>'), html);
});

test("from a Vite build: the badge renders each endpoint's state, and x402-verdict looks it up, in Chromium", async () => {
  writeFileSync(join(app, "index.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>app</title></head>
<body><p>Backed: <span id="backed"></span></p><p>Revoked: <x402-verdict-badge id="revoked"></x402-verdict-badge></p>
<script type="module" src="/main.js"></script></body></html>`);
  writeFileSync(join(app, "main.js"), `import { renderBadge } from "x402-verdict-badge";
import { lookupVerdict } from "x402-verdict";
const { backed, revoked } = JSON.parse(new URLSearchParams(location.search).get("options"));
const element = document.getElementById("revoked");
element.addEventListener("x402-verdict:state", (e) => { document.body.dataset.revoked = e.detail.state; });
Object.assign(element, revoked);
renderBadge(document.getElementById("backed"), backed).then((state) => { document.body.dataset.backed = state; });
lookupVerdict(revoked).then((result) => { document.body.dataset.lookup = result.outcome; });
`);
  await run(process.execPath, [join(ROOT, "node_modules/vite/bin/vite.js"), "build", app, "--logLevel", "error"], { cwd: app, encoding: "utf8" });
  site.folders.set("/", join(app, "dist/"));
  const options = (path) => ({ baseUrl: service.url, chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl: `${paid.url}${path}`, publicKey: PUBLIC_KEY, strict: true });
  const tab = await browser.newPage();
  const problems = [];
  tab.on("pageerror", (e) => problems.push(String(e)));
  await tab.goto(`${site.url}/index.html?options=${encodeURIComponent(JSON.stringify({ backed: options("/report"), revoked: options("/weather") }))}`);
  await tab.waitForFunction(() => document.body.dataset.backed && document.body.dataset.revoked && document.body.dataset.lookup, null, { timeout: 20000 });
  assert.deepEqual(await tab.evaluate(() => ({ ...document.body.dataset })), { backed: "human-backed", revoked: "revoked", lookup: "revoked" });
  const label = await tab.$eval("#backed x402-verdict-view", (host) => host.shadowRoot.querySelector(".label").textContent);
  assert.equal(label, "verified · G");
  assert.deepEqual(problems, []);
  await tab.close();
});

test("from TypeScript: the types resolve under moduleResolution bundler and node16, every declaration checked", async () => {
  writeFileSync(join(app, "check.mts"), `import { renderBadge, type BadgeOptions, type BadgeState, type VerdictResult } from "x402-verdict-badge";
import { guard, lookupVerdict, type GuardOptions, type LookupOptions } from "x402-verdict";
import { badgeHtml, type ServiceOptions } from "x402-verdict/seller";

const options: BadgeOptions = { baseUrl: "https://v.example", chain: "base", payTo: "0x1", resourceUrl: "https://r.example", theme: "dark", timeoutMs: 3000 };
export const state: BadgeState = await renderBadge(null, options);
export const result: VerdictResult = await lookupVerdict(options satisfies LookupOptions);
export const guarded: GuardOptions = { policy: "require-human-backed", timeoutMs: 5000, strict: true };
export const html: string = badgeHtml({ baseUrl: "https://v.example", publicKey: "k", chain: "base", payTo: "0x1", resourceUrl: "https://r.example" });
export { guard };
// Types, not any:
// @ts-expect-error a state that is none of the core's
export const wrong: BadgeState = "verified";
// @ts-expect-error a policy that is none of the core's
export const policy: GuardOptions = { policy: "pay-anything" };
// @ts-expect-error timeoutMs is a number
export const late: ServiceOptions = { baseUrl: "https://v.example", publicKey: "k", timeoutMs: "soon" };
`);
  for (const [resolution, module] of [["bundler", "esnext"], ["node16", "node16"]]) {
    const config = join(app, `tsconfig.${resolution}.json`);
    writeFileSync(config, JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, target: "es2022", module, moduleResolution: resolution, lib: ["es2022", "dom"], types: [] },
      files: ["check.mts"],
    }));
    try {
      await run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", config], { cwd: app, encoding: "utf8" });
    } catch (e) {
      assert.fail(`tsc under moduleResolution ${resolution}:\n${e.stdout}${e.stderr}`);
    }
  }
});
