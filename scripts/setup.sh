#!/bin/sh
# Prepares a Debian 12 machine that has only Node and npm for the tests: Deno from npm,
# then the Debian packages of the embedded desktop, the fixture apps and the test helpers.
# Idempotent: when everything is present it only checks (well under a second).
#
#   sh scripts/setup.sh            # CUA_SKIP_CHROMIUM=1 leaves out chromium
set -eu
cd "$(dirname "$0")/.."

if [ ! -x node_modules/.bin/deno ] || [ ! -d node_modules/@grpc/grpc-js ]; then
  echo "setup: installing npm packages (deno; @grpc/grpc-js for the gRPC client test)"
  npm install --no-audit --no-fund
fi

# Embedded desktop: xvfb xauth openbox dbus dbus-x11 at-spi2-core x11-utils (xprop; the e2e tests also
# use its xwininfo, xdpyinfo and xmessage).
# Fixtures: python3-gi gir1.2-gtk-3.0 gtk-3-examples (gtk3-widget-factory), chromium.
# Libraries the driver opens: libgtk-3-0 libxtst6 libxext6 libxfixes3 libxrandr2 libxi6 libatspi2.0-0.
# Test and benchmark helpers: xdotool imagemagick ffmpeg gir1.2-atspi-2.0.
# Perception (parse_visual_regions): tesseract-ocr tesseract-ocr-eng libtesseract5.
PACKAGES="xvfb xauth openbox dbus dbus-x11 at-spi2-core x11-utils xdotool python3-gi gir1.2-gtk-3.0
  gir1.2-atspi-2.0 gtk-3-examples imagemagick libgtk-3-0 libxtst6 libxext6 libxfixes3 libxrandr2
  libxi6 libatspi2.0-0 ffmpeg tesseract-ocr tesseract-ocr-eng libtesseract5"
if [ "${CUA_SKIP_CHROMIUM:-0}" != 1 ]; then
  PACKAGES="$PACKAGES chromium"
fi

if ! command -v dpkg >/dev/null 2>&1; then
  echo "setup: dpkg not found; this script supports Debian 12. Install the equivalents of:" >&2
  echo "  $(echo $PACKAGES)" >&2
  exit 0
fi

missing=""
for pkg in $PACKAGES; do
  if ! dpkg -s "$pkg" 2>/dev/null | grep -q '^Status: install ok installed'; then
    missing="$missing $pkg"
  fi
done

if [ -z "$missing" ]; then
  echo "setup: all Debian packages present"
  exit 0
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
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
echo "setup: installed:$missing"
