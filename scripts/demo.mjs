// The demo: a registry with an endpoint in every state, signed with the demo
// key (demo/keys.json, for local use only) certified at each start by the
// demo root key (demo/root.json, the same), served by the real reference
// service together with www/, whose pages pin the root. Used by `npm start`
// and by the tests.
//
//   node scripts/demo.mjs [--port 8402]     start it and print the URL
//   import { startDemo } from "./demo.mjs"   the same, from a test
import { spawn, execFile, execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const BIN = join(ROOT, "target/release/x402-verdict");
const OPERATOR = join(ROOT, "demo/operator.json");
const WORK = join(ROOT, ".work/demo");

/**
 * The demo key file (demo/keys.json), copied to a file only its owner may
 * read: the command refuses a secret key file open to others, and a clone
 * does not keep a file's mode. Returns the copy's path.
 */
export function demoKeys() {
  const copy = join(WORK, "keys.json");
  mkdirSync(WORK, { recursive: true });
  copyFileSync(join(ROOT, "demo/keys.json"), copy);
  chmodSync(copy, 0o600);
  return copy;
}
const KEYS = demoKeys();

/** The demo root key's public key (demo/root.json): what the demo pages pin. */
export const DEMO_ROOT_KEY = JSON.parse(readFileSync(join(ROOT, "demo/root.json"), "utf8")).publicKey;

let certified;
/**
 * The demo key file certified by the demo root key (`x402-verdict
 * certify`, a certificate valid 90 days from now), made once per process
 * and put in place whole, so that processes starting demos at once never
 * read a half-written file: what the demo serves and signs with. Returns
 * its path.
 */
function certifiedKeys() {
  if (certified) return certified;
  const [keys, root] = ["keys", "root"].map((name) => join(WORK, `${name}-${process.pid}.json`));
  copyFileSync(join(ROOT, "demo/keys.json"), keys);
  copyFileSync(join(ROOT, "demo/root.json"), root);
  for (const file of [keys, root]) chmodSync(file, 0o600);
  execFileSync(BIN, ["certify", "--root", root, "--keys", keys]);
  rmSync(root);
  certified = join(WORK, "certified-keys.json");
  renameSync(keys, certified);
  return certified;
}

const hours = (h) => new Date(Math.floor(Date.now() / 1000) * 1000 + h * 3600e3).toISOString().replace(/\.\d+Z$/, "Z");

/** The demo endpoints: what each is and the state a consumer must reach. */
export const ENDPOINTS = {
  verified: { chain: "base", payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", resourceUrl: "https://api.example.com/premium-data", state: "human-backed", label: "verified · G" },
  verifiedSolana: { chain: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", payTo: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU", resourceUrl: "https://weather.example.com/forecast?days=7", state: "human-backed", label: "verified · A+" },
  verifiedCaip: { chain: "eip155:8453", payTo: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", resourceUrl: "https://data.example.org/v1/prices", state: "human-backed", label: "verified · B" },
  revoked: { chain: "base", payTo: "0x1111111111111111111111111111111111111111", resourceUrl: "https://api.example.com/withdrawn", state: "revoked", label: "not verified" },
  lapsed: { chain: "base", payTo: "0x2222222222222222222222222222222222222222", resourceUrl: "https://api.example.com/lapsed", state: "revoked", label: "not verified" },
  stale: { chain: "base", payTo: "0x3333333333333333333333333333333333333333", resourceUrl: "https://api.example.com/stale", state: "unknown", label: "unknown", reason: "stale" },
  noSignal: { chain: "base", payTo: "0x4444444444444444444444444444444444444444", resourceUrl: "https://api.example.com/unlisted", state: "unknown", label: "unknown", reason: "not_listed" },
  tampered: { chain: "base", payTo: "0x5555555555555555555555555555555555555555", resourceUrl: "https://api.example.com/tampered", state: "unknown", label: "unknown", reason: "signature_invalid" },
  overdue: { chain: "base", payTo: "0x6666666666666666666666666666666666666666", resourceUrl: "https://api.example.com/overdue", state: "unknown", label: "unknown", reason: "overdue" },
};

/** The USDC contract on Base and mint on Solana, the assets of the demo's challenges. */
const USDC = { base: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", solana: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" };

/**
 * The challenge of the demo paid resource (`GET /demo/paid`): x402 v2, its first
 * option the `verified` endpoint named by its CAIP-2 id (the registry lists it
 * under `base`), its second a Solana address nobody attested (not listed).
 */
const PAID_CHALLENGE = {
  x402Version: 2,
  error: "PAYMENT-SIGNATURE header is required",
  resource: { url: ENDPOINTS.verified.resourceUrl, description: "Premium market data (demo)", mimeType: "application/json" },
  accepts: [
    { scheme: "exact", network: "eip155:8453", amount: "10000", asset: USDC.base,
      payTo: ENDPOINTS.verified.payTo, maxTimeoutSeconds: 60, extra: { name: "USD Coin", version: "2" } },
    { scheme: "exact", network: ENDPOINTS.verifiedSolana.chain, amount: "10000", asset: USDC.solana,
      payTo: ENDPOINTS.verifiedSolana.payTo, maxTimeoutSeconds: 60, extra: {} },
  ],
};

/** The x402 challenge of a demo endpoint, in one of the forms x402 sends it. */
function challengeFor({ chain, payTo, resourceUrl }, form) {
  const asset = chain.startsWith("solana") ? USDC.solana : USDC.base;
  const v1 = {
    x402Version: 1, error: "X-PAYMENT header is required",
    accepts: [{ scheme: "exact", network: chain, maxAmountRequired: "10000", resource: resourceUrl, description: "Demo data",
      mimeType: "application/json", payTo, maxTimeoutSeconds: 60, asset, extra: {} }],
  };
  // x402 v2 names the network by its CAIP-2 id: `base` is eip155:8453.
  const v2 = {
    x402Version: 2, error: "PAYMENT-SIGNATURE header is required",
    resource: { url: resourceUrl, description: "Demo data", mimeType: "application/json" },
    accepts: [{ scheme: "exact", network: chain === "base" ? "eip155:8453" : chain, amount: "10000", asset, payTo, maxTimeoutSeconds: 60, extra: {} }],
  };
  switch (chain.includes(":") && form === "v1" ? "v2" : form) {
    case "v1": return v1;
    case "header": return Buffer.from(JSON.stringify(v2)).toString("base64");
    case "mcp": return { content: [{ type: "text", text: JSON.stringify({ "x402/error": { code: 402, message: "Payment required", data: v2 } }) }], isError: true };
    default: return v2;
  }
}

/**
 * An explorer's catalogue: each demo endpoint as the payment challenge a
 * discovery service holds for it, in turn an x402 v1 body, a v2 object, a
 * PAYMENT-REQUIRED header value and an MCP tool result.
 */
export function catalogue() {
  const forms = ["v1", "v2", "header", "mcp"];
  return Object.entries(ENDPOINTS).map(([name, endpoint], i) => ({ name, challenge: challengeFor(endpoint, forms[i % forms.length]) }));
}

/** A base URL nothing listens on (port 9, discard). */
export const UNREACHABLE = "http://127.0.0.1:9";

const identity = ({ chain, payTo, resourceUrl }) => ({ chain, payTo, resourceUrl });

function attestation(endpoint, { status = "active", grade = "G", recheckedHoursAgo = 1, renewInHours = 24 * 180, revokedHoursAgo } = {}) {
  return {
    ...identity(endpoint), operator: "Demo operator", relatedParty: true, assuranceLevel: grade, status,
    attestedAt: hours(-24 * 60), lastRecheckedAt: hours(-recheckedHoursAgo), recheckEveryHours: 24, renewBy: hours(renewInHours),
    ...(revokedHoursAgo === undefined ? {} : { revokedAt: hours(-revokedHoursAgo) }),
  };
}

function sign(verdict) {
  return JSON.parse(execFileSync(BIN, ["sign", "--keys", certifiedKeys(), "-"], { input: JSON.stringify(verdict) }));
}

/** How many resources the demo facilitator's discovery listing holds. */
export const LISTED = 1000;

/** The address the demo shop's `GET /forecast` asks payment for now: another than its listing says. */
export const SWITCHED_PAY_TO = "0x7777777777777777777777777777777777777777";

/**
 * The routes the demo shop adds to those of tests/support/x402-servers.mjs:
 * `GET /forecast`, whose 402 asks SWITCHED_PAY_TO where the listing names
 * the attested EVM address (a bait-and-switch).
 */
export const SHOP_ROUTES = {
  "GET /forecast": {
    accepts: { scheme: "exact", price: "$0.01", network: "eip155:84532", payTo: SWITCHED_PAY_TO },
    description: "Tomorrow's forecast",
  },
};

/** The USDC of Base Sepolia and Solana devnet, as `@x402/express` asks them. */
const TESTNET_USDC = { evm: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", svm: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU" };

/**
 * The listing's items for the demo shop at `shop` (its first items when a
 * shop runs), as a facilitator indexed them, and what `scan --live` finds
 * of each now: `GET /weather` asks its two listed options (live); `GET
 * /forecast` is listed with the attested EVM address and asks another
 * (changed); `GET /retired` answers 404 (not-402); and a resource on a
 * port nobody listens on (unreachable).
 */
export function shopItems(shop) {
  const option = (network, payTo, asset) => ({ scheme: "exact", network, amount: "10000", asset, payTo, maxTimeoutSeconds: 300, extra: {} });
  const [evm, svm] = shopEndpoints(shop);
  const item = (resource, accepts, live, i) => ({
    resource, type: "http", x402Version: 2, accepts, lastUpdated: hours(-1), description: `Demo shop resource ${i + 1}`,
    serviceName: "Demo shop", live,
  });
  const evmOption = option(evm.chain, evm.payTo, TESTNET_USDC.evm);
  return [
    [`${shop}/weather`, [evmOption, option(svm.chain, svm.payTo, TESTNET_USDC.svm)], "live"],
    [`${shop}/forecast`, [evmOption], "changed"],
    [`${shop}/retired`, [evmOption], "not-402"],
    [`${UNREACHABLE}/gone`, [evmOption], "unreachable"],
  ].map(([resource, accepts, live], i) => item(resource, accepts, live, i));
}

/** The demo registry's attestations of the shop at `shop`: `/weather`'s EVM address (its Solana one revoked), and `/forecast`'s listed address. */
export function shopAttestations(shop) {
  const [evm, svm] = shopEndpoints(shop);
  return [[evm], [svm, { status: "revoked", revokedHoursAgo: 24 }], [{ ...evm, resourceUrl: `${shop}/forecast` }]];
}

/**
 * The demo facilitator's discovery listing (`serve --demo-discovery`): LISTED
 * items of the bazaar extension's shape, each one resource with one accepted
 * option. Nine in ten are the demo endpoints in turn (every state appears, and
 * many items share an endpoint); every tenth is an endpoint of its own that
 * nobody attested. A v2 `network` is a CAIP-2 id: `base` is listed as
 * `eip155:8453`, which names the same chain. With a demo shop at `shop`,
 * its items (shopItems) come first, in place of as many others.
 */
export function discoveryItems(shop) {
  const named = Object.values(ENDPOINTS);
  const first = shop ? shopItems(shop).map(({ live, ...item }) => item) : [];
  return first.concat(Array.from({ length: LISTED - first.length }, (_, j) => {
    const i = j + first.length;
    const own = i % 10 === 9;
    const e = own
      ? { chain: "base", payTo: `0x${(0xa000 + i).toString(16).padStart(40, "0")}`, resourceUrl: `https://api.example.com/listed/${i}` }
      : named[i % named.length];
    const network = e.chain === "base" ? "eip155:8453" : e.chain;
    const asset = network.startsWith("solana:") ? USDC.solana : USDC.base;
    return {
      resource: e.resourceUrl, type: "http", x402Version: 2,
      accepts: [{ scheme: "exact", network, asset, amount: String(1000 + i), payTo: e.payTo, maxTimeoutSeconds: 60, extra: {} }],
      lastUpdated: hours(-(i % 48)), description: `Demo resource ${i + 1}`, serviceName: own ? `Unattested ${i + 1}` : "Demo operator",
    };
  }));
}

/**
 * Writes the demo registry (times relative to now, with `more` attestations),
 * www/demo.json, the listing (with the shop at `shop` first) and an empty
 * live snapshot, www/live.jsonl (writeLiveSnapshot fills it).
 */
export function writeDemo(more = [], shop = undefined) {
  const e = ENDPOINTS;
  const positive = (endpoint, verifiedHoursAgo) => ({
    v: 1, ...identity(endpoint), outcome: "human_backed", assuranceLevel: "G", verifiedAt: hours(-verifiedHoursAgo), recheckEveryHours: 24,
  });
  const tampered = sign(positive(e.tampered, 1));
  tampered.verdict.assuranceLevel = "A";
  const registry = {
    attestations: [
      attestation(e.verified),
      attestation(e.verifiedSolana, { grade: "A+" }),
      attestation(e.verifiedCaip, { grade: "B" }),
      attestation(e.revoked, { status: "revoked", revokedHoursAgo: 24 * 10 }),
      attestation(e.lapsed, { renewInHours: -1 }),
      attestation(e.stale, { recheckedHoursAgo: 30 }),
      ...more.map(([endpoint, options]) => attestation(endpoint, options)),
    ],
    published: [tampered, sign(positive(e.overdue, 30))],
  };
  mkdirSync(WORK, { recursive: true });
  const registryPath = join(WORK, "registry.json");
  writeFileSync(registryPath, JSON.stringify(registry, null, 2));
  const paidPath = join(WORK, "paid.json");
  writeFileSync(paidPath, JSON.stringify(PAID_CHALLENGE, null, 2));
  const discoveryPath = join(WORK, "discovery.json");
  writeFileSync(discoveryPath, JSON.stringify(discoveryItems(shop)));
  writeFileSync(LIVE_SNAPSHOT, "");
  const publicKey = JSON.parse(readFileSync(KEYS, "utf8")).current.publicKey;
  writeFileSync(join(ROOT, "www/demo.json"), JSON.stringify({ publicKey, rootKey: DEMO_ROOT_KEY, unreachable: UNREACHABLE, endpoints: ENDPOINTS, catalogue: catalogue() }, null, 2));
  return { registryPath, paidPath, discoveryPath, publicKey, rootKey: DEMO_ROOT_KEY };
}

/** The live snapshot the explorer page reads beside the listing. */
export const LIVE_SNAPSHOT = join(ROOT, "www/live.jsonl");

/**
 * Writes the live snapshot of the demo shop's items (the listing's first,
 * see shopItems) to www/live.jsonl: what `x402-verdict scan --live --json`
 * prints for them, each resource's 402 read now and its live options looked
 * up at the demo service. It exits 3, as a resource changed.
 */
export async function writeLiveSnapshot(demo) {
  const args = ["scan", demo.url, "--live", "--json", "--max-items", String(shopItems("").length),
    "--base-url", demo.url, "--root-key", demo.rootKey];
  // Not execFileSync: the shop may answer from this very process.
  const [code, stdout, stderr] = await new Promise((done) => {
    execFile(BIN, args, (error, out, err) => done([error ? error.code : 0, out, err]));
  });
  if (code !== 0 && code !== 3) throw new Error(`x402-verdict scan --live exited with ${code}: ${stderr}`);
  writeFileSync(LIVE_SNAPSHOT, stdout);
  return stdout;
}

/**
 * Starts the reference service with the demo registry (and `attestations`,
 * [endpoint, options] pairs), the demo operator file (published metrics) and
 * www/ (or the folder `www` names); with `shop` (a demo shop's URL), the
 * listing and the registry hold its items (shopItems, shopAttestations).
 * Resolves to { url, publicKey, rootKey, stop }: the service signs with the
 * demo key certified by the demo root (publicKey, rootKey: their public
 * keys). Verdict counts are kept in .work/demo/data.
 */
export async function startDemo({ port = 0, www = true, attestations = [], shop } = {}) {
  const more = shop ? [...attestations, ...shopAttestations(shop)] : attestations;
  const { registryPath, paidPath, discoveryPath, publicKey, rootKey } = writeDemo(more, shop);
  const args = ["serve", "--listen", `127.0.0.1:${port}`, "--registry", registryPath, "--keys", certifiedKeys(), "--demo-paid", paidPath,
    "--demo-discovery", discoveryPath,
    "--operator", OPERATOR, "--data", join(WORK, "data")];
  if (www) args.push("--www", typeof www === "string" ? www : join(ROOT, "www"));
  const child = spawn(BIN, args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? "error" } });
  const url = await new Promise((ok, fail) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", (line) => ok(line.replace(/^listening on /, "")));
    child.once("exit", (code) => fail(new Error(`x402-verdict serve exited with ${code}`)));
  });
  const stop = () => new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once("exit", done);
    child.kill("SIGINT");
  });
  return { url, publicKey, rootKey, stop, child };
}

/**
 * The demo shop on `port`: paid routes behind the official @x402/express
 * middleware with the loopback fake facilitator (tests/support/x402-servers.mjs),
 * each 402 stapling its verdicts (x402-verdict/seller's verdictExtension),
 * whose browser paywall (verdictPaywall) carries a badge for each accepted
 * option of `GET /weather` (its EVM address attested in the demo registry,
 * its Solana address revoked), its verdict from the staple, and a seller's
 * page (`/`) inlining the verdict of that EVM address. Its badges, loaded
 * by a script tag (embed.js), pin the demo's root key. Resolves to { url,
 * stop }.
 */
async function startShop(port, demo) {
  const { startX402Servers } = await import("../tests/support/x402-servers.mjs");
  const { PACKAGE, AGENT_PACKAGE } = await import("../tests/support/package.mjs");
  const { badgeHtml, headHtml, verdictExtension, verdictPaywall } = await import(`${AGENT_PACKAGE}seller.js`);
  const keys = { rootKey: demo.rootKey };
  const paywall = verdictPaywall({ baseUrl: demo.url, ...keys, badgeScriptUrl: "/pkg/embed.js" });
  const [endpoint] = shopEndpoints(`http://127.0.0.1:${port}`);
  const sellerPage = async (req, res) => {
    const verdict = await paywall.cache.fetch(endpoint);
    const badge = badgeHtml({ baseUrl: demo.url, ...keys, ...endpoint, verdict });
    res.type("html").send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x402 demo shop</title>${headHtml({ badgeScriptUrl: "/pkg/embed.js" })}</head>
<body><h1>x402 demo shop</h1><p>Weather, paid with x402: <a href="/weather">/weather</a> ${badge}</p></body></html>`);
  };
  // Every 402 staples the verdicts the paywall's cache keeps, and the
  // paywall's badges take them from there.
  const extension = verdictExtension(paywall.cache);
  const shop = await startX402Servers({ port, paywall, extension, routes: SHOP_ROUTES, pages: { "/": sellerPage }, folders: { "/pkg": PACKAGE } });
  // Warm from the start: the first 402 staples its verdicts too.
  for (const e of shopEndpoints(`http://127.0.0.1:${port}`)) paywall.cache.fetch(e);
  return { url: shop.url, stop: () => { paywall.cache.clear(); return shop.stop(); } };
}

/** The endpoints of `GET /weather` of the demo shop at `shop`: the attested EVM address, the revoked Solana one. */
function shopEndpoints(shop) {
  const resourceUrl = `${shop}/weather`;
  return [
    { chain: "eip155:84532", payTo: ENDPOINTS.verified.payTo, resourceUrl },
    { chain: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", payTo: ENDPOINTS.verifiedSolana.payTo, resourceUrl },
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf("--port");
  const port = i > 0 ? Number(process.argv[i + 1]) : 8402;
  // The shop two ports up (the MCP server's default is one up).
  const shopPort = port + 2;
  const demo = await startDemo({ port, shop: `http://127.0.0.1:${shopPort}` });
  const shop = await startShop(shopPort, demo);
  // What the shop's listed resources ask now, for the explorer page.
  await writeLiveSnapshot(demo);
  console.log(`\nx402 verdict demo: ${demo.url}/ (its pages pin the root key ${demo.rootKey})\n`);
  for (const page of ["seller.html", "listing.html", "explorer.html", "dashboard.html", "states.html", "metrics/"]) console.log(`  ${demo.url}/${page}`);
  console.log(`\nthe demo shop (@x402/express, a fake facilitator): ${shop.url}/ (a seller's page, its verdict inlined), ${shop.url}/weather (its 402 stapling its verdicts; the paywall, a badge per option from the staple)`);
  console.log("\nPress Ctrl+C to stop.");
  const stop = async () => { await Promise.all([shop.stop(), demo.stop()]); process.exit(0); };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
