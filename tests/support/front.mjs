// A front for a loopback HTTP service, as a deployment would put one: TLS
// (a self-signed certificate for 127.0.0.1 made by openssl, which the
// browsers of tests/support/browser.mjs accept) over HTTP/2 (h2 only) or
// HTTP/1.1 only. Every request is passed on as it came, after `delayMs`; every
// answer is passed back without the headers HTTP/2 forbids, and without
// Timing-Allow-Origin when `timingAllowed` is false. It counts the requests
// in flight at once (`inFlight.most`).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { constants, createSecureServer } from "node:http2";
import { createServer } from "node:https";
import { join } from "node:path";

/** Headers of one HTTP/1.1 connection, which HTTP/2 forbids. */
const HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"]);
const ROOT = new URL("../../", import.meta.url).pathname;

/** A self-signed certificate for 127.0.0.1 (made once): { key, cert }. */
function certificate() {
  const dir = join(ROOT, ".work/front");
  const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
  mkdirSync(dir, { recursive: true });
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert,
    "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

/**
 * Starts a front for `target` (an http:// origin) on `port` (0: any), over `protocol` ("h2" or "http/1.1");
 * resolves to { url, inFlight, timingAllowed, delayMs, stop } (`timingAllowed` and `delayMs` may be changed
 * while it runs).
 */
export async function startFront(target, { protocol = "h2", port = 0, delayMs = 0, timingAllowed = true } = {}) {
  const front = { inFlight: { now: 0, most: 0 }, timingAllowed, delayMs };
  /** Passes one request on: its method, path, headers and body; calls `answer(status, headers, body stream)`. */
  const pass = async (method, path, headers, body, answer) => {
    front.inFlight.most = Math.max(front.inFlight.most, ++front.inFlight.now);
    await new Promise((done) => setTimeout(done, front.delayMs));
    const upstream = request(new URL(path, target), { method, headers }, (response) => {
      const kept = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !HOP.has(name) && (front.timingAllowed || name !== "timing-allow-origin")));
      response.on("end", () => front.inFlight.now--);
      answer(response.statusCode, kept, response);
    });
    upstream.on("error", () => {
      front.inFlight.now--;
      answer(502, {}, null);
    });
    body.pipe(upstream);
  };
  const server = protocol === "h2"
    // Streams enough for any page of the tests: the browser, not the front, is measured.
    ? createSecureServer({ ...certificate(), settings: { maxConcurrentStreams: 1000 } }).on("stream", (stream, headers) => {
      stream.on("error", () => {});
      const forwarded = Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith(":")));
      pass(headers[constants.HTTP2_HEADER_METHOD], headers[constants.HTTP2_HEADER_PATH], forwarded, stream, (status, kept, body) => {
        if (stream.destroyed) return body?.resume();
        stream.respond({ ...kept, [constants.HTTP2_HEADER_STATUS]: status });
        body ? body.pipe(stream) : stream.end();
      });
    })
    : createServer(certificate(), (incoming, outgoing) => {
      const forwarded = Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => !HOP.has(name)));
      pass(incoming.method, incoming.url, forwarded, incoming, (status, kept, body) => {
        outgoing.writeHead(status, kept);
        body ? body.pipe(outgoing) : outgoing.end();
      });
    });
  await new Promise((ok) => server.listen(port, "127.0.0.1", ok));
  front.url = `https://127.0.0.1:${server.address().port}`;
  front.stop = () => new Promise((ok) => {
    server.close(() => ok());
    server.closeAllConnections?.();
    for (const session of sessions) session.destroy();
  });
  const sessions = new Set();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  return front;
}
