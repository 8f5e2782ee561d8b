// Verdicts about one endpoint signed now with their transparency proofs
// (`cargo xtask log-fixture`: crates/xtask/src/log_fixture.rs), and a
// loopback service answering, under /<case>/, the case's document: the
// consumers' transparency tests read each case through their own base URL.
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The fixture for the endpoint: `publicKey`, `logKey`, `witnessKeys`, `documents` by case. */
export function logFixture(chain, payTo, resourceUrl) {
  const out = execFileSync("cargo", ["xtask", "log-fixture", chain, payTo, resourceUrl], { cwd: ROOT, encoding: "utf8" });
  return JSON.parse(out);
}

/** Serves `documents` on loopback, each under /<case>/; resolves to `{ url, stop }`. */
export async function serveDocuments(documents) {
  const server = createServer((request, response) => {
    const document = documents[request.url.split("/")[1]];
    response.writeHead(document ? 200 : 404, { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" });
    response.end(JSON.stringify(document ?? {}));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}`, stop: () => new Promise((ok) => server.close(ok)) };
}

/** The transparency options of `fixture` under `transparency` and `witnessQuorum`. */
export const logOptions = (fixture, transparency, witnessQuorum = 1) => ({
  logKey: fixture.logKey, witnessKeys: fixture.witnessKeys, witnessQuorum, transparency,
});

/** Each case: its document, the quorum, and the reason and words it is refused with under `required` (none: human-backed). */
export const CASES = [
  ["proven", 1],
  ["signedOutsideTheLog", 1, "no_transparency_proof", "no transparency proof"],
  ["tampered", 1, "bad_inclusion_proof", "bad inclusion proof"],
  ["anotherEntry", 1, "log_entry_mismatch", "log entry does not match the verdict"],
  ["anotherLog", 1, "checkpoint_not_signed_by_log", "checkpoint not signed by the log"],
  ["proven", 2, "too_few_cosignatures", "fewer witness cosignatures than the quorum"],
];
