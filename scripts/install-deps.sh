#!/usr/bin/env bash
# Installs what live-draw needs on Debian 12, from scripts/apt-packages.txt (the one list).
#
#   scripts/install-deps.sh           build + run: the [build] section
#   scripts/install-deps.sh --test    also the [test] section, the Python test suites'
#                                     requirements and the lint tools (hadolint)
#   scripts/install-deps.sh --image-check   also the [image-check] section (debootstrap)
#
# Idempotent: packages already installed are skipped, and `apt-get update` runs only when
# something is missing, so `make run` costs nothing the second time. Non-interactive: works as
# root, or through sudo for other users; never prompts apt or debconf.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
# shellcheck source=lib.sh
. "$here/lib.sh"

with_test=false with_image_check=false
for arg in "$@"; do
  case $arg in
    --test) with_test=true ;;
    --image-check) with_image_check=true ;;
    -h|--help) sed -n '2,12s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "install-deps: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

say() { printf '[install-deps] %s\n' "$*"; }

# --- apt --------------------------------------------------------------------------------------
mapfile -t wanted < <(apt_section build)
if $with_test; then mapfile -t -O "${#wanted[@]}" wanted < <(apt_section test); fi
if $with_image_check; then mapfile -t -O "${#wanted[@]}" wanted < <(apt_section image-check); fi

missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  say "apt: all ${#wanted[@]} packages already installed"
else
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    # Without a terminal sudo cannot ask for a password: fail at once rather than hang (CI).
    if [ -t 0 ]; then as_root=(sudo); else as_root=(sudo -n); fi
  else
    echo "install-deps: need root to install: ${missing[*]} (run as root or install sudo)" >&2
    exit 1
  fi
  say "apt: installing ${missing[*]}"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}"
fi

$with_test || exit 0

# --- pip --------------------------------------------------------------------------------------
requirements=() listed=()
for f in Tests/e2e/requirements.txt Tests/browser/requirements.txt scripts/requirements-tools.txt; do
  if [ -f "$root/$f" ]; then requirements+=(-r "$root/$f"); listed+=("$f"); fi
done

pip_flags=(--quiet --disable-pip-version-check)
# Debian's own python3 marks itself externally managed (PEP 668) and refuses plain `pip install`;
# pyenv's and the official images' pythons do not, and older pips do not know the flag. So the
# flag is passed exactly when the marker file is there.
if python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))'; then
  pip_flags+=(--break-system-packages)
fi
say "pip: installing from ${listed[*]}"
PIP_ROOT_USER_ACTION=ignore python3 -m pip install "${pip_flags[@]}" "${requirements[@]}"

# pyenv only exposes new console scripts after a rehash; harmless where pyenv is absent.
if command -v pyenv >/dev/null 2>&1; then pyenv rehash || true; fi
say "done"
