#!/bin/bash
# Unit tests of the extension's own logic under plain node (no VS Code): compiles src/ and test/ with
# tsc into out/ and runs node's built-in test runner, which prints the "# pass / # fail" summary.
set -euo pipefail
EXT=$(cd "$(dirname "$0")/.." && pwd)
cd "$EXT"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
rm -rf out
npx --no-install tsc -p tsconfig.test.json
node --test out/test/*.test.js
