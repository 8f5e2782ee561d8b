import { lookupVerdict } from "./pkg/index.js";
import { demo, el, optionsFor, ready } from "./demo.js";

const [config] = await Promise.all([demo(), ready]);
const widget = document.getElementById("widget");
const shown = ["verified", "verifiedSolana", "stale", "revoked", "overdue", "noSignal"];

const cards = await Promise.all(shown.map(async (name) => {
  const result = await lookupVerdict(optionsFor(config, name));
  const card = el("section", undefined, "card");
  card.dataset.endpoint = name;
  card.dataset.state = result.state;
  card.append(el("h3", config.endpoints[name].resourceUrl));
  const list = el("dl");
  const add = (term, value, className) => list.append(el("dt", term), el("dd", value ?? "—", className));
  add("Signal", result.state, `signal-${result.state}`);
  add("Outcome", result.outcome);
  add("Assurance", result.assuranceLevel);
  add("Last re-check", result.verifiedAt && new Date(result.verifiedAt).toLocaleString());
  add("Cadence", result.recheckEveryHours && `every ${result.recheckEveryHours} h`);
  add("Freshness", result.freshness);
  add("Signature", result.signature);
  add("Reason", result.reason);
  card.append(list);
  return card;
}));
widget.append(...cards);
document.body.dataset.rendered = String(cards.length);
