#!/bin/sh
# Help that teaches: every command's --help has an Examples section whose
# example inputs exist in the repository, `help COMMAND` prints the same as
# `COMMAND --help`, `help version` and `help help` say what those do (not the
# overview), and every help line fits 80 columns.
. "$(dirname "$0")/lib.sh"
require_sim

"$SIM" help >"$tmp/main"
for cmd in run check lint compare merge; do
	expect_rc "help $cmd exits 0" 0 "$SIM" help "$cmd"
	cp "$tmp/out" "$tmp/help-$cmd"
	"$SIM" "$cmd" --help >"$tmp/dash-$cmd" 2>&1
	check "help $cmd is $cmd --help" cmp -s "$tmp/help-$cmd" "$tmp/dash-$cmd"
	has_line "help $cmd has an Examples section" "$tmp/help-$cmd" "Examples:"
	check "help $cmd fits 80 columns" fits "$tmp/help-$cmd" 80
	# Each example's scenarios/... inputs are in the repository.
	missing=""
	for p in $(sed -n '/^Examples:/,/^Exit codes:/p' "$tmp/help-$cmd" | grep -o 'scenarios/[^ ]*'); do
		[ -e "$p" ] || missing="$missing $p"
	done
	if [ -z "$missing" ]; then ok "help $cmd: the example inputs exist"; else bad "help $cmd: missing example inputs:$missing"; fi
done
check "help fits 80 columns" fits "$tmp/main" 80
has_line "help has an Examples section" "$tmp/main" "Examples:"
contains "help points to the manual page" "$tmp/main" "man magos-sim"
for sub in version help; do
	expect_rc "help $sub exits 0" 0 "$SIM" help "$sub"
	if cmp -s "$tmp/out" "$tmp/main"; then bad "help $sub is not the overview"; else ok "help $sub is not the overview"; fi
	contains "help $sub shows its usage" "$tmp/out" "usage: magos-sim $sub"
done
expect_rc "help takes one command at most" 2 "$SIM" help run check
# The sentence about check's exit status reads as one paragraph (no broken line).
contains "help check: the exit status sentence is whole" "$tmp/help-check" "check holds, 1 when any fails, 3 when any input is invalid"
# check prints each problem of an invalid input twice (the report on stdout,
# the diagnostics on stderr): its help says so.
expect_rc "help check" 0 "$SIM" help check
contains "... says the report is on stdout and the diagnostics on stderr as well" "$tmp/out" "The lines are the report, on stdout; an invalid input's diagnostics"

finish
