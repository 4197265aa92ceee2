#!/bin/sh
# Keeps the layers of docs/architecture.md apart.  Every #include "..." between
# folders runs one way, downward, in this order (bottom first):
#
#   engine/        pure ports: libc and engine/ only
#   sim/base       primitives: diagnostics, Go time, string index
#   sim/core       event queue, timeline, random streams
#   sim/cluster    the simulated API server: store, admission, CRD schemas
#   sim/world      the DES loop over the cluster, controller-runtime queues
#   sim/load       YAML, manifests, the scenario document, series, distributions
#   sim/lint       static checks of a loaded scenario
#   sim/models     what lies outside the controllers (Jobs, members, git, sources)
#   sim/wire       each engine port wired into the world
#   sim/observe    what a run saw: steps, waves, halts, outcome
#   sim/run        one run of a scenario
#   sim/plan       trials, statistics, variants, sweeps, compare, expectations
#   reports/       renderers: only sim/base, sim/core, sim/lint, sim/observe,
#                  sim/plan and engine/xalloc.h below it
#   sim/cli        the commands: anything below
#
# Libraries: libyaml only in sim/load/yamlload.c; GSL only in sim/core/rng,
# sim/load/dist and sim/plan; jansson only in reports/; pthreads only in
# sim/plan.  engine/ calls no I/O, clock, randomness or exit.
#
# Usage: scripts/check-layers.sh [ROOT]   (ROOT: a checkout, default this one)
# Prints one line per rule ("ok" or "FAIL" with the offending lines) and
# "script-totals: P passed, F failed"; exits 1 on any failure.
set -u
root=${1:-"$(dirname "$0")/.."}
cd "$root" || exit 2

LAYERS="engine sim/base sim/core sim/cluster sim/world sim/load sim/lint sim/models
sim/wire sim/observe sim/run sim/plan reports sim/cli"
# What reports/ may include (a renderer reads observations and plans, never the
# engines, the world or the models).
REPORTS_MAY="sim/base sim/core sim/lint sim/observe sim/plan reports engine/xalloc.h"

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; printf '%s\n' "$2" | sed 's/^/     /'; }

# grep that skips commented-out lines; FILES may be empty.
hits() { # REGEX FILES...
	pattern=$1
	shift
	[ $# -gt 0 ] || return 0
	grep -nE "$pattern" "$@" /dev/null 2>/dev/null | grep -vE '^[^:]+:[0-9]+:\s*(/?\*|//)' || true
}
check() { # NAME REGEX FILES...
	name=$1
	shift
	h=$(hits "$@")
	if [ -z "$h" ]; then ok "$name"; else bad "$name" "$h"; fi
}
files_in() { # DIR... : the C files of those folders (not recursive)
	for d in "$@"; do
		for f in "$d"/*.c "$d"/*.h; do
			[ -f "$f" ] && echo "$f"
		done
	done
}
rank() { # FOLDER -> its position in LAYERS, or empty
	i=0
	for l in $LAYERS; do
		i=$((i + 1))
		[ "$l" = "$1" ] && { echo $i; return; }
	done
}

# Every folder of sim/ is a layer: a new folder must be placed in the order.
unknown=""
for d in sim/*/; do
	d=${d%/}
	[ -n "$(rank "$d")" ] || unknown="$unknown$d "
done
stray=$(ls sim/*.c sim/*.h 2>/dev/null)
if [ -z "$unknown$stray" ]; then ok "every file of sim/ is in a layer folder listed here"
else bad "every file of sim/ is in a layer folder listed here" "$unknown$stray"; fi

# Includes run downward.
upward=""
for l in $LAYERS; do
	r=$(rank "$l")
	for f in $(files_in "$l"); do
		for inc in $(grep -oE '^\s*#\s*include\s*"[^"]+"' "$f" | sed -E 's/.*"([^"]+)"/\1/'); do
			case $inc in */*) ;; *) continue ;; esac
			dir=${inc%/*}
			ir=$(rank "$dir")
			if [ -z "$ir" ]; then
				upward="$upward$f: includes \"$inc\" from no layer
"
			elif [ "$ir" -gt "$r" ]; then
				upward="$upward$f: $l includes \"$inc\" from $dir, a higher layer
"
			fi
		done
	done
done
if [ -z "$upward" ]; then ok "every include between folders runs downward"
else bad "every include between folders runs downward" "$upward"; fi

# reports/ reads observations and plans only.
reach=""
for f in $(files_in reports); do
	for inc in $(grep -oE '^\s*#\s*include\s*"[^"]+"' "$f" | sed -E 's/.*"([^"]+)"/\1/'); do
		allowed=no
		for a in $REPORTS_MAY; do
			case $inc in "$a" | "$a"/*) allowed=yes ;; esac
		done
		[ $allowed = yes ] || reach="$reach$f: \"$inc\"
"
	done
done
if [ -z "$reach" ]; then ok "reports/ includes only observation, plan and base headers"
else bad "reports/ includes only observation, plan and base headers" "$reach"; fi

eng=$(files_in engine)
check "engine/ includes no library, clock, thread or I/O header" \
	'#include *[<"](yaml\.h|jansson\.h|gsl/|time\.h|pthread\.h|unistd\.h|fcntl\.h|sys/)' $eng
check "engine/ calls no I/O, clock, randomness or exit" \
	'(^|[^a-z_])(printf|fprintf|fopen|fwrite|puts|rand|srand|random|clock_gettime|time|exit|getenv) *\(' \
	$(files_in engine | grep '\.c$')
check "libyaml only in the YAML loader" '#include *[<"]yaml\.h' \
	$(files_in engine $LAYERS | sort -u | grep -v '^sim/load/yamlload\.c$')
check "GSL only in the random streams, distributions and statistics" '#include *[<"]gsl/' \
	$(files_in engine $LAYERS | sort -u | grep -vE '^sim/(core/rng|load/dist)\.[ch]$|^sim/plan/')
check "jansson only in reports/" '#include *[<"]jansson\.h' \
	$(files_in engine $LAYERS | sort -u | grep -v '^reports/')
check "threads only in the planner" '#include *[<"]pthread\.h' \
	$(files_in engine $LAYERS | sort -u | grep -v '^sim/plan/')

echo "script-totals: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
