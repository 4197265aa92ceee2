#!/bin/sh
# Regenerates the README's picture of the HTML report: runs an example scenario
# with --html and renders the page in headless Chromium (the flags the offline
# machines need).  Usage: scripts/readme-screenshot.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
build=${1:-build/debug}
command -v chromium >/dev/null 2>&1 || {
	echo "readme-screenshot: chromium not installed (MAGOS_BROWSER=1 scripts/install-deps.sh)" >&2
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/magos-sim" run -q --html "$tmp/report.html" scenarios/fleet-gate-halt.yaml >/dev/null
mkdir -p "$tmp/profile"
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$tmp/profile" --hide-scrollbars --window-size=1400,1500 \
	--screenshot="$tmp/shot.png" "file://$tmp/report.html" >/dev/null 2>&1
cp "$tmp/shot.png" docs/img/html-report-fleet-gate-halt.png
echo "wrote docs/img/html-report-fleet-gate-halt.png"
