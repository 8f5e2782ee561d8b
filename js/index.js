// The package's entry: the x402 verification badge's JavaScript API.
//
//   import { renderBadge, lookupVerdict, renderAll } from "x402-verdict-badge";
//
// It initialises itself on first use (call the default export, `init`, only
// to load the wasm from another URL). When the wasm cannot be fetched,
// compiled or instantiated, it runs the same Rust translated to JavaScript
// (./x402_verdict_badge_js.js, every check included, signatures too), with
// one console.warn saying why and what to change. endpointsFromPaymentRequired
// runs on a small wasm of its own (./x402_verdict_challenge.js), loaded from
// its first call on. Every function returns a promise that settles and never
// rejects. It also defines the <x402-verdict-badge> element. Its words and spellings are the core's
// (./words.js, written by the build from crates/core/src/browser.rs).
// A namespace: in embed.js, this is the script tag's glue, whose wasm has no lookupVerdict.
import * as wasm from "./x402_verdict_badge.js";
import { inTurn, mount, setTheme, show } from "./badge.js";
import { dropEarly, requestEarly } from "./early.js";
import { ATTRIBUTES_KEY, CHECKING, NOT_LOADED, NOT_RUN, OPTION_NAMES, REQUEST_INIT, RETRY_REASONS, UNKNOWN, VERDICT_URL, WARNINGS } from "./words.js";

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

/** The same Rust translated to JavaScript (next to this file, or to embed.js), instantiated once. */
let translation;
/**
 * Why the wasm at `url` did not load for `error` and what to change, and
 * what runs instead: ./explain.js, loaded only now (beside the JavaScript
 * build), so that pages where the wasm runs never download those words;
 * where it cannot load either, the error itself.
 */
function explained(error, url) {
  return import("./explain.js").then(
    async (words) => [await words.explain(error, url), words.INSTEAD],
    () => [`${url}: ${error?.message ?? error}`],
  );
}

/** The JavaScript build, in place of a wasm (at `url`) that did not load for `error`; one warning says why. */
async function onJavaScript(error, url) {
  const why = explained(error, url);
  translation ??= import("./x402_verdict_badge_js.js").then((js) => {
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
 * endpointsFromPaymentRequired on the wasm: the challenge reader is a wasm of
 * its own (x402_verdict_challenge, next to this file), loaded once from the
 * first call on, so that a page of badges never downloads it; where it
 * cannot load, the JavaScript build reads the challenge.
 */
let challengeReader;
// A literal, as the badge's, for bundlers.
const challengeUrl = () => new URL("x402_verdict_challenge_bg.wasm", import.meta.url);
function challengeWasm() {
  challengeReader ??= import("./x402_verdict_challenge.js").then(async (reader) => {
    reader.initSync({ module: await compiled(fetched(challengeUrl())) });
    return reader;
  });
  return challengeReader;
}
/** Calls the reader's `name` (endpointsFromPaymentRequired or endpointsFromDiscovery) on `input`. */
function readWith(name, input) {
  return challengeWasm()
    .catch((error) => onJavaScript(error, challengeUrl()))
    .then((reader) => reader[name](input));
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

/** Starts loading the engine, from `input` when given. */
function start(input) {
  engine ??= load(input).finally(() => {
    loaded = true;
    // After the lookups waiting for the engine have taken their requests:
    // behind the placeholders still to draw (each lookup renders once its
    // own is drawn), then a task later (the lookups' microtasks).
    inTurn(() => setTimeout(() => dropEarly()));
  });
  return engine;
}

/** The engine in use: the wasm build once it loads, else its JavaScript translation. */
function loadedEngine() {
  return start();
}

/**
 * While the engine loads, starts the verdict request the options ask for
 * (js/early.js), at the URL the core states, so that the request and the
 * wasm download overlap; the engine takes it when it builds that very URL.
 * `ahead`: the lookup still waits for its turn (see pump); without it, the
 * lookup begins now, and a request sent ahead for it counts its timeout
 * from now. Returns the URL asked for. Options that are not plain strings
 * start nothing: the engine decides.
 */
function requestWhileLoading(options, ahead = false) {
  if (loaded) return;
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

/**
 * Loads the badge's wasm, from `input` when given (a URL, a Response, its
 * bytes or a compiled module), else from next to this file. Optional: every
 * function loads it on first use. Resolves when the badge is ready (on the
 * wasm, or on its JavaScript translation when the wasm cannot run); never
 * rejects.
 */
export default function init(input) {
  return start(input?.module_or_path ?? input).then(() => undefined, () => undefined);
}

/** An option, or undefined when it cannot be read (the engine names the problem). */
function option(options, name) {
  try {
    return options?.[name] ?? options?.[ATTRIBUTES]?.[name];
  } catch {
    return undefined;
  }
}

/** A shallow copy, so that options are read when the call is made. */
function snapshot(options) {
  try {
    return options && typeof options === "object" && !Array.isArray(options) ? { ...options } : options;
  } catch {
    return options;
  }
}

// ---- the request budget ----

/** Lookups running at once per service: the browser's 6 connections per
 * host on HTTP/1.1 (so that no request of a running lookup waits in the
 * browser's queue, where its timeout would run), or 4 when the service is
 * the page's own origin, whose connections the page needs too
 * (docs/performance.md, "The request budget"). The others wait here, and the
 * timeout of each covers it from its turn (a request may have been sent
 * ahead of it: sendAhead). */
const BUDGET = 6;
const BUDGET_ON_PAGE_ORIGIN = 4;
const services = new Map();

/** The protocols whose requests share one connection. */
const MULTIPLEXED = ["h2", "h3"];
/** The budget of a service that answers over one of them: the concurrent
 * streams HTTP/2 servers are asked to allow at least (RFC 9113, 6.5.2), so
 * that none waits in the browser's queue. */
const MULTIPLEXED_BUDGET = 100;

/** The budget of the service at `origin` that answers over `protocol` (undefined while unknown). */
function budgetOf(origin, protocol) {
  if (MULTIPLEXED.includes(protocol)) return MULTIPLEXED_BUDGET;
  return origin === location.origin ? BUDGET_ON_PAGE_ORIGIN : BUDGET;
}

/** Where the tab keeps the protocol each service last answered over, for its next pages (sessionStorage). */
const PROTOCOLS_KEY = "x402-verdict.protocols";

/**
 * The protocol the service at `origin` is known to answer over before the
 * page asked it anything: the one this tab's last page saw, or the page's
 * own when the service is the page's origin.
 */
function knownProtocol(origin) {
  try {
    return JSON.parse(sessionStorage.getItem(PROTOCOLS_KEY))?.[origin] ?? (origin === location.origin ? performance.getEntriesByType("navigation")[0].nextHopProtocol : undefined);
  } catch {
    // No storage for this page (a sandboxed frame, storage blocked), or no navigation timing: not known.
  }
}

/** Sets the service's budget by the protocol one of its answers came over, and keeps that for the tab's next pages. */
function answeredOver(service, origin, protocol) {
  if (protocol === service.protocol) return;
  service.protocol = protocol;
  service.budget = budgetOf(origin, protocol);
  pump(service);
  try {
    const seen = JSON.parse(sessionStorage.getItem(PROTOCOLS_KEY)) ?? {};
    seen[origin] = protocol;
    sessionStorage.setItem(PROTOCOLS_KEY, JSON.stringify(seen));
  } catch {
    // Not kept: the next page learns it anew.
  }
}

let watching = false;
/**
 * Follows the protocol each service answers over (the resource timing
 * entries' nextHopProtocol, which a browser shows for another origin when
 * the service sends Timing-Allow-Origin): over HTTP/2 or HTTP/3 its requests
 * share one connection, and six at a time would only hold them back, so
 * its budget is MULTIPLEXED_BUDGET; over HTTP/1.1 it is BUDGET again
 * (docs/performance.md, "The request budget"). The tab's next pages start
 * from the protocol last seen. Where it cannot be seen, the budget stays.
 */
function watchProtocols() {
  if (watching) return;
  watching = true;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (!entry.nextHopProtocol) continue;
        for (const [origin, service] of services) {
          if (entry.name.startsWith(`${origin}/`)) answeredOver(service, origin, entry.nextHopProtocol);
        }
      }
    }).observe({ type: "resource", buffered: true });
  } catch {
    // No resource timing: every service keeps its budget.
  }
}

/** The service's origin; "" when the options name none (nothing is fetched). */
function serviceOf(options) {
  try {
    const base = option(options, "baseUrl");
    return base ? new URL(base, document.baseURI).origin : "";
  } catch {
    return "";
  }
}

/**
 * Runs `start` (which makes one lookup) within its service's budget: at once
 * when a lookup of the same endpoint is running (they share its request) or
 * a slot is free, else in turn. While `ready()` is false (a lazy badge out
 * of view) it waits without taking a slot. Resolves to what `start` gives.
 */
function withinBudget(options, start, ready = () => true) {
  const origin = serviceOf(options);
  if (!origin) return Promise.resolve().then(start);
  let service = services.get(origin);
  if (!service) {
    const protocol = knownProtocol(origin);
    const budget = budgetOf(origin, protocol);
    const ahead = origin === location.origin || protocol ? 0 : MULTIPLEXED_BUDGET - budget;
    services.set(origin, (service = { active: 0, running: new Map(), queue: [], protocol, budget, ahead }));
    watchProtocols();
  }
  const key = lookupKey(options);
  return new Promise((resolve) => {
    service.queue.push({ key, start, ready, resolve, options });
    pump(service);
  });
}

/**
 * Sends the request of a lookup that waits for its turn ahead of it, while
 * the engine loads and the service's protocol is not known: over HTTP/2 or
 * HTTP/3 the page then asks for every verdict at once, as a plain fetch
 * would, instead of learning the protocol from the first answers, a round
 * trip later. Over HTTP/1.1 the browser holds such a request in its own
 * queue, and its lookup's timeout still counts from the lookup's turn (the
 * Rust counts it from when it takes the request). So that no more than
 * MULTIPLEXED_BUDGET requests are in flight, the lookups running included;
 * never for the page's own origin, whose protocol is known. The request
 * keeps its place in the browser's queue behind those of the lookups that
 * began before it (a microtask, as their starts). A lookup whose badge
 * leaves the view before its turn (`ready` false) gives its request up, as
 * if never sent: its answer would be old when the badge comes back.
 */
function sendAhead(service, job, ready) {
  if (!ready) {
    if (!job.sent) return;
    service.ahead++;
    job.sent.then((url) => url && dropEarly(url));
    job.sent = undefined;
  } else if (!loaded && !service.protocol && !job.sent && service.ahead) {
    service.ahead--;
    job.sent = Promise.resolve().then(() => requestWhileLoading(job.options, true));
  }
}

/** Starts every waiting lookup that may start, in the order they came. */
function pump(service) {
  for (const job of [...service.queue]) {
    const shared = service.running.has(job.key);
    const ready = job.ready();
    if (!ready || (!shared && service.active >= service.budget)) {
      sendAhead(service, job, ready);
      continue;
    }
    service.queue.splice(service.queue.indexOf(job), 1);
    if (!shared) service.active++;
    service.running.set(job.key, (service.running.get(job.key) ?? 0) + 1);
    const done = () => {
      const left = service.running.get(job.key) - 1;
      if (left) {
        service.running.set(job.key, left);
      } else {
        service.running.delete(job.key);
        service.active--;
      }
      pump(service);
    };
    const running = Promise.resolve().then(job.start);
    running.then(done, done);
    job.resolve(running);
  }
}

// ---- lazy badges ----

/** How far outside the viewport a lazy badge starts its lookup. */
const MARGIN = "200px";
/** A badge that ended unknown for want of an answer (RETRY_REASONS) tries again when it comes back into view, at most this often. */
const RETRY_AFTER_MS = 5000;
const visible = new WeakMap();
const appearing = new WeakMap();
const retries = new WeakMap();
let observer;

function onIntersect(entries) {
  for (const entry of entries) {
    visible.set(entry.target, entry.isIntersecting);
    if (!entry.isIntersecting) continue;
    appearing.get(entry.target)?.();
    appearing.delete(entry.target);
    retries.get(entry.target)?.();
  }
  services.forEach(pump);
}

/** Lazy badges whose request left before their first intersection report (at most BUDGET_ON_PAGE_ORIGIN, within every budget). */
let early = 0;
/** A renderAll of a whole document of at most this many badges, while the
 * engine loads, looks where they lie (one layout of a small page); a
 * listing's, and badges added later, wait for the intersection reports
 * instead, never forcing a layout of its rows. */
const LOOK_EARLY = 12;

/** Whether `element` lies within the margin of the viewport now (measured: for the first few badges only). */
function inViewNow(element) {
  const box = element.getBoundingClientRect();
  const margin = parseInt(MARGIN, 10);
  return box.bottom >= -margin && box.top <= innerHeight + margin && box.right >= -margin && box.left <= innerWidth + margin;
}

/** Resolves when `element` first comes within the margin of the viewport. */
function nearView(element) {
  return new Promise((resolve) => {
    try {
      // Observed even when known to be in view: it may leave, and come back (retries).
      observer ??= new IntersectionObserver(onIntersect, { rootMargin: MARGIN });
      observer.observe(element);
    } catch {
      visible.set(element, true);
    }
    if (visible.get(element)) resolve();
    else appearing.set(element, resolve);
  });
}

/**
 * Renders into `container` within the budget. With `loading: "lazy"` it
 * waits until the container comes near the viewport (drawing nothing before
 * then: a page of a thousand badges does the work of the few in view), and
 * a lookup still waiting for its turn when the badge leaves the view waits
 * until it is back. `again` renders anew: called when a lazy badge that
 * ended unknown by a timeout or network error comes back into view, at most
 * every RETRY_AFTER_MS. `look`: see LOOK_EARLY.
 */
function render(container, options, again, look = false) {
  const copy = snapshot(options);
  if (option(copy, "loading") !== "lazy" || !container || container.nodeType !== 1) return renderNow(container, copy);
  if (look && !loaded && early < BUDGET_ON_PAGE_ORIGIN && inViewNow(container)) {
    // In view while the engine loads (a page's first badges): its request
    // leaves now, and it renders as soon as it can, not after the first
    // intersection report, a frame later.
    early++;
    visible.set(container, true);
    requestWhileLoading(copy);
  }
  const ready = () => visible.get(container) !== false;
  return nearView(container).then(() => renderNow(container, copy, ready)).then((state) => {
    const host = container.firstElementChild;
    if (RETRY_REASONS.includes(host?.getAttribute("data-reason"))) {
      const ended = Date.now();
      retries.set(container, () => {
        if (Date.now() - ended < RETRY_AFTER_MS) return;
        retries.delete(container);
        again();
      });
    }
    return state;
  });
}

/**
 * Draws the placeholder (at once, or in a later frame when many badges are
 * drawn at once) and looks the endpoint up within the budget: the lookup
 * starts at once (while the engine loads, its request leaves then), and the
 * engine renders the answer once the placeholder is drawn.
 */
function renderNow(container, copy, ready) {
  const placeholder = new Promise((drawn) => inTurn(() => {
    const host = mount(container, ...CHECKING);
    setTheme(host, option(copy, "theme"));
    retries.delete(container);
    drawn(host);
  }));
  return withinBudget(copy, () => {
    requestWhileLoading(copy);
    return Promise.all([loadedEngine(), placeholder]).then(([e]) => e.renderBadge(container, copy));
  }, ready)
    .catch(() => placeholder.then((host) => {
      show(host, UNKNOWN, NOT_LOADED.label, NOT_LOADED.hover, NOT_LOADED.name);
      return UNKNOWN;
    }));
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
 * endpoints as endpointsFromPaymentRequired gives a challenge's. Never rejects.
 */
export function endpointsFromDiscovery(input) {
  return read("endpointsFromDiscovery", input).catch(() => ({ items: [], reason: NOT_LOADED.listing }));
}

/** Hands a copy of `input` to the challenge reader's `name`, on the wasm or the JavaScript build. */
function read(name, input) {
  let copy = input;
  try {
    copy = structuredClone(input);
  } catch {
    // Not cloneable (a function inside): the wasm reads it as it is, and says why it cannot.
  }
  // The reader's own wasm loads beside the badge's, not after it (unused,
  // and saying nothing, where the JavaScript build runs instead).
  if (typeof WebAssembly === "object") challengeWasm().catch(() => {});
  return loadedEngine().then((e) => (e[name] ? e[name](copy) : readWith(name, copy)));
}

// ---- options from attributes ----

const FIELDS = [...OPTION_NAMES, "theme", "loading"];
const attributeOf = (field) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const SELECTOR = "[data-x402-verdict]";

/** Marks the texts of options read from attributes, which the core reads (ATTRIBUTES_KEY). */
const ATTRIBUTES = Symbol.for(ATTRIBUTES_KEY);

/**
 * Options from attributes (`base-url`, … or, with the prefix, `data-base-url`,
 * …): `theme` and `loading` as they are, and the lookup's options as the
 * texts written, under ATTRIBUTES, for the core to read (where the options
 * themselves give no value, as an element's properties do).
 */
function fromAttributes(element, prefix) {
  const texts = {};
  const options = { [ATTRIBUTES]: texts };
  for (const field of FIELDS) {
    const value = element.getAttribute(prefix + attributeOf(field));
    if (value !== null) (OPTION_NAMES.includes(field) ? texts : options)[field] = value;
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

/** The key of the lookup the options ask for (their theme and loading aside; attribute texts included). */
function lookupKey(options) {
  return keyOf(OPTION_NAMES.map((name) => option(options, name)));
}

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
 */
export function renderAll(root = document, { loading = "eager" } = {}) {
  try {
    const elements = [...root.querySelectorAll(SELECTOR)];
    if (root.matches?.(SELECTOR)) elements.unshift(root);
    const look = root.nodeType === 9 && elements.length <= LOOK_EARLY;
    return Promise.all(elements.map((element) => renderOnce(element, { loading, ...fromAttributes(element, "data-") }, look)));
  } catch {
    return Promise.resolve([]);
  }
}

// ---- <x402-verdict-badge> ----

const STATE_EVENT = "x402-verdict:state";

/**
 * `<x402-verdict-badge base-url chain pay-to resource-url public-key
 * timeout-ms strict theme loading>`: renders when connected and again when an
 * attribute or property changes (`el.publicKey = [...]`), never twice for the
 * same options; lazily (when it comes near the viewport) unless
 * `loading="eager"`. `state` is the state rendered (`checking` before); an
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
      const options = { loading: "lazy", ...fromAttributes(this, ""), ...this.#properties };
      // A new theme is drawn at once; only a new lookup renders again.
      const key = lookupKey(options);
      if (key === this.#key && this.firstElementChild?.shadowRoot) {
        setTheme(this.firstElementChild, options.theme);
        return;
      }
      this.#key = key;
      this.#state = "checking";
      const pending = (this.#pending = render(this, options, () => {
        this.#key = undefined;
        this.#schedule();
      }));
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
