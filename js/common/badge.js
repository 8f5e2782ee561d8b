// The badge in the page, drawn the same way by the wasm build, the
// JavaScript fallback and the script-tag loader's placeholders: one inline
// host element with an open shadow root, styled by one constructable
// stylesheet per document (no `style` attribute, no `<style>` element, so a
// strict Content-Security-Policy allows it), written with textContent only.
// Nothing here throws. When many badges are drawn at once, js/badge/frames.js paces them.

const CSS = `:host {
  all: initial;
  /* The page's colour scheme (its color-scheme property or meta tag), not the OS's. */
  color-scheme: inherit;
  /* The surrounding text's size: the badge scales with it. */
  font-size: inherit;
  font-family: var(--x402-verdict-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  display: inline-block;
  position: relative;
  vertical-align: middle;
  line-height: 0;
}
:host([data-theme="light"]) { color-scheme: light; }
:host([data-theme="dark"]) { color-scheme: dark; }
.badge {
  display: inline-flex;
  align-items: center;
  gap: 0.4em;
  box-sizing: border-box;
  /* Room for the common labels ("verified · A+", "not verified"), so that
     nothing on the line moves when the placeholder becomes the result
     (the mark and label stay where they are: left-aligned). */
  min-width: 9.25em;
  height: calc(1.5em + 2px);
  padding: 0 0.67em 0 0.5em;
  border: 1px solid var(--x402-verdict-border, light-dark(#8a8f98, #6b717c));
  border-radius: var(--x402-verdict-radius, calc(0.75em + 1px));
  background: var(--x402-verdict-background, light-dark(#f4f5f7, #2a2e35));
  color: var(--x402-verdict-color, light-dark(#30343b, #e6e8eb));
  font-size: clamp(11px, 0.8em, 20px);
  font-weight: 500;
  line-height: 1.5;
  white-space: nowrap;
  cursor: default;
}
.badge:focus-visible {
  outline: 2px solid light-dark(#1a5fd0, #8ab4f8);
  outline-offset: 2px;
}
.mark {
  display: inline-block;
  width: 1em;
  text-align: center;
  font-weight: 700;
}
.badge[data-state="checking"] .mark::before { content: "…"; }
.badge[data-state="unknown"] .mark::before { content: "?"; }
.badge[data-state="human-backed"] .mark::before { content: "✓"; }
.badge[data-state="revoked"] .mark::before { content: "✕"; }
.badge[data-state="human-backed"] {
  border-color: var(--x402-verdict-verified-border, light-dark(#1f7a3f, #3fa56a));
  background: var(--x402-verdict-verified-background, light-dark(#e8f5ec, #12301d));
  color: var(--x402-verdict-verified-color, light-dark(#14532b, #b7ebc6));
}
.badge[data-state="revoked"] {
  border-color: var(--x402-verdict-revoked-border, light-dark(#b42318, #e0574a));
  background: var(--x402-verdict-revoked-background, light-dark(#fdeceb, #3a1512));
  color: var(--x402-verdict-revoked-color, light-dark(#7a1a12, #f8c4be));
}
/* Hidden, the hover text takes no room (it never widens the page). */
.tip {
  display: none;
  position: absolute;
  top: calc(100% + 6px);
  left: 0;
  z-index: 2147483647;
  box-sizing: border-box;
  width: max-content;
  max-width: min(23em, calc(100vw - 16px));
  padding: 0.5em 0.67em;
  border: 1px solid light-dark(#1f2329, #8a8f98);
  border-radius: 6px;
  background: var(--x402-verdict-tip-background, #1f2329);
  color: var(--x402-verdict-tip-color, #fff);
  font-size: clamp(11px, 0.8em, 20px);
  line-height: 1.4;
  white-space: normal;
  pointer-events: none;
}
.badge:hover + .tip,
.badge:focus + .tip {
  display: block;
}
:host([data-dismissed]) .tip {
  display: none;
}
/* Where anchor positioning exists: fixed to the viewport (out of any
   overflow: hidden box), below the badge, flipped to stay on screen. */
@supports (anchor-name: --a) {
  .badge { anchor-name: --x402-verdict-badge; }
  .tip {
    position: fixed;
    position-anchor: --x402-verdict-badge;
    top: calc(anchor(bottom) + 6px);
    left: anchor(left);
    position-try-fallbacks: flip-inline, flip-block, flip-block flip-inline;
  }
}
/* Without anchor positioning: the top layer (see popover() below). */
.tip[popover]:not(:popover-open) { display: none; }
.tip:popover-open {
  display: block;
  position: fixed;
  inset: auto;
  margin: 0;
  overflow: visible;
  position-try-fallbacks: none;
}
@media (forced-colors: active) {
  .badge { border-color: CanvasText; }
}`;

/** The tag of the badge as drawn in its container (a `data-x402-verdict`
 * element, an `<x402-verdict-badge>`, any element given to renderBadge):
 * its shadow root holds the parts. A custom element, so that a badge drawn
 * in a document without a window (a template's, a DOMParser's) is styled
 * once it is connected to a live one. */
const HOST = "x402-verdict-view";
/** Where a document keeps its stylesheet: shared by every copy of this code
 * (the loader's and the package's) and every realm (Symbol.for is global). */
const SHEET = Symbol.for("x402-verdict.sheet");

/** For browsers without light-dark() (before Chrome 123, Safari 17.5, Firefox 120): the light colours. */
const LIGHT_ONLY = CSS.replace(/light-dark\(([^,]+),[^)]*\)/g, "$1");

/** The document's stylesheet, made in its own window; none without a window. */
function sheetFor(doc) {
  const view = doc.defaultView;
  if (!view) return null;
  if (!doc[SHEET]) {
    const sheet = new view.CSSStyleSheet();
    sheet.replaceSync(view.CSS?.supports("color", "light-dark(red, red)") ? CSS : LIGHT_ONLY);
    doc[SHEET] = sheet;
  }
  return doc[SHEET];
}

function style(host) {
  try {
    const root = host.shadowRoot;
    const sheet = sheetFor(host.ownerDocument);
    if (sheet && root.adoptedStyleSheets[0] !== sheet) root.adoptedStyleSheets = [sheet];
  } catch {
    // A document that refuses the sheet keeps an unstyled, still readable badge.
  }
}

try {
  if (!customElements.get(HOST)) {
    customElements.define(HOST, class extends HTMLElement {
      connectedCallback() {
        style(this);
      }
    });
  }
} catch {
  // No custom elements here: badges are styled when drawn.
}

function element(doc, parent, className, attributes = {}) {
  const node = doc.createElement("span");
  node.className = className;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  parent.append(node);
  return node;
}

/** The Popover API: the hover text can open in the top layer, placed by script. */
const POPOVER = (() => {
  try {
    return "showPopover" in HTMLElement.prototype;
  } catch {
    return false;
  }
})();

/** No CSS anchor positioning (older Firefox and Safari): the top layer from the start. */
const ANCHORLESS = (() => {
  try {
    return POPOVER && !globalThis.CSS.supports("anchor-name: --a");
  } catch {
    return false;
  }
})();

/** The gap between the badge and its hover text, in CSS pixels (the stylesheet's 6px). */
const GAP = 6;

/**
 * Whether the hover text, shown by the stylesheet, lies where it should: on
 * screen, `GAP` below or above the badge. WebKit does not accept the badge as
 * an anchor when its containing block is absolutely positioned against the
 * root (as the anchor-positioning spec says; Chromium and Firefox relax it):
 * there it lies flush under the badge, unflipped, off screen.
 */
function landedWell(host, badge, tip) {
  const [b, t] = [badge.getBoundingClientRect(), tip.getBoundingClientRect()];
  const { clientWidth: width, clientHeight: height } = host.ownerDocument.documentElement;
  const beside = Math.abs(t.top - b.bottom - GAP) < 1 || Math.abs(b.top - t.bottom - GAP) < 1;
  return beside && t.left >= 0 && t.top >= 0 && t.right <= width && t.bottom <= height;
}

/**
 * Shows `tip` in the top layer (out of any overflow: hidden box) while the
 * badge is hovered or focused, below it or flipped above, shifted to stay
 * inside the viewport: placed by a stylesheet of the badge's own (no style
 * attribute), moved along when the page scrolls or resizes. `scripted`
 * false: the stylesheet's anchor positioning places it, until once it is
 * found misplaced when it opens (see landedWell); from then on, the script.
 */
function popover(host, badge, tip, scripted) {
  if (scripted) tip.setAttribute("popover", "manual");
  const root = host.shadowRoot;
  let own;
  const place = () => {
    // Removed while open: it stops following the page.
    if (!host.isConnected) {
      on.clear();
      return toggle({});
    }
    const doc = host.ownerDocument;
    const [b, t] = [badge.getBoundingClientRect(), tip.getBoundingClientRect()];
    const { clientWidth: width, clientHeight: height } = doc.documentElement;
    const below = b.bottom + GAP;
    const y = below + t.height > height - 8 && b.top - GAP - t.height >= 0 ? b.top - GAP - t.height : below;
    const x = Math.max(8, Math.min(b.left, width - 8 - t.width));
    own ??= new doc.defaultView.CSSStyleSheet();
    own.replaceSync(`.tip:popover-open{top:${y}px;left:${x}px}`);
    if (root.adoptedStyleSheets[1] !== own) root.adoptedStyleSheets = [...root.adoptedStyleSheets.slice(0, 1), own];
  };
  /** Anchored by the stylesheet: once the open hover text is seen misplaced, the script places it. */
  const check = () => {
    if (scripted || !on.size || host.ownerDocument.defaultView.getComputedStyle(tip).display === "none" || landedWell(host, badge, tip)) return;
    scripted = true;
    tip.setAttribute("popover", "manual");
    toggle({});
  };
  const on = new Set();
  /** @param {{ type?: string }} event a pointer or focus event, or {} to place it again */
  const toggle = ({ type }) => {
    if (type === "pointerenter" || type === "focus") on.add(type);
    if (type === "pointerleave") on.delete("pointerenter");
    if (type === "blur") on.delete("focus");
    try {
      const view = host.ownerDocument.defaultView;
      if (!scripted) {
        // The stylesheet shows it (now, or by the next frame: measured then).
        check();
        if (!scripted) view.requestAnimationFrame(check);
      } else if (on.size && !host.hasAttribute("data-dismissed")) {
        if (!tip.matches(":popover-open")) tip.showPopover();
        place();
        view.addEventListener("scroll", place, true);
        view.addEventListener("resize", place);
      } else {
        if (tip.matches(":popover-open")) tip.hidePopover();
        view.removeEventListener("scroll", place, true);
        view.removeEventListener("resize", place);
      }
    } catch {
      // Not connected: nothing to show.
    }
  };
  for (const type of ["pointerenter", "pointerleave", "focus", "blur", "keydown"]) badge.addEventListener(type, toggle);
}

/**
 * Puts a badge in `container` (any element, of any document or realm,
 * connected or not), replacing its content, showing `state`, `label`,
 * `hover` and the accessible name `name` (the core's words for a lookup
 * that runs: its CHECKING); an existing badge in the container is reused.
 * Returns its host, or `null` when the container cannot hold one.
 */
export function mount(container, state, label, hover, name) {
  try {
    if (!container || container.nodeType !== 1) return null;
    let host = container.firstElementChild;
    if (!(container.childNodes.length === 1 && host?.localName === HOST && host.shadowRoot)) {
      const doc = container.ownerDocument;
      host = doc.createElement(HOST);
      const root = host.attachShadow({ mode: "open" });
      const badge = element(doc, root, "badge", { part: "badge", tabindex: "0", role: "group", "aria-describedby": "tip" });
      element(doc, badge, "mark", { part: "mark", "aria-hidden": "true" });
      element(doc, badge, "label", { part: "label" });
      element(doc, root, "tip", { part: "tip", id: "tip", role: "tooltip" });
      // Escape closes the hover text until the pointer leaves or focus moves on.
      badge.addEventListener("keydown", (event) => event.key === "Escape" && host.setAttribute("data-dismissed", ""));
      for (const type of ["blur", "pointerleave"]) badge.addEventListener(type, () => host.removeAttribute("data-dismissed"));
      if (POPOVER) popover(host, badge, root.lastChild, ANCHORLESS);
      container.replaceChildren(host);
    }
    show(host, state, label, hover, name);
    return host;
  } catch {
    return null;
  }
}

/** Forces the light or dark badge (`theme`: "light", "dark"); anything else follows the page. */
export function setTheme(host, theme) {
  try {
    if (theme === "light" || theme === "dark") host.setAttribute("data-theme", theme);
    else host.removeAttribute("data-theme");
  } catch {
    // No host: nothing to theme.
  }
}

/**
 * Shows a state (`checking`, `human-backed`, `revoked`, `unknown`), its
 * label, hover text and accessible name (`aria-label`), all the core's
 * words, and keeps the reason code on the host (`data-reason`, as in the
 * structured result; absent when there is none).
 */
export function show(host, state, label, hover, name, reason) {
  try {
    const root = host.shadowRoot;
    const badge = root.querySelector(".badge");
    host.setAttribute("data-state", state);
    if (reason) host.setAttribute("data-reason", reason);
    else host.removeAttribute("data-reason");
    badge.setAttribute("data-state", state);
    badge.setAttribute("aria-label", name);
    root.querySelector(".label").textContent = label;
    root.querySelector(".tip").textContent = hover;
    style(host);
  } catch {
    // Not a badge host: nothing to show.
  }
}
