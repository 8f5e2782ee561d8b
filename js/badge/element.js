// The <x402-verdict-badge> element: a badge that renders when connected and
// again when its options change, lazily unless told otherwise.
import { setTheme } from "../common/badge.js";
import { ELEMENT, FIELDS, attributeOf, fromAttributes, lookupKey } from "../common/options.js";
import { render } from "./render.js";

const STATE_EVENT = "x402-verdict:state";

/**
 * `<x402-verdict-badge base-url chain pay-to resource-url public-key
 * timeout-ms strict theme loading>`: renders when connected and again when an
 * attribute or property changes (`el.publicKey = [...]`), never twice for the
 * same options; lazily (when it comes near the viewport) unless
 * `loading="eager"`. `state` is the state rendered (`checking` before); an
 * `x402-verdict:state` event (detail: `{ state }`) fires when it settles.
 */
// Outside a browser (server rendering), importing the package defines nothing.
class VerdictBadge extends /** @type {typeof HTMLElement} */ (globalThis.HTMLElement ?? Object) {
  static observedAttributes = FIELDS.map(attributeOf);

  static {
    for (const field of FIELDS) {
      Object.defineProperty(this.prototype, field, {
        configurable: true,
        get() {
          return this.#properties[field];
        },
        set(value) {
          if (value === undefined || value === null) delete this.#properties[field];
          else this.#properties[field] = value;
          this.#schedule();
        },
      });
    }
  }

  #properties = {};
  #state = "checking";
  #key;
  #pending;
  #scheduled = false;

  constructor() {
    super();
    // Properties a framework set before the element was defined.
    for (const field of FIELDS) {
      if (Object.hasOwn(this, field)) {
        const value = this[field];
        delete this[field];
        this[field] = value;
      }
    }
  }

  /** The state rendered: `checking`, `human-backed`, `revoked` or `unknown`. */
  get state() {
    return this.#state;
  }

  connectedCallback() {
    this.#schedule();
  }

  attributeChangedCallback() {
    this.#schedule();
  }

  /** Renders once for a burst of changes (a framework sets one attribute at a time). */
  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (!this.isConnected) return;
      /** @type {Record<string | symbol, any>} */
      const options = { loading: "lazy", ...fromAttributes(this, ""), ...this.#properties };
      // A new theme is drawn at once; only a new lookup renders again.
      const key = lookupKey(options);
      if (key === this.#key && this.firstElementChild?.shadowRoot) {
        setTheme(this.firstElementChild, options.theme);
        return;
      }
      this.#key = key;
      this.#state = "checking";
      const pending = (this.#pending = render(this, options, () => {
        this.#key = undefined;
        this.#schedule();
      }));
      pending.then((state) => {
        if (this.#pending !== pending) return;
        this.#state = state;
        this.dispatchEvent(new CustomEvent(STATE_EVENT, { bubbles: true, composed: true, detail: { state } }));
      });
    });
  }
}

try {
  if (!globalThis.customElements.get(ELEMENT)) customElements.define(ELEMENT, VerdictBadge);
} catch {
  // No custom elements in this environment: renderBadge and renderAll still work.
}
