#!/bin/sh
# A run resumed from a snapshot of the simulator reads spec.expect and
# `run --at T` / `--snapshot T` durations on the original run's clock: an
# expectation's `at` and a duration T are the same instant as in the
# uninterrupted run; one before the snapshot is refused or fails saying so.
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim

mkdir "$tmp/co"
cp scenarios/checkout/*.yaml "$tmp/co/"
cat >"$tmp/scn.yaml" <<'YAML'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: checkout-resume}
spec:
  events:
    - at: 1m15s
      label: {kind: Workspace, namespace: shop, name: checkout-staging, set: {example.com/wave: "2"}}
  expect:
    assert:
      - at: 20s
        object: {kind: Workspace, metadata: {namespace: shop, name: checkout-staging}}
      - at: 1m
        object: {kind: Workspace, metadata: {namespace: shop, name: checkout-staging, labels: {example.com/wave: "2"}}}
      - at: 1m15s
        object: {kind: Workspace, metadata: {namespace: shop, name: checkout-staging, labels: {example.com/wave: "2"}}}
      - at: 2m
        object: {kind: Workspace, metadata: {namespace: shop, name: checkout-prod-eu, labels: {example.com/wave: "2"}}}
    error:
      - at: 1m10s
        object: {kind: Workspace, metadata: {namespace: shop, name: checkout-staging, labels: {example.com/wave: "2"}}}
YAML
cp "$tmp/scn.yaml" "$tmp/co/"

# --- spec.expect at several resumed starts: the verdicts of the whole run ---
pyfacts "$SIM" "$tmp" <<'PY'
import os, re, shutil, subprocess, sys
from facts import check
sim, tmp = sys.argv[1], sys.argv[2]
def verdicts(d):
    p = subprocess.run([sim, 'check', '--color', 'never', d], capture_output=True, text=True)
    out = {}
    for l in p.stdout.splitlines():
        m = re.match(r'(PASS|FAIL) +\S+: (\w+\[\d\]): (.*)', l)
        if m:
            out[m.group(2)] = (m.group(1), m.group(3))
    return out
whole = verdicts(tmp + '/co')
check("the whole run evaluates each expectation at its time",
      whole.get('assert[1]', ('',))[0] == 'FAIL' and whole.get('assert[2]', ('',))[0] == 'PASS'
      and whole.get('error[0]', ('',))[0] == 'PASS' and len(whole) == 5, whole)
ats = {'assert[0]': 20000, 'assert[1]': 60000, 'error[0]': 70000, 'assert[2]': 75000, 'assert[3]': 120000}
bad = []
for t in (0, 15000, 20000, 45000, 70000, 75000, 100000):
    d = '%s/r%d' % (tmp, t)
    os.mkdir(d)
    subprocess.run([sim, 'run', '-q', '--snapshot', '%dms' % t, d + '/snap.yaml', tmp + '/co'],
                   capture_output=True, check=True)
    now = open(d + '/snap.yaml').read().split('run --now ')[1].split()[0]
    text = open(tmp + '/scn.yaml').read().replace('spec:\n', 'spec:\n  start: "%s"\n' % now, 1)
    open(d + '/scn.yaml', 'w').write(text)
    got = verdicts(d)
    for name, at in ats.items():
        if at >= t:
            if got.get(name) != whole.get(name):
                bad.append((t, name, whole.get(name), got.get(name)))
        elif not (got.get(name, ('',))[0] == 'FAIL' and 'is before the snapshot this run resumes from' in got[name][1]):
            bad.append((t, name, 'before the snapshot', got.get(name)))
check("resumed at 7 instants, every expectation at or after the snapshot has the whole run's verdict and message, every one before it fails as before the snapshot",
      not bad, bad[:3])
PY
"$SIM" check --color never "$tmp/r45000" >"$tmp/out" 2>&1
contains "an expectation before the snapshot names its time and the snapshot's" "$tmp/out" "assert[0]: Workspace \"shop/checkout-staging\": not evaluated: the expectation's time 20s is before the snapshot this run resumes from (taken at 45s of the original run)"

# --- run --at / --snapshot T: a duration is the original run's instant ---
"$SIM" run -q --snapshot 45s "$tmp/s45.yaml" "$tmp/co" >/dev/null
now=2026-01-01T00:00:45Z
for T in 45s 1m 1m20s 2m; do
	"$SIM" run -q --color never --at "$T" "$tmp/co" >"$tmp/whole-at.txt" 2>&1
	"$SIM" run -q --color never --now $now --at "$T" "$tmp/scn.yaml" "$tmp/s45.yaml" >"$tmp/res-at.txt" 2>&1
	sed -n '/^At /,$p' "$tmp/whole-at.txt" >"$tmp/a"
	sed -n '/^At /,$p' "$tmp/res-at.txt" >"$tmp/b"
	check "--at $T resumed at 45s shows the world the whole run shows at $T" sh -c 'test -s "$1" && cmp -s "$1" "$2"' _ "$tmp/a" "$tmp/b"
done
contains "it says the instant on the original run's clock" "$tmp/b" "At 2m0s (2026-01-01T00:02:00Z)"
"$SIM" run -q --snapshot 1m20s "$tmp/w80.yaml" "$tmp/co" >/dev/null
"$SIM" run -q --now $now --snapshot 1m20s "$tmp/r80.yaml" "$tmp/scn.yaml" "$tmp/s45.yaml" >/dev/null
check "--snapshot 1m20s resumed at 45s is taken at the whole run's 1m20s" sh -c 'grep -q "run --now 2026-01-01T00:01:20Z" "$1" && grep -q "run --now 2026-01-01T00:01:20Z" "$2"' _ "$tmp/w80.yaml" "$tmp/r80.yaml"
expect_rc "a duration before the resumed start is refused" 2 "$SIM" run -q --now $now --at 30s "$tmp/scn.yaml" "$tmp/s45.yaml"
contains "it says the snapshot's time and the clock durations count on" "$tmp/err" "--at 30s is before the snapshot this run resumes from (taken at 45s of the original run, 2026-01-01T00:00:45Z): a duration counts from the original run's start; give 45s or later"
expect_rc "an RFC 3339 time before the resumed start is refused" 2 "$SIM" run -q --now $now --snapshot 2026-01-01T00:00:40Z "$tmp/x.yaml" "$tmp/scn.yaml" "$tmp/s45.yaml"
contains "it says the snapshot's time" "$tmp/err" "--snapshot 2026-01-01T00:00:40Z is before the snapshot this run resumes from (2026-01-01T00:00:45Z, 45s of the original run)"
# --- a snapshot starts where it was taken (clock.magos-sim.io/taken) ---
# Its Scenario's spec.start names the original run's start: without --now
# the run neither starts there nor replays the Scenario on the later state.
sed 's/^spec:$/spec:\n  start: "2026-01-01T00:00:00Z"/' "$tmp/scn.yaml" >"$tmp/co/scn.yaml"
"$SIM" run -q --snapshot 45s "$tmp/t45.yaml" "$tmp/co" >/dev/null
check "the snapshot says when it was taken, to the millisecond" grep -q 'clock.magos-sim.io/taken: "2026-01-01T00:00:45Z"' "$tmp/t45.yaml"
"$SIM" run -q --snapshot 45250ms "$tmp/t45250.yaml" "$tmp/co" >/dev/null
check "... a fraction of a second too" grep -q 'clock.magos-sim.io/taken: "2026-01-01T00:00:45.25Z"' "$tmp/t45250.yaml"
expect_rc "resumed with the Scenario whose spec.start is the origin, no --now" 0 "$SIM" run --width 200 "$tmp/co/scn.yaml" "$tmp/t45.yaml"
if sed -n 2p "$tmp/out" | grep -q '^clock starts 2026-01-01T00:00:45Z (the time the snapshot was taken)$'; then ok "the clock starts when the snapshot was taken"; else bad "the clock starts when the snapshot was taken"; show "$tmp/out" 2; fi
# the header gives the horizon as written, on the original clock, and what is left of it
expect_rc "resumed with --horizon 2h" 0 "$SIM" run --width 200 --horizon 2h "$tmp/co/scn.yaml" "$tmp/t45.yaml"
contains "... the header says the horizon given and what is left after the snapshot" "$tmp/out" ", horizon 2h0m0s (1h59m15s left), "

# --- a snapshot resumed with the scenario file that also holds its manifests:
# each object is there twice; one note says what to give instead ---
"$SIM" run -q --snapshot 10m "$tmp/three-snap.yaml" scenarios/three-environments.yaml >/dev/null
expect_rc "snapshot + the scenario file with its manifests: refused" 3 "$SIM" run "$tmp/three-snap.yaml" scenarios/three-environments.yaml
check "... each object twice" test "$(grep -c 'already exists: the same kind, namespace and name appear twice' "$tmp/err")" -eq 5
check "... and one note, at the Scenario document, saying to give it alone" test "$(grep -c 'give it with a file that holds the Scenario document alone' "$tmp/err")" -eq 1
check "... at the Scenario document of the file" grep -Eq '^scenarios/three-environments.yaml:[0-9]+:1: note: the other inputs hold these objects with a status' "$tmp/err"
pyfacts scenarios/three-environments.yaml "$tmp/three-scn.yaml" <<'PY'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d.get('kind') == 'Scenario']
yaml.safe_dump_all(docs, open(sys.argv[2], 'w'))
PY
expect_rc "... which resumes with the Scenario document alone" 0 "$SIM" run -q "$tmp/three-snap.yaml" "$tmp/three-scn.yaml"
mkdir "$tmp/co-again"
cp scenarios/checkout/*.yaml "$tmp/co-again/"
"$SIM" run -q --snapshot 30s "$tmp/co-snap.yaml" "$tmp/co-again" >/dev/null
expect_rc "snapshot + the plain manifests it was taken of: refused" 3 "$SIM" run "$tmp/co-snap.yaml" "$tmp/co-again"
check "... with one note saying to leave the manifests out" test "$(grep -c 'give it without the manifests it was taken of' "$tmp/err")" -eq 1
"$SIM" run -q --snapshot 5m "$tmp/net5.yaml" scenarios/snapshot-shop-network.yaml >/dev/null 2>&1
expect_rc "snapshot + its Scenario that still includes the manifests: refused" 3 "$SIM" run -q scenarios/snapshot-shop-network.yaml "$tmp/net5.yaml"
contains "... the note names the spec.include to leave out" "$tmp/err" "with the Scenario document alone, without the spec.include that reads them (scenarios/snapshot-shop-network.yaml:"

# --- `--snapshot T` without its FILE: the scenario was taken as the FILE ---
cp scenarios/three-environments.yaml "$tmp/three.yaml"
expect_rc "run --snapshot 10m SCENARIO (FILE left out) is a usage error" 2 "$SIM" run --snapshot 10m "$tmp/three.yaml"
has_line "... saying the scenario was taken as the FILE, and how to give both" "$tmp/err" \
	"magos-sim run: --snapshot takes T FILE: '$tmp/three.yaml' was taken as the FILE to write and no scenario is left; give both: --snapshot 10m SNAPSHOT.yaml $tmp/three.yaml"
check "... and the scenario is left as it was" cmp -s scenarios/three-environments.yaml "$tmp/three.yaml"
expect_rc "run --snapshot 10m NEW-FILE (no scenario at all) is a usage error" 2 "$SIM" run --snapshot 10m "$tmp/new.yaml"
has_line "... naming the FILE it took" "$tmp/err" \
	"magos-sim run: no scenario given (--snapshot takes T FILE: '$tmp/new.yaml' is the FILE to write)"

pyfacts "$SIM" "$tmp" <<'PY2'
import json, subprocess, sys
from facts import check
sim, tmp = sys.argv[1], sys.argv[2]
def events(args):
    p = subprocess.run([sim, 'run', '--events', '-'] + args, capture_output=True, text=True)
    return [(e['elapsed_ms'], (e['time'], e['kind'], e['namespace'], e['name'], e['change'], e['reason'], e['cause']))
            for e in map(json.loads, p.stdout.splitlines())], p.stderr
whole, _ = events([tmp + '/co'])
for snap, t in (('t45', 45000), ('t45250', 45250)):
    rest, err = events([tmp + '/co/scn.yaml', tmp + '/%s.yaml' % snap])
    want = [e for ms, e in whole if ms > t]
    got = [e for ms, e in rest if ms > 0]
    check("resumed at %dms without --now, the rest is the whole run's (the 1m15s label once, at 1m15s)" % t,
          want == got and [e[0] for ms, e in rest if e[6] == 'scenario event 1 (label)'] == ['2026-01-01T00:01:15Z'] and not err,
          (want[:2], got[:2], err[:300]))
PY2
expect_rc "--now before the times the snapshot holds runs" 0 "$SIM" run -q --now 2026-01-01T00:00:10Z "$tmp/co/scn.yaml" "$tmp/t45.yaml"
contains "with a warning naming the object and the time" "$tmp/err" "t45.yaml:$(grep -n 'lastReconcileTime: "2026-01-01T00:00:20Z"' "$tmp/t45.yaml" | cut -d: -f1):24: warning: Workspace \"shop/checkout-dev\": status.lastReconcileTime 2026-01-01T00:00:20Z is later than the clock's start 2026-01-01T00:00:10Z (--now): the run starts before the state it loads; start at or after 2026-01-01T00:00:20Z"
check "one line" test "$(grep -c 'is later than the clock' "$tmp/err")" -eq 1
expect_rc "a spec.start before it, with a kubectl snapshot of the same objects" 0 sh -c 'grep -v "magos-sim.io/" "$1" >"$2" && "$3" run -q "$4" "$2"' _ "$tmp/t45.yaml" "$tmp/plain45.yaml" "$SIM" "$tmp/co/scn.yaml"
contains "warns as well, naming spec.start" "$tmp/err" "is later than the clock's start 2026-01-01T00:00:00Z (spec.start)"
rm "$tmp/co/scn.yaml"
# --- a snapshot taken at the original run's horizon has no time left ---
mkdir "$tmp/short"
cp scenarios/checkout/*.yaml "$tmp/short/"
printf 'apiVersion: magos-sim/v1alpha1\nkind: Scenario\nmetadata: {name: short}\nspec:\n  horizon: 2m\n' >"$tmp/short/scn.yaml"
"$SIM" run -q --snapshot 2m "$tmp/at2m.yaml" "$tmp/short" >/dev/null
check "the snapshot's header says it needs --horizon to run on" \
	grep -q '^# later than 2m0s on the original run.s clock to run on)$' "$tmp/at2m.yaml"
expect_rc "resuming at the horizon is refused, not a 1 ms run" 2 "$SIM" run -q "$tmp/short/scn.yaml" "$tmp/at2m.yaml"
contains "it says the horizon, when the snapshot was taken and how to run on" "$tmp/err" "magos-sim run: the snapshot was taken at 2m0s of the original run (2026-01-01T00:02:00Z), at or after its horizon (2m0s), where simulated time ended: nothing is left to simulate; give --horizon to run on, counted from the original run's start (--horizon 4m0s: as long again)"
expect_rc "so is resuming after it" 2 "$SIM" run -q --now 2026-01-01T00:03:00Z "$tmp/short/scn.yaml" "$tmp/at2m.yaml"
expect_rc "with --horizon it runs on" 0 "$SIM" run -q --horizon 4m "$tmp/short/scn.yaml" "$tmp/at2m.yaml"
contains "to the change's completion" "$tmp/out" "completed yes"
# --- a snapshot names the Scenario and seed of its run ---
sed 's/name: checkout-resume/name: other/' "$tmp/scn.yaml" >"$tmp/other.yaml"
check "the snapshot names its run's Scenario and seed" sh -c 'grep -q "run.magos-sim.io/scenario: checkout-resume" "$1" && grep -q "run.magos-sim.io/seed: \"1\"" "$1"' _ "$tmp/t45.yaml"
expect_rc "resumed with its own Scenario" 0 "$SIM" run -q "$tmp/scn.yaml" "$tmp/t45.yaml"
lacks "... there is nothing to warn about" "$tmp/err" "warning"
expect_rc "resumed with another Scenario, it runs" 0 "$SIM" run -q "$tmp/other.yaml" "$tmp/t45.yaml"
contains "with a warning that says which and that it may be meant" "$tmp/err" "t45.yaml:8:3: warning: the snapshot comes from a run with Scenario \"checkout-resume\" (seed 1); this run has Scenario \"other\": what happens after the snapshot follows this run's events and models, not the original run's (a warning only: resuming with other models or draws on purpose is fine)"
expect_rc "resumed with another seed" 0 "$SIM" run -q --seed 7 "$tmp/scn.yaml" "$tmp/t45.yaml"
contains "says the seeds" "$tmp/err" "this run has seed 7: what happens after the snapshot follows this run's draws"
expect_rc "resumed without its Scenario document" 0 "$SIM" run -q "$tmp/t45.yaml"
contains "says it has none" "$tmp/err" "this run has no Scenario document: what happens"
"$SIM" run -q --snapshot 45s "$tmp/plain-run45.yaml" scenarios/checkout >/dev/null
expect_rc "a run without a Scenario document resumed with one" 0 "$SIM" run -q "$tmp/scn.yaml" "$tmp/plain-run45.yaml"
contains "says the run had none" "$tmp/err" "the snapshot comes from a run with no Scenario document (seed 1); this run has Scenario \"checkout-resume\""
# --- without the Scenario document, the seed is the one the snapshot names ---
mkdir "$tmp/co7"
cp scenarios/checkout/*.yaml "$tmp/co7/"
printf 'apiVersion: magos-sim/v1alpha1\nkind: Scenario\nmetadata: {name: co7}\nspec:\n  seed: 7\n' >"$tmp/co7/scn.yaml"
"$SIM" run -q --snapshot 45s "$tmp/s7.yaml" "$tmp/co7" >/dev/null
expect_rc "resumed without its Scenario document" 0 "$SIM" run --timeline all --json "$tmp/s7.json" "$tmp/s7.yaml"
cp "$tmp/out" "$tmp/s7.txt"
check "the run has the seed the snapshot names" grep -q '"seed":7,' "$tmp/s7.json"
lacks "... so the warning names no other seed" "$tmp/err" "seed 1"
contains "... only the missing Scenario document" "$tmp/err" "the snapshot comes from a run with Scenario \"co7\" (seed 7); this run has no Scenario document: what happens after the snapshot follows this run's events and models"
"$SIM" run -q -n 3 --csv "$tmp/s7.csv" "$tmp/s7.yaml" 2>/dev/null
"$SIM" run -q -n 3 --csv "$tmp/s7-seed7.csv" --seed 7 "$tmp/s7.yaml" 2>/dev/null
check "... its trials have the seeds of --seed 7" sh -c 'cut -d, -f1-2 "$1" | grep -q "^0,7$" && cmp -s "$1" "$2"' _ "$tmp/s7.csv" "$tmp/s7-seed7.csv"
expect_rc "--seed overrides it" 0 "$SIM" run -q --seed 2 --json "$tmp/s7-2.json" "$tmp/s7.yaml"
check "... the run has seed 2" grep -q '"seed":2,' "$tmp/s7-2.json"
contains "... and the warning says both" "$tmp/err" "this run has no Scenario document, seed 2: what happens after the snapshot follows this run's events, models and draws"
grep -v 'run.magos-sim.io/seed' "$tmp/s7.yaml" >"$tmp/s7-noseed.yaml"
expect_rc "a snapshot that names no seed, without Scenario document or --seed" 0 "$SIM" run -q "$tmp/s7-noseed.yaml"
contains "warns that nothing says the seed" "$tmp/err" "s7-noseed.yaml:8:3: warning: the snapshot does not say the seed of its run (no run.magos-sim.io/seed annotation) and neither a Scenario document nor --seed gives one: this run uses seed 1, which need not be the original run's"
expect_rc "... with --seed" 0 "$SIM" run -q --seed 7 "$tmp/s7-noseed.yaml"
lacks "... does not" "$tmp/err" "does not say the seed"
expect_rc "compare of the snapshot without Scenario document" 0 "$SIM" compare -q -n 2 --json "$tmp/c7.json" "$tmp/s7.yaml" "$tmp/s7.yaml"
check "... runs with the seed it names" grep -q '"seed": 7,' "$tmp/c7.json"
# --- --horizon counts on the original run's clock, as spec.horizon does ---
# Resumed at 1m, spec.horizon 2m and --horizon 2m end the run at the same
# instant as the uninterrupted run's: 2026-01-01T00:02:00Z.
"$SIM" run -q --snapshot 1m "$tmp/at1m.yaml" "$tmp/short" >/dev/null
pyfacts "$SIM" "$tmp" <<'PY2'
import json, subprocess, sys
from facts import check
sim, tmp = sys.argv[1], sys.argv[2]
def ends(args):
    p = subprocess.run([sim, 'run', '--until', 'horizon', '--events', '-'] + args, capture_output=True, text=True)
    ev = [json.loads(l) for l in p.stdout.splitlines()]
    return [(e['time'], e['kind'], e['name'], e['change'], e['reason']) for e in ev if e['time'] > '2026-01-01T00:01:00Z'], p.stderr
whole, _ = ends([tmp + '/short'])
whole3, _ = ends(['--horizon', '3m', tmp + '/short'])
spec, e1 = ends([tmp + '/short/scn.yaml', tmp + '/at1m.yaml'])
opt, e2 = ends(['--horizon', '2m', tmp + '/short/scn.yaml', tmp + '/at1m.yaml'])
opt3, e3 = ends(['--horizon', '3m', tmp + '/short/scn.yaml', tmp + '/at1m.yaml'])
check("resumed at 1m, spec.horizon 2m and --horizon 2m give the whole run's rest to 2m, nothing after",
      whole and spec == whole and opt == whole and max(e[0] for e in opt) <= '2026-01-01T00:02:00Z', (len(whole), len(spec), len(opt), e1[:200], e2[:200]))
check("--horizon 3m resumed at 1m is the whole run's --horizon 3m",
      opt3 == whole3 and len(whole3) > len(whole), (len(whole3), len(opt3), e3[:200]))
PY2
expect_rc "a --horizon at or before the snapshot is refused" 2 "$SIM" run -q --horizon 1m "$tmp/short/scn.yaml" "$tmp/at1m.yaml"
contains "saying it counts from the original run's start" "$tmp/err" "magos-sim run: --horizon 1m0s ends at or before the snapshot this run resumes from (taken at 1m0s of the original run, 2026-01-01T00:01:00Z): --horizon counts from the original run's start; give more than 1m0s"
expect_rc "--at after a resumed --horizon is refused" 2 "$SIM" run -q --horizon 90s --at 2m "$tmp/short/scn.yaml" "$tmp/at1m.yaml"
contains "both on the original run's clock" "$tmp/err" "--at 2m is after the run's horizon (1m30s), where simulated time ends:"
contains "... and the --horizon it needs" "$tmp/err" "give --horizon 2m0s or more, or an earlier --at"
# --- check has run's clock options: a snapshot's remaining time in CI ---
expect_rc "check --now runs a kubectl snapshot from that time" 0 "$SIM" check -n 1 --color never --now 2026-11-30T14:20:00Z scenarios/snapshot-shop-network.yaml
contains "its time to complete is what is left from then" "$tmp/out" "p95 time to complete 15m0.987s"
contains "... and the line says so: a kubectl export does not date the rollout's start" "$tmp/out" \
	"(p95 over 1 trial; what is left, counted from the snapshot, 2026-11-30T14:20:00Z: its Rollouts and FleetRollouts do not record when the rollout under way began)"
expect_rc "... as run --now counts it" 0 "$SIM" run -q --json - --now 2026-11-30T14:20:00Z scenarios/snapshot-shop-network.yaml
check "run --now gives the same time to complete" grep -q '"time_to_complete_ms": *900987' "$tmp/out"
# --- a resumed check's timeToComplete is the whole rollout's, on the original clock ---
# fleet-gate-halt completes at 1h4m4s; a limit of 1h written for it fails
# resumed at 30m as in the whole run, not passed with the 34m4s left.
mkdir "$tmp/fg" "$tmp/fg-res"
sed 's/timeToComplete: {max: 1h4m5s}/timeToComplete: {max: 1h}/' scenarios/fleet-gate-halt.yaml >"$tmp/fg/fg.yaml"
check "(the limit is there to change)" grep -q 'timeToComplete: {max: 1h}' "$tmp/fg/fg.yaml"
"$SIM" run -q --snapshot 30m "$tmp/fg-res/snap.yaml" "$tmp/fg/fg.yaml" >/dev/null
pyfacts "$tmp/fg/fg.yaml" "$tmp/fg-res/scn.yaml" <<'PY'
import sys
from resume_facts import scenario_only
scenario_only(sys.argv[1], sys.argv[2], drop_generate=True)
PY
expect_rc "the whole run fails the limit" 1 "$SIM" check --color never "$tmp/fg/fg.yaml"
has_line "... with its time to complete" "$tmp/out" "FAIL  $tmp/fg/fg.yaml:70:22: timeToComplete: time to complete 1h4m4s exceeds the limit 1h0m0s"
expect_rc "resumed at 30m it fails too" 1 "$SIM" check --color never --junit "$tmp/fg-res.xml" --summary "$tmp/fg-res.md" "$tmp/fg-res"
has_line "... with the whole run's time, saying where it counts from" "$tmp/out" \
	"FAIL  $tmp/fg-res/scn.yaml:58:7: timeToComplete: time to complete 1h4m4s exceeds the limit 1h0m0s (the whole rollout's, counted from the original run's start, 2026-03-02T08:00:00Z, as that run counts it; the snapshot was taken at 30m0s of it)"
contains "JUnit gives the same measure and words" "$tmp/fg-res.xml" \
	"time to complete 1h4m4s exceeds the limit 1h0m0s (the whole rollout&apos;s, counted from the original run&apos;s start, 2026-03-02T08:00:00Z, as that run counts it; the snapshot was taken at 30m0s of it) (measured 1h4m4s, limit &lt;= 1h0m0s)"
contains "the summary's key figures count the same way, and say so" "$tmp/fg-res.md" \
	"| fleet-gate-halt | 1 | 1 | 1h4m4s / 1h4m4s (counted from the original run's start) |"
mkdir "$tmp/fg-done"
"$SIM" run -q --snapshot 70m "$tmp/fg-done/snap.yaml" "$tmp/fg/fg.yaml" >/dev/null
cp "$tmp/fg-res/scn.yaml" "$tmp/fg-done/"
expect_rc "resumed after it completed (1h4m4s), it fails too" 1 "$SIM" check --color never --summary "$tmp/fg-done.md" "$tmp/fg-done"
has_line "... with the completion the snapshot carries, not 0s" "$tmp/out" \
	"FAIL  $tmp/fg-done/scn.yaml:58:7: timeToComplete: time to complete 1h4m4s exceeds the limit 1h0m0s (1 trial with nothing to complete: complete before the snapshot; the whole rollout's, counted from the original run's start, 2026-03-02T08:00:00Z, as that run counts it; the snapshot was taken at 1h10m0s of it)"
contains "... in the summary's key figures as well" "$tmp/fg-done.md" \
	"| fleet-gate-halt | 1 | 1 | 1h4m4s / 1h4m4s (counted from the original run's start) |"
expect_rc "a censored resumed trial is beyond the original run's horizon" 1 "$SIM" check --color never --horizon 40m "$tmp/fg-res"
contains "... said on the original clock, as not known before the limit" "$tmp/out" "timeToComplete: time to complete not known: not done by the horizon 40m0s, which ends before the limit <= 1h0m0s; give a horizon of at least 1h0m0s to tell"
expect_rc "check --now before the snapshot's times" 0 "$SIM" check --color never --now 2026-11-30T13:00:00Z scenarios/snapshot-shop-network.yaml
contains "warns as run does" "$tmp/err" "warning: Workspace \"shop/shop-network-staging\": metadata.managedFields[2].time 2026-11-30T14:00:37Z is later than the clock's start 2026-11-30T13:00:00Z (--now)"
expect_rc "a bad check --now is a usage error" 2 "$SIM" check --now soon scenarios/snapshot-shop-network.yaml
contains "it says so as run does" "$tmp/err" "magos-sim check: invalid --now 'soon'"
mkdir "$tmp/short-check"
cp "$tmp/short/scn.yaml" "$tmp/at2m.yaml" "$tmp/short-check/"
expect_rc "check refuses a snapshot taken at its horizon" 3 "$SIM" check --color never "$tmp/short-check"
contains "naming the input" "$tmp/out" "INVALID $tmp/short-check"
contains "with the message run gives" "$tmp/err" "magos-sim check: the snapshot was taken at 2m0s of the original run (2026-01-01T00:02:00Z), at or after its horizon (2m0s)"
contains "... and a FAIL line saying why, not only stderr" "$tmp/out" ": horizon: the snapshot was taken at 2m0s of the original run (2026-01-01T00:02:00Z), at or after its horizon (2m0s)"
expect_rc "check --horizon runs it on, on the original run's clock" 0 "$SIM" check --color never --horizon 4m "$tmp/short-check"
# check takes each Scenario file on its own: a Scenario beside a snapshot as two files is told so
expect_rc "check SCENARIO SNAPSHOT as two files: the Scenario alone has nothing to simulate" 3 "$SIM" check --color never "$tmp/short/scn.yaml" "$tmp/at2m.yaml"
contains "... and the line says how to give its manifests" "$tmp/out" "nothing to simulate: the Scenario document holds no objects, includes none and applies none; give its manifests with it (run SCENARIO MANIFEST..., or a directory holding them and the Scenario: check takes each Scenario file on its own), or name them in spec.include (give the Scenario its manifests: as more inputs, in a directory with it, or in its spec.include)"
# --- compare has run's clock options: both sides from the same instant ---
expect_rc "run -n --now of a kubectl snapshot" 0 "$SIM" run -q -n 8 --json "$tmp/rn.json" --now 2026-11-30T14:20:00Z scenarios/snapshot-shop-network.yaml
expect_rc "compare --now of it against itself" 0 "$SIM" compare -q -n 8 --json "$tmp/cn.json" --now 2026-11-30T14:20:00Z scenarios/snapshot-shop-network.yaml scenarios/snapshot-shop-network.yaml
expect_rc "compare of it without --now" 0 "$SIM" compare -q -n 8 --json "$tmp/c0.json" scenarios/snapshot-shop-network.yaml scenarios/snapshot-shop-network.yaml
pyfacts "$tmp/rn.json" "$tmp/cn.json" "$tmp/c0.json" <<'PY'
import json, sys
from facts import check
run, cmp, cmp0 = (json.load(open(f)) for f in sys.argv[1:4])
want = {k: run['statistics']['ttc'][k] for k in ('p50', 'p90', 'mean')}
got = {m['key']: (m['base'], m['head']) for m in cmp['metrics'] if m['key'] in want}
got0 = {m['key']: m['base'] for m in cmp0['metrics'] if m['key'] in want}
check("compare --now counts the times to complete from --now, as run -n --now does",
      all(got[k] == (v, v) for k, v in want.items()) and got0 != {k: v[0] for k, v in got.items()}, (want, got, got0))
PY
expect_rc "a bad compare --now is a usage error" 2 "$SIM" compare -q -n 2 --now soon scenarios/snapshot-shop-network.yaml scenarios/snapshot-shop-network.yaml
contains "it says so as run does" "$tmp/err" "magos-sim compare: invalid --now 'soon'"
expect_rc "compare --now before the snapshot's times" 0 "$SIM" compare -q -n 2 --now 2026-11-30T13:00:00Z scenarios/snapshot-shop-network.yaml scenarios/snapshot-shop-network.yaml
contains "warns as run does" "$tmp/err" "metadata.managedFields[2].time 2026-11-30T14:00:37Z is later than the clock's start 2026-11-30T13:00:00Z (--now)"
expect_rc "compare of a snapshot taken at its horizon is refused" 2 "$SIM" compare -q -n 2 "$tmp/short-check" "$tmp/short-check"
contains "with the message run gives" "$tmp/err" "magos-sim compare: the snapshot was taken at 2m0s of the original run (2026-01-01T00:02:00Z), at or after its horizon (2m0s)"
mkdir "$tmp/short-1m"
cp "$tmp/short/scn.yaml" "$tmp/at1m.yaml" "$tmp/short-1m/"
expect_rc "compare --horizon at the snapshot is refused: it counts from the original run's start" 2 "$SIM" compare -q -n 2 --horizon 1m "$tmp/short-1m" "$tmp/short-1m"
contains "... as run says" "$tmp/err" "magos-sim compare: --horizon 1m0s ends at or before the snapshot this run resumes from (taken at 1m0s of the original run, 2026-01-01T00:01:00Z)"
expect_rc "compare --horizon 3m of a snapshot taken at 1m" 0 "$SIM" compare -q -n 4 --until horizon --json "$tmp/c3m.json" --horizon 3m "$tmp/short-1m" "$tmp/short-1m"
check "... runs the 2m left of it, as run --horizon 3m does" grep -q '"horizon_ms": 120000,' "$tmp/c3m.json"
# --- a source's gcAt and the rollback store's windows stay on the original clock ---
mkdir "$tmp/gc"
cat >"$tmp/gc/objs.yaml" <<'YAML'
apiVersion: v1
kind: Namespace
metadata: {name: envtest}
---
apiVersion: stages.metio.wtf/v1
kind: StageSet
metadata: {name: a, namespace: envtest, labels: {t: a}}
spec:
  interval: 10m
  rollbackOnFailure: true
  stages: [{name: stage-a, sourceRef: {name: ea}}]
YAML
for m in gc store; do
	case $m in
	gc) source='gcAt: 4m' store='' ;;
	store) source='' store='rollbackStore: {getErrors: [{from: 5m, until: 6m}]}' ;;
	esac
	cat >"$tmp/gc/$m.yaml" <<YAML
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: gc-$m}
spec:
  seed: 1
  horizon: 10m
  models:
    stagesets:
      readiness: {delay: 0s}
      rules: [{selector: {matchLabels: {t: a}}, apply: {failure: {during: [{from: 5m}], message: bad}}}]
      $store
    sources: [{kind: ExternalArtifact, namespace: envtest, name: ea, $source}]
  events:
    - at: 5m
      publish: {selector: {matchLabels: {t: a}}, version: "2.0.0"}
YAML
done
# gcAt 4m: the rollback at 5m2s finds the previous revision collected
expect_rc "gcAt: the whole run" 0 "$SIM" run --timeline all "$tmp/gc/gc.yaml" "$tmp/gc/objs.yaml"
check "... cannot roll back at 5m2s" grep -qE "^ *5m2s +StageSet envtest/a +status +PreviousRevisionUnavailable" "$tmp/out"
expect_rc "gcAt: a snapshot at 3m" 0 "$SIM" run -q "$tmp/gc/gc.yaml" "$tmp/gc/objs.yaml" --snapshot 3m "$tmp/gc/gc-3m.yaml"
expect_rc "gcAt: the run resumed from it" 0 "$SIM" run --timeline all "$tmp/gc/gc.yaml" "$tmp/gc/gc-3m.yaml"
check "... cannot roll back at 2m2s after the snapshot (5m2s), not 3m later" grep -qE "^ *2m2s +StageSet envtest/a +status +PreviousRevisionUnavailable" "$tmp/out"
# getErrors from 5m: the first Get fails at 5m1s
expect_rc "rollbackStore windows: the whole run" 0 "$SIM" run --timeline all "$tmp/gc/store.yaml" "$tmp/gc/objs.yaml"
check "... the store's Get fails at 5m1s" grep -qE "^ *5m1s +StageSet envtest/a +event +Warning · RollbackStoreFailed" "$tmp/out"
expect_rc "rollbackStore windows: a snapshot at 3m" 0 "$SIM" run -q "$tmp/gc/store.yaml" "$tmp/gc/objs.yaml" --snapshot 3m "$tmp/gc/store-3m.yaml"
expect_rc "rollbackStore windows: the run resumed from it" 0 "$SIM" run --timeline all "$tmp/gc/store.yaml" "$tmp/gc/store-3m.yaml"
check "... fails at 2m1s after the snapshot (5m1s), not 3m later" grep -qE "^ *2m1s +StageSet envtest/a +event +Warning · RollbackStoreFailed" "$tmp/out"
finish
