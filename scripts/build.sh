#!/usr/bin/env bash
# Builds the CLI and the npm package (pkg/, wasm-pack --target web, the
# size-optimized wasm-release profile, then scripts/minify.mjs), adds the
# package's JavaScript (scripts/package-js.mjs), and links pkg/ into www/ for
# the demo pages.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

cargo build --release -p x402-verdict --quiet

# The badge ships to every page that shows one, so its wasm is built for size:
# the standard library is rebuilt with the same settings as the badge
# (-Zbuild-std, from the rust-src component), optimized for size
# (optimize_for_size), with panics that trap at once instead of formatting a
# message nobody reads (immediate-abort) and without panic locations. These are
# unstable flags of the installed stable toolchain, enabled for this one build
# with RUSTC_BOOTSTRAP=1 (as the Linux kernel builds its Rust). Every other
# build and test uses the toolchain as it is. A toolchain without them (older
# than the one we test on) gets the plain build and a warning.
# wasm-opt comes from the npm package binaryen (node_modules/.bin), never Debian's.
size_flags="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none"
wasm_pack=(wasm-pack --log-level warn build --profile wasm-release --target web --out-dir pkg .)
# rustc checks the flags while it parses them, so printing the target's cfg is
# enough to know whether this toolchain takes them.
if [ -d "$(rustc --print sysroot)/lib/rustlib/src/rust/library" ] &&
  RUSTC_BOOTSTRAP=1 rustc $size_flags --print cfg --target wasm32-unknown-unknown >/dev/null 2>&1; then
  RUSTC_BOOTSTRAP=1 RUSTFLAGS="$size_flags" \
    "${wasm_pack[@]}" -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size
else
  echo "[build] warning: $(rustc --version) cannot rebuild the standard library for size;" \
    "the badge's wasm will be about 7 KB (gzip) larger" >&2
  "${wasm_pack[@]}"
fi
# Short import and export names in the wasm and its glue, then the glue minified.
node scripts/minify.mjs pkg
# The package's JavaScript: the badge's DOM, the entry, the fallback, the
# script-tag loader, and package.json pointing at them.
node scripts/package-js.mjs pkg
ln -sfn ../pkg www/pkg
