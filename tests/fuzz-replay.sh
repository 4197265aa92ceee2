#!/bin/sh
# Replays every seed corpus tests/fuzz/NAME/ through its harness built with a
# plain main() ($MAGOS_BUILD/fuzz-replay/fuzz_NAME, tests/fuzz/replay.c): the
# inputs the fuzzers found (kept there as regression tests), the examples and
# the edge cases must neither crash nor fail an oracle, in the debug build
# and under the sanitizers.  One check per harness.  docs/fuzzing.md.
. "$(dirname "$0")/lib.sh"
dir=$BUILD/fuzz-replay
found=0
for c in tests/fuzz/*/; do
	n=$(basename "$c")
	h=$dir/fuzz_$n
	found=$((found + 1))
	if [ ! -x "$h" ]; then
		bad "fuzz_$n: $h is not built (make tests)"
		continue
	fi
	# The harnesses print nothing but what a failed oracle says, on stderr.
	if (cd "$c" && "$OLDPWD/$h" ./*) >"$tmp/out" 2>"$tmp/err"; then
		ok "fuzz_$n replays its $(ls "$c" | wc -l) seeds"
	else
		bad "fuzz_$n replays its seeds"
		show "$tmp/err" 12
	fi
done
[ "$found" -gt 0 ] || bad "no seed corpus in tests/fuzz/"
finish
