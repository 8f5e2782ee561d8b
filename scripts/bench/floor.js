// The floor of scripts/bench-seller.mjs's seller rows: a page that makes
// the requests the package's page makes, and does nothing else. Loaded as
// the seller page's script (classic, from the same folder layout as
// embed.js), it reads the script tag's wasm next to the package (the
// preload hint's response, where the page has one) and, for each
// [data-x402-verdict] element without data-verdict, the verdict, both at
// once; then it marks the badge "verified" without reading either. No
// badge can settle sooner over the same round trips: the package's own
// work is its time less this one.
const wasm = fetch(new URL("/pkg/x402_verdict_embed_bg.wasm", document.currentScript.src)).then((r) => r.arrayBuffer());

function settle(element) {
  const d = element.dataset;
  const query = new URLSearchParams({ chain: d.chain, payTo: d.payTo, resourceUrl: d.resourceUrl });
  const verdict = "verdict" in d ? null : fetch(`${d.baseUrl}/v0/verdict?${query}`, { credentials: "omit" }).then((r) => r.arrayBuffer());
  Promise.all([wasm, verdict]).then(() => {
    element.appendChild(document.createElement("x402-verdict-view")).dataset.state = "human-backed";
  });
}

const settled = new Set();
const all = () => document.querySelectorAll("[data-x402-verdict]").forEach((element) => settled.has(element) || (settled.add(element), settle(element)));
// The elements parsed already (a script after them), then those after it (a script in the head).
all();
document.addEventListener("DOMContentLoaded", all);
