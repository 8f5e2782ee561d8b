// One table of cases run through both the wasm build and the JavaScript
// fallback in Chromium: for every case both must give the same state,
// outcome, freshness, signature and reason, and draw the same label and
// hover text. That is how the two stay one set of rules. No key is
// configured (the fallback cannot check signatures; with keys it says
// "unverifiable", checked at the end).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { generateKeyPairSync } from "node:crypto";
import { launch } from "../support/browser.mjs";
import { startOrigin } from "../support/origin.mjs";
import { PACKAGE } from "../support/package.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
/** A real Ed25519 public key, base64 (the fallback cannot tell a curve point from other 32 bytes). */
const KEY = generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("base64");
const ENDPOINT = { chain: "base", payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", resourceUrl: "https://api.example.com/premium-data" };
const at = (seconds) => new Date(Math.floor(Date.now() / 1000 + seconds) * 1000).toISOString().replace(/\.\d+Z$/, "Z");
const verdict = (over = {}) => ({
  v: 1, ...ENDPOINT, outcome: "human_backed", assuranceLevel: "G", verifiedAt: at(-3600), recheckEveryHours: 24,
  issuedAt: at(0), keyId: "0123456789abcdef", operator: "Example Co", ...over,
});
const doc = (over) => JSON.stringify({ verdict: verdict(over), signature: null });
/** The document with `text` in place of the operator's name, as raw JSON. */
const raw = (text) => doc().replace('"Example Co"', text);
const without = (...fields) => {
  const v = verdict();
  for (const f of fields) delete v[f];
  return JSON.stringify({ verdict: v });
};

/** name → [status, body] (a string or bytes), or a function of the request. */
const ANSWERS = {
  fresh: [200, doc()],
  revoked: [200, doc({ outcome: "revoked", assuranceLevel: undefined })],
  "revoked overdue": [200, doc({ outcome: "revoked", verifiedAt: at(-30 * 3600) })],
  stale: [200, doc({ outcome: "stale", verifiedAt: at(-30 * 3600) })],
  "no signal": [200, without("assuranceLevel", "verifiedAt", "recheckEveryHours").replace("human_backed", "no_signal")],
  overdue: [200, doc({ verifiedAt: at(-30 * 3600) })],
  "verified 500 s ahead, signed 250 s ahead": [200, doc({ verifiedAt: at(500), issuedAt: at(250) })],
  "verified 10 minutes after it was signed": [200, doc({ verifiedAt: at(600) })],
  "signed 10 minutes ahead": [200, doc({ verifiedAt: at(500), issuedAt: at(600) })],
  "verified 200 s ahead (within the skew)": [200, doc({ verifiedAt: at(200) })],
  "payTo in other case": [200, doc({ payTo: ENDPOINT.payTo.toLowerCase() })],
  "another payTo": [200, doc({ payTo: "0x1111111111111111111111111111111111111111" })],
  "another chain": [200, doc({ chain: "eip155:84532" })],
  "the chain by its alias": [200, doc({ chain: "eip155:8453" })],
  "resourceUrl with a slash": [200, doc({ resourceUrl: `${ENDPOINT.resourceUrl}/` })],
  "leap second": [200, doc({ verifiedAt: `${at(-3600).slice(0, 17)}60Z` })],
  "time with nanoseconds": [200, doc({ verifiedAt: at(-3600).replace("Z", ".123456789Z") })],
  "grade A+": [200, doc({ assuranceLevel: "A+" })],
  "cadence in days": [200, doc({ recheckEveryHours: 72, verifiedAt: at(-50 * 3600) })],
  "not listed (404)": [404, '{"error":"no attestation"}'],
  "HTTP 500": [500, "oops"],
  "HTTP 301 without a location": [301, ""],
  "duplicate member": [200, doc().replace('"v":1', '"v":1,"v":1')],
  "duplicate after escapes": [200, doc().replace('"v":1', '"v":1,"\\u0076":1')],
  "nesting 17 deep": [200, raw(`${"[".repeat(16)}${"]".repeat(16)}`)],
  "nesting 16 deep": [200, raw(`${"[".repeat(14)}${"]".repeat(14)}`)],
  "lone surrogate": [200, raw('"\\ud800"')],
  "escaped surrogate pair": [200, raw('"\\ud83d\\ude00"')],
  "fraction": [200, raw("1.5")],
  "exponent": [200, raw("1e2")],
  "minus zero": [200, raw("-0")],
  "2^53": [200, raw("9007199254740992")],
  "2^53 - 1": [200, raw("-9007199254740991")],
  "leading zero": [200, raw("01")],
  "float cadence": [200, doc().replace('"recheckEveryHours":24', '"recheckEveryHours":24.0')],
  "cadence 0": [200, doc({ recheckEveryHours: 0 })],
  "cadence 8761": [200, doc({ recheckEveryHours: 8761 })],
  "v 2": [200, doc({ v: 2 })],
  "v missing": [200, without("v")],
  "outcome unknown": [200, doc({ outcome: "great" })],
  "grade missing": [200, without("assuranceLevel")],
  "grade with markup": [200, doc({ assuranceLevel: "<b>" })],
  "grade of 9": [200, doc({ assuranceLevel: "ABCDEFGHI" })],
  "verifiedAt missing": [200, without("verifiedAt")],
  "offset +00:00": [200, doc({ verifiedAt: at(-3600).replace("Z", "+00:00") })],
  "30 February": [200, doc({ verifiedAt: "2026-02-30T00:00:00Z" })],
  "before 1970": [200, doc({ verifiedAt: "1969-12-31T23:59:59Z" })],
  "issuedAt missing": [200, without("issuedAt")],
  "keyId in capitals": [200, doc({ keyId: "0123456789ABCDEF" })],
  "keyId missing": [200, without("keyId")],
  "chain a number": [200, doc({ chain: 8453 })],
  "trailing data": [200, `${doc()} x`],
  "control character": [200, raw('"a\u0001b"')],
  "invalid UTF-8": [200, Buffer.concat([Buffer.from(raw('"')), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')])],
  "not an object": [200, "[]"],
  "no verdict": [200, '{"signature":"x"}'],
  "markup": [200, "<html><script>alert(1)</script>"],
  "empty body": [200, ""],
  "too large (declared)": [200, " ".repeat(70 * 1024)],
  "too large (streamed)": (req, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    for (let i = 0; i < 80; i++) res.write(" ".repeat(1024));
    res.end("{}");
  },
  "stalls": () => {},
  "redirect to another origin": (req, res, port) => {
    res.writeHead(302, { Location: `http://localhost:${port}/fresh${req.url.slice(req.url.indexOf("/v0/"))}` });
    res.end();
  },
  "redirect within the origin": (req, res) => {
    res.writeHead(302, { Location: `/fresh${req.url.slice(req.url.indexOf("/v0/"))}` });
    res.end();
  },
};

/** Each case: [name, options on top of the endpoint's]. */
const CASES = [
  ...Object.keys(ANSWERS).map((name) => [name, name === "stalls" ? { timeoutMs: 300 } : {}]),
  ["strict mode", { base: "fresh", strict: true }],
  ["asked by the chain's CAIP-2 id", { base: "fresh", chain: "eip155:8453" }],
  ["strict mode, revoked", { base: "revoked", strict: true }],
  ["nothing listens", { baseUrl: "http://127.0.0.1:9" }],
  ["no base URL", { baseUrl: null }],
  ["relative base URL", { baseUrl: "/nowhere" }],
  ["base URL not http", { baseUrl: "ftp://verify.example" }],
  ["base URL with a query", { baseUrl: "https://verify.example/?a=1" }],
  ["base URL with credentials", { baseUrl: "https://user@verify.example" }],
  ["chain a number", { chain: 5 }],
  ["payTo missing", { payTo: null }],
  ["resourceUrl empty", { resourceUrl: "" }],
  ["chain with a control character", { chain: "ba\u0007se" }],
  ["payTo with a right-to-left override", { payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C\u202e" }],
  ["resourceUrl with a zero-width space", { resourceUrl: "https://api.example.com/\u200bpremium-data" }],
  ["chain of 513 bytes", { chain: "é".repeat(257) }],
  ["timeout 0", { timeoutMs: 0 }],
  ["timeout 60001", { timeoutMs: 60001 }],
  ["timeout 1.5", { timeoutMs: 1.5 }],
  ["timeout as text", { timeoutMs: "3000" }],
  ["strict as text", { strict: "yes" }],
  ["key not base64", { publicKey: "not a key!" }],
  ["key of 31 bytes", { publicKey: Buffer.alloc(31, 7).toString("base64") }],
  ["second key bad", { publicKey: [KEY, "xx"] }],
  ["key list with a number", { publicKey: [5] }],
  ["keys document without Ed25519", { publicKey: { keys: [{ algorithm: "RSA", publicKey: "x" }] } }],
  ["keys document without keys", { publicKey: {} }],
  ["key a number", { publicKey: 5 }],
  ["base URL empty", { baseUrl: "" }],
  ["timeout NaN", { timeoutMs: "@NaN" }],
  ["timeout Infinity", { timeoutMs: "@Infinity" }],
  ["timeout a BigInt", { timeoutMs: "@BigInt" }],
  ["chain a function", { chain: "@function" }],
  ["a getter that throws", { payTo: "@throws" }],
  ["every option wrong", { baseUrl: "ftp://x", chain: 5, payTo: null, timeoutMs: -1, strict: "yes", publicKey: "zz" }],
];

let service, site, browser;
before(async () => {
  service = createServer((req, res) => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    const name = decodeURIComponent(req.url.slice(1, req.url.indexOf("/v0/")));
    const answer = ANSWERS[name];
    if (typeof answer === "function") return answer(req, res, service.address().port);
    if (!answer) return res.writeHead(404).end();
    res.writeHead(answer[0], { "Content-Type": "application/json" });
    res.end(answer[1]);
  });
  await new Promise((ok) => service.listen(0, "127.0.0.1", ok));
  [site, browser] = await Promise.all([startOrigin(), launch()]);
  site.folders.set("/pkg/", PACKAGE);
  site.pages.set("/table.html", "<!doctype html><title>table</title><body></body>");
});
after(async () => {
  await browser?.close();
  service?.closeAllConnections();
  await Promise.all([site?.stop(), new Promise((done) => service ? service.close(done) : done())]);
});

test("the wasm build and the fallback agree on every case", async () => {
  const tab = await browser.newPage();
  const warnings = [];
  tab.on("console", (m) => { if (m.type() === "warning") warnings.push(m.text()); });
  await tab.goto(`${site.url}/table.html`);
  const serviceUrl = `http://127.0.0.1:${service.address().port}`;
  const cases = CASES.map(([name, { base, ...extra }]) => [name, { baseUrl: `${serviceUrl}/${encodeURIComponent(base ?? name)}`, ...ENDPOINT, ...extra }]);
  const results = await tab.evaluate(async (cases) => {
    const wasm = await import("/pkg/index.js");
    const fallback = await import("/pkg/fallback.js");
    const badge = async (api, options) => {
      const container = document.body.appendChild(document.createElement("span"));
      await api.renderBadge(container, options);
      const root = container.firstElementChild.shadowRoot;
      return [root.querySelector(".label").textContent, root.querySelector(".tip").textContent];
    };
    return Promise.all(cases.map(async ([name, options]) => {
      // Values JSON cannot carry into the page, made here.
      const made = { "@NaN": NaN, "@Infinity": Infinity, "@BigInt": 10n, "@function": () => 1 };
      for (const key of Object.keys(options)) {
        if (options[key] === null) delete options[key];
        else if (Object.hasOwn(made, options[key])) options[key] = made[options[key]];
        else if (options[key] === "@throws") Object.defineProperty(options, key, { get() { throw new Error("no"); } });
      }
      const [w, f, wb, fb] = await Promise.all([wasm.lookupVerdict(options), fallback.lookupVerdict(options), badge(wasm, options), badge(fallback, options)]);
      return { name, wasm: w, fallback: f, wasmBadge: wb, fallbackBadge: fb };
    }));
  }, cases);
  await tab.screenshot({ path: `${ROOT}test-artifacts/fallback-table.png`, fullPage: true });
  const pick = (r) => ({ state: r.state, outcome: r.outcome, freshness: r.freshness, signature: r.signature, reason: r.reason, assuranceLevel: r.assuranceLevel, verifiedAt: r.verifiedAt, recheckEveryHours: r.recheckEveryHours });
  const seen = new Set();
  for (const { name, wasm, fallback, wasmBadge, fallbackBadge } of results) {
    assert.deepEqual(pick(fallback), pick(wasm), name);
    if (wasm.reason === "invalid_input") assert.equal(fallback.detail, wasm.detail, name);
    // The hover text may carry a detail for logs (a parser's position); the words before it agree.
    const words = ([label, tip]) => [label, tip.replace(/ \(.*\)$/, "")];
    assert.deepEqual(words(fallbackBadge), words(wasmBadge), name);
    seen.add(wasm.reason ?? wasm.state);
  }
  // A value a page would show as other text than it is (Unicode format characters) is refused.
  for (const name of ["payTo with a right-to-left override", "resourceUrl with a zero-width space"]) {
    const { wasm } = results.find((r) => r.name === name);
    assert.deepEqual([wasm.reason, wasm.detail], ["invalid_input", `${name.split(" ")[0]} contains an invisible format character`], name);
  }
  // The table reaches every reason the protocol has.
  assert.deepEqual([...seen].sort(), [
    "endpoint_mismatch", "http_status", "human-backed", "invalid_input", "malformed", "network_error", "no_base_url", "no_signal",
    "not_listed", "overdue", "redirected", "revoked", "signature_required", "stale", "timeout", "too_large", "verified_in_future",
  ]);
  assert.deepEqual(warnings.filter((w) => w.startsWith("x402-verdict badge")), [], "the wasm build loaded");
  await tab.close();
});

test("with keys configured, the fallback says the signature is unverifiable, and strict mode shows unknown", async () => {
  const tab = await browser.newPage();
  await tab.goto(`${site.url}/table.html`);
  const baseUrl = `http://127.0.0.1:${service.address().port}/fresh`;
  const publicKey = KEY;
  const [plain, strict] = await tab.evaluate(async (options) => {
    const fallback = await import("/pkg/fallback.js");
    return Promise.all([fallback.lookupVerdict(options), fallback.lookupVerdict({ ...options, strict: true })]);
  }, { baseUrl, ...ENDPOINT, publicKey });
  assert.deepEqual([plain.state, plain.signature], ["human-backed", "unverifiable"]);
  assert.deepEqual([strict.state, strict.signature, strict.reason], ["unknown", "unverifiable", "signature_required"]);
  await tab.close();
});
