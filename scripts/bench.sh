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

# End to end: N Workspaces of one Project, under DefaultParallel and under a
# 10-step Rollout (scripts/gen-magos-fleet.sh), timed as whole runs.
# BENCH_MAGOS lists the sizes (default 1000; "1000 10000" adds the
# 10 000-Workspace project, a few seconds each).  Where python3-simpy3 is
# installed, scripts/simpy-magos.py runs the same scenario as a plain SimPy
# model beside it (the comparison of BENCHMARKS.md).
sim="$BUILD/magos-sim"
if [ -x "$sim" ] && command -v python3 >/dev/null 2>&1; then
	work=$(mktemp -d)
	for spec in $(for n in ${BENCH_MAGOS:-1000}; do echo "$n:0:default-parallel $n:10:rollout-10-steps"; done); do
		set -- $(echo "$spec" | tr ':' ' ')
		if /usr/bin/python3 -c 'import simpy' 2>/dev/null; then
			/usr/bin/python3 scripts/simpy-magos.py "$1" "$2" || failed=$((failed + 1))
		fi
		scripts/gen-magos-fleet.sh "$1" "$2" >"$work/s.yaml"
		t0=$(date +%s%N)
		"$sim" run -q --json "$work/s.json" "$work/s.yaml" >/dev/null || failed=$((failed + 1))
		t1=$(date +%s%N)
		python3 - "$work/s.json" "$1" "$3" "$t0" "$t1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n, name, t0, t1 = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
secs = (t1 - t0) / 1e9
ev = d["run"]["sim_events"]
ttc = d["summary"]["time_to_complete_ms"]
print(f"magos {n} workspaces, {name}: {ev} events in {secs:.3f} s wall "
      f"({ev / secs:,.0f} events/s), time to complete {ttc} ms simulated")
PY
	done
	rm -rf "$work"
fi
# End to end: a generated FleetRollout fleet (scripts/gen-fleet.sh N NS WAVES),
# 10 waves, a gate on the first, one version rolled out after the baseline,
# timed as whole runs.  BENCH_FLEET lists the sizes as N:NAMESPACES (default
# the 1 000-member fleet only, well under a second); the 10 000-member one
# takes a couple of seconds and the 100 000-member one about 35 s of CPU and
# 1.0 GB (see BENCHMARKS.md), e.g.
#   BENCH_FLEET="1000:100 10000:1000" scripts/bench.sh
#   BENCH_FLEET="100000:10000" scripts/bench.sh
if [ -x "$sim" ] && command -v python3 >/dev/null 2>&1; then
	work=$(mktemp -d)
	for spec in ${BENCH_FLEET:-1000:100}; do
		n=${spec%%:*}
		ns=${spec#*:}
		scripts/gen-fleet.sh "$n" "$ns" 10 >"$work/f.yaml"
		t0=$(date +%s%N)
		"$sim" run -q --json "$work/f.json" "$work/f.yaml" >/dev/null || failed=$((failed + 1))
		t1=$(date +%s%N)
		python3 - "$work/f.json" "$n" "$ns" "$t0" "$t1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n, ns, t0, t1 = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
secs = (t1 - t0) / 1e9
ev = d["run"]["sim_events"]
ttc = d["summary"]["time_to_complete_ms"]
print(f"fleet {n} stagesets in {ns} namespaces, 10 waves: {ev} events in {secs:.3f} s wall "
      f"({ev / secs:,.0f} events/s), time to complete {ttc} ms simulated")
PY
	done
	rm -rf "$work"
fi
[ "$failed" -eq 0 ]
