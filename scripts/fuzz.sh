#!/bin/sh
# Runs the libFuzzer harnesses of `make fuzz` (build/fuzz/fuzz_NAME), each
# for SECONDS (default 30), over its seed corpus tests/fuzz/NAME/ (read only:
# what the fuzzer finds goes to build/fuzz/corpus/NAME/, which later runs
# start from).  Fails when any harness finds a crash, a sanitizer report, a
# leak, an oracle failure, an input slower than MAGOS_FUZZ_TIMEOUT seconds
# (default 30: libFuzzer counts wall-clock time, and a seed that takes 4 s
# of CPU in the instrumented build takes 12 s on a loaded machine) or one
# that needs more than 2 GiB; the input is left in build/fuzz/artifacts/NAME/.
#
#   scripts/fuzz.sh [SECONDS [NAME...]]      e.g. scripts/fuzz.sh 20, scripts/fuzz.sh 3600 yaml
#
# MAGOS_FUZZ_RUNS=N stops each harness after N inputs (SECONDS still bounds
# it) and fixes libFuzzer's seed (MAGOS_FUZZ_SEED, default 1): from an empty
# build/fuzz/corpus/ the same binary then tries the same inputs on every
# machine, so what CI runs is what a developer reproduces (.ci/run does so).
#
# docs/fuzzing.md says how to run a long campaign and what to do with a find.
set -u
cd "$(dirname "$0")/.."
secs=${1:-30}
[ $# -gt 0 ] && shift
case "$secs" in
'' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS [NAME...]]" >&2; exit 2 ;;
esac
names=$*
if [ -z "$names" ]; then
	for h in build/fuzz/fuzz_*; do
		[ -x "$h" ] && names="$names ${h#build/fuzz/fuzz_}"
	done
fi
if [ -z "$names" ]; then
	echo "fuzz.sh: no harness in build/fuzz/ (build them with: make fuzz)" >&2
	exit 1
fi
failed=""
for n in $names; do
	h=build/fuzz/fuzz_$n
	if [ ! -x "$h" ] || [ ! -d "tests/fuzz/$n" ]; then
		echo "fuzz.sh: no harness $h or no seeds tests/fuzz/$n/" >&2
		failed="$failed $n"
		continue
	fi
	mkdir -p "build/fuzz/corpus/$n" "build/fuzz/artifacts/$n"
	dict=""
	[ -f "tests/fuzz/$n.dict" ] && dict="-dict=tests/fuzz/$n.dict"
	echo "== fuzz_$n: $secs s"
	# -close_fd_mask=3: the harnesses' own output (tables, diagnostics) is
	# not the fuzzer's; its reports still reach stderr.
	# shellcheck disable=SC2086
	fixed=""
	[ -n "${MAGOS_FUZZ_RUNS:-}" ] && fixed="-runs=$MAGOS_FUZZ_RUNS -seed=${MAGOS_FUZZ_SEED:-1}"
	# shellcheck disable=SC2086
	nice "$h" -max_total_time="$secs" $fixed -timeout="${MAGOS_FUZZ_TIMEOUT:-30}" -rss_limit_mb=2048 -malloc_limit_mb=2048 \
		-close_fd_mask=3 -print_final_stats=1 -artifact_prefix="build/fuzz/artifacts/$n/" \
		$dict "build/fuzz/corpus/$n" "tests/fuzz/$n" >"build/fuzz/$n.log" 2>&1
	rc=$?
	grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)|^#[0-9]+.*DONE' "build/fuzz/$n.log" |
		sed 's/^/   /'
	if [ "$rc" -ne 0 ]; then
		echo "FAIL fuzz_$n (exit $rc): see build/fuzz/$n.log and build/fuzz/artifacts/$n/"
		grep -E 'ERROR|SUMMARY|fuzz oracle failed|Test unit written' "build/fuzz/$n.log" |
			head -n 8 | sed 's/^/   /'
		failed="$failed $n"
	fi
done
if [ -n "$failed" ]; then
	echo "fuzz.sh: failed:$failed"
	exit 1
fi
echo "fuzz.sh: every harness ran $secs s without a finding"
