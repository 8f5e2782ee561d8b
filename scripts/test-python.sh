#!/usr/bin/env bash
# The Python package's tests (tests/python/, in npm test; alone after
# npm run build): the wheel from target/wheels/ installed into a fresh
# virtual environment with the official x402 2.25 and the pinned packages of
# tests/python/requirements.txt, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.work/python-test-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check target/wheels/x402_verdict-*.whl -r tests/python/requirements.txt
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests/python/ "$@"
