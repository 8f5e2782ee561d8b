import { renderBadge } from "./pkg/index.js";
import { demo, el, optionsFor, ready } from "./demo.js";

const [config] = await Promise.all([demo(), ready]);
const rows = [
  ["Verified (human-backed)", "verified"],
  ["Revoked", "revoked"],
  ["Stale", "stale"],
  ["No signal", "noSignal"],
  ["Unreachable service", "verified", { baseUrl: config.unreachable, timeoutMs: 1500 }],
  ["Tampered signature", "tampered"],
  ["Overdue re-check", "overdue"],
];
const grid = document.getElementById("states");
const pending = rows.map(([title, name, extra]) => {
  const slot = el("span");
  slot.dataset.case = title;
  grid.append(el("span", title), slot);
  return renderBadge(slot, optionsFor(config, name, extra));
});
const states = await Promise.all(pending);
document.body.dataset.rendered = String(states.length);
