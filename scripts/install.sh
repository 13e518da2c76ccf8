#!/bin/sh
# For a downloaded cua-driver executable on Debian or Ubuntu: checks the packages its embedded desktop
# (Xvfb, openbox, a session bus, AT-SPI) and its native libraries need, and prints the one apt-get line
# that installs the missing ones. It changes nothing unless asked with --install, and then it says what
# it runs; it never calls sudo silently. Standalone: download it beside the executable and run it.
#
#   sh install.sh             check; exit 0 when all are present, 1 when some are missing
#   sh install.sh --install   also run that apt-get line (as root, or through sudo after saying so)
#   sh install.sh --list      print the package names, one a line (scripts/setup.sh reads them)
#
# Optional extras are not checked: ffmpeg (recording; `cua-driver install_ffmpeg`) and tesseract-ocr
# (parse_visual_regions; `cua-driver install_extension`).
set -eu

# The embedded desktop's programs (src/backends/linux/desktop/desktop_programs.ts names each one's package).
DESKTOP="xvfb openbox dbus at-spi2-core x11-utils util-linux"
# The libraries the driver opens with Deno.dlopen (ffi/linux/*.ts).
LIBRARIES="libx11-6 libxtst6 libxext6 libxi6 libxrandr2 libxcomposite1 libxfixes3"
PACKAGES="$DESKTOP $LIBRARIES"

mode=check
case "${1:-}" in
  "") ;;
  --install) mode=install ;;
  --list)
    for pkg in $PACKAGES; do echo "$pkg"; done
    exit 0
    ;;
  -h | --help)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 0
    ;;
  *)
    echo "install.sh: unknown argument \"$1\" (try --help)" >&2
    exit 2
    ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "install.sh: this is not a Debian-based system (no dpkg-query). cua-driver's embedded desktop needs"
  echo "the equivalents of these Debian packages:"
  echo "  $PACKAGES"
  exit 1
fi

missing=""
for pkg in $PACKAGES; do
  status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
  case "$status" in
    *" installed") ;;
    *) missing="$missing $pkg" ;;
  esac
done

if [ -z "$missing" ]; then
  echo "install.sh: all $(echo $PACKAGES | wc -w) packages cua-driver needs are installed."
  exit 0
fi

if [ "$(id -u)" = 0 ]; then
  sudo=""
else
  sudo="sudo "
fi
line="${sudo}apt-get install -y --no-install-recommends$missing"
echo "install.sh: missing:$missing"
if [ "$mode" = check ]; then
  echo "install.sh: to install them, run:"
  echo "  $line"
  echo "install.sh: (if apt-get cannot find a package, run \"${sudo}apt-get update\" first)"
  exit 1
fi

echo "install.sh: running: $line"
# shellcheck disable=SC2086 # the package list is meant to split
if ! ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing; then
  echo "install.sh: apt-get failed; running: ${sudo}apt-get update, then the install again"
  ${sudo}apt-get update
  # shellcheck disable=SC2086
  ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi
echo "install.sh: installed:$missing"
