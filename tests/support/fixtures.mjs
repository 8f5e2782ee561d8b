// A hostile verification service for the browser tests, on a loopback port.
// Every answer carries Access-Control-Allow-Origin: * so that only the
// behaviour under test (stalls, markup, size) differs from a real service.
import { createServer } from "node:http";

const NOW = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace(/\.\d+Z$/, "Z");

/** Starts the fixtures; resolves to { url, stop }. */
export async function startFixtures() {
  const counts = new Map();
  const open = new Set();
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const q = Object.fromEntries(url.searchParams);
    res.setHeader("Access-Control-Allow-Origin", "*");
    const json = (status, body) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    switch (url.pathname) {
      case "/stall/v0/verdict":
        open.add(res);
        return; // never answers
      case "/stall-body/v0/verdict":
        res.writeHead(200, { "Content-Type": "application/json" });
        res.write('{"verdict":');
        open.add(res);
        return; // headers and a little body, then nothing
      case "/huge/v0/verdict":
        res.writeHead(200, { "Content-Type": "application/json" });
        for (let i = 0; i < 160; i++) res.write(" ".repeat(64 * 1024));
        return res.end("{}");
      case "/hostile/v0/verdict": {
        const markup = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>"'&`;
        return json(200, {
          verdict: {
            v: 1, chain: q.chain, payTo: q.payTo, resourceUrl: q.resourceUrl, outcome: "human_backed",
            assuranceLevel: "G", verifiedAt: NOW(), recheckEveryHours: 24, issuedAt: NOW(),
            keyId: "0000000000000000", operator: markup, note: { html: markup },
          },
          signature: markup,
        });
      }
      case "/hostile-grade/v0/verdict":
        return json(200, {
          verdict: {
            v: 1, chain: q.chain, payTo: q.payTo, resourceUrl: q.resourceUrl, outcome: "human_backed",
            assuranceLevel: `<img src=x onerror="window.__pwned=3">`, verifiedAt: NOW(), recheckEveryHours: 24,
            issuedAt: NOW(), keyId: "0000000000000000",
          },
        });
      case "/count/v0/verdict": {
        counts.set(q.resourceUrl, (counts.get(q.resourceUrl) ?? 0) + 1);
        setTimeout(() => json(404, { error: "no attestation for this endpoint" }), 300);
        return;
      }
      case "/count":
        return json(200, { count: counts.get(q.resourceUrl) ?? 0 });
      default:
        return json(404, { error: "no such fixture" });
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise((done) => {
      for (const res of open) res.destroy();
      server.closeAllConnections?.();
      server.close(done);
    }),
  };
}
