#!/bin/sh
# Browser test of the HTML report: renders example reports in headless
# Chromium, keeps a screenshot of each under $MAGOS_BUILD/screenshots/ (test
# artefacts: look at them), and checks the DOM Chromium dumps after running
# the page's script: the expected charts are there, the script ran (data-js
# "ok" on <html>) and set no data-js-error.  The Monte Carlo and compare
# pages (reports/html_mc.c) are rendered the same way (mcshot).  Then, with
# the npm packages of tests/consumers, the pages through axe-core at 390 and
# 1400 px and the Mermaid blocks through the mermaid package (consumers()).
#
# Without `chromium` on PATH it prints a skip line and passes, unless
# MAGOS_REQUIRE_BROWSER=1 (CI), where a missing browser fails.  The flags are
# the ones an offline machine needs: without the networking ones Chromium
# stalls.  MAGOS_BROWSER_ALL=1 renders every scenarios/*.yaml as well.
. "$(dirname "$0")/lib.sh"
SHOTS=$BUILD/screenshots
CHECK="python3 tests/html/check_html.py"

if ! command -v chromium >/dev/null 2>&1; then
	if [ "${MAGOS_REQUIRE_BROWSER:-0}" = 1 ]; then
		bad "chromium not installed (MAGOS_REQUIRE_BROWSER=1); install it with MAGOS_BROWSER=1 scripts/install-deps.sh"
	else
		echo "skip browser test: chromium not installed (MAGOS_BROWSER=1 scripts/install-deps.sh installs it)"
	fi
	finish
fi
mkdir -p "$SHOTS"

# chrome OUT_DOM ARGS...: one headless Chromium with a fresh empty profile; stdout to OUT_DOM.
chrome() {
	out=$1
	shift
	profile=$(mktemp -d)
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" "$@" >"$out" 2>>"$tmp/chromium.log"
	rc=$?
	rm -rf "$profile"
	return $rc
}

# render NAME SIZE COMMAND ARGS...: writes the page of `magos-sim COMMAND -q --html
# ... ARGS`, screenshots it at SIZE (WIDTH,HEIGHT) into $SHOTS/NAME.png, dumps its
# DOM, its facts into $tmp/NAME.facts, and checks that its script ran; false when
# there is no page or no DOM to check further.
render() {
	name=$1 size=$2 cmd=$3
	shift 3
	if ! "$SIM" "$cmd" -q --html "$tmp/$name.html" "$@" >/dev/null 2>"$tmp/$name.err"; then
		bad "$name: magos-sim $cmd --html"
		return 1
	fi
	rm -f "$SHOTS/$name.png"
	# One browser does both; an older Chromium that takes one action per run gets a second.
	chrome "$tmp/$name.dom" --screenshot="$SHOTS/$name.png" --window-size="$size" \
		--dump-dom "file://$tmp/$name.html"
	[ -s "$SHOTS/$name.png" ] ||
		chrome "$tmp/$name.png.out" --screenshot="$SHOTS/$name.png" --window-size="$size" \
			"file://$tmp/$name.html"
	[ -s "$tmp/$name.dom" ] || chrome "$tmp/$name.dom" --dump-dom "file://$tmp/$name.html"
	if [ -s "$SHOTS/$name.png" ]; then ok "$name: screenshot $SHOTS/$name.png"; else bad "$name: screenshot"; fi
	if [ -s "$tmp/$name.dom" ]; then
		ok "$name: dump-dom"
	else
		bad "$name: dump-dom"
		return 1
	fi
	$CHECK "$tmp/$name.dom" >"$tmp/$name.facts"
	fact "$name" js_ok = 1
	fact "$name" js_error = 0
}

# shot NAME INPUT...: renders the report of INPUT, screenshots it and checks its DOM.
shot() {
	name=$1
	shift
	render "$name" 1400,1000 run "$@" || return 1
	for s in summary gantt concurrency events; do
		fact "$name" "has_$s" = 1
	done
}

shot fleet-gate-halt scenarios/fleet-gate-halt.yaml && fact fleet-gate-halt has_gates = 1 &&
	fact fleet-gate-halt groups = 3 && fact fleet-gate-halt rows = 12 &&
	fact fleet-gate-halt gate_charts = 1 && fact fleet-gate-halt conc_charts = 1
shot fleet-rollback-pinned scenarios/fleet-rollback-pinned.yaml &&
	fact fleet-rollback-pinned groups = 3 && fact fleet-rollback-pinned m-rollback -ge 2
shot staging-failure-halts scenarios/staging-failure-halts.yaml &&
	fact staging-failure-halts rows = 3 && fact staging-failure-halts m-halt -ge 4
shot three-environments scenarios/three-environments.yaml && fact three-environments groups -ge 3 &&
	fact three-environments has_gates = 0
shot default-parallel scenarios/default-parallel.yaml && fact default-parallel rows = 5
shot empty tests/html/empty.yaml && fact empty svgs = 0
shot names tests/html/names.yaml && fact names rows = 1
sh scripts/gen-fleet.sh 1000 100 4 >"$tmp/fleet1k.yaml"
shot fleet1k "$tmp/fleet1k.yaml" && fact fleet1k agg = 4 && fact fleet1k gate_charts = 1

# mcshot NAME SECTIONS COMMAND ARGS...: a Monte Carlo or compare page (`magos-sim COMMAND
# --html ... ARGS`), screenshotted taller (the charts run down the page); SECTIONS are
# the ids the dumped DOM must have.
mcshot() {
	name=$1
	secs=$2
	shift 2
	render "$name" 1200,2600 "$@" || return 1
	fact "$name" svg_cdf = 1
	for s in $secs; do
		fact "$name" "has_$s" = 1
	done
}

mcshot mc-fleet-gate-halt "mc-stats cdf halts blast phases critical exposure" run -n 40 \
	scenarios/fleet-gate-halt.yaml && fact mc-fleet-gate-halt halt-row = 1
mcshot mc-variants "mc-stats cdf variants halts blast phases" run -n 40 \
	scenarios/what-if-canary-soak.yaml && fact mc-variants cdf = 4
mcshot mc-sweep "mc-stats cdf sweep" run -n 20 --horizon 35m --sweep capacity=1,2,3 \
	scenarios/multi-region-prod.yaml && fact mc-sweep svg_sweep = 2 && fact mc-sweep cens-dot = 1
mcshot mc-censored "mc-stats cdf halts" run -n 10 --horizon 5m scenarios/three-environments.yaml &&
	fact mc-censored cens-dot = 1
mcshot mc-names "mc-stats cdf variants" run -n 5 tests/html/mc-names.yaml
sed 's/gamma: {mean: 10m, sd: 3m}/gamma: {mean: 15m, sd: 3m}/' scenarios/three-environments.yaml >"$tmp/slow.yaml"
mcshot mc-compare "compare cdf" compare -n 40 scenarios/three-environments.yaml "$tmp/slow.yaml" &&
	fact mc-compare cdf = 2

# ---- as their readers' tools see them (tests/consumers/browser.js) ------------
# The pages at a phone's 390 px and a desktop's 1400 px: screenshots
# $SHOTS/NAME-390.png and NAME-1400.png, axe-core with no serious or
# critical violation, a <main>, no page wider than the window, every table
# that does not fit in a scroll container, chart text at least 8 px.  The
# Mermaid blocks rendered by the mermaid package as GitHub renders them:
# they parse, no section label runs into a bar or a task's label, every
# axis label carries its units.
consumers() {
	: >"$tmp/jobs"
	for n in fleet-gate-halt three-environments staging-failure-halts names fleet1k \
		mc-fleet-gate-halt mc-sweep mc-compare; do
		for w in 390 1400; do
			echo "page $tmp/$n.html $w $SHOTS/$n-$w.png" >>"$tmp/jobs"
		done
	done
	for n in three-environments fleet-gate-halt staging-failure-halts; do
		"$SIM" run -q --mermaid "$tmp/$n.md" "scenarios/$n.yaml" >/dev/null 2>&1
	done
	"$SIM" run -q --mermaid "$tmp/names.md" tests/html/names.yaml >/dev/null 2>&1
	"$SIM" run -q --mermaid "$tmp/fleet1k.md" "$tmp/fleet1k.yaml" >/dev/null 2>&1
	"$SIM" run -q --horizon 30h --until horizon --mermaid "$tmp/long.md" scenarios/three-environments.yaml >/dev/null 2>&1
	for n in three-environments fleet-gate-halt staging-failure-halts names fleet1k long; do
		echo "mermaid $tmp/$n.md $SHOTS/mermaid-$n.png" >>"$tmp/jobs"
	done
	if ! node "$CONSUMERS/browser.js" --jobs "$tmp/jobs" >"$tmp/facts.jsonl" 2>"$tmp/browser.err"; then
		bad "the browser checks ran (tests/consumers/browser.js)"
		show "$tmp/browser.err" 10
		return
	fi
	pyfacts "$tmp/jobs" "$tmp/facts.jsonl" <<'PY'
import json, re, sys
jobs = [l.split() for l in open(sys.argv[1]) if l.strip()]
facts = [json.loads(l) for l in open(sys.argv[2])]
def say(good, what, why=""):
    print(("ok   " if good else "FAIL ") + what + ("" if good else "  " + why))
say(len(facts) == len(jobs), "one result per browser job (%d)" % len(jobs))
units = re.compile(r"^(\d+m \d\ds|\d+h \d\dm|day \d+, \d\dh)$")
for j, f in zip(jobs, facts):
    name = j[1].rsplit("/", 1)[-1]
    if j[0] == "page":
        w = j[2]
        say(not f["violations"], "%s at %s px: axe-core finds no serious or critical violation" % (name, w),
            json.dumps(f["violations"])[:400])
        say(f["has_main"], "%s at %s px: a main landmark" % (name, w))
        say(f["page_overflow"] == 0, "%s at %s px: the page is no wider than the window" % (name, w),
            "%s px wider" % f["page_overflow"])
        say(f["unscrolled_tables"] == 0, "%s at %s px: every table that does not fit scrolls" % (name, w),
            "%s tables" % f["unscrolled_tables"])
        say(f["min_text_px"] is None or f["min_text_px"] >= 8, "%s at %s px: chart text at least 8 px" % (name, w),
            "smallest %s px" % f["min_text_px"])
        say(f["js"] == "ok", "%s at %s px: the page's script ran" % (name, w))
    else:
        say(f.get("ok"), "%s: mermaid renders the block" % name, f.get("error", ""))
        if not f.get("ok"):
            continue
        say(not f["overlaps"], "%s: no section label meets a bar or a task label" % name, "; ".join(f["overlaps"][:3]))
        say(len(f["ticks"]) >= 2 and all(units.match(t) for t in f["ticks"]),
            "%s: every axis label has its units" % name, " ".join(f["ticks"][:6]))
PY
}
if ! command -v node >/dev/null 2>&1 || [ ! -d "$CONSUMERS/node_modules/puppeteer-core" ] ||
	[ ! -d "$CONSUMERS/node_modules/axe-core" ] || [ ! -d "$CONSUMERS/node_modules/mermaid" ]; then
	if [ "${MAGOS_REQUIRE_BROWSER:-0}" = 1 ]; then
		bad "puppeteer-core, axe-core and mermaid not installed (MAGOS_BROWSER=1 scripts/install-deps.sh)"
	else
		echo "skip axe-core and Mermaid: npm packages not installed (MAGOS_BROWSER=1 scripts/install-deps.sh)"
	fi
else
	consumers
fi

if [ "${MAGOS_BROWSER_ALL:-0}" = 1 ]; then
	for f in scenarios/*.yaml; do
		n=$(basename "$f" .yaml)
		shot "all-$n" "$f"
	done
fi

finish
