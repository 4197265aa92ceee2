#!/bin/sh
# Runs every benchmark program of a build directory and prints its result
# lines, preceded by the machine and the date, so a figure pasted into
# BENCHMARKS.md says where it came from.
#
#   scripts/bench.sh [BUILD_DIR]     default build/release
#
# Build them first: `make bench` does both, or
# `make VARIANT=release benches && scripts/bench.sh`.  Every executable
# BUILD_DIR/bench/bench_* is run with no arguments, one after the other (so
# they do not compete for cores); each prints its own lines.  Exit status is
# non-zero when no benchmark is found or any of them fails.
set -u
BUILD=${1:-build/release}
dir="$BUILD/bench"

cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "machine: $(uname -m), ${cpu:-unknown CPU}, $(nproc 2>/dev/null || echo '?') cpus"
echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
echo "build: $BUILD"

found=0
failed=0
for b in "$dir"/bench_*; do
	[ -f "$b" ] && [ -x "$b" ] || continue
	found=$((found + 1))
	if ! "$b"; then
		echo "bench.sh: $b failed" >&2
		failed=$((failed + 1))
	fi
done
if [ "$found" -eq 0 ]; then
	echo "bench.sh: no benchmark in $dir (build them with: make VARIANT=release benches)" >&2
	exit 1
fi
[ "$failed" -eq 0 ]
