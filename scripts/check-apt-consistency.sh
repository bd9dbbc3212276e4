#!/usr/bin/env bash
# Fails when the Dockerfile's or Package.swift's apt packages drift from scripts/apt-packages.txt,
# the one list that scripts/install-deps.sh (and so `make run`, `make test` and CI) installs from.
#
#   scripts/check-apt-consistency.sh [--dockerfile PATH] [--manifest PATH] [--packages PATH]
#   scripts/check-apt-consistency.sh --self-test
#
# Dockerfile stage `build` must install exactly the [build] section, stage `runtime` exactly the
# [image-runtime] section. Why both directions: a package only in the Dockerfile means a source
# build (`make run`) lacks what the image has; a package only in the list means the image build
# lacks what a source build needs, and nobody finds out until someone runs `docker build`.
# Every `.apt([...])` provider of a system library in Package.swift must be in [build] too: a new
# C library otherwise builds only on machines that happen to have it.
# --self-test proves the check catches each kind of drift, on edited copies of the files.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
# shellcheck source=lib.sh
. "$here/lib.sh"

dockerfile=$root/Dockerfile
manifest=$root/Package.swift
packages=$here/apt-packages.txt
self_test=false
while [ $# -gt 0 ]; do
  case $1 in
    --dockerfile) dockerfile=$2; shift 2 ;;
    --manifest) manifest=$2; shift 2 ;;
    --packages) packages=$2; shift 2 ;;
    --self-test) self_test=true; shift ;;
    -h|--help) sed -n '2,14s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "check-apt-consistency: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

# Prints "STAGE PACKAGE" for every package an `apt-get install` / `apt install` in a RUN names.
# Continuation lines are joined first, version pins (`pkg=1.2`) are dropped, options skipped.
dockerfile_packages() {
  awk '
    function flush(   n, segs, i, m, words, j, w, seen_apt, collecting) {
      if (logical !~ /^[ \t]*RUN[ \t]/) { logical = ""; return }
      n = split(logical, segs, /&&|\|\||;|\|/)
      for (i = 1; i <= n; i++) {
        m = split(segs[i], words, /[ \t]+/)
        seen_apt = 0; collecting = 0
        for (j = 1; j <= m; j++) {
          w = words[j]
          if (w == "") continue
          if (collecting) {
            if (w ~ /^-/) continue
            sub(/=.*/, "", w)
            print stage, w
          } else if (w == "apt-get" || w == "apt") {
            seen_apt = 1
          } else if (seen_apt && w == "install") {
            collecting = 1
          }
        }
      }
      logical = ""
    }
    # Docker drops comment lines, even inside a continued instruction.
    /^[ \t]*#/ { next }
    {
      line = $0
      if (!continued && toupper(line) ~ /^[ \t]*FROM[ \t]/) {
        flush()
        stages++
        stage = "stage" stages
        if (match(line, /[ \t][Aa][Ss][ \t]+[^ \t]+/)) {
          stage = substr(line, RSTART, RLENGTH)
          sub(/^[ \t][Aa][Ss][ \t]+/, "", stage)
        }
      }
      continued = sub(/\\[ \t]*$/, "", line)
      logical = logical " " line
      if (!continued) flush()
    }
    END { flush() }
  ' "$1"
}

# Compares one Dockerfile stage with one list section; prints every difference, returns 1 if any.
compare() {
  local stage=$1 section=$2 file=$3 list=$4 status=0 pkg
  local shown=${list#"$root"/}   # messages name the list as a reader would type it
  local -a in_stage in_list
  mapfile -t in_stage < <(dockerfile_packages "$file" | awk -v s="$stage" '$1 == s { print $2 }' | sort -u)
  mapfile -t in_list < <(apt_section "$section" "$list" | sort -u)
  if [ ${#in_stage[@]} -eq 0 ]; then
    echo "apt-consistency: MISMATCH: $file has no stage '$stage' with an apt-get install" >&2
    return 1
  fi
  for pkg in $(comm -23 <(printf '%s\n' "${in_stage[@]}") <(printf '%s\n' "${in_list[@]}")); do
    echo "apt-consistency: MISMATCH: Dockerfile stage '$stage' installs '$pkg', but $shown [$section] does not list it (add it there, or drop it from the Dockerfile)" >&2
    status=1
  done
  for pkg in $(comm -13 <(printf '%s\n' "${in_stage[@]}") <(printf '%s\n' "${in_list[@]}")); do
    echo "apt-consistency: MISMATCH: $shown [$section] lists '$pkg', but Dockerfile stage '$stage' does not install it (add it to the Dockerfile, or drop it from the list)" >&2
    status=1
  done
  [ $status -eq 0 ] && echo "apt-consistency: ok: Dockerfile stage '$stage' matches [$section] (${#in_list[@]} packages)"
  return $status
}

# Prints the packages named in `.apt([...])` providers of Package.swift, one a line.
manifest_packages() {
  grep -o '\.apt(\[[^]]*\])' "$1" | grep -o '"[^"]*"' | tr -d '"' | sort -u
}

# Every Package.swift apt provider must be in [build]; returns 1 if one is not.
check_manifest() {
  local file=$1 list=$2 status=0 pkg count=0
  local shown=${list#"$root"/}
  for pkg in $(comm -23 <(manifest_packages "$file") <(apt_section build "$list" | sort -u)); do
    echo "apt-consistency: MISMATCH: Package.swift names apt package '$pkg' for a system library, but $shown [build] does not list it (add it there and to the Dockerfile's build stage)" >&2
    status=1
  done
  count=$(manifest_packages "$file" | wc -l)
  [ $status -eq 0 ] && echo "apt-consistency: ok: Package.swift's $count apt providers are all in [build]"
  return $status
}

check() {
  local file=$1 list=$2 swift_manifest=$3 status=0
  compare build build "$file" "$list" || status=1
  compare runtime image-runtime "$file" "$list" || status=1
  check_manifest "$swift_manifest" "$list" || status=1
  return $status
}

if ! $self_test; then
  check "$dockerfile" "$packages" "$manifest"
  exit
fi

# --- self-test --------------------------------------------------------------------------------
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
expect() {  # expect pass|fail DESCRIPTION DOCKERFILE [MANIFEST]
  local want=$1 what=$2 got
  if check "$3" "$packages" "${4:-$manifest}" >"$tmp/out" 2>&1; then got=pass; else got=fail; fi
  if [ "$got" = "$want" ]; then
    echo "self-test: ok: $what -> $got"
  else
    echo "self-test: FAILED: $what -> $got, expected $want"; sed 's/^/    /' "$tmp/out"
    failures=$((failures + 1))
  fi
}

expect pass "the real Dockerfile and Package.swift" "$dockerfile"

# An extra -dev package in the build stage, pinned, the way it usually sneaks in.
sed 's/^\( *\)pkg-config \\$/\1pkg-config \\\n\1libpq-dev=15.8-0+deb12u1 \\/' "$dockerfile" >"$tmp/extra"
grep -q libpq-dev "$tmp/extra" || { echo "self-test: could not inject a package (Dockerfile layout changed?)"; exit 1; }
expect fail "build stage installs a package the list lacks" "$tmp/extra"

# A listed package dropped from the build stage.
grep -v '^ *libcurl4-openssl-dev \\$' "$dockerfile" >"$tmp/missing"
expect fail "build stage lacks a listed package" "$tmp/missing"

# A runtime library dropped from the runtime stage.
grep -v '^ *libwebsockets17 \\$' "$dockerfile" >"$tmp/runtime"
expect fail "runtime stage lacks a listed library" "$tmp/runtime"

# A new system library in Package.swift whose apt package nobody installs.
sed 's/providers: \[\.apt(\["libcurl4-openssl-dev"\])\]/providers: [.apt(["libcurl4-openssl-dev", "libpq-dev"])]/' "$manifest" >"$tmp/Package.swift"
grep -q libpq-dev "$tmp/Package.swift" || { echo "self-test: could not inject a provider (Package.swift layout changed?)"; exit 1; }
expect fail "Package.swift provider missing from the list" "$dockerfile" "$tmp/Package.swift"

if [ $failures -ne 0 ]; then echo "self-test: $failures case(s) failed"; exit 1; fi
echo "self-test: all cases behave"
