#!/bin/sh
# The terminal report reads right at 80 columns: long object names keep
# their distinguishing end, the summary names each of its times, counts
# agree with the lines above them, and a count of one is singular.
. "$(dirname "$0")/lib.sh"
require_sim

"$SIM" run --no-color scenarios/payments-platform.yaml >"$tmp/pp.txt" 2>&1
check "the timeline fits 80 columns" fits "$tmp/pp.txt" 80
contains "a long name keeps its kind and its end" "$tmp/pp.txt" "Workspace …/payments-staging-eu"
lacks "no name is cut in the middle" "$tmp/pp.txt" "defaul…"
"$SIM" run --no-color --width 60 scenarios/payments-platform.yaml >"$tmp/pp60.txt" 2>&1
contains "at 60 columns the end of the name stays" "$tmp/pp60.txt" "…ts-staging-eu "

# The summary: when the simulation stopped, and when the change completed.
grep '^stopped ' "$tmp/pp.txt" | sed 's/after [0-9]* events/after N events/' >"$tmp/stop"
has_line "the stop names the simulation and why it ended there" "$tmp/stop" \
	"stopped   the simulation at 20m0s, after N events:"
has_line "... after the change completed: the scripted events ran on" "$tmp/pp.txt" \
	"          the change had completed and no scripted event was left"
has_line "the completion is the time to complete" "$tmp/pp.txt" "completed yes, time to complete 2m30s"
"$SIM" run -q --no-color scenarios/three-environments.yaml >"$tmp/te.txt" 2>&1
grep '^stopped ' "$tmp/te.txt" | sed 's/after [0-9]* events/after N events/' >"$tmp/stop"
has_line "a run that stops when the change completes says so on one line" "$tmp/stop" \
	"stopped   the simulation at 30m5.716s, after N events: the change completed"

# check: the total counts every result line.
"$SIM" check --no-color scenarios/ >"$tmp/chk.txt" 2>/dev/null
lines=$(grep -c '^\(PASS\|FAIL\|WARN\|INFO\|SKIP\) ' "$tmp/chk.txt")
total=$(tail -n 1 "$tmp/chk.txt" | sed -n 's/^\([0-9]*\) checks\{0,1\} in .*/\1/p')
if [ -n "$total" ] && [ "$lines" -eq "$total" ]; then ok "check: $total checks, $lines result lines"; else
	bad "check: the total ($total) counts the result lines ($lines)"; fi

# Plurals.
"$SIM" compare -n 1 scenarios/compare/base.yaml scenarios/compare/head.yaml >"$tmp/c1.txt" 2>&1
contains "compare -n 1: one trial" "$tmp/c1.txt" "1 trial each on common random numbers"
"$SIM" check --no-color scenarios/ci/magos-staged.yaml >"$tmp/one.txt" 2>&1
contains "check of one scenario: singular" "$tmp/one.txt" "in 1 scenario:"
finish
