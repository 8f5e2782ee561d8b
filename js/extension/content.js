// The extension's content script, in the top document of every page. It
// only reads: the page's own badges (the badge package's elements, their
// lookup options as the package reads them from their attributes; image
// badges, their URL, which names their endpoint: nothing is fetched), handed
// to the background when the page is idle and again when they change; and,
// only when the background asks (the document was a 402 without a
// PAYMENT-REQUIRED header), the text of its inline scripts, where an x402
// v1 paywall keeps its terms. The background decides everything. It
// changes nothing in the page and sends nothing anywhere but to the
// extension.
import { fromAttributes } from "../common/options.js";
import { ATTRIBUTES_KEY } from "../generated/words.js";
import { LIMITS, PAGE_BADGES } from "../generated/extension-words.js";
import { api } from "./api.js";

/** The lookup options' texts of the page's first badges, in document order. */
function badges() {
  const found = [];
  for (const element of document.querySelectorAll(PAGE_BADGES.selector)) {
    if (found.length >= LIMITS.badges) break;
    const [, prefix] = PAGE_BADGES.prefixes.find(([selector]) => element.matches(selector));
    found.push({ ...fromAttributes(element, prefix)[Symbol.for(ATTRIBUTES_KEY)] });
  }
  for (const image of /** @type {NodeListOf<HTMLImageElement>} */ (document.querySelectorAll(PAGE_BADGES.images))) {
    if (found.length >= LIMITS.badges) break;
    found.push({ image: image.src });
  }
  return found;
}

/** The text of the page's inline scripts, at most LIMITS.paywallText of it. */
function scripts() {
  let text = "";
  for (const script of document.scripts) {
    if (!script.src) text += `${script.text}\n`;
    if (text.length >= LIMITS.paywallText) break;
  }
  return text.slice(0, LIMITS.paywallText);
}

let sent;
/** Hands the page's badges over, when they changed since. */
function send() {
  const found = badges();
  const key = JSON.stringify(found);
  if (key === sent) return;
  sent = key;
  // The extension reloading hears nothing: nothing to hand over.
  api.runtime.sendMessage({ kind: "page", badges: found }).catch(() => {});
}

// The background asks for the scripts of a 402 page without the header.
api.runtime.onMessage.addListener((message, sender, reply) => {
  if (message?.kind !== "scripts" || sender.id !== api.runtime.id) return false;
  reply(scripts());
  return false;
});
send();
// Badges drawn later: looked for again when the page is idle, once per burst of changes.
let waiting = false;
new MutationObserver(() => {
  if (waiting) return;
  waiting = true;
  requestIdleCallback(() => {
    waiting = false;
    send();
  });
}).observe(document, { childList: true, subtree: true });
