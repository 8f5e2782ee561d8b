// A lookup's options as the package reads them before the engine does:
// from an object (read once, when the call is made) or from an element's
// attributes (their texts, which the core reads), and the keys that tell
// whether two lookups ask the same. Nothing here checks an option: the
// engine names whatever is wrong.
import { ATTRIBUTES_KEY, OPTION_NAMES } from "../generated/words.js";

/** The attribute marking an element whose data- attributes are a badge's options (`<span data-x402-verdict data-chain=…>`). */
export const MARK = "data-x402-verdict";

/** The badge's element, whose attributes (without the data- prefix) and properties are its options. */
export const ELEMENT = "x402-verdict-badge";

/** Every option an element's attributes (or properties) may carry: the lookup's, and how it is drawn and when. */
export const FIELDS = [...OPTION_NAMES, "theme", "loading"];

/** The attribute of an option: `baseUrl` → `base-url`. */
export const attributeOf = (field) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Marks the texts of options read from attributes, which the core reads (ATTRIBUTES_KEY). */
const ATTRIBUTES = Symbol.for(ATTRIBUTES_KEY);

/** An option, or undefined when it cannot be read (the engine names the problem). */
export function option(options, name) {
  try {
    return options?.[name] ?? options?.[ATTRIBUTES]?.[name];
  } catch {
    return undefined;
  }
}

/** A shallow copy, so that options are read when the call is made. */
export function snapshot(options) {
  try {
    return options && typeof options === "object" && !Array.isArray(options) ? { ...options } : options;
  } catch {
    return options;
  }
}

/**
 * Options from attributes (`base-url`, … or, with the prefix, `data-base-url`,
 * …): `theme` and `loading` as they are, and the lookup's options as the
 * texts written, under ATTRIBUTES, for the core to read (where the options
 * themselves give no value, as an element's properties do).
 * @param {Element} element
 * @param {string} prefix
 * @returns {Record<string | symbol, any>}
 */
export function fromAttributes(element, prefix) {
  const texts = {};
  const options = { [ATTRIBUTES]: texts };
  for (const field of FIELDS) {
    const value = element.getAttribute(prefix + attributeOf(field));
    if (value !== null) (OPTION_NAMES.includes(field) ? texts : options)[field] = value;
  }
  return options;
}

/** A key that changes when the options do. */
function keyOf(options) {
  try {
    return JSON.stringify(options);
  } catch {
    return Symbol("unserializable");
  }
}

/** The key of the lookup the options ask for (their theme and loading aside; attribute texts included). */
export function lookupKey(options) {
  return keyOf(OPTION_NAMES.map((name) => option(options, name)));
}

/** The origin of the service the options name, against `base` (the page's URL); "" when they name none (nothing is fetched). */
export function serviceOf(options, base = globalThis.document?.baseURI) {
  try {
    const url = option(options, "baseUrl");
    return url ? new URL(url, base).origin : "";
  } catch {
    return "";
  }
}
