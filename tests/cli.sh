#!/bin/sh
# End-to-end checks of the magos-sim command line: exit codes, determinism of
# the JSON output, atomic output files, write errors on stdout (the upstream
# sample manifests: tests/conformance/upstream.sh).
. "$(dirname "$0")/lib.sh"

expect_rc "version exits 0" 0 "$SIM" version
# The version names the commit built; a tree without .git (a release
# tarball) builds too, with the commit "unknown".
if grep -qE '^magos-sim [0-9][^ ]* \(commit ([0-9a-f]{40}(-dirty)?|unknown)\)$' "$tmp/out"; then
	ok "version names the version and the commit"
else
	bad "version names the version and the commit"
	show "$tmp/out"
fi
mkdir "$tmp/tarball"
tar -cf - --exclude=./build --exclude=./tests/consumers/node_modules --exclude=./.git . |
	tar -xf - -C "$tmp/tarball"
if make -n -C "$tmp/tarball" 2>/dev/null | grep -q "MAGOS_COMMIT='\"unknown\"'"; then
	ok "a tree without .git builds with the commit unknown"
else
	bad "a tree without .git builds with the commit unknown"
fi
# Every command's --help, version and help included.
expect_rc "version --help exits 0" 0 "$SIM" version --help
contains "version --help prints its help" "$tmp/out" "usage: magos-sim version"
expect_rc "version with an argument is a usage error" 2 "$SIM" version extra
expect_rc "help --help exits 0" 0 "$SIM" help --help
contains "help --help prints the help of help" "$tmp/out" "usage: magos-sim help [COMMAND]"
# A folder of separate scenarios given to run: told to run them one at a time or check them.
expect_rc "run of a folder of scenarios is invalid input" 3 "$SIM" run scenarios/ci/
contains "... and says how to run a folder of scenarios" "$tmp/err" "run one file at a time, or checked together with \`magos-sim check FOLDER\`"
expect_rc "a horizon beyond Go's range is a usage error" 2 "$SIM" run --horizon 99999999999h scenarios/checkout/
contains "... that names the maximum" "$tmp/err" "invalid horizon '99999999999h': out of range, the maximum is 2562047h47m16.854775807s"
# An output that is also an input is refused before anything is read or written.
mkdir -p "$tmp/inout"
cp scenarios/checkout/*.yaml "$tmp/inout/"
cp "$tmp/inout/project.yaml" "$tmp/inout.keep"
expect_rc "--json naming an input file is a usage error" 2 "$SIM" run -q --json "$tmp/inout/project.yaml" "$tmp/inout/"*.yaml
contains "... that says the output is an input" "$tmp/err" "is also an input"
expect_rc "--json naming a file of an input folder is a usage error" 2 "$SIM" run -q --json "$tmp/inout/project.yaml" "$tmp/inout"
expect_rc "check --junit naming an input is a usage error" 2 "$SIM" check --junit "$tmp/inout/project.yaml" "$tmp/inout"
if cmp -s "$tmp/inout/project.yaml" "$tmp/inout.keep"; then ok "... and the input is intact"; else bad "... and the input is intact"; fi
# The files a Scenario includes are inputs too, known after the load: refused
# before anything is written (run, check and compare).
mkdir -p "$tmp/incl/m"
printf 'apiVersion: magos-sim/v1alpha1\nkind: Scenario\nmetadata: {name: incl}\nspec:\n  include: [m/ns.yaml]\n' >"$tmp/incl/s.yaml"
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n' >"$tmp/incl/m/ns.yaml"
cp "$tmp/incl/m/ns.yaml" "$tmp/incl.keep"
expect_rc "--json naming an included file is a usage error" 2 "$SIM" run -q --json "$tmp/incl/m/ns.yaml" "$tmp/incl/s.yaml"
contains "... that names the file the load read" "$tmp/err" "magos-sim run: '$tmp/incl/m/ns.yaml' is also an input ($tmp/incl/m/ns.yaml, read by the load)"
expect_rc "check --summary naming an included file is a usage error" 2 "$SIM" check --summary "$tmp/incl/m/ns.yaml" "$tmp/incl/s.yaml"
contains "... naming the output" "$tmp/err" "magos-sim check: summary '$tmp/incl/m/ns.yaml' is also an input"
expect_rc "compare --json naming an included file is a usage error" 2 "$SIM" compare --json "$tmp/incl/m/ns.yaml" "$tmp/incl/s.yaml" "$tmp/incl/s.yaml"
if cmp -s "$tmp/incl/m/ns.yaml" "$tmp/incl.keep"; then ok "... and the included file is intact"; else bad "... and the included file is intact"; fi
expect_rc "no command is a usage error" 2 "$SIM"
expect_rc "unknown command is a usage error" 2 "$SIM" frobnicate
# "did you mean": the closest command or option, and nothing when none is close.
expect_rc "a misspelt command is a usage error" 2 "$SIM" runn x.yaml
has_line "a misspelt command: did you mean" "$tmp/err" "magos-sim: unknown command 'runn': did you mean 'run'?"
expect_rc "help of a misspelt command is a usage error" 2 "$SIM" help comapre
contains "help of a misspelt command: did you mean" "$tmp/err" "unknown command 'comapre': did you mean 'compare'?"
expect_rc "a far-off command" 2 "$SIM" frobnicate
lacks "a far-off command: no suggestion" "$tmp/err" "did you mean"
expect_rc "a misspelt option is a usage error" 2 "$SIM" run --jsn out.json scenarios/payments-platform.yaml
has_line "a misspelt option: did you mean" "$tmp/err" "magos-sim run: unknown option '--jsn': did you mean '--json'?"
expect_rc "a misspelt option with its value" 2 "$SIM" check --juint=j.xml scenarios/ci/
has_line "a misspelt option with its value: did you mean" "$tmp/err" "magos-sim check: unknown option '--juint=j.xml': did you mean '--junit'?"
expect_rc "a misspelt option of compare" 2 "$SIM" compare --max-regresion p95=1% a b
contains "a misspelt option of compare: did you mean" "$tmp/err" "did you mean '--max-regression'?"
expect_rc "run --help exits 0" 0 "$SIM" run --help
expect_rc "help run exits 0" 0 "$SIM" help run
expect_rc "unknown option is a usage error" 2 "$SIM" run --frob scenarios/payments-platform.yaml
expect_rc "seed with a sign is a usage error" 2 "$SIM" run --seed -1 scenarios/payments-platform.yaml
expect_rc "seed with a suffix is a usage error" 2 "$SIM" run --seed 12x scenarios/payments-platform.yaml
expect_rc "seed past 2^64-1 is a usage error" 2 "$SIM" run --seed 18446744073709551616 scenarios/payments-platform.yaml
expect_rc "horizon 0s is a usage error" 2 "$SIM" run --horizon 0s scenarios/payments-platform.yaml
expect_rc "horizon in days is a usage error" 2 "$SIM" run --horizon 1d scenarios/payments-platform.yaml
expect_rc "missing input file is invalid input" 3 "$SIM" run "$tmp/does-not-exist.yaml"
expect_rc "run without inputs is a usage error" 2 "$SIM" run
expect_rc "run - - is invalid input (standard input is read once)" 3 "$SIM" run - - <scenarios/three-environments.yaml
has_line "... says '-' is given twice, and nothing else" "$tmp/err" "-: error: standard input is given twice: it can be read once (give '-' once)"
check "... one line" test "$(wc -l <"$tmp/err")" -eq 1
# A scenario on standard input: its includes are relative to the working
# directory, and a failed one is the only error (not one "not found" per event).
expect_rc "an include of a scenario on stdin that matches nothing" 3 "$SIM" run - <scenarios/payments-platform.yaml
printf '%s\n' '-:29:7: error: spec.include[0]: pattern "payments-platform/*.yaml" matches no file' \
	'-:29:7: note: include paths of a scenario read from a stream (standard input, a pipe) are relative to the working directory' \
	'-:29:7: note: spec.events and spec.models were not checked: they name objects the include would define' >"$tmp/want"
check "... says where includes are resolved, and no event's 'not found'" cmp -s "$tmp/want" "$tmp/err"
case $SIM in /*) sim_abs=$SIM;; *) sim_abs=$(pwd)/$SIM;; esac
expect_rc "... which resolves from the working directory" 0 sh -c "cd scenarios && '$sim_abs' run -q - <payments-platform.yaml"
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n' >"$tmp/ns.yaml"
expect_rc "a scenario on stdin without metadata.name" 0 "$SIM" run --json - - <"$tmp/ns.yaml"
contains "... is named stdin" "$tmp/out" '"scenario": {"name":"stdin",'

# Same scenario, same seed: byte-identical JSON.
"$SIM" run --json "$tmp/a.json" -q scenarios/payments-platform.yaml >/dev/null 2>&1
"$SIM" run --json "$tmp/b.json" -q scenarios/payments-platform.yaml >/dev/null 2>&1
if [ -s "$tmp/a.json" ] && cmp -s "$tmp/a.json" "$tmp/b.json"; then ok "same seed gives identical JSON bytes"; else bad "same seed gives identical JSON bytes"; fi
"$SIM" run --json - scenarios/payments-platform.yaml >"$tmp/c.json" 2>/dev/null
if cmp -s "$tmp/a.json" "$tmp/c.json"; then ok "--json - writes the same document to stdout"; else bad "--json - writes the same document to stdout"; fi

# The documented JSON shape.
if command -v python3 >/dev/null 2>&1; then
	if python3 - "$tmp/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "magos-sim/run/v1"
sc = d["scenario"]
assert sc["name"] == "payments-platform" and sc["seed"] == 42 and sc["horizon_ms"] == 6 * 3600 * 1000
keys = ["t_ms", "kind", "namespace", "name", "phase", "reason", "message"]
assert d["timeline"] and all(all(k in e for k in keys) for e in d["timeline"])
legacy = [e for e in d["timeline"] if e["name"] == "payments-legacy"]
assert legacy[0]["phase"] == "Applied" and legacy[-1]["change"] == "deleted"
proj = [e for e in d["timeline"] if e["kind"] == "Project"][0]
assert proj["phase"] is None
s = d["summary"]
assert s["completed"] is True and s["censored"] is False
assert s["time_to_complete_ms"] == 150000 and s["halted"] is False
assert [x["name"] for x in s["rollouts"][0]["steps"]] == ["dev", "staging", "prod"]
PY
	then ok "JSON has the documented blocks and fields"; else bad "JSON has the documented blocks and fields"; fi
fi

# Hazards get a warning that explains them (spec §7 #20).
"$SIM" run --horizon 10m tests/scenarios/empty-detected-revision.yaml >"$tmp/hz.txt" 2>&1
if grep -q "present but empty" "$tmp/hz.txt" && grep -q "NewRevisionDetected" "$tmp/hz.txt"; then ok "empty detected-revision is warned about"; else bad "empty detected-revision is warned about"; fi

# Hazards a run ends on are named in the summary, even with -q (spec §7 #3, #15).
"$SIM" run -q tests/scenarios/no-steps.yaml >"$tmp/hz2.txt" 2>&1
if grep -q "has no steps" "$tmp/hz2.txt"; then ok "a Rollout without steps is warned about"; else bad "a Rollout without steps is warned about"; fi
"$SIM" run -q tests/scenarios/auto-apply-false.yaml >"$tmp/hz3.txt" 2>&1
if grep -q "ended Planned" "$tmp/hz3.txt"; then ok "a plan waiting for approval is warned about"; else bad "a plan waiting for approval is warned about"; fi

# A fleet end to end: FleetRollout controller, StageSet controller, gate series (spec §2.3–§2.7).
"$SIM" run --json "$tmp/fleet.json" -q tests/scenarios/fleet-small.yaml >/dev/null 2>&1
if command -v python3 >/dev/null 2>&1; then
	if python3 - "$tmp/fleet.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
seq = []
for e in d["timeline"]:
    if e["kind"] == "FleetRollout" and e["change"] == "status":
        item = (e["phase"], e["reason"], e["message"])
        if not seq or seq[-1] != item:
            seq.append(item)
assert seq == [
    ("InProgress", "Progressing", 'rolling out the current version; wave "canary" open'),
    ("Halted", "Halted", 'wave "canary" regressed: a member is no longer adopted and Ready'),
    ("InProgress", "Progressing", 'rolling out version 4.5.0; wave "canary" open'),
    ("InProgress", "Progressing", 'rolling out version 4.5.0; wave "broad" open'),
    ("InProgress", "Progressing", 'rolling out version 4.5.0; wave "rest" open'),
    ("Completed", "Completed", "all 3 wave(s) have adopted the current version")], seq
s = d["summary"]
assert s["completed"] and s["halted"] and s["halt"]["kind"] == "FleetRollout", s
gen = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "created"]
assert len(gen) == 12, len(gen)
PY
	then ok "a small fleet: waves in order, the §2.7 regression halt, completion"; else bad "a small fleet: waves in order, the §2.7 regression halt, completion"; fi
fi

# The per-wave fleet report of the same run (sim/observe/fleetobs definitions, README).
if command -v python3 >/dev/null 2>&1; then
	if python3 - "$tmp/fleet.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fl = d["summary"]["fleets"]
assert len(fl) == 1 and fl[0]["name"] == "moodle", fl
f = fl[0]
assert f["completed_ms"] == 6578000, f["completed_ms"]
w = {x["name"]: x for x in f["waves"]}
assert [x["name"] for x in f["waves"]] == ["canary", "broad", "rest"]
# canary: open from the start, re-soaked after the 4.5.0 halt, passed when broad opened
assert (w["canary"]["opened_ms"], w["canary"]["passed_ms"]) == (0, 2533000), w["canary"]
assert w["broad"]["opened_ms"] == 2533000 and w["broad"]["passed_ms"] == 6254000, w["broad"]
assert w["rest"]["opened_ms"] == 6254000 and w["rest"]["passed_ms"] == 6578000, w["rest"]
assert w["canary"]["soaks"] == 2 and w["canary"]["soak_until_ms"] == 2533000, w["canary"]
assert w["canary"]["last_settled_ms"] == 733000, w["canary"]
g = w["canary"]["gate_evaluations"]
assert g and g[0]["t_ms"] == 2533000 and g[0]["value"] == 0.001, g[0]
assert g[0]["threshold"] == {"min": None, "max": "0.01"} and g[0]["verdict"] == "Passing", g[0]
assert w["canary"]["gate_verdicts"] == {"passing": len(g), "failing": 0, "unknown": 0}
assert w["broad"]["gate_evaluations"] == [] and w["rest"]["gate_evaluations"] == []
h = f["halts"]
assert len(h) == 1 and h[0]["t_ms"] == 600000 and h[0]["wave"] == "canary", h
# the publish gives the source its new revision, which wakes every member
# at once (the source watch), and edits each member's spec.version, which
# wakes the fleet; the first member pass (pending 4.5.0) lands before the
# fleet's, which halts while rolling out 4.5.0 with no member on it yet
assert h[0]["kind"] == "regression" and h[0]["version"] == "4.5.0" and h[0]["passes"] == 1, h
assert f["rollbacks"] == []
b = f["blast_radius"]
assert b["version"] == "4.5.0" and b["count"] == 0 and b["total"] == 12 and b["members"] == [], b
# nothing on 4.5.0 failed before the halt: the halt was the §2.7 quirk, not a detection
assert f["fault_onset_ms"] is None and f["detection_latency_ms"] is None, f
# exposure counts blast-radius members up to the halt: none here
assert f["exposure_member_ms"] == 0 and not f["unremediated"], f["exposure_member_ms"]
PY
	then ok "a small fleet: per-wave report, blast radius, latency, exposure"; else bad "a small fleet: per-wave report, blast radius, latency, exposure"; fi
fi
"$SIM" run --timeline none --no-color tests/scenarios/fleet-small.yaml >"$tmp/fleet.txt" 2>&1
if grep -q "^  canary                   0s    1m33.005s       42m13s       42m13s  154/0/0$" "$tmp/fleet.txt" &&
	grep -q "halt 10m0s wave canary (regression, Halted)" "$tmp/fleet.txt" &&
	grep -q "0 of 12 members: no member of FleetRollout moodle had adopted 4.5.0 by" "$tmp/fleet.txt" &&
	grep -q "0 member-minutes: no member had adopted 4.5.0 by the halt" "$tmp/fleet.txt" &&
	grep -q "FleetRollout moodle  →  the current version" "$tmp/fleet.txt"; then
	ok "a small fleet: terminal wave table and summary lines"
else
	bad "a small fleet: terminal wave table and summary lines"
fi
check "a small fleet: the report fits 80 columns" fits "$tmp/fleet.txt" 80

# Publish events count as scripted events: the run does not end before them.
sed '/at: 6h/,/annotate:/d' scenarios/fleet-standing-policy.yaml >"$tmp/standing.yaml"
"$SIM" run -q "$tmp/standing.yaml" >"$tmp/standing.txt" 2>&1
# ... and the run ends when the last version (4.7.0, published at 4h) has completed.
if grep -q "stopped   the simulation at 5h34m4s, after [0-9]* events:" "$tmp/standing.txt"; then ok "publish events keep a run going to the last version's completion"; else bad "publish events keep a run going to the last version's completion"; grep stopped "$tmp/standing.txt"; fi

# A draw beyond any clock is capped, never an overflow (UBSan) or an assertion.
expect_rc "heavy-tailed durations run" 0 "$SIM" run -q tests/scenarios/heavy-tail.yaml

# A different seed is recorded (the timeline itself does not depend on it yet).
"$SIM" run --seed 7 --json "$tmp/s7.json" -q scenarios/payments-platform.yaml >/dev/null 2>&1
if grep -q '"seed":7' "$tmp/s7.json"; then ok "--seed overrides spec.seed"; else bad "--seed overrides spec.seed"; fi

# Invalid input never leaves an output file behind.
expect_rc "invalid scenario exits 3" 3 "$SIM" run --json "$tmp/never.json" tests/badinput/18-rollout-name-mismatch.yaml
if [ ! -e "$tmp/never.json" ] && ! ls "$tmp"/never.json.tmp.* >/dev/null 2>&1; then ok "no JSON file after invalid input"; else bad "no JSON file after invalid input"; fi

# An unwritable output is an I/O error, and the old file survives untouched.
echo keep >"$tmp/old.json"
expect_rc "unwritable --json directory exits 4" 4 "$SIM" run -q --json "$tmp/nodir/x.json" scenarios/payments-platform.yaml
if [ -e /dev/full ]; then
	"$SIM" run scenarios/payments-platform.yaml >/dev/full 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 4 ] && grep -q "error writing to standard output" "$tmp/err"; then ok "full stdout is an I/O error"; else bad "full stdout is an I/O error (exit $rc)"; fi
fi

# Special files are written in place, never replaced; a symlink survives.
if [ -c /dev/null ]; then
	"$SIM" run -q --json /dev/null scenarios/payments-platform.yaml >/dev/null 2>&1
	if [ -c /dev/null ]; then ok "--json /dev/null leaves the device alone"; else bad "--json /dev/null replaced the device"; mknod -m 666 /dev/null c 1 3 2>/dev/null; fi
fi
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/fifo.out" &
reader=$!
# the reader must hold the FIFO open before the run looks for one (a loaded
# machine starts it late); and a run that never opens it must not leave the
# reader, and this script, waiting forever
i=0
while [ "$i" -lt 100 ] && ! ls -l "/proc/$reader/fd" 2>/dev/null | grep -q "$tmp/fifo"; do
	sleep 0.1
	i=$((i + 1))
done
"$SIM" run -q --json "$tmp/fifo" scenarios/payments-platform.yaml >/dev/null 2>&1
if kill -0 "$reader" 2>/dev/null; then
	timeout 5 sh -c ': >"$1"' _ "$tmp/fifo" 2>/dev/null
fi
wait "$reader"
if [ -p "$tmp/fifo" ] && cmp -s "$tmp/fifo.out" "$tmp/a.json"; then ok "--json FIFO: the reader gets the document"; else bad "--json FIFO: the reader gets the document"; fi
mkfifo "$tmp/fifo-unread"
expect_rc "--json FIFO no process reads: fails at once (exit 4), never waits" 4 \
	timeout 60 "$SIM" run -q --json "$tmp/fifo-unread" scenarios/three-environments.yaml
contains "... saying why" "$tmp/err" "cannot write '$tmp/fifo-unread': a FIFO that no process has open for reading; no output file was replaced"
expect_rc "--snapshot T FIFO no process reads: the same" 4 \
	timeout 60 "$SIM" run -q --snapshot 1m "$tmp/fifo-unread" scenarios/three-environments.yaml
if [ -r /proc/version ]; then
	expect_rc "--json /proc/version: refused before the run (exit 4)" 4 "$SIM" run -q --json /proc/version scenarios/three-environments.yaml
	contains "... saying what is true" "$tmp/err" "cannot write '/proc/version': it is a file of procfs, a kernel pseudo filesystem, not a place for an output"
fi
: >"$tmp/same-target.out"
ln -s "$tmp/same-target.out" "$tmp/same-link.out"
expect_rc "two outputs to one file through a symlink: a usage error" 2 \
	"$SIM" run -q --csv "$tmp/same-target.out" --trace "$tmp/same-link.out" scenarios/three-environments.yaml
contains "... naming both" "$tmp/err" "run: --csv and --trace both write to '$tmp/same-link.out'"
ln -s "$tmp/target.json" "$tmp/link.json"
"$SIM" run -q --json "$tmp/link.json" scenarios/payments-platform.yaml >/dev/null 2>&1
if [ -L "$tmp/link.json" ] && cmp -s "$tmp/target.json" "$tmp/a.json"; then ok "--json through a symlink writes its target"; else bad "--json through a symlink writes its target"; fi
expect_rc "--json to a directory exits 4" 4 "$SIM" run -q --json "$tmp" scenarios/payments-platform.yaml
if grep -q "Is a directory" "$tmp/err"; then ok "--json to a directory says so"; else bad "--json to a directory says so"; fi

# Options may follow the inputs, as with other GNU tools.
expect_rc "options after the scenario" 0 "$SIM" run scenarios/payments-platform.yaml --json "$tmp/late.json" -q
if cmp -s "$tmp/late.json" "$tmp/a.json"; then ok "options after the scenario take effect"; else bad "options after the scenario take effect"; fi

# lint takes each input on its own: two scenarios are fine.
cp scenarios/payments-platform.yaml "$tmp/other.yaml"
sed -i "s|payments-platform/\*.yaml|$(pwd)/scenarios/payments-platform/*.yaml|" "$tmp/other.yaml"
expect_rc "lint checks several scenarios" 0 "$SIM" lint scenarios/payments-platform.yaml "$tmp/other.yaml"

# Deep flow nesting stops at the depth limit (libyaml's scanner is quadratic past it).
awk 'BEGIN { s = "a: "; for (i = 0; i < 100000; i++) s = s "["; print s }' >"$tmp/deep.yaml"
expect_rc "deep flow nesting is refused" 3 "$SIM" run "$tmp/deep.yaml"
if grep -q "nesting deeper than 512 levels" "$tmp/err"; then ok "deep nesting names the limit"; else bad "deep nesting names the limit"; fi

# A snapshot's metadata.generation is its starting generation.
printf 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n  generation: 7\n' >"$tmp/gen.yaml"
if "$SIM" run --json - "$tmp/gen.yaml" 2>/dev/null | grep -q '"generation":7'; then ok "snapshot generation kept"; else bad "snapshot generation kept"; fi

# Control characters from the input never reach the terminal raw.
printf 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n  annotations:\n    a: "\\u001b[31mred\\u0007"\n' >"$tmp/ctl.yaml"
"$SIM" run "$tmp/ctl.yaml" >"$tmp/ctl.out" 2>&1
if ! grep -q "$(printf '\033')" "$tmp/ctl.out"; then ok "control characters are escaped"; else bad "control characters are escaped"; fi

# The terminal timeline fits 80 columns and has no colour when not a TTY.
"$SIM" run scenarios/payments-platform.yaml >"$tmp/tty.txt" 2>&1
if fits "$tmp/tty.txt" 80 && [ "$(wc -l <"$tmp/tty.txt")" -gt 10 ]; then ok "timeline fits 80 columns"; else bad "timeline fits 80 columns"; fi
if ! grep -q "$(printf '\033')" "$tmp/tty.txt"; then ok "no colour codes when not a TTY"; else bad "no colour codes when not a TTY"; fi
"$SIM" run --color always scenarios/payments-platform.yaml >"$tmp/col.txt" 2>&1
if grep -q "$(printf '\033')" "$tmp/col.txt"; then ok "--color always colours"; else bad "--color always colours"; fi

# Help fits 80 columns.
for c in "" run check lint compare; do "$SIM" help $c; done >"$tmp/help.txt" 2>&1
check "help fits 80 columns" fits "$tmp/help.txt" 80

# check: every example passes; a run stopped by its event budget fails (exit 1).
expect_rc "check passes the examples" 0 "$SIM" check scenarios/*.yaml
cat >"$tmp/budget.yaml" <<'YAML'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: tiny-budget}
spec:
  limits: {eventBudget: 2}
  include: [PWD/scenarios/payments-platform/workspaces.yaml]
YAML
sed -i "s|PWD|$(pwd)|" "$tmp/budget.yaml"
expect_rc "check fails a run stopped by its event budget" 1 "$SIM" check "$tmp/budget.yaml"
if grep -q "event budget" "$tmp/out"; then ok "check names the bound"; else bad "check names the bound"; fi

finish
