// A web site (or a CDN) on its own loopback port, so that pages under test
// run on another origin than the verification service: pages from memory,
// folders from disk (the built package, a Vite build), with the headers,
// delays and failures a test asks for. Every page it serves starts with a
// probe (/__probe.js): it records the page's warnings, errors and CSP
// violations from the first moment, in every engine (classic WebDriver has
// no console events), and runs the test's init functions (`init`).
import { createServer, get } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json" };
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

/** What the probe recorded in `page` (any engine's). */
export const seen = (page) => page.evaluate(() => window.__seen);

/**
 * Starts a site; resolves to { url, pages, folders, csp, cors, delays, statuses, requests, stop }.
 * Mutate `pages` (path → HTML), `folders` (path prefix → directory), `csp` (the
 * pages' Content-Security-Policy), `cors` (Access-Control-Allow-Origin: * on
 * every answer), `delays` and `statuses` (path → milliseconds, HTTP status),
 * `proxy` (a service whose /v0/ paths the site passes on, as a same-origin
 * deployment would), `init` ([function, argument] pairs the probe runs
 * first), `probe` (the probe's URL: another origin's where the page's CSP
 * allows scripts from there only; null for pages without it).
 */
export async function startOrigin() {
  const site = { pages: new Map(), folders: new Map(), csp: null, cors: false, proxy: null, delays: new Map(), statuses: new Map(), requests: [], init: [], probe: "/__probe.js" };
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
    if (site.proxy && path.startsWith("/v0/")) {
      // A connection per request (no keep-alive), so that the service stops at once.
      return get(site.proxy + req.url, { agent: false }, (upstream) => {
        const chunks = [];
        upstream.on("data", (c) => chunks.push(c));
        upstream.on("end", () => send(upstream.statusCode, Buffer.concat(chunks), upstream.headers["content-type"]));
      }).on("error", () => send(502, "no service", "text/plain"));
    }
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
    send(404, "no such file", "text/plain");
  });
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
