#!/bin/bash
# Builds client-vscode/scorelens-<version>.vsix from a fresh clone: npm ci, typecheck, production
# bundle (esbuild), the ScoreLens wheel of this repository into bundled/ (the extension's "install
# into a private environment" action installs it), then vsce package.
# PYTHON picks the interpreter that builds the wheel (default: the repo's .venv, else python3).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
EXT=$(dirname "$HERE")
ROOT=$(dirname "$EXT")
if [ -z "${PYTHON:-}" ]; then
  PYTHON=python3
  [ -x "$ROOT/.venv/bin/python" ] && PYTHON=$ROOT/.venv/bin/python
fi

cd "$EXT"
npm ci --no-audit --no-fund
npm run --silent typecheck
rm -rf dist bundled
node esbuild.mjs --production

# From the repo root with a relative path, so nothing machine-specific ends up in the wheel.
(cd "$ROOT" && "$PYTHON" -m pip wheel . --no-deps --quiet --disable-pip-version-check -w client-vscode/bundled/)
ls bundled/scorelens-*.whl >/dev/null

VERSION=$(node -p 'require("./package.json").version')
npx --no-install vsce package --no-dependencies --skip-license --allow-missing-repository --out "scorelens-$VERSION.vsix"
echo "build: $EXT/scorelens-$VERSION.vsix"
