// Prints the raw, gzip and brotli sizes of every file a page loads for the
// badge, by the way it loads it (a script tag: embed.js, one bundle, and its
// wasm; the module entry: index.js, the badge's DOM code, early.js, the glue
// and the wasm), of the challenge reader (loaded only when
// endpointsFromPaymentRequired is called) and of the JavaScript build (the
// same code translated by wasm2js, and why the wasm did not load: both loaded
// only where the wasm cannot run), and how a seller's page (everything it
// loads by a script tag) and wasm plus glue of the module entry (gzip) stand
// against the size budget.
// Run by `npm run size` after a release build of pkg/; with `--check` (as
// `npm test` runs it) it fails when the budget is exceeded.
// The package's folder and the budget come from wasm-pack.toml.
import { readFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { buildConfig } from "./build-config.mjs";

const { outDir, embedName, budgetGzip: BUDGET } = buildConfig();
const WASM = `${outDir}/x402_verdict_badge_bg.wasm`;
const GLUE = `${outDir}/x402_verdict_badge.js`;
const ways = {
  // embed.js holds the script tag's glue, for its own wasm (renderBadge
  // alone, with the key certificates' rules: whatever its badges pin).
  "by a script tag": [`${outDir}/embed.js`, `${outDir}/${embedName}_bg.wasm`],
  "by the module entry": [`${outDir}/index.js`, `${outDir}/badge.js`, `${outDir}/early.js`, GLUE, WASM],
};
const onDemand = {
  "loaded only when endpointsFromPaymentRequired or endpointsFromDiscovery is called": [`${outDir}/x402_verdict_challenge.js`, `${outDir}/x402_verdict_challenge_bg.wasm`],
  "loaded only where the wasm cannot run": [`${outDir}/x402_verdict_badge_js.js`, `${outDir}/explain.js`],
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`.padStart(9);
const measure = (file) => {
  const bytes = readFileSync(file);
  return {
    file,
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
};
const row = (s) => console.log(`${s.file.padEnd(36)}${kb(s.raw)}${kb(s.gzip)}${kb(s.brotli)}`);
const sizes = [];
for (const [way, files] of Object.entries(ways)) {
  console.log(`${`what a page loads ${way}`.padEnd(36)}${"raw".padStart(9)}${"gzip".padStart(9)}${"brotli".padStart(9)}`);
  const measured = files.map(measure);
  measured.forEach(row);
  const total = (key) => measured.reduce((sum, s) => sum + s[key], 0);
  row({ file: "total", raw: total("raw"), gzip: total("gzip"), brotli: total("brotli") });
  sizes.push(...measured);
}
for (const [when, files] of Object.entries(onDemand)) {
  console.log(`${when}:`);
  files.map(measure).forEach(row);
}

const gzip = (file) => (sizes.find((s) => s.file === file) ?? measure(file)).gzip;
const checked = {
  "a seller's page by a script tag": ways["by a script tag"].reduce((sum, file) => sum + gzip(file), 0),
  "the module entry's wasm + glue": gzip(WASM) + gzip(GLUE),
};
let over = false;
for (const [what, bytes] of Object.entries(checked)) {
  over ||= bytes > BUDGET;
  const verdict = bytes <= BUDGET ? "within" : "OVER";
  console.log(`${what}, gzip: ${bytes} B, ${verdict} the ${BUDGET} B budget`);
}
if (process.argv.includes("--check") && over) process.exit(1);
