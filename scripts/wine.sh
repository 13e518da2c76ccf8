#!/usr/bin/env bash
# The Windows suite under Wine 10: builds the harness once, then runs the Windows `deno.exe` on it.
#
#   bash scripts/wine.sh [test]                        # build if missing, run tests/windows with deno.exe, then
#                                                    # tests/wine_host (Linux clients of deno.exe under Wine)
#   bash scripts/wine.sh test FILES...                 # only these Windows test files
#   bash scripts/wine.sh host [FILES...]               # only the host-side tests (default tests/wine_host/)
#   bash scripts/wine.sh run SCRIPT [ARGS...]          # build if missing, run one script with deno.exe (benchmarks)
#   bash scripts/wine.sh build                         # only build (or check) the harness
#   bash scripts/wine.sh exec PROGRAM [ARGS...]        # run one Windows program inside a running harness
#                                                    # (CUA_WINE_DISPLAY set by `test`; used by host-side tests)
#   bash scripts/wine.sh clean                         # delete the cache
#
# The harness is a Debian trixie chroot (debootstrap --variant=minbase) holding Wine 10, Xvfb and a Wine prefix,
# and deno.exe from npm @deno/win32-x64 (2.9.4: the registry has no 2.9.3 for Windows). Debian 12's own Wine 8
# cannot run Deno 2.x. Everything lives in one directory outside the repository, CUA_WINE_CACHE
# (default /var/cache/cua-driver-wine); each stage leaves a marker and is rebuilt only when its marker is missing.
# A first build took 94 s here (about 2.4 GB); a cached start takes seconds.
#
# A run holds an exclusive lock on the cache (one wineserver per prefix), starts its own Xvfb on a free display
# (-displayfd), bind-mounts /proc /sys /dev and the repository (at /repo) into the chroot, and undoes all of it on exit.
# npm packages come from a Deno cache filled by the Linux deno (DENO_DIR shared with deno.exe), so deno.exe needs no
# network. Needs root (debootstrap, chroot, mount).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${CUA_WINE_CACHE:-/var/cache/cua-driver-wine}
ROOT=$CACHE/trixie
DENO_WIN_VERSION=${CUA_WINE_DENO_VERSION:-2.9.4}
HOST_DENO=$REPO/node_modules/.bin/deno
RUN=$CACHE/run
MIRROR=${CUA_WINE_MIRROR:-$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}

# A CA only in SSL_CERT_FILE is handed to npm (npm ci, npm pack) and the Linux deno (fill_deno_dir).
. "$REPO/scripts/_ca_env.sh"

log() { echo "wine.sh: $*" >&2; }
die() { log "$*"; exit 1; }

# Runs a command inside the chroot with the Wine environment and nothing of the host's.
in_root() {
  chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/bin:/bin:/usr/sbin:/sbin \
    DISPLAY="${CUA_WINE_DISPLAY:-:0}" WINEPREFIX=/root/.wine WINEDEBUG="${WINEDEBUG:--all}" \
    WINEDLLOVERRIDES="mscoree,mshtml=" LANG=C.UTF-8 NO_COLOR=1 \
    DENO_DIR='Z:\opt\deno_dir' DENO_NO_PACKAGE_JSON=1 DENO_NO_UPDATE_CHECK=1 DENO_CERT='Z:\opt\ca.crt' \
    CUA_E2E_REQUIRE="${CUA_E2E_REQUIRE:-1}" CUA_WINDOWS_CATALOG_JSON="${CUA_WINDOWS_CATALOG_JSON:-}" "$@"
}

mount_all() {
  local m
  for m in proc sys dev dev/pts dev/shm; do
    mountpoint -q "$ROOT/$m" || mount --bind "/$m" "$ROOT/$m"
  done
  mkdir -p "$ROOT/repo"
  mountpoint -q "$ROOT/repo" || mount --bind "$REPO" "$ROOT/repo"
}

umount_all() {
  local m
  for m in repo dev/shm dev/pts dev sys proc; do
    if mountpoint -q "$ROOT/$m"; then umount "$ROOT/$m" 2>/dev/null || umount -l "$ROOT/$m" || true; fi
  done
}

ensure_host_tools() {
  command -v debootstrap >/dev/null 2>&1 && return 0
  [ "$(id -u)" = 0 ] || die "needs root to install debootstrap and build the chroot"
  log "installing debootstrap"
  apt-get -o DPkg::Lock::Timeout=900 update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends \
    debootstrap >/dev/null
}

build_chroot() {
  [ -f "$ROOT/.cua-debootstrap" ] && return 0
  ensure_host_tools
  umount_all
  rm -rf "$ROOT"
  log "debootstrap trixie (minbase) from $MIRROR"
  local t=$SECONDS
  debootstrap --variant=minbase trixie "$ROOT" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 ||
    die "debootstrap failed; see $CACHE/debootstrap.log"
  touch "$ROOT/.cua-debootstrap"
  log "debootstrap: $((SECONDS - t)) s"
}

build_wine() {
  [ -f "$ROOT/.cua-wine" ] && return 0
  local t=$SECONDS
  log "installing wine, xvfb and fonts in the chroot"
  mount_all
  # The chroot is a disposable cache: dpkg need not fsync each of the ~200 packages it unpacks (most of the
  # stage's time; the 231 MB download takes seconds).
  echo force-unsafe-io >"$ROOT/etc/dpkg/dpkg.cfg.d/cua-unsafe-io"
  chroot "$ROOT" /usr/bin/env -i PATH=/usr/bin:/bin:/usr/sbin:/sbin DEBIAN_FRONTEND=noninteractive \
    apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends \
    wine wine64 xvfb xauth fonts-wine libxrender1 libxrandr2 libxi6 libxcursor1 libxcomposite1 libxfixes3 \
    libxinerama1 >"$CACHE/chroot-apt.log" 2>&1 || die "apt-get in the chroot failed; see $CACHE/chroot-apt.log"
  chroot "$ROOT" apt-get clean
  touch "$ROOT/.cua-wine"
  log "wine: $((SECONDS - t)) s; $(chroot "$ROOT" wine --version)"
}

build_deno() {
  local exe=$ROOT/opt/deno/deno.exe
  [ -f "$exe" ] && [ -f "$ROOT/opt/deno/.version-$DENO_WIN_VERSION" ] && return 0
  log "fetching deno.exe $DENO_WIN_VERSION (npm @deno/win32-x64)"
  local tmp
  tmp=$(mktemp -d "$CACHE/npm.XXXXXX")
  (cd "$tmp" && npm pack --silent "@deno/win32-x64@$DENO_WIN_VERSION" >/dev/null) || die "npm pack @deno/win32-x64 failed"
  mkdir -p "$ROOT/opt/deno"
  tar xzf "$tmp"/deno-win32-x64-*.tgz -O package/deno.exe >"$exe.part"
  mv "$exe.part" "$exe"
  rm -rf "$tmp" "$ROOT"/opt/deno/.version-*
  touch "$ROOT/opt/deno/.version-$DENO_WIN_VERSION"
}

start_xvfb() {
  mkdir -p "$RUN"
  rm -f "$RUN/display"
  # -displayfd picks a display number that no other X server (in or out of the chroot) uses.
  chroot "$ROOT" /usr/bin/env -i PATH=/usr/bin:/bin /usr/bin/Xvfb -displayfd 3 -screen 0 1280x1024x24 \
    -nolisten tcp 3>"$RUN/display" >"$RUN/xvfb.log" 2>&1 &
  XVFB_PID=$!
  local i
  for i in $(seq 1 200); do
    [ -s "$RUN/display" ] && break
    kill -0 "$XVFB_PID" 2>/dev/null || die "Xvfb exited; see $RUN/xvfb.log"
    sleep 0.05
  done
  [ -s "$RUN/display" ] || die "Xvfb did not report a display; see $RUN/xvfb.log"
  CUA_WINE_DISPLAY=":$(tr -d '[:space:]' <"$RUN/display")"
  export CUA_WINE_DISPLAY
}

stop_xvfb() {
  if [ -n "${XVFB_PID:-}" ]; then kill "$XVFB_PID" 2>/dev/null || true; wait "$XVFB_PID" 2>/dev/null || true; fi
  XVFB_PID=
}

build_prefix() {
  [ -f "$ROOT/root/.wine/.cua-prefix" ] && return 0
  local t=$SECONDS
  log "wineboot --init (new Wine prefix)"
  rm -rf "$ROOT/root/.wine"
  in_root wineboot --init >"$CACHE/wineboot.log" 2>&1 || die "wineboot failed; see $CACHE/wineboot.log"
  in_root wineserver -w
  touch "$ROOT/root/.wine/.cua-prefix"
  log "wineboot: $((SECONDS - t)) s"
}

# Fills the shared Deno cache with the npm packages and modules the Windows tests import (Linux deno, no Wine).
fill_deno_dir() {
  cp "${DENO_CERT:-/etc/ssl/certs/ca-certificates.crt}" "$ROOT/opt/ca.crt" 2>/dev/null || true
  # npm ci installs exactly the lock and never rewrites it (as scripts/setup.sh does).
  [ -x "$HOST_DENO" ] || (cd "$REPO" && npm ci --no-audit --no-fund >/dev/null)
  (cd "$REPO" && DENO_DIR="$ROOT/opt/deno_dir" DENO_NO_PACKAGE_JSON=1 "$HOST_DENO" cache --quiet \
    src/main.ts $(ls tests/windows/*.ts 2>/dev/null)) || die "deno cache of the Windows tests failed"
}

# Runs Linux-side tests that drive deno.exe under Wine through `wine.sh exec` (the MCP SDK client over stdio).
host_tests() {
  local t=$SECONDS rc=0
  (cd "$REPO" && CUA_WINE_EXEC="$REPO/scripts/wine.sh" DENO_NO_PACKAGE_JSON=1 "$HOST_DENO" test -A "$@") || rc=$?
  log "host-side Wine tests: exit $rc in $((SECONDS - t)) s"
  return "$rc"
}

cleanup() {
  local rc=$?
  if [ -n "${CUA_WINE_DISPLAY:-}" ] && [ -x "$ROOT/usr/bin/wineserver" ]; then
    in_root wineserver -k 2>/dev/null || true
    in_root wineserver -w 2>/dev/null || true
  fi
  stop_xvfb
  umount_all
  exit "$rc"
}

harness() {
  mkdir -p "$CACHE"
  exec 9>"$CACHE/.lock"
  flock 9
  trap cleanup EXIT INT TERM
  local t=$SECONDS
  build_chroot
  build_wine
  build_deno
  mount_all
  start_xvfb
  build_prefix
  fill_deno_dir
  log "harness ready in $((SECONDS - t)) s (display $CUA_WINE_DISPLAY)"
}

case "${1:-test}" in
  build)
    harness
    in_root wine 'Z:\opt\deno\deno.exe' --version
    ;;
  exec)
    shift
    [ -n "${CUA_WINE_DISPLAY:-}" ] || die "exec runs inside a harness started by 'wine.sh test' (CUA_WINE_DISPLAY unset)"
    exec chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/bin:/bin DISPLAY="$CUA_WINE_DISPLAY" \
      WINEPREFIX=/root/.wine WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" LANG=C.UTF-8 NO_COLOR=1 \
      DENO_DIR='Z:\opt\deno_dir' DENO_NO_PACKAGE_JSON=1 DENO_NO_UPDATE_CHECK=1 DENO_CERT='Z:\opt\ca.crt' \
      sh -c 'cd /repo && exec wine "$@"' wine "$@"
    ;;
  run)
    shift
    [ $# -gt 0 ] || die "run needs a script path relative to the repository"
    harness
    set +e
    in_root sh -c 'cd /repo && exec wine "Z:\\opt\\deno\\deno.exe" run -A --no-check "$@"' deno "$@"
    rc=$?
    set -e
    exit "$rc"
    ;;
  clean)
    exec 9>"$CACHE/.lock"
    flock 9
    umount_all
    rm -rf "$CACHE"
    ;;
  host)
    shift
    harness
    host_tests "${@:-tests/wine_host/}"
    ;;
  test | *)
    [ "${1:-}" = test ] && shift
    harness
    t=$SECONDS
    set +e
    in_root sh -c 'cd /repo && exec wine "Z:\\opt\\deno\\deno.exe" test -A --no-check "$@"' deno "${@:-tests/windows/}"
    rc=$?
    set -e
    log "Windows suite: exit $rc in $((SECONDS - t)) s"
    if [ $# -eq 0 ]; then
      host_tests tests/wine_host/ || rc=$?
    fi
    exit "$rc"
    ;;
esac
