// A TypeScript seller for the Python package's tests (test_staple.py): the
// official @x402/express 2.27 middleware on `port`, with x402-verdict/seller's
// verdictExtension registered (the built agent package), stapling the
// verdicts a verdictCache keeps of `baseUrl`'s answers under `publicKey`.
// Prints its URL, and stops when its stdin closes.
//
//     node tests/python/ts_seller.mjs PORT BASE_URL PUBLIC_KEY
import { AGENT_PACKAGE } from "../support/package.mjs";
import { startX402Servers } from "../support/x402-servers.mjs";

const { verdictCache, verdictExtension } = await import(`${AGENT_PACKAGE}seller.js`);
const [port, baseUrl, publicKey] = process.argv.slice(2);
const cache = verdictCache({ baseUrl, publicKey });
const server = await startX402Servers({ port: Number(port), extension: verdictExtension(cache) });
console.log(server.url);
process.stdin.resume();
process.stdin.on("end", async () => {
  cache.clear();
  await server.stop();
});
