#!/bin/sh
# The terminal timeline's repeat lines: a notice repeated over time says
# "repeated ×N every D until T"; one repeated only at its own instant says
# "twice at T" (or "N times at T"), not "repeated ×1 until T", which reads
# as a span of time.
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim

expect_rc "fleet-gate-halt runs" 0 "$SIM" run --no-color scenarios/fleet-gate-halt.yaml
has_line "a halt repeated every 30s says so" "$tmp/out" "                … repeated ×40 every 30s until 40m31s"

# fleet-gate-halt with one bad spell of 30s in a 10s series: the gate fails
# in one pass only, and the fleet halts twice at that instant (the halting
# status write re-triggers it) and then goes on.
sed -e 's/      interval: 1m/      interval: 10s/' \
	-e 's/values: "0.002x19 0.052347x20 0.004x200"/values: "0.002x132 0.052347x3 0.004x1200"/' \
	scenarios/fleet-gate-halt.yaml >"$tmp/once.yaml"
expect_rc "a halt in one pass runs" 0 "$SIM" run --no-color "$tmp/once.yaml"
has_line "the repeat at the same instant is 'twice at'" "$tmp/out" "                … twice at 22m32s"
lacks "... not 'repeated ×1 until'" "$tmp/out" "repeated ×1 until"

finish
