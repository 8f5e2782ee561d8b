#!/usr/bin/env bash
# The Python package's figures (in npm run bench, after npm run build): the
# wheel from target/wheels/ beside a pure-Python lookup (httpx and
# cryptography), and the guard on the official client (the packages of
# tests/python/requirements.txt), pinned, in a virtual environment of their own.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.work/python-bench-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps target/wheels/x402_verdict-*.whl
"$venv/bin/pip" install --quiet --disable-pip-version-check -r tests/python/requirements.txt
"$venv/bin/python" scripts/bench-python.py
