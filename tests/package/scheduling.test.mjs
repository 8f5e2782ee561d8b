// The badge package's scheduling, in Node: the request budget (js/badge/budget.js)
// and the lazy badges' retry rule (js/badge/retry.js) run here without a browser,
// on the package's own sources, with lookups that settle when the test says.
// The browser tests (tests/e2e/listing.test.mjs, budget.test.mjs) measure
// the same in flight at a real service.
import { test } from "node:test";
import assert from "node:assert/strict";
import { requestBudget } from "../../js/badge/budget.js";
import { RETRY_AFTER_MS, retryOnReturn } from "../../js/badge/retry.js";

const PAGE = "https://shop.example";
const SERVICE = "https://verify.example";

/** A budget for a page at PAGE whose lookups name their service and endpoint as `{ service, endpoint }`. */
function budgetFor({ loaded = false } = {}) {
  const sent = [];
  const givenUp = [];
  const budget = requestBudget(
    PAGE,
    (options) => options.service ?? "",
    (options) => options.endpoint,
    () => loaded,
    (options) => {
      sent.push(options.endpoint);
      return `${options.service}/v0/verdict?${options.endpoint}`;
    },
    (url) => givenUp.push(url),
  );
  return { budget, sent, givenUp };
}

/** Starts `n` lookups of distinct endpoints at `service`; each settles when its `finish` is called. */
function lookups(budget, n, service = SERVICE, ready) {
  const running = new Set();
  let most = 0;
  const jobs = Array.from({ length: n }, (_, i) => {
    let finish;
    const settled = new Promise((resolve) => (finish = resolve));
    const result = budget.withinBudget({ service, endpoint: `e${i}` }, () => {
      running.add(i);
      most = Math.max(most, running.size);
      return settled.then(() => {
        running.delete(i);
        return i;
      });
    }, ready?.(i));
    return { finish: () => finish(), result };
  });
  return { jobs, running, most: () => most };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test("six lookups run at once at a service on another origin; the others start in order as those end", async () => {
  const { budget } = budgetFor({ loaded: true });
  const { jobs, running, most } = lookups(budget, 10);
  await turn();
  assert.deepEqual([...running], [0, 1, 2, 3, 4, 5]);
  jobs[2].finish();
  await turn();
  assert.deepEqual([...running].sort(), [0, 1, 3, 4, 5, 6]);
  for (const job of jobs) job.finish();
  assert.deepEqual(await Promise.all(jobs.map((job) => job.result)), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(most(), 6);
});

test("four at once at the page's own origin, whose connections the page needs too", async () => {
  const { budget } = budgetFor({ loaded: true });
  const { jobs, most } = lookups(budget, 8, PAGE);
  await turn();
  for (const job of jobs) job.finish();
  await Promise.all(jobs.map((job) => job.result));
  assert.equal(most(), 4);
});

test("lookups of one endpoint share a slot; lookups without a service run at once", async () => {
  const { budget } = budgetFor({ loaded: true });
  const { jobs, running } = lookups(budget, 6);
  await turn();
  let sharedRan = false;
  const shared = budget.withinBudget({ service: SERVICE, endpoint: "e0" }, () => (sharedRan = true));
  const alone = budget.withinBudget({}, () => "no service");
  await turn();
  assert.ok(sharedRan, "the same endpoint as a running lookup starts at once");
  assert.equal(running.size, 6);
  assert.equal(await alone, "no service");
  for (const job of jobs) job.finish();
  await shared;
});

test("once the service is seen answering over HTTP/2, every waiting lookup starts", async () => {
  const { budget } = budgetFor({ loaded: true });
  const { jobs, running } = lookups(budget, 30);
  await turn();
  assert.equal(running.size, 6);
  budget.answeredOver(SERVICE, "h2");
  await turn();
  assert.equal(running.size, 30);
  budget.answeredOver(SERVICE, "http/1.1");
  for (const job of jobs) job.finish();
  await Promise.all(jobs.map((job) => job.result));
});

test("the protocol the tab's last page saw is read only when a lookup would wait: then every waiting lookup starts over HTTP/2", async () => {
  const reads = [];
  globalThis.sessionStorage = { getItem: (key) => (reads.push(key), JSON.stringify({ [SERVICE]: "h2" })), setItem() {} };
  try {
    const { budget } = budgetFor({ loaded: true });
    const few = lookups(budget, 6);
    await turn();
    assert.equal(few.running.size, 6);
    assert.deepEqual(reads, [], "six lookups never wait: no storage read before their requests");
    const more = lookups(budget, 30);
    await turn();
    assert.deepEqual(reads, ["x402-verdict.protocols"], "read once");
    assert.equal(few.running.size + more.running.size, 36, "the tab saw HTTP/2: none waits");
    for (const job of [...few.jobs, ...more.jobs]) job.finish();
    await Promise.all([...few.jobs, ...more.jobs].map((job) => job.result));
  } finally {
    delete globalThis.sessionStorage;
  }
});

test("while the engine loads, waiting lookups send their requests ahead (up to 100 in flight), never at the page's origin", async () => {
  const { budget, sent } = budgetFor();
  const far = lookups(budget, 120);
  const near = lookups(budget, 10, PAGE);
  await turn();
  assert.equal(far.running.size, 6);
  assert.equal(sent.length, 94, "100 in flight: 6 running, 94 sent ahead");
  assert.deepEqual(sent.slice(0, 2), ["e6", "e7"], "in the order the lookups came");
  for (const job of [...far.jobs, ...near.jobs]) job.finish();
  await Promise.all([...far.jobs, ...near.jobs].map((job) => job.result));
  assert.equal(sent.length, 94, "none for the page's own origin");
});

test("a lookup out of view waits without a slot, and gives up a request sent ahead when it leaves the view", async () => {
  const { budget, sent, givenUp } = budgetFor();
  const inView = new Map();
  const { jobs, running } = lookups(budget, 8, SERVICE, (i) => () => inView.get(i) ?? true);
  await turn();
  assert.deepEqual([...running], [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(sent, ["e6", "e7"]);
  inView.set(7, false);
  jobs[0].finish();
  await turn();
  assert.deepEqual(givenUp, [`${SERVICE}/v0/verdict?e7`], "the request of the lookup that left the view");
  assert.ok(running.has(6) && !running.has(7), "the next in view takes the slot");
  inView.set(7, true);
  budget.pumpAll();
  await turn();
  assert.ok(!running.has(7), "no slot is free yet");
  assert.deepEqual(sent, ["e6", "e7", "e7"], "back in view, it sends its request ahead anew");
  for (const job of jobs) job.finish();
  await Promise.all(jobs.map((job) => job.result));
});

test("a lazy badge retries when back in view only after a failure that may pass, and only once RETRY_AFTER_MS have gone", () => {
  let now = 1_000;
  let tries = 0;
  const clock = () => now;
  assert.equal(retryOnReturn("revoked", ["timeout", "network_error"], () => tries++, clock), undefined);
  const retry = retryOnReturn("timeout", ["timeout", "network_error"], () => tries++, clock);
  now += RETRY_AFTER_MS - 1;
  assert.equal(retry(), false);
  assert.equal(tries, 0);
  now += 1;
  assert.equal(retry(), true);
  assert.equal(retry(), false, "once");
  assert.equal(tries, 1);
});
