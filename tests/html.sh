#!/bin/sh
# End-to-end checks of `magos-sim run --html`: the page of an example run has
# its sections and charts (parsed with python3's html.parser by
# tests/html/check_html.py), tags balance, nothing is fetched from outside,
# one inline script; bad inputs render: zero targets, one target, a large
# fleet (count bands instead of rows; 100 000 members with MAGOS_HTML_BIG=1,
# too slow for every `make check`), no gates, a scenario name with markup
# characters and a very long Workspace name; file size bounds; the same run
# gives the same bytes; the file is written atomically; --html refuses --shard.
# Then the Monte Carlo pages (run -n N, variants, a sweep, compare --html):
# sections and chart counts, censored trials (some, all), one trial, zero
# halts, markup in names, same bytes whatever -j (100 000 trials with
# MAGOS_HTML_BIG=1; tests/unit/test_html_mc.c draws 100 000 synthetic rows).
. "$(dirname "$0")/lib.sh"
CHECK="python3 tests/html/check_html.py"

# render NAME ARGS...: runs `run -q --html $tmp/NAME.html ARGS`, then the structure check into $tmp/NAME.facts.
render() {
	name=$1
	shift
	if "$SIM" run -q --html "$tmp/$name.html" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
		ok "$name: renders"
	else
		bad "$name: renders (exit $?)"
		show "$tmp/$name.err"
	fi
	$CHECK "$tmp/$name.html" >"$tmp/$name.facts" 2>&1 || { bad "$name: parses"; head -5 "$tmp/$name.facts"; }
}

# common NAME fleet|magos: what every page has; a Gates section only with a
# FleetRollout, and on a page without one no legend entry of a fleet's.
common() {
	fact "$1" unbalanced = 0
	fact "$1" external = 0
	fact "$1" scripts = 1
	fact "$1" js_error = 0
	for s in summary gantt concurrency events filter; do
		fact "$1" "has_$s" = 1
	done
	fact "$1" has_main = 1
	# The critical path's colour is text: 4.5:1 on the page, WCAG AA (it was 3.2:1).
	fact "$1" crit_contrast_x10 -ge 45
	if [ "$2" = fleet ]; then
		fact "$1" has_gates = 1
	else
		fact "$1" has_gates = 0
		lib_l=$(sed -n 's/^legend=//p' "$tmp/$1.facts")
		case ",$lib_l," in
		*soak* | *gate* | *rollback* | *adopting* | *"awaiting approval"*)
			bad "$1: the legend lists only what a page of Workspaces draws (got $lib_l)" ;;
		*) ok "$1: the legend lists only what a page of Workspaces draws" ;;
		esac
	fi
}

# size NAME MAX_BYTES
size() {
	b=$(wc -c <"$tmp/$1.html")
	if [ "$b" -le "$2" ]; then ok "$1: $b bytes <= $2"; else bad "$1: $b bytes > $2"; fi
}

# ---- an example with a gate, a halt and three waves ---------------------------
render gate scenarios/fleet-gate-halt.yaml
common gate fleet
fact gate groups = 3
fact gate rows = 12
fact gate crit = 3
fact gate gate_charts = 1
fact gate conc_charts = 1
fact gate m-halt -ge 5 # the legend's, one per wave and the gate chart's
fact gate v-fail -ge 2 # the legend's and the Failing evaluations
fact gate agg = 0
# The threshold is written on its line (a 0.01 limit on a 0..0.2 axis was a faint band).
fact gate thr_lbl = 1
case ",$(sed -n 's/^legend=//p' "$tmp/gate.facts")," in
*",soaking (wave),"*",gate Failing,"*",halt,"*) ok "gate: the legend lists soaks, gate verdicts and halts" ;;
*) bad "gate: the legend lists soaks, gate verdicts and halts" ;;
esac
size gate 400000
if grep -q 'wave &quot;canary&quot; failed its health gate' "$tmp/gate.html"; then
	ok "gate: the summary says why it halted, escaped"
else
	bad "gate: the summary says why it halted, escaped"
fi

# ---- a Magos Rollout that halts on a failed step ------------------------------
render magos scenarios/staging-failure-halts.yaml
common magos magos
fact magos groups = 3
fact magos rows = 3
fact magos gate_charts = 0
fact magos m-halt -ge 4
if grep -q 'Blast radius of Rollout default/shop: 2 of 3 Workspaces' "$tmp/magos.html"; then
	ok "magos: blast radius by name"
else
	bad "magos: blast radius by name"
fi

# ---- notices: the engine quirks a run hit, in plain words, each once -------------
render policy scenarios/fleet-standing-policy.yaml
common policy fleet
if grep -q '<li class="sev-info"><strong>note</strong> at 31m1s: the gate of wave &quot;canary&quot; was queried again although the wave had passed' "$tmp/policy.html"; then
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
common empty magos
fact empty groups = 0
fact empty svgs = 0
if grep -q 'No Workspaces or StageSets in this run' "$tmp/empty.html"; then ok "empty: says so"; else bad "empty: says so"; fi
size empty 20000

render one tests/html/one.yaml
common one magos
fact one groups = 1
fact one rows = 1
fact one m-halt = 0 # no halt, and the legend lists only what is drawn

render names tests/html/names.yaml
common names magos
fact names h1 = "a<b>&c \"quoted\" 'single' </script><!--"
fact names rows = 1
fact names row_label_max = 30     # the long name is cut in the label column ...
fact names longest_title -ge 245 # ... and given in full in its hover title
if grep -q "<b>" "$tmp/names.html"; then bad "names: no markup from the input"; else ok "names: no markup from the input"; fi

# ---- a large fleet: count bands ------------------------------------------------
sh scripts/gen-fleet.sh 1000 100 4 >"$tmp/fleet1k.yaml"
render fleet1k "$tmp/fleet1k.yaml"
common fleet1k fleet
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

"$SIM" run -q -n 4 --shard 1/2 --json "$tmp/p.json" --html "$tmp/x.html" tests/html/one.yaml >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q -- "--html draws the whole run, not a shard" "$tmp/err" && [ ! -e "$tmp/x.html" ]; then
	ok "--html with --shard: usage error"
else
	bad "--html with --shard: usage error (exit $rc)"
fi

# ==== Monte Carlo pages (reports/html_mc.c): run -n N, variants, sweeps, compare ====

# mc NAME: what every Monte Carlo page has.
mc() {
	fact "$1" unbalanced = 0
	fact "$1" external = 0
	fact "$1" scripts = 1
	fact "$1" js_error = 0
	fact "$1" has_mc-stats = 1
	fact "$1" has_cdf = 1
	fact "$1" has_halts = 1
	fact "$1" has_blast = 1
	fact "$1" svg_cdf = 1
	fact "$1" poly_max -le 500 # a CDF is sampled per pixel column, never per trial
	fact "$1" has_main = 1
}

# A halting fleet: halt bars with intervals, the blast histogram, box plots per wave.
render mcgate -n 40 scenarios/fleet-gate-halt.yaml
mc mcgate
fact mcgate cdf = 1
fact mcgate halt-row = 1
fact mcgate boxplot = 3
fact mcgate phase-row = 3
fact mcgate has_critical = 1
fact mcgate has_exposure = 1
fact mcgate cens-dot = 0
fact mcgate has_variants = 0
fact mcgate has_sweep = 0
size mcgate 120000
# Every trial takes 1h04m and halts with a blast radius of 1: the CDF's step
# is in the middle of its chart (from 0 it was at the right edge) and the
# histogram's one bar is one of several bins (it was one wide bar).
fact mcgate cdf_rise_pct -le 60
fact mcgate hbin_max_pct -le 25
if grep -q '>every trial: 1 targets</text>' "$tmp/mcgate.html"; then
	ok "mcgate: a histogram of one value says so"
else
	bad "mcgate: a histogram of one value says so"
fi
if grep -q '<text x="292" y="25" text-anchor="end">wave canary · Halted (gate)</text>' "$tmp/mcgate.html" &&
	grep -q 'wave canary · Halted (gate): 40 of 40 trials (100%; 95 % 91.2% – 100%)' "$tmp/mcgate.html"; then
	ok "mcgate: the halt bar is named and gives its Wilson interval"
else
	bad "mcgate: the halt bar is named and gives its Wilson interval"
fi
if grep -q '<td>time to complete</td><td>40</td><td>0</td><td>1h04m</td>' "$tmp/mcgate.html"; then
	ok "mcgate: the statistics table has the terminal's figures"
else
	bad "mcgate: the statistics table has the terminal's figures"
fi

# Variants: one curve each on one chart, the table with deltas.
render mcvar -n 30 scenarios/what-if-canary-soak.yaml
mc mcvar
fact mcvar has_variants = 1
fact mcvar cdf = 4
if grep -q '<tr><td>soak 15m instead of 30m<small>' "$tmp/mcvar.html" && grep -q '<small>Δ -' "$tmp/mcvar.html"; then
	ok "mcvar: variant rows with deltas"
else
	bad "mcvar: variant rows with deltas"
fi

# A capacity sweep: time to complete and queueing delay, a dot per value.
render mcsweep -n 10 --sweep capacity=1,2,4 scenarios/three-environments.yaml
mc mcsweep
fact mcsweep has_sweep = 1
fact mcsweep svg_sweep = 2
fact mcsweep sw-dot = 6
if grep -q 'No trial halted (0 of 10; the halt probability is at most 27.8% at 95 % confidence)' "$tmp/mcsweep.html"; then
	ok "mcsweep: zero halts said, with the interval's upper bound"
else
	bad "mcsweep: zero halts said, with the interval's upper bound"
fi
if grep -q 'No trial reached a target with a bad change before a halt' "$tmp/mcsweep.html"; then
	ok "mcsweep: no blast histogram without a halt"
else
	bad "mcsweep: no blast histogram without a halt"
fi

# One trial with a sweep; censored trials: some, all.
render mcone -n 1 --sweep capacity=1,2 scenarios/three-environments.yaml
mc mcone
fact mcone sw-dot = 4
render mccens -n 40 --horizon 25m scenarios/three-environments.yaml
mc mccens
fact mccens cens-dot = 1
# Trials from about 16m: the axis starts at the round tick below the fastest.
fact mccens cdf_rise_pct -le 30
if grep -q 'of 40 trials ([0-9.]*%) not completed by 25m00s' "$tmp/mccens.html" &&
	grep -q '<td class="cens">&gt; 25m00s</td>' "$tmp/mccens.html" &&
	grep -q '>[0-9.]*% censored</text>' "$tmp/mccens.html"; then
	ok "mccens: censored trials marked past the horizon and in the table"
else
	bad "mccens: censored trials marked past the horizon and in the table"
fi
render mcall -n 10 --horizon 5m scenarios/three-environments.yaml
mc mcall
fact mcall cens-dot = 1
if grep -q 'no trial completed by the horizon' "$tmp/mcall.html" && grep -q '10 of 10 trials (100%) not completed by 5m00s' "$tmp/mcall.html"; then
	ok "mcall: every trial censored, said"
else
	bad "mcall: every trial censored, said"
fi

# Markup in the scenario's and a variant's name and description.
render mcnames -n 5 tests/html/mc-names.yaml
mc mcnames
fact mcnames h1 = "a<b>&c \"quoted\" 'single' </script><!--"
fact mcnames has_variants = 1
if grep -q -e "<i>" -e "<b>" "$tmp/mcnames.html"; then bad "mcnames: no markup from the input"; else ok "mcnames: no markup from the input"; fi

# Two steps with one name: one phase each, both drawn.
render mcdup -n 5 tests/html/mc-duplicate-steps.yaml
fact mcdup unbalanced = 0
fact mcdup js_error = 0
"$SIM" run -q -n 5 --json "$tmp/dup.json" tests/html/mc-duplicate-steps.yaml >/dev/null 2>&1
pyfacts "$tmp/dup.json" "$tmp/mcdup.html" <<'PY'
import json, sys
from facts import check
j = json.load(open(sys.argv[1]))
names = [p['name'] for p in j['statistics']['phases']]
check("two steps named alike are two phases, told apart by position", names == ['step cohort (1)', 'step cohort (2)'], names)
page = open(sys.argv[2]).read()
check("the page draws a box row for each", page.count('step cohort (1)') >= 1 and page.count('step cohort (2)') >= 1)
PY

# Same input, same bytes, whatever -j.
"$SIM" run -q -n 30 -j 1 --html "$tmp/j1.html" scenarios/what-if-canary-soak.yaml >/dev/null 2>&1
"$SIM" run -q -n 30 -j 3 --html "$tmp/j3.html" scenarios/what-if-canary-soak.yaml >/dev/null 2>&1
if cmp -s "$tmp/j1.html" "$tmp/j3.html" && cmp -s "$tmp/j1.html" "$tmp/mcvar.html"; then
	ok "mc: same bytes with -j 1 and -j 3"
else
	bad "mc: same bytes with -j 1 and -j 3"
fi

if [ "${MAGOS_HTML_BIG:-0}" = 1 ]; then
	render mcbig -n 100000 tests/html/one.yaml
	mc mcbig
	size mcbig 60000
else
	echo "skip mcbig: 100 000 trials take half a minute; set MAGOS_HTML_BIG=1 (test_html_mc draws 100 000 synthetic rows)"
fi

# compare --html: the table with significance, both CDFs.
sed 's/gamma: {mean: 10m, sd: 3m}/gamma: {mean: 15m, sd: 3m}/' scenarios/three-environments.yaml >"$tmp/slow.yaml"
for j in 1 2; do
	if "$SIM" compare -q -n 30 -j $j --html "$tmp/cmp$j.html" scenarios/three-environments.yaml "$tmp/slow.yaml" >/dev/null 2>"$tmp/cmp.err"; then
		ok "compare --html -j $j: renders"
	else
		bad "compare --html -j $j: renders"
	fi
done
$CHECK "$tmp/cmp1.html" >"$tmp/cmp1.facts"
fact cmp1 unbalanced = 0
fact cmp1 external = 0
fact cmp1 js_error = 0
fact cmp1 has_compare = 1
fact cmp1 svg_cdf = 1
fact cmp1 cdf = 2
fact cmp1 worse -ge 4
fact cmp1 h1 = "three-environments → three-environments"
if cmp -s "$tmp/cmp1.html" "$tmp/cmp2.html"; then ok "compare --html: same bytes with -j 1 and -j 2"; else bad "compare --html: same bytes with -j 1 and -j 2"; fi
if grep -q '>base: three-environments</text>' "$tmp/cmp1.html" && grep -q '>head: three-environments</text>' "$tmp/cmp1.html"; then
	ok "compare --html: the legend says which side is which"
else
	bad "compare --html: the legend says which side is which"
fi
"$SIM" compare -q -n 4 --shard 1/2 --json "$tmp/cp.json" --html "$tmp/cx.html" scenarios/three-environments.yaml "$tmp/slow.yaml" >/dev/null 2>&1
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$tmp/cx.html" ]; then ok "compare --html with --shard: usage error"; else bad "compare --html with --shard: usage error (exit $rc)"; fi

finish
