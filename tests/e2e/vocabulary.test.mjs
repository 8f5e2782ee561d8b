// One wire vocabulary, as a user sees it: real results of the MCP server
// (driven by the official TypeScript SDK against the reference service and
// a scripted one, in every state, outcome, freshness and signature status)
// validate against the outputSchema the server declares, and compile under
// `tsc --strict` as the package's VerdictResult type; each closed field's
// spellings in the schema and in the type are exactly those the results use.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv from "ajv";
import { BIN, ENDPOINTS, startDemo, UNREACHABLE } from "../../scripts/demo.mjs";
import { startFixtures } from "../support/fixtures.mjs";
import { PACKAGE } from "../support/package.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const DIR = `${ROOT}.work/vocabulary/`;
/** The fields of the structured result with a closed set of spellings. */
const CLOSED = ["state", "outcome", "freshness", "signature"];

let demo, fixtures, scripted, schema, results;
before(async () => {
  [demo, fixtures] = await Promise.all([startDemo({ www: false }), startFixtures()]);
  scripted = await startScripted(demo.url);
  ({ schema, results } = await realResults());
});
after(async () => {
  await Promise.all([demo?.stop(), fixtures?.stop(), scripted?.stop()]);
});

/**
 * A verification service that answers from the reference service, changed
 * by the first path segment of its base URL: `unsigned` drops the
 * signature, `mismatch` answers every query with the verified endpoint's
 * verdict, `status` answers 500, `elsewhere` redirects to another origin,
 * `garbage` answers a body that is not JSON.
 */
async function startScripted(upstream) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    const [, mode, ...rest] = url.pathname.split("/");
    const path = `/${rest.join("/")}`;
    const send = (status, body, headers = {}) => {
      res.writeHead(status, { "Content-Type": "application/json", ...headers });
      res.end(body);
    };
    if (mode === "status") return send(500, "{}");
    if (mode === "garbage") return send(200, "<html>not a verdict</html>");
    if (mode === "elsewhere") return send(302, "", { Location: `${upstream.replace("127.0.0.1", "localhost")}${path}${url.search}` });
    const query = mode === "mismatch" ? new URLSearchParams(endpointArgs(ENDPOINTS.verified)) : url.searchParams;
    const answer = await fetch(`${upstream}${path}?${query}`);
    const body = await answer.json();
    if (mode === "unsigned") delete body.signature;
    send(answer.status, JSON.stringify(body));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}`, stop: () => new Promise((ok) => server.close(ok)) };
}

const endpointArgs = ({ chain, payTo, resourceUrl }) => ({ chain, payTo, resourceUrl });

/** Calls lookup_verdict for each endpoint on an MCP server started with `env`; resolves to the schema and the results. */
async function lookups(env, endpoints) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VERIFICATION_")));
  const transport = new StdioClientTransport({ command: BIN, args: ["mcp"], env: { ...clean, RUST_LOG: "error", ...env }, stderr: "pipe" });
  const client = new Client({ name: "x402-verdict-vocabulary", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const results = [];
    for (const endpoint of endpoints) {
      const answer = await client.callTool({ name: "lookup_verdict", arguments: endpointArgs(endpoint) });
      assert.equal(answer.isError, false, JSON.stringify(answer.content));
      results.push(answer.structuredContent);
    }
    return { schema: tools.find((t) => t.name === "lookup_verdict").outputSchema, results };
  } finally {
    await client.close();
  }
}

/** Real results: every demo endpoint, and each way a lookup can fail or be unchecked. */
async function realResults() {
  const keyed = (baseUrl, extra = {}) => ({ VERIFICATION_BASE_URL: baseUrl, VERIFICATION_PUBLIC_KEY: demo.publicKey, VERIFICATION_TIMEOUT_MS: "1500", ...extra });
  const all = Object.values(ENDPOINTS);
  const { verified, noSignal } = ENDPOINTS;
  const runs = [
    [keyed(demo.url), all],
    [{ VERIFICATION_BASE_URL: demo.url }, [verified]],
    [{}, [verified]],
    [keyed(UNREACHABLE), [verified]],
    [keyed(`${fixtures.url}/stall`), [verified]],
    [keyed(`${fixtures.url}/huge`), [verified]],
    [keyed(`${scripted.url}/unsigned`), [verified]],
    [keyed(`${scripted.url}/unsigned`, { VERIFICATION_STRICT: "1" }), [verified]],
    [keyed(`${scripted.url}/mismatch`), [noSignal]],
    [keyed(`${scripted.url}/status`), [verified]],
    [keyed(`${scripted.url}/elsewhere`), [verified]],
    [keyed(`${scripted.url}/garbage`), [verified]],
  ];
  const answers = await Promise.all(runs.map(([env, endpoints]) => lookups(env, endpoints)));
  return { schema: answers[0].schema, results: answers.flatMap((a) => a.results) };
}

/** The spellings of `field` the results use, sorted. */
const spellings = (results, field) => [...new Set(results.map((r) => r[field]).filter((v) => v !== undefined))].sort();

test("real MCP results validate against the declared outputSchema, which lists exactly their spellings", () => {
  const validate = new Ajv({ strict: false }).compile(schema);
  for (const result of results) assert.ok(validate(result), `${JSON.stringify(result)}: ${JSON.stringify(validate.errors)}`);
  for (const field of CLOSED) assert.deepEqual([...schema.properties[field].enum].sort(), spellings(results, field), field);
  for (const reason of spellings(results, "reason")) assert.ok(schema.properties.reason.enum.includes(reason), reason);
  // A spelling no result uses is refused.
  assert.equal(validate({ ...results[0], state: "verified" }), false);
});

test("real results compile as the package's VerdictResult, whose closed fields list exactly their spellings", () => {
  const exact = CLOSED.map((field) => {
    const seen = Object.fromEntries(spellings(results, field).map((s) => [s, true]));
    return `export const ${field}: Record<VerdictResult["${field}"], true> = ${JSON.stringify(seen)};`;
  });
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  writeFileSync(`${DIR}results.ts`, [
    'import type { VerdictResult } from "x402-verdict-badge";',
    `export const results: VerdictResult[] = ${JSON.stringify(results, null, 2)};`,
    ...exact,
  ].join("\n"));
  writeFileSync(`${DIR}tsconfig.json`, JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler",
      lib: ["es2022", "dom"], paths: { "x402-verdict-badge": [`${PACKAGE}index.d.ts`] },
    },
    files: [`${DIR}results.ts`],
  }));
  try {
    execFileSync(`${ROOT}node_modules/.bin/tsc`, ["-p", `${DIR}tsconfig.json`], { encoding: "utf8" });
  } catch (e) {
    assert.fail(`tsc --strict:\n${e.stdout}${e.stderr}`);
  }
});
