// ESLint over the JavaScript (npm run lint; npm test runs it): the
// recommended rules, with each folder's globals. tsc --checkJs
// (tsconfig.json) checks the same files' types.
import js from "@eslint/js";
import globals from "globals";

export default [
  // Build output and dependencies are not ours to lint.
  { ignores: ["node_modules/", "target/", "pkg/", "pkg-agent/", "pkg-extension/", "www/pkg/", ".work/"] },
  js.configs.recommended,
  // The badge's package runs in pages (and the x402-verdict package in Node too).
  { files: ["js/**/*.js"], languageOptions: { globals: { ...globals.browser } } },
  // The browser extension: its pages and workers, and the WebExtension API.
  { files: ["js/extension/**/*.js"], languageOptions: { globals: { ...globals.webextensions, ...globals.serviceworker } } },
];
