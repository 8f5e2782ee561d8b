// The yardstick of scripts/bench-seller.mjs: the smallest honest badge one
// could write in plain JavaScript, one module, no package: for each
// [data-plain-badge] element it fetches the verdict, canonicalizes it
// (RFC 8785 for the strings and integers a verdict holds), checks its
// Ed25519 signature with WebCrypto and writes the state. It checks far less
// than the package (no strict JSON, freshness, endpoint binding or limits):
// a floor to measure loading against, not a badge to ship.
const canonical = (v) => Array.isArray(v) ? `[${v.map(canonical).join(",")}]`
  : v && typeof v === "object" ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`
  : JSON.stringify(v);
const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

async function check(element) {
  const d = element.dataset;
  const query = new URLSearchParams({ chain: d.chain, payTo: d.payTo, resourceUrl: d.resourceUrl });
  const host = element.appendChild(document.createElement("x402-verdict-view"));
  host.dataset.state = "checking";
  host.textContent = "checking";
  let state = "unknown";
  try {
    const response = await fetch(`${d.baseUrl}/v0/verdict?${query}`, { credentials: "omit", headers: { Accept: "application/json" } });
    const { verdict, signature } = await response.json();
    const key = await crypto.subtle.importKey("raw", bytes(d.publicKey), { name: "Ed25519" }, false, ["verify"]);
    const message = new TextEncoder().encode(`x402-verdict/v1\n${canonical(verdict)}`);
    const valid = await crypto.subtle.verify("Ed25519", key, bytes(signature), message);
    if (valid && verdict.outcome === "human_backed") state = "human-backed";
    else if (verdict.outcome === "revoked") state = "revoked";
  } catch {
    // unknown
  }
  host.textContent = state === "human-backed" ? "verified" : state;
  host.dataset.state = state;
}

document.querySelectorAll("[data-plain-badge]").forEach(check);
