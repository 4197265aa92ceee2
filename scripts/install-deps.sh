#!/bin/sh
# Installs the Debian packages magos-sim builds against and tests with: the C
# toolchain with the C library's headers (gcc only recommends libc6-dev, and
# a minimal Debian installs no recommends), libyaml, jansson, GSL, CUnit,
# mimalloc (the allocator of the debug and release builds, see the Makefile),
# pkg-config, make, python3 (end-to-end checks) with python3-yaml (reads the
# snapshots `run --snapshot` writes, as an independent YAML parser), man-db (the manual page is
# rendered by man), zsh (its completion is tested) and tzdata (the IANA time
# zones update windows are evaluated in: sim/load/tzif reads
# /usr/share/zoneinfo).  Idempotent: packages
# already present are left alone and nothing is fetched when all of them are
# installed.  scripts/fresh-debian.sh proves the list on a minimal Debian.
#
# Optional groups, installed only when asked for:
#   MAGOS_CONSUMERS=1  the tools that read the outputs, for the tests that run
#                    them (tests/consumers.sh, tests/schemas.sh): xmllint from
#                    Debian, Node.js from Debian when no node is installed, and
#                    the npm packages of tests/consumers/package-lock.json into
#                    tests/consumers/node_modules (npm ci: exactly the locked
#                    versions, no install scripts); CI sets it
#   MAGOS_BROWSER=1  chromium, for tests/browser.sh (headless renders and
#                    screenshots of the HTML report, Mermaid and axe-core in
#                    the browser; CI sets it); implies MAGOS_CONSUMERS=1
#   MAGOS_FUZZ=1     clang with libFuzzer and the sanitizer runtimes, and
#                    llvm-symbolizer for readable reports, for `make fuzz`
#                    (docs/fuzzing.md; CI sets it)
#   MAGOS_DEB=1      dpkg-dev, debhelper and build-essential (which
#                    dpkg-buildpackage checks for), for make deb
#   MAGOS_BENCH=1    python3-simpy3 and valgrind, for scripts/bench.sh's
#                    SimPy comparison and instruction counts (BENCHMARKS.md)
set -eu
cd "$(dirname "$0")/.."

PACKAGES="libc6-dev libyaml-dev libjansson-dev libgsl-dev libcunit1-dev libmimalloc-dev pkg-config make gcc python3
python3-yaml man-db zsh tzdata"
# fonts-liberation: the page text in screenshots (a Recommends of chromium that
# --no-install-recommends would skip).
BROWSER_PACKAGES="chromium fonts-liberation"
if [ "${MAGOS_BROWSER:-0}" = 1 ]; then
	PACKAGES="$PACKAGES $BROWSER_PACKAGES"
	MAGOS_CONSUMERS=1
fi
# libclang-rt-dev holds libFuzzer and the sanitizers: only a Recommends of
# clang, which --no-install-recommends would skip.
FUZZ_PACKAGES="clang libclang-rt-dev llvm"
if [ "${MAGOS_FUZZ:-0}" = 1 ]; then
	PACKAGES="$PACKAGES $FUZZ_PACKAGES"
fi
if [ "${MAGOS_DEB:-0}" = 1 ]; then
	PACKAGES="$PACKAGES dpkg-dev debhelper build-essential"
fi
if [ "${MAGOS_BENCH:-0}" = 1 ]; then
	PACKAGES="$PACKAGES python3-simpy3 valgrind"
fi
if [ "${MAGOS_CONSUMERS:-0}" = 1 ]; then
	PACKAGES="$PACKAGES libxml2-utils"
	# A node installed otherwise (NodeSource ships npm inside its nodejs, and
	# Debian's npm would conflict with it) is used as it is.
	command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES nodejs npm"
fi

# npm_consumers: the locked npm packages, unless node_modules already holds
# exactly that lock (npm ci records it in node_modules/.package-lock.json).
npm_consumers() {
	[ "${MAGOS_CONSUMERS:-0}" = 1 ] || return 0
	stamp=tests/consumers/node_modules/.magos-lock
	if cmp -s tests/consumers/package-lock.json "$stamp" 2>/dev/null; then
		echo "install-deps: npm packages of tests/consumers present"
		return 0
	fi
	echo "install-deps: npm ci in tests/consumers"
	(cd tests/consumers && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
	cp tests/consumers/package-lock.json "$stamp"
}

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "install-deps: all packages present ($PACKAGES)"
	npm_consumers
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
npm_consumers
