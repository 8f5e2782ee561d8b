// Debian's Chromium driven by playwright-core: never a browser of its own.
import { chromium } from "playwright-core";

export const CHROMIUM_FLAGS = [
  "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
  "--no-first-run", "--disable-sync", "--disable-quic",
];

export function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_FLAGS, headless: true });
}
