// The package's entry: the x402 verification badge's JavaScript API.
//
//   import { renderBadge, lookupVerdict, renderAll } from "x402-verdict-badge";
//
// It initialises itself on first use (call the default export, `init`, only
// to load the wasm from another URL), and falls back to plain JavaScript
// (./fallback.js, without the signature check) when the wasm cannot be
// fetched, compiled or instantiated, with one console.warn saying why and
// what to change. Every function returns a promise that settles and never
// rejects. It also defines the <x402-verdict-badge> element.
import initWasm, { lookupVerdict as wasmLookup, renderBadge as wasmRender } from "./x402_verdict_badge.js";
import { mount, setTheme, show } from "./badge.js";

const UNKNOWN = "unknown";
const WASM = "x402_verdict_badge_bg.wasm";
/** Shared with the script-tag loader, so that a page gets one warning. */
const WARNED = Symbol.for("x402-verdict.warned");
const FALLBACK_NOTE = "Badges are shown by the JavaScript fallback, which cannot check signatures.";

/** Warns once per page. */
function warnOnce(message) {
  if (globalThis[WARNED]) return;
  globalThis[WARNED] = true;
  console.warn(`x402-verdict badge: ${message}`);
}

/** Why the wasm did not load, and what to change. */
function explain(error, url) {
  const text = String(error?.message ?? error);
  if (error?.status) {
    return `${url} answered HTTP ${error.status}: serve ${WASM} next to x402_verdict_badge.js (or pass its URL to init()).`;
  }
  if (/unsafe-eval|Content Security Policy/i.test(text)) {
    return "the page's Content-Security-Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to script-src.";
  }
  if (error instanceof TypeError && error.name === "TypeError" && /fetch/i.test(text)) {
    return `${url} could not be fetched: allow its origin in the Content-Security-Policy's connect-src, and serve it with Access-Control-Allow-Origin when it is on another origin.`;
  }
  return `the wasm could not be loaded (${text}).`;
}

let engine;

async function load(input) {
  let url = input;
  try {
    if (typeof WebAssembly !== "object") {
      throw new Error("WebAssembly is unavailable in this browser (disabled by policy, or iOS Lockdown Mode)");
    }
    // A literal, so that bundlers (Vite, webpack) find the wasm and emit it.
    url ??= new URL("x402_verdict_badge_bg.wasm", import.meta.url);
    let source = url;
    if (typeof url === "string" || url instanceof URL) {
      source = await fetch(url);
      if (!source.ok) throw Object.assign(new Error("HTTP error"), { status: source.status });
    }
    await initWasm({ module_or_path: source });
    return { renderBadge: wasmRender, lookupVerdict: wasmLookup };
  } catch (error) {
    warnOnce(`${explain(error, url)} ${FALLBACK_NOTE}`);
    return import("./fallback.js");
  }
}

/** The engine in use: the wasm build once it loads, else the fallback. */
function ready() {
  return (engine ??= load());
}

/**
 * Loads the badge's wasm, from `input` when given (a URL, a Response, its
 * bytes or a compiled module), else from next to this file. Optional: every
 * function loads it on first use. Resolves when the badge is ready (on the
 * wasm, or on the fallback when the wasm cannot load); never rejects.
 */
export default function init(input) {
  engine ??= load(input?.module_or_path ?? input);
  return engine.then(() => undefined, () => undefined);
}

/** A shallow copy, so that options are read when the call is made. */
function snapshot(options) {
  try {
    return options && typeof options === "object" && !Array.isArray(options) ? { ...options } : options;
  } catch {
    return options;
  }
}

/**
 * Renders one badge into `container` (replacing its content; a "checking"
 * placeholder at once) and resolves to the state it rendered. Never rejects.
 */
export function renderBadge(container, options) {
  const host = mount(container);
  const copy = snapshot(options);
  setTheme(host, copy?.theme);
  return ready()
    .then((e) => e.renderBadge(container, copy))
    .catch(() => {
      show(host, UNKNOWN, UNKNOWN, "The badge could not run, so nothing was checked.");
      return UNKNOWN;
    });
}

/** Looks one endpoint up and resolves to the structured result. Never rejects. */
export function lookupVerdict(options) {
  const copy = snapshot(options);
  return ready()
    .then((e) => e.lookupVerdict(copy))
    .catch(() => ({ state: UNKNOWN, outcome: "no_response", freshness: UNKNOWN, signature: "not_checked", reason: "network_error" }));
}

// ---- options from attributes ----

const FIELDS = ["baseUrl", "chain", "payTo", "resourceUrl", "publicKey", "timeoutMs", "strict", "theme"];
const attributeOf = (field) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const SELECTOR = "[data-x402-verdict]";

/** Options from attributes (`base-url`, … or, with the prefix, `data-base-url`, …). */
function fromAttributes(element, prefix) {
  const options = {};
  for (const field of FIELDS) {
    const value = element.getAttribute(prefix + attributeOf(field));
    if (value === null) continue;
    options[field] = field === "publicKey" ? value.split(",").map((key) => key.trim())
      : field === "timeoutMs" ? (/^\s*\d+\s*$/.test(value) ? Number(value) : value)
      : field === "strict" ? (["", "true", "strict"].includes(value) || (value === "false" ? false : value))
      : value;
  }
  return options;
}

/** A key that changes when the options do. */
function keyOf(options) {
  try {
    return JSON.stringify(options);
  } catch {
    return Symbol("unserializable");
  }
}

const rendered = new WeakMap();

/** Renders `element` unless it shows a badge for these very options already. */
function renderOnce(element, options) {
  const key = keyOf(options);
  const last = rendered.get(element);
  if (last?.key === key && element.firstElementChild?.shadowRoot) return last.promise;
  const promise = renderBadge(element, options);
  rendered.set(element, { key, promise });
  return promise;
}

/**
 * Renders a badge into every element carrying `data-x402-verdict` in `root`
 * (a document, shadow root, fragment or element, itself included; default:
 * the document), reading its options from its `data-*` attributes, and
 * resolves to the states, in document order. A badge whose options did not
 * change is not rendered again. Never rejects.
 */
export function renderAll(root = document) {
  try {
    const elements = [...root.querySelectorAll(SELECTOR)];
    if (root.matches?.(SELECTOR)) elements.unshift(root);
    return Promise.all(elements.map((element) => renderOnce(element, fromAttributes(element, "data-"))));
  } catch {
    return Promise.resolve([]);
  }
}

// ---- <x402-verdict-badge> ----

const STATE_EVENT = "x402-verdict:state";

/**
 * `<x402-verdict-badge base-url chain pay-to resource-url public-key
 * timeout-ms strict theme>`: renders when connected and again when an attribute or
 * property changes (`el.publicKey = [...]`), never twice for the same
 * options. `state` is the state rendered (`checking` before); an
 * `x402-verdict:state` event (detail: `{ state }`) fires when it settles.
 */
// Outside a browser (server rendering), importing the package defines nothing.
class VerdictBadge extends (globalThis.HTMLElement ?? Object) {
  static observedAttributes = FIELDS.map(attributeOf);

  static {
    for (const field of FIELDS) {
      Object.defineProperty(this.prototype, field, {
        configurable: true,
        get() {
          return this.#properties[field];
        },
        set(value) {
          if (value === undefined || value === null) delete this.#properties[field];
          else this.#properties[field] = value;
          this.#schedule();
        },
      });
    }
  }

  #properties = {};
  #state = "checking";
  #key;
  #pending;
  #scheduled = false;

  constructor() {
    super();
    // Properties a framework set before the element was defined.
    for (const field of FIELDS) {
      if (Object.hasOwn(this, field)) {
        const value = this[field];
        delete this[field];
        this[field] = value;
      }
    }
  }

  /** The state rendered: `checking`, `human-backed`, `revoked` or `unknown`. */
  get state() {
    return this.#state;
  }

  connectedCallback() {
    this.#schedule();
  }

  attributeChangedCallback() {
    this.#schedule();
  }

  /** Renders once for a burst of changes (a framework sets one attribute at a time). */
  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (!this.isConnected) return;
      const options = { ...fromAttributes(this, ""), ...this.#properties };
      // A new theme is drawn at once; only a new lookup renders again.
      const { theme, ...lookup } = options;
      const key = keyOf(lookup);
      if (key === this.#key && this.firstElementChild?.shadowRoot) {
        setTheme(this.firstElementChild, theme);
        return;
      }
      this.#key = key;
      this.#state = "checking";
      const pending = (this.#pending = renderBadge(this, options));
      pending.then((state) => {
        if (this.#pending !== pending) return;
        this.#state = state;
        this.dispatchEvent(new CustomEvent(STATE_EVENT, { bubbles: true, composed: true, detail: { state } }));
      });
    });
  }
}

try {
  if (!globalThis.customElements.get("x402-verdict-badge")) customElements.define("x402-verdict-badge", VerdictBadge);
} catch {
  // No custom elements in this environment: renderBadge and renderAll still work.
}
