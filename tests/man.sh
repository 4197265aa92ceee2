#!/bin/sh
# The manual page dist/magos-sim.1 is what scripts/gen-man.sh makes of the
# help texts (UPDATE=1 rewrites it), renders without warnings, and has a
# section for every command with every one of its options.
. "$(dirname "$0")/lib.sh"
require_sim
scripts/gen-man.sh "$SIM" >"$tmp/page.1"
if [ "${UPDATE:-}" = 1 ]; then cp "$tmp/page.1" dist/magos-sim.1; fi
if cmp -s "$tmp/page.1" dist/magos-sim.1; then ok "dist/magos-sim.1 is the generated page"; else
	bad "dist/magos-sim.1 is the generated page (UPDATE=1 sh tests/man.sh)"
	diff dist/magos-sim.1 "$tmp/page.1" | head -8 | sed 's/^/     /'
fi
if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l dist/magos-sim.1 >"$tmp/page.txt" 2>"$tmp/warn"
	expect_status "man renders the page" 0 $?
	if [ -s "$tmp/warn" ]; then bad "man renders without warnings"; show "$tmp/warn"; else ok "man renders without warnings"; fi
	for s in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" ENVIRONMENT FILES; do
		has_line "the page has $s" "$tmp/page.txt" "$s"
	done
	for cmd in run check lint compare merge version help; do
		contains "the page has a section for $cmd" "$tmp/page.txt" "magos-sim $cmd"
	done
	# Every option of every command, in that command's section.
	for cmd in run check lint compare merge; do
		awk -v c="$cmd" '/^   magos-sim [a-z]+ / { on = ($2 == c) } on' "$tmp/page.txt" >"$tmp/sec"
		missing=""
		for o in $("$SIM" "$cmd" --help | sed -n 's/^  \(-[a-z], \|    \)\(--[a-z][a-z-]*\).*/\2/p'); do
			grep -q -- "^       $o\|^       -., $o" "$tmp/sec" || missing="$missing $o"
		done
		if [ -z "$missing" ]; then ok "the $cmd section lists its options"; else bad "the $cmd section lacks:$missing"; fi
	done
else
	bad "man is installed, to render the page (scripts/install-deps.sh)"
fi
finish
