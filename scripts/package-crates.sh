#!/usr/bin/env bash
# Packs every crate of the workspace as `cargo package --workspace` does (the
# Python module, which ships as a wheel, and xtask, the repository's own
# tool, are never published, publish = false, yet pack all the same), and
# builds each, alone, from its own tarball against the others' tarballs: a
# file missing from an `include`, or a dependency named by path alone,
# fails here.
#
# cargo package's own check builds against the others' tarballs unpacked
# under $CARGO_HOME/registry/src, which it never refreshes while the
# version is unchanged (a crate changed since the last run is checked
# stale), so the tarballs are packed without it (--no-verify) and built
# here, from a workspace of their own in target/package/check, in the
# shared target folder. Offline: the steps before it in npm test fetched
# every dependency.
set -euo pipefail
cd "$(dirname "$0")/.."

rm -rf target/package
cargo package --workspace --no-verify --allow-dirty --offline --quiet
check=target/package/check
mkdir -p "$check"
for tarball in target/package/*.crate; do
  # -m: the files dated now, so that cargo builds every crate afresh.
  tar -xzmf "$tarball" -C "$check"
done
# Each crate another one depends on is that crate's tarball.
{
  printf '[workspace]\nmembers = ["*"]\nresolver = "2"\n\n[patch.crates-io]\n'
  for dir in "$check"/*/; do
    dir="$(basename "$dir")"
    name="${dir%-*}"
    if grep -qs "^\[\(dev-\)\?dependencies\.$name\]" "$check"/*/Cargo.toml; then
      printf '%s = { path = "%s" }\n' "$name" "$dir"
    fi
  done
} > "$check/Cargo.toml"
cp Cargo.lock "$check/"
for manifest in "$check"/*/Cargo.toml; do
  CARGO_TARGET_DIR="$PWD/target" cargo build --offline --quiet --manifest-path "$manifest"
done
