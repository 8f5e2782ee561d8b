// The package's entry: the x402 verification badge's JavaScript API.
//
//   import { renderBadge, lookupVerdict, renderAll } from "x402-verdict-badge";
//
// It initialises itself on first use (call the default export, `init`, only
// to load the wasm from another URL); where the wasm cannot run, the same
// Rust translated to JavaScript runs (js/badge/engine.js). Every function returns
// a promise that settles and never rejects. It also defines the
// <x402-verdict-badge> element (js/badge/element.js). Its words and spellings are
// the core's and src/words.rs' (./generated/words.js, `cargo xtask generate`).
// The build bundles these modules into the package's index.js.
import { setTheme } from "../common/badge.js";
import { challengeWasm, loadedEngine, readWith, requestWhileLoading } from "./engine.js";
import { MARK, fromAttributes, lookupKey, snapshot } from "../common/options.js";
import { LOOK_EARLY, render, withinBudget } from "./render.js";
import { NOT_LOADED, NOT_RUN } from "../generated/words.js";
import "./element.js";

/**
 * Loads the badge's wasm, from `input` when given (a URL, a Response, its
 * bytes or a compiled module), else from next to this file. Optional: every
 * function loads it on first use. Resolves when the badge is ready (on the
 * wasm, or on its JavaScript translation when the wasm cannot run); never
 * rejects.
 */
export default function init(input) {
  return loadedEngine(input?.module_or_path ?? input).then(() => undefined, () => undefined);
}

/**
 * Renders one badge into `container` (replacing its content; a "checking"
 * placeholder at once, or in the next frame past the 50th badge drawn in one
 * frame) and resolves to the state it rendered. Never rejects.
 * With `loading: "lazy"` it looks the endpoint up only when the container
 * comes near the viewport (the promise settles then).
 */
export function renderBadge(container, options) {
  return render(container, options, () => renderBadge(container, options));
}

/** Looks one endpoint up and resolves to the structured result. Never rejects. */
export function lookupVerdict(options) {
  const copy = snapshot(options);
  return withinBudget(copy, () => {
    requestWhileLoading(copy);
    return loadedEngine().then((e) => e.lookupVerdict(copy));
  })
    .catch(() => ({ ...NOT_RUN }));
}

/**
 * Reads an x402 payment challenge (a v1 body object, a v2 object, a
 * PAYMENT-REQUIRED header value, or an MCP tool result) and resolves to
 * `{ endpoints, reason? }`: each endpoint, with a `baseUrl`, is the options of
 * renderBadge and lookupVerdict. Never rejects.
 */
export function endpointsFromPaymentRequired(input) {
  return read("endpointsFromPaymentRequired", input).catch(() => ({ endpoints: [], reason: NOT_LOADED.challenge }));
}

/**
 * Reads a page of a facilitator's discovery listing (`GET
 * /discovery/resources`, as an object or its JSON text) or one of its items,
 * and resolves to `{ items, pagination?, reason? }`: for each resource, its
 * endpoints as endpointsFromPaymentRequired gives a challenge's. With `{ live }`
 * (the text `x402-verdict scan --live --json` wrote), each endpoint carries
 * its row of that snapshot. Never rejects.
 */
export function endpointsFromDiscovery(input, options) {
  return read("endpointsFromDiscovery", input, options?.live).catch(() => ({ items: [], reason: NOT_LOADED.listing }));
}

/** Hands a copy of `input` (and `more`, as they are) to the challenge reader's `name`, on the wasm or the JavaScript build. */
function read(name, input, ...more) {
  let copy = input;
  try {
    copy = structuredClone(input);
  } catch {
    // Not cloneable (a function inside): the wasm reads it as it is, and says why it cannot.
  }
  // The reader's own wasm loads beside the badge's, not after it (unused,
  // and saying nothing, where the JavaScript build runs instead).
  if (typeof WebAssembly === "object") challengeWasm().catch(() => {});
  return loadedEngine().then((e) => (e[name] ? e[name](copy, ...more) : readWith(name, copy, ...more)));
}

const SELECTOR = `[${MARK}]`;
const rendered = new WeakMap();

/** Renders `element` unless it shows a badge for these very options already. */
function renderOnce(element, options, look) {
  const key = lookupKey(options);
  const last = rendered.get(element);
  // The same options, and the badge still shown or not settled yet (a lazy
  // one waiting to come into view): nothing to render again.
  if (last?.key === key && (!last.settled || element.firstElementChild?.shadowRoot)) {
    if (element.firstElementChild?.shadowRoot) setTheme(element.firstElementChild, options.theme);
    return last.promise;
  }
  const entry = { key, settled: false };
  entry.promise = render(element, options, () => {
    rendered.delete(element);
    renderOnce(element, options);
  }, look).finally(() => {
    entry.settled = true;
  });
  rendered.set(element, entry);
  return entry.promise;
}

/**
 * Renders a badge into every element carrying `data-x402-verdict` in `root`
 * (a document, shadow root, fragment or element, itself included; default:
 * the document), reading its options from its `data-*` attributes, and
 * resolves to the states, in document order. A badge whose options did not
 * change is not rendered again. Never rejects. With `{ loading: "lazy" }`
 * (as the script-tag loader calls it) each badge looks its endpoint up only
 * when it comes near the viewport, unless it says `data-loading="eager"`;
 * the promise settles when all have.
 * @param {ParentNode & Partial<Pick<Element, "matches">>} [root]
 */
export function renderAll(root = document, { loading = "eager" } = {}) {
  try {
    const elements = [...root.querySelectorAll(SELECTOR)];
    if (root.matches?.(SELECTOR)) elements.unshift(/** @type {Element} */ (root));
    const look = elements.length <= LOOK_EARLY;
    return Promise.all(elements.map((element) => renderOnce(element, { loading, ...fromAttributes(element, "data-") }, look)));
  } catch {
    return Promise.resolve([]);
  }
}
