// Interoperability with an independent stack: the `canonicalize` npm package
// (RFC 8785, by one of the RFC's authors) and Node's own Ed25519. Documents
// signed by the reference service and by `x402-verdict sign` verify there,
// and a document canonicalized and signed there verifies with `lookup`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash, createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";
import { execFile, execFileSync } from "node:child_process";
import { createServer } from "node:http";
import canonicalize from "canonicalize";
import { BIN, ENDPOINTS, demoKeys, startDemo } from "../../scripts/demo.mjs";

const KEYS = demoKeys();
const DOMAIN = "x402-verdict/v1\n";
// The DER prefix of an Ed25519 SubjectPublicKeyInfo, before the raw 32 bytes.
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

const message = (verdict) => Buffer.from(DOMAIN + canonicalize(verdict), "utf8");
const publicKeyOf = (base64) =>
  createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(base64, "base64")]), format: "der", type: "spki" });
const verifiesInNode = (doc, base64Key) =>
  verify(null, message(doc.verdict), publicKeyOf(base64Key), Buffer.from(doc.signature, "base64"));

/** Members where canonical forms differ if anything is wrong: name order by
 * UTF-16 code units (U+FB33 after U+1F602), escapes, controls, DEL, U+2028,
 * the largest safe integers, nesting, and an empty name. */
const TRICKY = {
  "": "empty name",
  "\u{fb33}": "dalet with dagesh",
  "\u{1f602}": ["smiley", -9007199254740991, 9007199254740991, 0],
  "é": { "\u0000": "nul", "b": "tab\there, quote \" and backslash \\", "a": "\u001f\u007f\u2028</script>" },
  "Z": [true, false, null, { "nested": { "deeper": [] } }],
};

let demo;
before(async () => { demo = await startDemo({ www: false }); });
after(async () => { await demo?.stop(); });

test("every document the service signs verifies with canonicalize and Node's Ed25519", async () => {
  let checked = 0;
  for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
    const query = new URLSearchParams({ chain: endpoint.chain, payTo: endpoint.payTo, resourceUrl: endpoint.resourceUrl });
    const response = await fetch(`${demo.url}/v0/verdict?${query}`);
    if (response.status === 404) continue;
    const doc = await response.json();
    const expected = endpoint.reason !== "signature_invalid";
    assert.equal(verifiesInNode(doc, demo.publicKey), expected, name);
    checked += 1;
  }
  assert.equal(checked, Object.keys(ENDPOINTS).length - 1);
});

test("a verdict full of edge cases, signed by `x402-verdict sign`, verifies in Node", () => {
  const verdict = {
    v: 1, chain: "base", payTo: "0xabc", resourceUrl: "https://api.example.com/x?q=1&r=é",
    outcome: "no_signal", issuedAt: "2026-09-01T08:00:00Z", extra: TRICKY,
  };
  const text = execFileSync(BIN, ["sign", "--keys", KEYS, "-"], { input: JSON.stringify(verdict) }).toString().trim();
  const doc = JSON.parse(text);
  assert.deepEqual(doc.verdict.extra, TRICKY);
  assert.ok(verifiesInNode(doc, demo.publicKey));
  // The whole document is written in its canonical form.
  assert.equal(text, canonicalize(doc));
});

test("a document canonicalized and signed in Node verifies with `x402-verdict lookup`", async () => {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(SPKI_PREFIX.length);
  const keyId = createHash("sha256").update(raw).digest("hex").slice(0, 16);
  const endpoint = { chain: "base", payTo: "0x7777777777777777777777777777777777777777", resourceUrl: "https://api.example.com/node" };
  const verdict = { ...endpoint, v: 1, outcome: "no_signal", issuedAt: "2026-09-01T08:00:00Z", keyId, extra: TRICKY };
  const good = { verdict, signature: sign(null, message(verdict), privateKey).toString("base64") };
  const tampered = { ...good, verdict: { ...verdict, extra: { ...TRICKY, "": "changed" } } };

  let body = "";
  const server = createServer((_, response) => {
    response.setHeader("content-type", "application/json");
    response.end(body);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${server.address().port}`;
  const lookup = async (doc) => {
    body = JSON.stringify(doc, null, 2); // not canonical on the wire: the verifier canonicalizes
    const args = ["lookup", "--base-url", base, "--chain", endpoint.chain, "--pay-to", endpoint.payTo,
      "--resource-url", endpoint.resourceUrl, "--public-key", raw.toString("base64"), "--json"];
    const out = await new Promise((ok, fail) => execFile(BIN, args, (e, stdout) => (e ? fail(e) : ok(stdout))));
    return JSON.parse(out);
  };
  try {
    assert.equal((await lookup(good)).signature, "valid");
    assert.equal((await lookup(tampered)).signature, "invalid");
  } finally {
    server.close();
  }
});
