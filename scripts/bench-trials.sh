#!/bin/sh
# Monte Carlo throughput (issue 5's goal: 1 000 trials of the three-environment
# Magos example in under 1 s on a 2-core machine).  Builds the release
# variant, then prints:
#   - bench_trials: trials/s at -j 1, 2 (and 4) with the speed-up, median of 3;
#   - the whole command, `magos-sim run -q -n 1000 -j J`, median wall time of 5
#     runs (loading and the tables included).
# Usage: scripts/bench-trials.sh [SCENARIO [N]]   (from anywhere)
# Environment: BUILD (default build/release), MAKE (default make).
set -eu
cd "$(dirname "$0")/.."
SCN=${1:-scenarios/three-environments.yaml}
N=${2:-1000}
BUILD=${BUILD:-build/release}
${MAKE:-make} -s VARIANT=release BUILD="$BUILD" "$BUILD/magos-sim" "$BUILD/bench/bench_trials"

echo "machine: $(nproc) CPUs, $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg)"
"$BUILD/bench/bench_trials" "$SCN" "$N" 1 2 4

median_wall() { # J: median of 5 wall times of the command, seconds
	for _ in 1 2 3 4 5; do
		s=$(date +%s.%N)
		"$BUILD/magos-sim" run -q -n "$N" -j "$1" "$SCN" >/dev/null
		e=$(date +%s.%N)
		awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f\n", e - s }'
	done | sort -n | sed -n 3p
}
for j in 1 2; do
	printf 'command: magos-sim run -q -n %s -j %s %s: %.3f s wall (median of 5)\n' \
		"$N" "$j" "$SCN" "$(median_wall "$j")"
done
