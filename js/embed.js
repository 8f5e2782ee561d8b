// Script-tag loader for the x402 verification badge. Works as a classic
// script and as a module, from any folder (a CDN's or the site's own):
//
//   <span data-x402-verdict data-base-url="https://verify.example" data-chain="base"
//         data-pay-to="0x…" data-resource-url="https://api.example.com/premium-data"
//         data-public-key="<base64 Ed25519 key>"></span>
//   <script src="https://…/x402-verdict-badge/embed.js"></script>
//
// It draws a "checking" badge, at its final size, into every element carrying
// data-x402-verdict and every <x402-verdict-badge> at once (also those added
// later), then loads the package (index.js, next to this file), which loads
// the wasm and renders each badge as it comes near the viewport. When the package cannot load, every badge
// reads "unknown" and one console.warn says why.
//
// scripts/package-js.mjs puts js/badge.js (mount, setTheme, show, inTurn)
// and the core's words (words.js: NOT_LOADED, UNKNOWN, WARNINGS) in front of
// this code, in one function scope, and minifies the whole.
const SELECTOR = "[data-x402-verdict],x402-verdict-badge";
/** Badges look their endpoint up when they come near the viewport (data-loading="eager" opts out). */
const LAZY = { loading: "lazy" };

/** This script's own URL: document.currentScript for a classic script, the stack for a module. */
function scriptUrl() {
  const found = document.currentScript?.src || /(https?:\/\/[^\s()]+?):\d+:\d+/.exec(new Error().stack)?.[1];
  return found || document.querySelector("script[src*='embed']")?.src || document.baseURI;
}

const packageUrl = new URL("index.js", scriptUrl()).href;
let loaded;
let failed = false;

function markedUnder(root) {
  const found = [...(root.querySelectorAll?.(SELECTOR) ?? [])];
  if (root.matches?.(SELECTOR)) found.unshift(root);
  return found;
}

/** Placeholders are drawn at once (PER_FRAME a frame) for this many badges,
 * enough for the first screen of a dense page; the package draws the others
 * as they come near the viewport (so a listing of thousands costs no long task). */
const AT_ONCE = 100;
let drawn = 0;

/** Placeholders (or, when the package cannot load, "unknown") for badges not drawn yet. */
function draw(root) {
  if (!failed && drawn >= AT_ONCE) return;
  for (const element of markedUnder(root)) {
    if (!failed && (drawn >= AT_ONCE || element.firstElementChild?.shadowRoot)) continue;
    drawn++;
    inTurn(() => {
      // Drawn meanwhile by the package: its badge stays.
      if (!failed && element.firstElementChild?.shadowRoot) return;
      const host = mount(element);
      setTheme(host, element.getAttribute("data-theme") ?? element.getAttribute("theme"));
      if (failed) show(host, UNKNOWN, NOT_LOADED.label, NOT_LOADED.hover);
    });
  }
}

function added(records) {
  // Placeholders enough, the package still loading: it renders what is in
  // the document then; nothing to do for each node the parser adds.
  if (!loaded && !failed && drawn >= AT_ONCE) return;
  for (const record of records) {
    for (const node of record.addedNodes) {
      // While the page parses, every element arrives empty, thousands of
      // them in a listing: one match each, no search beneath.
      if (node.nodeType !== 1 || (!node.firstElementChild && !node.matches(SELECTOR))) continue;
      draw(node);
      loaded?.renderAll(node, LAZY);
    }
  }
}

new MutationObserver(added).observe(document.documentElement, { childList: true, subtree: true });
draw(document);
document.addEventListener("DOMContentLoaded", () => draw(document));

import(packageUrl).then(
  (api) => {
    loaded = api;
    api.renderAll(document, LAZY);
  },
  (error) => {
    const warned = Symbol.for("x402-verdict.warned");
    if (!globalThis[warned]) {
      globalThis[warned] = true;
      console.warn(WARNINGS.prefix + WARNINGS.packageUnloadable.replace("{url}", packageUrl).replace("{error}", error?.message ?? error));
    }
    failed = true;
    draw(document);
  },
);
