#!/bin/bash
# Builds client-vscode/scorelens-<version>.vsix from a fresh clone: npm ci, the ScoreLens wheel of
# this repository into bundled/ (the extension's "install into a private environment" action
# installs it), then vsce package, whose vscode:prepublish type-checks and bundles for production.
# (`npx vsce package` alone makes the same .vsix without the wheel.)
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
rm -rf dist bundled

# From the repo root with a relative path, so nothing machine-specific ends up in the wheel.
(cd "$ROOT" && "$PYTHON" -m pip wheel . --no-deps --quiet --disable-pip-version-check -w client-vscode/bundled/)
ls bundled/scorelens-*.whl >/dev/null

VERSION=$(node -p 'require("./package.json").version')
npx --no-install vsce package --out "scorelens-$VERSION.vsix" </dev/null
echo "build: $EXT/scorelens-$VERSION.vsix"
