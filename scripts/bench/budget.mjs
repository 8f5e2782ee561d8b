// The package with another request budget, for measuring only (there is no
// such option): a copy of pkg/ packaged again (scripts/package-js.mjs
// --sources) from a copy of js/ whose budget.js has another BUDGET, so that
// index.js and embed.js, which bundle it, run with it too.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { PACKAGE } from "../../tests/support/package.mjs";
import { buildConfig } from "../build-config.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;

/** A copy of the package whose lookups run with `budget` requests in flight per service; resolves to its folder. */
export function budgetPackage(budget) {
  const dir = join(ROOT, `.work/bench-budget/${budget}`);
  const sources = `${dir}-js`;
  for (const folder of [dir, sources]) rmSync(folder, { recursive: true, force: true });
  cpSync(PACKAGE, dir, { recursive: true, dereference: true });
  cpSync(join(ROOT, "js"), sources, { recursive: true });
  const index = join(sources, "budget.js");
  const source = readFileSync(index, "utf8");
  if (!/^const BUDGET = \d+;$/m.test(source)) throw new Error("bench: js/budget.js has no line `const BUDGET = <n>;` to vary");
  writeFileSync(index, source.replace(/^const BUDGET = \d+;$/m, `const BUDGET = ${budget};`));
  mkdirSync(dir, { recursive: true });
  const run = (command, args, options) => execFileSync(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"], ...options });
  writeFileSync(join(dir, "words.js"), run("cargo", ["xtask", "generate", "words"]));
  // The build's other outputs, where scripts/build.sh leaves them.
  const glue = `target/embed-build/pkg/${buildConfig().embedName}.js`;
  run("node", ["scripts/package-js.mjs", dir, "target/js-build/pkg", glue, "--sources", sources]);
  return dir;
}
