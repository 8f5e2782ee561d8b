// x402-verdict/seller: the seller's server side of the badge. A seller's
// server fetches the signed verdict of its own endpoints and writes it into
// its pages, so that a visitor's badge renders with no request to the
// verification service (the badge takes an inlined verdict only when the
// core does: validly signed, for its endpoint, recent; docs/sellers.md).
//
// - verdictCache(options): the verdicts of the endpoints it is asked about,
//   each fetched on first sight, fetched anew once its Cache-Control's
//   max-age has run out (the old one served meanwhile, for at most its
//   stale-while-revalidate), at most one request per endpoint in flight,
//   and at most the core's bound of them kept;
// - badgeHtml(options) and headHtml(options): the badge's element, its
//   verdict inlined, and the <head> snippet, as HTML text, every value
//   escaped;
// - verdictPaywall(options): a PaywallProvider for the official
//   paymentMiddleware (@x402/express, @x402/hono): the paywall page given
//   (or one of its own) with a badge for each accepted option;
// - verdictExtension(verdicts): the x402 resource server extension that
//   staples the kept verdicts of a 402's options to it (x402-verdict), for
//   @x402/core's x402ResourceServer.registerExtension.
//
// Every rule is the core's, through the engine (./engine.js): the request,
// its limits and Cache-Control's reading (fetchVerdict), whether a verdict
// may be inlined now and until when (inlinedUntil), the bound on what is kept
// (maxKeptVerdicts), the payment requirements' reading
// (endpointsFromPaymentRequired), the words of its own page
// (paywallWords) and the extension's names and value (stapleNames,
// stapledExtension). This file keeps and writes; where its snippets go in a
// provider's page is ./placement.js's (an HTML parser's, never a text search).
// The badge's attributes are the badge package's (../common/options.js), the wasm
// embed.js loads from beside itself the build's (../generated/files.js): the build
// bundles them in.
import { engine } from "./engine.js";
import { withBadges } from "./placement.js";
import { FIELDS, MARK, attributeOf } from "../common/options.js";
import { EMBED_WASM } from "../generated/files.js";

/** `value` as HTML text or a quoted attribute value: every character that could end either escaped. */
function escape(value) {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The key of an endpoint. */
const keyOf = ({ chain, payTo, resourceUrl }) => JSON.stringify([chain, payTo, resourceUrl]);

/**
 * A cache of verdicts for a seller's server. `get(endpoint)` answers at once
 * (generateHtml is synchronous): the verdict text to inline, or undefined
 * (not fetched yet, the service down, or a verdict the core would not take
 * inlined now); each call keeps the endpoint warm. `fetch(endpoint)`
 * resolves to the same once an answer is in.
 * @param {Partial<import("./seller.js").ServiceOptions>} [options] (seller.d.ts: baseUrl is required)
 */
export function verdictCache({ baseUrl, publicKey, rootKey, strict = true, timeoutMs, logKey, witnessKeys, witnessQuorum, transparency } = {}) {
  const most = engine.maxKeptVerdicts();
  /** By endpoint key, least recently asked first: { endpoint, verdict, freshUntil, staleUntil, asked, pending, timer }. */
  const kept = new Map();
  /** By endpoint key, the request in flight. */
  const inFlight = new Map();
  const optionsOf = ({ chain, payTo, resourceUrl }) => ({ baseUrl, publicKey, rootKey, strict, timeoutMs, logKey, witnessKeys, witnessQuorum, transparency, chain, payTo, resourceUrl });

  /**
   * Fetches the entry's verdict anew; keeps the old one within its stale
   * window when none came. One request per endpoint at a time: an entry made
   * anew while its endpoint's request is in flight (its old entry dropped
   * meanwhile) takes that request's answer.
   */
  function refresh(entry) {
    entry.pending ??= requestOf(entry.endpoint).then((answer) => {
      entry.pending = undefined;
      const now = Date.now();
      if (answer.verdict !== undefined || now >= entry.staleUntil) {
        entry.verdict = answer.verdict;
        entry.freshUntil = now + answer.freshSeconds * 1000;
        entry.staleUntil = entry.freshUntil + answer.staleSeconds * 1000;
      }
      clearTimeout(entry.timer);
      if (kept.get(keyOf(entry.endpoint)) !== entry || entry.freshUntil <= now) return;
      // Fetched anew when its max-age runs out, if it was asked for since; else forgotten once it is stale too.
      entry.asked = false;
      entry.timer = setTimeout(() => {
        if (entry.asked) return refresh(entry);
        entry.timer = setTimeout(() => forget(entry), Math.max(0, entry.staleUntil - Date.now()));
        entry.timer.unref?.();
      }, entry.freshUntil - now);
      entry.timer.unref?.();
    });
    return entry.pending;
  }

  /** The request in flight for `endpoint`, started when there is none; kept until it settles, whatever becomes of its entry. */
  function requestOf(endpoint) {
    const key = keyOf(endpoint);
    let request = inFlight.get(key);
    if (!request) {
      request = engine.fetchVerdict(optionsOf(endpoint)).finally(() => inFlight.delete(key));
      inFlight.set(key, request);
    }
    return request;
  }

  function forget(entry) {
    clearTimeout(entry.timer);
    const key = keyOf(entry.endpoint);
    if (kept.get(key) === entry) kept.delete(key);
  }

  /** The entry of `endpoint`, made the most recently asked (a new one fetched at once). */
  function entryOf(endpoint) {
    const key = keyOf(endpoint);
    let entry = kept.get(key);
    if (entry) kept.delete(key);
    else {
      if (kept.size >= most) forget(kept.values().next().value);
      entry = { endpoint: { chain: endpoint.chain, payTo: endpoint.payTo, resourceUrl: endpoint.resourceUrl }, freshUntil: 0, staleUntil: 0 };
    }
    kept.set(key, entry);
    entry.asked = true;
    if (Date.now() >= entry.freshUntil) refresh(entry);
    return entry;
  }

  /** The entry's verdict, when it is not past its stale window and the core takes it inlined now (asked once per verdict: until when). */
  function usable(entry) {
    if (entry.verdict === undefined || Date.now() >= entry.staleUntil) return undefined;
    if (entry.judged !== entry.verdict) {
      entry.judged = entry.verdict;
      entry.takenUntil = engine.inlinedUntil({ ...optionsOf(entry.endpoint), verdict: entry.verdict }) ?? 0;
    }
    return Date.now() < entry.takenUntil ? entry.verdict : undefined;
  }

  return {
    get: (endpoint) => usable(entryOf(endpoint)),
    fetch: async (endpoint) => {
      const entry = entryOf(endpoint);
      if (!usable(entry)) await (entry.pending ?? refresh(entry));
      return usable(entry);
    },
    /** Stops keeping anything (its timers end). */
    clear: () => {
      for (const entry of [...kept.values()]) forget(entry);
    },
  };
}

/** The nonce for this page: `nonce` itself, or what it returns when it is a function. */
const nonceOf = (nonce) => (typeof nonce === "function" ? nonce() : nonce);

/**
 * The badge's element for one endpoint, as HTML text: a `<span
 * data-x402-verdict>` with the options as its data- attributes (`strict`,
 * true unless told, as one without a value), the `verdict` inlined when
 * given; every value escaped.
 */
export function badgeHtml({ strict = true, publicKey, rootKey, ...options }) {
  const listed = (keys) => (Array.isArray(keys) ? keys.join(",") : keys);
  const values = { ...options, publicKey: listed(publicKey), rootKey: listed(rootKey) };
  let html = `<span ${MARK}`;
  for (const field of FIELDS) {
    const value = values[field];
    if (field !== "strict" && value !== undefined && value !== null) html += ` data-${attributeOf(field)}="${escape(value)}"`;
  }
  return `${html}${strict ? ` data-${attributeOf("strict")}` : ""}></span>`;
}

/**
 * The snippet for the page's `<head>`, as HTML text: a preload hint for the
 * wasm that embed.js loads from beside itself (so that the page fetches
 * both at once, not one after the other), then embed.js's script tag, with
 * the page's CSP `nonce` on both when given.
 */
export function headHtml({ badgeScriptUrl, nonce }) {
  const wasm = String(badgeScriptUrl).replace(/[^/]*$/, EMBED_WASM);
  const n = nonceOf(nonce);
  const nonced = n === undefined || n === null ? "" : ` nonce="${escape(n)}"`;
  return `<link rel="preload" href="${escape(wasm)}" as="fetch" type="application/wasm" crossorigin${nonced}>`
    + `<script src="${escape(badgeScriptUrl)}"${nonced}></script>`;
}

/** The seller's own 402 page, for a provider given no paywall, with the head snippet and the badges' list after its words (the core's). */
function ownPage(head, list) {
  const [title, text] = engine.paywallWords().map(escape);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${head}</head>`
    + `<body><main><h1>${title}</h1><p>${text}</p>${list}</main></body></html>`;
}

/**
 * A PaywallProvider for the official paymentMiddleware (@x402/express,
 * @x402/hono): the page of `paywall` (a PaywallProvider, such as
 * @x402/paywall's; without one, a 402 page of its own, the badges after its
 * words) with a badge for
 * each option the payment requirements accept (`resource.url`, each
 * `accepts[].network` and `payTo`), its verdict inlined: the one the 402
 * staples for it (verdictExtension), else one kept warm; and the head
 * snippet, placed where an HTML parser finds the page's head and body
 * (./placement.js; the page as given when they cannot go there safely).
 * Its `cache` keeps them warm.
 * @param {Partial<import("./seller.js").VerdictPaywallOptions>} [options] (seller.d.ts: baseUrl and badgeScriptUrl are required)
 */
export function verdictPaywall({ baseUrl, publicKey, rootKey, badgeScriptUrl, paywall, strict = true, timeoutMs, nonce } = {}) {
  const cache = verdictCache({ baseUrl, publicKey, rootKey, strict, timeoutMs });
  return {
    cache,
    generateHtml(paymentRequired, config) {
      const { endpoints } = engine.endpointsFromPaymentRequired(paymentRequired);
      // Each badge beside the option it speaks of (its address and network),
      // with the verdict the 402 staples for it, else the one kept warm.
      const options = endpoints.map(({ chain, payTo, resourceUrl, verdict }) => {
        const inlined = verdict ?? cache.get({ chain, payTo, resourceUrl });
        const badge = badgeHtml({ baseUrl, publicKey, rootKey, strict, timeoutMs, chain, payTo, resourceUrl, verdict: inlined });
        return `<li>${badge} ${escape(engine.paywallOptionLabel(chain, payTo))}</li>`;
      });
      const head = headHtml({ badgeScriptUrl, nonce });
      const list = `<ul data-x402-verdict-paywall>${options.join("")}</ul>`;
      // A provider's page is placed into by an HTML parser; the module's own is written whole.
      return paywall ? withBadges(paywall.generateHtml(paymentRequired, config), head, list) : ownPage(head, list);
    },
  };
}

/** `value` and everything in it made read-only. */
function frozen(value) {
  if (value !== null && typeof value === "object") {
    Object.values(value).forEach(frozen);
    Object.freeze(value);
  }
  return value;
}

/**
 * The x402 resource server extension that staples verdicts to a 402
 * (x402-verdict), for @x402/core's `x402ResourceServer.registerExtension`
 * (@x402/express, @x402/hono): each 402 of a route declaring
 * `extensions: { "x402-verdict": {} }` carries the verdicts `verdicts` (a
 * verdictCache) keeps of its options, read by the core. It never waits on
 * the service: an option whose verdict is not kept yet is fetched in the
 * background, and stapled from then on. Its verdicts are a dynamic field of
 * the extension's info, so a paid retry whose staple was refreshed in
 * between still passes the server's check of the echoed extensions.
 */
export function verdictExtension(verdicts) {
  const [key, dynamic] = engine.stapleNames();
  const most = engine.maxKeptVerdicts();
  /** The endpoints of each 402 seen (by its JSON text), read once: a route's 402s differ only by their staple. */
  const endpointsOf = new Map();
  /** The extension's value last written (frozen: every 402 stapling the same verdicts shares it), and the verdicts it staples. */
  let last = { stapled: undefined };
  return {
    key,
    dynamicInfoFields: [dynamic],
    async enrichPaymentRequiredResponse(declaration, { paymentRequiredResponse }) {
      const text = JSON.stringify(paymentRequiredResponse);
      let endpoints = endpointsOf.get(text);
      if (!endpoints) {
        if (endpointsOf.size >= most) endpointsOf.clear();
        endpoints = engine.endpointsFromPaymentRequired(text).endpoints;
        endpointsOf.set(text, endpoints);
      }
      const stapled = endpoints.map((endpoint) => verdicts.get(endpoint)).filter((verdict) => verdict !== undefined);
      const joined = stapled.join("\n");
      if (joined !== last.stapled) last = { stapled: joined, value: frozen(JSON.parse(engine.stapledExtension(stapled))) };
      return last.value;
    },
  };
}
