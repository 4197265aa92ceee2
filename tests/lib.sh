# tests/lib.sh - the harness of the end-to-end scripts tests/*.sh.
#
# A script sources it first, from the repository root (as make check and
# scripts/run-tests.sh run them):
#
#     . "$(dirname "$0")/lib.sh"
#
# and ends with `finish`.  It is not a test itself: scripts/run-tests.sh
# skips it.  POSIX sh; the functions use no variables but their own lib_*
# ones and those listed under "Sets", so a script's variables survive them.
#
# Environment read:
#   MAGOS_SIM    the program under test (default build/debug/magos-sim);
#                make check sets it through scripts/run-tests.sh.
#   MAGOS_BUILD  the build directory (default build/debug), for artefacts.
#   KEEP         when set, the scratch directory is kept and its path said.
#
# Sets on sourcing:
#   SIM          $MAGOS_SIM or its default.
#   BUILD        $MAGOS_BUILD or its default.
#   TESTS        the absolute path of tests/ (holds lib/, the python helpers).
#   tmp          a fresh scratch directory, removed on exit (also on INT and
#                TERM) unless KEEP is set.
#   pass, fail   the counts of passed and failed checks, both 0.
#   set -u       an unset variable is an error.
#
# Reporting (every check counts once, in pass or in fail):
#   ok [NAME]        counts a pass; prints "ok   NAME" when NAME is given
#                    (check.sh and badinput.sh count some passes silently).
#   bad NAME         counts a failure; prints "FAIL NAME".
#   show FILE [N]    prints the first N (default 5) lines of FILE indented,
#                    under a FAIL line.
#   finish           prints "script-totals: P passed, F failed" (the line
#                    scripts/run-tests.sh adds up) and exits: 0 when nothing
#                    failed, 1 otherwise.
#
# Checks (each counts and prints through ok and bad; one line named NAME
# unless said otherwise):
#   check NAME CMD...           CMD's exit status decides.
#   expect_rc NAME WANT CMD...  runs CMD with stdout in $tmp/out and stderr in
#                               $tmp/err; passes when it exits WANT; on
#                               failure shows both.
#   expect_status NAME WANT GOT an exit status already taken: GOT = WANT.
#   contains NAME FILE TEXT     FILE holds the fixed string TEXT.
#   lacks NAME FILE TEXT        FILE does not hold the fixed string TEXT.
#   has_line NAME FILE TEXT     FILE holds a line that is exactly TEXT.
#   fact NAME KEY OP VALUE      the line KEY=V of $tmp/NAME.facts (written by
#                               tests/html/check_html.py) compares to VALUE:
#                               OP is = (as text) or a test(1) integer
#                               operator (-eq, -ge, -le, ...); prints
#                               "NAME: KEY OP VALUE".
#   run_example NAME            runs scenarios/NAME.yaml with -q --json into
#                               $tmp/NAME.json ($tmp/NAME.out, $tmp/NAME.err);
#                               two checks: "NAME runs (exit 0, JSON
#                               written)" and "NAME loads without warnings".
#   pyfacts ARGS...             runs the python program on stdin as
#                               `python3 - ARGS`, tests/lib on its PYTHONPATH
#                               (tests/lib/facts.py: load, check,
#                               status_changes; tests/lib/resume_facts.py:
#                               a resumed run against the whole run, its
#                               times on the original clock;
#                               tests/lib/hazards_facts.py and
#                               quirks_facts.py for the hazard scripts);
#                               prints its output and counts
#                               each "ok   " and "FAIL" line of it as a check;
#                               an exit status other than 0 fails "the python
#                               checks ran to the end".  Without python3 it
#                               says it skips them.
#
# Conditions (true or false, no output; use them with check or if):
#   fits FILE WIDTH   no line of FILE is wider than WIDTH columns (UTF-8
#                     characters: continuation bytes are not counted); false
#                     when FILE is missing.
#
# Preconditions (when one is not met: one failure, then finish):
#   require_sim            $SIM is an executable file.
#   require_python WHY     python3 is installed; WHY says what for ("to ...").
#   require_consumers MODULE...
#                          node and the npm packages MODULE... of
#                          tests/consumers (MAGOS_CONSUMERS=1
#                          scripts/install-deps.sh) are installed.  When
#                          not: a skip line and finish (a bare checkout
#                          passes), or one failure and finish under
#                          MAGOS_REQUIRE_CONSUMERS=1 or
#                          MAGOS_REQUIRE_BROWSER=1 (CI).
#
# Also sets CONSUMERS, the absolute path of tests/consumers (the npm tools).

set -u
SIM=${MAGOS_SIM:-build/debug/magos-sim}
# shellcheck disable=SC2034 # read by the scripts (browser.sh)
BUILD=${MAGOS_BUILD:-build/debug}
TESTS=$(cd "$(dirname "$0")" && pwd)
# (a script of tests/conformance/ sources ../lib.sh)
[ -f "$TESTS/lib.sh" ] || TESTS=$(dirname "$TESTS")
CONSUMERS=$TESTS/consumers
pass=0
fail=0
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
[ -z "${KEEP:-}" ] || echo "keeping $tmp"

ok() {
	pass=$((pass + 1))
	[ $# -eq 0 ] || echo "ok   $1"
}

bad() {
	fail=$((fail + 1))
	echo "FAIL $1"
}

show() {
	sed 's/^/     /' "$1" | head -n "${2:-5}"
}

finish() {
	echo "script-totals: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

check() {
	lib_name=$1
	shift
	if "$@"; then ok "$lib_name"; else bad "$lib_name"; fi
}

expect_rc() {
	lib_name=$1 lib_want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	lib_got=$?
	if [ "$lib_got" -eq "$lib_want" ]; then ok "$lib_name"; else
		bad "$lib_name (exit $lib_got, want $lib_want)"
		sed 's/^/     /' "$tmp/err" "$tmp/out" | head -n 8
	fi
}

expect_status() {
	if [ "$3" -eq "$2" ]; then ok "$1"; else bad "$1 (exit $3, want $2)"; fi
}

contains() {
	if grep -qF -- "$3" "$2"; then ok "$1"; else
		bad "$1"
		echo "     want: $3"
		echo "     in:   $2"
	fi
}

lacks() {
	if grep -qF -- "$3" "$2"; then
		bad "$1"
		echo "     unwanted: $3"
	else ok "$1"; fi
}

has_line() {
	if grep -qxF -- "$3" "$2"; then ok "$1"; else
		bad "$1"
		echo "     want: $3"
		sed 's/^/     got:  /' "$2" | head -n 8
	fi
}

fact() {
	lib_got=$(sed -n "s/^$2=//p" "$tmp/$1.facts")
	if [ "$3" = "=" ]; then
		[ "$lib_got" = "$4" ]
	else
		[ "${lib_got:-x}" -eq "${lib_got:-x}" ] 2>/dev/null && test "$lib_got" "$3" "$4"
	fi
	if [ $? -eq 0 ]; then ok "$1: $2 $3 $4"; else bad "$1: $2 $3 $4 (got '$lib_got')"; fi
}

run_example() {
	"$SIM" run -q --json "$tmp/$1.json" "scenarios/$1.yaml" >"$tmp/$1.out" 2>"$tmp/$1.err"
	lib_rc=$?
	if [ "$lib_rc" -eq 0 ] && [ -s "$tmp/$1.json" ]; then ok "$1 runs (exit 0, JSON written)"; else
		bad "$1 runs (exit $lib_rc)"
		show "$tmp/$1.err"
	fi
	if grep -q "warning\|error" "$tmp/$1.err"; then
		bad "$1 loads without warnings"
		show "$tmp/$1.err"
	else ok "$1 loads without warnings"; fi
}

pyfacts() {
	if ! command -v python3 >/dev/null 2>&1; then
		echo "skip the promised facts: python3 is not installed"
		return 0
	fi
	PYTHONPATH="$TESTS/lib${PYTHONPATH:+:$PYTHONPATH}" python3 - "$@" >"$tmp/py.out" 2>&1
	lib_rc=$?
	cat "$tmp/py.out"
	pass=$((pass + $(grep -c '^ok ' "$tmp/py.out")))
	fail=$((fail + $(grep -c '^FAIL' "$tmp/py.out")))
	[ "$lib_rc" -eq 0 ] || bad "the python checks ran to the end (exit $lib_rc)"
}

fits() {
	[ -f "$1" ] || return 1
	LC_ALL=C sed 's/[\x80-\xbf]//g' "$1" |
		LC_ALL=C awk -v w="$2" 'length($0) > w { wide = 1 } END { exit wide }'
}

require_sim() {
	[ -x "$SIM" ] && return 0
	bad "$SIM is not built (make)"
	finish
}

require_python() {
	command -v python3 >/dev/null 2>&1 && return 0
	bad "python3 is needed $1 (scripts/install-deps.sh)"
	finish
}

require_consumers() {
	lib_missing=""
	command -v node >/dev/null 2>&1 || lib_missing="node"
	for lib_m in "$@"; do
		[ -d "$CONSUMERS/node_modules/$lib_m" ] || lib_missing="$lib_missing $lib_m"
	done
	[ -z "$lib_missing" ] && return 0
	if [ "${MAGOS_REQUIRE_CONSUMERS:-0}" = 1 ] || [ "${MAGOS_REQUIRE_BROWSER:-0}" = 1 ]; then
		bad "missing:$lib_missing (MAGOS_CONSUMERS=1 scripts/install-deps.sh)"
	else
		echo "skip: missing$lib_missing (MAGOS_CONSUMERS=1 scripts/install-deps.sh installs it)"
	fi
	finish
}
