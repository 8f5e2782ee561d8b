#!/usr/bin/env bash
# Builds the CLI and the npm package (pkg/, wasm-pack --target web, the
# size-optimized wasm-release profile), adds the
# script-tag loader, and links pkg/ into www/ for the demo pages.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

cargo build --release -p x402-verdict --quiet
# wasm-opt comes from the npm package binaryen (node_modules/.bin), never Debian's.
wasm-pack --log-level warn build --profile wasm-release --target web --out-dir pkg
cp js/embed.js pkg/embed.js
# Ship the loader in the npm package too.
node -e '
  const fs = require("fs");
  const pkg = JSON.parse(fs.readFileSync("pkg/package.json", "utf8"));
  pkg.files = [...new Set([...(pkg.files || []), "embed.js"])];
  // embed.js renders on import: bundlers must keep it.
  pkg.sideEffects = [...new Set([...(pkg.sideEffects || []), "./embed.js"])];
  fs.writeFileSync("pkg/package.json", JSON.stringify(pkg, null, 2) + "\n");
'
ln -sfn ../pkg www/pkg
