// The badge in the page, drawn the same way by the wasm build, the
// JavaScript fallback and the script-tag loader's placeholders: one inline
// host element with an open shadow root, styled by one constructable
// stylesheet per document (no `style` attribute, no `<style>` element, so a
// strict Content-Security-Policy allows it), written with textContent only.
// Nothing here throws.

const CSS = `:host {
  all: initial;
  display: inline-block;
  position: relative;
  vertical-align: middle;
  line-height: 0;
}
.badge {
  display: inline-flex;
  align-items: center;
  gap: 5px;
  box-sizing: border-box;
  /* Room for the common labels ("verified · A+", "not verified"), so that
     nothing on the line moves when the placeholder becomes the result
     (the mark and label stay where they are: left-aligned). */
  min-width: 9.25em;
  height: 20px;
  padding: 0 8px 0 6px;
  border: 1px solid #8a8f98;
  border-radius: 10px;
  background: #f4f5f7;
  color: #30343b;
  font: 500 12px/18px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  white-space: nowrap;
  cursor: default;
}
.badge:focus-visible {
  outline: 2px solid #1a5fd0;
  outline-offset: 2px;
}
.mark {
  display: inline-block;
  width: 12px;
  text-align: center;
  font-weight: 700;
}
.badge[data-state="checking"] .mark::before { content: "…"; }
.badge[data-state="unknown"] .mark::before { content: "?"; }
.badge[data-state="human-backed"] .mark::before { content: "✓"; }
.badge[data-state="revoked"] .mark::before { content: "✕"; }
.badge[data-state="human-backed"] { border-color: #1f7a3f; background: #e8f5ec; color: #14532b; }
.badge[data-state="revoked"] { border-color: #b42318; background: #fdeceb; color: #7a1a12; }
.tip {
  position: absolute;
  top: calc(100% + 6px);
  left: 0;
  z-index: 2147483647;
  box-sizing: border-box;
  width: max-content;
  max-width: 280px;
  padding: 6px 8px;
  border-radius: 6px;
  background: #1f2329;
  color: #fff;
  font: 400 12px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  white-space: normal;
  visibility: hidden;
  opacity: 0;
  transition: opacity 120ms ease-in;
  pointer-events: none;
}
.badge:hover + .tip,
.badge:focus + .tip {
  visibility: visible;
  opacity: 1;
}
@media (prefers-color-scheme: dark) {
  .badge { background: #2a2e35; color: #e6e8eb; border-color: #6b717c; }
  .badge[data-state="human-backed"] { background: #12301d; color: #b7ebc6; border-color: #3fa56a; }
  .badge[data-state="revoked"] { background: #3a1512; color: #f8c4be; border-color: #e0574a; }
}
@media (forced-colors: active) {
  .badge { border-color: CanvasText; }
}
@media (prefers-reduced-motion: reduce) {
  .tip { transition: none; }
}`;

/** The class of the element a badge puts in its container. */
const CLASS = "x402-verdict-badge";
/** The host's tag: a custom element, so that a badge drawn in a document
 * without a window (a template's, a DOMParser's) is styled once it is
 * connected to a live one. */
const HOST = "x402-verdict-host";
/** Where a document keeps its stylesheet: shared by every copy of this code
 * (the loader's and the package's) and every realm (Symbol.for is global). */
const SHEET = Symbol.for("x402-verdict.sheet");

/** The document's stylesheet, made in its own window; none without a window. */
function sheetFor(doc) {
  const view = doc.defaultView;
  if (!view) return null;
  if (!doc[SHEET]) {
    const sheet = new view.CSSStyleSheet();
    sheet.replaceSync(CSS);
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

/**
 * Puts a badge reading "checking" in `container` (any element, of any
 * document or realm, connected or not), replacing its content, and returns
 * its host; an existing badge in the container is reused. `null` when the
 * container cannot hold one.
 */
export function mount(container) {
  try {
    if (!container || container.nodeType !== 1) return null;
    let host = container.firstElementChild;
    if (!(container.childNodes.length === 1 && host?.className === CLASS && host.shadowRoot)) {
      const doc = container.ownerDocument;
      host = doc.createElement(HOST);
      host.className = CLASS;
      const root = host.attachShadow({ mode: "open" });
      const badge = element(doc, root, "badge", { part: "badge", tabindex: "0", role: "group", "aria-describedby": "tip" });
      element(doc, badge, "mark", { "aria-hidden": "true" });
      element(doc, badge, "label");
      element(doc, root, "tip", { id: "tip", role: "tooltip" });
      container.replaceChildren(host);
    }
    show(host, "checking", "checking", "Checking the verification service…");
    return host;
  } catch {
    return null;
  }
}

/** Shows a state (`checking`, `human-backed`, `revoked`, `unknown`), its label and hover text. */
export function show(host, state, label, hover) {
  try {
    const root = host.shadowRoot;
    const badge = root.querySelector(".badge");
    host.setAttribute("data-state", state);
    badge.setAttribute("data-state", state);
    badge.setAttribute("aria-label", `x402 verification: ${label}`);
    root.querySelector(".label").textContent = label;
    root.querySelector(".tip").textContent = hover;
    style(host);
  } catch {
    // Not a badge host: nothing to show.
  }
}
