// Paid routes served by the official x402 libraries, unmodified: an Express
// app with `@x402/express` 2.27 (x402 v2: the challenge in the
// PAYMENT-REQUIRED header, `resource.url` the URL as asked) and
// `x402-express` 1.2 (x402 v1: the challenge in the body), on loopback, with
// a fake facilitator that answers only what the middleware asks before it
// sends a 402, `GET /supported`, and accepts every payment it is asked to
// verify and settle (`POST /verify`, `POST /settle`), so that a paying client
// gets its resource. The app records every payment header it receives.
import { createServer } from "node:http";
import express from "express";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { paymentMiddleware, x402ResourceServer } from "@x402/express";
import { ExactSvmScheme } from "@x402/svm/exact/server";
import { paymentMiddleware as paymentMiddlewareV1 } from "x402-express";

/** The networks and addresses the routes ask payment on. */
export const EVM_NETWORK = "eip155:84532";
export const SOLANA_NETWORK = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
export const EVM_PAY_TO = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
/** The resource `GET /elsewhere` declares, on another origin than its own. */
export const ELSEWHERE = "https://api.example.com/premium-data";
/** The second EVM address of `GET /pair`, offered before EVM_PAY_TO. */
export const EVM_OTHER_PAY_TO = "0x1111111111111111111111111111111111111111";
export const SOLANA_PAY_TO = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";
const FEE_PAYER = "FeePayer1111111111111111111111111111111111";

const listen = (server, port = 0) =>
  new Promise((ok) => server.listen(port, "127.0.0.1", () => ok(`http://127.0.0.1:${server.address().port}`)));
const close = (server) => new Promise((ok) => server.close(ok));

/** What the fake facilitator answers to `POST /verify` and `POST /settle`: every payment is good. */
const SETTLED = {
  "/verify": { isValid: true, payer: EVM_PAY_TO },
  "/settle": { success: true, transaction: `0x${"ab".repeat(32)}`, network: EVM_NETWORK, payer: EVM_PAY_TO },
};

/**
 * A facilitator that knows `GET /supported` (or, `down`, answers it 404) and
 * accepts every payment; `asked` lists every request it got.
 */
async function startFacilitator(down) {
  const asked = [];
  const server = createServer((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    if (!down && req.method === "POST" && SETTLED[req.url]) {
      req.resume();
      req.on("end", () => res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(SETTLED[req.url])));
      return;
    }
    if (down || req.method !== "GET" || req.url !== "/supported") {
      res.writeHead(404).end();
      return;
    }
    const kinds = [
      { x402Version: 2, scheme: "exact", network: EVM_NETWORK },
      { x402Version: 2, scheme: "exact", network: SOLANA_NETWORK, extra: { feePayer: FEE_PAYER } },
      { x402Version: 1, scheme: "exact", network: "base-sepolia" },
    ];
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ kinds, extensions: [], signers: {} }));
  });
  return { url: await listen(server), asked, stop: () => close(server) };
}

/**
 * Starts the paid routes; resolves to { url, facilitator, payments, stop }:
 * `payments` lists each payment header received, as `{ path, header }`
 * (`PAYMENT-SIGNATURE` for v2, `X-PAYMENT` for v1, its value).
 * `cors`: "none" (as the libraries answer), "allow" (Access-Control-Allow-Origin
 * only) or "expose" (and Access-Control-Expose-Headers: PAYMENT-REQUIRED).
 * `pages` (path → HTML, or an Express handler) and `folders` (path → directory) are served free, on
 * the same origin as the paid routes. `facilitatorDown`: the facilitator
 * fails, so the paid routes cannot build their challenge. `paywall`: the
 * PaywallProvider the v2 middleware serves browsers. `before`: an Express
 * middleware run first on every request (a page's Content-Security-Policy).
 * `routes`: more v2 paid routes. `port`: the paid routes' port (0: any).
 * `extension`: a resource server extension (x402-verdict/seller's
 * verdictExtension) registered on the v2 resource server and declared by
 * every v2 route.
 */
export async function startX402Servers({ cors = "none", pages = {}, folders = {}, facilitatorDown = false, paywall, before, routes: more = {}, port = 0, extension } = {}) {
  const facilitator = await startFacilitator(facilitatorDown);
  const evm = { scheme: "exact", price: "$0.01", network: EVM_NETWORK, payTo: EVM_PAY_TO };
  const svm = { scheme: "exact", price: "$0.01", network: SOLANA_NETWORK, payTo: SOLANA_PAY_TO };
  const routes = {
    "GET /weather": { accepts: [evm, svm], description: "Weather of a city" },
    "GET /report": { accepts: evm, description: "A report in a format" },
    "GET /elsewhere": { accepts: evm, resource: ELSEWHERE, description: "A resource declared on another origin" },
    "GET /pair": { accepts: [{ ...evm, payTo: EVM_OTHER_PAY_TO }, evm], description: "Two EVM addresses" },
    "GET /v1/*": { accepts: evm, description: "The v1 API" },
    "GET /v1x": { accepts: evm, description: "Another API beside v1" },
    "POST /orders": { accepts: evm, description: "Place an order" },
    ...more,
  };
  const server = new x402ResourceServer(new HTTPFacilitatorClient({ url: facilitator.url }))
    .register(EVM_NETWORK, new ExactEvmScheme())
    .register(SOLANA_NETWORK, new ExactSvmScheme());
  if (extension) {
    server.registerExtension(extension);
    for (const route of Object.values(routes)) route.extensions = { ...route.extensions, [extension.key]: {} };
  }
  const app = express();
  if (before) app.use(before);
  const payments = [];
  app.use((req, res, next) => {
    for (const name of ["payment-signature", "x-payment"]) {
      if (req.headers[name]) payments.push({ path: req.path, header: name, value: req.headers[name] });
    }
    next();
  });
  app.use((req, res, next) => {
    if (cors !== "none") res.setHeader("Access-Control-Allow-Origin", "*");
    if (cors === "expose") res.setHeader("Access-Control-Expose-Headers", "PAYMENT-REQUIRED");
    next();
  });
  for (const [path, html] of Object.entries(pages)) app.get(path, (req, res) => (typeof html === "function" ? html(req, res) : res.type("html").send(html)));
  for (const [path, dir] of Object.entries(folders)) app.use(path, express.static(dir));
  app.use(paymentMiddleware(routes, server, undefined, paywall));
  app.use(
    paymentMiddlewareV1(
      EVM_PAY_TO,
      { "GET /legacy/quote": { price: "$0.01", network: "base-sepolia" } },
      { url: facilitator.url },
    ),
  );
  const paid = (req, res) => res.json({ paid: true });
  for (const path of ["/weather", "/report", "/pair", "/elsewhere", "/v1/*", "/v1x", "/legacy/quote"]) app.get(path, paid);
  app.post("/orders", paid);
  const http = createServer(app);
  const url = await listen(http, port);
  return {
    url,
    facilitator,
    payments,
    stop: async () => {
      http.closeAllConnections();
      await Promise.all([close(http), facilitator.stop()]);
    },
  };
}
