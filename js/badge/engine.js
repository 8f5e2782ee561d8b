// The engine: the badge's wasm (./x402_verdict_badge.js, its glue), loaded
// once, or, where the wasm cannot be fetched, compiled or instantiated, the
// same Rust translated to JavaScript (./x402_verdict_badge_js.js, every
// check included, signatures too), with one console.warn saying why and
// what to change. The challenge reader is a wasm of its own
// (./x402_verdict_challenge.js), loaded from its first call on. While the
// engine loads, the first verdict requests leave at the URL the core states
// (requestWhileLoading, js/common/early.js), so that the wasm download and the
// requests overlap.
// A namespace: in embed.js, this is the script tag's glue, whose wasm has no lookupVerdict.
import * as wasm from "./x402_verdict_badge.js";
import { inTurn } from "./frames.js";
import { dropEarly, requestEarly } from "../common/early.js";
import { option } from "../common/options.js";
import { explainer, jsBuild } from "./on-demand.js";
import { REQUEST_INIT, VERDICT_URL, WARNINGS } from "../generated/words.js";

/** Shared with the script-tag loader, so that a page gets one warning. */
const WARNED = Symbol.for("x402-verdict.warned");

/** Warns once per page. */
function warnOnce(message) {
  if (globalThis[WARNED]) return;
  globalThis[WARNED] = true;
  console.warn(WARNINGS.prefix + message);
}

let engine;
/** Whether the engine has loaded (the wasm, or its JavaScript translation). */
let loaded = false;

/** Whether the engine has loaded: lookups from now on take no request started ahead. */
export const isLoaded = () => loaded;

/** The same Rust translated to JavaScript (next to this file, or to embed.js), instantiated once. */
let translation;
/**
 * Why the wasm at `url` did not load for `error` and what to change, and
 * what runs instead: ./explain.js, loaded only now (beside the JavaScript
 * build), so that pages where the wasm runs never download those words;
 * where it cannot load either, the error itself.
 */
function explained(error, url) {
  return explainer().then(
    async (words) => [await words.explain(error, url), words.INSTEAD],
    () => [`${url}: ${error?.message ?? error}`],
  );
}

/** The JavaScript build, in place of a wasm (at `url`) that did not load for `error`; one warning says why. */
async function onJavaScript(error, url) {
  const why = explained(error, url);
  translation ??= jsBuild().then((js) => {
    js.initJs();
    return js;
  });
  const js = await translation.catch(async (cause) => {
    warnOnce(`${(await why)[0]} ${WARNINGS.packageUnloadable.replace("{url}", "x402_verdict_badge_js.js").replace("{error}", cause?.message ?? cause)}`);
    throw cause;
  });
  warnOnce((await why).join(" "));
  return js;
}

/**
 * The challenge reader is a wasm of its own (x402_verdict_challenge, next to
 * this file), loaded once from the first call on, so that a page of badges
 * never downloads it; where it cannot load, the JavaScript build reads the
 * challenge.
 */
let challengeReader;
// A literal, as the badge's, for bundlers.
const challengeUrl = () => new URL("x402_verdict_challenge_bg.wasm", import.meta.url);

/** Starts loading the challenge reader's wasm (once); resolves to its glue. */
export function challengeWasm() {
  challengeReader ??= import("./x402_verdict_challenge.js").then(async (reader) => {
    reader.initSync({ module: await compiled(fetched(challengeUrl())) });
    return reader;
  });
  return challengeReader;
}

/** Calls the reader's `name` (endpointsFromPaymentRequired or endpointsFromDiscovery) on `input` (and `more`). */
export function readWith(name, input, ...more) {
  return challengeWasm()
    .catch((error) => onJavaScript(error, challengeUrl()))
    .then((reader) => reader[name](input, ...more));
}

/** The wasm at `url` (a string, URL or Request; anything else as it is), fetched; a refusal or an HTTP error says which, for explain(). */
async function fetched(url) {
  if (typeof url !== "string" && !(url instanceof URL) && !(typeof Request === "function" && url instanceof Request)) return url;
  // Refused by connect-src or CORS, or unreachable: every engine words it its own way ("Load failed" in WebKit).
  const response = await fetch(url).catch((cause) => {
    throw Object.assign(new Error(String(cause?.message ?? cause)), { unfetched: true });
  });
  if (!response.ok) throw Object.assign(new Error(`HTTP ${response.status}`), { status: response.status });
  return response;
}

/**
 * The wasm compiled from `source`: a Response, compiled as it downloads (from
 * its bytes where the server does not send application/wasm); its bytes; or
 * a module compiled already. The glue's initSync then instantiates it.
 */
async function compiled(source) {
  source = await source;
  if (source instanceof WebAssembly.Module) return source;
  if (typeof Response !== "function" || !(source instanceof Response)) return WebAssembly.compile(source);
  try {
    return await WebAssembly.compileStreaming(source);
  } catch (error) {
    if (source.bodyUsed) throw error;
    return WebAssembly.compile(await source.arrayBuffer());
  }
}

async function load(input) {
  let url = input;
  try {
    if (typeof WebAssembly !== "object") throw new TypeError("no WebAssembly");
    // A literal, so that bundlers (Vite, webpack) find the wasm and emit it.
    url ??= new URL("x402_verdict_badge_bg.wasm", import.meta.url);
    wasm.initSync({ module: await compiled(fetched(url)) });
    // No endpointsFromPaymentRequired nor endpointsFromDiscovery: on the wasm, readWith reads them (so that embed.js, which reads none, leaves it out).
    return { renderBadge: wasm.renderBadge, lookupVerdict: wasm.lookupVerdict };
  } catch (error) {
    return onJavaScript(error, url);
  }
}

/**
 * The engine in use, loading it on first call (from `input` when given: a
 * URL, a Response, its bytes or a compiled module): the wasm build once it
 * loads, else its JavaScript translation.
 */
export function loadedEngine(input) {
  engine ??= load(input).finally(() => {
    loaded = true;
    // After the lookups waiting for the engine have taken their requests:
    // behind the placeholders still to draw (each lookup renders once its
    // own is drawn), then a task later (the lookups' microtasks).
    inTurn(() => setTimeout(() => dropEarly()));
  });
  return engine;
}

/**
 * While the engine loads, starts the verdict request the options ask for
 * (js/common/early.js), at the URL the core states, so that the request and the
 * wasm download overlap; the engine takes it when it builds that very URL.
 * `ahead`: the lookup still waits for its turn (js/badge/budget.js); without it,
 * the lookup begins now, and a request sent ahead for it counts its timeout
 * from now. Returns the URL asked for. Options that are not plain strings
 * start nothing: the engine decides; nor do options carrying an inlined
 * verdict: the engine decides whether it needs the request at all.
 */
export function requestWhileLoading(options, ahead = false) {
  if (loaded || option(options, "verdict") !== undefined) return;
  try {
    const fields = { base: option(options, "baseUrl"), chain: option(options, "chain"), payTo: option(options, "payTo"), resourceUrl: option(options, "resourceUrl") };
    if (!Object.values(fields).every((value) => typeof value === "string" && value)) return;
    fields.base = new URL(fields.base, document.baseURI).href.replace(/\/$/, "");
    const url = VERDICT_URL.replace(/\{(\w+)\}/g, (_, name) => (name === "base" ? fields.base : encodeURIComponent(fields[name])));
    requestEarly(url, REQUEST_INIT, ahead ? undefined : Date.now());
    return url;
  } catch {
    // The engine reads these options itself and says what is wrong.
  }
}
