#!/usr/bin/env bash
# The Python package's tests (tests/python/, in npm test; alone after
# npm run build): the wheel from target/wheels/ checked for manylinux2014
# (auditwheel finds no symbol of a glibc later than 2.17 in it, and pip,
# asked for such a machine, takes it), then installed into a fresh virtual
# environment with the official x402 2.25 and the pinned packages of
# tests/python/requirements.txt, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
wheels=(target/wheels/x402_verdict-*.whl)
if [ ${#wheels[@]} -ne 1 ]; then
  echo "test-python: expected one wheel in target/wheels, found ${#wheels[@]}" >&2
  exit 1
fi
wheel=${wheels[0]}
want="manylinux_2_17_$(uname -m)"
shown=$(.work/venv/bin/auditwheel show "$wheel" | tr -s '\n ' '  ')
if [[ "$shown" != *"consistent with the following platform tag: \"$want\""* ]]; then
  printf 'test-python: %s is not %s (manylinux2014):\n%s\n' "$wheel" "$want" "$shown" >&2
  exit 1
fi
.work/venv/bin/pip install --quiet --disable-pip-version-check --dry-run --no-deps --ignore-installed \
  --only-binary=:all: --platform "manylinux2014_$(uname -m)" --python-version 3.9 --implementation cp --abi abi3 \
  --target .work/wheel-check "$wheel"
echo "test-python: $wheel is $want (manylinux2014): auditwheel and pip agree"

venv=.work/python-test-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" -r tests/python/requirements.txt
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests/python/ "$@"
