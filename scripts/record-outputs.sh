#!/bin/bash
# Records every output of every example and test input, so that a change meant
# to keep behaviour (a refactor, a speed-up) can be shown to give the same
# bytes:
#
#   scripts/record-outputs.sh build/debug/magos-sim /tmp/before
#   ... change, rebuild ...
#   scripts/record-outputs.sh build/debug/magos-sim /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
#
# Per input (scenarios/**, tests/{scenarios,lint,html,badinput,variants,
# hazards,stageset-envtests}): run
# with --timeline all, run -q, run --json/--html/--trace/--mermaid, run -n 50
# -j 2 --json/--csv/--html, run -n 20 -j 1, lint (text and JSON), check with
# --junit/--summary, check --github; stdout, stderr and exit status of each.
# Then compare (JSON, HTML, Markdown), two shards and merge, check of
# scenarios/ci/, of tests/hazards/ and of tests/stageset-envtests/ (each as
# its test runs it), and a capacity sweep.  The output directory's own path
# is replaced by OUT in what the commands print.  Takes a quarter of an hour
# or more in the debug build (the hazard quirks run long), less in release.
set -u
[ $# -eq 2 ] || { echo "usage: $0 MAGOS_SIM OUTDIR" >&2; exit 2; }
BIN=$(realpath "$1")
mkdir -p "$2"
OUT=$(realpath "$2")
cd "$(dirname "$0")/.."

r() { # NAME COMMAND...
	local name=$1
	shift
	"$@" >"$d/$name.out" 2>"$d/$name.err"
	echo $? >"$d/$name.rc"
	sed -i "s#$OUT#OUT#g" "$d/$name.out" "$d/$name.err"
}

inputs=$( (find scenarios tests/scenarios tests/lint tests/html tests/badinput tests/variants \
	tests/hazards tests/stageset-envtests -name '*.yaml'; find scenarios -mindepth 1 -type d) |
	LC_ALL=C sort)
for f in $inputs; do
	d=$OUT/$(echo "$f" | tr '/' '_')
	mkdir -p "$d"
	r run "$BIN" run --timeline all --width 100 --no-color "$f"
	r runq "$BIN" run -q "$f"
	r json "$BIN" run --json "$d/run.json" --html "$d/run.html" --trace "$d/run.trace" \
		--mermaid "$d/run.mmd" -q "$f"
	r mc "$BIN" run -n 50 -j 2 --json "$d/mc.json" --csv "$d/mc.csv" --html "$d/mc.html" "$f"
	r mctext "$BIN" run -n 20 -j 1 "$f"
	r lint "$BIN" lint "$f"
	r lintj "$BIN" lint --format json "$f"
	r check "$BIN" check --junit "$d/junit.xml" --summary "$d/summary.md" "$f"
	r checkgh "$BIN" check --github "$f"
done

d=$OUT/_commands
mkdir -p "$d"
r cmp "$BIN" compare -n 40 -j 2 --json "$d/cmp.json" --html "$d/cmp.html" \
	scenarios/compare/base.yaml scenarios/compare/head.yaml
r cmpmd "$BIN" compare -n 40 --markdown "$d/cmp.md" scenarios/compare/base.yaml scenarios/compare/head.yaml
r s1 "$BIN" run -n 40 --shard 1/2 --json "$d/p1.json" scenarios/three-environments.yaml
r s2 "$BIN" run -n 40 --shard 2/2 --json "$d/p2.json" scenarios/three-environments.yaml
r merge "$BIN" merge --json "$d/merged.json" "$d/p1.json" "$d/p2.json"
r checkall "$BIN" check scenarios/ci/
r checkhazards "$BIN" check --no-color tests/hazards
r checkenvtests "$BIN" check --no-color tests/stageset-envtests
r sweep "$BIN" run -n 20 --sweep capacity=1,2,4 scenarios/payments-platform.yaml
