// Prints the raw, gzip and brotli sizes of the badge's wasm and JS glue, and
// how wasm plus glue (gzip) stands against the size budget.
// Run by `npm run size` after a release build of pkg/; with `--check` (as
// `npm test` runs it) it fails when the budget is exceeded.
import { readFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const files = ["pkg/x402_verdict_badge_bg.wasm", "pkg/x402_verdict_badge.js", "pkg/embed.js"];
const kb = (n) => `${(n / 1024).toFixed(1)} KB`.padStart(9);
const sizes = files.map((file) => {
  const bytes = readFileSync(file);
  return {
    file,
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
});
console.log(`${"file".padEnd(34)}${"raw".padStart(9)}${"gzip".padStart(9)}${"brotli".padStart(9)}`);
for (const s of sizes) console.log(`${s.file.padEnd(34)}${kb(s.raw)}${kb(s.gzip)}${kb(s.brotli)}`);
const total = (key) => sizes.reduce((sum, s) => sum + s[key], 0);
console.log(`${"total".padEnd(34)}${kb(total("raw"))}${kb(total("gzip"))}${kb(total("brotli"))}`);

const BUDGET = 48 * 1024;
const shipped = sizes[0].gzip + sizes[1].gzip;
const verdict = shipped <= BUDGET ? "within" : "OVER";
console.log(`wasm + glue, gzip: ${kb(shipped).trim()}, ${verdict} the ${kb(BUDGET).trim()} budget`);
if (process.argv.includes("--check") && shipped > BUDGET) process.exit(1);
