// The WebExtension API of the browser the extension runs in: Firefox's
// `browser`, Chromium's `chrome` (both promise-based under Manifest V3).
export const api = globalThis.browser ?? globalThis.chrome;
