// Badges rendered on the page: the "checking" placeholder drawn at once (or
// in a later frame when many are drawn together), the lookup run within its
// service's budget (js/badge/budget.js), and lazy badges, which look their
// endpoint up only when they come near the viewport (a page of a thousand
// badges does the work of the few in view) and try again when they come
// back after a failure (js/badge/retry.js).
import { mount, setTheme, show } from "../common/badge.js";
import { inTurn } from "./frames.js";
import { dropEarly } from "../common/early.js";
import { BUDGET_ON_PAGE_ORIGIN, requestBudget } from "./budget.js";
import { isLoaded, loadedEngine, requestWhileLoading } from "./engine.js";
import { lookupKey, option, serviceOf, snapshot } from "../common/options.js";
import { retryOnReturn } from "./retry.js";
import { CHECKING, NOT_LOADED, RETRY_REASONS, UNKNOWN } from "../generated/words.js";

/** The page's one budget: every lookup of the package's functions, elements and script tag runs within it. */
const budget = requestBudget(globalThis.location?.origin, serviceOf, lookupKey, isLoaded, (options) => requestWhileLoading(options, true), dropEarly);

/** Runs `start` (one lookup with `options`) within its service's budget; resolves to what it gives. */
export const withinBudget = budget.withinBudget;

/** How far outside the viewport a lazy badge starts its lookup. */
const MARGIN = "200px";
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
    if (retries.get(entry.target)?.()) retries.delete(entry.target);
  }
  budget.pumpAll();
}

/** Lazy badges whose request left before their first intersection report (at most BUDGET_ON_PAGE_ORIGIN, within every budget). */
let early = 0;
/** The page's first LOOK_EARLY lazy badges that a renderAll finds (at most
 * LOOK_EARLY at a time: a small page, or the few elements the parser or a
 * script just added) are measured where they lie as they are rendered, so
 * that those in view render at once, not after the first intersection
 * report, a frame later (a badge with its verdict inlined has no request
 * to wait for); every other badge, a listing's rows included, waits for
 * the intersection reports, never forcing a layout. */
export const LOOK_EARLY = 12;
/** Badges measured so far (at most LOOK_EARLY a page). */
let looked = 0;

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
 * then), and a lookup still waiting for its turn when the badge leaves the
 * view waits until it is back. `again` renders anew: called when a lazy
 * badge that ended unknown by a timeout or network error comes back into
 * view (js/badge/retry.js). `look`: see LOOK_EARLY.
 */
export function render(container, options, again, look = false) {
  const copy = snapshot(options);
  if (option(copy, "loading") !== "lazy" || !container || container.nodeType !== 1) return renderNow(container, copy);
  if (look && looked < LOOK_EARLY && early < BUDGET_ON_PAGE_ORIGIN && (looked++, inViewNow(container))) {
    // In view (one of a page's first badges): it renders as soon as it can,
    // and while the engine loads its request leaves now.
    early++;
    visible.set(container, true);
    requestWhileLoading(copy);
  }
  const ready = () => visible.get(container) !== false;
  return nearView(container).then(() => renderNow(container, copy, ready)).then((state) => {
    const retry = retryOnReturn(container.firstElementChild?.getAttribute("data-reason"), RETRY_REASONS, again);
    if (retry) retries.set(container, retry);
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
