# The helpers of the hazard scripts (tests/hazards*.sh), sourced after
# tests/lib.sh: each reads a fixture of tests/hazards/ twice, by `lint` and by
# `run`, and checks what one says against the other.
#
#   lint_of FIXTURE  findings as "RULE SEVERITY MESSAGE" lines in
#                    $tmp/FIXTURE.lint (the JSON in $tmp/FIXTURE.lintjson)
#   lint_clean FIXTURE [WHAT]
#                    lint_of FIXTURE, then one check "WHAT: lint finds
#                    nothing" (WHAT defaults to FIXTURE), showing the
#                    findings when there are some
#   run_of FIXTURE   the run's JSON in $tmp/FIXTURE.json; HAZARD_RUN_ARGS
#                    (e.g. "--until horizon") go before the file
#   run_at AT FIXTURE
#                    the run's view at AT (run --at AT) in $tmp/FIXTURE.at.out,
#                    one check "FIXTURE runs with --at AT" when it fails
#   snapshot_of FIXTURE AT NAME WHAT
#                    the run's snapshot at AT in $tmp/NAME.yaml, one check
#                    "WHAT: the snapshot at AT is written" when it fails
#   facts_of FIXTURE [ARG...]
#                    pyfacts (tests/lib.sh) on the python checks on stdin,
#                    after a prelude that imports json, re, sys and
#                    hazards_facts (*) and loads $tmp/FIXTURE.json (run_of)
#                    as d; ARG... are sys.argv[2:]
H=tests/hazards

lint_of() {
	"$SIM" lint --format json "$H/$1.yaml" >"$tmp/$1.lintjson" 2>"$tmp/$1.linterr"
	python3 -c 'import json,sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["rule"], f["severity"], f["message"])' "$tmp/$1.lintjson" >"$tmp/$1.lint"
}

lint_clean() {
	lint_of "$1"
	if [ ! -s "$tmp/$1.lint" ]; then ok "${2:-$1}: lint finds nothing"; else
		bad "${2:-$1}: lint finds nothing"
		show "$tmp/$1.lint"
	fi
}

run_of() {
	# shellcheck disable=SC2086 # HAZARD_RUN_ARGS is a list of options
	"$SIM" run -q ${HAZARD_RUN_ARGS:-} --json "$tmp/$1.json" "$H/$1.yaml" >"$tmp/$1.out" 2>"$tmp/$1.err" ||
		{ bad "$1 runs"; show "$tmp/$1.err"; }
}

run_at() {
	"$SIM" run --at "$1" "$H/$2.yaml" >"$tmp/$2.at.out" 2>"$tmp/$2.at.err" ||
		{ bad "$2 runs with --at $1"; show "$tmp/$2.at.err"; }
}

snapshot_of() {
	"$SIM" run -q --snapshot "$2" "$tmp/$3.yaml" "$H/$1.yaml" >/dev/null 2>&1 ||
		bad "$4: the snapshot at $2 is written"
}

facts_of() {
	lib_fx=$1
	shift
	{
		printf 'import json, re, sys\nfrom hazards_facts import *\nd = json.load(open(sys.argv[1]))\n'
		cat
	} >"$tmp/facts_of.py"
	pyfacts "$tmp/$lib_fx.json" "$@" <"$tmp/facts_of.py"
}
