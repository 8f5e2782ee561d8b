// The request budget: how many lookups run at once per verification
// service, which wait, and which send their request ahead of their turn
// (docs/performance.md, "The request budget"). No DOM and no engine: what
// it needs of the page comes in as hooks, so that it runs (and is tested)
// in Node as in a browser.

/** Lookups running at once per service: the browser's 6 connections per
 * host on HTTP/1.1 (so that no request of a running lookup waits in the
 * browser's queue, where its timeout would run), or 4 when the service is
 * the page's own origin, whose connections the page needs too. The others
 * wait here, and the timeout of each covers it from its turn (a request may
 * have been sent ahead of it: sendAhead). */
const BUDGET = 6;
export const BUDGET_ON_PAGE_ORIGIN = 4;

/** The protocols whose requests share one connection. */
const MULTIPLEXED = ["h2", "h3"];
/** The budget of a service that answers over one of them: the concurrent
 * streams HTTP/2 servers are asked to allow at least (RFC 9113, 6.5.2), so
 * that none waits in the browser's queue. */
const MULTIPLEXED_BUDGET = 100;

/** Where the tab keeps the protocol each service last answered over, for its next pages (sessionStorage). */
const PROTOCOLS_KEY = "x402-verdict.protocols";

/**
 * A budget for the lookups of one page (its arguments in order, not an
 * object, so that the minifier shortens their names: the script tag's
 * bytes count):
 * @param {string | undefined} pageOrigin the page's origin;
 * @param {(options) => string} serviceOf the origin of the service a lookup asks ("" for none: it runs at once);
 * @param {(options) => unknown} lookupKey equal for two lookups of one endpoint (they share one request);
 * @param {() => boolean} isLoaded whether the engine has loaded (no request is sent ahead after);
 * @param {(options) => string | undefined} sendAhead sends a waiting lookup's request ahead of its turn, returns its URL;
 * @param {(url: string) => void} giveUp abandons a request sent ahead whose lookup will not have its turn soon.
 */
export function requestBudget(pageOrigin, serviceOf, lookupKey, isLoaded, sendAhead, giveUp) {
  const services = new Map();

  /** The budget of the service at `origin` that answers over `protocol` (undefined while unknown). */
  function budgetOf(origin, protocol) {
    if (MULTIPLEXED.includes(protocol)) return MULTIPLEXED_BUDGET;
    return origin === pageOrigin ? BUDGET_ON_PAGE_ORIGIN : BUDGET;
  }

  /**
   * The protocol the service at `origin` is known to answer over before the
   * page asked it anything: the one this tab's last page saw, or the page's
   * own when the service is the page's origin.
   */
  function knownProtocol(origin) {
    try {
      return JSON.parse(sessionStorage.getItem(PROTOCOLS_KEY))?.[origin] ?? (origin === pageOrigin ? /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType("navigation")[0]).nextHopProtocol : undefined);
    } catch {
      // No storage for this page (a sandboxed frame, storage blocked, Node), or no navigation timing: not known.
    }
  }

  /**
   * Takes what the tab knew of `service`'s protocol before the page asked it
   * anything (knownProtocol), once: when one of its lookups would first wait
   * for its turn, so that a page whose lookups never wait reads no storage
   * before its first request (a tab's first read of sessionStorage costs a
   * round trip to the browser process).
   */
  function recall(service) {
    // Seen answering already, its protocol stands.
    if (service.recalled || service.protocol) return;
    service.recalled = true;
    const { origin } = service;
    const protocol = (service.protocol = knownProtocol(origin));
    service.budget = budgetOf(origin, protocol);
    service.ahead = origin === pageOrigin || protocol ? 0 : MULTIPLEXED_BUDGET - service.budget;
  }

  /** Sets the budget of the service at `origin` by the protocol one of its answers came over, and keeps that for the tab's next pages. */
  function answeredOver(origin, protocol) {
    const service = services.get(origin);
    if (!service || protocol === service.protocol) return;
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
   * the service sends Timing-Allow-Origin): over HTTP/2 or HTTP/3 its
   * requests share one connection, and six at a time would only hold them
   * back. Where it cannot be seen, the budget stays.
   */
  function watchProtocols() {
    if (watching) return;
    watching = true;
    try {
      new PerformanceObserver((list) => {
        for (const entry of /** @type {PerformanceResourceTiming[]} */ (list.getEntries())) {
          if (!entry.nextHopProtocol) continue;
          for (const origin of services.keys()) {
            if (entry.name.startsWith(`${origin}/`)) answeredOver(origin, entry.nextHopProtocol);
          }
        }
      }).observe({ type: "resource", buffered: true });
    } catch {
      // No resource timing: every service keeps its budget.
    }
  }

  /**
   * Sends the request of a lookup that waits for its turn ahead of it,
   * while the engine loads and the service's protocol is not known: over
   * HTTP/2 or HTTP/3 the page then asks for every verdict at once, as a
   * plain fetch would, instead of learning the protocol from the first
   * answers, a round trip later. Over HTTP/1.1 the browser holds such a
   * request in its own queue, and its lookup's timeout still counts from
   * the lookup's turn. So that no more than MULTIPLEXED_BUDGET requests are
   * in flight, the lookups running included; never for the page's own
   * origin, whose protocol is known. The request keeps its place behind
   * those of the lookups that began before it (a microtask, as their
   * starts). A lookup whose badge leaves the view before its turn (`ready`
   * false) gives its request up, as if never sent: its answer would be old
   * when the badge comes back.
   */
  function ahead(service, job, ready) {
    if (!ready) {
      if (!job.sent) return;
      service.ahead++;
      job.sent.then((url) => url && giveUp(url));
      job.sent = undefined;
    } else if (!isLoaded() && !service.protocol && !job.sent && service.ahead) {
      service.ahead--;
      job.sent = Promise.resolve().then(() => sendAhead(job.options));
    }
  }

  /** Starts every waiting lookup of `service` that may start, in the order they came. */
  function pump(service) {
    for (const job of [...service.queue]) {
      const shared = service.running.has(job.key);
      const ready = job.ready();
      if (!shared && service.active >= service.budget) recall(service);
      if (!ready || (!shared && service.active >= service.budget)) {
        ahead(service, job, ready);
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

  /**
   * Runs `start` (which makes one lookup) within its service's budget: at
   * once when a lookup of the same endpoint is running (they share its
   * request) or a slot is free, else in turn. While `ready()` is false (a
   * lazy badge out of view) it waits without taking a slot. Resolves to
   * what `start` gives.
   */
  function withinBudget(options, start, ready = () => true) {
    const origin = serviceOf(options);
    if (!origin) return Promise.resolve().then(start);
    let service = services.get(origin);
    if (!service) {
      // The protocol is not known until recalled or seen; no request is sent ahead before then.
      services.set(origin, (service = { origin, active: 0, running: new Map(), queue: [], budget: budgetOf(origin), ahead: 0 }));
      // A task later, behind the lookups that start now: the answers' timing entries are buffered until then.
      setTimeout(watchProtocols);
    }
    const key = lookupKey(options);
    return new Promise((resolve) => {
      service.queue.push({ key, start, ready, resolve, options });
      pump(service);
    });
  }

  /** Starts what may start now at every service (a lazy badge came into view). */
  const pumpAll = () => services.forEach(pump);

  return { withinBudget, pumpAll, answeredOver };
}
