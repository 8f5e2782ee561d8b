// The x402-verdict package's guard on the official x402 client, unmodified:
// @x402/fetch 2.27 with @x402/evm's exact scheme and a viem local account
// (signing is offline), and @x402/axios (2.11, its latest, on its own
// @x402/core), paying @x402/express 2.27 and x402-express 1.2 routes whose facilitator is a loopback fake. The reference service holds
// the attestations; a loopback front to it tampers, stalls, floods and
// counts. Each test counts the payment headers the paid server received.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { promisify } from "node:util";
import { readFileSync } from "node:fs";
import axios from "axios";
import { wrapAxiosWithPayment, x402Client as x402AxiosClient } from "@x402/axios";
import { wrapFetchWithPayment, x402Client, x402HTTPClient } from "@x402/fetch";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import { privateKeyToAccount } from "viem/accounts";
import { UNREACHABLE } from "../../scripts/demo.mjs";
import { AGENT_PACKAGE } from "../support/package.mjs";
import { KEYS, attested, serveRegistry } from "../support/reference-service.mjs";
import { ELSEWHERE, EVM_NETWORK, EVM_OTHER_PAY_TO, EVM_PAY_TO, startX402Servers } from "../support/x402-servers.mjs";

const { endpointStatus, guard, lookupVerdict } = await import(`${AGENT_PACKAGE}index.js`);
/** A test key: the account signs offline and holds nothing. */
const ACCOUNT = privateKeyToAccount(`0x${"11".repeat(32)}`);
const PUBLIC_KEY = JSON.parse(readFileSync(KEYS, "utf8")).current.publicKey;

const run = promisify(execFile);

let paid, service, front;

/**
 * A front to the reference service at `target`: `/<mode>/v0/…` is
 * forwarded as `/v0/…`, as it is (`direct`), with its verdict
 * altered after signing (`tamper`), after 10 s (`slow`), kept for
 * two seconds only (`brief`: Cache-Control max-age=2), redirected to another
 * origin (`redirect`: the paid server's), or replaced by garbage
 * (`garbage`) or by 50 MB of spaces (`huge`); `nokeys` forwards all but the
 * keys, which it answers 404. `asked` counts the requests by mode, and by
 * mode and path (`"direct /v0/verification-keys"`).
 */
async function startFront(target) {
  const asked = new Map();
  const open = new Set();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://front");
    const [, mode, ...rest] = url.pathname.split("/");
    for (const key of [mode, `${mode} /${rest.join("/")}`]) asked.set(key, (asked.get(key) ?? 0) + 1);
    open.add(res);
    res.on("close", () => open.delete(res));
    if (mode === "huge") {
      res.writeHead(200, { "Content-Type": "application/json" });
      const chunk = " ".repeat(1 << 20);
      for (let i = 0; i < 50 && !res.destroyed; i++) {
        if (!res.write(chunk)) await new Promise((ok) => { res.once("drain", ok); res.once("close", ok); });
      }
      return res.end();
    }
    if (mode === "nokeys" && rest.at(-1) === "verification-keys") return res.writeHead(404).end();
    if (mode === "garbage") return res.writeHead(200, { "Content-Type": "application/json" }).end('{"verdict": nonsense');
    if (mode === "redirect") return res.writeHead(302, { Location: `${paid.url}/v0/verdict${url.search}` }).end();
    if (mode === "slow") {
      await new Promise((ok) => {
        const timer = setTimeout(ok, 10_000);
        res.once("close", () => (clearTimeout(timer), ok()));
      });
    }
    if (res.destroyed) return;
    const answer = await fetch(`${target}/${rest.join("/")}${url.search}`).catch(() => null);
    if (!answer) return res.destroy();
    let body = await answer.text();
    if (mode === "tamper" && answer.status === 200) {
      const document = JSON.parse(body);
      if (document.verdict) document.verdict.assuranceLevel = "A+";
      body = JSON.stringify(document);
    }
    if (res.destroyed) return;
    const cache = mode === "brief" ? "max-age=2" : answer.headers.get("cache-control");
    res.writeHead(answer.status, { "Content-Type": "application/json", ...(cache ? { "Cache-Control": cache } : {}) });
    res.end(body);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    asked,
    stop: () => new Promise((done) => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      server.close(done);
    }),
  };
}

/**
 * A fetch that pays with a guarded client (v2 on every EVM network, v1 on
 * base-sepolia); `http`: it pays through an x402HTTPClient given to the guard, which then sees the URL fetched.
 */
function payingFetch({ http = false, ...options }) {
  const signer = toClientEvmSigner(ACCOUNT);
  const client = new x402Client()
    .register("eip155:*", new ExactEvmScheme(signer))
    .registerV1("base-sepolia", new ExactEvmSchemeV1(signer));
  const httpClient = http ? new x402HTTPClient(client) : undefined;
  assert.equal(guard(client, { publicKey: PUBLIC_KEY, strict: true, httpClient, ...options }), client);
  return wrapFetchWithPayment(fetch, httpClient ?? client);
}

/** The payment headers the paid server received for `path` since `from` (an index into its list). */
const paymentsFor = (path, from = 0) => paid.payments.slice(from).filter((p) => p.path === path);

/** Fetches `path` with `options`; resolves to { status, error, payments, ms }. */
async function pay(path, options) {
  const from = paid.payments.length;
  const began = performance.now();
  let status, error;
  try {
    const response = await payingFetch(options)(`${paid.url}${path}`);
    status = response.status;
    await response.arrayBuffer();
  } catch (e) {
    error = e;
  }
  return { status, error, payments: paymentsFor(path, from), ms: performance.now() - began };
}

/** Pays `path` with `options`, asserting that it was paid once; resolves to the payment's decoded payload. */
async function paidOnce(path, options) {
  const { status, error, payments } = await pay(path, options);
  assert.equal(error, undefined);
  assert.equal(status, 200);
  assert.equal(payments.length, 1);
  return JSON.parse(Buffer.from(payments[0].value, "base64").toString());
}

before(async () => {
  paid = await startX402Servers();
  const base = paid.url;
  service = await serveRegistry({
    attestations: [
      attested(EVM_NETWORK, EVM_PAY_TO, `${base}/report`, { match: "path" }),
      attested(EVM_NETWORK, EVM_PAY_TO, `${base}/weather`, { match: "path", status: "revoked" }),
      attested(EVM_NETWORK, EVM_OTHER_PAY_TO, `${base}/pair`, { match: "path", status: "revoked" }),
      attested(EVM_NETWORK, EVM_PAY_TO, `${base}/pair`, { match: "path" }),
      attested("base-sepolia", EVM_PAY_TO, `${base}/legacy/quote`, { match: "exact" }),
    ],
  }, "agent-registry.json");
  front = await startFront(service.url);
});

after(async () => {
  await Promise.all([paid?.stop(), service?.stop(), front?.stop()]);
});

const direct = () => ({ baseUrl: `${front.url}/direct` });

describe("the default policy, avoid-revoked", () => {
  test("revoked: nothing signed, nothing sent, the fetch rejects with the guard's reason", async () => {
    const { error, payments } = await pay("/weather", direct());
    assert.equal(payments.length, 0);
    assert.match(error.message, /^Failed to create payment payload: Payment creation aborted: x402-verdict: /);
    assert.ok(error.message.endsWith(
      `x402-verdict: not paying ${paid.url}/weather: state revoked, outcome revoked, reason revoked (policy avoid-revoked).`,
    ), error.message);
  });

  test("human-backed: paid once, by PAYMENT-SIGNATURE", async () => {
    const payload = await paidOnce("/report", direct());
    assert.equal(payload.x402Version, 2);
    assert.equal(paymentsFor("/report").at(-1).header, "payment-signature");
  });

  test("unknown (not listed): paid once", async () => {
    await paidOnce("/v1x", direct());
  });

  test("two options, one revoked, one human-backed: the human-backed one is paid", async () => {
    const payload = await paidOnce("/pair", direct());
    assert.equal(payload.accepted.payTo.toLowerCase(), EVM_PAY_TO.toLowerCase());
  });

  test("a tampered verdict never reads human-backed; unknown is paid", async () => {
    const seen = [];
    await paidOnce("/report", { baseUrl: `${front.url}/tamper`, onVerdict: (result) => seen.push(result) });
    assert.deepEqual(seen.map((r) => [r.state, r.reason]), [["unknown", "signature_invalid"]]);
  });
});

describe("without a configured key, the keys the service publishes", () => {
  const keysPath = "/v0/verification-keys";

  test("check the signature: valid, paid; the keys fetched once for every lookup while kept", async () => {
    const seen = [];
    const options = { baseUrl: `${front.url}/keyed`, publicKey: undefined, onVerdict: (r) => seen.push(r) };
    await paidOnce("/report", options);
    await paidOnce("/report", options);
    await paidOnce("/pair", options);
    // /pair's two options are looked up together: in either order.
    assert.deepEqual(seen.map((r) => `${r.state} ${r.signature}`).sort(), [
      "human-backed valid", "human-backed valid", "human-backed valid", "revoked valid",
    ]);
    assert.equal(front.asked.get(`keyed ${keysPath}`), 1);
  });

  test("a tampered verdict reads signature_invalid and is refused under require-human-backed", async () => {
    const seen = [];
    const { error, payments } = await pay("/report", {
      baseUrl: `${front.url}/tamper`, publicKey: undefined, strict: false, policy: "require-human-backed", onVerdict: (r) => seen.push(r),
    });
    assert.equal(payments.length, 0);
    assert.deepEqual(seen.map((r) => [r.state, r.signature, r.reason]), [["unknown", "invalid", "signature_invalid"]]);
    assert.match(error.message, /reason signature_invalid \(policy require-human-backed\)\.$/);
  });

  test("keys that cannot be had leave the signature unverifiable, which strict reads as unknown", async () => {
    const seen = [];
    await paidOnce("/report", { baseUrl: `${front.url}/nokeys`, publicKey: undefined, strict: false, onVerdict: (r) => seen.push(r) });
    const refused = await pay("/report", {
      baseUrl: `${front.url}/nokeys`, publicKey: undefined, strict: true, policy: "require-human-backed", onVerdict: (r) => seen.push(r),
    });
    assert.equal(refused.payments.length, 0);
    assert.deepEqual(seen.map((r) => [r.state, r.signature, r.reason]), [
      ["human-backed", "unverifiable", undefined], ["unknown", "unverifiable", "signature_required"],
    ]);
  });

  test("lookupVerdict never fetches keys: without publicKey its signature is not_checked", async () => {
    const result = await lookupVerdict({ baseUrl: `${front.url}/plain`, chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl: `${paid.url}/report` });
    assert.deepEqual([result.state, result.signature], ["human-backed", "not_checked"]);
    assert.equal(front.asked.get(`plain ${keysPath}`), undefined);
  });
});

describe("the hook alone", () => {
  test("a payment created past the guard's wrapper is still checked, and refused when revoked", async () => {
    const client = new x402Client().register("eip155:*", new ExactEvmScheme(toClientEvmSigner(ACCOUNT)));
    guard(client, { ...direct(), publicKey: PUBLIC_KEY, strict: true });
    const challenge = (path) => ({
      x402Version: 2,
      resource: { url: `${paid.url}${path}`, description: "", mimeType: "application/json" },
      accepts: [{
        scheme: "exact", network: EVM_NETWORK, amount: "10000", asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
        payTo: EVM_PAY_TO, maxTimeoutSeconds: 60, extra: { name: "USDC", version: "2" },
      }],
    });
    // The class's own method, not the instance's wrapper: only the hook stands between.
    const created = x402Client.prototype.createPaymentPayload;
    await assert.rejects(created.call(client, challenge("/weather")), {
      message: `Payment creation aborted: x402-verdict: not paying ${paid.url}/weather: state revoked, outcome revoked, reason revoked (policy avoid-revoked).`,
    });
    assert.equal((await created.call(client, challenge("/report"))).accepted.payTo, EVM_PAY_TO);
  });
});

describe("require-human-backed", () => {
  const strict = () => ({ ...direct(), policy: "require-human-backed" });

  test("human-backed: paid once", async () => {
    await paidOnce("/report", strict());
  });

  test("unknown: refused with the core's line, nothing sent", async () => {
    const { error, payments } = await pay("/v1x", strict());
    assert.equal(payments.length, 0);
    assert.ok(error.message.endsWith(
      `x402-verdict: not paying ${paid.url}/v1x: state unknown, outcome no_signal, reason not_listed (policy require-human-backed).`,
    ), error.message);
  });

  test("a tampered verdict is refused", async () => {
    const { error, payments } = await pay("/report", { ...strict(), baseUrl: `${front.url}/tamper` });
    assert.equal(payments.length, 0);
    assert.match(error.message, /x402-verdict: not paying .*: state unknown, outcome human_backed, reason signature_invalid \(policy require-human-backed\)\.$/);
  });

  test("two options, one revoked: the human-backed one is paid", async () => {
    const payload = await paidOnce("/pair", strict());
    assert.equal(payload.accepted.payTo.toLowerCase(), EVM_PAY_TO.toLowerCase());
  });
});

describe("a resource declared on another origin than the URL fetched", () => {
  test("require-human-backed, seeing the URL fetched, refuses it with its own line", async () => {
    const { error, payments } = await pay("/elsewhere", { ...direct(), http: true, policy: "require-human-backed" });
    assert.equal(payments.length, 0);
    assert.ok(error.message.endsWith(
      `x402-verdict: not paying ${ELSEWHERE}: it is declared on another origin than the URL fetched, ${paid.url}/elsewhere (policy require-human-backed).`,
    ), error.message);
  });

  test("the default looks the declared resource up and pays on unknown", async () => {
    const seen = [];
    await paidOnce("/elsewhere", { ...direct(), http: true, onVerdict: (r) => seen.push(r.state) });
    assert.deepEqual(seen, ["unknown"]);
  });
});

describe("a policy function", () => {
  test("sees the result and the option; true pays, false refuses in the core's words, its own reason is kept", async () => {
    const seen = [];
    const yes = await pay("/v1x", { ...direct(), policy: async (result, requirement) => (seen.push([result.state, requirement.payTo]), true) });
    assert.equal(yes.payments.length, 1);
    assert.deepEqual(seen, [["unknown", EVM_PAY_TO]]);
    const no = await pay("/v1x", { ...direct(), policy: () => false });
    assert.equal(no.payments.length, 0);
    assert.match(no.error.message, /x402-verdict: not paying .*\/v1x: state unknown, outcome no_signal, reason not_listed \(policy function\)\.$/);
    const own = await pay("/report", { ...direct(), policy: () => ({ abort: true, reason: "over budget" }) });
    assert.equal(own.payments.length, 0);
    assert.match(own.error.message, /Payment creation aborted: over budget$/);
  });

  test("a function that throws refuses", async () => {
    const { error, payments } = await pay("/report", { ...direct(), policy: () => { throw new Error("boom"); } });
    assert.equal(payments.length, 0);
    assert.match(error.message, /\(policy function\)\.$/);
  });

  test("a policy that is no policy's name is refused at once, in one line", () => {
    // "function" too: only a function makes the agent's function decide.
    for (const policy of ["pay-anything", "function"]) {
      assert.throws(() => guard(new x402Client(), { policy }), {
        name: "TypeError",
        message: 'x402-verdict: unknown policy (expected "avoid-revoked", "require-human-backed" or a function)',
      }, policy);
    }
  });
});

describe("a verification service that fails reads unknown within the timeout", () => {
  for (const [name, baseUrl, reason] of [
    ["down", () => UNREACHABLE, "network_error"],
    ["answering after 10 s", () => `${front.url}/slow`, "timeout"],
    ["sending 50 MB", () => `${front.url}/huge`, "too_large"],
    ["redirecting to another origin", () => `${front.url}/redirect`, "redirected"],
    ["answering garbage", () => `${front.url}/garbage`, "malformed"],
  ]) {
    test(`${name}: avoid-revoked pays, require-human-backed refuses`, async () => {
      const timeoutMs = 800;
      const results = [];
      const began = performance.now();
      const lenient = await pay("/report", { baseUrl: baseUrl(), timeoutMs, onVerdict: (r) => results.push({ ...r, ms: performance.now() - began }) });
      assert.equal(lenient.status, 200);
      assert.equal(lenient.payments.length, 1);
      assert.equal(results[0].state, "unknown");
      assert.deepEqual([results[0].outcome, results[0].reason], ["no_response", reason]);
      // The verdict within the timeout (and a margin for a loaded machine); the payment after it.
      assert.ok(results[0].ms < timeoutMs + 500, `verdict after ${results[0].ms} ms`);
      assert.ok(lenient.ms < timeoutMs + 2500, `${lenient.ms} ms`);
      const refused = await pay("/report", { baseUrl: baseUrl(), timeoutMs, policy: "require-human-backed" });
      assert.equal(refused.payments.length, 0);
      assert.ok(refused.error.message.endsWith(`state unknown, outcome no_response, reason ${reason} (policy require-human-backed).`), refused.error.message);
      assert.ok(refused.ms < timeoutMs + 1000, `${refused.ms} ms`);
    });
  }
});

describe("lookups", () => {
  test("concurrent lookups of one endpoint share one request, and the answer is kept per Cache-Control", async () => {
    const options = { baseUrl: `${front.url}/shared`, chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl: `${paid.url}/report`, publicKey: PUBLIC_KEY, strict: true };
    // The front forwards /shared/… as /direct does.
    const results = await Promise.all([lookupVerdict(options), lookupVerdict(options), endpointStatus(options)]);
    assert.deepEqual(results.map((r) => r.state), ["human-backed", "human-backed", "human-backed"]);
    assert.equal(results[0].signature, "valid");
    assert.equal((await lookupVerdict(options)).state, "human-backed");
    assert.equal(front.asked.get("shared"), 1);
  });

  test("a kept answer goes when its Cache-Control lifetime ends", async () => {
    const options = { baseUrl: `${front.url}/brief`, chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl: `${paid.url}/report` };
    await lookupVerdict(options);
    await lookupVerdict(options);
    assert.equal(front.asked.get("brief"), 1);
    await new Promise((ok) => setTimeout(ok, 2100));
    assert.equal((await lookupVerdict(options)).state, "human-backed");
    assert.equal(front.asked.get("brief"), 2);
  });

  test("a Node process whose answer is kept for a minute exits as soon as its work is done", async () => {
    const options = { baseUrl: `${front.url}/exit`, chain: EVM_NETWORK, payTo: EVM_PAY_TO, resourceUrl: `${paid.url}/report` };
    const code = `const { lookupVerdict } = await import(${JSON.stringify(`${AGENT_PACKAGE}index.js`)});
      console.log((await lookupVerdict(${JSON.stringify(options)})).state);`;
    const began = performance.now();
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", code], { timeout: 20_000 });
    assert.equal(stdout.trim(), "human-backed");
    assert.ok(performance.now() - began < 10_000, `exited after ${performance.now() - began} ms`);
  });

  test("bad options resolve to unknown, invalid_input, and never reject", async () => {
    const result = await lookupVerdict({ chain: "base" });
    assert.equal(result.state, "unknown");
    assert.equal(result.reason, "invalid_input");
    assert.equal((await lookupVerdict(null)).reason, "invalid_input");
  });
});

describe("x402 v1 (x402-express 1.2)", () => {
  test("human-backed: paid once with X-PAYMENT; revoked policy function refuses", async () => {
    const { payments } = await pay("/legacy/quote", direct());
    assert.equal(payments.length, 1);
    assert.equal(payments[0].header, "x-payment");
    const refused = await pay("/legacy/quote", { ...direct(), policy: (result) => result.state !== "human-backed" });
    assert.equal(refused.payments.length, 0);
    assert.match(refused.error.message, new RegExp(`x402-verdict: not paying ${paid.url}/legacy/quote: state human-backed, outcome human_backed \\(policy function\\)\\.$`));
  });
});

describe("@x402/axios", () => {
  /** An axios instance paying with a guarded @x402/axios client. */
  function payingAxios(options) {
    const client = new x402AxiosClient().register("eip155:*", new ExactEvmScheme(toClientEvmSigner(ACCOUNT)));
    guard(client, { publicKey: PUBLIC_KEY, strict: true, ...options });
    return wrapAxiosWithPayment(axios.create(), client);
  }

  test("human-backed: paid once; revoked: rejected with the guard's reason, nothing sent", async () => {
    const from = paid.payments.length;
    const response = await payingAxios(direct()).get(`${paid.url}/report`);
    assert.equal(response.status, 200);
    assert.equal(paymentsFor("/report", from).length, 1);
    const error = await payingAxios(direct()).get(`${paid.url}/weather`).then(() => null, (e) => e);
    assert.equal(paymentsFor("/weather", from).length, 0);
    assert.ok(error.message.endsWith(
      `x402-verdict: not paying ${paid.url}/weather: state revoked, outcome revoked, reason revoked (policy avoid-revoked).`,
    ), error.message);
  });
});
