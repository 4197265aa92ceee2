#!/bin/sh
# `magos-sim check` end to end:
#   - scenarios/ci/ passes (exit 0), with a JUnit file a real XML parser
#     (python3 xml.etree) accepts and that holds no failure;
#   - scenarios/ci-failing/ fails (exit 1) with exactly
#     scenarios/ci-failing/expected-output.txt on stdout, a JUnit file whose
#     failures carry the measured value and the limit, GitHub annotations
#     whose line numbers point at the expectation (or lint finding) they name,
#     and a Markdown summary with the table and key figures;
#   - every tests/check-badinput/NN-name.yaml exits 3 with exactly
#     NN-name.err on stderr and "INVALID <file>" first on stdout (all of
#     stdout is NN-name.out where there is one), and
#     `run` (and `compare`) refuse it too with the same stderr, writing nothing;
#   - --summary FILE appends to FILE (what earlier steps wrote stays);
#   - usage and I/O errors: exit 2 and 4, no partial output file;
#   - --junit - and --summary - make stdout that document alone (the lines go
#     to stderr); two writers of stdout are a usage error;
#   - -n overrides expect.trials; -j does not change the output;
#   - a directory of plain manifests is one input, as `run DIR` loads it (a
#     Rollout in one file, its Workspaces in another); one of several
#     scenario files is each of them, and its leftover plain manifests one
#     more input;
#   - an object expectation whose `at` the run never reached fails as not
#     evaluated, saying when the run ended and why.
# UPDATE=1 rewrites expected-output.txt and the .err files (review them).
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim
require_python "to validate the JUnit XML"

# junit_check NAME FILE TESTS FAILURES: parses FILE and checks the counts and the shape.
junit_check() {
	if python3 - "$2" "$3" "$4" <<'EOF'
import sys
import xml.etree.ElementTree as ET
path, tests, failures = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
root = ET.parse(path).getroot()
assert root.tag == "testsuites", root.tag
cases = root.findall("./testsuite/testcase")
fails = [c for c in cases if c.find("failure") is not None]
suites = root.findall("./testsuite")
total = lambda k: sum(int(s.get(k)) for s in suites)
assert total("tests") == tests == len(cases), (total("tests"), len(cases))
assert total("failures") == failures == len(fails), (total("failures"), len(fails))
for c in cases:
    assert c.get("classname") and c.get("name"), c.attrib
for c in fails:
    f = c.find("failure")
    msg = f.get("message")
    assert msg and f.text and c.get("classname") in f.text, (msg, f.text)
    if f.get("type") == "expectation":
        assert "(measured " in msg and ", limit " in msg, msg
EOF
	then ok "$1"; else bad "$1: $2 is not the JUnit document expected"; fi
}

# ---------------------------------------------------------------- passing examples

"$SIM" check --no-color --junit "$tmp/ok.xml" --summary "$tmp/ok.md" scenarios/ci/ \
	>"$tmp/ok.out" 2>"$tmp/ok.err"
rc=$?
expect_status "scenarios/ci/ passes" 0 $rc
[ $rc -eq 0 ] || sed 's/^/    /' "$tmp/ok.out" "$tmp/ok.err"
if [ -s "$tmp/ok.err" ]; then bad "scenarios/ci/ wrote to stderr"; cat "$tmp/ok.err"; else ok; fi
n=$(grep -c '^PASS ' "$tmp/ok.out")
if [ "$n" -ge 20 ]; then ok; else bad "scenarios/ci/: only $n PASS lines"; fi
if grep -q '^FAIL' "$tmp/ok.out"; then bad "scenarios/ci/ has FAIL lines"; else ok; fi
junit_check "scenarios/ci/ JUnit" "$tmp/ok.xml" "$n" 0
contains "ci summary headline" "$tmp/ok.md" "## magos-sim check ✅"
contains "ci summary figures" "$tmp/ok.md" "| fleet-gate-holds-broad | 20 | 20 |"

# ---------------------------------------------------------------- the failing example

fdir=scenarios/ci-failing
ffile=$fdir/merged-staging-prod.yaml
"$SIM" check --no-color "$fdir/" >"$tmp/f.out" 2>"$tmp/f.err"
rc=$?
[ -n "${UPDATE:-}" ] && cp "$tmp/f.out" "$fdir/expected-output.txt"
expect_status "ci-failing fails" 1 $rc
if cmp -s "$tmp/f.out" "$fdir/expected-output.txt"; then ok; else
	bad "ci-failing output differs from $fdir/expected-output.txt"
	diff "$fdir/expected-output.txt" "$tmp/f.out" | head -n 20
fi
"$SIM" check --no-color --github --junit "$tmp/f.xml" --summary "$tmp/f.md" "$ffile" \
	>"$tmp/g.out" 2>/dev/null
expect_status "ci-failing with --github fails" 1 $?
junit_check "ci-failing JUnit" "$tmp/f.xml" 6 2
contains "JUnit failure holds value and limit" "$tmp/f.xml" \
	'message="blast radius (every trial) 3 exceeds the limit 2 (20 trials) (measured 3, limit &lt;= 2)"'
contains "JUnit classname is the file" "$tmp/f.xml" "classname=\"$ffile\" name=\"blastRadius $ffile:32:19\""

# Each annotation's line must hold what it names.
grep '^::' "$tmp/g.out" >"$tmp/ann"
if [ "$(wc -l <"$tmp/ann")" -eq 4 ]; then ok; else bad "want 4 annotations"; cat "$tmp/ann"; fi
contains "error annotation" "$tmp/ann" \
	"::error file=$ffile,line=32,col=19,title=blastRadius::blast radius (every trial) 3 exceeds the limit 2 (20 trials)"
while IFS= read -r a; do
	line=$(echo "$a" | sed -n 's/.*,line=\([0-9]*\),.*/\1/p')
	title=$(echo "$a" | sed -n 's/.*,title=\([^:]*\)::.*/\1/p')
	text=$(sed -n "${line}p" "$ffile")
	case "$title" in
	blastRadius) want="blastRadius:";;
	"error[0]") want="- at: 20m";;
	MS108 | MS115) want="reconcile-interval: \"12 hours\"";;
	*) want="?unknown title $title";;
	esac
	case "$text" in
	*"$want"*) ok;;
	*) bad "annotation $title points at line $line: '$text', want '$want'";;
	esac
done <"$tmp/ann"
contains "summary headline" "$tmp/f.md" "## magos-sim check ❌"
contains "summary counts, in the terminal's words" "$tmp/f.md" "6 checks in 1 scenario: **2 failed**, 2 warnings."
contains "summary row" "$tmp/f.md" "| ❌ | \`blastRadius\` | \`$ffile:32:19\` | blast radius (every trial) 3 exceeds the limit 2 (20 trials) |"
contains "summary figures" "$tmp/f.md" "| merged-staging-prod | 20 | 20 |"
if [ "$(wc -c <"$tmp/f.md")" -lt 1048576 ]; then ok; else bad "summary over 1 MiB"; fi
# --summary appends, as every step of a job adds to $GITHUB_STEP_SUMMARY:
# what an earlier step wrote stays, and a second check adds its own.
printf '## an earlier step\n\n' >"$tmp/steps.md"
"$SIM" check --no-color --summary "$tmp/steps.md" "$ffile" >/dev/null 2>&1
expect_status "summary appended to an existing file" 1 $?
"$SIM" check --no-color --summary "$tmp/steps.md" "$ffile" >/dev/null 2>&1
{ printf '## an earlier step\n\n'; cat "$tmp/f.md" "$tmp/f.md"; } >"$tmp/steps.want"
if cmp -s "$tmp/steps.md" "$tmp/steps.want"; then ok; else
	bad "--summary FILE: not the earlier text followed by each check's summary"
	diff "$tmp/steps.want" "$tmp/steps.md" | head -n 10
fi

# A document on stdout ('-') is stdout's only content; the lines go to stderr.
"$SIM" check --no-color --junit - "$ffile" >"$tmp/fj.out" 2>"$tmp/fj.err"
expect_status "ci-failing with --junit - fails" 1 $?
if cmp -s "$tmp/fj.out" "$tmp/f.xml"; then ok; else
	bad "--junit -: stdout is not the JUnit document"; diff "$tmp/f.xml" "$tmp/fj.out" | head -n 10
fi
"$SIM" check --no-color "$ffile" >"$tmp/fl.out" 2>/dev/null
if cmp -s "$tmp/fj.err" "$tmp/fl.out"; then ok; else
	bad "--junit -: stderr is not the check lines"; diff "$tmp/fl.out" "$tmp/fj.err" | head -n 10
fi
if command -v xmllint >/dev/null 2>&1; then
	if "$SIM" check --junit - "$ffile" 2>/dev/null | xmllint --noout -; then ok; else
		bad "check --junit - | xmllint: not well-formed XML"
	fi
else
	echo "skip check --junit - | xmllint (no xmllint)"
fi
"$SIM" check --no-color --summary - "$ffile" >"$tmp/fs.out" 2>"$tmp/fs.err"
expect_status "ci-failing with --summary - fails" 1 $?
if cmp -s "$tmp/fs.out" "$tmp/f.md"; then ok; else
	bad "--summary -: stdout is not the summary"; diff "$tmp/f.md" "$tmp/fs.out" | head -n 10
fi
if cmp -s "$tmp/fs.err" "$tmp/fl.out"; then ok; else bad "--summary -: stderr is not the check lines"; fi
for both in "--junit - --summary -" "--junit - --github" "--github --summary -"; do
	# shellcheck disable=SC2086
	"$SIM" check $both "$ffile" >"$tmp/b2.out" 2>"$tmp/b2.err"
	expect_status "check $both" 2 $?
	contains "check $both names the clash" "$tmp/b2.err" "both write to stdout"
	if [ -s "$tmp/b2.out" ]; then bad "check $both wrote to stdout"; else ok; fi
done

# ---------------------------------------------------------------- bad input

for input in tests/check-badinput/[0-9][0-9]-*.yaml; do
	want=${input%.yaml}.err
	"$SIM" check --no-color --junit "$tmp/bad.xml" "$input" >"$tmp/b.out" 2>"$tmp/b.err" </dev/null
	rc=$?
	[ -n "${UPDATE:-}" ] && cp "$tmp/b.err" "$want"
	expect_status "$input" 3 $rc
	if cmp -s "$tmp/b.err" "$want"; then ok; else
		bad "$input: stderr differs from $want"
		diff "$want" "$tmp/b.err" | head -n 10
	fi
	if [ "$(head -n 1 "$tmp/b.out")" = "INVALID $input" ]; then ok; else bad "$input: stdout"; cat "$tmp/b.out"; fi
	# NN-name.out, where there is one, is the whole of stdout (the findings' fixes).
	if [ -f "${input%.yaml}.out" ]; then
		[ -n "${UPDATE:-}" ] && cp "$tmp/b.out" "${input%.yaml}.out"
		if cmp -s "$tmp/b.out" "${input%.yaml}.out"; then ok; else
			bad "$input: stdout differs from ${input%.yaml}.out"
			diff "${input%.yaml}.out" "$tmp/b.out" | head -n 10
		fi
	fi
	# Invalid input still gives a JUnit file that lists the problems, as <error>s.
	python3 - "$tmp/bad.xml" <<'EOF2' && ok || bad "$input: JUnit"
import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
cases = r.findall("./testsuite/testcase")
errs = [c for c in cases if c.find("error") is not None]
skips = [c for c in cases if c.find("skipped") is not None]
s = r.find("./testsuite")
assert r.get("errors") is None, "Ant's schema allows no attribute on testsuites"
assert int(s.get("errors")) == len(errs) >= 1, (s.get("errors"), len(errs))
assert int(s.get("skipped")) == len(skips), (s.get("skipped"), len(skips))
assert all(e.find("error").get("type") == "invalid" for e in errs)
names = [c.get("classname") + "\0" + c.get("name") for c in cases]
assert len(set(names)) == len(names), names
EOF2
	# `run` refuses what `check` refuses in spec.expect, with the same lines.
	rm -f "$tmp/bad.json"
	"$SIM" run --no-color --json "$tmp/bad.json" "$input" >"$tmp/r.out" 2>"$tmp/r.err" </dev/null
	expect_status "run $input" 3 $?
	if cmp -s "$tmp/r.err" "$want"; then ok; else
		bad "run $input: stderr differs from $want"
		diff "$want" "$tmp/r.err" | head -n 10
	fi
	if [ -s "$tmp/r.out" ] || [ -e "$tmp/bad.json" ]; then bad "run $input: wrote output"; else ok; fi
done
# compare loads its scenarios as run does.
"$SIM" compare --no-color -n 2 tests/check-badinput/01-unknown-metric.yaml \
	tests/check-badinput/01-unknown-metric.yaml >"$tmp/r.out" 2>"$tmp/r.err" </dev/null
expect_status "compare with an unknown metric" 3 $?
if cmp -s "$tmp/r.err" tests/check-badinput/01-unknown-metric.err; then ok; else
	bad "compare with an unknown metric: stderr"
	diff tests/check-badinput/01-unknown-metric.err "$tmp/r.err" | head -n 10
fi

# An invalid input shows its findings and its expectations, not just INVALID.
cat >"$tmp/inv.yaml" <<'EOF2'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: inv}
spec:
  expect:
    completes: true
---
apiVersion: magosproject.io/v1alpha1
kind: Project
metadata: {name: shop, namespace: default}
spec: {description: test, colour: blue}
---
apiVersion: magosproject.io/v1alpha1
kind: Rollout
metadata: {name: shop, namespace: default}
spec:
  projectRef: shop
  strategy:
    steps:
      - name: dev
        selector: {matchLabels: {env: dev}}
EOF2
"$SIM" check --no-color --junit "$tmp/inv.xml" "$tmp/inv.yaml" >"$tmp/inv.out" 2>/dev/null
expect_status "invalid input" 3 $?
contains "invalid: first line" "$tmp/inv.out" "INVALID $tmp/inv.yaml"
contains "invalid: the loader's refusal" "$tmp/inv.out" "FAIL  $tmp/inv.yaml:11:27: MS001: Project \"default/shop\": unknown field \"spec.colour\""
contains "invalid: other findings" "$tmp/inv.out" "FAIL  $tmp/inv.yaml:21:19: MS101: "
contains "invalid: expectations not run" "$tmp/inv.out" "SKIP  $tmp/inv.yaml:6:5: completes: not evaluated: the input is invalid"
contains "invalid: totals" "$tmp/inv.out" "4 checks in 1 scenario (1 invalid, not run): 2 failed, 1 not run"
contains "invalid: JUnit error" "$tmp/inv.xml" "<error message="
contains "invalid: JUnit skipped" "$tmp/inv.xml" '<skipped message="not evaluated: the input is invalid"/>'
contains "invalid: JUnit counts" "$tmp/inv.xml" 'tests="4" failures="1" errors="1" skipped="1"'

# Exposure is a FleetRollout measure: on a Magos-only scenario it is an error, not a 0s pass.
sed 's/^    completes: true$/    completes: true\n    exposure: {max: 2h}/' scenarios/ci/magos-staged.yaml >"$tmp/expo.yaml"
"$SIM" check --no-color "$tmp/expo.yaml" >"$tmp/expo.out" 2>"$tmp/expo.err"
expect_status "exposure on a Magos scenario" 3 $?
contains "exposure: message" "$tmp/expo.err" "error: spec.expect.exposure: does not apply: exposure is measured for FleetRollouts and this scenario has none"

# Variants are linted (their findings named), their expectations not evaluated (docs/ci.md).
V=tests/lint/variant-gate.yaml
"$SIM" check --no-color "$V" >"$tmp/v.out" 2>"$tmp/v.err"
expect_status "a variant's error findings fail check" 1 $?
contains "variant: MS205" "$tmp/v.out" "FAIL  $V:28:38: MS205: variant \"gated\": FleetRollout shop wave \"canary\" gate threshold max \"1%\""
contains "variant: MS216" "$tmp/v.out" "FAIL  $V:27:45: MS216: variant \"gated\": "
contains "variant: MS201" "$tmp/v.out" "FAIL  $V:22:15: MS201: variant \"gated\": "
if grep -q "metrics\[0\]" "$tmp/v.out" "$tmp/v.err"; then bad "variant: series read by the variant reported unread"; else ok; fi
contains "variant: unread series stays" "$tmp/v.out" "WARN  $V:14:14: MS003: spec.metrics[1]: no FleetRollout gate reads this series"

# Every independent error in one pass, each told once and naming its variant once:
# spec.expect's are reported whatever the variants' errors.
V=tests/badinput/99-variants-every-error.yaml
"$SIM" check --no-color "$V" >"$tmp/v.out" 2>"$tmp/v.err"
expect_status "invalid variants make the input invalid" 3 $?
n=$(grep -c "^FAIL  $V:1[1-5]:[0-9]*: expect: .*spec\.expect\." "$tmp/v.out")
if [ "$n" = 6 ]; then ok "variants' errors: spec.expect's reported too"; else bad "variants' errors: spec.expect's reported too ($n of 6 lines)"; fi
contains "variants' errors: the unknown percentile" "$tmp/v.out" "FAIL  $V:13:22: expect: unknown field \"spec.expect.timeToComplete.p97\""
contains "variants' errors: the bad key" "$tmp/v.out" "FAIL  $V:18:7: MS002: unknown field \"spec.variants[0].modelz\""
contains "variants' errors: the taken name" "$tmp/v.out" "FAIL  $V:19:13: MS002: spec.variants[1].name: Duplicate value: \"v1\""
contains "variants' errors: a taken name's target still checked" "$tmp/v.out" "FAIL  $V:21:19: MS002: spec.variants[1].patches[0].target: variant 'v1': no Workspace \"default/shop-qa\" in the inputs"
contains "variants' errors: a refused patch" "$tmp/v.out" "FAIL  $V:25:19: MS002: spec.variants[2].patches[0]: variant 'v3': the patched Workspace \"default/shop-prod\" is invalid"
n=$(grep -c "no Workspace \"default/shop-qa\"" "$tmp/v.out")
if [ "$n" = 1 ]; then ok "variants' errors: each once"; else bad "variants' errors: each once ($n lines)"; fi
lacks "variants' errors: the variant named once" "$tmp/v.out" "variant \"v"
V=tests/badinput/99-variant-bad-duration.yaml
"$SIM" check --no-color "$V" >"$tmp/v.out" 2>"$tmp/v.err"
expect_status "a variant's bad duration makes the input invalid" 3 $?
n=$(grep -c "podStartup" "$tmp/v.out")
if [ "$n" = 1 ]; then ok "a variant's bad duration: one line"; else bad "a variant's bad duration: one line ($n)"; fi
n=$(grep -c "error: .*podStartup" "$tmp/v.err")
if [ "$n" = 1 ]; then ok "a variant's bad duration: told once on stderr"; else bad "a variant's bad duration: told once on stderr ($n)"; fi

# --github: file= relative to $GITHUB_WORKSPACE, or to the current directory.
abs=$(pwd)/$ffile
"$SIM" check --no-color --github "$abs" 2>/dev/null | grep '^::' >"$tmp/ga1"
contains "github: absolute input relative to the cwd" "$tmp/ga1" "::error file=$ffile,line=32,"
top=$(pwd)
case "$SIM" in /*) sim=$SIM;; *) sim=$top/$SIM;; esac
(cd scenarios && GITHUB_WORKSPACE=$top "$sim" check --no-color --github "ci-failing/${ffile##*/}" 2>/dev/null) |
	grep '^::' >"$tmp/ga2"
contains "github: relative to GITHUB_WORKSPACE" "$tmp/ga2" "::error file=$ffile,line=32,"

# ---------------------------------------------------------------- options

"$SIM" check -n 0 scenarios/ci/ >/dev/null 2>"$tmp/u.err"
expect_status "-n 0 is a usage error" 2 $?
contains "-n 0 message" "$tmp/u.err" "magos-sim check: invalid trial count '0': expected a whole number from 1 to 100000"
"$SIM" check >/dev/null 2>&1
expect_status "no input is a usage error" 2 $?
"$SIM" check --json x scenarios/ci/ >/dev/null 2>&1
expect_status "an option of another command is a usage error" 2 $?

mkdir "$tmp/dir.xml"
"$SIM" check --junit "$tmp/dir.xml" scenarios/ci/magos-staged.yaml >/dev/null 2>"$tmp/io.err"
expect_status "JUnit onto a directory is an I/O error" 4 $?
contains "I/O message" "$tmp/io.err" "magos-sim check: cannot write JUnit report '$tmp/dir.xml'"
"$SIM" check --summary "$tmp/nodir/s.md" scenarios/ci/magos-staged.yaml >/dev/null 2>&1
expect_status "summary into a missing directory is an I/O error" 4 $?
if [ -e "$tmp/nodir/s.md" ] || ls "$tmp" | grep -q '^\.'; then bad "partial output left"; else ok; fi

"$SIM" check --no-color -n 3 scenarios/ci/magos-staged.yaml >"$tmp/n3.out" 2>&1
expect_status "-n 3" 0 $?
contains "-n overrides expect.trials" "$tmp/n3.out" "completes: 3 of 3 trials completed, as expected"
"$SIM" check --no-color -j 1 scenarios/ci/ >"$tmp/j1.out" 2>&1
"$SIM" check --no-color -j 3 scenarios/ci/ >"$tmp/j3.out" 2>&1
if cmp -s "$tmp/j1.out" "$tmp/j3.out" && cmp -s "$tmp/j1.out" "$tmp/ok.out"; then ok; else
	bad "output depends on -j"; diff "$tmp/j1.out" "$tmp/j3.out" | head
fi

# ---------------------------------------------------------------- directories

"$SIM" check --no-color scenarios/checkout/ >"$tmp/d.out" 2>"$tmp/d.err"
expect_status "a directory of plain manifests passes" 0 $?
contains "plain manifests are one input" "$tmp/d.out" \
	"PASS  scenarios/checkout/: no findings and no expectations (trial 0 completed in "
contains "plain manifests: one scenario" "$tmp/d.out" "1 check in 1 scenario: 0 failed"
"$SIM" run --no-color -q scenarios/checkout/ >"$tmp/r.out" 2>&1
expect_status "run loads the same directory" 0 $?
mkdir "$tmp/mixed"
cp scenarios/checkout/*.yaml scenarios/ci/magos-staged.yaml scenarios/ci/magos-halt-before-prod.yaml \
	"$tmp/mixed/"
"$SIM" check --no-color "$tmp/mixed" >"$tmp/m.out" 2>"$tmp/m.err"
expect_status "scenarios and plain manifests in one directory pass" 0 $?
contains "each scenario file on its own" "$tmp/m.out" "PASS  $tmp/mixed/magos-staged.yaml:22:5: completes:"
contains "the other scenario file" "$tmp/m.out" "PASS  $tmp/mixed/magos-halt-before-prod.yaml:28:5: completes:"
contains "leftover plain manifests together" "$tmp/m.out" \
	"PASS  $tmp/mixed: no findings and no expectations (trial 0 completed in "
contains "three inputs" "$tmp/m.out" " in 3 scenarios: 0 failed"

# ---------------------------------------------------------------- an `at` after the run

# magos-staged completes at 15m54.427s (seed 11); its horizon is 6h.
python3 - "$tmp/late.yaml" <<'EOF'
import sys
s = open("scenarios/ci/magos-staged.yaml").read()
s = s.replace("    trials: 20\n", "    trials: 1\n").replace("    assert:\n", """    assert:
      - at: 2h
        object: {kind: Rollout, metadata: {name: shop}, status: {phase: Applied}}
      - at: 7h
        object: {kind: Rollout, metadata: {name: shop}}
""", 1)
open(sys.argv[1], "w").write(s)
EOF
"$SIM" check --no-color "$tmp/late.yaml" >"$tmp/late.out" 2>&1
expect_status "an expectation after the run's end fails" 1 $?
contains "after completion: not evaluated, when and why" "$tmp/late.out" \
	"FAIL  $tmp/late.yaml:30:9: assert[0]: Rollout \"shop\": not evaluated: the run ended at 15m54.427s (the change completed, and \`check\` ends a run there), before the expectation's time 2h0m0s: give an earlier \`at\`, leave \`at\` out for the final state, or run \`check --until horizon\`"
contains "after the horizon: not evaluated" "$tmp/late.out" \
	"FAIL  $tmp/late.yaml:32:9: assert[1]: Rollout \"shop\": not evaluated: the run ended at 15m54.427s (the change completed, and \`check\` ends a run there), before the expectation's time 7h0m0s, which is after the horizon 6h0m0s: give an \`at\` within it, or a later spec.horizon"
contains "the others still hold (two warnings: percentiles over 1 trial)" "$tmp/late.out" "14 checks in 1 scenario: 2 failed"
"$SIM" check --no-color --until horizon "$tmp/late.yaml" >"$tmp/late-h.out" 2>&1
contains "--until horizon reaches 2h" "$tmp/late-h.out" \
	"PASS  $tmp/late.yaml:30:9: assert[0]: Rollout \"shop\" matches at 2h0m0s"
contains "the horizon never reaches 7h" "$tmp/late-h.out" \
	"assert[1]: Rollout \"shop\": not evaluated: the run ended at 6h0m0s (the horizon), before the expectation's time 7h0m0s"

# A horizon before a timeToComplete max leaves the time unknown, not over the limit:
# three-environments completes at 30m5.716s (limit <= 30m6s); a 15m horizon cuts it.
"$SIM" check --no-color --horizon 15m scenarios/three-environments.yaml >"$tmp/cut.out" 2>&1
expect_status "a time cut by the horizon fails the check" 1 $?
contains "a censored time is not known to exceed a limit past the horizon" "$tmp/cut.out" \
	"FAIL  scenarios/three-environments.yaml:43:22: timeToComplete: time to complete not known: not done by the horizon 15m0s, which ends before the limit <= 30m6s; give a horizon of at least 30m6s to tell"

echo "check: $pass passed, $fail failed"
finish
