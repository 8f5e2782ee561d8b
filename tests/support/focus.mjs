// The keyboard's way to a badge, in any engine (tests/support/browser.mjs).

/**
 * Presses Tab (up to 10 times) until a badge holds the focus; resolves to where the focus is,
 * as the page sees it: on the first badge's host in the document, on its `.badge` in the shadow
 * root, and `:focus` matching both ({ active, host, badge }, each true when so).
 */
export async function tabToFirstBadge(page) {
  for (let i = 0; i < 10 && !(await page.evaluate(() => document.activeElement?.localName === "x402-verdict-view")); i++) {
    await page.keyboard.press("Tab");
  }
  return page.$eval("x402-verdict-view", (host) => ({
    active: document.activeElement === host,
    host: host.matches(":focus"),
    badge: host.shadowRoot.activeElement?.matches(".badge:focus") ?? false,
  }));
}
