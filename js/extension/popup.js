// The extension's popup: what the background keeps for the tab (the
// challenges it met, each option's result in the badge's words and look,
// the page's own badges checked against them), drawn with the badge
// package's own renderer. popup.html?tab=N shows tab N (the popup opened in
// a tab of its own); otherwise the active tab. Every word comes from the
// Rust (the record's, and ../generated/extension-words.js).
import { mount } from "../common/badge.js";
import { CHECKING } from "../generated/words.js";
import { WORDS } from "../generated/extension-words.js";
import { api } from "./api.js";

/** An element of `tag` with `className` and the text `text`, appended to `parent`. */
function add(parent, tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  parent.append(node);
  return node;
}

/** A badge showing `view` (the badge's state, label, hover text and name), "checking" while there is none. */
function badge(parent, view) {
  const [state, label, hover, name] = view ? [view.state, view.label, view.hover, view.name] : CHECKING;
  const container = add(parent, "div", "badge");
  mount(container, state, label, hover, name);
  return view?.hover ?? hover;
}

/** Who an option or badge names: its resource's host, then whom it pays (the full address as its tooltip). */
function who(parent, { host, payee, payTo }) {
  const line = add(parent, "p", "who");
  add(line, "span", "host", host);
  add(line, "span", "payee", payee).title = payTo ?? "";
}

function draw({ challenges, badges, noService }) {
  const view = document.getElementById("view");
  view.replaceChildren();
  if (noService) {
    const help = add(view, "section", "service");
    add(help, "p", "", WORDS.noService);
    add(help, "p", "", WORDS.setService);
    add(help, "button", "", WORDS.openSettings).addEventListener("click", () => api.runtime.openOptionsPage());
  }
  if (!challenges.length) add(add(view, "section", "nothing"), "p", "", WORDS.nothingAsked);
  for (const challenge of challenges) {
    const section = add(view, "section", challenge.top ? "challenge top" : "challenge");
    add(section, "h2", "", challenge.top ? WORDS.askedByPage : WORDS.askedByRequest);
    add(section, "p", "url", challenge.url);
    if (!challenge.endpoints.length) add(section, "p", "note", WORDS.unread + challenge.reason);
    for (const endpoint of challenge.endpoints) {
      const option = add(section, "div", "option");
      const hover = badge(option, endpoint.view);
      who(option, endpoint);
      add(option, "p", "hover", hover);
    }
  }
  if (badges.length) {
    const section = add(view, "section", "page-badges");
    add(section, "h2", "", WORDS.pageBadges);
    for (const checked of badges) {
      const item = add(section, "div", "option");
      if (checked.payee) who(item, checked);
      add(item, "p", checked.about ? "note" : "note flag", checked.note);
      if (checked.about) {
        const [c, o] = checked.about;
        badge(item, challenges[c].endpoints[o].view);
      }
    }
  }
}

const asked = new URLSearchParams(location.search).get("tab");
const tabId = asked === null ? (await api.tabs.query({ active: true, currentWindow: true }))[0]?.id : Number(asked);
const refresh = async () => draw(await api.runtime.sendMessage({ kind: "view", tabId }));
await refresh();
// The record changes while the popup is open (results coming in): drawn again.
api.storage.onChanged.addListener((changes, area) => {
  if (area === "session" && changes[`tab:${tabId}`]) refresh();
});
