#!/usr/bin/env bash
# npm start: build the package (which sets itself up), and run the demo
# (reference service + www/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
exec node scripts/demo.mjs --port "${PORT:-8402}"
