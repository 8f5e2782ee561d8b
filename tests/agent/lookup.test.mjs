// The x402-verdict package's lookupVerdict and endpointStatus in Node answer
// exactly what `x402-verdict lookup --json` answers, for every endpoint of
// the demo (each state) and every hostile fixture the browser tests use
// (a stall, a stalled body, a huge body, markup), and an unreachable service
// (whose detail is each fetcher's own words: Node's, reqwest's);
// and so does its JavaScript build, where the wasm cannot run (a process
// whose WebAssembly.instantiate refuses any wasm given as bytes, as a
// page's policy would; Node's own fetch instantiates its compiled module,
// which is let through, and needs WebAssembly, so `node --jitless` cannot
// fetch at all).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:net";
import { promisify } from "node:util";
import { BIN, ENDPOINTS, UNREACHABLE, startDemo } from "../../scripts/demo.mjs";
import { startFixtures } from "../support/fixtures.mjs";
import { AGENT_PACKAGE } from "../support/package.mjs";

const { endpointStatus, lookupVerdict } = await import(`${AGENT_PACKAGE}index.js`);
const TIMEOUT_MS = 1000;

let demo, fixtures;

before(async () => {
  [demo, fixtures] = await Promise.all([startDemo({ www: false }), startFixtures()]);
});

after(async () => {
  await Promise.all([demo?.stop(), fixtures?.stop()]);
});

/** `x402-verdict lookup --json` for `options`. */
const cli = ({ baseUrl, chain, payTo, resourceUrl, publicKey, strict }) => new Promise((ok, fail) => {
  const args = ["lookup", "--base-url", baseUrl, "--chain", chain, "--pay-to", payTo, "--resource-url", resourceUrl,
    "--timeout-ms", String(TIMEOUT_MS), "--json", ...(publicKey ? ["--public-key", publicKey] : []), ...(strict ? ["--strict"] : [])];
  execFile(BIN, args, (error, stdout, stderr) => (error && !stdout ? fail(new Error(stderr)) : ok(JSON.parse(stdout))));
});

/** The cases: every demo endpoint with and without the key, strict and not; each fixture; no service. */
function cases() {
  const list = [];
  for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
    const { chain, payTo, resourceUrl } = endpoint;
    list.push([`${name}, keyed, strict`, { baseUrl: demo.url, chain, payTo, resourceUrl, publicKey: demo.publicKey, strict: true }]);
    list.push([`${name}, no key`, { baseUrl: demo.url, chain, payTo, resourceUrl }]);
  }
  const { chain, payTo, resourceUrl } = ENDPOINTS.verified;
  for (const fixture of ["stall", "stall-body", "huge", "hostile", "hostile-grade"]) {
    list.push([`fixture ${fixture}`, { baseUrl: `${fixtures.url}/${fixture}`, chain, payTo, resourceUrl, publicKey: demo.publicKey }]);
  }
  list.push(["unreachable", { baseUrl: UNREACHABLE, chain, payTo, resourceUrl }]);
  return list;
}

/**
 * `got` and `expected` are one answer: the hostile fixtures stamp each answer with the second it was asked
 * (verifiedAt), so there two lookups may differ by a second, never more; and a network error's detail is
 * the fetcher's own words (Node's fetch and its cause, reqwest's error chain), which both must have.
 */
function assertSame(got, expected, name) {
  if (name.startsWith("fixture hostile") && got?.verifiedAt && expected?.verifiedAt) {
    assert.ok(Math.abs(Date.parse(got.verifiedAt) - Date.parse(expected.verifiedAt)) <= 2000, `${name}: ${got.verifiedAt} ${expected.verifiedAt}`);
    got = { ...got, verifiedAt: expected.verifiedAt };
  }
  if (expected?.reason === "network_error") {
    assert.match(got.detail, /^fetch failed: ./, name);
    assert.match(expected.detail, /^error sending request: ./, name);
    got = { ...got, detail: expected.detail };
  }
  assert.deepEqual(got, expected, name);
}

/** A loopback URL where nothing listens (a port bound, then let go). */
async function closedPort() {
  const server = createServer();
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return `http://127.0.0.1:${port}`;
}

test("lookupVerdict and endpointStatus answer as `x402-verdict lookup --json`", async () => {
  const states = new Set();
  for (const [name, options] of cases()) {
    const asked = { ...options, timeoutMs: TIMEOUT_MS };
    const [node, status, command] = await Promise.all([lookupVerdict(asked), endpointStatus(asked), cli(options)]);
    assertSame(node, command, name);
    assertSame(status, command, name);
    states.add(`${node.state} ${node.reason ?? ""}`.trim());
  }
  // Every state, and unknown for each kind of failure.
  for (const state of ["human-backed", "revoked revoked", "unknown timeout", "unknown too_large", "unknown network_error", "unknown signature_invalid"]) {
    assert.ok(states.has(state), `${state} in ${[...states]}`);
  }
});

test("a service nobody answers for: network_error, with Node's reason in the detail", async () => {
  const { chain, payTo, resourceUrl } = ENDPOINTS.verified;
  const refused = await lookupVerdict({ baseUrl: await closedPort(), chain, payTo, resourceUrl, timeoutMs: TIMEOUT_MS });
  assert.deepEqual([refused.state, refused.outcome, refused.reason], ["unknown", "no_response", "network_error"]);
  assert.match(refused.detail, /^fetch failed: .*ECONNREFUSED/);
  // Port 9 is one fetch never asks (the Fetch standard's bad ports): Node says so.
  const unreachable = await lookupVerdict({ baseUrl: UNREACHABLE, chain, payTo, resourceUrl, timeoutMs: TIMEOUT_MS });
  assert.equal(unreachable.reason, "network_error");
  assert.match(unreachable.detail, /^fetch failed: \S/);
});

test("where the wasm cannot run, the JavaScript build answers the same", async () => {
  const list = cases().filter(([name]) => !name.startsWith("fixture stall"));
  // Compiling wasm is refused while the package loads (as a page's policy
  // refuses it); Node's own fetch compiles its HTTP parser later.
  const code = `const { compile, instantiate } = WebAssembly;
    let refused = 0, loading = true;
    const refuse = () => (refused++, Promise.reject(new Error("refused")));
    WebAssembly.compile = (bytes) => (loading ? refuse() : compile(bytes));
    WebAssembly.instantiate = (source, imports) =>
      !loading || source instanceof WebAssembly.Module ? instantiate(source, imports) : refuse();
    const { lookupVerdict } = await import(${JSON.stringify(`${AGENT_PACKAGE}index.js`)});
    loading = false;
    const cases = ${JSON.stringify(list.map(([, options]) => ({ ...options, timeoutMs: TIMEOUT_MS })))};
    console.log(JSON.stringify({ refused, results: await Promise.all(cases.map(lookupVerdict)) }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", code], { timeout: 60_000 });
  const { refused, results } = JSON.parse(stdout);
  assert.equal(refused, 1, "the package's wasm was refused once, and the JavaScript build ran");
  for (const [i, [name, options]] of list.entries()) assertSame(results[i], await cli(options), name);
});
