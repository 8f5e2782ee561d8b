#!/usr/bin/env bash
# npm run build: sets itself up (scripts/setup.sh skips what is present, so
# every command built on it works on a fresh clone), writes the core's
# generated modules, then builds everything with scripts/build.mjs, which
# reads wasm-pack.toml (the command, the Python wheel, both npm packages,
# the browser extension and the demo's copy of the badge's).
#
# With --tests (as `npm test` runs it), also the builds for the tests
# alone, never packaged (wasm-pack.toml's [js-test-build]).
set -euo pipefail
case "${1:-}" in
  "" | --tests) ;;
  *) echo "usage: bash scripts/build.sh [--tests]" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

# The words for the package's JavaScript (the core's, and src/words.rs),
# the extension's own (src/words/extension.rs) and the unions of the core's
# spellings that both packages' types import, printed by the repository's
# own tool (crates/xtask): modules the bundler resolves (scripts/build.mjs).
generated=target/generated
mkdir -p "$generated"
cargo xtask generate types > "$generated/verdict-types.d.ts"
cargo xtask generate words > "$generated/words.js"
cargo xtask generate extension-words > "$generated/extension-words.js"
# The Python package's policy names, a module of its own source (maturin
# packs python/ as it is), rewritten so that it never lags the core.
cargo xtask generate python-policy > crates/python/python/x402_verdict/_policy.py
exec node scripts/build.mjs "$@"
