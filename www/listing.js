import { renderBadge } from "./pkg/index.js";
import { demo, el, optionsFor, ready } from "./demo.js";

const [config] = await Promise.all([demo(), ready]);
const names = Object.keys(config.endpoints);
const rows = document.getElementById("rows");
const pending = [];
for (let i = 0; i < 100; i++) {
  // Most listings are the verified endpoints; every state appears.
  const name = i % 3 === 0 ? names[(i / 3) % names.length] : names[i % 3];
  const endpoint = config.endpoints[name];
  const row = el("tr");
  row.dataset.endpoint = name;
  row.dataset.expected = endpoint.state;
  row.append(el("td", String(i + 1)), el("td", endpoint.resourceUrl, "mono"), el("td", endpoint.chain, "mono"), el("td", endpoint.payTo, "mono"));
  const cell = el("td");
  row.append(cell);
  rows.append(row);
  pending.push(renderBadge(cell, optionsFor(config, name)));
}
const states = await Promise.all(pending);
document.body.dataset.rendered = String(states.length);
