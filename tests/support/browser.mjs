// Debian's Chromium driven by playwright-core: never a browser of its own.
import { chromium } from "playwright-core";

export const CHROMIUM_FLAGS = [
  "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
  "--no-first-run", "--disable-sync", "--disable-quic",
];

export function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_FLAGS, headless: true });
}

/** Records the Content-Security-Policy violations of every document `page` loads (call before navigating); resolves to a reader of them. */
export async function watchViolations(page) {
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      window.__violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI }));
  });
  return () => page.evaluate(() => window.__violations);
}
