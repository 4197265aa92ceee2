#!/bin/sh
# Runs every test of `make check` against the build directory given as $1
# (build/debug, build/san, ...): the CUnit programs, then each scripted check
# (tests/*.sh, but not tests/lib.sh: the harness they source).  Each part
# reports "cunit-totals: R run, F failed" or "script-totals: P passed, F
# failed"; the last line sums them.  Exit status is non-zero when anything
# failed or when no test ran at all.
#
# With --conformance after BUILD_DIR (`make conformance`): the tests that
# compare against the upstream fixtures beside the repository instead
# ($MAGOS_SHARED, default ../shared: its fixtures/upstream/): the CUnit
# conformance suites (each program run with --conformance) and
# tests/conformance/*.sh.  Without that folder it says so and exits 2,
# running nothing: a clone alone has no upstream fixtures to compare with.
set -u
BUILD=${1:?usage: scripts/run-tests.sh BUILD_DIR [--conformance]}
MODE=${2:-}
case "$MODE" in
"" | --conformance) ;;
*) echo "usage: scripts/run-tests.sh BUILD_DIR [--conformance]" >&2; exit 2;;
esac
SHARED=${MAGOS_SHARED:-../shared}
if [ -n "$MODE" ] && [ ! -d "$SHARED/fixtures/upstream" ]; then
	echo "conformance: $SHARED/fixtures/upstream is not there, so nothing was compared." >&2
	echo "conformance: these tests read the upstream manifests and CRDs from a 'shared' folder" >&2
	echo "conformance: beside the repository (or MAGOS_SHARED=DIR); make check needs none of it." >&2
	exit 2
fi
export MAGOS_BUILD="$BUILD"
export MAGOS_SIM="$BUILD/magos-sim"
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

account() {
	# $1 = exit status, $2 = log file of the part that just ran
	line=$(grep -E '^(cunit|script)-totals: ' "$2" | tail -n 1)
	case "$line" in
	cunit-totals:*)
		r=$(echo "$line" | sed -E 's/.*: ([0-9]+) run, ([0-9]+) failed.*/\1/')
		f=$(echo "$line" | sed -E 's/.*: ([0-9]+) run, ([0-9]+) failed.*/\2/')
		passed=$((passed + r - f)); failed=$((failed + f));;
	script-totals:*)
		p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1/')
		f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\2/')
		passed=$((passed + p)); failed=$((failed + f));;
	*) failed=$((failed + 1));;
	esac
	# A crash or a failed suite set-up shows only in the exit status.
	if [ "$1" -ne 0 ] && ! echo "$line" | grep -qE ' [1-9][0-9]* failed'; then
		failed=$((failed + 1))
	fi
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	# shellcheck disable=SC2086 # MODE is empty or one word
	"$t" $MODE >"$log" 2>&1
	rc=$?
	# (under --conformance most programs have nothing to run: not listed)
	if [ "$rc" -ne 0 ] || ! grep -qx 'cunit-totals: 0 run, 0 failed' "$log"; then
		echo "== $t${MODE:+ $MODE}"
		cat "$log"
	fi
	account "$rc" "$log"
done

if [ -n "$MODE" ]; then scripts="tests/conformance/*.sh"; else scripts="tests/*.sh"; fi
for s in $scripts; do
	[ -f "$s" ] && [ "$s" != tests/lib.sh ] || continue
	echo "== $s"
	sh "$s" >"$log" 2>&1
	rc=$?
	cat "$log"
	account "$rc" "$log"
done

echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
