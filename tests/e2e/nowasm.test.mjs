// One table of cases run in each engine (Chromium, Firefox, WebKit:
// tests/support/browser.mjs) through the package as it loads where
// WebAssembly runs (the wasm), in a page without a WebAssembly global (as
// with WebAssembly disabled, iOS Lockdown Mode), and in a page whose
// Content-Security-Policy lacks 'wasm-unsafe-eval': the last two run the
// JavaScript build (the same Rust, translated by wasm2js). For every case all
// three must give the same structured result, field for field (signature
// and detail included), and draw the same label and hover text. Then the 151
// Wycheproof Ed25519 cases, through each build.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import canonicalize from "canonicalize";
import { ENGINES, launch } from "../support/browser.mjs";
import { fetched, runModule, seen as probed, startOrigin } from "../support/origin.mjs";
import { JS_TEST_BUILD, PACKAGE } from "../support/package.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const pair = () => {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  return { privateKey, key: raw.toString("base64"), keyId: createHash("sha256").update(raw).digest("hex").slice(0, 16) };
};
/** The service's signing key, and another one. */
const SIGNER = pair();
const OTHER = pair();
const KEY = SIGNER.key;
const ENDPOINT = { chain: "base", payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", resourceUrl: "https://api.example.com/premium-data" };
const at = (seconds) => new Date(Math.floor(Date.now() / 1000 + seconds) * 1000).toISOString().replace(/\.\d+Z$/, "Z");
const verdict = (over = {}) => ({
  v: 1, ...ENDPOINT, outcome: "human_backed", assuranceLevel: "G", verifiedAt: at(-3600), recheckEveryHours: 24,
  issuedAt: at(0), keyId: "0123456789abcdef", operator: "Example Co", ...over,
});
const doc = (over) => JSON.stringify({ verdict: verdict(over), signature: null });
/** A document signed by SIGNER (protocol: Ed25519 over the domain and the JCS of the verdict). */
const signed = (over = {}, by = SIGNER) => {
  const v = verdict({ keyId: SIGNER.keyId, ...over });
  const message = Buffer.from(`x402-verdict/v1\n${canonicalize(v)}`, "utf8");
  return { verdict: v, signature: sign(null, message, by.privateKey).toString("base64") };
};
/** Signed, then one field changed. */
const tampered = () => {
  const document = signed();
  document.verdict.assuranceLevel = "A";
  return JSON.stringify(document);
};
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
  "signed": [200, JSON.stringify(signed())],
  "tampered": [200, tampered()],
  "signed by another key": [200, JSON.stringify(signed({}, OTHER))],
  "signed revoked, tampered": [200, JSON.stringify({ ...signed({ outcome: "revoked" }), signature: signed().signature })],
  "signature not base64": [200, JSON.stringify({ ...signed(), signature: "!!" })],
  "signature of 63 bytes": [200, JSON.stringify({ ...signed(), signature: Buffer.alloc(63, 1).toString("base64") })],
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
const SIGNED = ["signed", "tampered", "signed by another key", "signed revoked, tampered", "signature not base64", "signature of 63 bytes"];
const CASES = [
  ...Object.keys(ANSWERS).map((name) => [name, name === "stalls" ? { timeoutMs: 300 } : SIGNED.includes(name) ? { publicKey: KEY } : {}]),
  ["signed, strict", { base: "signed", publicKey: KEY, strict: true }],
  ["tampered, strict", { base: "tampered", publicKey: KEY, strict: true }],
  ["signed, another key configured", { base: "signed", publicKey: OTHER.key }],
  ["signed, a keys document", { base: "signed", publicKey: { keys: [{ algorithm: "Ed25519", publicKey: KEY }] } }],
  ["fresh, a key configured", { base: "fresh", publicKey: KEY }],
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
  ["key of small order", { publicKey: Buffer.alloc(32).toString("base64") }],
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

let service, site, strictSite;
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
  [site, strictSite] = await Promise.all([startOrigin(), startOrigin()]);
  for (const origin of [site, strictSite]) {
    origin.folders.set("/pkg/", PACKAGE);
    origin.folders.set("/js-test/", JS_TEST_BUILD);
    origin.pages.set("/table.html", "<!doctype html><title>table</title><body></body>");
  }
  // Scripts from the site itself; requests to the service (also as
  // localhost, where one case redirects) and to the nowhere of the "nothing
  // listens" case; no 'wasm-unsafe-eval'.
  const port = service.address().port;
  strictSite.csp = `script-src 'self'; connect-src 'self' http://127.0.0.1:${port} http://localhost:${port} http://127.0.0.1:9`;
});
after(async () => {
  service?.closeAllConnections();
  await Promise.all([site?.stop(), strictSite?.stop(), new Promise((done) => service ? service.close(done) : done())]);
});

/** The three ways the package runs: the wasm, no WebAssembly at all, and a policy that forbids compiling it. */
const WAYS = {
  wasm: { origin: () => site },
  "no WebAssembly": { origin: () => site, init: () => { delete globalThis.WebAssembly; } },
  "CSP without wasm-unsafe-eval": { origin: () => strictSite },
};

for (const engine of ENGINES) describe(engine, () => {
let browser;
before(async () => { browser = await launch(engine); });
after(() => browser?.close());

/** Opens the table page the given way; resolves to the tab, and a reader of the package's warnings and the package files the page fetched. */
async function open(way) {
  const origin = WAYS[way].origin();
  origin.init = WAYS[way].init ? [[WAYS[way].init]] : [];
  const tab = await browser.newPage();
  await tab.goto(`${origin.url}/table.html`);
  // The package's own warnings about loading (renderBadge also warns about bad options).
  const seen = async () => ({
    warnings: (await probed(tab)).warnings.filter((w) => w.startsWith("x402-verdict badge:")),
    files: (await fetched(tab, "/pkg/")).map((url) => url.slice(url.lastIndexOf("/") + 1)),
  });
  return { tab, origin, seen };
}

/** Every case of the table through the package in `tab`: the structured result, and the badge's label and hover text. */
function runTable({ tab, origin }, cases) {
  return runModule(tab, origin, async (cases) => {
    const api = await import("/pkg/index.js");
    const badge = async (options) => {
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
      const [result, drawn] = await Promise.all([api.lookupVerdict(options), badge(options)]);
      return { name, result, drawn };
    }));
  }, cases);
}

test("the wasm, a page without WebAssembly and a page whose CSP forbids it agree on every case, signatures included", async () => {
  const serviceUrl = `http://127.0.0.1:${service.address().port}`;
  const cases = CASES.map(([name, { base, ...extra }]) => [name, { baseUrl: `${serviceUrl}/${encodeURIComponent(base ?? name)}`, ...ENDPOINT, ...extra }]);
  const runs = {};
  for (const way of Object.keys(WAYS)) {
    const opened = await open(way);
    const results = await runTable(opened, cases);
    runs[way] = { results, seen: await opened.seen() };
    await opened.tab.screenshot({ path: `${ROOT}test-artifacts/nowasm-${engine}-table-${way.split(" ")[0].toLowerCase()}.png`, fullPage: true });
    await opened.tab.close();
  }
  const { wasm, ...others } = runs;
  for (const [way, run] of Object.entries(others)) {
    for (const [i, { name, result, drawn }] of run.results.entries()) {
      assert.deepEqual(result, wasm.results[i].result, `${way}: ${name}`);
      assert.deepEqual(drawn, wasm.results[i].drawn, `${way}: ${name}`);
    }
    assert.ok(run.seen.files.includes("x402_verdict_badge_js.js"), `${way}: the JavaScript build ran`);
    assert.equal(run.seen.warnings.length, 1, `${way}: ${run.seen.warnings}`);
  }
  assert.match(others["no WebAssembly"].seen.warnings[0], /WebAssembly is unavailable/);
  assert.match(others["CSP without wasm-unsafe-eval"].seen.warnings[0], /add 'wasm-unsafe-eval' to script-src/);
  assert.ok(!wasm.seen.files.includes("x402_verdict_badge_js.js"), "where the wasm runs, the JavaScript build is never fetched");
  assert.ok(!wasm.seen.files.includes("explain.js"), "where the wasm runs, why it would not is never fetched");
  for (const [way, run] of Object.entries(others)) assert.ok(run.seen.files.includes("explain.js"), `${way}: explain.js said why`);
  assert.deepEqual(wasm.seen.warnings, []);
  // The signatures, as the protocol says (the same in every way, as checked above).
  const by = Object.fromEntries(wasm.results.map(({ name, result }) => [name, result]));
  const pick = (r) => [r.state, r.signature, r.reason];
  assert.deepEqual(pick(by.signed), ["human-backed", "valid", undefined]);
  assert.deepEqual(pick(by["signed, strict"]), ["human-backed", "valid", undefined]);
  assert.deepEqual(pick(by["signed, a keys document"]), ["human-backed", "valid", undefined]);
  assert.deepEqual(pick(by.tampered), ["unknown", "invalid", "signature_invalid"]);
  assert.deepEqual(pick(by["tampered, strict"]), ["unknown", "invalid", "signature_invalid"]);
  assert.deepEqual(pick(by["signed by another key"]), ["unknown", "invalid", "signature_invalid"]);
  assert.deepEqual(pick(by["signed revoked, tampered"]), ["revoked", "invalid", "revoked"]);
  assert.deepEqual(pick(by["signature not base64"]), ["unknown", "invalid", "signature_invalid"]);
  assert.deepEqual(pick(by["signature of 63 bytes"]), ["unknown", "invalid", "signature_invalid"]);
  assert.deepEqual(pick(by["signed, another key configured"]), ["human-backed", "unverifiable", undefined]);
  assert.equal(by["key of small order"].reason, "invalid_input");
  // No answer: the detail is the browser's own words (each engine has its own), and the hover text ends with them.
  const down = wasm.results.find(({ name }) => name === "nothing listens");
  assert.deepEqual([down.result.reason, typeof down.result.detail], ["network_error", "string"]);
  assert.ok(down.result.detail.length > 0 && down.drawn[1].endsWith(` (${down.result.detail})`), JSON.stringify(down));
  // The table reaches every reason the protocol has.
  assert.deepEqual([...new Set(wasm.results.map(({ result }) => result.reason ?? result.state))].sort(), [
    "endpoint_mismatch", "http_status", "human-backed", "invalid_input", "malformed", "network_error", "no_base_url", "no_signal",
    "not_listed", "overdue", "redirected", "revoked", "signature_invalid", "signature_required", "stale", "timeout", "too_large", "verified_in_future",
  ]);
});

test("the 151 Wycheproof Ed25519 cases through the JavaScript build, in a page without WebAssembly", async (t) => {
  const suite = JSON.parse(readFileSync(`${ROOT}crates/core/tests/vectors/ed25519/wycheproof_ed25519_test.json`, "utf8"));
  const b64 = (hex) => Buffer.from(hex, "hex").toString("base64");
  const cases = suite.testGroups.flatMap((group) => group.tests.map((c) => ({
    id: c.tcId, key: b64(group.publicKey.pk), message: b64(c.msg), signature: b64(c.sig), valid: c.result === "valid",
  })));
  assert.equal(cases.length, 151);
  const { tab, origin, seen } = await open("no WebAssembly");
  const { verdicts, msPerCheck } = await runModule(tab, origin, async (cases) => {
    // The package's JavaScript build exports no test hook: the same code,
    // built for the tests with the signature check exported (scripts/build.sh --tests).
    const shipped = await import("/pkg/x402_verdict_badge_js.js");
    if ("verifyEd25519" in shipped) throw new Error("the package's JavaScript build exports verifyEd25519");
    const build = await import("/js-test/x402_verdict_badge.js");
    build.initJs();
    const verdicts = cases.map((c) => build.verifyEd25519(c.key, c.message, c.signature));
    const valid = cases.filter((c) => c.valid);
    const start = performance.now();
    for (const c of valid) build.verifyEd25519(c.key, c.message, c.signature);
    return { verdicts, msPerCheck: (performance.now() - start) / valid.length };
  }, cases);
  const { files } = await seen();
  await tab.close();
  for (const [i, c] of cases.entries()) assert.equal(verdicts[i], c.valid, `tcId ${c.id}: ${c.valid ? "valid" : "invalid"}`);
  assert.ok(!files.some((f) => /^x402_verdict_(badge|embed)_bg\.wasm$/.test(f)), "nothing fetched a badge's wasm");
  t.diagnostic(`${engine}, without WebAssembly: ${msPerCheck.toFixed(2)} ms per valid signature check (Wycheproof messages)`);
});
});
