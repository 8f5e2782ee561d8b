// Shared by the demo pages: the demo configuration written by scripts/demo.mjs.
import init from "./pkg/index.js";

export const ready = init();

/** { publicKey, rootKey, unreachable, endpoints, catalogue: [{ name, challenge }] } */
export async function demo() {
  const response = await fetch("demo.json");
  return response.json();
}

/** Badge options for a demo endpoint against this origin's service, pinned to its root key. */
export function optionsFor(config, name, extra = {}) {
  const { chain, payTo, resourceUrl } = config.endpoints[name];
  return { baseUrl: location.origin, chain, payTo, resourceUrl, rootKey: config.rootKey, ...extra };
}

/** A new element with text (never markup). */
export function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}
