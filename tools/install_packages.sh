#!/usr/bin/env bash
# Installs the Debian packages named as arguments that are missing: as root with apt-get;
# otherwise prints the exact apt-get line to run and exits 1. Used by tools/run.sh (what
# building, tuning and the tests need) and .ci/run (the compile pass's and the format check's
# toolchains), so that README command 1 installs only what it uses.
set -euo pipefail
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]})) || exit 0
if [[ $(id -u) -ne 0 ]]; then
  echo "lockstep: missing Debian packages; install them with:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "lockstep: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
