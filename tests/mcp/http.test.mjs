// The MCP server over Streamable HTTP (`mcp --listen`), driven by the
// official TypeScript SDK in a 2025-06-18 session and by raw JSON-RPC in the
// revisions the SDK lacks (2026-07-28) or never sends (2025-03-26 batches),
// against the real reference service; plus its transport security.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { connect as tcp } from "node:net";
import { once } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Ajv from "ajv";
import { BIN, ENDPOINTS, startDemo } from "../../scripts/demo.mjs";
import { cleanEnv, listen, META_2026, pinRevision, startSilentService } from "../support/mcp.mjs";

const demoStarted = startDemo({ www: false });
after(async () => { await (await demoStarted).stop(); });

const argsFor = (name) => {
  const { chain, payTo, resourceUrl } = ENDPOINTS[name];
  return { chain, payTo, resourceUrl };
};

const ACCEPT = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

/** POSTs `body` (JSON) to `url`; resolves to { status, headers, json, text }. */
async function post(url, body, headers = {}, signal) {
  const response = await fetch(url, { method: "POST", headers: { ...ACCEPT, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body), signal });
  const text = await response.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: response.status, headers: response.headers, json, text };
}

/** A 2026-07-28 request: `_meta` in the body, the revision and method in headers. */
const modern = (url, id, method, params = {}, headers = {}, signal) =>
  post(url, { jsonrpc: "2.0", id, method, params: { ...params, _meta: META_2026 } }, { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, ...(params.name ? { "Mcp-Name": params.name } : {}), ...headers }, signal);

describe("MCP over Streamable HTTP", () => {
  let demo, server, validate;
  before(async () => {
    demo = await demoStarted;
    server = await listen({ VERIFICATION_BASE_URL: demo.url, VERIFICATION_PUBLIC_KEY: demo.publicKey, VERIFICATION_TIMEOUT_MS: "2000" });
  });
  after(async () => { assert.equal(await server?.stop(), 0, "SIGTERM ends the server cleanly"); });

  test("the official SDK in a 2025-06-18 session: both tools, every outcome, valid against outputSchema, no session", async () => {
    const transport = pinRevision(new StreamableHTTPClientTransport(new URL(server.url)), "2025-06-18");
    const client = new Client({ name: "x402-verdict-test", version: "1.0.0" });
    await client.connect(transport);
    assert.equal(transport.sessionId, undefined, "stateless: no Mcp-Session-Id");
    assert.equal(transport.protocolVersion, "2025-06-18");
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["lookup_verdict", "endpoint_status", "check_payment_required"]);
    validate = new Ajv({ strict: false }).compile(tools[0].outputSchema);
    for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
      for (const tool of ["lookup_verdict", "endpoint_status"]) {
        const r = await client.callTool({ name: tool, arguments: argsFor(name) });
        assert.equal(r.isError, false, `${tool} ${name}`);
        assert.ok(validate(r.structuredContent), `${tool} ${name}: ${JSON.stringify(validate.errors)}`);
        assert.equal(r.structuredContent.state, endpoint.state, `${tool} ${name}`);
      }
    }
    const results = await Promise.all(Array.from({ length: 10 }, () => client.callTool({ name: "endpoint_status", arguments: argsFor("verified") })));
    for (const r of results) assert.equal(r.content[0].text, "Verification signal: human-backed.");
    await client.close();
  });

  test("2026-07-28 (raw JSON-RPC, no initialize): discover, cached tool list, both tools as in 2025-06-18", async () => {
    const discover = await modern(server.url, 1, "server/discover");
    assert.equal(discover.status, 200, discover.text);
    assert.deepEqual(discover.json.result.supportedVersions, ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]);
    assert.equal(discover.json.result.resultType, "complete");
    const list = await modern(server.url, 2, "tools/list");
    assert.equal(list.json.result.resultType, "complete");
    assert.equal(list.json.result.cacheScope, "public");
    assert.ok(list.json.result.ttlMs > 0, JSON.stringify(list.json.result.ttlMs));
    const schema = new Ajv({ strict: false }).compile(list.json.result.tools[0].outputSchema);
    const legacy = await post(server.url, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "lookup_verdict", arguments: argsFor("verified") } }, { "MCP-Protocol-Version": "2025-06-18" });
    const call = await modern(server.url, 3, "tools/call", { name: "lookup_verdict", arguments: argsFor("verified") });
    assert.equal(call.status, 200, call.text);
    assert.equal(call.json.result.resultType, "complete");
    assert.ok(schema(call.json.result.structuredContent), JSON.stringify(schema.errors));
    const { resultType, ...rest } = call.json.result;
    assert.deepEqual(rest, legacy.json.result, "the same answer in both revisions");
    assert.equal(legacy.json.result.resultType, undefined, "no resultType before 2026-07-28");
    const noHeader = await post(server.url, { jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: META_2026 } }, { "MCP-Protocol-Version": "2026-07-28" });
    assert.equal(noHeader.status, 400);
    assert.equal(noHeader.json.error.code, -32020, "Mcp-Method is required in 2026-07-28");
    const ping = await modern(server.url, 5, "ping");
    assert.equal(ping.json.error.code, -32601, "2026-07-28 has no ping");
  });

  test("a batch in a 2025-03-26 request is answered as one array; other revisions refuse it", async () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "endpoint_status", arguments: argsFor("revoked") } },
      { jsonrpc: "2.0", id: 3, method: "resources/list" },
    ];
    for (const headers of [{}, { "MCP-Protocol-Version": "2025-03-26" }]) {
      const r = await post(server.url, batch, headers);
      assert.equal(r.status, 200, r.text);
      assert.ok(Array.isArray(r.json), r.text);
      const byId = Object.fromEntries(r.json.map((m) => [m.id, m]));
      assert.deepEqual(Object.keys(byId).sort(), ["1", "2", "3"]);
      assert.deepEqual(byId[1].result, {});
      assert.equal(byId[2].result.content[0].text, "Verification signal: revoked.");
      assert.equal(byId[3].error.code, -32601);
    }
    const notifications = await post(server.url, [{ jsonrpc: "2.0", method: "notifications/initialized" }]);
    assert.equal(notifications.status, 202, "a batch of notifications has no answer");
    const refused = await post(server.url, batch, { "MCP-Protocol-Version": "2025-06-18" });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.json.error.code, -32600);
    assert.match(refused.json.error.message, /2025-03-26/);
  });

  test("a notification before any request is accepted, and the next request is answered", async () => {
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } };
    const early = await post(server.url, cancel, { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "notifications/cancelled" });
    assert.equal(early.status, 202, early.text);
    assert.equal(early.text, "");
    const legacy = await post(server.url, cancel);
    assert.equal(legacy.status, 202, legacy.text);
    const call = await modern(server.url, 1, "tools/call", { name: "endpoint_status", arguments: argsFor("verified") });
    assert.equal(call.json.result.content[0].text, "Verification signal: human-backed.");
  });

  test("a mismatched Mcp-Method, Mcp-Name or MCP-Protocol-Version is 400 with a JSON-RPC error", async () => {
    const call = { name: "lookup_verdict", arguments: argsFor("verified") };
    for (const [headers, code, message] of [
      [{ "Mcp-Method": "tools/list" }, -32020, /Mcp-Method/i],
      [{ "Mcp-Name": "endpoint_status" }, -32020, /Mcp-Name/i],
      [{ "MCP-Protocol-Version": "2025-11-25" }, -32020, /does not match/],
    ]) {
      const r = await modern(server.url, 7, "tools/call", call, headers);
      assert.equal(r.status, 400, r.text);
      assert.match(r.headers.get("content-type"), /^application\/json/);
      assert.equal(r.json.jsonrpc, "2.0", r.text);
      assert.equal(r.json.id, 7, r.text);
      assert.equal(r.json.error.code, code, r.text);
      assert.match(r.json.error.message, message, r.text);
    }
    const unknown = await post(server.url, { jsonrpc: "2.0", id: 8, method: "ping" }, { "MCP-Protocol-Version": "1999-01-01" });
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.json?.error?.code, -32600, unknown.text);
    assert.match(unknown.json.error.message, /Unsupported MCP-Protocol-Version: 1999-01-01/);
    assert.equal((await modern(server.url, 9, "tools/call", call)).status, 200, "the server goes on");
  });

  test("GET and DELETE /mcp are 405 (no stream offered); /healthz answers", async () => {
    for (const method of ["GET", "DELETE"]) {
      const r = await fetch(server.url, { method, headers: { Accept: "text/event-stream" } });
      assert.equal(r.status, 405, method);
    }
    const health = await fetch(`${server.base}/healthz`);
    assert.equal(health.status, 200);
    assert.equal(await health.text(), "ok\n");
  });

  test("DNS rebinding: a foreign Host or Origin is 403; a loopback Origin is served", async () => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const evilOrigin = await post(server.url, ping, { Origin: "http://evil.example" });
    assert.equal(evilOrigin.status, 403);
    assert.equal(evilOrigin.json?.error?.code, -32600, evilOrigin.text);
    const evilBatch = await post(server.url, [ping], { Origin: "http://evil.example" });
    assert.equal(evilBatch.status, 403, "a batch is checked as any request");
    const port = new URL(server.url).port;
    const local = await post(server.url, ping, { Origin: `http://localhost:${port}` });
    assert.equal(local.status, 200, local.text);
    // fetch cannot forge Host: send the request by hand.
    const socket = tcp(Number(port), "127.0.0.1");
    await once(socket, "connect");
    const body = JSON.stringify(ping);
    socket.end(`POST /mcp HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    let reply = "";
    for await (const chunk of socket) reply += chunk;
    assert.match(reply, /^HTTP\/1\.1 403 /);
  });

  test("a body over 4 MiB is 413", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(4 << 20) } });
    const r = await post(server.url, big);
    assert.equal(r.status, 413);
    assert.match(r.json?.error?.message, /exceeds/, r.text);
    assert.equal((await post(server.url, { jsonrpc: "2.0", id: 2, method: "ping" })).status, 200, "the server goes on");
  });
});

describe("MCP over Streamable HTTP: cancellation, limits, options", () => {
  test("closing the stream cancels the request: the lookup is abandoned", async () => {
    const silent = await startSilentService();
    const server = await listen({ VERIFICATION_BASE_URL: silent.url, VERIFICATION_TIMEOUT_MS: "30000" });
    const abort = new AbortController();
    const pending = modern(server.url, 1, "tools/call", { name: "lookup_verdict", arguments: argsFor("verified") }, {}, abort.signal).catch((e) => e);
    await silent.until("the lookup to reach the service", (c) => c.opened === 1);
    abort.abort();
    assert.equal((await pending).name, "AbortError");
    await silent.until("the abandoned lookup's connection to close", (c) => c.closed === 1);
    await server.stop();
    await silent.stop();
  });

  test("closing the stream of a 2025-03-26 batch cancels the request inside it: the lookup is abandoned", async () => {
    const silent = await startSilentService();
    const server = await listen({ VERIFICATION_BASE_URL: silent.url, VERIFICATION_TIMEOUT_MS: "30000" });
    const abort = new AbortController();
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "lookup_verdict", arguments: argsFor("verified") } },
    ];
    const pending = post(server.url, batch, { "MCP-Protocol-Version": "2025-03-26" }, abort.signal).catch((e) => e);
    await silent.until("the lookup to reach the service", (c) => c.opened === 1);
    abort.abort();
    assert.equal((await pending).name, "AbortError");
    await silent.until("the abandoned lookup's connection to close", (c) => c.closed === 1);
    const after = await post(server.url, [batch[0]], { "MCP-Protocol-Version": "2025-03-26" });
    assert.deepEqual(after.json, [{ jsonrpc: "2.0", id: 1, result: {} }], "the server goes on");
    await server.stop();
    await silent.stop();
  });

  test("a client slow to send its request head is closed (--header-timeout-ms)", async () => {
    const server = await listen({}, ["--header-timeout-ms", "300"]);
    const socket = tcp(Number(new URL(server.url).port), "127.0.0.1");
    await once(socket, "connect");
    socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    const started = Date.now();
    await once(socket, "close");
    assert.ok(Date.now() - started < 15000, "closed by the server");
    await server.stop();
  });

  test("--allow-host answers another Host name, as behind a reverse proxy", async () => {
    const server = await listen({}, ["--allow-host", "mcp.example.com"]);
    const port = Number(new URL(server.url).port);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const ask = async (host) => {
      const socket = tcp(port, "127.0.0.1");
      await once(socket, "connect");
      // Not end(): a half-closed socket may be closed by the server before it answers. Connection: close ends it.
      socket.write(`POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
      let reply = "";
      for await (const chunk of socket) reply += chunk;
      return reply.split(" ")[1];
    };
    assert.equal(await ask("mcp.example.com"), "200");
    assert.equal(await ask("other.example.com"), "403");
    await server.stop();
  });

  test("an address in use or a malformed variable stops the server with one line naming it", async () => {
    const server = await listen();
    const taken = new URL(server.url).host;
    for (const [args, env, named] of [[["--listen", taken], {}, "--listen"], [["--listen", "127.0.0.1:0"], { VERIFICATION_TIMEOUT_MS: "0" }, "VERIFICATION_TIMEOUT_MS"]]) {
      const run = spawnSync(BIN, ["mcp", ...args], { env: { ...cleanEnv(), RUST_LOG: "error", ...env }, encoding: "utf8", timeout: 20000 });
      assert.equal(run.status, 2, run.stderr);
      assert.equal(run.stdout, "");
      const lines = run.stderr.trim().split("\n");
      assert.equal(lines.length, 1, run.stderr);
      assert.ok(lines[0].startsWith(`x402-verdict: ${named}`), lines[0]);
    }
    await server.stop();
  });
});
