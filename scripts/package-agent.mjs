// Makes the x402-verdict package (for code that pays) in `out` (run by
// scripts/build.mjs) from the wasm-pack build in `build`: its wasm and glue
// (`stem`.js, `stem`_bg.wasm, `stem`.d.ts), the JavaScript build from
// `jsBuild` (its glue holding the wasm2js translation, which ./minify.mjs
// made import ./early.js) as `stem`_js.js, js/common/early.js beside them (each
// glue's one import), js/agent/ (the entry, the engine's loader, the guard,
// the placement of the seller's snippets, the types) with the seller module
// bundled by rolldown with what it imports from the badge's JavaScript
// (js/common/options.js) and from js/generated/ (the core's words, the package's
// file names), verdict-types.d.ts (the types its types import, from
// js/generated/), the licences and its package.json (the source template
// js/agent/package.template.json, with the workspace's version and every
// file listed).
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rolldown } from "rolldown";
import { parse } from "smol-toml";
import { resolveBuilt, withOwnImports } from "./bundle.mjs";

const ROOT = new URL("../", import.meta.url);
const LICENCES = ["LICENSE-MIT", "LICENSE-APACHE"];
/** The module of js/agent/ that is bundled (the others ship as they are). */
const SELLER = "seller.js";
/** The package's manifest's source in js/agent/, which ships as package.json. */
const TEMPLATE = "package.template.json";

/** Packages x402-verdict in `out` (see above). */
export async function packageAgent({ build, out, stem, jsBuild }) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const { code: glue, snippets } = await withOwnImports(join(build, `${stem}.js`));
  if (!snippets.has("common/early.js")) throw new Error(`package-agent: expected an import of the snippet js/common/early.js in ${build}'s glue`);
  writeFileSync(join(out, `${stem}.js`), glue);
  const jsGlue = readFileSync(join(jsBuild, `${stem}.js`), "utf8");
  if (!jsGlue.includes("initJs")) throw new Error(`package-agent: ${jsBuild} holds no JavaScript build (minify.mjs with toJs)`);
  writeFileSync(join(out, `${stem}_js.js`), jsGlue);
  for (const name of [`${stem}_bg.wasm`, `${stem}.d.ts`]) copyFileSync(join(build, name), join(out, name));
  copyFileSync(new URL("js/generated/verdict-types.d.ts", ROOT), join(out, "verdict-types.d.ts"));
  copyFileSync(new URL("js/common/early.js", ROOT), join(out, "early.js"));
  const agent = new URL("js/agent/", ROOT);
  for (const name of readdirSync(agent)) {
    if (name !== SELLER && name !== TEMPLATE) copyFileSync(new URL(name, agent), join(out, name));
  }
  // The seller module, with the badge's option names and the package's file
  // names bundled in; the engine, the placement and parse5 stay imports.
  const seller = await rolldown({
    input: new URL(SELLER, agent).pathname,
    external: ["./engine.js", "./placement.js", "parse5"],
    plugins: [resolveBuilt()],
  });
  const { output } = await seller.generate({ format: "es" });
  await seller.close();
  writeFileSync(join(out, SELLER), output[0].code);
  for (const name of LICENCES) copyFileSync(new URL(name, ROOT), join(out, name));

  // The template's manifest, with the workspace's version and every file;
  // its parser's range is the root package.json's pin.
  const { version } = parse(readFileSync(new URL("Cargo.toml", ROOT), "utf8")).workspace.package;
  const template = JSON.parse(readFileSync(new URL(TEMPLATE, agent), "utf8"));
  const pin = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")).devDependencies.parse5;
  if (template.dependencies?.parse5 !== `^${pin}`) {
    throw new Error(`package-agent: js/agent/${TEMPLATE} depends on parse5 ${template.dependencies?.parse5}, but package.json pins ${pin}: write ^${pin}`);
  }
  const { name, ...members } = template;
  const manifest = { name, version, ...members, files: [...readdirSync(out), "package.json"].sort() };
  writeFileSync(join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}
