// Endpoints as the official x402 libraries name them: `@x402/express` 2.27
// (x402 v2, `resource.url` the URL as asked, query and Host included) and
// `x402-express` 1.2 (x402 v1), unmodified, with a loopback facilitator that
// answers only `GET /supported`. The reference service attests their routes
// with each `match` (exact, path, prefix); `x402-verdict check` reads the
// real challenges and reaches each expected state with a valid signature;
// Chromium reads the same challenges through `endpointsFromPaymentRequired`,
// from the same origin and from another one.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createPublicKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";
import canonicalize from "canonicalize";
import { BIN } from "../../scripts/demo.mjs";
import { launch } from "../support/browser.mjs";
import { KEYS, attested, serveRegistry } from "../support/reference-service.mjs";
import { startOrigin } from "../support/origin.mjs";
import { PACKAGE } from "../support/package.mjs";
import { EVM_NETWORK, EVM_PAY_TO, SOLANA_PAY_TO, startX402Servers } from "../support/x402-servers.mjs";

let paid, service, publicKey;

/** Runs `x402-verdict check …`; resolves to { code, stdout, stderr }. */
const check = (...args) =>
  new Promise((done) =>
    execFile(BIN, ["check", ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? error.code : 0, stdout, stderr })));

/** `check --json` against the service: each option's network, resource and result. */
async function options(url, ...more) {
  const { code, stdout, stderr } = await check(url, "--base-url", service.url, "--public-key", publicKey, "--json", ...more);
  assert.equal(code, 0, stderr);
  return JSON.parse(stdout).options.map(({ chain, resourceUrl, result }) =>
    ({ chain, resourceUrl, state: result.state, signature: result.signature, reason: result.reason ?? null }));
}

before(async () => {
  paid = await startX402Servers({ folders: { "/pkg": PACKAGE }, pages: { "/page.html": "<!doctype html><title>t</title>" } });
  const base = paid.url;
  publicKey = JSON.parse(readFileSync(KEYS, "utf8")).current.publicKey;
  service = await serveRegistry({
    attestations: [
      // Every query of the weather route; the Solana option's attestation was withdrawn.
      attested(EVM_NETWORK, EVM_PAY_TO, `${base}/weather`, { match: "path" }),
      attested("solana-devnet", SOLANA_PAY_TO, `${base}/weather`, { match: "path", status: "revoked" }),
      // One query of the report route, written in another spelling.
      attested(EVM_NETWORK, EVM_PAY_TO, `HTTP://127.0.0.1:${new URL(base).port}/report?format=pdf%2Cgz`),
      // The v1 subtree (its re-check overdue at the service), never /v1x.
      attested(EVM_NETWORK, EVM_PAY_TO, `${base}/v1`, { match: "prefix", recheckedHoursAgo: 30 }),
      attested(EVM_NETWORK, EVM_PAY_TO, `${base}/orders`, { match: "path" }),
      // x402 v1 names the network `base-sepolia` and the path without its query.
      attested("base-sepolia", EVM_PAY_TO, `${base}/legacy/quote`, { match: "exact" }),
    ],
  });
});
after(async () => {
  await Promise.all([paid?.stop(), service?.stop()]);
});

const signedOk = (state, reason = null) => ({ state, signature: "valid", reason });

describe("x402-verdict check against the official x402 servers", () => {
  test("a path attestation covers every query of a route, as the v2 middleware names it", async () => {
    for (const query of ["?city=Paris", "?city=London&units=metric", "", "?city=S%c3%a3o%20Paulo"]) {
      const url = `${paid.url}/weather${query}`;
      const got = await options(url);
      assert.deepEqual(got.map((o) => o.resourceUrl), [url, url], "resource.url is the URL as asked");
      assert.deepEqual(got.map(({ state, signature, reason }) => ({ state, signature, reason })),
        [signedOk("human-backed"), signedOk("revoked", "revoked")], query);
    }
  });

  test("an exact attestation covers its query only, in any spelling of it", async () => {
    assert.deepEqual((await options(`${paid.url}/report?format=pdf%2Cgz`)).map((o) => o.state), ["human-backed"]);
    assert.deepEqual((await options(`${paid.url}/report?format=pdf%2cgz`))[0], {
      chain: EVM_NETWORK, resourceUrl: `${paid.url}/report?format=pdf%2cgz`, ...signedOk("human-backed"),
    });
    for (const other of ["?format=csv", "?format=PDF%2Cgz", "?format=pdf", ""]) {
      assert.deepEqual((await options(`${paid.url}/report${other}`)).map((o) => [o.state, o.reason, o.signature]),
        [["unknown", "not_listed", "not_checked"]], other);
    }
  });

  test("a prefix covers its subtree at a / boundary, never a longer segment", async () => {
    for (const path of ["/v1/items/7", "/v1/items/7?page=2", "/v1/"]) {
      assert.deepEqual((await options(`${paid.url}${path}`)).map(({ state, signature, reason }) => ({ state, signature, reason })),
        [signedOk("unknown", "stale")], path);
    }
    assert.deepEqual((await options(`${paid.url}/v1x`)).map((o) => o.reason), ["not_listed"]);
  });

  test("another host name is another resource", async () => {
    const url = `http://localhost:${new URL(paid.url).port}/weather?city=Paris`;
    const got = await options(url);
    assert.deepEqual(got.map((o) => [o.resourceUrl, o.reason]), [[url, "not_listed"], [url, "not_listed"]]);
  });

  test("a POST-only route asked with --method POST; GET asks for no payment", async () => {
    assert.deepEqual((await options(`${paid.url}/orders`, "--method", "POST")).map((o) => o.state), ["human-backed"]);
    const { code, stdout } = await check(`${paid.url}/orders`, "--base-url", service.url);
    assert.equal(code, 0);
    assert.match(stdout, /^GET \S+\/orders answered HTTP 404: it asks for no payment, so there is nothing to check\.\n$/);
  });

  test("x402 v1 (x402-express) names the path without its query", async () => {
    const got = await options(`${paid.url}/legacy/quote?amount=3`);
    assert.deepEqual(got, [{ chain: "base-sepolia", resourceUrl: `${paid.url}/legacy/quote`, ...signedOk("human-backed") }]);
  });

  test("the verdict is about the URL as asked, and its signature covers that", async () => {
    const asked = `${paid.url}/weather?city=Paris`;
    const query = new URLSearchParams({ chain: EVM_NETWORK, payTo: EVM_PAY_TO.toLowerCase(), resourceUrl: asked });
    const doc = await (await fetch(`${service.url}/v0/verdict?${query}`)).json();
    assert.equal(doc.verdict.resourceUrl, asked);
    const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), Buffer.from(publicKey, "base64")]);
    const key = createPublicKey({ key: spki, format: "der", type: "spki" });
    const message = Buffer.from(`x402-verdict/v1\n${canonicalize(doc.verdict)}`);
    assert.ok(verify(null, message, key, Buffer.from(doc.signature, "base64")));
  });

  test("the facilitator was asked only GET /supported", () => {
    assert.ok(paid.facilitator.asked.length > 0);
    assert.deepEqual([...new Set(paid.facilitator.asked)], ["GET /supported"]);
  });
});

describe("a match the service cannot use", () => {
  test("is refused at start with one line naming it", async () => {
    const entry = attested(EVM_NETWORK, EVM_PAY_TO, `${paid.url}/weather`, { match: "subtree" });
    const error = await serveRegistry({ attestations: [entry] }).then(() => null, (e) => e);
    assert.equal(error?.code, 2);
    assert.match(error.stderr, /^x402-verdict: \S+registry\.json: attestations\[0\]: match "subtree" is not "exact", "path" or "prefix"\n$/);
  });
});

describe("check when there is no challenge to read", () => {
  test("a paid route whose facilitator is down is a server error: exit 1, not free", async () => {
    const broken = await startX402Servers({ facilitatorDown: true });
    try {
      const url = `${broken.url}/weather?city=Paris`;
      const { code, stdout, stderr } = await check(url, "--base-url", service.url);
      assert.deepEqual({ code, stdout }, { code: 1, stdout: "" });
      assert.match(stderr, /^x402-verdict: could not read a challenge: GET \S+ answered HTTP 5\d\d, a server error\n$/);
    } finally {
      await broken.stop();
    }
  });

  test("a refused connection names its cause: exit 1", async () => {
    const { code, stderr } = await check("http://127.0.0.1:9/weather", "--base-url", service.url);
    assert.equal(code, 1);
    assert.match(stderr, /^x402-verdict: could not read a challenge: GET http:\/\/127\.0\.0\.1:9\/weather: no answer: .*Connection refused/);
  });

  test("bad input is exit 2", async () => {
    const { code, stderr } = await check("ftp://127.0.0.1/x");
    assert.deepEqual({ code, stderr }, { code: 2, stderr: "x402-verdict: ftp://127.0.0.1/x: not an absolute http:// or https:// URL\n" });
  });
});

describe("the same challenges in Chromium, through endpointsFromPaymentRequired", () => {
  let browser, site;
  before(async () => {
    [browser, site] = await Promise.all([launch(), startOrigin()]);
    site.folders.set("/pkg/", PACKAGE);
    site.pages.set("/page.html", "<!doctype html><title>t</title>");
  });
  after(async () => {
    await browser?.close();
    await site?.stop();
  });

  /** Opens a page on `origin`, fetches `resource` there as the README does, and reads it. */
  async function readInPage(origin, resource) {
    const tab = await browser.newPage();
    try {
      await tab.goto(`${origin}/page.html`);
      return await tab.evaluate(async (resource) => {
        const { endpointsFromPaymentRequired } = await import("/pkg/index.js");
        let response;
        try {
          response = await fetch(resource);
        } catch (e) {
          return { fetchFailed: String(e) };
        }
        const challenge = response.headers.get("PAYMENT-REQUIRED") ?? (await response.json());
        return { status: response.status, ...(await endpointsFromPaymentRequired(challenge)) };
      }, resource);
    } finally {
      await tab.close();
    }
  }

  test("on the resource's own origin: every option, as check reads it", async () => {
    for (const path of ["/weather?city=Paris", "/report?format=pdf%2cgz", "/v1/items/7", "/legacy/quote?amount=3"]) {
      const got = await readInPage(paid.url, `${paid.url}${path}`);
      const read = await check(`${paid.url}${path}`, "--json");
      // check's options, but for their result and where its verdict came from.
      const expected = JSON.parse(read.stdout).options.map(({ result, verdictFrom, ...option }) => option);
      assert.equal(got.status, 402);
      assert.deepEqual(got.endpoints, expected, path);
      assert.equal(got.reason, undefined);
    }
  });

  test("from another origin: nothing without CORS, the {} body's reason without the exposed header, all with it", async () => {
    const resource = (server) => `${server.url}/weather?city=Paris`;
    assert.match((await readInPage(site.url, resource(paid))).fetchFailed, /TypeError/);
    const allowing = await startX402Servers({ cors: "allow" });
    const exposing = await startX402Servers({ cors: "expose" });
    try {
      const hidden = await readInPage(site.url, resource(allowing));
      assert.deepEqual(hidden.endpoints, []);
      assert.match(hidden.reason, /^the challenge is \{\}, the body an x402 v2 server sends: its challenge is in the PAYMENT-REQUIRED header, .*Access-Control-Expose-Headers: PAYMENT-REQUIRED$/);
      const exposed = await readInPage(site.url, resource(exposing));
      assert.deepEqual(exposed.endpoints.map((e) => [e.chain, e.resourceUrl]),
        [[EVM_NETWORK, resource(exposing)], ["solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", resource(exposing)]]);
    } finally {
      await Promise.all([allowing.stop(), exposing.stop()]);
    }
  });
});
