// Runs a measuring command and keeps what it printed as its section of
// docs/figures.md, the one file every measured figure lives in (the docs
// link to it; nobody copies a figure by hand):
//
//   node scripts/figures.mjs <section> -- <command> [args…]
//
// The command's output is shown as it runs; once it has exited 0 its
// section is replaced (with when, on what machine and under what load it
// ran), the others kept. A command that fails changes nothing, and its
// exit code is this script's.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";

const FILE = new URL("../docs/figures.md", import.meta.url);

/** The sections, in the file's order: the anchor, its heading, and what writes it. */
const SECTIONS = {
  size: ["Size", "`npm run size`"],
  "seller-page": ["Seller page", "`npm run bench` (scripts/bench-seller.mjs)"],
  paywall: ["Paywall page", "`npm run bench` (scripts/bench-paywall.mjs)"],
  browser: ["Browser", "`npm run bench` (scripts/bench-browser.mjs)"],
  listing: ["Listing", "`npm run bench` (scripts/bench-listing.mjs)"],
  agent: ["Agent", "`npm run bench` (scripts/bench-agent.mjs)"],
  python: ["Python", "`npm run bench` (scripts/bench-python.sh)"],
  core: ["Core", "`npm run bench` (cargo bench -p x402-verdict-core --bench evaluate)"],
  trust: ["Root of trust", "`npm run bench-trust` (scripts/bench-trust.mjs)"],
  load: ["Load", "`npm run load`"],
  image: ["Image badge", "`npm run bench-image`"],
  transparency: ["Transparency", "`npm run bench-transparency` (cargo bench -p x402-verdict-core --bench transparency)"],
  "transparency-wasm": ["Transparency in wasm", "`npm run bench-transparency-wasm` (scripts/bench-transparency-wasm.mjs)"],
  "transparency-service": ["Transparency log in the service", "`npm run bench-transparency-service` (scripts/bench-tlog-service.mjs)"],
  fuzz: ["Fuzz", "`npm run fuzz`"],
};

const HEADER = `# Figures

Every figure the benchmarks and the size check measure, as they last printed
it: each section is written by the command it names (\`node
scripts/figures.mjs\`, which \`npm run size\`, \`npm run bench\`, \`npm run bench-trust\`, \`npm run load\`, \`npm run bench-image\`, \`npm run bench-transparency\`, \`npm run bench-transparency-wasm\`, \`npm run bench-transparency-service\` and \`npm run fuzz\` run), with
when it ran and the machine's load. Do not edit it by hand; what each
benchmark measures and how to read it is in [performance](performance.md).
`;

const open = (name) => `<!-- figures:${name} -->`;
const close = (name) => `<!-- /figures:${name} -->`;

/** The body of each section in `text` (a docs/figures.md), by name. */
function sectionsOf(text) {
  const found = {};
  for (const name of Object.keys(SECTIONS)) {
    const start = text.indexOf(open(name));
    const end = text.indexOf(close(name));
    if (start >= 0 && end > start) found[name] = text.slice(start + open(name).length, end).trim();
  }
  return found;
}

/** docs/figures.md with `bodies` (by section name), every section in order. */
function write(bodies) {
  const parts = [HEADER];
  for (const [name, [heading, command]] of Object.entries(SECTIONS)) {
    const body = bodies[name] ?? `Not measured yet: ${command} writes this section.`;
    parts.push(`## ${heading}\n\n${open(name)}\n${body}\n${close(name)}\n`);
  }
  writeFileSync(FILE, parts.join("\n"));
}

/** The machine's load averages over 1, 5 and 15 minutes. */
const load = () => loadavg().map((l) => l.toFixed(2)).join(", ");
/** The load when the command started: a benchmark loads the machine itself. */
const loadAtStart = load();

/** The section's body: when and where the command ran, and what it printed. */
function body(name, output) {
  const when = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  const fence = output.includes("```") ? "~~~" : "```";
  return `Written by ${SECTIONS[name][1]} at ${when} on ${cpus().length} cores (load average ${loadAtStart} at its start, ${load()} at its end).\n\n${fence}text\n${output.trimEnd()}\n${fence}`;
}

const [name, separator, command, ...args] = process.argv.slice(2);
if (!SECTIONS[name] || separator !== "--" || !command) {
  console.error(`usage: node scripts/figures.mjs <${Object.keys(SECTIONS).join("|")}> -- <command> [args…]`);
  process.exit(2);
}
const child = spawn(command, args, { stdio: ["inherit", "pipe", "inherit"] });
let output = "";
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  output += chunk;
});
child.on("error", (error) => {
  console.error(`figures: cannot run ${command}: ${error.message}`);
  process.exit(2);
});
child.on("close", (code) => {
  // Killed by a signal: no code, and nothing kept.
  if (code !== 0) process.exit(code ?? 1);
  const bodies = existsSync(FILE) ? sectionsOf(readFileSync(FILE, "utf8")) : {};
  bodies[name] = body(name, output);
  write(bodies);
});
