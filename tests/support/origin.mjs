// A web site (or a CDN) on its own loopback port, so that pages under test
// run on another origin than the verification service: pages from memory,
// folders from disk (the built package, a Vite build), or everything passed
// on to another server (`upstream`, as a front of the reference service),
// with the headers, delays and failures a test asks for. Every page it
// serves starts with a probe (/__probe.js): it records the page's warnings,
// errors and CSP violations from the first moment, in every engine (classic
// WebDriver has no console events), and runs the test's init functions
// (`init`).
import { createServer, get } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json" };
/** Headers of one connection, or of a body the probe may lengthen: never passed on. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length"]);
// Unref'd: a delayed answer never keeps a finished test run alive.
const sleep = (ms) => new Promise((done) => setTimeout(done, ms).unref());

/** What the probe records, in window.__seen: console warnings, uncaught errors, CSP violations. */
function probe() {
  const seen = (window.__seen = { warnings: [], errors: [], violations: [] });
  const warn = console.warn;
  console.warn = function (...args) {
    seen.warnings.push(args.map(String).join(" "));
    return warn.apply(this, args);
  };
  addEventListener("error", (e) => seen.errors.push(String(e.error ?? e.message)));
  addEventListener("unhandledrejection", (e) => seen.errors.push(String(e.reason)));
  document.addEventListener("securitypolicyviolation", (e) => seen.violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI }));
}

/**
 * An init function: the page's main thread kept busy five sixths of the time from its start
 * (50 ms of work, 10 ms free, over and over), as a slow phone's would be, in every engine.
 */
export function slowMainThread() {
  const busy = () => {
    const end = performance.now() + 50;
    while (performance.now() < end);
    setTimeout(busy, 10);
  };
  busy();
}

/** What the probe recorded in `page` (any engine's). */
export const seen = (page) => page.evaluate(() => window.__seen);

/**
 * The URLs containing `part` that the page in `page` fetched, in order (its
 * Resource Timing entries: an answer from the browser's HTTP cache counts too).
 */
export const fetched = (page, part) => page.evaluate((p) => performance.getEntriesByType("resource").map((e) => e.name).filter((n) => n.includes(p)), part);

/**
 * How many URLs containing `part` the page in `page` fetched, read once `expected` are listed (or
 * after 10 s), and again 300 ms later: Firefox lists a fetch a moment after its answer was read,
 * and one more than expected must be seen too.
 */
export async function fetchedCount(page, part, expected) {
  for (const until = Date.now() + 10000; (await fetched(page, part)).length < expected && Date.now() < until;) await page.waitForTimeout(100);
  await page.waitForTimeout(300);
  return (await fetched(page, part)).length;
}

let modules = 0;
/**
 * Runs `fn(arg)` in `page` as a module script of the page, served by `site`
 * (the page's origin), under the page's Content-Security-Policy; resolves to
 * its value (as JSON), rejects with its error. The page's own realm in every
 * engine: a WebDriver script runs in a sandbox of its own in Firefox, where
 * import() loads a second copy of a module, on the sandbox's globals.
 */
export async function runModule(page, site, fn, arg) {
  const name = `__module${++modules}`;
  site.scripts.set(`/${name}.js`, `window.${name} = Promise.resolve(${JSON.stringify(arg ?? null)}).then(${fn})
  .then((value) => ({ value }), (e) => ({ error: String((e && e.stack) || e) }));`);
  await page.evaluate((n) => {
    const script = document.createElement("script");
    script.type = "module";
    script.src = `/${n}.js`;
    document.head.append(script);
  }, name);
  await page.waitForFunction((n) => n in window, name, { timeout: 30000 });
  const { value, error } = await page.evaluate((n) => window[n], name);
  if (error) throw new Error(error);
  return value;
}

/**
 * Starts a site; resolves to { url, pages, scripts, folders, csp, cors, delays, statuses, requests, stop }.
 * Mutate `pages` (path → HTML), `scripts` (path → JavaScript), `folders` (path prefix → directory), `csp` (the
 * pages' Content-Security-Policy), `cors` (Access-Control-Allow-Origin: * on
 * every answer), `delays` and `statuses` (path → milliseconds, HTTP status),
 * `proxy` (a service whose /v0/ paths the site passes on, as a same-origin
 * deployment would), `upstream` (a server every other path is passed on
 * to, its answers' headers kept and its pages given the probe), `init` ([function, argument] pairs the probe runs
 * first), `probe` (the probe's URL: another origin's where the page's CSP
 * allows scripts from there only; null for pages without it).
 */
export async function startOrigin() {
  const site = { pages: new Map(), scripts: new Map(), folders: new Map(), csp: null, cors: false, proxy: null, upstream: null, delays: new Map(), statuses: new Map(), requests: [], init: [], probe: "/__probe.js" };
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    site.requests.push(path);
    const headers = site.cors ? { "Access-Control-Allow-Origin": "*" } : {};
    const send = (status, body, type) => {
      res.writeHead(status, { ...headers, ...(type ? { "Content-Type": type } : {}) });
      res.end(body);
    };
    if (path === "/favicon.ico") return send(204, "");
    if (path === "/__probe.js") {
      const init = site.init.map(([fn, arg]) => `(${fn})(${JSON.stringify(arg ?? null)});`);
      return send(200, [`(${probe})();`, ...init].join("\n"), TYPES[".js"]);
    }
    if (site.delays.has(path)) await sleep(site.delays.get(path));
    if (site.scripts.has(path)) return send(200, site.scripts.get(path), TYPES[".js"]);
    if (site.proxy && path.startsWith("/v0/")) return forward(site.proxy, req, res, headers);
    if (site.statuses.has(path)) return send(site.statuses.get(path), "not here", "text/plain");
    if (site.pages.has(path)) {
      if (site.csp) headers["Content-Security-Policy"] = site.csp;
      return send(200, withProbe(site.pages.get(path)), TYPES[".html"]);
    }
    for (const [prefix, dir] of site.folders) {
      if (!path.startsWith(prefix)) continue;
      const file = normalize(join(dir, path.slice(prefix.length) || "index.html"));
      if (!file.startsWith(normalize(dir))) break;
      try {
        const body = await readFile(file);
        if (extname(file) === ".html") return send(200, withProbe(body.toString()), TYPES[".html"]);
        return send(200, body, TYPES[extname(file)] ?? "application/octet-stream");
      } catch {
        break;
      }
    }
    if (site.upstream) return forward(site.upstream, req, res, headers);
    send(404, "no such file", "text/plain");
  });
  /** Passes the request on to `upstream`; its answer comes back with its headers (and the probe, in a page). */
  const forward = (upstream, req, res, headers) => {
    // A connection per request (no keep-alive), so that the service stops at once.
    get(upstream + req.url, { agent: false }, (answer) => {
      const chunks = [];
      answer.on("data", (c) => chunks.push(c));
      answer.on("end", () => {
        const kept = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
        const body = Buffer.concat(chunks);
        res.writeHead(answer.statusCode, { ...kept, ...headers });
        res.end(/^text\/html/.test(kept["content-type"] ?? "") ? withProbe(body.toString()) : body);
      });
    }).on("error", () => {
      res.writeHead(502, { "Content-Type": "text/plain" });
      res.end("no service");
    });
  };
  /** The page with the probe's script tag first in its head. */
  const withProbe = (html) => {
    if (!site.probe) return html;
    const tag = `<script src="${site.probe}"></script>`;
    return /<head>/i.test(html) ? html.replace(/<head>/i, (head) => head + tag) : tag + html;
  };
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  site.url = `http://127.0.0.1:${server.address().port}`;
  site.stop = () => new Promise((done) => {
    server.closeAllConnections?.();
    server.close(done);
  });
  return site;
}
