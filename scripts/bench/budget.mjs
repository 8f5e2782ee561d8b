// The package with another request budget, for measuring only (there is no
// such option): a copy of pkg/ packaged again (scripts/package-js.mjs) from
// a copy of js/ whose budget.js has another BUDGET, so that index.js and
// embed.js, which bundle it, run with it too.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE } from "../../tests/support/package.mjs";
import { buildConfig } from "../build-config.mjs";
import { packageBadge } from "../package-js.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;

/** A copy of the package whose lookups run with `budget` requests in flight per service; resolves to its folder. */
export async function budgetPackage(budget) {
  const dir = join(ROOT, `.work/bench-budget/${budget}`);
  const sources = `${dir}-js`;
  for (const folder of [dir, sources]) rmSync(folder, { recursive: true, force: true });
  cpSync(PACKAGE, dir, { recursive: true, dereference: true });
  cpSync(join(ROOT, "js"), sources, { recursive: true });
  const index = join(sources, "badge/budget.js");
  const source = readFileSync(index, "utf8");
  if (!/^const BUDGET = \d+;$/m.test(source)) throw new Error("bench: js/badge/budget.js has no line `const BUDGET = <n>;` to vary");
  writeFileSync(index, source.replace(/^const BUDGET = \d+;$/m, `const BUDGET = ${budget};`));
  mkdirSync(dir, { recursive: true });
  // The build's other outputs, where scripts/build.mjs leaves them.
  const embedGlue = join(ROOT, `target/embed-build/pkg/${buildConfig().embedName}.js`);
  await packageBadge({ dir, jsDir: join(ROOT, "target/js-build/pkg"), embedGlue, sources });
  return dir;
}
