#!/usr/bin/env bash
# npm test: every test. Native (cargo test), browser (wasm-bindgen-test in
# headless Chromium and Firefox), end to end (www/ and pages of every shape in
# Chromium, Firefox and WebKit: tests/support/browser.mjs), MCP (the official
# TypeScript SDK driving our server), the browser extension (Chromium,
# Firefox). Sets itself up first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

bash scripts/setup.sh
# Browser profiles and test artifacts stay in the project's scratch folder.
export TMPDIR="$PWD/.work/tmp"
rm -rf "$TMPDIR" && mkdir -p "$TMPDIR" test-artifacts

step() { printf '\n== %s\n' "$*"; }

step "self-contained (no reference outside the repository)"
node scripts/check-self-contained.mjs

step "format and lints"
cargo fmt --all -- --check
# Every generated file committed as `cargo xtask generate` writes it (one
# line per stale file, naming the command that fixes it).
cargo xtask generate --check
# The JavaScript's lints (eslint.config.js); its types are checked after the build.
eslint js || { echo "ESLint found the problems above in js/ (npm run lint: docs/building.md)" >&2; exit 1; }
# The tests' build of the command pins its clock (`serve --now`: its
# dev-dependency turns on the feature pinned-clock); a release has no such
# option, linted as it ships too, and so is the command without its servers
# (docs/building.md, "The command's features").
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo clippy -p x402-verdict --quiet -- -D warnings
cargo clippy -p x402-verdict --no-default-features --quiet -- -D warnings
cargo clippy -p x402-verdict --no-default-features --features mcp --quiet -- -D warnings
# lookup, check and scan alone build none of the server stack.
server_stack="$(cargo tree -p x402-verdict --no-default-features -e normal --prefix none \
  | grep -E '^(rusqlite|axum|rmcp|x402-verdict-service|x402-verdict-mcp|x402-verdict-http) ' || true)"
if [ -n "$server_stack" ]; then
  printf 'x402-verdict --no-default-features builds the server stack:\n%s\n' "$server_stack" >&2
  exit 1
fi
cargo clippy -p x402-verdict-badge --target wasm32-unknown-unknown --all-targets --quiet -- -D warnings
# The x402-verdict package's wasm (its own feature, outside the defaults).
cargo clippy -p x402-verdict-badge --target wasm32-unknown-unknown --no-default-features --features agent --quiet -- -D warnings
# The browser extension's engine (its own feature, outside the defaults).
cargo clippy -p x402-verdict-badge --target wasm32-unknown-unknown --no-default-features --features extension --quiet -- -D warnings

step "native tests (cargo test)"
cargo test --workspace --quiet

step "packaging (every crate for crates.io packs and builds from its own tarball)"
bash scripts/package-crates.sh

step "differential fuzz of the strict parser and RFC 8785 writer (short run; npm run fuzz for a long one)"
cargo run --quiet -p x402-verdict-core --example fuzz -- --seconds 3

step "build (wasm-pack, release)"
# With the JavaScript build for the tests alone (wasm-pack.toml's [js-test-build]).
bash scripts/build.sh --tests
node scripts/size.mjs --check

step "types of the JavaScript (tsc --checkJs over js/, with the modules the build wrote: tsconfig.json)"
tsc -p tsconfig.json || { echo "tsc found the type errors above in js/ (npm run lint: docs/building.md)" >&2; exit 1; }

step "browser tests (wasm-bindgen-test, headless Chromium)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER=/usr/bin/chromedriver \
WASM_BINDGEN_TEST_TIMEOUT=120 \
  node tests/support/with-services.mjs -- cargo test -p x402-verdict-badge --target wasm32-unknown-unknown --test web

step "browser tests (wasm-bindgen-test, headless Firefox ESR through geckodriver)"
# geckodriver starts the `firefox` it finds on PATH: Debian calls it firefox-esr
# (FIREFOX, when set, names another: docs/building.md).
mkdir -p .work/bin && ln -sfn "${FIREFOX:-/usr/bin/firefox-esr}" .work/bin/firefox
PATH="$PWD/.work/bin:$PATH" \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
GECKODRIVER="$(command -v geckodriver)" \
WASM_BINDGEN_TEST_TIMEOUT=120 \
  node tests/support/with-services.mjs -- cargo test -p x402-verdict-badge --target wasm32-unknown-unknown --test web

step "build configuration, the package's scheduling, both npm packages installed from their tarballs, end-to-end (Chromium, Firefox, WebKit), MCP, interoperability, agent-package and browser-extension tests (node --test)"
node --test --test-concurrency=1 tests/build/ tests/package/ tests/install/ tests/e2e/ tests/mcp/ tests/interop/ tests/agent/ tests/extension/

step "Python package (the wheel in a fresh virtual environment with the official x402 2.25; pytest tests/python/)"
bash scripts/test-python.sh
