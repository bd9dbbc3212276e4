#!/usr/bin/env bash
# Checks the container image's runtime without Docker: builds the binary as the Dockerfile's
# build stage does, makes a minimal Debian 12 root filesystem with debootstrap, installs only the
# runtime stage's packages into it, copies what the Dockerfile copies, and runs the server there
# as uid 10001: --help, a start, /healthz (the HEALTHCHECK's own curl, inside), a whole draw
# from a client outside, its record, and a clean SIGTERM.
#
#   scripts/image-check.sh                 (as root: debootstrap and chroot need it)
#   scripts/image-check.sh --rootfs-only   only the root filesystem (step 2's debootstrap); .ci/run
#                                          starts this in the background while `make test` runs, so
#                                          the download overlaps the build instead of adding to it
#   scripts/image-check.sh --build-only    only the build stage (step 2); .ci/run starts this at
#                                          nice 19 in the background too, so it takes only the CPU
#                                          the tests leave idle
#   make image-check
#
# Environment: IMAGE_CHECK_DIR (default .build/image-check: the root filesystem is kept there
# and reused, so a second run skips debootstrap; delete it to start afresh), IMAGE_CHECK_MIRROR
# (default: the first Debian mirror apt uses here, else http://deb.debian.org/debian),
# IMAGE_CHECK_SKIP_BUILD=1 (use the release binary already built), IMAGE_CHECK_BUILD_PATH (the
# build's --scratch-path, default .build; another one lets this build run beside `swift build`,
# which locks its own scratch path).
#
# Why: no Docker engine runs here, so the image itself is never built; this proves the runtime
# stage's package list is enough for the statically linked binary, that uid 10001 can write the
# data volume and nothing else is needed. Not in `make test` (a release build and a root
# filesystem take minutes and need root and the network); .ci/run runs it after `make test`.
set -euo pipefail

rootfs_only=false build_only=false
for arg in "$@"; do
  case $arg in
    --rootfs-only) rootfs_only=true ;;
    --build-only) build_only=true ;;
    -h|--help) sed -n '2,20s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "image-check: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
# shellcheck source=lib.sh
. "$here/lib.sh"
cd "$root"

say() { printf '[image-check] %s\n' "$*"; }
fail() { printf '[image-check] FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap and chroot need it)"
command -v debootstrap >/dev/null || fail "debootstrap is missing: scripts/install-deps.sh --image-check"

work=${IMAGE_CHECK_DIR:-$root/.build/image-check}
rootfs=$work/rootfs
mkdir -p "$work"

# The mirror apt uses here (deb822 sources first, then the classic list), for the same packages.
default_mirror() {
  local uri
  uri=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n1 || true)
  [ -n "$uri" ] || uri=$(grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | grep -v security | head -n1 || true)
  echo "${uri:-http://deb.debian.org/debian}"
}
mirror=${IMAGE_CHECK_MIRROR:-$(default_mirror)}

scratch=${IMAGE_CHECK_BUILD_PATH:-$root/.build}
build_stage() {
  say "building as the Dockerfile's build stage does (release, --static-swift-stdlib)"
  swift build -c release --static-swift-stdlib --product live-draw --scratch-path "$scratch"
}
if $build_only; then build_stage; say "built: $(swift build -c release --scratch-path "$scratch" --show-bin-path)/live-draw"; exit 0; fi

# --- 1. a minimal Debian 12 root filesystem with only the runtime stage's packages ----------------
# (kept: a second run skips debootstrap)
# A marker, not the folder, says it is complete: an interrupted debootstrap leaves a folder behind.
if [ ! -f "$rootfs/.debootstrap-done" ]; then
  rm -rf "$rootfs"
  say "debootstrap --variant=minbase bookworm from $mirror"
  if ! debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1; then
    tail -n 20 "$work/debootstrap.log" >&2
    fail "debootstrap could not build the root filesystem (log: $work/debootstrap.log)"
  fi
  touch "$rootfs/.debootstrap-done"
fi

mounted=()
server_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" 2>/dev/null || true; fi
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
mount_in() { # source target [options]
  mkdir -p "$2"
  mount "${@:3}" "$1" "$2"
  mounted+=("$2")
}

mapfile -t runtime_packages < <(apt_section image-runtime)
say "installing the runtime stage's packages: ${runtime_packages[*]}"
# As in debian:bookworm-slim: the release, its updates and its security archive.
cat >"$rootfs/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
mount_in proc "$rootfs/proc" -t proc
mount_in /dev "$rootfs/dev" --bind
chroot "$rootfs" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null' \
  sh "${runtime_packages[@]}"
if $rootfs_only; then say "root filesystem ready: $rootfs"; exit 0; fi

# --- 2. the build stage -------------------------------------------------------------------------
if [ "${IMAGE_CHECK_SKIP_BUILD:-0}" != 1 ]; then build_stage; fi
binary="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/live-draw"
[ -x "$binary" ] || fail "no release binary at $binary"

# --- 3. what the runtime stage adds: its user, its volume, the files it copies -------------------
chroot "$rootfs" sh -c 'getent group livedraw >/dev/null || groupadd --system --gid 10001 livedraw;
  getent passwd livedraw >/dev/null || useradd --system --uid 10001 --gid 10001 --home-dir /app --shell /usr/sbin/nologin livedraw;
  rm -rf /app/data && mkdir -p /app/data && chown 10001:10001 /app/data'
# COPY --from=build (install -s: stripped), COPY public, COPY defaults.
install -s -D "$binary" "$rootfs/usr/local/bin/live-draw"
rm -rf "$rootfs/app/public" "$rootfs/app/defaults"
cp -r public defaults "$rootfs/app/"

# --- 4. run it as uid 10001 ------------------------------------------------------------------------
# A command in the root filesystem as the image runs it: uid 10001, in /app, with its ENV. An
# array, not a function: started in the background it is then one process, chroot exec'ing into
# the server, so $! is the server's pid and SIGTERM reaches it (a function would run in a subshell).
as_image=(chroot --userspec=10001:10001 "$rootfs" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/app
          LIVE_DRAW_DATA_DIR=/app/data sh -c 'cd /app && exec "$@"' sh)

say "live-draw --help as uid 10001"
"${as_image[@]}" live-draw --help >"$work/help.txt" || fail "--help exited with $?"
grep -q -- "--shutdown-grace-ms" "$work/help.txt" || fail "--help does not list the options"

say "starting the server (the image's CMD, on a free port)"
"${as_image[@]}" live-draw --host 127.0.0.1 --port 0 --round-interval-ms 100 >"$work/server.log" 2>&1 &
server_pid=$!
port= key=
for _ in $(seq 1 200); do
  port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/server.log" | head -n1)
  key=$(sed -n 's/.*#key=\([0-9a-f]\{48\}\).*/\1/p' "$work/server.log" | head -n1)
  [ -n "$port" ] && [ -n "$key" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; fail "the server exited at start"; }
  sleep 0.1
done
[ -n "$port" ] && [ -n "$key" ] || { cat "$work/server.log" >&2; fail "no banner within 20 s"; }

say "/healthz with the HEALTHCHECK's curl, inside, and from outside"
"${as_image[@]}" sh -c "curl -fsS -o /dev/null http://127.0.0.1:$port/healthz" || fail "HEALTHCHECK failed"
curl -fsS "http://127.0.0.1:$port/healthz" | grep -q '"status":"ok"' || fail "/healthz from outside"

say "a whole draw, watched from outside"
python3 "$here/image-check-draw.py" "127.0.0.1:$port" "$key" || { cat "$work/server.log" >&2; fail "the draw"; }

say "SIGTERM: a clean stop"
kill -TERM "$server_pid"
for _ in $(seq 1 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$server_pid" 2>/dev/null; then fail "still running 10 s after SIGTERM"; fi
wait "$server_pid" || fail "exit status $? after SIGTERM"
server_pid=
[ -s "$rootfs/app/data/draws.sqlite" ] || fail "no draw records in /app/data"
say "ok: the runtime stage runs the binary as uid 10001 ($(du -shx "$rootfs" | cut -f1) root filesystem)"
