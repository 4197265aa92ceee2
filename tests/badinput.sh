#!/bin/sh
# Bad-input corpus: every tests/badinput/NN-name.yaml (or NN-name/ directory)
# is run through `magos-sim run`, which must
#   - exit with status 3 (invalid input),
#   - print exactly tests/badinput/NN-name.err on stderr,
#   - print nothing on stdout,
#   - not create the file given to --json.
# UPDATE=1 rewrites the .err files from what the binary prints (review them:
# every line must name file:line:col, what was wrong and what is accepted).
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
set -u
MAGOS_SIM=${MAGOS_SIM:-build/debug/magos-sim}
dir=tests/badinput
passed=0
failed=0

if [ ! -x "$MAGOS_SIM" ]; then
	echo "badinput: $MAGOS_SIM is not built"
	echo "script-totals: 0 passed, 1 failed"
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fail INPUT WHY - one reason an input failed (an input counts once however many).
fail() {
	echo "FAIL $1: $2"
	ok=0
}

for input in "$dir"/[0-9][0-9]-*; do
	case "$input" in
	*.err) continue;;
	*.yaml|*.yml) ;;
	*) [ -d "$input" ] || continue;;
	esac
	name=${input%.yaml}
	name=${name%.yml}
	want="$name.err"
	json="$tmp/out.json"
	rm -f "$json"
	"$MAGOS_SIM" run --no-color --json "$json" "$input" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null
	rc=$?
	if [ -n "${UPDATE:-}" ]; then
		cp "$tmp/stderr" "$want"
	fi
	ok=1
	if [ "$rc" -ne 3 ]; then
		fail "$input" "exit status $rc, want 3"
	fi
	if [ -s "$tmp/stdout" ]; then
		fail "$input" "wrote to stdout:"
		head -n 5 "$tmp/stdout"
	fi
	if [ -e "$json" ]; then
		fail "$input" "created the --json file"
	fi
	if [ ! -f "$want" ]; then
		fail "$input" "no $want (run with UPDATE=1 to create it)"
	elif ! cmp -s "$want" "$tmp/stderr"; then
		fail "$input" "stderr differs from $want:"
		diff -u "$want" "$tmp/stderr" | sed 's/^/    /'
	fi
	if [ "$ok" -eq 1 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done

echo "script-totals: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
