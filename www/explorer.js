import { renderBadge, lookupVerdict, endpointsFromDiscovery } from "./pkg/index.js";
import { demo, el, ready } from "./demo.js";

const PAGE = 100;
const [config, live] = await Promise.all([demo(), fetch("live.jsonl").then((r) => (r.ok ? r.text() : undefined)), ready]);
const rows = document.getElementById("rows");
const shown = document.getElementById("shown");
const listed = [];

/**
 * One row per accepted option of an item (and per option its resource asks
 * now that the listing does not name); its badge loads when it comes into
 * view, and beside it, what the live snapshot says of it (its row's note).
 */
function addRow(endpoint, serviceName) {
  const now = endpoint.live;
  const row = el("tr");
  row.append(el("td", String(listed.length + 1)), el("td", endpoint.resourceUrl, "mono"), el("td", serviceName ?? ""),
    el("td", endpoint.chain, "mono"), el("td", endpoint.payTo, "mono"));
  const cell = el("td");
  const note = el("td", now?.note ?? "", "note");
  note.title = note.textContent;
  row.append(cell, note);
  if (now) row.dataset.live = now.live;
  rows.append(row);
  const options = { chain: endpoint.chain, payTo: endpoint.payTo, resourceUrl: endpoint.resourceUrl, baseUrl: location.origin, rootKey: config.rootKey };
  renderBadge(cell, { ...options, loading: "lazy" }).then((state) => (row.dataset.state = state));
  listed.push({ row, options });
}

// The listing, page by page, until its total (or an empty page).
for (let offset = 0; ; ) {
  const answer = await fetch(`/discovery/resources?limit=${PAGE}&offset=${offset}`);
  const page = await answer.json();
  const { items, pagination, reason, liveReason } = await endpointsFromDiscovery(page, { live });
  if (reason) {
    console.warn(`the listing at offset ${offset}: ${reason}`);
    break;
  }
  if (liveReason && offset === 0) console.warn(liveReason);
  for (const [i, item] of items.entries()) {
    if (item.reason) console.warn(`the listing's item ${offset + i}: ${item.reason}`);
    for (const endpoint of item.endpoints) addRow(endpoint, page.items[i].serviceName);
    for (const added of item.added ?? []) addRow(added, page.items[i].serviceName);
  }
  offset += items.length;
  if (items.length === 0 || offset >= (pagination?.total ?? 0)) break;
}
shown.textContent = `${listed.length} ways to pay`;
document.body.dataset.listed = String(listed.length);

// The filter needs every row's state: lookupVerdict for each (one request per
// endpoint, shared with the badges), then only the human-backed rows stay.
const filter = document.getElementById("human-backed");
filter.addEventListener("change", async () => {
  document.body.dataset.filtered = "";
  if (!filter.checked) {
    for (const { row } of listed) row.hidden = false;
    shown.textContent = `${listed.length} ways to pay`;
  } else {
    const states = await Promise.all(listed.map(({ options }) => lookupVerdict(options).then((r) => r.state)));
    listed.forEach(({ row }, i) => (row.hidden = states[i] !== "human-backed"));
    shown.textContent = `${states.filter((s) => s === "human-backed").length} of ${listed.length} ways to pay, human-backed`;
  }
  document.body.dataset.filtered = String(listed.filter(({ row }) => !row.hidden).length);
});
