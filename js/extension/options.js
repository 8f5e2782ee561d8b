// The extension's settings page: the verification service's base URL, its
// keys, its root keys, strict mode and its transparency log, saved in storage.local under SETTINGS.key as the
// badge's options of the same names; those an organization's policy sets
// (storage.managed) are shown and not changed. The engine (through the
// background) reads the fields and says what is wrong; every word comes
// from the Rust (../generated/extension-words.js).
import { SETTINGS, WORDS } from "../generated/extension-words.js";
import { api } from "./api.js";

/** The element of `id`: the fields read and shown here are <input>s. */
const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
const ask = (message) => api.runtime.sendMessage(message);

document.title = WORDS.settingsTitle;
for (const [id, text] of [["title", WORDS.settingsTitle], ["base-url-label", WORDS.settingBaseUrl], ["public-key-label", WORDS.settingPublicKey], ["root-key-label", WORDS.settingRootKey], ["strict-label", WORDS.settingStrict], ["log-key-label", WORDS.settingLogKey], ["witness-keys-label", WORDS.settingWitnessKeys], ["witness-quorum-label", WORDS.settingWitnessQuorum], ["transparency-label", WORDS.settingTransparency]]) {
  $(id).textContent = text;
}

/**
 * Each setting's field and how it shows a value.
 * @type {Record<string, [HTMLInputElement, (input: HTMLInputElement, value: any) => unknown]>}
 */
const FIELDS = {
  baseUrl: [$("base-url"), (input, value) => (input.value = value ?? "")],
  publicKey: [$("public-key"), (input, value) => (input.value = [value ?? []].flat().join(", "))],
  rootKey: [$("root-key"), (input, value) => (input.value = [value ?? []].flat().join(", "))],
  strict: [$("strict"), (input, value) => (input.checked = value === true)],
  logKey: [$("log-key"), (input, value) => (input.value = value ?? "")],
  witnessKeys: [$("witness-keys"), (input, value) => (input.value = [value ?? []].flat().join(", "))],
  witnessQuorum: [$("witness-quorum"), (input, value) => (input.value = value ?? "")],
  transparency: [$("transparency"), (input, value) => (input.value = value ?? "off")],
};

const { settings, managed } = await ask({ kind: "settings" });
for (const [name, [input, show]] of Object.entries(FIELDS)) {
  show(input, settings[name]);
  if (managed.includes(name)) {
    input.disabled = true;
    const note = document.createElement("span");
    note.className = "managed";
    note.textContent = WORDS.managed;
    input.closest("label").append(note);
  }
}

$("settings").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = {
    kind: "form", baseUrl: $("base-url").value, publicKey: $("public-key").value, rootKey: $("root-key").value, strict: $("strict").checked,
    logKey: $("log-key").value, witnessKeys: $("witness-keys").value, witnessQuorum: $("witness-quorum").value, transparency: $("transparency").value,
  };
  const read = await ask(form);
  if (read.problem) {
    $("status").textContent = WORDS.settingsRefused + read.problem;
    return;
  }
  await api.storage.local.set({ [SETTINGS.key]: read.settings });
  $("status").textContent = WORDS.saved;
});
// The button's word last: the page is ready once it shows (the fields
// filled from the settings in force, the form listening).
$("save").textContent = WORDS.save;
