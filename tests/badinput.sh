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
. "$(dirname "$0")/lib.sh"
dir=tests/badinput
require_sim

# reason INPUT WHY: one reason INPUT failed; an input counts as one failure
# however many reasons it has, and as one pass when it has none.
reason() {
	if [ "$good" -eq 1 ]; then bad "$1: $2"; else echo "FAIL $1: $2"; fi
	good=0
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
	"$SIM" run --no-color --json "$json" "$input" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null
	rc=$?
	if [ -n "${UPDATE:-}" ]; then
		cp "$tmp/stderr" "$want"
	fi
	good=1
	if [ "$rc" -ne 3 ]; then
		reason "$input" "exit status $rc, want 3"
	fi
	if [ -s "$tmp/stdout" ]; then
		reason "$input" "wrote to stdout:"
		head -n 5 "$tmp/stdout"
	fi
	if [ -e "$json" ]; then
		reason "$input" "created the --json file"
	fi
	if [ ! -f "$want" ]; then
		reason "$input" "no $want (run with UPDATE=1 to create it)"
	elif ! cmp -s "$want" "$tmp/stderr"; then
		reason "$input" "stderr differs from $want:"
		diff -u "$want" "$tmp/stderr" | sed 's/^/    /'
	fi
	[ "$good" -eq 0 ] || ok
done

[ "$pass" -gt 0 ] || [ "$fail" -gt 0 ] || bad "no input in $dir"
finish
