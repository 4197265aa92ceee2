#!/bin/sh
# What a run resumed from a snapshot of the simulator reports: the notices
# of the uninterrupted run (who granted a Workspace, a revision absorbed
# mid-run, resets from Applying, the blast radius of a halt), from the
# history the snapshot carries (state.magos-sim.io/observer); under -n, the
# remaining time as wall-clock bounds that hold every trial's end; a
# snapshot already complete said to be so and left out of the time to
# complete (text, JSON, HTML, sharded and merged).
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim
jq_true() {
	if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$2" "$3"; then
		ok "$1"
	else bad "$1"; fi
}

# --- the notices of a resumed run are the uninterrupted run's ---
# Constant Job durations, so that the resumed run continues exactly; the
# times in a resumed run's notices count from its start (the snapshot), so
# each "at DURATION" is compared on the original clock.  The example
# commit-mid-rollout with constant durations: staging absorbs the commit of
# 8m (spec §7 #17).
sed -e 's/duration: {lognormal: {median: 1m, p95: 3m}}/duration: 4m/' \
	-e 's/duration: {uniform: {min: 2m, max: 4m}}/duration: 3m/' \
	-e 's/{duration: {lognormal: {median: 3m, p95: 6m}}}/{duration: 3m}/' \
	-e 's/{duration: {gamma: {mean: 10m, sd: 3m}}}/{duration: 10m}/' \
	scenarios/commit-mid-rollout.yaml >"$tmp/commit-constant.yaml"
pyfacts "$SIM" "$tmp" <<'PY'
import os, sys
from facts import check
from resume_facts import on_original_clock, run_json, scenario_only, snapshot
sim, tmp = sys.argv[1], sys.argv[2]
def warnings(args):
    d, err = run_json(sim, tmp + '/n.json', args)
    return [err] if err else [n['text'] for n in d['notices'] if n['severity'] != 'info']
def resumed(src, t, strip=False):
    text, now = snapshot(sim, src, t, tmp + '/s.yaml')
    if strip:
        text = ''.join(l for l in text.splitlines(True) if 'state.magos-sim.io/observer' not in l)
        open(tmp + '/s.yaml', 'w').write(text)
    scenario_only(src, tmp + '/scn.yaml')
    return [on_original_clock(x, t) for x in warnings(['--now', now, tmp + '/scn.yaml', tmp + '/s.yaml'])]
cases = [
    ('tests/hazards/handoff-unselected.yaml', 'selected by no step', (1000, 30000, 120000, 600000)),
    ('tests/hazards/handoff-later-step.yaml', 'started planning at', (1000, 120000, 400000, 700000, 1200000, 2100000)),
    ('tests/hazards/revision-absorbed.yaml', 'recorded it as status.observedRevision', (1000, 120000, 300000, 700000)),
    (tmp + '/commit-constant.yaml', 'recorded it as status.observedRevision', (60000, 300000, 490000, 500000, 1500000)),
]
for src, notice, ts in cases:
    name = os.path.basename(src)
    whole = [on_original_clock(x, 0) for x in warnings([src])]
    check("%s: the whole run tells it (%s)" % (name, notice), any(notice in x for x in whole), whole)
    differ = [(t, got) for t in ts for got in [resumed(src, t)] if got != whole]
    check("%s: resumed at %s ms, every warning is the whole run's, at the same instants" % (name, ', '.join(map(str, ts))),
          not differ, differ[:1] + [whole])
# without the observer's state the resumed run cannot tell the history
plain = resumed('tests/hazards/handoff-unselected.yaml', 120000, strip=True)
check("a plain export of handoff-unselected at 2m knows no grant before it",
      any('never granted: ws-prod' in x for x in plain), plain)
plain = resumed('tests/hazards/revision-absorbed.yaml', 700000, strip=True)
check("a plain export of revision-absorbed at 11m40s knows no revision absorbed before it",
      not any('recorded it as status.observedRevision' in x for x in plain), plain)
PY
# the state as a snapshot writes it, and refused when it is not
"$SIM" run -q --until horizon --snapshot 2m "$tmp/hu.yaml" tests/hazards/handoff-unselected.yaml >/dev/null
contains "a Workspace's state says when it was granted, planned and applied" "$tmp/hu.yaml" \
	"state.magos-sim.io/observer: granted=2026-01-01T00:00:00Z planning=2026-01-01T00:00:00Z applying="
contains "a Rollout's says when it was created and when its steps opened and completed" "$tmp/hu.yaml" \
	"state.magos-sim.io/observer: created=2026-01-01T00:00:01Z completed="
sed 's|state.magos-sim.io/observer: granted=|state.magos-sim.io/observer: bogus=1 granted=|' "$tmp/hu.yaml" >"$tmp/bad.yaml"
expect_rc "an unknown key in the observer's state is refused" 3 "$SIM" run -q --now 2026-01-01T00:02:00Z "$tmp/bad.yaml"
contains "the error names the object, the key and where to read" "$tmp/err" \
	"annotation state.magos-sim.io/observer is not the observer's state: 'bogus' is no key of a Workspace's (scenarios/README.md, \`status\` snapshots)"
sed 's|state.magos-sim.io/observer: granted=2026-01-01T00:00:00Z|state.magos-sim.io/observer: granted=yesterday|' "$tmp/hu.yaml" >"$tmp/bad.yaml"
expect_rc "a time that is none is refused" 3 "$SIM" run -q --now 2026-01-01T00:02:00Z "$tmp/bad.yaml"
contains "the error names the key" "$tmp/err" "not the observer's state: a bad value of 'granted'"
sed 's|steps=\([^ ]*\)|steps=\1,-/-|' "$tmp/hu.yaml" >"$tmp/bad.yaml"
expect_rc "steps that are not the Rollout's are refused" 3 "$SIM" run -q --now 2026-01-01T00:02:00Z "$tmp/bad.yaml"
contains "the error counts both" "$tmp/err" "'steps' gives 2 steps, spec.strategy.steps has 1"
check "the error is at the object's place" grep -q "bad.yaml:[0-9]*:[0-9]*: error: Rollout \"default/shop\"" "$tmp/err"

# --- a FleetRollout loaded Halted: its first halt predates the run ---
# fleet-gate-halt halts at 21m1s; resumed at 30m the FleetRollout is still
# Halted, and the run's first halting pass (at 1s) continues that halt: its
# blast radius is not known, as the summary's halt is before the start, not
# that of a later pass.
"$SIM" run --color never --json "$tmp/fg-whole.json" scenarios/fleet-gate-halt.yaml >"$tmp/fg-whole.txt" 2>/dev/null
"$SIM" run -q --snapshot 30m "$tmp/fg30-sim.yaml" scenarios/fleet-gate-halt.yaml >/dev/null
# a plain export: without the observer's state the run that halted is not known
grep -v 'state.magos-sim.io/observer' "$tmp/fg30-sim.yaml" >"$tmp/fg30.yaml"
pyfacts scenarios/fleet-gate-halt.yaml "$tmp/fg-scn.yaml" <<'PY'
import sys
from resume_facts import scenario_only
scenario_only(sys.argv[1], sys.argv[2], drop_generate=True)
PY
"$SIM" run -q --now 2026-03-02T08:30:00Z --json "$tmp/fg.json" --html "$tmp/fg.html" "$tmp/fg-scn.yaml" "$tmp/fg30.yaml" >"$tmp/fg.txt" 2>&1
contains "resumed Halted, the fleet's halt is before the start" "$tmp/fg.txt" "halted    yes, before the start: FleetRollout moodle (Halted)"
contains "its blast radius is not known, not that of the run's first halting pass" "$tmp/fg.txt" \
	"blast     not known: FleetRollout moodle was loaded Halted, the halt predates"
contains "HTML says so" "$tmp/fg.html" "The FleetRollout was Halted when loaded: the halt predates the run."
pyfacts "$tmp/fg-whole.json" "$tmp/fg.json" <<'PY'
import json, sys
from facts import check
whole = json.load(open(sys.argv[1]))['summary']
res = json.load(open(sys.argv[2]))['summary']
check("the whole run halts at 21m1s, before the snapshot, with a blast radius",
      whole['halt']['t_ms'] == 1261000 and whole['fleets'][0]['blast_radius']['count'] == 1, whole['halt'])
check("JSON: resumed, the halt is before_start and the fleet's blast radius null",
      res['halt']['before_start'] is True and res['fleets'][0]['blast_radius'] is None
      and res['fleets'][0]['detection_latency_ms'] is None, (res['halt'], res['fleets'][0]['blast_radius']))
PY

# --- a halt after the snapshot: the exposure of a member already on the bad version ---
# Resumed at 20m, the canary member took 4.6.0 at 11m1s, before the
# snapshot, which does not carry that time: its exposure counts from the
# start, and the summary says the figure is cut there rather than giving
# it as the whole exposure (the uninterrupted run's is 600000).
"$SIM" run -q --snapshot 20m "$tmp/fg20.yaml" scenarios/fleet-gate-halt.yaml >/dev/null
"$SIM" run --no-color --json "$tmp/fg20.json" "$tmp/fg20.yaml" "$tmp/fg-scn.yaml" >"$tmp/fg20.txt" 2>&1
contains "resumed before the halt: the exposure says it is cut at the start" "$tmp/fg20.txt" \
	"cut at the run's start for the 1 on it then: the"
pyfacts "$tmp/fg-whole.json" "$tmp/fg20.json" <<'PY'
import json, sys
from facts import check
whole = json.load(open(sys.argv[1]))['summary']['fleets'][0]
res = json.load(open(sys.argv[2]))['summary']['fleets'][0]
check("the whole run's exposure is whole", whole['exposure_member_ms'] == 600000
      and whole['exposure_cut_members'] == 0, whole)
check("JSON: resumed, the member on the bad version at the start is counted as cut",
      res['exposure_cut_members'] == 1 and res['exposure_member_ms'] < whole['exposure_member_ms'],
      (res['exposure_member_ms'], res['exposure_cut_members']))
PY

# --- the fleet's history: halts, their blast radius, the waves' first settles ---
# A snapshot of the simulator carries them (state.magos-sim.io/observer on
# the FleetRollout): resumed, the summary's halt is the whole run's, before
# the start, with the blast radius the halting run measured, and every
# warning from the snapshot on is the whole run's (those of halting passes
# before it are the past's).  fleet-member-regression's soak restart
# is told with the wave's first settle at 11m1s, not at the snapshot.
pyfacts "$SIM" "$tmp" <<'PY'
import sys
from facts import check
from resume_facts import on_original_clock as shifted, run_json, scenario_only, snapshot
sim, tmp = sys.argv[1], sys.argv[2]
def run(args):
    d, err = run_json(sim, tmp + '/f.json', args)
    if err:
        return None, [(0, err)]
    return d['summary'], [(n['t_ms'], n['text']) for n in d['notices'] if n['severity'] != 'info']
def halt(summary, shift):
    h = summary['halt']
    return h and (h['t_ms'] + shift, h['name'], h['reason'], h['message'])
def blast(summary):
    b = summary['fleets'][0]['blast_radius']
    return b and (b['count'], b['total'], b['members'], b['by_wave'])
for src, ts, notice in [('scenarios/fleet-gate-halt.yaml', (600000, 1800000, 2400000, 3000000), None),
                        ('scenarios/fleet-member-regression.yaml', (300000, 1200000, 2400000, 3600000),
                         'the wave first settled at <661000 ms>')]:
    name = src.split('/')[-1]
    wsum, whole = run([src])
    whole = [(t, shifted(x, 0)) for t, x in whole]
    if notice:
        check("%s: the whole run tells it (%s)" % (name, notice), any(notice in x for _, x in whole), whole)
    differ, halts, blasts = [], [], []
    for t in ts:
        _, now = snapshot(sim, src, t, tmp + '/fs.yaml')
        scenario_only(src, tmp + '/fscn.yaml', drop_generate=True)
        rsum, got = run(['--now', now, tmp + '/fscn.yaml', tmp + '/fs.yaml'])
        got = [shifted(x, t) for _, x in got]
        want = [x for tt, x in whole if tt >= t]
        if got != want:
            differ.append((t, [x for x in got if x not in want][:1], [x for x in want if x not in got][:1]))
        if halt(rsum, t) != halt(wsum, 0):
            halts.append((t, rsum['halt']))
        if wsum['halt'] and wsum['halt']['t_ms'] < t and blast(rsum) != blast(wsum):
            blasts.append((t, blast(rsum)))
    check("%s: resumed at %s ms, every warning from the snapshot on is the whole run's" % (name, ', '.join(map(str, ts))),
          not differ, differ[:1])
    check("%s: resumed, the summary's halt is the whole run's, on the original clock" % name,
          not halts, halts[:1] + [wsum['halt']])
    check("%s: resumed after the halt, its blast radius is the one the halting run measured" % name,
          not blasts, blasts[:1] + [blast(wsum)])
PY
"$SIM" run -q --now 2026-03-02T08:30:00Z "$tmp/fg-scn.yaml" "$tmp/fg30-sim.yaml" >"$tmp/fgs.txt" 2>&1
contains "resumed from the simulator's snapshot, the text says the fleet halted before the start, and when" "$tmp/fgs.txt" \
	"halted    yes, 8m59s before the start: FleetRollout moodle (Halted)"
lacks "... and gives the blast radius, not 'not known'" "$tmp/fgs.txt" "blast     not known"
contains "... the one the halting run measured, at the halt's time on this run's clock" "$tmp/fgs.txt" \
	"blast     1 of 12 members (8.3%) of FleetRollout moodle had adopted 4.6.0 by the"
contains "... with its exposure" "$tmp/fgs.txt" "exposure  10.0 member-minutes on 4.6.0 before the halt"
"$SIM" run -q --width 200 --now 2026-03-02T08:30:00Z "$tmp/fg-scn.yaml" "$tmp/fg30-sim.yaml" >"$tmp/fgs-wide.txt" 2>&1
contains "... counted to the halt, said as a while before the snapshot" "$tmp/fgs-wide.txt" \
	"(each blast member from its adoption to the halt, 8m59s before the snapshot); after the halt:"
lacks "... not as a negative time" "$tmp/fgs-wide.txt" "adoption to -8m59s"
contains "the blast radius is counted to the halt, said as a while before the snapshot too" "$tmp/fgs-wide.txt" \
	"had adopted 4.6.0 by the halt, 8m59s before the snapshot; by wave: canary 1/1"
lacks "... not as a negative time" "$tmp/fgs-wide.txt" "by the halt at -"
# Both engines: the FleetRollout's halt carried from before the snapshot is
# the run's first, though a Rollout (magos-halt-before-prod's objects, its
# staging apply failing after the snapshot) halts in the run.  The JSON
# summary gives the halt the text gives, with no Rollout's step or blast
# radius beside it; the Rollout's own halt stays under summary.rollouts.
pyfacts "$tmp" <<'PY'
import sys, yaml
tmp = sys.argv[1]
docs = [d for d in yaml.safe_load_all(open('scenarios/ci/magos-halt-before-prod.yaml')) if d]
yaml.safe_dump_all([d for d in docs if d['kind'] != 'Scenario'], open(tmp + '/magos-objs.yaml', 'w'))
scn = yaml.safe_load(open(tmp + '/fg-scn.yaml'))
scn['spec']['events'].append({'at': '31m', 'failNext': {'name': 'shop-staging', 'job': 'apply'}})
scn['spec']['models']['jobs'] = [d for d in docs if d['kind'] == 'Scenario'][0]['spec']['models']['jobs']
yaml.safe_dump(scn, open(tmp + '/mixed-scn.yaml', 'w'))
PY
"$SIM" run -q --width 200 --now 2026-03-02T08:30:00Z --json "$tmp/mixed.json" "$tmp/mixed-scn.yaml" "$tmp/fg30-sim.yaml" "$tmp/magos-objs.yaml" >"$tmp/mixed.txt" 2>&1
contains "both engines: the text's first halt is the FleetRollout's, before the start" "$tmp/mixed.txt" \
	"halted    yes, 8m59s before the start: FleetRollout moodle (Halted)"
contains "... while the Rollout halts in the run" "$tmp/mixed.txt" "default/shop halted in step staging: shop-dev, shop-staging"
pyfacts "$tmp/mixed.json" <<'PY'
import json, sys
from facts import check
s = json.load(open(sys.argv[1]))['summary']
h = s['halt']
check("JSON: the summary's halt is the FleetRollout's, as the text says",
      h and (h['kind'], h['name'], h['t_ms'], h['before_start']) == ('FleetRollout', 'moodle', -539000, True), h)
check("JSON: with no Rollout's step or blast radius beside it",
      h and h['step'] is None and s['blast_radius'] is None, (h and h['step'], s['blast_radius']))
r = s['rollouts'][0]
check("JSON: the Rollout's halt in the run is its own, with its step and blast radius",
      r['halt'] and r['halt']['step'] == 'staging' and r['halt']['t_ms'] > 0
      and r['blast_radius'] == {'count': 2, 'total': 3, 'names': ['shop-dev', 'shop-staging']},
      (r['halt'], r['blast_radius']))
PY
for k in 1 2; do
	"$SIM" run -q -n 2 --shard "$k/2" --json "$tmp/fgs$k.json" --now 2026-03-02T08:30:00Z "$tmp/fg-scn.yaml" "$tmp/fg30-sim.yaml" >/dev/null 2>&1
done
expect_rc "the shards of run -n from it merge (a trial's halt before its start counts at 0)" 0 "$SIM" merge "$tmp/fgs1.json" "$tmp/fgs2.json"
# The gate's value of a halt before the snapshot: the reading is the past
# run's, the halt message carries it to 4 significant digits (Go's %.4g).
contains "the whole run gives the gate's value as read" "$tmp/fg-whole.txt" "the gate read 0.052347, threshold max \"0.01\""
for f in fgs fg; do
	contains "$f: resumed, the text gives the value the halt message carries" "$tmp/$f.txt" \
		"the gate read 0.05235, as the halt message gives it (4 significant"
done
"$SIM" run -q --now 2026-03-02T08:30:00Z --json "$tmp/fgs.json" "$tmp/fg-scn.yaml" "$tmp/fg30-sim.yaml" >/dev/null 2>&1
pyfacts "$tmp/fg-whole.json" "$tmp/fgs.json" "$tmp/fg.json" <<'PY'
import json, sys
from facts import check
whole, res, plain = (json.load(open(f))['summary']['halt'] for f in sys.argv[1:4])
check("JSON: the whole run's gate_value is the reading in full", whole['gate_value'] == 0.052347, whole['gate_value'])
check("JSON: resumed (simulator's and plain snapshot), gate_value is the message's 0.05235",
      res['gate_value'] == 0.05235 and plain['gate_value'] == 0.05235, (res['gate_value'], plain['gate_value']))
PY
contains "the FleetRollout's state carries the waves, the halts and the blast radius" "$tmp/fg30-sim.yaml" \
	"state.magos-sim.io/observer: waves=canary/2026-03-02T08:00:00Z/2026-03-02T08:11:01Z/2026-03-02T08:11:01Z/1/-,"
contains "... a halt's message escaped within its field" "$tmp/fg30-sim.yaml" \
	'halts=2026-03-02T08:21:01Z/2026-03-02T08:29:31Z/19/gate/canary/4.6.0/wave%2520"canary"%2520failed'
sed 's|/19/gate/canary/|/19/gates/canary/|' "$tmp/fg30-sim.yaml" >"$tmp/bad.yaml"
expect_rc "a halt of a kind that is none is refused" 3 "$SIM" run -q --now 2026-03-02T08:30:00Z "$tmp/fg-scn.yaml" "$tmp/bad.yaml"
contains "the error names the FleetRollout and the key" "$tmp/err" \
	"FleetRollout \"moodle\": annotation state.magos-sim.io/observer is not the observer's state: a bad value of 'halts'"
check "the error is at the object's place" grep -q "bad.yaml:[0-9]*:[0-9]*: error: FleetRollout \"moodle\"" "$tmp/err"
sed 's|,broad/-/-/-/0/-,|,broad/-/-/-/0,|' "$tmp/fg30-sim.yaml" >"$tmp/bad.yaml"
expect_rc "a wave with a field missing is refused" 3 "$SIM" run -q --now 2026-03-02T08:30:00Z "$tmp/fg-scn.yaml" "$tmp/bad.yaml"
contains "the error names the key" "$tmp/err" "a bad value of 'waves'"
sed 's|blastTotal=12|blastTotal=twelve|' "$tmp/fg30-sim.yaml" >"$tmp/bad.yaml"
expect_rc "a count that is none is refused" 3 "$SIM" run -q --now 2026-03-02T08:30:00Z "$tmp/fg-scn.yaml" "$tmp/bad.yaml"
contains "the error names it" "$tmp/err" "a bad value of 'blastTotal'"

# checkout with Jobs of a narrow spread: resumed at 1m, the trials end
# within one minute of each other, a few seconds apart.
mkdir "$tmp/co"
cp scenarios/checkout/*.yaml "$tmp/co/"
cat >"$tmp/spread.yaml" <<'YAML'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: checkout-spread}
spec:
  models:
    jobs:
      plan: {duration: {uniform: {min: 10s, max: 12s}}}
      apply: {duration: {uniform: {min: 20s, max: 23s}}}
YAML
cp "$tmp/spread.yaml" "$tmp/co/"
"$SIM" run -q --snapshot 1m "$tmp/s60.yaml" "$tmp/co" >/dev/null

# --- -n: "done between" holds the fastest and the slowest trial ---
"$SIM" run -n 40 --now 2026-01-01T00:01:00Z "$tmp/spread.yaml" "$tmp/s60.yaml" >"$tmp/n40.txt" 2>&1
"$SIM" run -n 40 --now 2026-01-01T00:01:00Z --json "$tmp/n40.json" "$tmp/spread.yaml" "$tmp/s60.yaml" >/dev/null 2>&1
pyfacts "$tmp/n40.txt" "$tmp/n40.json" <<'PY'
import datetime, json, re, sys
from facts import check
text = open(sys.argv[1]).read()
ends = sorted(t['ttc_ms'] for t in json.load(open(sys.argv[2]))['trials'] if t['completed'])
start = datetime.datetime(2026, 1, 1, 0, 1, tzinfo=datetime.timezone.utc)
def at(ms):
    return start + datetime.timedelta(milliseconds=ms)
def parse(s):
    return datetime.datetime.strptime(s, '%Y-%m-%d %H:%M:%S').replace(tzinfo=datetime.timezone.utc)
check("the trials end within one minute of each other, not on whole seconds",
      ends and ends[-1] - ends[0] < 60000 and ends[-1] % 1000 != 0, ends[:1] + ends[-1:])
m = re.search(r'^  done between (\S+ \S+) UTC and (\S+ \S+) UTC$', text, re.M)
check("a spread under 10 minutes gives the bounds in seconds", m is not None, text[:800])
if m:
    lo, hi = parse(m.group(1)), parse(m.group(2))
    check("the lower bound is the fastest trial's end rounded down",
          lo <= at(ends[0]) and at(ends[0]) - lo < datetime.timedelta(seconds=1), (m.group(1), at(ends[0])))
    check("the upper bound is the slowest trial's end rounded up, not below it",
          hi >= at(ends[-1]) and hi - at(ends[-1]) < datetime.timedelta(seconds=1), (m.group(2), at(ends[-1])))
    pcs = re.findall(r'p(?:50|90|95|99) (\S+ \S+) UTC', text)
    check("the four percentiles are in seconds, inside the bounds",
          len(pcs) == 4 and all(lo <= parse(p) <= hi for p in pcs), pcs)
PY
# the snapshot example, 200 trials over 20 minutes: whole minutes, the last
# trial's end (14:27:05) rounded up
"$SIM" run -n 200 --now 2026-11-30T14:02:07Z scenarios/snapshot-shop-network.yaml >"$tmp/shop.txt" 2>&1
has_line "a spread of 10 minutes or more gives minutes, the upper bound rounded up" "$tmp/shop.txt" \
	"  done between 2026-11-30 14:06 UTC and 2026-11-30 14:28 UTC"

# --- -n: the wall-clock lines whenever the start is an instant the user gave ---
# spec.start written is as real a start as --now or a snapshot's latest
# timestamp; only the default start (no time in the inputs) has none.
"$SIM" run -n 20 scenarios/three-environments.yaml >"$tmp/start.txt" 2>&1
has_line "spec.start written (09:00): the time to complete as UTC bounds" "$tmp/start.txt" \
	"  done between 2026-03-02 09:18 UTC and 2026-03-02 09:31 UTC"
contains "... and the percentiles as UTC times" "$tmp/start.txt" "  p50 2026-03-02 09:22 UTC, p90 2026-03-02 09:26 UTC"
lacks "spec.start is the scenario's own clock: no 'clock starts' line" "$tmp/start.txt" "clock starts"
"$SIM" run -n 20 --now 2026-03-02T10:00:00Z scenarios/three-environments.yaml >"$tmp/now.txt" 2>&1
has_line "--now moves the bounds with it" "$tmp/now.txt" \
	"  done between 2026-03-02 10:18 UTC and 2026-03-02 10:31 UTC"
"$SIM" run -n 20 tests/hazards/handoff-unselected.yaml >"$tmp/default.txt" 2>&1
contains "the default start gives the time to complete" "$tmp/default.txt" "Time to complete (20 trials)"
lacks "... but no wall-clock time of a start nobody gave" "$tmp/default.txt" "done between"
lacks "... nor percentiles in UTC" "$tmp/default.txt" " UTC"

# --- -n on a snapshot already complete: said so, no time to complete ---
"$SIM" run -q --snapshot 31m "$tmp/te31.yaml" scenarios/three-environments.yaml >/dev/null
pyfacts scenarios/three-environments.yaml "$tmp/te-scn.yaml" <<'PY'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d.get('kind') == 'Scenario']
yaml.safe_dump_all(docs, open(sys.argv[2], 'w'))
PY
te() { "$SIM" run --now 2026-03-02T09:31:00Z "$@" "$tmp/te-scn.yaml" "$tmp/te31.yaml"; }
te -q >"$tmp/te1.txt" 2>&1
contains "the single run says it is complete already" "$tmp/te1.txt" "completed already: every Rollout/FleetRollout was complete when"
te -n 8 --json "$tmp/te8.json" --html "$tmp/te8.html" >"$tmp/te8.txt" 2>&1
has_line "-n says how many trials were complete at the start" "$tmp/te8.txt" \
	"already    8 of 8 trials: every Rollout/FleetRollout was complete when the"
has_line "... and that there is no time to complete, instead of an empty table" "$tmp/te8.txt" \
	"Time to complete: none, every trial was complete when it started"
lacks "no wall-clock range of a time there is not" "$tmp/te8.txt" "done between"
lacks "no step durations of 0s: the steps were done before the run" "$tmp/te8.txt" "Steps and waves"
pyfacts "$tmp/te8.json" docs/schemas/trials-v1.schema.json <<'PY'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
st, rows = d['statistics'], d['trials']
check("JSON: the statistics count 8 already complete, none in the time to complete",
      st['already_complete'] == 8 and st['nothing_to_complete'] == 0 and st['ttc']['n'] == 0
      and st['complete']['k'] == 8, (st['already_complete'], st['ttc']))
check("JSON: each trial completed, already_complete, with no ttc_ms",
      all(r['completed'] and r['already_complete'] and not r['nothing_to_complete']
          and r['ttc_ms'] is None for r in rows), rows[0])
check("JSON: no step durations", st['phases'] == [], st['phases'])
try:
    import jsonschema
except ImportError:
    jsonschema = None
if jsonschema:
    errs = list(jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).iter_errors(d))
    check("JSON: valid against docs/schemas/trials-v1.schema.json", not errs, [e.message for e in errs[:2]])
PY
contains "HTML: the statistics say the trials were already complete" "$tmp/te8.html" \
	"8 of 8 trials already complete: every Rollout/FleetRollout was complete when the run started"
contains "HTML: the chart draws no curve of a time there is not, and says why" "$tmp/te8.html" \
	"no time to complete: every trial was complete when it started"
lacks "HTML: not drawn as trials censored at the horizon" "$tmp/te8.html" 'class="cens-dot'

# sharded and merged: a partial carries the flag, and the merge counts them
te -q -n 8 --shard 1/2 --json "$tmp/p1.json" >/dev/null 2>&1
te -q -n 8 --shard 2/2 --json "$tmp/p2.json" >/dev/null 2>&1
expect_rc "the shards of an already complete snapshot merge" 0 "$SIM" merge --json "$tmp/m.json" "$tmp/p1.json" "$tmp/p2.json"
has_line "the merged report says so as the unsharded one does" "$tmp/out" \
	"already    8 of 8 trials: every Rollout/FleetRollout was complete when the"
jq_true "the merged JSON counts them as the unsharded one does" "$tmp/m.json" \
	'd["statistics"]["already_complete"] == 8 and d["statistics"]["ttc"]["n"] == 0'
sed 's/"already_complete":true/"already_complete":true,"nothing_to_complete":true/' "$tmp/p1.json" >"$tmp/p1-bad.json"
expect_rc "a partial row with two reasons for no time is refused" 3 "$SIM" merge "$tmp/p1-bad.json" "$tmp/p2.json"
contains "the error names the row and the fields" "$tmp/err" "row 0: 'already_complete' is true but 'completed' is true and 'ttc_ms' -1"
# --- a halt after the snapshot whose fault began before it ---
# fleet-member-regression: tenant-00's workload regresses at 25m, its
# StageSet shows it and the fleet halts at 30m41.843s.  Resumed at 28m, the
# regression window is open since before the start, when what the member
# ran is not in the snapshot: no latency is claimed (not 0s from the
# not-Ready at 2m41.843s).  A member loaded not Ready is dated by its Ready
# condition's lastTransitionTime.
"$SIM" run -q --snapshot 28m "$tmp/fm28.yaml" scenarios/fleet-member-regression.yaml >/dev/null
pyfacts scenarios/fleet-member-regression.yaml "$tmp" <<'PY'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d.get('kind') == 'Scenario']
for d in docs:
    d['spec'].pop('generate', None)
yaml.safe_dump_all(docs, open(sys.argv[2] + '/fm-scn.yaml', 'w'))
for d in docs:
    d['spec']['events'] = [e for e in d['spec']['events'] if 'regress' not in e]
yaml.safe_dump_all(docs, open(sys.argv[2] + '/fm-noreg.yaml', 'w'))
t = open(sys.argv[2] + '/fm28.yaml').read()
ready = '''    - lastTransitionTime: "2026-03-02T08:01:01Z"
      message: Applied and verified 1 stage(s)
      observedGeneration: 2
      reason: Succeeded
      status: "True"'''
failed = '''    - lastTransitionTime: "2026-03-02T08:27:00Z"
      message: 'stage app: workload not healthy'
      observedGeneration: 2
      reason: VerificationFailed
      status: "False"'''
assert t.count(ready) == 1
open(sys.argv[2] + '/fm28-nr.yaml', 'w').write(t.replace(ready, failed))
PY
"$SIM" run --color never --json "$tmp/fm-whole.json" scenarios/fleet-member-regression.yaml >"$tmp/fm-whole.txt" 2>&1
contains "the whole run counts detection from the regression at 25m" "$tmp/fm-whole.txt" "detection 5m41.843s, from the fault onset at 25m0s"
"$SIM" run --color never --json "$tmp/fmr.json" --snapshot 40m "$tmp/fm40.yaml" "$tmp/fm-scn.yaml" "$tmp/fm28.yaml" >"$tmp/fmr.txt" 2>&1
contains "resumed at 28m, the halt at 2m41.843s of the run has a fault from before the snapshot" "$tmp/fmr.txt" \
	"detection not known: the fault began before the snapshot (a fault window of"
lacks "... and claims no latency from the run's start" "$tmp/fmr.txt" "detection 0s"
contains "its exposure says it counts from the start for a member loaded on the bad version" "$tmp/fmr.txt" "cut at the run's start for the 1 on it"
contains "a later snapshot carries the onset as undated" "$tmp/fm40.yaml" "onsetUndated=yes"
"$SIM" run --color never --json "$tmp/fm40.json" "$tmp/fm-scn.yaml" "$tmp/fm40.yaml" >"$tmp/fm40.txt" 2>&1
contains "... and its resumed run still claims no latency" "$tmp/fm40.txt" "detection not known: the fault began before the snapshot"
"$SIM" run --color never --json "$tmp/fmnr.json" "$tmp/fm-noreg.yaml" "$tmp/fm28-nr.yaml" >"$tmp/fmnr.txt" 2>&1
contains "a member loaded not Ready since 27m: detection from then" "$tmp/fmnr.txt" "detection 1m1s, from the fault onset at -1m0s (tenant-00/moodle went not-Ready,"
pyfacts "$tmp/fm-whole.json" "$tmp/fmr.json" "$tmp/fm40.json" "$tmp/fmnr.json" <<'PY'
import json, sys
from facts import check
w, r, r40, nr = (json.load(open(f))['summary']['fleets'][0] for f in sys.argv[1:5])
check("JSON: the whole run's detection latency is 5m41.843s from a regression window",
      (w['detection_latency_ms'], w['fault_onset_kind']) == (341843, 'regression-window'), w['detection_latency_ms'])
check("JSON: resumed at 28m (and again at 40m), no detection latency; the onset member and kind are given",
      all((x['detection_latency_ms'], x['fault_onset_member'], x['fault_onset_kind']) == (None, 'tenant-00/moodle', 'regression-window') for x in (r, r40)),
      [(x['detection_latency_ms'], x['fault_onset_member'], x['fault_onset_kind']) for x in (r, r40)])
check("JSON: loaded not Ready since 27m, detection latency 61s",
      (nr['detection_latency_ms'], nr['fault_onset_kind']) == (61000, 'not-ready'), (nr['detection_latency_ms'], nr['fault_onset_kind']))
PY
# --- Jobs running when loaded, under a runner capacity ---
# parallel-cohorts: capacity 3, four plan Jobs at 0s, so one waits.  At 30s
# all four have a status.startTime (the runner writes it when it sees a
# Job, before its slot), and the snapshot does not say which one waits:
# each is taken to hold a runner, and the report says so.
"$SIM" run -q --snapshot 30s "$tmp/pc30.yaml" scenarios/parallel-cohorts.yaml >/dev/null
check "at 30s four Jobs are running or waiting, each with a startTime" test "$(grep -c 'clock.magos-sim.io/start-time' "$tmp/pc30.yaml")" -eq 4
pyfacts scenarios/parallel-cohorts.yaml "$tmp/pc-scn.yaml" <<'PY'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d.get('kind') == 'Scenario']
for d in docs:
    d['spec'].pop('generate', None)
    d['spec'].pop('include', None)
yaml.safe_dump_all(docs, open(sys.argv[2], 'w'))
PY
"$SIM" run --color never --json "$tmp/pc.json" "$tmp/pc-scn.yaml" "$tmp/pc30.yaml" >"$tmp/pc.txt" 2>&1
contains "the report says the Jobs running when loaded hold a runner from startTime" "$tmp/pc.txt" \
	"and 4 Jobs running when loaded, each taken to hold a runner from its"
contains "... that the snapshot does not say which waited" "$tmp/pc.txt" "status.startTime (a snapshot does not say whether its pod waited for"
contains "... and that more Jobs than runners ran at once" "$tmp/pc.txt" "one), so more Jobs than runners ran at once; not counted above"
contains "the count beside it has the 4 over the 3 runners" "$tmp/pc.txt" "jobs      20, at most 4 at once (of 3 runners)"
pyfacts "$tmp/pc.json" <<'PY'
import json, sys
from facts import check
c = json.load(open(sys.argv[1]))['summary']['capacity']
check("JSON: capacity counts the 4 resumed Jobs apart from the 20 the run started",
      (c['resumed_jobs'], c['jobs'], c['peak_running'], c['runners']) == (4, 20, 4, 3), c)
PY

# --- -n and compare of a resumed run: the horizon as written, times on both clocks ---
# three-environments resumed at 10m of its 1h horizon (its Scenario document alone).
mkdir -p "$tmp/res10"
sed -n 1,61p scenarios/three-environments.yaml >"$tmp/res10/scn.yaml"
"$SIM" run -q --snapshot 10m "$tmp/res10/snap.yaml" scenarios/three-environments.yaml >/dev/null
"$SIM" run --no-color -n 20 --json "$tmp/res10-tr.json" "$tmp/res10/" >"$tmp/res10-tr.txt" 2>&1
contains "-n: the horizon as written, with what is left of it" "$tmp/res10-tr.txt" \
	"three-environments: 20 trials from seed 7, horizon 1h (50m00s left)"
has_line "-n: the time to complete says it counts from the snapshot" "$tmp/res10-tr.txt" \
	"Time to complete after the snapshot (20 trials)"
has_line "-n: ... and gives the percentiles from the original start too" "$tmp/res10-tr.txt" \
	"  from the original start:"
has_line "... as check counts them (p50 15m01s after the snapshot)" "$tmp/res10-tr.txt" \
	"  p50 25m01s    p90 29m44s    p95 30m10s    p99 31m21s"
"$SIM" run --no-color -n 20 --horizon 15m "$tmp/res10/" >"$tmp/res10-cut.txt" 2>&1
contains "-n --horizon 15m: the header on the original clock" "$tmp/res10-cut.txt" \
	"horizon 15m00s (5m00s left)"
has_line "-n: 'not done by' on check's clock, and after the snapshot" "$tmp/res10-cut.txt" \
	"  not done by 15m00s from the original start, 5m00s after the snapshot)"
has_line "-n: censored percentiles from the original start" "$tmp/res10-cut.txt" \
	"  p50 > 15m00s  p90 > 15m00s  p95 > 15m00s  p99 > 15m00s"
"$SIM" compare --no-color -n 20 --json "$tmp/res10-cmp.json" "$tmp/res10/" "$tmp/res10/" >"$tmp/res10-cmp.txt" 2>&1
contains "compare: the horizon as written, with what is left of it" "$tmp/res10-cmp.txt" \
	"20 trials each on common random numbers, seed 7, horizon 1h (50m00s left;"
"$SIM" run --no-color --json "$tmp/res10-one.json" "$tmp/res10/" >"$tmp/res10-one.txt" 2>&1
has_line "one run: the time to complete after the snapshot ..." "$tmp/res10-one.txt" \
	"completed yes, time to complete 20m5.716s after the snapshot,"
has_line "... and from the original start, as check says it" "$tmp/res10-one.txt" \
	"          30m5.716s from the original start"
"$SIM" run -q --no-color --horizon 20m "$tmp/res10/" >"$tmp/res10-one-cut.txt" 2>&1
has_line "one run cut by the horizon: censored on both clocks" "$tmp/res10-one-cut.txt" \
	"          snapshot, > 20m0s from the original start"
pyfacts "$tmp" <<'PY'
import json, sys
from facts import check
t = sys.argv[1]
tr = json.load(open(t + '/res10-tr.json'))
check("trials JSON: horizon_ms is what is left, resumed_ms the snapshot's time",
      (tr['scenario']['horizon_ms'], tr['scenario']['resumed_ms']) == (3000000, 600000), tr['scenario'])
cmp = json.load(open(t + '/res10-cmp.json'))
check("compare JSON: the same", (cmp['horizon_ms'], cmp['resumed_ms']) == (3000000, 600000))
one = json.load(open(t + '/res10-one.json'))
check("run JSON: time_to_complete_ms after the snapshot, resumed_ms to add for check's",
      (one['summary']['time_to_complete_ms'], one['scenario']['resumed_ms']) == (1205716, 600000))
PY
finish
