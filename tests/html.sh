#!/bin/sh
# End-to-end checks of `magos-sim run --html`: the page of an example run has
# its sections and charts (parsed with python3's html.parser by
# tests/html/check_html.py), tags balance, nothing is fetched from outside,
# one inline script; bad inputs render: zero targets, one target, a large
# fleet (count bands instead of rows; 100 000 members with MAGOS_HTML_BIG=1,
# too slow for every `make check`), no gates, a scenario name with markup
# characters and a very long Workspace name; file size bounds; the same run
# gives the same bytes; the file is written atomically; --html refuses -n 2.
set -u
SIM=${MAGOS_SIM:-build/debug/magos-sim}
CHECK="python3 tests/html/check_html.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# render NAME ARGS...: runs `run -q --html $tmp/NAME.html ARGS`, then the structure check into $tmp/NAME.facts.
render() {
	name=$1
	shift
	if "$SIM" run -q --html "$tmp/$name.html" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
		ok "$name: renders"
	else
		bad "$name: renders (exit $?)"
		sed 's/^/     /' "$tmp/$name.err" | head -5
	fi
	$CHECK "$tmp/$name.html" >"$tmp/$name.facts" 2>&1 || { bad "$name: parses"; head -5 "$tmp/$name.facts"; }
}

# fact NAME KEY OP VALUE: compares a fact of NAME's page (OP: = or a test(1) numeric operator).
fact() {
	got=$(sed -n "s/^$2=//p" "$tmp/$1.facts")
	if [ "$3" = "=" ]; then
		[ "$got" = "$4" ]
	else
		[ "${got:-x}" -eq "${got:-x}" ] 2>/dev/null && [ "$got" "$3" "$4" ]
	fi
	if [ $? -eq 0 ]; then ok "$1: $2 $3 $4"; else bad "$1: $2 $3 $4 (got '$got')"; fi
}

# common NAME: what every page has.
common() {
	fact "$1" unbalanced = 0
	fact "$1" external = 0
	fact "$1" scripts = 1
	fact "$1" js_error = 0
	for s in summary gantt gates concurrency events filter; do
		fact "$1" "has_$s" = 1
	done
}

# size NAME MAX_BYTES
size() {
	b=$(wc -c <"$tmp/$1.html")
	if [ "$b" -le "$2" ]; then ok "$1: $b bytes <= $2"; else bad "$1: $b bytes > $2"; fi
}

# ---- an example with a gate, a halt and three waves ---------------------------
render gate scenarios/fleet-gate-halt.yaml
common gate
fact gate groups = 3
fact gate rows = 12
fact gate crit = 3
fact gate gate_charts = 1
fact gate conc_charts = 1
fact gate m-halt -ge 5 # the legend's, one per wave and the gate chart's
fact gate v-fail -ge 2 # the legend's and the Failing evaluations
fact gate agg = 0
size gate 400000
if grep -q 'wave &quot;canary&quot; failed its health gate' "$tmp/gate.html"; then
	ok "gate: the summary says why it halted, escaped"
else
	bad "gate: the summary says why it halted, escaped"
fi

# ---- a Magos Rollout that halts on a failed step ------------------------------
render magos scenarios/staging-failure-halts.yaml
common magos
fact magos groups = 3
fact magos rows = 3
fact magos gate_charts = 0
fact magos m-halt -ge 4
if grep -q 'No gate was evaluated' "$tmp/magos.html"; then ok "magos: no gates, said"; else bad "magos: no gates, said"; fi
if grep -q 'Blast radius of Rollout default/shop: 2 of 3 Workspaces' "$tmp/magos.html"; then
	ok "magos: blast radius by name"
else
	bad "magos: blast radius by name"
fi

# ---- notices: the engine quirks a run hit, in plain words, each once -------------
render policy scenarios/fleet-standing-policy.yaml
common policy
if grep -q '<li class="sev-info"><strong>note</strong> at 31m: the gate of wave &quot;canary&quot; was queried again although the wave had passed' "$tmp/policy.html"; then
	ok "policy: the quirk is listed in plain words"
else
	bad "policy: the quirk is listed in plain words"
fi
if grep -q '<li class="sev-warning"><strong>warning</strong> at 2h (2 times): wave &quot;canary&quot; regressed' "$tmp/policy.html"; then
	ok "policy: a repeated warning once, with its count"
else
	bad "policy: a repeated warning once, with its count"
fi

# ---- zero targets, one target, markup and long names ---------------------------
render empty tests/html/empty.yaml
common empty
fact empty groups = 0
fact empty svgs = 0
if grep -q 'No Workspaces or StageSets in this run' "$tmp/empty.html"; then ok "empty: says so"; else bad "empty: says so"; fi
size empty 20000

render one tests/html/one.yaml
common one
fact one groups = 1
fact one rows = 1
fact one m-halt = 1 # the legend's only

render names tests/html/names.yaml
common names
fact names h1 = "a<b>&c \"quoted\" 'single' </script><!--"
fact names rows = 1
fact names row_label_max = 30     # the long name is cut in the label column ...
fact names longest_title -ge 245 # ... and given in full in its hover title
if grep -q "<b>" "$tmp/names.html"; then bad "names: no markup from the input"; else ok "names: no markup from the input"; fi

# ---- a large fleet: count bands ------------------------------------------------
sh scripts/gen-fleet.sh 1000 100 4 >"$tmp/fleet1k.yaml"
render fleet1k "$tmp/fleet1k.yaml"
common fleet1k
fact fleet1k rows = 0
fact fleet1k agg = 4
fact fleet1k events = 2000
if grep -q 'more events not shown' "$tmp/fleet1k.html"; then ok "fleet1k: the cut table says so"; else bad "fleet1k: the cut table says so"; fi
size fleet1k 1500000

if [ "${MAGOS_HTML_BIG:-0}" = 1 ]; then
	sh scripts/gen-fleet.sh 100000 1000 10 >"$tmp/fleet100k.yaml"
	render fleet100k "$tmp/fleet100k.yaml"
	common fleet100k
	fact fleet100k agg = 10
	fact fleet100k rows = 0
	size fleet100k 6000000
else
	echo "skip fleet100k: 100 000 members take minutes; set MAGOS_HTML_BIG=1"
fi

# ---- determinism, atomic writes, usage ------------------------------------------
"$SIM" run -q --html "$tmp/again.html" scenarios/fleet-gate-halt.yaml >/dev/null 2>&1
if cmp -s "$tmp/gate.html" "$tmp/again.html"; then ok "same run, same bytes"; else bad "same run, same bytes"; fi

"$SIM" run -q --html "$tmp/no/such/dir/r.html" tests/html/one.yaml >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 4 ] && grep -q "cannot write" "$tmp/err"; then ok "unwritable path: exit 4"; else bad "unwritable path: exit 4 (got $rc)"; fi
printf 'old\n' >"$tmp/keep.html"
chmod 0555 "$tmp" 2>/dev/null
if [ "$(id -u)" != 0 ]; then
	"$SIM" run -q --html "$tmp/keep.html" tests/html/one.yaml >/dev/null 2>&1
	if [ "$(cat "$tmp/keep.html")" = old ]; then ok "failed write keeps the old file"; else bad "failed write keeps the old file"; fi
fi
chmod 0755 "$tmp"

"$SIM" run -q -n 2 --html "$tmp/x.html" tests/html/one.yaml >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q -- "--html draws a single run" "$tmp/err" && [ ! -e "$tmp/x.html" ]; then
	ok "--html with -n 2: usage error"
else
	bad "--html with -n 2: usage error (exit $rc)"
fi

echo "script-totals: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
