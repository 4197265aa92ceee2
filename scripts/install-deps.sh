#!/bin/sh
# Installs the Debian packages magos-sim builds against: libyaml, jansson, GSL,
# CUnit and pkg-config; and tzdata, the IANA time zones update windows are
# evaluated in (sim/load/tzif reads /usr/share/zoneinfo).  Idempotent: packages already present are left alone
# and nothing is fetched when all of them are installed.
#
# Optional groups, installed only when asked for:
#   MAGOS_BROWSER=1  chromium, for tests/browser.sh (headless renders and
#                    screenshots of the HTML report; CI sets it)
set -eu

PACKAGES="libyaml-dev libjansson-dev libgsl-dev libcunit1-dev pkg-config make gcc python3 tzdata"
# fonts-liberation: the page text in screenshots (a Recommends of chromium that
# --no-install-recommends would skip).
BROWSER_PACKAGES="chromium fonts-liberation"
if [ "${MAGOS_BROWSER:-0}" = 1 ]; then
	PACKAGES="$PACKAGES $BROWSER_PACKAGES"
fi

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "install-deps: all packages present ($PACKAGES)"
	exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: apt-get not found; install these packages with your system's package manager:$missing" >&2
	exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "install-deps: need root to install:$missing" >&2
	echo "install-deps: run this script as root (su -c scripts/install-deps.sh), or install sudo" >&2
	exit 1
fi

echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
