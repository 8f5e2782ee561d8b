// What placing verdictPaywall's snippets in a provider's page costs a
// seller's server, in Node, side by side in one run: the x402-verdict
// package's placement (js/agent/placement.js: parse5 up to the page's <body>
// tag, then that part parsed again with the snippets placed) beside the text search it replaced (the first "</head>" and the
// last "</body>" in the page's text, which let a resource's description
// inject markup), on two provider pages: a small one (the markup-injection
// trial's page with its description in an attribute,
// tests/agent/seller.test.mjs) and the official x402 1.x paywall
// (`x402/paywall`'s getPaywallHtml: 3.5 MB, its scripts inline), the
// largest provider page at hand. The two alternate, after three untimed
// placements each; medians of RUNS placements, the ratio printed. No
// assertions.
//   npm run bench   (after a build)
//   RUNS=21 node scripts/bench-paywall.mjs
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { median } from "./bench/timing.mjs";
import { AGENT_PACKAGE } from "../tests/support/package.mjs";

const RUNS = Number(process.env.RUNS ?? 11);
const { withBadges } = await import(`${AGENT_PACKAGE}placement.js`);
const { badgeHtml, headHtml } = await import(`${AGENT_PACKAGE}seller.js`);
const { getPaywallHtml } = createRequire(import.meta.url)("x402/paywall");

/** The text search the parser replaced: `head` before the first </head>, `body` before the last </body>. */
function bySearch(page, head, body) {
  const headAt = page.search(/<\/head>/i);
  const headed = headAt < 0 ? head + page : page.slice(0, headAt) + head + page.slice(headAt);
  const bodyAt = headed.toLowerCase().lastIndexOf("</body>");
  return bodyAt < 0 ? headed + body : headed.slice(0, bodyAt) + body + headed.slice(bodyAt);
}

const description = "Premium data";
const endpoint = { chain: "eip155:8453", payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", resourceUrl: "https://api.example.com/premium-data" };
const head = headHtml({ badgeScriptUrl: "/x402-verdict-badge/embed.js" });
const body = `<ul data-x402-verdict-paywall><li>${badgeHtml({ baseUrl: "https://verify.example", publicKey: "k", ...endpoint })} to ${endpoint.payTo} on base</li></ul>`;
const pages = {
  "a small provider page": `<!doctype html><html><head><meta charset="utf-8"><meta name="description" content="${description}"><title>Pay</title></head><body><main id="provider" data-description="${description}"><h1>Pay</h1></main></body></html>`,
  "the x402 1.x paywall": getPaywallHtml({ amount: 0.01, testnet: true, currentUrl: endpoint.resourceUrl, paymentRequirements: [{ scheme: "exact", network: "base", payTo: endpoint.payTo, resource: endpoint.resourceUrl, description }] }),
};

/** Milliseconds `place` takes on `page`. */
function timed(place, page) {
  const start = performance.now();
  place(page, head, body);
  return performance.now() - start;
}

console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(", ")}; medians of ${RUNS} placements`);
console.log("page                         size       text search   parser    ratio");
for (const [name, page] of Object.entries(pages)) {
  if (withBadges(page, head, body) === page) throw new Error(`bench-paywall: ${name}: the parser left the page unchanged`);
  // Warmed up first, so that the medians are of compiled code.
  for (let run = 0; run < 3; run += 1) {
    bySearch(page, head, body);
    withBadges(page, head, body);
  }
  const search = [];
  const parser = [];
  for (let run = 0; run < RUNS; run += 1) {
    search.push(timed(bySearch, page));
    parser.push(timed(withBadges, page));
  }
  const [s, p] = [median(search), median(parser)];
  const size = page.length >= 1e6 ? `${(page.length / 1e6).toFixed(1)} MB` : `${(page.length / 1e3).toFixed(1)} KB`;
  console.log(`${name.padEnd(28)} ${size.padStart(7)} ${s.toFixed(3).padStart(10)} ms ${p.toFixed(2).padStart(8)} ms ${(p / s).toFixed(0).padStart(6)}x`);
}
