// A healthy verification service for listing tests and benchmarks, on a
// loopback port: it answers every endpoint human-backed (unsigned) after
// `latency` ms, records each requested resourceUrl, and counts the most
// requests in flight at once. A resourceUrl added to `stallOnce` is never
// answered, once. `cacheControl`, when set, is sent with every answer.
import { createServer } from "node:http";

const at = (seconds) => new Date(Math.floor(Date.now() / 1000 + seconds) * 1000).toISOString().replace(/\.\d+Z$/, "Z");

/** Starts the service; resolves to { url, service, stop }. Reset `service` between runs with `reset()`. */
export async function startListingService() {
  const service = {
    latency: 0, requests: [], inFlight: 0, most: 0, stallOnce: new Set(), cacheControl: "",
    reset() { Object.assign(service, { requests: [], inFlight: 0, most: 0, cacheControl: "" }); },
  };
  const server = createServer((req, res) => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    const q = Object.fromEntries(new URL(req.url, "http://x").searchParams);
    service.requests.push(q.resourceUrl);
    if (service.stallOnce.delete(q.resourceUrl)) return; // never answers, once
    service.most = Math.max(service.most, ++service.inFlight);
    setTimeout(() => {
      service.inFlight--;
      res.writeHead(200, { "Content-Type": "application/json", ...(service.cacheControl && { "Cache-Control": service.cacheControl }) });
      res.end(JSON.stringify({ verdict: { v: 1, chain: q.chain, payTo: q.payTo, resourceUrl: q.resourceUrl, outcome: "human_backed", assuranceLevel: "G", verifiedAt: at(-3600), recheckEveryHours: 24, issuedAt: at(0), keyId: "0123456789abcdef" } }));
    }, service.latency);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    service,
    stop: () => new Promise((done) => {
      server.closeAllConnections();
      server.close(done);
    }),
  };
}
