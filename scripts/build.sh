#!/usr/bin/env bash
# npm run build: sets itself up (scripts/setup.sh skips what is present, so
# every command built on it works on a fresh clone), brings the generated
# files up to date, then builds everything with scripts/build.mjs, which
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

# Every generated file (the packages' words, types and file names, the
# extension's words, look and policy schema, the Python package's
# vocabularies, the image badge's palette), committed, rewritten where its
# source changed (crates/xtask; `npm test` fails on one left stale).
cargo xtask generate
exec node scripts/build.mjs "$@"
