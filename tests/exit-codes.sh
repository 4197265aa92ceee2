#!/bin/sh
# The exit codes of the table (README "Exit codes", every --help), the same
# in every command: 3 for an input that cannot be read (a missing file is an
# input problem, as an unparsable one is), 4 for an output that cannot be
# written, and the help's table and the README's agreeing on the codes.
. "$(dirname "$0")/lib.sh"
require_sim
nx=$tmp/does-not-exist.yaml
nodir=$tmp/no-such-dir

expect_rc "run: a missing input is 3" 3 "$SIM" run "$nx"
contains "run: the missing input is named" "$tmp/err" "$nx: error: cannot read: No such file or directory"
expect_rc "run -n: a missing input is 3" 3 "$SIM" run -n 3 "$nx"
expect_rc "check: a missing input is 3" 3 "$SIM" check "$nx"
expect_rc "lint: a missing input is 3" 3 "$SIM" lint "$nx"
expect_rc "compare: a missing base is 3" 3 "$SIM" compare -n 2 "$nx" scenarios/compare/head.yaml
expect_rc "compare: a missing head is 3" 3 "$SIM" compare -n 2 scenarios/compare/base.yaml "$nx"
expect_rc "merge: a missing partial is 3" 3 "$SIM" merge "$tmp/p.json"
mkdir "$tmp/unreadable" && echo "kind: x" >"$tmp/unreadable/a.yaml" && chmod 000 "$tmp/unreadable/a.yaml"
if [ "$(id -u)" -ne 0 ]; then
	expect_rc "run: an unreadable input is 3" 3 "$SIM" run "$tmp/unreadable/a.yaml"
fi
expect_rc "run: a directory without YAML is 3" 3 "$SIM" run "$tmp"

expect_rc "run: an unwritable --json is 4" 4 "$SIM" run -q --json "$nodir/x.json" scenarios/checkout/
contains "run: the output is named" "$tmp/err" "cannot write '$nodir/x.json'"
expect_rc "check: an unwritable --junit is 4" 4 "$SIM" check --junit "$nodir/j.xml" scenarios/ci/magos-staged.yaml
expect_rc "compare: an unwritable --json is 4" 4 "$SIM" compare -n 2 --json "$nodir/c.json" \
	scenarios/compare/base.yaml scenarios/compare/head.yaml
"$SIM" run -n 4 --shard 1/1 --json "$tmp/p1.json" scenarios/checkout/ 2>/dev/null
expect_rc "merge: an unwritable --json is 4" 4 "$SIM" merge --json "$nodir/m.json" "$tmp/p1.json"
if [ -w /dev/full ]; then
	expect_rc "lint: stdout on a full disk is 4" 4 sh -c '"$0" lint scenarios/checkout/ >/dev/full' "$SIM"
	expect_rc "run: stdout on a full disk is 4" 4 sh -c '"$0" run scenarios/checkout/ >/dev/full' "$SIM"
fi

# The help and the README list the same codes with the same first words.
"$SIM" help | sed -n '/^Exit codes:/,$p' | sed -n 's/^  \([0-9][0-9]*\) .*/\1/p' >"$tmp/help-codes"
sed -n '/^### Exit codes/,/^### /p' README.md | sed -n 's/^| \([0-9][0-9]*\) |.*/\1/p' >"$tmp/readme-codes"
if [ -s "$tmp/help-codes" ] && cmp -s "$tmp/help-codes" "$tmp/readme-codes"; then
	ok "help and README list the same exit codes ($(tr '\n' ' ' <"$tmp/help-codes"))"
else
	bad "help and README list the same exit codes"
	paste "$tmp/help-codes" "$tmp/readme-codes" | sed 's/^/     /'
fi
for cmd in run check lint compare merge; do
	"$SIM" help "$cmd" | sed -n '/^Exit codes:/,$p' | sed -n 's/^  \([0-9][0-9]*\) .*/\1/p' >"$tmp/c"
	check "help $cmd ends with the same exit codes" cmp -s "$tmp/c" "$tmp/help-codes"
done
"$SIM" help | grep -A1 '^  3 ' >"$tmp/three"
contains "help: 3 covers an input that cannot be read" "$tmp/three" "cannot be read"
sed -n '/^### Exit codes/,/^### /p' README.md >"$tmp/readme-table"
contains "README: 3 covers an input that cannot be read" "$tmp/readme-table" "| 3 | invalid input: an input that cannot be read"
contains "README: 4 is about outputs" "$tmp/readme-table" "| 4 | an output cannot be written"
finish
