// The extension's background: a service worker in Chromium, an event page
// in Firefox. It observes every response of every tab (webRequest, without
// blocking: nothing waits for it, nothing is altered), reads each 402 as
// `x402-verdict check` reads a challenge, looks each accepted option up
// under the settings, and keeps one record per tab: the challenges it met
// (the last LIMITS.challenges, the top document's kept first) and the
// badges its page draws. It shows the record's verdict in the toolbar and
// hands it to the popup. Every decision and every word comes from the
// Rust core through the engine (./x402_verdict_extension.js, its wasm);
// this file observes, keeps and hands on.
//
// A record lives in memory and, for when the browser stops an idle
// background, in storage.session (memory only, never written to disk); it
// goes when its tab closes or loads another document.
import init, * as engine from "./x402_verdict_extension.js";
import { api } from "./api.js";
import { CHALLENGE, LIMITS, SETTINGS, WORDS } from "../generated/extension-words.js";
import { LOOK } from "../generated/look.js";

/** A tab's record in storage.session. */
const keyOf = (tabId) => `tab:${tabId}`;

/** By tab id: { url, challenges: MetChallenge & { url, top }[], badges: attribute texts[], wantsPage, shown }. */
const tabs = new Map();
/** The settings in force: { settings, managed, noService, problem? }. */
let inForce;

/** Runs `task` after every task before it (events are handled in order, once the engine has loaded). */
let queue = init({ module_or_path: api.runtime.getURL("x402_verdict_extension_bg.wasm") })
  .then(loadSettings)
  .then(restore);
const later = (task) => (queue = queue.then(task).catch((error) => console.error(error)));

/** The settings in force, from the user's (storage.local) and the policy's (storage.managed). */
async function loadSettings() {
  const local = (await api.storage.local.get(SETTINGS.key))[SETTINGS.key];
  let managed;
  try {
    managed = (await api.storage.managed.get(SETTINGS.key))[SETTINGS.key];
  } catch {
    // No policy for this extension (Firefox says so by throwing).
  }
  inForce = engine.settingsInForce(local, managed);
}

/** The records a stopped background kept, for the tabs still open; options without a result are looked up again. */
async function restore() {
  const [kept, open] = await Promise.all([api.storage.session.get(null), api.tabs.query({})]);
  const ids = new Set(open.map((tab) => tab.id));
  for (const [key, record] of Object.entries(kept)) {
    const tabId = Number(key.slice(keyOf("").length));
    if (!ids.has(tabId)) {
      api.storage.session.remove(key);
      continue;
    }
    tabs.set(tabId, record);
    for (const challenge of record.challenges) check(tabId, record, challenge, (endpoint) => !endpoint.view);
  }
}

/** The record of `tabId`, made empty when there is none. */
function recordOf(tabId) {
  if (!tabs.has(tabId)) tabs.set(tabId, { challenges: [], badges: [], wantsPage: false });
  return tabs.get(tabId);
}

/** By tab id: what the content script of a document whose record is not made yet said ({ url, badges }). */
const early = new Map();

/** A response of a tab: a new top document starts a new record; a 402 is a challenge met. */
function responded(details) {
  const { tabId, type, statusCode, url } = details;
  const top = type === "main_frame";
  if (top) {
    tabs.delete(tabId);
    recordOf(tabId).url = url;
    changed(tabId);
  }
  if (statusCode === CHALLENGE.status) {
    const header = details.responseHeaders?.find((h) => h.name.toLowerCase() === CHALLENGE.header)?.value;
    // A top document without the header: its page may be a v1 paywall, whose terms the content script reads.
    if (top && header === undefined) recordOf(tabId).wantsPage = true;
    met(tabId, { ...engine.readChallenge(url, header), url, top });
  }
  // The document's content script may have spoken before its response reached here.
  const said = early.get(tabId);
  if (top && said?.url === url) {
    early.delete(tabId);
    heard(tabId, said.badges);
  }
}

/** The page of `tabId` draws `badges`; when its record wants the page's scripts, they are asked for. */
function heard(tabId, badges) {
  const record = tabs.get(tabId);
  record.badges = badges.slice(0, LIMITS.badges);
  changed(tabId);
  if (!record.wantsPage) return;
  record.wantsPage = false;
  api.tabs.sendMessage(tabId, { kind: "scripts" }, { frameId: 0 }).then((scripts) => later(() => {
    if (tabs.get(tabId) !== record || typeof scripts !== "string") return;
    met(tabId, { ...engine.readChallenge(record.url, undefined, scripts.slice(0, LIMITS.paywallText)), url: record.url, top: true });
  }), () => {});
}

/** Records a challenge met in `tabId`: the same one again moves to the front, a new one is looked up. */
function met(tabId, challenge) {
  const record = recordOf(tabId);
  const list = record.challenges;
  const again = list.findIndex((c) => c.key === challenge.key && c.top === challenge.top);
  if (again >= 0) {
    list.unshift(...list.splice(again, 1));
  } else {
    // The top document has one challenge: its paywall's terms replace what its headers gave.
    if (challenge.top) list.splice(0, list.length, ...list.filter((c) => !c.top));
    list.unshift(challenge);
    // The oldest go first; the top document's stays.
    while (list.length > LIMITS.challenges) list.splice(list.findLastIndex((c) => !c.top), 1);
    check(tabId, record, challenge, () => true);
  }
  changed(tabId);
}

/** Looks up each option of `challenge` that `which` picks, each result kept while the record is the tab's. */
function check(tabId, record, challenge, which) {
  for (const endpoint of challenge.endpoints) {
    if (!which(endpoint)) continue;
    delete endpoint.view;
    engine.checkEndpoint(inForce.settings, endpoint).then((view) => later(() => {
      if (tabs.get(tabId) !== record) return;
      endpoint.view = view;
      changed(tabId);
    }));
  }
}

/** The toolbar of `tabId` shows its record (set again only when it changed, unless `force`); the record is saved. */
function changed(tabId, force = false) {
  const record = tabs.get(tabId);
  if (!record) return;
  const challenge = record.challenges.find((c) => c.top) ?? record.challenges[0];
  /** @type {{ state?: string, title: string }} */
  const shown = challenge ? engine.toolbarOf(challenge) : { title: WORDS.nothingAskedTitle };
  const look = LOOK[shown.state] ?? { mark: "", colour: LOOK.unknown.colour };
  const key = JSON.stringify([look.mark, shown.title]);
  if (force || record.shown !== key) {
    record.shown = key;
    // A tab closed meanwhile: nothing to show.
    const quiet = () => {};
    api.action.setBadgeText({ tabId, text: look.mark }).catch(quiet);
    api.action.setBadgeBackgroundColor({ tabId, color: look.colour }).catch(quiet);
    api.action.setBadgeTextColor?.({ tabId, color: "#ffffff" }).catch(quiet);
    api.action.setTitle({ tabId, title: shown.title }).catch(quiet);
  }
  save(tabId);
}

/** Tabs whose record changed since it was last saved, and the save under way. */
const dirty = new Set();
let saving;
/** Saves the record of `tabId` (or forgets it) with the next write: one write at a time, each carrying every change since the last. */
function save(tabId) {
  dirty.add(tabId);
  saving ??= (async () => {
    while (dirty.size) {
      const ids = [...dirty];
      dirty.clear();
      const kept = Object.fromEntries(ids.filter((id) => tabs.has(id)).map((id) => [keyOf(id), tabs.get(id)]));
      const gone = ids.filter((id) => !tabs.has(id)).map(keyOf);
      await api.storage.session.set(kept).catch(() => {});
      if (gone.length) await api.storage.session.remove(gone).catch(() => {});
    }
    saving = undefined;
  })();
}

/** What the popup shows for `tabId`: its challenges, its page's badges checked against them, and whether a service is set. */
function viewOf(tabId) {
  const record = tabs.get(tabId) ?? { challenges: [], badges: [] };
  const challenges = record.challenges;
  return {
    challenges,
    badges: engine.crossCheck(record.badges, challenges),
    noService: inForce.noService,
  };
}

// Every response: only a top document's and a 402 are looked at (the listener does nothing else, and blocks nothing).
api.webRequest.onHeadersReceived.addListener(
  (details) => {
    if (details.tabId >= 0 && (details.type === "main_frame" || details.statusCode === CHALLENGE.status)) later(() => responded(details));
  },
  { urls: ["<all_urls>"] },
  ["responseHeaders"],
);

// The browser clears a tab's toolbar when its new document commits: shown again then.
api.tabs.onUpdated.addListener((tabId, change) => {
  if (change.status) later(() => changed(tabId, true));
});

api.tabs.onRemoved.addListener((tabId) => later(() => {
  tabs.delete(tabId);
  early.delete(tabId);
  save(tabId);
}));

api.storage.onChanged.addListener((changes, area) => {
  if ((area === "local" || area === "managed") && changes[SETTINGS.key]) {
    later(async () => {
      await loadSettings();
      for (const [tabId, record] of tabs) {
        for (const challenge of record.challenges) check(tabId, record, challenge, () => true);
        changed(tabId);
      }
    });
  }
});

/** The messages of the content script (`page`), the popup (`view`) and the settings page (`settings`, `form`): each answer. */
const ANSWERS = {
  /** The badges of the page of the sender's tab (kept until its record is made, when it is not yet). */
  page({ badges }, sender) {
    const tabId = sender.tab?.id;
    if (tabId === undefined || sender.frameId !== 0 || !Array.isArray(badges)) return;
    if (tabs.get(tabId)?.url === sender.url) heard(tabId, badges);
    else early.set(tabId, { url: sender.url, badges: badges.slice(0, LIMITS.badges) });
  },
  view: ({ tabId }) => viewOf(tabId),
  settings: () => inForce,
  form: ({ baseUrl, publicKey, rootKey, strict, logKey, witnessKeys, witnessQuorum, transparency }) =>
    engine.settingsFromForm(String(baseUrl), String(publicKey), String(rootKey ?? ""), Boolean(strict), String(logKey ?? ""), String(witnessKeys ?? ""), String(witnessQuorum ?? ""), String(transparency ?? "")),
};

api.runtime.onMessage.addListener((message, sender, reply) => {
  const answer = ANSWERS[message?.kind];
  if (!answer || sender.id !== api.runtime.id) return false;
  later(() => reply(answer(message, sender)));
  return true;
});
