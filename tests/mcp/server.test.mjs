// The MCP server driven by the official TypeScript SDK (Client over
// StdioClientTransport), against the real reference service, plus raw
// JSON-RPC lines for what an SDK client never sends.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv from "ajv";
import { BIN, ENDPOINTS, startDemo, UNREACHABLE } from "../../scripts/demo.mjs";
import { startFixtures } from "../support/fixtures.mjs";
import { META_2026, pinRevision } from "../support/mcp.mjs";

// Started once at load: node:test may run a suite's hooks before file-level ones.
const demoStarted = startDemo({ www: false });
let demo;
after(async () => { await (await demoStarted).stop(); });

const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VERIFICATION_")));

async function connect(env = {}) {
  const transport = pinRevision(new StdioClientTransport({ command: BIN, args: ["mcp"], env: { ...cleanEnv(), RUST_LOG: "error", ...env }, stderr: "pipe" }), "2025-06-18");
  const client = new Client({ name: "x402-verdict-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const argsFor = (name) => {
  const { chain, payTo, resourceUrl } = ENDPOINTS[name];
  return { chain, payTo, resourceUrl };
};

describe("MCP server (official TypeScript SDK)", () => {
  let client, validate;
  before(async () => {
    demo = await demoStarted;
    client = await connect({ VERIFICATION_BASE_URL: demo.url, VERIFICATION_PUBLIC_KEY: demo.publicKey, VERIFICATION_TIMEOUT_MS: "2000" });
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["lookup_verdict", "endpoint_status", "check_payment_required"]);
    validate = new Ajv({ strict: false }).compile(tools[0].outputSchema);
  });
  after(async () => { await client?.close(); });

  test("tools declare inputs, outputs and annotations", async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const whole = tool.name === "check_payment_required";
      assert.deepEqual(tool.inputSchema.required, whole ? ["paymentRequired"] : ["chain", "payTo", "resourceUrl"]);
      assert.equal(tool.inputSchema.additionalProperties, false);
      assert.equal(tool.outputSchema.type, "object");
      const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint, title } = tool.annotations;
      assert.deepEqual([readOnlyHint, destructiveHint, idempotentHint, openWorldHint], [true, false, true, true]);
      assert.ok(title && tool.title && tool.description.length > 100);
    }
    assert.equal(client.getServerVersion().name, "x402-verdict");
  });

  test("every outcome, both tools, structuredContent valid against outputSchema", async () => {
    for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
      const full = await client.callTool({ name: "lookup_verdict", arguments: argsFor(name) });
      assert.equal(full.isError, false, name);
      assert.ok(validate(full.structuredContent), `${name}: ${JSON.stringify(validate.errors)}`);
      assert.equal(full.structuredContent.state, endpoint.state, name);
      if (endpoint.reason) assert.equal(full.structuredContent.reason, endpoint.reason, name);
      assert.match(full.content[0].text, new RegExp(`^Verification: ${endpoint.state}; outcome \\w+; freshness \\w+; assurance [A-Z0-9+-]+|none; last re-checked \\S+; signature \\w+`), name);
      const short = await client.callTool({ name: "endpoint_status", arguments: argsFor(name) });
      assert.equal(short.content[0].text, `Verification signal: ${endpoint.state}.`);
      assert.deepEqual(short.structuredContent, full.structuredContent, name);
    }
    const good = await client.callTool({ name: "lookup_verdict", arguments: argsFor("verified") });
    assert.match(good.content[0].text, /^Verification: human-backed; outcome human_backed; freshness fresh; assurance G; last re-checked \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ; signature valid\.$/);
  });

  test("missing and extra arguments are the only error results", async () => {
    const missing = await client.callTool({ name: "lookup_verdict", arguments: { payTo: "0x1" } });
    assert.equal(missing.isError, true);
    assert.equal(missing.content[0].text, "Invalid arguments: missing argument chain; missing argument resourceUrl.");
    const extra = await client.callTool({ name: "endpoint_status", arguments: { ...argsFor("verified"), network: "x", amount: 1 } });
    assert.equal(extra.isError, true);
    assert.equal(extra.content[0].text, "Invalid arguments: unexpected argument amount; unexpected argument network.");
    const wrongType = await client.callTool({ name: "lookup_verdict", arguments: { ...argsFor("verified"), chain: 8453 } });
    assert.equal(wrongType.content[0].text, "Invalid arguments: argument chain must be a string.");
  });

  test("20 concurrent calls", async () => {
    const names = Object.keys(ENDPOINTS);
    const calls = Array.from({ length: 20 }, (_, i) => client.callTool({ name: i % 2 ? "endpoint_status" : "lookup_verdict", arguments: argsFor(names[i % names.length]) }));
    const results = await Promise.all(calls);
    results.forEach((r, i) => assert.equal(r.structuredContent.state, ENDPOINTS[names[i % names.length]].state, `call ${i}`));
  });
});

describe("MCP server configuration", () => {
  test("unset: every lookup is unknown (no_service), the server still answers", async () => {
    const client = await connect();
    const r = await client.callTool({ name: "lookup_verdict", arguments: argsFor("verified") });
    assert.equal(r.isError, false);
    assert.deepEqual([r.structuredContent.state, r.structuredContent.outcome], ["unknown", "no_service"]);
    assert.equal(r.content[0].text, "Verification: unknown; outcome no_service; freshness unknown; assurance none; last re-checked never; signature not_checked; reason no_base_url.");
    await client.close();
  });

  test("an unreachable service and a timeout are unknown, not errors", async () => {
    const client = await connect({ VERIFICATION_BASE_URL: UNREACHABLE, VERIFICATION_TIMEOUT_MS: "500" });
    const r = await client.callTool({ name: "endpoint_status", arguments: argsFor("verified") });
    assert.equal(r.isError, false);
    assert.equal(r.content[0].text, "Verification signal: unknown.");
    assert.equal(r.structuredContent.outcome, "no_response");
    await client.close();
    const fixtures = await startFixtures();
    const stalled = await connect({ VERIFICATION_BASE_URL: `${fixtures.url}/stall`, VERIFICATION_TIMEOUT_MS: "500" });
    const started = Date.now();
    const t = await stalled.callTool({ name: "lookup_verdict", arguments: argsFor("verified") });
    const elapsed = Date.now() - started;
    assert.deepEqual([t.isError, t.structuredContent.state, t.structuredContent.reason], [false, "unknown", "timeout"]);
    assert.ok(elapsed >= 450 && elapsed < 1500, `answered after ${elapsed} ms`);
    await stalled.close();
    await fixtures.stop();
  });

  test("a malformed variable stops the server with one line naming it", () => {
    for (const [name, value] of [["VERIFICATION_BASE_URL", "verify.example"], ["VERIFICATION_PUBLIC_KEY", "x,y"], ["VERIFICATION_TIMEOUT_MS", "99999999"], ["VERIFICATION_STRICT", "on"]]) {
      const run = spawnSync(BIN, ["mcp"], { env: { ...cleanEnv(), [name]: value }, input: "", encoding: "utf8" });
      assert.equal(run.status, 2, name);
      assert.equal(run.stdout, "", name);
      const lines = run.stderr.trim().split("\n");
      assert.equal(lines.length, 1, run.stderr);
      assert.ok(lines[0].startsWith(`x402-verdict: ${name}`), lines[0]);
    }
  });
});

/** The server as a raw process: send lines, read replies by id. */
function rawServer(env = {}) {
  const child = spawn(BIN, ["mcp"], { env: { ...cleanEnv(), RUST_LOG: "error", ...env }, stdio: ["pipe", "pipe", "pipe"] });
  const replies = [];
  let wake = () => {};
  createInterface({ input: child.stdout }).on("line", (line) => { replies.push(JSON.parse(line)); wake(); });
  const send = (message) => child.stdin.write((typeof message === "string" ? message : JSON.stringify(message)) + "\n");
  const reply = async (match) => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = replies.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no reply; got ${JSON.stringify(replies)}`);
      await new Promise((r) => { wake = r; setTimeout(r, 100); });
    }
  };
  const exit = () => new Promise((done) => (child.exitCode !== null ? done(child.exitCode) : child.once("exit", done)));
  return { child, send, reply, exit, replies };
}

const initialize = (id, protocolVersion) => ({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } } });

describe("MCP server protocol (raw JSON-RPC)", () => {
  test("revision negotiation: every initialize revision echoed, others answered with 2025-11-25", async () => {
    for (const [asked, expected] of [["2024-11-05", "2024-11-05"], ["2025-03-26", "2025-03-26"], ["2025-06-18", "2025-06-18"], ["2025-11-25", "2025-11-25"], ["2026-07-28", "2025-11-25"], ["1999-01-01", "2025-11-25"]]) {
      const s = rawServer();
      s.send(initialize(1, asked));
      const r = await s.reply((m) => m.id === 1);
      assert.equal(r.result.protocolVersion, expected, asked);
      s.child.stdin.end();
      assert.equal(await s.exit(), 0);
    }
  });

  test("a probe before initialize, unknown methods and malformed JSON get prompt errors; EOF ends cleanly", async () => {
    const s = rawServer();
    s.send({ jsonrpc: "2.0", id: "probe", method: "server/discover", params: {} });
    const probe = await s.reply((m) => m.id === "probe");
    assert.ok(probe.error && typeof probe.error.code === "number", JSON.stringify(probe));
    s.send(initialize(1, "2025-06-18"));
    await s.reply((m) => m.id === 1);
    s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    s.send("{ this is not json");
    const parse = await s.reply((m) => m.error?.code === -32700);
    assert.equal(parse.id, null);
    s.send({ jsonrpc: "2.0", id: 2, method: "resources/list" });
    assert.equal((await s.reply((m) => m.id === 2)).error.code, -32601);
    s.send({ jsonrpc: "2.0", id: 5, method: "tools/call" });
    assert.equal((await s.reply((m) => m.id === 5)).error.code, -32602);
    s.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    assert.deepEqual((await s.reply((m) => m.id === 3)).result, {});
    s.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "endpoint_status", arguments: argsFor("verified") } });
    assert.equal((await s.reply((m) => m.id === 4)).result.content[0].text, "Verification signal: unknown.");
    s.child.stdin.end();
    assert.equal(await s.exit(), 0);
    for (const m of s.replies) assert.equal(m.jsonrpc, "2.0", "stdout carries only JSON-RPC messages");
  });

  test("2026-07-28 on stdio: no initialize, every request carries _meta; both tools answer as in 2025-06-18", async () => {
    const s = rawServer({ VERIFICATION_BASE_URL: demo.url, VERIFICATION_PUBLIC_KEY: demo.publicKey });
    const call = (id, method, params = {}) => s.send({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META_2026 } });
    call("d", "server/discover");
    const discover = await s.reply((m) => m.id === "d");
    assert.ok(discover.result.supportedVersions.includes("2026-07-28"), JSON.stringify(discover));
    call(1, "tools/list");
    const list = (await s.reply((m) => m.id === 1)).result;
    assert.equal(list.resultType, "complete");
    const validate = new Ajv({ strict: false }).compile(list.tools[0].outputSchema);
    for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
      call(`${name}-full`, "tools/call", { name: "lookup_verdict", arguments: argsFor(name) });
      const full = (await s.reply((m) => m.id === `${name}-full`)).result;
      assert.equal(full.resultType, "complete", name);
      assert.ok(validate(full.structuredContent), `${name}: ${JSON.stringify(validate.errors)}`);
      assert.equal(full.structuredContent.state, endpoint.state, name);
      call(`${name}-short`, "tools/call", { name: "endpoint_status", arguments: argsFor(name) });
      const short = (await s.reply((m) => m.id === `${name}-short`)).result;
      assert.equal(short.content[0].text, `Verification signal: ${endpoint.state}.`);
    }
    s.send({ jsonrpc: "2.0", id: 9, method: "tools/list" });
    assert.equal((await s.reply((m) => m.id === 9)).error.code, -32602, "a request without _meta is refused");
    s.child.stdin.end();
    assert.equal(await s.exit(), 0);
  });
});
