import { renderBadge, endpointsFromPaymentRequired } from "./pkg/index.js";
import { demo, el, ready } from "./demo.js";

const [config] = await Promise.all([demo(), ready]);
// The explorer holds each endpoint as its payment challenge (from a discovery
// catalogue); the badge's options are read from it, not written by hand.
const listings = await Promise.all(config.catalogue.map(async ({ name, challenge }) => {
  const { endpoints, reason } = await endpointsFromPaymentRequired(challenge);
  if (endpoints.length === 0) console.warn(`${name}: ${reason}`);
  return { name, endpoint: endpoints[0] };
}));
const rows = document.getElementById("rows");
const pending = [];
for (let i = 0; i < 100; i++) {
  // Most listings are the verified endpoints; every state appears.
  const { name, endpoint } = i % 3 === 0 ? listings[(i / 3) % listings.length] : listings[i % 3];
  const row = el("tr");
  row.dataset.endpoint = name;
  row.dataset.expected = config.endpoints[name].state;
  row.append(el("td", String(i + 1)), el("td", endpoint.resourceUrl, "mono"), el("td", endpoint.chain, "mono"), el("td", endpoint.payTo, "mono"),
    el("td", `${endpoint.amount} (${endpoint.scheme})`, "mono"));
  const cell = el("td");
  row.append(cell);
  rows.append(row);
  pending.push(renderBadge(cell, { ...endpoint, baseUrl: location.origin, rootKey: config.rootKey }));
}
const states = await Promise.all(pending);
document.body.dataset.rendered = String(states.length);
