// Script-tag loader for the x402 verification badge. Works as a classic
// script and as a module, from any folder (a CDN's or the site's own):
//
//   <span data-x402-verdict data-base-url="https://verify.example" data-chain="base"
//         data-pay-to="0x…" data-resource-url="https://api.example.com/premium-data"
//         data-root-key="<the service's base64 Ed25519 root key>" data-strict></span>
//   <script src="https://…/x402-verdict-badge/embed.js"></script>
//
// One file holds everything a page needs before its first verdict (the
// build bundles it with the package's entry, index.js, the badge's DOM code
// and the wasm's glue, into one classic script): it starts fetching and
// compiling the wasm on its first line, draws a "checking" badge, at its
// final size, into every element carrying data-x402-verdict and every
// <x402-verdict-badge> (also those added later), and renders each badge as
// it comes near the viewport; the first verdict requests go out while the
// wasm loads (js/common/early.js). Where the wasm cannot run, the same code
// translated to JavaScript (x402_verdict_badge_js.js, next to this file)
// runs instead, with one console.warn saying why.
import init, { renderAll } from "./index.js";
import { mount, setTheme } from "../common/badge.js";
import { PER_FRAME, inTurn } from "./frames.js";
import { EMBED_WASM } from "../generated/files.js";
import { ELEMENT, MARK } from "../common/options.js";
import { CHECKING } from "../generated/words.js";

/** Badges by data- attributes and by element. */
const SELECTOR = `[${MARK}],${ELEMENT}`;
/**
 * Badges look their endpoint up when they come near the viewport (data-loading="eager" opts out).
 * @type {{ loading: "lazy" }}
 */
const LAZY = { loading: "lazy" };

/** This script's own URL: document.currentScript for a classic script, the stack for a module. */
function scriptUrl() {
  const found = /** @type {HTMLScriptElement | null} */ (document.currentScript)?.src || /(https?:\/\/[^\s()]+?):\d+:\d+/.exec(new Error().stack)?.[1];
  return found || /** @type {HTMLScriptElement | null} */ (document.querySelector("script[src*='embed']"))?.src || document.baseURI;
}

/** This script's URL, where the files next to it are found: the bundle's
 * import.meta.url (scripts/package-js.mjs), kept where the package's code
 * reads it later, when the script that is running is no longer this one. */
const x402ScriptUrl = (globalThis[Symbol.for("x402-verdict.script")] = scriptUrl());
// The wasm is fetched and compiled from the first line, beside everything
// else.
let ready = false;
init(new URL(EMBED_WASM, x402ScriptUrl)).then(() => {
  ready = true;
  renderAll(document, LAZY);
});

function markedUnder(root) {
  const found = [...(root.querySelectorAll?.(SELECTOR) ?? [])];
  if (root.matches?.(SELECTOR)) found.unshift(root);
  return found;
}

/** Placeholders are drawn at once for this many badges: as many as the first
 * frame draws (frames.js's PER_FRAME, fewer on a slow device), enough for the
 * first screen of a dense page; the package draws the others as they come
 * near the viewport (so a listing of thousands costs no long task). */
const AT_ONCE = PER_FRAME;
let drawn = 0;

/** Placeholders for badges not drawn yet. */
function draw(root) {
  if (drawn >= AT_ONCE) return;
  for (const element of markedUnder(root)) {
    if (drawn >= AT_ONCE || element.firstElementChild?.shadowRoot) continue;
    drawn++;
    inTurn(() => {
      // Drawn meanwhile by the package: its badge stays.
      if (element.firstElementChild?.shadowRoot) return;
      setTheme(mount(element, ...CHECKING), element.getAttribute("data-theme") ?? element.getAttribute("theme"));
    });
  }
}

function added(records) {
  // Placeholders enough, the engine still loading: the document is rendered
  // whole when it has parsed and when the engine is ready; nothing to do
  // for each of the thousands of nodes a listing's parsing adds.
  if (!ready && drawn >= AT_ONCE) return;
  const found = [];
  for (const record of records) {
    for (const node of record.addedNodes) {
      // While the page parses, every element arrives empty, thousands of
      // them in a listing: one match each, no search beneath.
      if (!ready && drawn >= AT_ONCE) break;
      if (node.nodeType !== 1 || (!node.firstElementChild && !node.matches(SELECTOR))) continue;
      draw(node);
      found.push(node);
    }
  }
  // Rendered after every placeholder of the batch is drawn: the first badges'
  // look at where they lie (index.js) then lays the page out once, not once each.
  for (const node of found) renderAll(node, LAZY);
}

new MutationObserver(added).observe(document.documentElement, { childList: true, subtree: true });
// The first badges' requests leave before any placeholder is drawn.
renderAll(document, LAZY);
draw(document);
document.addEventListener("DOMContentLoaded", () => {
  draw(document);
  renderAll(document, LAZY);
});
