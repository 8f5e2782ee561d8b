#!/usr/bin/env bash
# Builds the CLI, the Python package's wheel (maturin, into target/wheels/)
# and the npm package as wasm-pack.toml says (wasm-pack with
# --no-opt, then wasm-opt, then scripts/minify.mjs), adds the package's
# JavaScript (scripts/package-js.mjs), and copies the package into www/ for
# the demo pages. Sets itself up first (scripts/setup.sh skips what is
# present), so every command built on it works on a fresh clone.
#
# With --tests (as `npm test` runs it), also the builds for the tests
# alone, never packaged (wasm-pack.toml's [js-test-build]).
set -euo pipefail
tests=false
case "${1:-}" in
  "") ;;
  --tests) tests=true ;;
  *) echo "usage: bash scripts/build.sh [--tests]" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

cargo build --release -p x402-verdict --quiet
# The Python package (crates/python): one abi3 wheel (CPython 3.9 and
# newer) that needs nothing else at run time, built with the maturin that
# scripts/setup.sh installs.
rm -f target/wheels/x402_verdict-*.whl
.work/venv/bin/maturin build --release --quiet --manifest-path crates/python/Cargo.toml --out target/wheels
# The demo's published-metrics page, from the committed snapshot (served at
# /metrics/ by npm start).
target/release/x402-verdict metrics page --snapshot demo/metrics/snapshot.json --out www/metrics

# target, out_dir, profile, features, embed_features, embed_name,
# challenge_features, challenge_name, agent_features, agent_out_dir, agent_name,
# extension_features, extension_out_dir, extension_name,
# wasm_opt_passes, size_rustflags, size_cargo_args, fallback_warning,
# js_rustflags, js_wasm_opt_passes, js_test_features, js_test_out_dir: from wasm-pack.toml.
config=$(node scripts/build-config.mjs)
eval "$config"

# wasm_pack <out dir> <extra rustflags> <file name stem> [cargo args]: a wasm
# and its glue. The size build, when this toolchain takes its flags: rustc
# checks them while it parses them, so printing the target's cfg is enough.
wasm_pack() {
  local command=(wasm-pack --log-level warn build --no-opt --profile "$profile" --target "$target" --out-dir "$1" --out-name "$3" . "${@:4}")
  if [ -d "$(rustc --print sysroot)/lib/rustlib/src/rust/library" ] &&
    RUSTC_BOOTSTRAP=1 rustc $size_rustflags --print cfg --target wasm32-unknown-unknown >/dev/null 2>&1; then
    RUSTC_BOOTSTRAP=1 RUSTFLAGS="$size_rustflags $2" "${command[@]}" "${size_cargo_args[@]}"
  else
    echo "[build] warning: $(rustc --version) $fallback_warning" >&2
    RUSTFLAGS="$2" "${command[@]}"
  fi
}

wasm_pack "$out_dir" "" x402_verdict_badge --no-default-features --features "$features"
wasm="$out_dir/x402_verdict_badge_bg.wasm"
wasm-opt "${wasm_opt_passes[@]}" "$wasm" -o "$wasm"
# Short import and export names in the wasm and its glue, then the glue minified.
node scripts/minify.mjs "$out_dir"

# side_wasm <folder> <file name stem> <features>: a wasm of the package's
# besides the module entry's, built and shrunk the same way in a folder of
# its own; its wasm is added to the package.
side_wasm() {
  wasm_pack "$1" "" "$2" --no-default-features --features "$3"
  wasm-opt "${wasm_opt_passes[@]}" "$1/$2_bg.wasm" -o "$1/$2_bg.wasm"
  node scripts/minify.mjs "$1" --stem "$2"
  cp "$1/$2_bg.wasm" "$out_dir/"
}

# The script tag's wasm (renderBadge alone): its glue goes into embed.js
# (package-js.mjs below).
embed_dir=target/embed-build/pkg
side_wasm "$embed_dir" "$embed_name" "$embed_features"

# endpointsFromPaymentRequired's own wasm, with its glue beside it.
challenge_dir=target/challenge-build/pkg
side_wasm "$challenge_dir" "$challenge_name" "$challenge_features"
cp "$challenge_dir/$challenge_name".{js,d.ts} "$out_dir/"

# The same code for pages where WebAssembly cannot run, translated to
# JavaScript by binaryen's wasm2js: built for the first WebAssembly features
# only (wasm2js needs one table, so no reference types), in a target folder
# of its own (other flags: its own build cache), its wasm optimized and
# minified as the other's, then translated and joined to its glue.
# js_build <out dir> [cargo args]: that build, in <out dir>.
js_build() {
  CARGO_TARGET_DIR=target/js-build wasm_pack "$1" "$js_rustflags" x402_verdict_badge "${@:2}"
  wasm-opt "${js_wasm_opt_passes[@]}" "$1/x402_verdict_badge_bg.wasm" -o "$1/x402_verdict_badge_bg.wasm"
  node scripts/minify.mjs "$1" --to-js
}
js_dir=target/js-build/pkg
js_build "$js_dir"
if $tests; then
  # The same, with the test hook's features (the signature check exported),
  # for tests/e2e/nowasm.test.mjs: its glue imports its own snippets.
  js_build "$js_test_out_dir" --features "$js_test_features"
fi

# The x402-verdict package, for code that pays: its own wasm (the guard's
# decisions, no DOM) and glue, its JavaScript build, and its JavaScript
# (scripts/package-agent.mjs).
# Its JavaScript build (where WebAssembly cannot run) is built as the
# badge's is, with the agent's features alone.
agent_dir=target/agent-build/pkg
wasm_pack "$agent_dir" "" "$agent_name" --no-default-features --features "$agent_features"
wasm-opt "${wasm_opt_passes[@]}" "$agent_dir/${agent_name}_bg.wasm" -o "$agent_dir/${agent_name}_bg.wasm"
agent_js_dir=target/agent-js-build/pkg
CARGO_TARGET_DIR=target/agent-js-build wasm_pack "$agent_js_dir" "$js_rustflags" "$agent_name" --no-default-features --features "$agent_features"
wasm-opt "${js_wasm_opt_passes[@]}" "$agent_js_dir/${agent_name}_bg.wasm" -o "$agent_js_dir/${agent_name}_bg.wasm"
node scripts/minify.mjs "$agent_js_dir" --to-js --stem "$agent_name"
# The unions of the core's spellings that both packages' types import.
cargo run -q -p x402-verdict-core --example typescript-unions > "$agent_dir/verdict-types.d.ts"
node scripts/package-agent.mjs "$agent_dir" "$agent_out_dir" "$agent_name" "$agent_js_dir"

# The buyer's browser extension: its engine's wasm and glue, the core's
# words beside them, then its JavaScript, each browser's folder and zip
# (scripts/package-extension.mjs).
extension_dir=target/extension-build/pkg
wasm_pack "$extension_dir" "" "$extension_name" --no-default-features --features "$extension_features"
wasm-opt "${wasm_opt_passes[@]}" "$extension_dir/${extension_name}_bg.wasm" -o "$extension_dir/${extension_name}_bg.wasm"
cargo run -q -p x402-verdict-core --example extension-words > "$extension_dir/extension-words.js"
cargo run -q -p x402-verdict-core --example browser-words > "$extension_dir/words.js"
node scripts/package-extension.mjs "$extension_dir" "$extension_out_dir" "$extension_name"

# The core's words for the package's JavaScript (crates/core/src/browser.rs).
cargo run -q -p x402-verdict-core --example browser-words > "$out_dir/words.js"
cp "$agent_dir/verdict-types.d.ts" "$out_dir/"
# The package's JavaScript: the badge's DOM, the entry, the JavaScript build,
# the script-tag loader, and package.json pointing at them.
node scripts/package-js.mjs "$out_dir" "$js_dir" "$embed_dir/$embed_name.js"
# A copy, not a link: the service serves no file from outside its --www folder.
rm -rf www/pkg
cp -R "$out_dir" www/pkg
