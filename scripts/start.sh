#!/usr/bin/env bash
# npm start: set up, build the package, and run the demo (reference service + www/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec node scripts/demo.mjs --port "${PORT:-8402}"
