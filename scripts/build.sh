#!/usr/bin/env bash
# Builds the CLI and the npm package as wasm-pack.toml says (wasm-pack with
# --no-opt, then wasm-opt, then scripts/minify.mjs), adds the package's
# JavaScript (scripts/package-js.mjs), and copies the package into www/ for
# the demo pages. Sets itself up first (scripts/setup.sh skips what is
# present), so every command built on it works on a fresh clone.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

cargo build --release -p x402-verdict --quiet
# The demo's published-metrics page, from the committed snapshot (served at
# /metrics/ by npm start).
target/release/x402-verdict metrics page --snapshot demo/metrics/snapshot.json --out www/metrics

# target, out_dir, profile, wasm_opt_passes, size_rustflags, size_cargo_args,
# fallback_warning: from wasm-pack.toml.
config=$(node scripts/build-config.mjs)
eval "$config"

wasm_pack=(wasm-pack --log-level warn build --no-opt --profile "$profile" --target "$target" --out-dir "$out_dir" .)
# The size build, when this toolchain takes its flags: rustc checks them while
# it parses them, so printing the target's cfg is enough to know.
if [ -d "$(rustc --print sysroot)/lib/rustlib/src/rust/library" ] &&
  RUSTC_BOOTSTRAP=1 rustc $size_rustflags --print cfg --target wasm32-unknown-unknown >/dev/null 2>&1; then
  RUSTC_BOOTSTRAP=1 RUSTFLAGS="$size_rustflags" "${wasm_pack[@]}" "${size_cargo_args[@]}"
else
  echo "[build] warning: $(rustc --version) $fallback_warning" >&2
  "${wasm_pack[@]}"
fi
wasm="$out_dir/x402_verdict_badge_bg.wasm"
wasm-opt "${wasm_opt_passes[@]}" "$wasm" -o "$wasm"
# Short import and export names in the wasm and its glue, then the glue minified.
node scripts/minify.mjs "$out_dir"
# The package's JavaScript: the badge's DOM, the entry, the fallback, the
# script-tag loader, and package.json pointing at them.
node scripts/package-js.mjs "$out_dir"
# A copy, not a link: the service serves no file from outside its --www folder.
rm -rf www/pkg
cp -R "$out_dir" www/pkg
