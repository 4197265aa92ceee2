#!/bin/sh
# End-to-end checks of the message for an option given to the wrong command.
# Every long option that some command's --help lists, given to a command
# whose --help does not list it, is named as belonging elsewhere ("does not
# apply to this command", exit 2), bare and as --opt=value; it is never taken
# for a typo.  The commands and their options are read from the help texts,
# not from the code, so an option added to a command that the other commands
# do not know of fails here.  A typo, and a prefix or an extension of a real
# option, stay unknown.
. "$(dirname "$0")/lib.sh"

# expect_msg NAME WANT_STDERR CMD...: runs CMD, wants exit 2 and exactly
# WANT_STDERR followed by the "try" line.
expect_msg() {
	name=$1 want=$2
	shift 2
	cmd=$2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	printf "%s\ntry 'magos-sim %s --help'\n" "$want" "$cmd" >"$tmp/want"
	if [ "$got" -eq 2 ] && cmp -s "$tmp/want" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "$name"
	else
		if [ "$got" -ne 2 ]; then bad "$name (exit $got, want 2)"; else bad "$name (output differs)"; fi
		diff "$tmp/want" "$tmp/err" >"$tmp/diff"
		show "$tmp/diff" 6
	fi
}

# The commands that take options: those of `magos-sim help` whose --help has an Options: block.
commands=
for c in $("$SIM" help | sed -n '/^Commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p'); do
	if "$SIM" "$c" --help >"$tmp/help.$c" 2>/dev/null && grep -q '^Options:' "$tmp/help.$c"; then
		sed -n '/^Options:/,/^$/p' "$tmp/help.$c" | grep -o -- '--[a-z][a-z-]*' | sort -u \
			>"$tmp/opts.$c"
		commands="$commands $c"
	fi
done
# Five when this was written: run, check, lint, compare, merge.
if [ "$(echo $commands | wc -w)" -ge 5 ]; then
	ok "help lists the commands with options"
else
	bad "help lists the commands with options (got:$commands)"
fi
cat "$tmp"/opts.* | sort -u >"$tmp/all"
# 28 when this was written.
if [ "$(wc -l <"$tmp/all")" -ge 28 ]; then
	ok "the help texts list the long options"
else
	bad "the help texts list the long options (got $(wc -l <"$tmp/all"))"
fi

elsewhere=0
for opt in $(cat "$tmp/all"); do
	for c in $commands; do
		grep -qx -- "$opt" "$tmp/opts.$c" && continue
		elsewhere=$((elsewhere + 1))
		expect_msg "$c $opt: belongs to another command" \
			"magos-sim $c: option '$opt' does not apply to this command" "$SIM" "$c" "$opt" x.yaml
		expect_msg "$c $opt=v: belongs to another command" \
			"magos-sim $c: option '$opt=v' does not apply to this command" "$SIM" "$c" "$opt=v" x.yaml
	done
done
# 81 when this was written: each command lacks some option another has.
if [ "$elsewhere" -ge 50 ]; then ok "options of other commands tried ($elsewhere)"; else
	bad "options of other commands tried ($elsewhere, want at least 50)"; fi

expect_msg "a typo is unknown" "magos-sim run: unknown option '--frob'" "$SIM" run --frob x.yaml
expect_msg "a prefix of another command's option is unknown" \
	"magos-sim lint: unknown option '--jso'" "$SIM" lint --jso x.yaml
expect_msg "an extension of another command's option is unknown" \
	"magos-sim lint: unknown option '--json-x=1'" "$SIM" lint --json-x=1 x.yaml

# An option that takes one value, given twice, is a usage error (the first
# value would be silently replaced), whichever spelling each time; options
# that add up (--limit, --max-regression, --disable) may repeat.
SC=scenarios/three-environments.yaml
expect_msg "run --at twice" "magos-sim run: --at given twice: it takes one value, give it once" \
	"$SIM" run --at 30m --at 40m "$SC"
expect_msg "run -s and --seed" "magos-sim run: --seed given twice: it takes one value, give it once" \
	"$SIM" run -s 1 --seed=2 "$SC"
expect_msg "run --json twice" "magos-sim run: --json given twice: it takes one value, give it once" \
	"$SIM" run --json "$tmp/a.json" --json "$tmp/b.json" "$SC"
expect_msg "check -n twice" "magos-sim check: --trials given twice: it takes one value, give it once" \
	"$SIM" check -n 2 --trials 3 "$SC"
expect_msg "compare --horizon twice" "magos-sim compare: --horizon given twice: it takes one value, give it once" \
	"$SIM" compare --horizon 1h --horizon 2h "$SC" "$SC"
expect_msg "merge --csv twice" "magos-sim merge: --csv given twice: it takes one value, give it once" \
	"$SIM" merge --csv a.csv --csv b.csv x.json
expect_msg "lint --format twice" "magos-sim lint: --format given twice: it takes one value, give it once" \
	"$SIM" lint --format json --format text "$SC"
expect_rc "run --limit twice adds up" 0 "$SIM" run -q --limit documents=100 --limit files=10 "$SC"
expect_rc "lint --disable twice adds up" 0 "$SIM" lint --disable MS101 --disable MS102 "$SC"

finish
