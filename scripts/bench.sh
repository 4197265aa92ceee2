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

# End to end, whole runs of magos-sim, each figure the median of BENCH_RUNS
# runs (default 3) of user + system CPU (/usr/bin/time), the runs of what is
# compared alternating (run -q, run -q --json, the SimPy model, and again):
#
#   BENCH_FLEET="N:NS ..."   scripts/gen-fleet.sh N NS 10 fleets (default
#                            "1000:100 10000:1000"; 100000:10000 takes about
#                            a minute and 1 GiB, 1000000:100000 is opt-in:
#                            about 10 GiB and a quarter of an hour a run)
#   BENCH_MAGOS="N ..."      scripts/gen-magos-fleet.sh N 10 and N 0 (default
#                            1000; 10000 takes seconds, 100000 minutes and
#                            3 GiB a run)
#   BENCH_INPUT="N ..."      scripts/gen-input.sh's five structures of N items
#                            (default none; 100000 is the goal's size;
#                            "steps" lints N steps over N Workspaces, which
#                            is quadratic today: leave it out with
#                            BENCH_INPUT_KINDS)
#   BENCH_CALLGRIND=1        also one run of each fleet and Magos size under
#                            valgrind --tool=callgrind: instructions, exact
#                            (slow: about 50x the CPU time)
#
# Per row: events, CPU median (min-max), events per CPU second, CPU per member,
# peak RSS (median) and RSS per loaded object; the SimPy models
# (scripts/simpy-fleet.py, scripts/simpy-magos.py, Debian python3-simpy3)
# of the same scenario in the same rounds, and magos-sim's speed relative to
# them.
sim="$BUILD/magos-sim"
runs=${BENCH_RUNS:-3}
case "$runs" in '' | *[!0-9]* | 0) echo "bench.sh: BENCH_RUNS must be a positive integer" >&2; exit 2 ;; esac
have_simpy=0
/usr/bin/python3 -c 'import simpy' 2>/dev/null && have_simpy=1
if [ -x "$sim" ] && command -v python3 >/dev/null 2>&1; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	# timed LOG CMD...: one run of CMD, stdout to $work/out, appends "user sys maxrss_kb" to LOG
	timed() {
		log=$1
		shift
		/usr/bin/time -f '%U %S %M' -o "$work/t" "$@" >"$work/out" 2>"$work/err" || {
			echo "bench.sh: failed: $*" >&2
			sed -n '1,5p' "$work/err" >&2
			return 1
		}
		cat "$work/t" >>"$log"
	}
	# report KIND N LABEL JSON OBJECTS_LINE_FILE SIMPY_LOG LOGS...
	report() {
		python3 - "$@" <<'PY'
import json, re, statistics, sys
kind, n, label, js, outf, simpy_log = sys.argv[1:7]
logs = sys.argv[7:]
n = int(n)
d = json.load(open(js))
ev = d["run"]["sim_events"]
ttc = d["summary"]["time_to_complete_ms"]
m = re.search(r"(\d+) objects", open(outf).read())
objs = int(m.group(1)) if m else 0
def cpu(path):
    rows = [l.split() for l in open(path) if l.strip()]
    c = [float(u) + float(s) for u, s, _ in rows]
    r = [int(k) for _, _, k in rows]
    return statistics.median(c), min(c), max(c), statistics.median(r)
parts = []
for path in logs:
    name = path.rsplit("/", 1)[1].split(".")[0]
    med, lo, hi, rss = cpu(path)
    parts.append((name, med, lo, hi, rss))
name, med, lo, hi, rss = parts[0]
unit = "member" if kind == "fleet" else "workspace"
line = (f"{kind} {label}: {ev} events, time to complete {ttc} ms simulated; "
        f"CPU {name} {med:.3f} s ({lo:.3f}-{hi:.3f})")
for name2, m2, lo2, hi2, _ in parts[1:]:
    line += f", {name2} {m2:.3f} s ({lo2:.3f}-{hi2:.3f})"
line += (f"; {ev / med:,.0f} events per CPU second; {med / n * 1e6:.1f} us CPU per {unit}; "
         f"peak RSS {rss / 1024:.1f} MiB, {rss * 1024 / max(objs, 1):,.0f} bytes per loaded "
         f"object ({objs} objects)")
print(line)
if simpy_log != "-":
    rows = [l.split() for l in open(simpy_log) if l.strip()]
    s_cpu = statistics.median(float(r[0]) for r in rows)
    s_ev = int(rows[0][1])
    print(f"  simpy model of it: {s_ev} events, CPU {s_cpu:.3f} s (median); "
          f"magos-sim/simpy speed per trial {s_cpu / med:.2f}x")
PY
	}
	# simpy LOG SCRIPT ARGS...: one run of the SimPy model, appends "cpu events"
	simpy() {
		log=$1
		shift
		/usr/bin/python3 "$@" >"$work/simpy.out" || return 1
		sed -n 's/^.*: \([0-9]*\) events,.* \([0-9.]*\) s CPU.*$/\2 \1/p' "$work/simpy.out" >>"$log"
	}
	callgrind() { # LABEL SCENARIO: instructions of one run -q
		if valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$sim" run -q "$2" \
			>/dev/null 2>"$work/cg.err"; then
			sed -n "s/^.*refs: *\([0-9,]*\).*$/  instructions, $1: \1 (callgrind, run -q)/p" "$work/cg.err"
		else
			echo "bench.sh: callgrind failed on $1" >&2
			failed=$((failed + 1))
		fi
		rm -f "$work/cg.out"
	}
	for spec in ${BENCH_FLEET-1000:100 10000:1000}; do
		n=${spec%%:*}
		ns=${spec#*:}
		scripts/gen-fleet.sh "$n" "$ns" 10 >"$work/f.yaml" || { failed=$((failed + 1)); continue; }
		rm -f "$work/q.log" "$work/json.log" "$work/simpy.log"
		r=0
		slog=-
		while [ "$r" -lt "$runs" ]; do
			timed "$work/q.log" "$sim" run -q "$work/f.yaml" || failed=$((failed + 1))
			cp "$work/out" "$work/objects"
			timed "$work/json.log" "$sim" run -q --json "$work/f.json" "$work/f.yaml" || failed=$((failed + 1))
			if [ "$have_simpy" -eq 1 ]; then
				simpy "$work/simpy.log" scripts/simpy-fleet.py "$n" "$ns" 10 || failed=$((failed + 1))
				slog="$work/simpy.log"
			fi
			r=$((r + 1))
		done
		report fleet "$n" "$n stagesets in $ns namespaces, 10 waves" "$work/f.json" "$work/objects" \
			"$slog" "$work/q.log" "$work/json.log" || failed=$((failed + 1))
		[ "${BENCH_CALLGRIND:-0}" = 1 ] && callgrind "fleet $n" "$work/f.yaml"
	done
	for n in ${BENCH_MAGOS-1000}; do
		for steps in 10 0; do
			scripts/gen-magos-fleet.sh "$n" "$steps" >"$work/m.yaml" || { failed=$((failed + 1)); continue; }
			rm -f "$work/q.log" "$work/json.log" "$work/simpy.log"
			r=0
			slog=-
			while [ "$r" -lt "$runs" ]; do
				timed "$work/q.log" "$sim" run -q "$work/m.yaml" || failed=$((failed + 1))
				cp "$work/out" "$work/objects"
				timed "$work/json.log" "$sim" run -q --json "$work/m.json" "$work/m.yaml" || failed=$((failed + 1))
				if [ "$have_simpy" -eq 1 ]; then
					simpy "$work/simpy.log" scripts/simpy-magos.py "$n" "$steps" || failed=$((failed + 1))
					slog="$work/simpy.log"
				fi
				r=$((r + 1))
			done
			what="10-step Rollout"
			[ "$steps" -eq 0 ] && what="DefaultParallel"
			report magos "$n" "$n workspaces, $what" "$work/m.json" "$work/objects" "$slog" \
				"$work/q.log" "$work/json.log" || failed=$((failed + 1))
			[ "${BENCH_CALLGRIND:-0}" = 1 ] && callgrind "magos $n x $steps" "$work/m.yaml"
		done
	done
	for n in ${BENCH_INPUT-}; do
		for what in ${BENCH_INPUT_KINDS:-annotations labels expressions steps generated}; do
			scripts/gen-input.sh "$what" "$n" >"$work/i.yaml" || { failed=$((failed + 1)); continue; }
			case "$what" in
			expressions | steps) cmd=lint ;;
			*) cmd="run -q" ;;
			esac
			rm -f "$work/i.log"
			r=0
			while [ "$r" -lt "$runs" ]; do
				timed "$work/i.log" "$sim" $cmd "$work/i.yaml" || failed=$((failed + 1))
				r=$((r + 1))
			done
			python3 - "$what" "$n" "$cmd" "$work/i.log" <<'PY'
import statistics, sys
what, n, cmd, log = sys.argv[1:]
rows = [l.split() for l in open(log) if l.strip()]
c = [float(u) + float(s) for u, s, _ in rows]
rss = statistics.median(int(k) for _, _, k in rows)
print(f"input {n} {what} (gen-input.sh, magos-sim {cmd}): CPU {statistics.median(c):.3f} s "
      f"({min(c):.3f}-{max(c):.3f}), peak RSS {rss / 1024:.1f} MiB")
PY
		done
	done
	rm -rf "$work"
	trap - EXIT
fi
[ "$failed" -eq 0 ]
