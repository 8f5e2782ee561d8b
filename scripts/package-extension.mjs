// Makes the buyer's browser extension (run by scripts/build.mjs) from the
// wasm-pack build of its engine in `build` (wasm-pack.toml's
// [extension-build]: its wasm and glue) and the modules `cargo xtask
// generate` wrote in js/generated/ (extension-words.js, words.js, look.js,
// schema.json): in `out`, the unpacked
// extension for each browser, chromium/ (Manifest V3, a service worker)
// and firefox/ (Manifest V3 as Firefox takes it: background scripts, a
// gecko id), and each zipped as a store takes it
// (x402-verdict-chromium.zip, x402-verdict-firefox.zip).
//
// Each holds the engine's wasm; background.js, popup.js and options.js, ES
// modules bundled by rolldown from js/extension/ with the engine's glue,
// the badge's renderer (js/common/badge.js) and the core's words; content.js, a
// classic script (a content script cannot be a module) bundled from
// js/extension/content.js and the badge package's reader of attributes
// (js/common/options.js); the pages, their stylesheets, the icon (drawn here, as
// PNG), the policy schema (Chromium: js/generated/schema.json), the
// licences and the manifest. Nothing is minified: a store's reviewer reads the code.
import { copyFileSync, cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import JSZip from "jszip";
import { rolldown } from "rolldown";
import { parse } from "smol-toml";

const ROOT = new URL("../", import.meta.url);
const read = (path) => readFileSync(new URL(path, ROOT), "utf8");
const LICENCES = ["LICENSE-MIT", "LICENSE-APACHE"];
/** The id Firefox knows the extension by (storage.managed's policies name it). */
const GECKO_ID = "extension@x402-verdict";

/** The sizes of the extension's icon (the toolbar's 16 and 32 px, the stores' 48 and 128 px). */
const ICON_SIZES = [16, 32, 48, 128];

/**
 * The extension's icon, `size` px square, as PNG: a seal (a ring and a dot)
 * in the badge's neutral colour on transparency, drawn with coverage
 * sampled 4×4 per pixel.
 */
function icon(size) {
  const [r, g, b] = [0x30, 0x34, 0x3b];
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = [0];
    for (let x = 0; x < size; x++) {
      let covered = 0;
      for (let sy = 0; sy < 4; sy++) {
        for (let sx = 0; sx < 4; sx++) {
          const d = Math.hypot((x + (sx + 0.5) / 4) / size - 0.5, (y + (sy + 0.5) / 4) / size - 0.5);
          if ((d <= 0.47 && d >= 0.33) || d <= 0.19) covered++;
        }
      }
      row.push(r, g, b, Math.round((covered / 16) * 255));
    }
    rows.push(Buffer.from(row));
  }
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length);
    head.write(type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
const icons = Object.fromEntries(ICON_SIZES.map((size) => [size, `icon-${size}.png`]));

/** Packages the extension whose engine wasm-pack built in `build` (its files named `stem`) into `out`. */
export async function packageExtension({ build, out, stem }) {

  // The sources, staged where their imports find each other: js/ (the
  // badge package's modules and the generated ones) with the engine's glue
  // beside js/extension/'s.
  const stage = join(build, "stage");
  rmSync(stage, { recursive: true, force: true });
  cpSync(new URL("js/", ROOT), stage, { recursive: true });
  for (const name of [`${stem}.js`, "snippets"]) cpSync(join(build, name), join(stage, "extension", name), { recursive: true });

  const { WORDS } = await import(new URL("js/generated/extension-words.js", ROOT).href);
  // The workspace's version.
  const { version } = parse(read("Cargo.toml")).workspace.package;

  /** `name` (a file of js/extension/) bundled as `format`. */
  async function bundled(name, format) {
    const bundle = await rolldown({ input: join(stage, "extension", name), treeshake: { moduleSideEffects: () => true } });
    const { output } = await bundle.generate({ format, codeSplitting: false });
    await bundle.close();
    if (output.length !== 1) throw new Error(`package-extension: ${name} bundled into ${output.length} files`);
    return output[0].code;
  }
  const scripts = {
    "background.js": await bundled("background.js", "es"),
    "popup.js": await bundled("popup.js", "es"),
    "options.js": await bundled("options.js", "es"),
    "content.js": await bundled("content.js", "iife"),
  };
  /** The manifest both browsers share; each adds its background and its own keys. */
  const common = {
    manifest_version: 3,
    name: WORDS.name,
    description: WORDS.description,
    version,
    // storage: the settings (local, managed) and each tab's record (session); webRequest with every
    // host: each response's status and headers, observed (docs/extension.md).
    permissions: ["storage", "webRequest"],
    host_permissions: ["<all_urls>"],
    icons,
    action: { default_popup: "popup.html", default_title: WORDS.nothingAskedTitle, default_icon: icons },
    options_ui: { page: "options.html", open_in_tab: false },
    content_scripts: [{ matches: ["<all_urls>"], js: ["content.js"], run_at: "document_idle" }],
    // The engine is WebAssembly.
    content_security_policy: { extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" },
  };
  const MANIFESTS = {
    chromium: {
      ...common,
      minimum_chrome_version: "121",
      background: { service_worker: "background.js", type: "module" },
      storage: { managed_schema: "schema.json" },
    },
    firefox: {
      ...common,
      background: { scripts: ["background.js"], type: "module" },
      browser_specific_settings: {
        gecko: {
          id: GECKO_ID,
          // The first to know data_collection_permissions (140, an ESR), and on Android 142.
          strict_min_version: "140.0",
          // The endpoints of the 402s met go to the verification service the user sets (docs/extension.md).
          data_collection_permissions: { required: ["browsingActivity"] },
        },
        gecko_android: { strict_min_version: "142.0" },
      },
    },
  };

  rmSync(out, { recursive: true, force: true });
  for (const [browser, manifest] of Object.entries(MANIFESTS)) {
    const dir = join(out, browser);
    mkdirSync(dir, { recursive: true });
    for (const [name, code] of Object.entries(scripts)) writeFileSync(join(dir, name), code);
    for (const name of ["popup.html", "popup.css", "options.html", "options.css"]) copyFileSync(new URL(`js/extension/${name}`, ROOT), join(dir, name));
    if (browser === "chromium") copyFileSync(new URL("js/generated/schema.json", ROOT), join(dir, "schema.json"));
    copyFileSync(join(build, `${stem}_bg.wasm`), join(dir, `${stem}_bg.wasm`));
    for (const [size, name] of Object.entries(icons)) writeFileSync(join(dir, name), icon(Number(size)));
    for (const name of LICENCES) copyFileSync(new URL(name, ROOT), join(dir, name));
    writeFileSync(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    // The zip a store takes: the folder's files at its root, in a stable order and time.
    const zip = new JSZip();
    for (const name of readdirSync(dir).sort()) zip.file(name, readFileSync(join(dir, name)), { date: new Date(Date.UTC(2000, 0, 1)) });
    writeFileSync(join(out, `x402-verdict-${browser}.zip`), await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE", compressionOptions: { level: 9 } }));
  }
  rmSync(stage, { recursive: true });
}
