#!/bin/sh
# A run from a cluster's snapshot and a snapshot out of a run: the Jobs of a
# snapshot as the Workspace controller and the Job runner see them (history
# and in flight), `run --snapshot T FILE` resumed at every T continuing
# exactly as the run it came from, `run --at T` as kubectl shows the objects,
# scenario events on the Jobs and PVCs the controller creates, and the
# ownerReferences deletion follows.
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim

# checkout with its Workspaces pinned to a commit, and as it is (on a
# branch, main): the snapshot carries the RefWatcher's registry (the SHA it
# last saw, its pending polls), so a resumed run does not take the branch
# name in observedRevision for a new revision, as a restarted RefWatcher
# does (spec §7 #18; a plain kubectl snapshot resumes that way).
mkdir "$tmp/co" "$tmp/co-main"
cp scenarios/checkout/*.yaml "$tmp/co/"
cp scenarios/checkout/*.yaml "$tmp/co-main/"
sed -i 's/targetRevision: main/targetRevision: 4b825dc642cb6eb9a060e54bf8d69288fbee4904/' "$tmp/co/workspaces.yaml"

# --- resuming from every T gives the remaining timeline of the whole run ---
pyfacts "$SIM" "$tmp" <<'PY'
import json, subprocess, sys, datetime
from facts import check
sim, tmp = sys.argv[1], sys.argv[2]
def events(args):
    p = subprocess.run([sim, 'run', '--events', '-'] + args, capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL run", args, p.stderr[:400]); sys.exit(0)
    return [json.loads(l) for l in p.stdout.splitlines()]
def key(e):
    # a status write lists the keys it changed in the stored map's order,
    # which a snapshot (keys sorted, as kubectl prints them) does not keep
    detail = sorted(x.split(': ')[-1] for x in (e['detail'] or '').split(', '))
    return (e['time'], e['kind'], e['namespace'], e['name'], e['change'], e['phase'],
            e['reason'], e['message'], detail)
start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
def resumed(src, step):
  whole = events(src)
  end = max(e['elapsed_ms'] for e in whole)
  differ = []
  for t in range(0, end + 1, step):
      p = subprocess.run([sim, 'run', '-q', '--snapshot', '%dms' % t, tmp + '/s.yaml'] + src,
                         capture_output=True, text=True)
      if p.returncode != 0:
          differ.append((t, 'snapshot failed: ' + p.stderr[:200])); continue
      now = (start + datetime.timedelta(milliseconds=t)).strftime('%Y-%m-%dT%H:%M:%S.%fZ')
      rest = events(['--now', now, tmp + '/s.yaml'])
      want = [key(e) for e in whole if e['elapsed_ms'] > t]
      got = [key(e) for e in rest if e['elapsed_ms'] > 0]
      if want != got:
          first = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
          differ.append((t, want[first:first + 1], got[first:first + 1]))
  return end, differ
end, differ = resumed([tmp + '/co'], 2500)
check("resumed from each of %d snapshots (every 2.5s of %dms), the run continues exactly as the whole run" % (end // 2500 + 1, end),
      not differ, differ[:2])
end, differ = resumed([tmp + '/co-main'], 5000)
check("on a branch: resumed from each of %d snapshots (every 5s of %dms), the RefWatcher polls as in the whole run and sees no new revision" % (end // 5000 + 1, end),
      not differ, differ[:2])
PY

# --- without the RefWatcher's entries the resume is a restart (spec §7 #18) ---
"$SIM" run -q --snapshot 90s "$tmp/rw.yaml" "$tmp/co-main" >/dev/null
grep -v 'state.magos-sim.io/refwatcher' "$tmp/rw.yaml" >"$tmp/rw-plain.yaml"
n_kept=$("$SIM" run --events - --now 2026-01-01T00:01:30Z "$tmp/rw.yaml" | grep -c NewRevisionDetected)
n_plain=$("$SIM" run --events - --now 2026-01-01T00:01:30Z "$tmp/rw-plain.yaml" | grep -c NewRevisionDetected)
check "the snapshot at 90s carries the RefWatcher's entries" test "$(grep -c 'state.magos-sim.io/refwatcher: lastSHA=' "$tmp/rw.yaml")" -eq 4
check "resumed with them, no Workspace sees a new revision" test "$n_kept" -eq 0
check "resumed without them (a restart), Workspaces on a branch see one, as upstream's RefWatcher does" test "$n_plain" -gt 0
bad_state() {
	sed "s|state.magos-sim.io/refwatcher: lastSHA=|state.magos-sim.io/refwatcher: $1 lastSHA=|" "$tmp/rw.yaml" >"$tmp/rw-bad.yaml"
}
bad_state "bogus=1"
expect_rc "an unknown field in a RefWatcher entry is refused" 3 "$SIM" run -q --now 2026-01-01T00:01:30Z "$tmp/rw-bad.yaml"
contains "the error names the object and the format" "$tmp/err" "is not a RefWatcher entry: expected 'lastSHA=SHA url=URL"
sed 's|state.magos-sim.io/refwatcher:|state.magos-sim.io/workspace-controller:|' "$tmp/rw.yaml" >"$tmp/rw-bad.yaml"
expect_rc "state of another controller is refused" 3 "$SIM" run -q --now 2026-01-01T00:01:30Z "$tmp/rw-bad.yaml"
contains "the error says which annotation a snapshot writes" "$tmp/err" "only 'state.magos-sim.io/refwatcher', on Workspaces"

# --- a snapshot of a halted Rollout: the halt predates the resumed run ---
# The whole run halts at 12m50.15s.  The snapshot at 20m carries when, and
# the blast radius the run that halted measured (state.magos-sim.io/observer):
# the resumed run's halt is 7m9.85s before its start, as a FleetRollout's
# carried halt is told.  A plain kubectl export says when in the Rollout's
# Ready condition (lastTransitionTime, whole seconds), and who had begun
# applying by then in the Workspaces' Jobs and Ready conditions; where they
# do not say, the time and the blast radius are not known.
"$SIM" run -q --snapshot 20m "$tmp/halted.yaml" scenarios/ci/magos-halt-before-prod.yaml >/dev/null
grep -v 'state.magos-sim.io/observer' "$tmp/halted.yaml" >"$tmp/halted-plain.yaml"
contains "the snapshot carries the Rollout's halt to the millisecond" "$tmp/halted.yaml" " halted=2026-01-01T00:12:50.15Z blast=shop-dev,shop-staging blastTotal=3"
"$SIM" run -q --now 2026-01-01T00:20:00Z "$tmp/halted.yaml" >"$tmp/halted.txt"
contains "resumed halted, the halt is before the start, at its time" "$tmp/halted.txt" "halted    yes, 7m9.85s before the start: Rollout default/shop (StepFailed)"
contains "its blast radius is the one the halting run measured (2 of 3)" "$tmp/halted.txt" "blast     2 of 3 Workspaces had begun applying by the halt"
"$SIM" run -q --now 2026-01-01T00:20:00Z "$tmp/halted-plain.yaml" >"$tmp/halted-plain.txt"
contains "from a plain export, the halt's time is the Ready condition's (whole seconds)" "$tmp/halted-plain.txt" "halted    yes, 7m10s before the start: Rollout default/shop (StepFailed)"
contains "from a plain export, the Jobs and Ready conditions give the blast radius (2 of 3)" "$tmp/halted-plain.txt" "blast     2 of 3 Workspaces had begun applying by the halt"
contains "... dev and staging, not prod, which never applied" "$tmp/halted-plain.txt" "default/shop halted in step staging: shop-dev, shop-staging"
"$SIM" run -q --json "$tmp/halted.json" --now 2026-01-01T00:20:00Z "$tmp/halted-plain.yaml" >/dev/null
"$SIM" run -q --json "$tmp/halted-kept.json" --now 2026-01-01T00:20:00Z "$tmp/halted.yaml" >/dev/null
"$SIM" run -q --json "$tmp/whole.json" scenarios/ci/magos-halt-before-prod.yaml >/dev/null
pyfacts "$tmp/halted.json" "$tmp/halted-kept.json" "$tmp/whole.json" <<'PY'
import json, sys
from facts import check
plain, kept, whole = (json.load(open(f))['summary'] for f in sys.argv[1:4])
want = {'count': 2, 'total': 3, 'names': ['shop-dev', 'shop-staging']}
check("a halt inside the run is not before_start and has its blast radius (2 of 3), at 12m50.15s",
      whole['halt']['before_start'] is False and whole['halt']['t_ms'] == 770150 and whole['blast_radius'] == want, whole['halt'])
ro = [r for r in kept['rollouts'] if r['name'] == 'shop'][0]
check("JSON of the simulator's snapshot: before_start, at the whole run's halt on this run's clock (-429850)",
      kept['halt']['before_start'] is True and kept['halt']['t_ms'] == whole['halt']['t_ms'] - 1200000
      and ro['halt']['t_ms'] == kept['halt']['t_ms'], (kept['halt'], ro['halt']))
check("JSON of the simulator's snapshot: with the carried blast radius",
      kept['blast_radius'] == want and ro['blast_radius'] == want, kept['blast_radius'])
ro = [r for r in plain['rollouts'] if r['name'] == 'shop'][0]
check("JSON of a plain export: before_start, at the Ready condition's 00:12:50Z (-430000), in step staging",
      plain['halt']['before_start'] is True and plain['halt']['t_ms'] == -430000 and ro['halt']['t_ms'] == -430000
      and ro['halt']['step'] == 'staging', (plain['halt'], ro['halt']))
check("JSON of a plain export: the blast radius its objects decide", plain['blast_radius'] == want and ro['blast_radius'] == want,
      plain['blast_radius'])
PY
# Variants of the plain export: what it does not say stays not known (a
# condition without its lastTransitionTime is refused: the CRD requires it).
pyfacts "$tmp/halted-plain.yaml" "$tmp" <<'PY'
import sys, yaml
src, tmp = sys.argv[1], sys.argv[2]
def variant(name, edit):
    d = yaml.safe_load(open(src))
    for it in d['items']:
        edit(it)
    yaml.safe_dump(d, open(tmp + '/' + name + '.yaml', 'w'))
def no_halt_time(it):
    if it['kind'] == 'Rollout':
        del it['status']['conditions']
def late_apply(it):
    # staging's apply Job created after the halt: an earlier apply is not told
    if it['kind'] == 'Job' and it['metadata']['name'].startswith('shop-staging-apply-'):
        it['metadata']['creationTimestamp'] = '2026-01-01T00:15:00Z'
def applied_once(it):
    # prod has applied at some time (observedRevision), with no Job to tell when
    if it['kind'] == 'Workspace' and it['metadata']['name'] == 'shop-prod':
        it['status']['observedRevision'] = 'main'
def undated_apply(it):
    # dev Applied with neither its apply Job nor its Ready condition's time
    if it['kind'] == 'Job' and it['metadata']['name'].startswith('shop-dev-apply-'):
        it['metadata']['name'] = 'unrelated-job'
        it['metadata']['labels'] = {}
    if it['kind'] == 'Workspace' and it['metadata']['name'] == 'shop-dev':
        del it['status']['conditions']
def dev_applied_before(it):
    # dev Applied without its apply Job: it began before its Ready condition's time
    if it['kind'] == 'Job' and it['metadata']['name'].startswith('shop-dev-apply-'):
        it['metadata']['name'] = 'unrelated-job'
        it['metadata']['labels'] = {}
for name, edit in [('no-halt-time', no_halt_time), ('late-apply', late_apply), ('applied-once', applied_once),
                   ('undated-apply', undated_apply), ('dev-applied-before', dev_applied_before)]:
    variant(name, edit)
PY
for v in no-halt-time late-apply applied-once undated-apply dev-applied-before; do
	expect_rc "$v: the variant runs" 0 "$SIM" run -q --now 2026-01-01T00:20:00Z --json "$tmp/$v.json" "$tmp/$v.yaml"
	mv "$tmp/out" "$tmp/$v.txt"
done
contains "without the Ready condition's time, the halt is before the start at no time said" "$tmp/no-halt-time.txt" "halted    yes, before the start: Rollout default/shop (StepFailed)"
for v in no-halt-time late-apply applied-once undated-apply; do
	contains "$v: the blast radius is not known, of the Project's 3 Workspaces" "$tmp/$v.txt" "blast     not known of 3 Workspaces: the halt predates the run"
done
contains "dev Applied before the halt without its apply Job still counts" "$tmp/dev-applied-before.txt" "blast     2 of 3 Workspaces had begun applying by the halt"
pyfacts "$tmp/no-halt-time.json" "$tmp/late-apply.json" <<'PY'
import json, sys
from facts import check
undated, late = (json.load(open(f))['summary'] for f in sys.argv[1:3])
check("JSON without the Ready condition's time: before_start at t_ms 0, blast radius null",
      undated['halt']['before_start'] is True and undated['halt']['t_ms'] == 0 and undated['blast_radius'] is None
      and undated['rollouts'][0]['blast_radius'] is None, (undated['halt'], undated['blast_radius']))
check("JSON with a Workspace the times do not decide: dated, blast radius null",
      late['halt']['t_ms'] == -430000 and late['blast_radius'] is None, (late['halt'], late['blast_radius']))
PY
# run -n from it: a trial's halt counts from the trial's start (0, trials/v1),
# so its shards merge (a dated halt's negative time would be refused)
for k in 1 2; do
	"$SIM" run -q -n 4 --shard "$k/2" --json "$tmp/hs$k.json" --now 2026-01-01T00:20:00Z "$tmp/halted.yaml" >/dev/null 2>&1
done
expect_rc "the shards of run -n from a halted Rollout's snapshot merge" 0 "$SIM" merge "$tmp/hs1.json" "$tmp/hs2.json"
"$SIM" run -q -n 2 --json "$tmp/hs.json" --now 2026-01-01T00:20:00Z "$tmp/halted.yaml" >/dev/null 2>&1
pyfacts "$tmp/hs.json" <<'PY'
import json, sys
from facts import check
rows = json.load(open(sys.argv[1]))['trials']
check("a trial of it halted at its start (halt_ms 0)", rows and all(r['halted'] and r['halt_ms'] == 0 for r in rows), rows[:1])
PY

# --- what a snapshot carries of the time before it: the runs, a halt recovered from ---
# The whole run plans staging twice (its apply fails at 12m50.15s, the
# retry plans at 30m) and the Rollout halts then and recovers at 34m32.516s.
# Resumed at any instant, each Workspace's runs count those before the
# snapshot too (a Workspace loaded Planning once), and the halt is the
# whole run's, also once the Rollout no longer shows it: the snapshot
# carries its step and words (haltStep, haltReason, haltMessage).
"$SIM" run -q --snapshot 36m "$tmp/recovered.yaml" scenarios/ci/magos-halt-before-prod.yaml >/dev/null
contains "the snapshot carries the halt of a Rollout that recovered, its step and words" "$tmp/recovered.yaml" \
	" halted=2026-01-01T00:12:50.15Z blast=shop-dev,shop-staging blastTotal=3 haltStep=1 haltReason=StepFailed haltMessage=One%20or%20more%20workspaces%20failed%20in%20level%20[staging]"
contains "... and each Workspace's runs" "$tmp/recovered.yaml" " failed=2026-01-01T00:12:50.15Z runs=2 "
"$SIM" run -q --now 2026-01-01T00:36:00Z "$tmp/recovered.yaml" >"$tmp/recovered.txt"
contains "resumed after the recovery, the halt is still the run's first, before the start" "$tmp/recovered.txt" \
	"halted    yes, 23m9.85s before the start: Rollout default/shop (StepFailed)"
contains "... with the blast radius the halting run measured" "$tmp/recovered.txt" "default/shop halted in step staging: shop-dev, shop-staging"
grep -v 'state.magos-sim.io/observer' "$tmp/recovered.yaml" >"$tmp/recovered-plain.yaml"
"$SIM" run -q --now 2026-01-01T00:36:00Z "$tmp/recovered-plain.yaml" >"$tmp/recovered-plain.txt"
has_line "a kubectl export of it tells no halt: upstream keeps none once Ready is True again" "$tmp/recovered-plain.txt" "halted    no"
pyfacts "$SIM" "$tmp" <<'PY'
import json, subprocess, sys
from facts import check
from resume_facts import scenario_only, snapshot
sim, tmp = sys.argv[1], sys.argv[2]
src = 'scenarios/ci/magos-halt-before-prod.yaml'
scenario_only(src, tmp + '/hb-scn.yaml')
def summary(args):
    subprocess.run([sim, 'run', '-q', '--json', tmp + '/hb.json'] + args, capture_output=True, check=True)
    s = json.load(open(tmp + '/hb.json'))['summary']
    steps = subprocess.run([sim, 'run', '--color', 'never', '--width', '200'] + args, capture_output=True, text=True).stdout
    return s, steps
whole, wtext = summary([src])
runs = {w['name']: w['runs'] for w in whole['workspaces']}
check("the whole run plans staging twice, dev and prod once", runs == {'shop-dev': 1, 'shop-staging': 2, 'shop-prod': 1}, runs)
check("... and says so in the steps view", '(first of 2 runs)' in wtext, wtext[-600:])
bad = []
for t in (300000, 600000, 1200000, 1830000, 2160000):
    _, now = snapshot(sim, src, t, tmp + '/hb-s.yaml')
    s, text = summary(['--now', now, tmp + '/hb-scn.yaml', tmp + '/hb-s.yaml'])
    got = {w['name']: w['runs'] for w in s['workspaces']}
    h, wh = s['halt'], whole['halt']
    if got != runs or '(first of 2 runs)' not in text:
        bad.append((t, 'runs', got))
    if not h or (h['t_ms'] + t, h['step'], h['reason'], h['message']) != (wh['t_ms'], wh['step'], wh['reason'], wh['message']) \
            or (t > wh['t_ms'] and (not h['before_start'] or s['blast_radius'] != whole['blast_radius'])):
        bad.append((t, 'halt', h, s['blast_radius']))
check("resumed at 5m, 10m, 20m, 30m30s (staging planning again) and 36m (recovered), the runs and the halt are the whole run's",
      not bad, bad[:2])
PY
sed 's|haltStep=1 |haltStep=3 |' "$tmp/recovered.yaml" >"$tmp/bad.yaml"
expect_rc "a haltStep that is no step of the Rollout is refused" 3 "$SIM" run -q --now 2026-01-01T00:36:00Z "$tmp/bad.yaml"
contains "the error counts the steps" "$tmp/err" "'haltStep' is step 3, spec.strategy.steps has 3 (-1: not known)"
sed 's| runs=2 | runs=two |' "$tmp/recovered.yaml" >"$tmp/bad.yaml"
expect_rc "runs that are no count are refused" 3 "$SIM" run -q --now 2026-01-01T00:36:00Z "$tmp/bad.yaml"
contains "the error names the key" "$tmp/err" "a bad value of 'runs'"

# --- resuming a fleet the Scenario generated: generate clashes with the snapshot ---
"$SIM" run -q --snapshot 30m "$tmp/gen.yaml" scenarios/fleet-gate-halt.yaml >/dev/null
pyfacts scenarios/fleet-gate-halt.yaml "$tmp/gen-scn.yaml" <<'PY'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d.get('kind') == 'Scenario']
yaml.safe_dump_all(docs, open(sys.argv[2], 'w'))
PY
expect_rc "a Scenario that generates the StageSets the snapshot holds is refused" 3 "$SIM" run -q --now 2026-03-02T08:30:00Z "$tmp/gen-scn.yaml" "$tmp/gen.yaml"
contains "the note says to leave spec.generate out to continue from a snapshot" "$tmp/err" "leave spec.generate out of the Scenario document"
# the snapshot's own header says so before anyone tries
check "the snapshot's header says to resume without spec.include and spec.generate" \
	grep -q '^# document alone, without the spec.include and spec.generate whose objects$' "$tmp/gen.yaml"
# --- a Scenario's events on the original clock: those before T are in the
# snapshot and not replayed, those after it happen when they would have ---
cat >"$tmp/co-events.yaml" <<'YAML'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: checkout-events}
spec:
  events:
    - at: 10s
      annotate: {kind: Workspace, namespace: shop, name: checkout-dev, set: {example.com/seen: "10s"}}
    - at: 45s
      reconcileRequest: {namespace: shop, name: checkout-dev}
    - at: 1m15s
      label: {kind: Workspace, namespace: shop, name: checkout-staging, set: {example.com/wave: "2"}}
    - at: 1m40s
      reconcileRequest: {namespace: shop, name: checkout-staging}
    - at: 3m
      annotate: {kind: Workspace, namespace: shop, name: checkout-prod-eu, set: {example.com/seen: "3m"}}
YAML
pyfacts "$SIM" "$tmp" <<'PY'
import json, subprocess, sys, yaml
from facts import check
sim, tmp = sys.argv[1], sys.argv[2]
def events(args):
    p = subprocess.run([sim, 'run', '--events', '-'] + args, capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL run", args, p.stderr[:400]); sys.exit(0)
    return [json.loads(l) for l in p.stdout.splitlines()]
def key(e):
    detail = sorted(x.split(': ')[-1] for x in (e['detail'] or '').split(', '))
    return (e['time'], e['kind'], e['namespace'], e['name'], e['change'], e['phase'],
            e['reason'], e['message'], detail)
src = [tmp + '/co-events.yaml', tmp + '/co']
whole = events(src)
end = max(e['elapsed_ms'] for e in whole)
differ, origins = [], set()
for t in range(0, end + 1, 2500):
    p = subprocess.run([sim, 'run', '-q', '--snapshot', '%dms' % t, tmp + '/s.yaml'] + src,
                       capture_output=True, text=True)
    if p.returncode != 0:
        differ.append((t, 'snapshot failed: ' + p.stderr[:200])); continue
    text = open(tmp + '/s.yaml').read()
    origins |= {i['metadata']['annotations'].get('clock.magos-sim.io/origin') for i in yaml.safe_load(text)['items']}
    # resumed with the Scenario as it was: its times are on the snapshot's run's clock
    rest = events(['--now', text.split('run --now ')[1].split()[0], tmp + '/co-events.yaml', tmp + '/s.yaml'])
    want = [key(e) for e in whole if e['elapsed_ms'] > t]
    got = [key(e) for e in rest if e['elapsed_ms'] > 0]
    if want != got:
        first = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
        differ.append((t, want[first:first + 1], got[first:first + 1]))
check("every object of the snapshots names the run's start", origins == {'2026-01-01T00:00:00Z'}, origins)
check("resumed from each of %d snapshots (every 2.5s, the events' own instants among them), the events after T fire at their times and those before do not fire again" % (end // 2500 + 1),
      not differ, differ[:2])
PY
# A snapshot resumed later than it was taken: the events in between count as past.
"$SIM" run -q --snapshot 30s "$tmp/ev30.yaml" "$tmp/co-events.yaml" "$tmp/co" >/dev/null 2>&1
expect_rc "resumed 20s after its time, the run starts" 0 "$SIM" run --width 200 --timeline all --now 2026-01-01T00:00:50Z "$tmp/co-events.yaml" "$tmp/ev30.yaml"
lacks "the reconcileRequest at 45s, before the resumed start, is not fired" "$tmp/out" "reconcile-request=2026-01-01T00:00:45Z"
contains "the label at 1m15s fires 25s on" "$tmp/out" "labels: +example.com/wave=2"
expect_rc "a snapshot's origin that is no time is an error" 3 sh -c 'sed "0,/clock.magos-sim.io\/origin: .*/s//clock.magos-sim.io\/origin: soon/" "$1" >"$2" && "$3" run -q "$2"' _ "$tmp/ev30.yaml" "$tmp/bad-origin.yaml" "$SIM"
contains "it names the annotation" "$tmp/err" "annotation clock.magos-sim.io/origin='soon' is not an RFC 3339 time"
# A failNext that fired before T and had not met its Job yet rides along.
cat >"$tmp/co-armed.yaml" <<'YAML'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: checkout-armed}
spec:
  events:
    - at: 30s
      failNext: {namespace: shop, name: checkout-staging, job: plan}
    - at: 35s
      succeedNext: {namespace: shop, name: checkout-dev, job: plan}
YAML
"$SIM" run -q --snapshot 40s "$tmp/armed40.yaml" "$tmp/co-armed.yaml" "$tmp/co" >/dev/null 2>&1
contains "the snapshot at 40s carries the failNext armed for staging's next plan" "$tmp/armed40.yaml" "model.magos-sim.io/armed-events: \"1\""
contains "and the succeedNext for dev, whose plan is over" "$tmp/armed40.yaml" "model.magos-sim.io/armed-events: \"2\""
pyfacts "$SIM" "$tmp" <<'PY'
import json, subprocess, sys
from facts import check
sim, tmp = sys.argv[1], sys.argv[2]
def events(args):
    p = subprocess.run([sim, 'run', '--events', '-'] + args, capture_output=True, text=True)
    return [json.loads(l) for l in p.stdout.splitlines()] if p.returncode == 0 else [('failed', p.stderr[:300])]
def key(e):
    detail = sorted(x.split(': ')[-1] for x in (e['detail'] or '').split(', '))
    return (e['time'], e['kind'], e['namespace'], e['name'], e['change'], e['phase'], e['reason'], e['message'], detail)
whole = events([tmp + '/co-armed.yaml', tmp + '/co'])
rest = events(['--now', '2026-01-01T00:00:40Z', tmp + '/co-armed.yaml', tmp + '/armed40.yaml'])
want = [key(e) for e in whole if e['elapsed_ms'] > 40000]
got = [key(e) if isinstance(e, dict) else e for e in rest if not isinstance(e, dict) or e['elapsed_ms'] > 0]
check("resumed at 40s, staging's plan fails as in the whole run", want == got and any(k[6] == 'PlanFailed' for k in want),
      next(((a, b) for a, b in zip(want, got) if a != b), (len(want), len(got))))
PY
expect_rc "an armed event the Scenario given does not have is an error" 3 "$SIM" run -q --now 2026-01-01T00:00:40Z "$tmp/armed40.yaml"
contains "it says to resume with the run's Scenario document" "$tmp/err" "annotation model.magos-sim.io/armed-events names spec.events[0], which is no failNext, succeedNext or violate event of this Workspace in the Scenario document given"
sed 's/^  namespace: shop$/  namespace: shop\n  annotations: {draws.magos-sim.io\/stageset-requeue: "0", model.magos-sim.io\/inventory: "app=", model.magos-sim.io\/source-version: "1.0.0"}/' \
	scenarios/checkout/project.yaml >"$tmp/bad-marks.yaml"
expect_rc "the other run annotations, malformed or on the wrong kind, are errors" 3 "$SIM" run -q "$tmp/bad-marks.yaml"
contains "a requeue count on a Project" "$tmp/err" "annotation draws.magos-sim.io/stageset-requeue='0' is not a count of the StageSet controller's jittered requeues"
contains "an inventory that is no list of shards" "$tmp/err" "annotation model.magos-sim.io/inventory='app=' is not a StageSet's list of StageInventory shards"
contains "a modelled source that is no source" "$tmp/err" "annotation model.magos-sim.io/source-version names a modelled source: it belongs on a GitRepository"

# --- the snapshot as kubectl prints it: owners, times, no re-plan of history ---
expect_rc "--snapshot 30s writes the List" 0 "$SIM" run -q --snapshot 30s "$tmp/at30.yaml" "$tmp/co"
pyfacts "$tmp/at30.yaml" <<'PY'
import sys, yaml
from facts import check
with open(sys.argv[1]) as f:
    text = f.read()
d = yaml.safe_load(text)
check("a v1 List with resourceVersion \"\"", d['apiVersion'] == 'v1' and d['kind'] == 'List' and d['metadata'] == {'resourceVersion': ''})
check("it says when it was taken and how to resume", text.startswith('# ') and 'run --now 2026-01-01T00:00:30Z' in text)
items = d['items']
ws = {i['metadata']['name']: i for i in items if i['kind'] == 'Workspace'}
jobs = [i for i in items if i['kind'] == 'Job']
pvcs = [i for i in items if i['kind'] == 'PersistentVolumeClaim']
def owned(o):
    refs = o['metadata'].get('ownerReferences', [])
    w = ws.get(refs[0]['name']) if len(refs) == 1 else None
    return (w is not None and refs[0] == {'apiVersion': 'magosproject.io/v1alpha1', 'blockOwnerDeletion': True,
            'controller': True, 'kind': 'Workspace', 'name': w['metadata']['name'], 'uid': w['metadata']['uid']})
check("the Jobs and the PVC carry their Workspace's controller reference", len(jobs) == 2 and len(pvcs) == 1 and all(owned(o) for o in jobs + pvcs), [o['metadata'] for o in jobs + pvcs])
plan = [j for j in jobs if '-plan-' in j['metadata']['name']][0]
apply = [j for j in jobs if '-apply-' in j['metadata']['name']][0]
check("the finished plan Job has its times", plan['status'].get('succeeded') == 1 and plan['status']['startTime'] == '2026-01-01T00:00:00Z' and plan['status']['completionTime'] == '2026-01-01T00:00:20Z')
check("the running apply Job started at 20s", apply['status'] == {'active': 1, 'startTime': '2026-01-01T00:00:20Z'})
check("metadata as the API server keeps it", all(set(('uid', 'resourceVersion', 'generation', 'creationTimestamp', 'name')) <= set(i['metadata']) for i in items)
      and all(isinstance(i['metadata']['resourceVersion'], str) for i in items))
q = {i['kind'] + ' ' + i['metadata']['name']: {k[len('queue.magos-sim.io/'):]: v for k, v in i['metadata'].get('annotations', {}).items() if k.startswith('queue.magos-sim.io/')} for i in items}
check("each controller's work queue rides on the objects of its kind: the Rollout waits for nothing, dev's apply is due at once",
      q['Rollout checkout'] == {'rollout-controller': 'none'} and q['Project checkout'] == {'project-controller': 'none'}
      and set(q['Workspace checkout-dev']) == {'workspace-controller', 'refwatcher'}
      and q['Job ' + apply['metadata']['name']] == {}, q)
check("keys sorted as kubectl prints them", list(items[0].keys()) == sorted(items[0].keys()) and list(items[0]['metadata'].keys()) == sorted(items[0]['metadata'].keys()))
PY
"$SIM" run --now 2026-01-01T00:00:30Z --timeline all "$tmp/at30.yaml" >"$tmp/res30.txt" 2>&1
lacks "the finished plan is history: dev is not planned again" "$tmp/res30.txt" "checkout-dev-plan-d4d33262 created"
"$SIM" run --now 2026-01-01T00:00:30Z --events "$tmp/res30.jsonl" "$tmp/at30.yaml" >/dev/null 2>&1
pyfacts "$tmp/res30.jsonl" <<'PY'
import json, sys
from facts import check
ev = [json.loads(l) for l in open(sys.argv[1])]
done = [e for e in ev if e['kind'] == 'Job' and '-apply-' in e['name'] and e['namespace'] == 'shop' and e['name'].startswith('checkout-dev') and 'succeeded' in (e['detail'] or '')]
# started at 20s, container 5s later, 25s apply: done at 50s, 20s after the snapshot
check("the running apply Job resumes at its elapsed time and ends 20s on", len(done) == 1 and done[0]['elapsed_ms'] == 20000, [(e['elapsed_ms'], e['detail']) for e in done])
PY

# A Job far past what its model allows ends at once (no mass beyond the time spent).
# (Edited by hand: its start to the millisecond goes with the startTime.)
sed -e 's/startTime: "2026-01-01T00:00:20Z"/startTime: "2025-12-31T23:00:20Z"/' \
    -e 's/start-time: "2026-01-01T00:00:20Z"/start-time: "2025-12-31T23:00:20Z"/' "$tmp/at30.yaml" >"$tmp/overdue.yaml"
"$SIM" run --now 2026-01-01T00:00:30Z --events "$tmp/overdue.jsonl" "$tmp/overdue.yaml" >/dev/null 2>&1
pyfacts "$tmp/overdue.jsonl" <<'PY'
import json, sys
from facts import check
ev = [json.loads(l) for l in open(sys.argv[1])]
done = [e for e in ev if e['kind'] == 'Job' and e['name'].startswith('checkout-dev-apply') and 'succeeded' in (e['detail'] or '')]
check("a Job running longer than its constant model ends at once", len(done) == 1 and done[0]['elapsed_ms'] == 0, [(e['elapsed_ms'], e['detail']) for e in done])
PY

# A Job's status.startTime holds whole seconds (metav1.Time), as upstream
# writes it; the snapshot carries its start to the millisecond
# (clock.magos-sim.io/start-time), so a Job started at 8.75s resumes its
# run from 8.75s, not 8s: with durations that are no whole seconds,
# resuming at every 0.7s gives the whole run's remaining timeline.
mkdir "$tmp/frac"
cp "$tmp/co"/*.yaml "$tmp/frac/"
cat >"$tmp/frac/scn.yaml" <<'YAML'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: fractional-jobs}
spec:
  models:
    jobs:
      podStartup: 1.45s
      plan: {duration: 7.3s}
      apply: {duration: 11.65s}
YAML
"$SIM" run -q --snapshot 13s "$tmp/frac13.yaml" "$tmp/frac" >/dev/null
check "a running Job's startTime stays whole seconds, its start to the millisecond beside it" sh -c 'grep -q "startTime: \"2026-01-01T00:00:08Z\"" "$1" && grep -q "clock.magos-sim.io/start-time: \"2026-01-01T00:00:08.75Z\"" "$1"' _ "$tmp/frac13.yaml"
pyfacts "$SIM" "$tmp" <<'PY'
import json, subprocess, sys
from facts import check
sim, tmp = sys.argv[1], sys.argv[2]
def events(args):
    p = subprocess.run([sim, 'run', '--events', '-'] + args, capture_output=True, text=True)
    if p.returncode != 0:
        return None
    return [json.loads(l) for l in p.stdout.splitlines()]
def key(e):
    detail = sorted(x.split(': ')[-1] for x in (e['detail'] or '').split(', '))
    return (e['time'], e['kind'], e['namespace'], e['name'], e['change'], e['phase'], e['reason'], detail)
whole = events([tmp + '/frac'])
end = max(e['elapsed_ms'] for e in whole)
differ = []
for t in range(0, end + 1, 700):
    s = '%s/frac-s.yaml' % tmp
    subprocess.run([sim, 'run', '-q', '--snapshot', '%dms' % t, s, tmp + '/frac'], capture_output=True)
    rest = events([tmp + '/frac/scn.yaml', s])
    if rest is None:
        differ.append((t, 'resume failed')); continue
    want = [key(e) for e in whole if e['elapsed_ms'] > t]
    got = [key(e) for e in rest if e['elapsed_ms'] > 0]
    if want != got:
        first = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
        differ.append((t, want[first:first + 1], got[first:first + 1]))
check("Jobs of 7.3s and 11.65s resumed from each of %d snapshots (every 0.7s of %dms) end when they end in the whole run" % (end // 700 + 1, end),
      not differ and end > 60000, differ[:2])
PY
expect_rc "a start to the millisecond that is not the startTime's second is an error" 3 sh -c 'sed "s/start-time: \"2026-01-01T00:00:08.75Z\"/start-time: \"2026-01-01T00:00:09.75Z\"/" "$1" >"$2" && "$3" run -q "$4" "$2"' _ "$tmp/frac13.yaml" "$tmp/frac-bad.yaml" "$SIM" "$tmp/frac/scn.yaml"
contains "it names the Job and the annotation" "$tmp/err" "annotation clock.magos-sim.io/start-time='2026-01-01T00:00:09.75Z' is not the Job's status.startTime to the millisecond: it belongs on a Job with a status.startTime, an RFC 3339 time whose whole seconds are that startTime"

# --- the worked example: a live cluster's List, continued ---
expect_rc "the Magos snapshot example runs" 0 "$SIM" run --now 2026-11-30T14:02:07Z --json "$tmp/shop.json" scenarios/snapshot-shop-network.yaml
if sed -n 1,3p "$tmp/out" | grep -qx 'clock starts 2026-11-30T14:02:07Z (--now)'; then ok "the example's clock is --now, under the header"; else bad "the example's clock is --now, under the header"; show "$tmp/out" 3; fi
check "... which fits 80 columns" fits "$tmp/out" 80
pyfacts "$tmp/shop.json" <<'PY'
import json, sys
from facts import check, status_changes
d = json.load(open(sys.argv[1]))
tl = d['timeline']
created = [e['name'] for e in tl if e['kind'] == 'Job' and e['change'] == 'created' and e['t_ms'] > 0]
check("no Job of dev or staging is created again (history and a resumed Job)", not [n for n in created if '-dev-' in n or '-staging-' in n], created)
check("staging Applied at 2m54.535s, the level opens prod", status_changes(d, 'Workspace', 'shop-network-staging')[-1][:2] == (174535, 'Applied')
      and any(e['kind'] == 'Rollout' and e['message'] == 'Executing level [prod]' and e['t_ms'] == 174535 for e in tl))
check("the Rollout completes at 15m5.812s", status_changes(d, 'Rollout', 'shop-network')[-1][:3] == (905812, 'Applied', 'RolloutCompleted'))
check("time to complete counted from the snapshot", d['summary']['time_to_complete_ms'] == 905812 and d['summary']['already_complete'] is False)
PY
"$SIM" run --now 2026-11-30T14:02:07Z scenarios/snapshot-shop-network.yaml >"$tmp/shop.txt" 2>&1
has_line "the steps view shows the apply Job the snapshot caught running from its creation, 1m30s before, marked so" "$tmp/shop.txt" \
	"        │ plan -2m40s*, apply -1m30s*→2m54.535s"
expect_rc "the example's trials run" 0 "$SIM" run -n 200 --now 2026-11-30T14:02:07Z scenarios/snapshot-shop-network.yaml
has_line "its remaining time as wall-clock times, the slowest trial (14:27:05) rounded up" "$tmp/out" "  done between 2026-11-30 14:06 UTC and 2026-11-30 14:28 UTC"
has_line "and percentiles" "$tmp/out" "  p50 2026-11-30 14:12 UTC, p90 2026-11-30 14:17 UTC"
expect_rc "the example at 5m" 0 "$SIM" run -q --at 5m --now 2026-11-30T14:02:07Z scenarios/snapshot-shop-network.yaml
has_line "ages count from the snapshot's creationTimestamps" "$tmp/out" "shop        shop-network-dev       Applied    shop-network   9f4c2a71d3e8b05c6a2f1e7d4b3c9a8e5f6d2b10   12m"
has_line "prod applies at 14:07:07" "$tmp/out" "shop        shop-network-prod-eu   Applying   shop-network                                              12m"
expect_rc "check passes the example" 0 "$SIM" check scenarios/snapshot-shop-network.yaml

# --- the FleetRollout example: StageSets continue from their status ---
expect_rc "the fleet snapshot example runs" 0 "$SIM" run --now 2026-03-02T08:20:00Z --json "$tmp/fleet.json" scenarios/snapshot-moodle-fleet.yaml
pyfacts "$tmp/fleet.json" <<'PY'
import json, sys
from facts import check, status_changes
d = json.load(open(sys.argv[1]))
tl = d['timeline']
fr = status_changes(d, 'FleetRollout', 'moodle')
check("the FleetRollout halts on the passed canary's gate at 9m0s and goes on at 14m0s",
      [(t, p, r) for t, p, r, m in fr if t > 0][:2] == [(540000, 'Halted', 'Halted'), (840000, 'InProgress', 'Progressing')], fr)
check("broad's soak ends at the snapshot's soakUntil: rest opens at 15m2s", any(t == 902000 and 'wave "rest" open' in (m or '') for t, p, r, m in fr), fr)
check("it completes at 15m3s", fr[-1][:3] == (903000, 'Completed', 'Completed'))
again = [e for e in tl if e['kind'] == 'StageSet' and e['reason'] in ('DriftCorrected', 'InventoryReconstructed')]
check("no StageSet re-applies or rebuilds what its status says it runs", not again, [(e['namespace'], e['reason']) for e in again][:3])
adopted = [e for e in tl if e['kind'] == 'StageSet' and e['change'] == 'status' and e['namespace'] in ('tenant-00', 'tenant-01', 'tenant-02', 'tenant-03') and e['t_ms'] > 0]
check("the members of canary and broad are not reconciled into a new status", not adopted, [(e['namespace'], e['t_ms'], e['detail']) for e in adopted][:3])
PY
expect_rc "check passes the fleet example" 0 "$SIM" check scenarios/snapshot-moodle-fleet.yaml
expect_rc "the fleet example at 10m" 0 "$SIM" run -q --at 10m --now 2026-03-02T08:20:00Z scenarios/snapshot-moodle-fleet.yaml
has_line "kubectl get fleetrollouts at 10m" "$tmp/out" "moodle    4.6.0     Halted    canary    25m"
has_line "the fleet view shows rest held" "$tmp/out" "    … tenant-04/moodle             4.5.0  held → awaiting 4.6.0"

# --- a fleet resumed from any T continues as the whole run ---
# Members on 4.5.0 (a first run's snapshot), spec.version bumped to 4.6.0 and
# a FleetRollout added: the rollout from that state is the whole run.
cat >"$tmp/models.yaml" <<'YAML'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: fleet}
spec:
  seed: 3
  horizon: 4h
  metrics:
    - {query: 'sum(rate(http_requests_total{app="moodle",code=~"5.."}[5m]))', interval: 10s, values: "0.002x125 0.03x23 0.002x1805"}
  models:
    stagesets:
      adoption: {duration: 1m}
YAML
cat "$tmp/models.yaml" >"$tmp/a.yaml"
cat >>"$tmp/a.yaml" <<'YAML'
  start: "2026-03-02T08:00:00Z"
  generate:
    - count: 6
      namespace: "tenant-{i:02}"
      name: moodle
      labels: {app: moodle}
      labelMix:
        - {labels: {ring: "0"}, weight: 1}
        - {labels: {ring: "1"}, weight: 3}
        - {labels: {ring: "2"}, weight: 2}
      template:
        version: {value: "4.5.0", approvalMode: Always}
        stages:
          - {name: app, sourceRef: {kind: GitRepository, name: moodle}}
YAML
expect_rc "the members settle on 4.5.0" 0 "$SIM" run -q --until horizon --horizon 5m --snapshot 5m "$tmp/a-snap.yaml" "$tmp/a.yaml"
pyfacts "$SIM" "$tmp" <<'PY'
import json, subprocess, sys, datetime, yaml
from facts import check
sim, tmp = sys.argv[1], sys.argv[2]
d = yaml.safe_load(open(tmp + '/a-snap.yaml'))
for it in d['items']:
    # edited and applied by hand: what the first run's controllers had queued
    # is gone, and the run from it is a new one (its own clock)
    for k in [k for k in it['metadata'].get('annotations', {}) if '.magos-sim.io/' in k]:
        del it['metadata']['annotations'][k]
    if it['kind'] == 'StageSet':
        it['spec']['version']['value'] = '4.6.0'
        it['metadata']['generation'] += 1
d['items'].append(yaml.safe_load('''
apiVersion: stages.metio.wtf/v1
kind: FleetRollout
metadata: {name: moodle}
spec:
  targetVersion: "4.6.0"
  selector: {matchLabels: {app: moodle}}
  waves:
    - name: canary
      selector: {matchLabels: {ring: "0"}}
      soak: 10m
      gate:
        source: {prometheus: {address: "http://prometheus.monitoring:9090", query: 'sum(rate(http_requests_total{app="moodle",code=~"5.."}[5m]))'}}
        threshold: {max: "0.01"}
    - {name: broad, selector: {matchLabels: {ring: "1"}}, soak: 20m}
    - {name: rest, selector: {matchLabels: {ring: "2"}}}
'''))
yaml.safe_dump(d, open(tmp + '/b.yaml', 'w'))
def events(args):
    p = subprocess.run([sim, 'run', '--events', '-'] + args, capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL run", args, p.stderr[:400]); sys.exit(0)
    return [json.loads(l) for l in p.stdout.splitlines()]
def key(e):
    detail = sorted(x.split(': ')[-1] for x in (e['detail'] or '').split(', '))
    return (e['time'], e['kind'], e['namespace'], e['name'], e['change'], e['phase'], e['reason'], e['message'], detail)
start = datetime.datetime(2026, 3, 2, 8, 5, tzinfo=datetime.timezone.utc)
src = ['--now', '2026-03-02T08:05:00Z', tmp + '/models.yaml', tmp + '/b.yaml']
whole = events(src)
end = max(e['elapsed_ms'] for e in whole)
check("the whole run halts on the gate and completes", any(e['kind'] == 'FleetRollout' and e['phase'] == 'Halted' for e in whole)
      and any(e['kind'] == 'FleetRollout' and e['phase'] == 'Completed' for e in whole))
# A plain export does not say when the run it came from started: its
# Scenario's series counts from the resumed start, so it is written from
# there (t a whole number of its 10s samples; promtool's "a x125" is 126
# samples).  A snapshot of the simulator says it (clock.magos-sim.io/origin)
# and is resumed with the Scenario as it was.
samples = ['0.002'] * 126 + ['0.03'] * 24 + ['0.002'] * 1806
models = open(tmp + '/models.yaml').read()
origins = set()
def strip_queues(path, out):
    # a plain kubectl export of the same objects: no simulator annotations
    d = yaml.safe_load(open(path))
    for it in d['items']:
        ann = it['metadata'].get('annotations', {})
        origins.add(ann.get('clock.magos-sim.io/origin'))
        for k in [k for k in ann if '.magos-sim.io/' in k]:
            del ann[k]
        if 'annotations' in it['metadata'] and not ann:
            del it['metadata']['annotations']
    yaml.safe_dump(d, open(out, 'w'))
differ, loose, marked = [], [], []
for t in range(0, end + 1, 20000):
    p = subprocess.run([sim, 'run', '-q', '--snapshot', '%dms' % t, tmp + '/s.yaml'] + src, capture_output=True, text=True)
    if p.returncode != 0:
        differ.append((t, p.stderr[:200])); continue
    snap = yaml.safe_load(open(tmp + '/s.yaml'))
    fr = [i for i in snap['items'] if i['kind'] == 'FleetRollout'][0]
    marked.append(fr['metadata'].get('annotations', {}).get('queue.magos-sim.io/fleetrollout-controller'))
    with open(tmp + '/m.yaml', 'w') as f:
        f.write(models.replace('values: "0.002x125 0.03x23 0.002x1805"', 'values: "%s"' % ' '.join(samples[t // 10000:])))
    now = (start + datetime.timedelta(milliseconds=t)).strftime('%Y-%m-%dT%H:%M:%S.%fZ')
    want = [(e['elapsed_ms'], key(e)[1:]) for e in whole if e['elapsed_ms'] > t]
    # The snapshot carries the work queues (the FleetRollout's next 30s
    # requeue, the StageSets' entries) and the run's start, which the series
    # counts from: the rest is the whole run's, exactly.
    rest = events(['--now', now, tmp + '/models.yaml', tmp + '/s.yaml'])
    got = [(t + e['elapsed_ms'], key(e)[1:]) for e in rest if e['elapsed_ms'] > 0 or e['change'] != 'created']
    if want != got:
        first = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
        differ.append((t, want[first:first + 1], got[first:first + 1]))
    # Without them (a plain kubectl export) the controllers restart: the
    # FleetRollout's 30s cycle starts at t, so a pass (a gate read) may come
    # up to 30s apart: the same transitions in the same order, each within 30s.
    strip_queues(tmp + '/s.yaml', tmp + '/plain.yaml')
    rest = events(['--now', now, tmp + '/m.yaml', tmp + '/plain.yaml'])
    got = [(t + e['elapsed_ms'], key(e)[1:]) for e in rest if e['elapsed_ms'] > 0 or e['change'] != 'created']
    same = len(want) == len(got) and all(a[1] == b[1] and abs(a[0] - b[0]) < 30000 for a, b in zip(want, got))
    if not same:
        first = next((i for i, (a, b) in enumerate(zip(want, got)) if a[1] != b[1] or abs(a[0] - b[0]) >= 30000), min(len(want), len(got)))
        loose.append((t, want[first:first + 1], got[first:first + 1]))
check("every object of every snapshot says when the run started", origins == {'2026-03-02T08:05:00Z'}, origins)
check("every snapshot says when the FleetRollout's next pass is due",
      all(m and (m.startswith('at=2026-03-02T08:') and ' priority=' in m and ' order=' in m) for m in marked), marked[:3])
check("a fleet resumed from each of %d snapshots (every 20s of %dms, passes in flight among them) continues exactly as the whole run" % (end // 20000 + 1, end),
      not differ, differ[:2])
check("without the queue annotations (a plain kubectl export) it continues as after a restart, each transition within one 30s requeue",
      not loose, loose[:2])
PY

# --- a StageSet's status read from a snapshot: promotion states, pendingUpdate, migrations ---
# The single-StageSet examples with their GitRepository in the store (a
# snapshot holds what the store holds; a modelled source would start again at
# its initial revision, see scenarios/README.md).  Each is snapshot where its status holds
# the field and resumed with the Scenario's times moved to the snapshot's;
# a publish becomes the GitRepository's new artifact (a status event) and the
# spec.version edit it makes.
pyfacts "$SIM" "$tmp" <<'PY'
import hashlib, json, subprocess, sys, yaml
from facts import check
sim, tmp = sys.argv[1], sys.argv[2]
GIT = yaml.safe_load("""
apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata: {name: shop, namespace: shop}
spec: {url: "https://git.example.com/shop/shop.git", interval: 1m0s, ref: {branch: main}}
status:
  artifact:
    revision: main@sha1:4b825dc642cb6eb9a060e54bf8d69288fbee4904
    digest: sha256:0b8f1e6a2c3d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccdd
    path: gitrepository/shop/shop/4b825dc6.tar.gz
    url: http://source-controller.flux-system.svc.cluster.local./gitrepository/shop/shop/4b825dc6.tar.gz
    lastUpdateTime: "2026-03-01T08:00:00Z"
  conditions:
  - {type: Ready, status: "True", reason: Succeeded, message: stored artifact, lastTransitionTime: "2026-03-01T08:00:00Z", observedGeneration: 1}
""")
UNITS = {'ms': 1, 's': 1000, 'm': 60000, 'h': 3600000}
def dur(s):
    total, num, s, i = 0, '', str(s), 0
    while i < len(s):
        if s[i].isdigit():
            num += s[i]; i += 1; continue
        u = 'ms' if s[i:i + 2] == 'ms' else s[i]
        total += int(num) * UNITS[u]; num = ''; i += len(u)
    return total
def stored_source(name, edit=None):
    docs = [d for d in yaml.safe_load_all(open('scenarios/%s.yaml' % name)) if d]
    repos = sorted({st['sourceRef']['name'] for d in docs if d['kind'] == 'StageSet' for st in d['spec']['stages']})
    for d in docs:
        if d['kind'] == 'Scenario':
            d['spec'].pop('expect', None)
            events = []
            for e in d['spec'].get('events', []):
                events.append(e)
                if 'publish' in e:
                    # the source's new artifact and the version the StageSet is edited to
                    v = e.pop('publish')['version']
                    e['patch'] = {'kind': 'StageSet', 'namespace': 'shop', 'name': 'shop', 'merge': {'spec': {'version': {'value': v}}}}
                    art = {'revision': 'main@sha1:' + hashlib.sha1(v.encode()).hexdigest(), 'digest': 'sha256:' + hashlib.sha256(v.encode()).hexdigest()}
                    events += [{'at': e['at'], 'status': {'kind': 'GitRepository', 'namespace': 'shop', 'name': r, 'merge': {'artifact': art}}} for r in repos]
            d['spec']['events'] = events
        if edit:
            edit(d)
    for r in repos:
        g = json.loads(json.dumps(GIT))
        g['metadata']['name'] = r
        docs.append(g)
    path = '%s/%s.yaml' % (tmp, name)
    yaml.safe_dump_all(docs, open(path, 'w'))
    return path
def resumed_scenario(path, t):
    # the Scenario document alone, as it was: the snapshot says when its run
    # started, and its times (events, action failure windows, series) are
    # read on that clock
    scn = [d for d in yaml.safe_load_all(open(path)) if d and d['kind'] == 'Scenario'][0]
    out = tmp + '/resumed.yaml'
    yaml.safe_dump(scn, open(out, 'w'))
    return out
def events(args):
    p = subprocess.run([sim, 'run', '--events', '-'] + args, capture_output=True, text=True)
    return [json.loads(l) for l in p.stdout.splitlines()] if p.returncode == 0 else [('failed', p.stderr[:300])]
def key(e):
    detail = sorted(x.split(': ')[-1] for x in (e['detail'] or '').split(', '))
    return (e['kind'], e['namespace'], e['name'], e['change'], e['phase'], e['reason'], e['message'], detail)
def resume(path, at):
    """(the StageSet's status in the snapshot at `at`, the whole run's rest, the resumed run's)"""
    t = dur(at)
    snap = tmp + '/ss-snap.yaml'
    p = subprocess.run([sim, 'run', '-q', '--snapshot', at, snap, path], capture_output=True, text=True)
    if p.returncode != 0:
        return None, [], [('snapshot failed', p.stderr[:300])]
    text = open(snap).read()
    status = [i for i in yaml.safe_load(text)['items'] if i['kind'] == 'StageSet'][0]['status']
    now = text.split('run --now ')[1].split()[0]
    rest = events(['--now', now, resumed_scenario(path, t), snap])
    want = [(e['elapsed_ms'], key(e)) for e in events([path]) if e['elapsed_ms'] > t]
    got = [(t + e['elapsed_ms'], key(e)) if isinstance(e, dict) else e for e in rest
           if not isinstance(e, dict) or e['elapsed_ms'] > 0 or e['change'] != 'created']
    return status, want, got
def first_diff(want, got):
    i = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
    return want[i:i + 1], got[i:i + 1]
def reasons(rest):
    return [(t, k[5]) for t, k in rest if k[3] == 'status']

# pendingUpdate: 2.1.0 held by the update window until it closes at 4h
st, want, got = resume(stored_source('stageset-update-window'), '2h')
check("update window: the snapshot at 2h holds status.pendingUpdate", bool(st and st.get('pendingUpdate', {}).get('revisions')), st)
check("resumed from it, the held version goes out when the window closes (4h1m1s Succeeded), as in the whole run",
      want == got and (14461000, 'Succeeded') in reasons(want), first_diff(want, got))

# promotion states: the canary soaking, then blocked by its analysis
path = stored_source('stageset-promotion-gate')
st, want, got = resume(path, '35m')
check("promotion gate: the snapshot at 35m holds the canary's promotionState Soaking with its soakUntil",
      st and st['stages'][0].get('promotionState', {}).get('phase') == 'Soaking' and st['stages'][0]['promotionState'].get('soakUntil'), st and st['stages'])
check("resumed from it, the soak ends at its soakUntil and prod takes the version, as in the whole run",
      want == got and any(r == 'Succeeded' for t, r in reasons(want)), first_diff(want, got))
st, want, got = resume(path, '2h6m')
check("promotion gate: the snapshot at 2h6m holds the canary's blocked promotion",
      st and [c['reason'] for c in st['conditions'] if c['type'] == 'Ready'] == ['PromotionBlocked'], st and st['conditions'])
check("resumed from it, the analysis goes on failing, then passes and the soak starts, as in the whole run",
      want == got and reasons(want)[-1][1] == 'Succeeded', first_diff(want, got))

# migrations: pending for approval, then executed
st, want, got = resume(stored_source('stageset-migration-hold'), '45m')
check("migration hold: the snapshot at 45m holds pendingVersion and pendingMigrations",
      st and st.get('pendingVersion') == '2.0.0' and [m['name'] for m in st.get('pendingMigrations', [])] == ['drop-legacy'], st)
check("resumed from it, the approval at 1h runs the migration once and succeeds, as in the whole run",
      want == got and [k[5] for t, k in want if k[3] == 'event'].count('MigrationStarted') == 1, first_diff(want, got))
# In flight: the pass the approval wakes at 1h0m0s (the migration, the apply
# and the 1m wait for readiness) is running at 1h0m1s; its writes are in no
# object.
text_of = lambda: open(tmp + '/ss-snap.yaml').read()
st, want, got = resume(stored_source('stageset-migration-hold'), '1h0m1s')
check("migration hold: the snapshot at 1h0m1s says the StageSet's pass is in flight since 1h0m0s",
      'queue.magos-sim.io/stageset-controller: started=2026-03-01T09:00:00Z priority=0 order=0' in text_of())
check("resumed from it, the pass is made again as of its start and ends when it would have (1h1m2s), as in the whole run",
      want == got and reasons(want)[:1] == [(3662000, "Succeeded")], (first_diff(want, got), reasons(want)))
# A second migration whose action fails from 1h to 1h20m: the first is
# executed and recorded, the second fails until the migration is dirty.
def second_migration(d):
    if d['kind'] == 'Scenario':
        d['spec']['models']['stagesets']['actions'] = [{'name': 'drop-legacy-index', 'phase': 'migration', 'failure': {'during': [{'from': '1h', 'until': '1h20m'}]}}]
    if d['kind'] == 'StageSet':
        d['spec']['migrations'].append({'name': 'drop-legacy-index', 'to': '2.0.0', 'actions': [{'name': 'drop-legacy-index', 'delete': {'target': {'apiVersion': 'v1', 'kind': 'ConfigMap', 'name': 'legacy-index'}}}]})
path = stored_source('stageset-migration-hold', second_migration)
st, want, got = resume(path, '1h0m3010ms')
check("two migrations: the snapshot in the back-off after the second's failures holds the first in executedMigrations",
      st and [m.split('@')[0] for m in st.get('executedMigrations', [])] == ['drop-legacy'], st)
started = [k[6] for t, k in got if k[3] == 'event' and k[5] == 'MigrationStarted']
check("resumed from it, the retries keep their back-off and only the second migration runs again, as in the whole run",
      want == got and started and all('drop-legacy-index' in m for m in started), first_diff(want, got))
PY

# --- the StageSet world resumed: modelled sources a publish moved, faults,
# jittered requeues, inventories, the series and the horizon on the original
# clock ---
# The examples as they are (their sources modelled, their publishes, regress
# events and series), snapshot across the run and at instants inside a pass
# and next to a publish, each resumed with its Scenario document alone.
pyfacts "$SIM" "$tmp" <<'PY'
import json, subprocess, sys, yaml
from facts import check
sim, tmp = sys.argv[1], sys.argv[2]
def events(args):
    p = subprocess.run([sim, 'run', '--events', '-'] + args, capture_output=True, text=True)
    return [json.loads(l) for l in p.stdout.splitlines()] if p.returncode == 0 else [('failed', p.stderr[:300])]
def key(e):
    detail = sorted(x.split(': ')[-1] for x in (e['detail'] or '').split(', '))
    return (e['kind'], e['namespace'], e['name'], e['change'], e['phase'], e['reason'], e['message'], detail)
def scenario_doc(name):
    scn = [d for d in yaml.safe_load_all(open('scenarios/%s.yaml' % name)) if d and d['kind'] == 'Scenario'][0]
    for k in ('expect', 'generate'):   # the StageSets spec.generate made are in the snapshot
        scn['spec'].pop(k, None)
    out = '%s/%s-scenario.yaml' % (tmp, name)
    yaml.safe_dump(scn, open(out, 'w'))
    return out
snaps = {}
def resumes(name, times):
    path, doc = 'scenarios/%s.yaml' % name, scenario_doc(name)
    whole = events([path])
    differ = []
    for t in times:
        snap = '%s/%s-%d.yaml' % (tmp, name, t)
        p = subprocess.run([sim, 'run', '-q', '--snapshot', '%dms' % t, snap, path], capture_output=True, text=True)
        if p.returncode != 0:
            differ.append((t, p.stderr[:300])); continue
        snaps[(name, t)] = yaml.safe_load(open(snap))['items']
        now = open(snap).read().split('run --now ')[1].split()[0]
        want = [(e['elapsed_ms'], key(e)) for e in whole if e['elapsed_ms'] > t]
        got = [(t + e['elapsed_ms'], key(e)) if isinstance(e, dict) else e for e in events(['--now', now, doc, snap])
               if not isinstance(e, dict) or e['elapsed_ms'] > 0 or e['change'] != 'created']
        if want != got:
            i = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
            differ.append((t, want[i:i + 1], got[i:i + 1]))
    return differ
def spread(end, n, extra=()):
    return sorted(set([end * k // n for k in range(n + 1)] + list(extra)))
def modelled(items):
    return {(i['kind'], i['metadata']['name']): (i['metadata']['annotations']['model.magos-sim.io/source-version'], i['status']['artifact']['revision'])
            for i in items if 'model.magos-sim.io/source-version' in i['metadata'].get('annotations', {})}

# two publishes (30m, 2h) to modelled GitRepositories; a pass in flight
# applying 2.2.0 at 2h0m48.8s, one applying prod at 12m
d = resumes('stageset-promotion-gate', spread(8528000, 12, (1799999, 1800000, 1801000, 7200000, 7248800, 720000)))
check("promotion gate: resumed across the run, next to each publish and inside passes, it continues exactly as the whole run", not d, d[:2])
before, after = modelled(snaps[('stageset-promotion-gate', 1799999)]), modelled(snaps[('stageset-promotion-gate', 1800000)])
check("before the 30m publish the snapshot carries no modelled source (they are at their initial revision)", before == {}, before)
check("from it on, both GitRepositories as kubectl shows them, carrying 2.1.0",
      sorted(after) == [('GitRepository', 'shop'), ('GitRepository', 'shop-canary')] and {v for v, r in after.values()} == {'2.1.0'}, after)
check("after the 2h publish they carry 2.2.0 at a new revision",
      {v for v, r in modelled(snaps[('stageset-promotion-gate', 7248800)]).values()} == {'2.2.0'}
      and not set(r for v, r in after.values()) & set(r for v, r in modelled(snaps[('stageset-promotion-gate', 7248800)]).values()))
d = resumes('stageset-update-window', spread(14461000, 8, (5400000, 5401000)))
check("update window: resumed across the run and at the publish, it continues exactly as the whole run", not d, d[:2])
d = resumes('stageset-migration-hold', spread(3662000, 8, (1800000, 3600000, 3601000)))
check("migration hold: resumed across the run, at the publish and the approval, it continues exactly as the whole run", not d, d[:2])
# a fleet: a publish at 10m, the gate's series read at its original offsets,
# the StageSets' jittered 10m requeues drawn on
d = resumes('fleet-gate-halt', spread(3844000, 16))
check("fleet gate halt: resumed across the run, the gate reads the series where the whole run did and the requeues keep their jitter", not d, d[:2])
draws = [i['metadata']['annotations'].get('draws.magos-sim.io/stageset-requeue') for i in snaps[('fleet-gate-halt', 3844000)] if i['kind'] == 'StageSet']
check("each StageSet says how many jittered requeues were drawn for it", draws and all(x and x.isdigit() for x in draws), draws)
# a regress from 25m to 40m spanning T; a failed stage whose status shows no inventory
d = resumes('fleet-member-regression', spread(5697380, 16, (1500000, 2278950)))
check("member regression: resumed inside the regress window and after it, it continues exactly as the whole run", not d, d[:2])
inv = [i['metadata']['annotations'].get('model.magos-sim.io/inventory') for i in snaps[('fleet-member-regression', 2278950)]
       if i['kind'] == 'StageSet' and i['metadata']['namespace'] == 'tenant-00']
check("the failed member's StageInventory shard rides along (its status shows no entriesCount)", inv == ['app=1'], inv)
# a run that never completes: it ends at the Scenario's horizon, not 2h after the resumed start
d = resumes('fleet-rollback-derived', spread(6967824, 8))
check("rollback oscillation: resumed, it ends at the original horizon (2h) as the whole run", not d, d[:2])
PY

# --- run --at T: the objects as kubectl and stagesetctl show them ---
expect_rc "--at 1m runs" 0 "$SIM" run -q --at 1m scenarios/checkout/
has_line "--at names its time" "$tmp/out" "At 1m0s (2026-01-01T00:01:00Z):"
has_line "the Workspaces with the printer columns" "$tmp/out" "NAMESPACE   NAME               PHASE      PROJECT    REVISION   AGE"
has_line "dev Applied, staging Planning at 1m" "$tmp/out" "shop        checkout-staging   Planning   checkout              60s"
has_line "the Rollout on step 1" "$tmp/out" "shop        checkout   Reconciling   checkout   1         60s"
has_line "the Jobs as kubectl get jobs" "$tmp/out" "shop        checkout-staging-plan-bf6fab57   Running    0/1           10s        10s"
expect_rc "--at on a fleet runs" 0 "$SIM" run -q --at 20m scenarios/fleet-gate-halt.yaml
has_line "the FleetRollouts with their printer columns" "$tmp/out" '$ kubectl get fleetrollouts.stages.metio.wtf'
contains "and the stagesetctl fleet view" "$tmp/out" '$ stagesetctl fleet '
# After the change completed (2m30s) the world goes on: the Workspaces'
# scheduled reconciliation re-runs them every 3m.  --at / --snapshot T show
# that world at T, the same as a run to the horizon shows it, not the end of
# a run that stopped at completion under a header that says T.
expect_rc "--at after the completion runs" 0 "$SIM" run -q --at 10m scenarios/checkout/
mv "$tmp/out" "$tmp/at10m.out"
lacks "--at after the completion shows no stopped-before note" "$tmp/err" "before --at"
has_line "--at after the completion names its time" "$tmp/at10m.out" "At 10m0s (2026-01-01T00:10:00Z):"
has_line "the ages are measured at T" "$tmp/at10m.out" "shop        checkout   Reconciling   checkout   1         10m"
has_line "the scheduled re-run after the completion shows" "$tmp/at10m.out" "shop        checkout-staging   Planning   checkout   main       10m"
expect_rc "--at 10m with --until horizon runs" 0 "$SIM" run -q --until horizon --at 10m scenarios/checkout/
sed -n '/^At /,$p' "$tmp/at10m.out" >"$tmp/at10m.tables"
sed -n '/^At /,$p' "$tmp/out" >"$tmp/at10m-h.tables"
check "--at 10m shows what a run to the horizon shows at 10m" cmp -s "$tmp/at10m.tables" "$tmp/at10m-h.tables"
expect_rc "--snapshot after the completion writes the List" 0 "$SIM" run -q --snapshot 10h "$tmp/s10h.yaml" scenarios/checkout/
lacks "--snapshot after the completion shows no stopped-before note" "$tmp/err" "before --snapshot"
contains "the snapshot header says 10h" "$tmp/s10h.yaml" "# checkout at 10h0m0s (2026-01-01T10:00:00Z)"
contains "the queues are due after T, not at the completion" "$tmp/s10h.yaml" "queue.magos-sim.io/workspace-controller: at=2026-01-01T10:03:00Z"
lacks "no queue entry dated at the completion" "$tmp/s10h.yaml" "at=2026-01-01T00:02:30Z"
expect_rc "--snapshot 10h with --until horizon runs" 0 "$SIM" run -q --until horizon --snapshot 10h "$tmp/s10h-h.yaml" scenarios/checkout/
check "--snapshot 10h is what a run to the horizon writes at 10h" cmp -s "$tmp/s10h.yaml" "$tmp/s10h-h.yaml"
expect_rc "a run ended at T says so on its timeline" 0 "$SIM" run --at 2h --width 200 scenarios/fleet-gate-halt.yaml
contains "the timeline names the time looked at" "$tmp/out" "the change completed: run went on to the time looked at (--at, --snapshot) and ended here"
has_line "--at 2h on a fleet names its time" "$tmp/out" "At 2h0m0s (2026-03-02T10:00:00Z):"
expect_rc "--at after the horizon is a usage error" 2 "$SIM" run -q --horizon 1h --at 2h scenarios/checkout/
contains "--at after the horizon says how to reach it" "$tmp/err" "--at 2h is after the run's horizon (1h0m0s), where simulated time ends:"
expect_rc "--snapshot after the horizon is a usage error" 2 "$SIM" run -q --snapshot 25h "$tmp/x.yaml" scenarios/checkout/
contains "--snapshot after the horizon names the option" "$tmp/err" "give --horizon 25h0m0s or more, or an earlier --snapshot"
check "--snapshot after the horizon writes no file" test ! -e "$tmp/x.yaml"
expect_rc "--at at the horizon runs" 0 "$SIM" run -q --horizon 1h --at 1h scenarios/checkout/
has_line "--at at the horizon names it" "$tmp/out" "At 1h0m0s (2026-01-01T01:00:00Z):"
expect_rc "a bad --at is a usage error" 2 "$SIM" run --at soon scenarios/checkout/
contains "the bad --at is named" "$tmp/err" "invalid --at 'soon'"
expect_rc "--snapshot without its file is a usage error" 2 "$SIM" run --snapshot 1m
expect_rc "--snapshot with trials is a usage error" 2 "$SIM" run -n 2 --snapshot 1m "$tmp/x.yaml" scenarios/checkout/

# --- events on what the controller creates, by the name it gives ---
cat >"$tmp/ev.yaml" <<'YAML'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: ev}
spec:
  events:
    - at: 10s
      status:
        kind: Job
        namespace: shop
        name: checkout-dev-plan-d4d33262
        merge: {failed: 1, active: null, conditions: [{type: Failed, status: "True", reason: BackoffLimitExceeded}]}
    - at: 10s
      annotate: {kind: PersistentVolumeClaim, namespace: shop, name: checkout-dev-data, set: {example.com/checked: "yes"}}
    - at: 10s
      annotate: {kind: Job, namespace: shop, name: checkout-prod-eu-plan-00000000, set: {example.com/x: "1"}}
YAML
expect_rc "events may name the controller's Jobs and PVCs" 0 "$SIM" run --width 200 --timeline all "$tmp/ev.yaml" scenarios/checkout/
contains "the Job's status patch fails the plan" "$tmp/out" "Failed · PlanFailed"
contains "the PVC is annotated" "$tmp/out" "annotations: +example.com/checked=yes"
contains "a Job that does not exist when the event fires is a warning" "$tmp/out" "scenario event 3 (annotate) at 10s did not apply: NotFound"

# --- deletion follows the ownerReferences ---
cat >"$tmp/del.yaml" <<'YAML'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: del}
spec:
  events:
    - at: 30s
      delete: {kind: Workspace, namespace: shop, name: checkout-dev}
YAML
expect_rc "deleting a Workspace mid-run runs" 0 "$SIM" run --until horizon --horizon 5m --events "$tmp/del.jsonl" "$tmp/del.yaml" scenarios/checkout/
pyfacts "$tmp/del.jsonl" <<'PY'
import json, sys
from facts import check
ev = [json.loads(l) for l in open(sys.argv[1])]
gone = sorted((e['kind'], e['name']) for e in ev if e['change'] == 'deleted' and e['cause'] == 'garbage-collector')
check("its Jobs and PVC are collected by their ownerReferences", gone == [('Job', 'checkout-dev-apply-d4d33262'), ('Job', 'checkout-dev-plan-d4d33262'), ('PersistentVolumeClaim', 'checkout-dev-data')], gone)
PY
# A Job owned by another uid is not the Workspace's: neither collected nor
# cleaned up as an orphan of an older spec.
cat >"$tmp/foreign.yaml" <<'YAML'
apiVersion: batch/v1
kind: Job
metadata:
  name: checkout-dev-plan-00000000
  namespace: shop
  labels: {magosproject.io/workspace: checkout-dev}
  ownerReferences:
  - {apiVersion: magosproject.io/v1alpha1, kind: Workspace, name: checkout-dev, uid: 0b0e9a38-0000-4000-8000-00000000dead, controller: true}
spec: {backoffLimit: 0}
status: {succeeded: 1, startTime: "2025-12-31T00:00:00Z", completionTime: "2025-12-31T00:01:00Z"}
YAML
expect_rc "a Job of another owner runs" 0 "$SIM" run --until horizon --horizon 5m --events "$tmp/foreign.jsonl" "$tmp/del.yaml" "$tmp/foreign.yaml" scenarios/checkout/
# Its owner's uid is in no input: the garbage collector deletes it at the
# start (tests/orphans.sh), the Workspace controller never does.
if grep '"name":"checkout-dev-plan-00000000","change":"deleted"' "$tmp/foreign.jsonl" |
	grep -q '"elapsed_ms":0,.*"cause":"garbage-collector"'; then
	ok "it is collected at the start as an orphan"; else bad "it is collected at the start as an orphan"; fi
if grep '"name":"checkout-dev-plan-00000000","change":"deleted"' "$tmp/foreign.jsonl" | grep -q '"cause":"reconcile'; then
	bad "... not cleaned up by the Workspace controller"; else ok "... not cleaned up by the Workspace controller"; fi
# With that owner loaded (another Workspace of the name's past), it stays.
cat >>"$tmp/foreign.yaml" <<'YAML'
---
apiVersion: magosproject.io/v1alpha1
kind: Workspace
metadata: {name: checkout-legacy, namespace: shop, uid: 0b0e9a38-0000-4000-8000-00000000dead}
spec:
  projectRef: {name: legacy}
  source: {repoURL: https://git.example.com/shop/legacy.git, targetRevision: main}
  terraform: {version: "1.14.8"}
YAML
expect_rc "a Job of another loaded owner runs" 0 "$SIM" run --until horizon --horizon 5m --events "$tmp/foreign2.jsonl" "$tmp/del.yaml" "$tmp/foreign.yaml" scenarios/checkout/
lacks "it is not deleted" "$tmp/foreign2.jsonl" '"name":"checkout-dev-plan-00000000","change":"deleted"'
printf 'apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\n  ownerReferences:\n  - {apiVersion: v1, kind: A, name: a, uid: "1", controller: true}\n  - {apiVersion: v1, kind: B, name: b, uid: "2", controller: true}\n' >"$tmp/two.yaml"
expect_rc "two controller references are refused" 1 "$SIM" lint "$tmp/two.yaml"
contains "as the API server refuses them" "$tmp/out" "metadata.ownerReferences: Invalid value: only one reference can have Controller set to true"

# A hand-edited FleetRollout status naming a wave the spec lacks: accepted
# (the API server takes it) with a warning that says what the controller
# does with it: currentWave is recomputed, a waves[] entry of no spec wave dropped.
mkdir -p "$tmp/edited/snapshot-moodle-fleet"
cp scenarios/snapshot-moodle-fleet.yaml "$tmp/edited/"
awk '/currentWave: broad/ { sub(/broad/, "brod") } /^      name: broad$/ && ++n == 1 { sub(/broad/, "brod") } { print }' \
	scenarios/snapshot-moodle-fleet/cluster.yaml >"$tmp/edited/snapshot-moodle-fleet/cluster.yaml"
expect_rc "a status naming no wave of the spec loads" 0 "$SIM" run -q --now 2026-03-02T08:20:00Z "$tmp/edited/snapshot-moodle-fleet.yaml"
has_line "... warns of currentWave" "$tmp/err" "$tmp/edited/snapshot-moodle-fleet/cluster.yaml:585:18: warning: FleetRollout \"moodle\": status.currentWave \"brod\" names no wave of spec.waves"
contains "... and says the controller recomputes it" "$tmp/err" "the controller does not read status.currentWave: its first pass sets it to the first wave not yet passed"
has_line "... warns of the waves entry" "$tmp/err" "$tmp/edited/snapshot-moodle-fleet/cluster.yaml:597:13: warning: FleetRollout \"moodle\": status.waves[1].name \"brod\" names no wave of spec.waves"
contains "... and says it is dropped with its soakUntil" "$tmp/err" "its first pass drops this entry, and its soakUntil and health with it"
expect_rc "the example as it is loads without a warning" 0 "$SIM" run -q --now 2026-03-02T08:20:00Z scenarios/snapshot-moodle-fleet.yaml
lacks "... of its status" "$tmp/err" "names no wave"

# --snapshot T -: the List on standard output instead of the report, the same
# bytes as the file; it reads back through standard input.
"$SIM" run -q --snapshot 5m "$tmp/snap5.yaml" scenarios/three-environments.yaml >/dev/null 2>&1
expect_rc "--snapshot 5m - writes the List to stdout" 0 "$SIM" run --snapshot 5m - scenarios/three-environments.yaml
check "... the same bytes as --snapshot 5m FILE, and no report" cmp -s "$tmp/snap5.yaml" "$tmp/out"
cp "$tmp/out" "$tmp/snap5-stdout.yaml"
expect_rc "... which resumes from standard input" 0 "$SIM" run -q --now 2026-03-02T09:05:00Z - <"$tmp/snap5-stdout.yaml"
expect_rc "--snapshot 5m --json x still wants a file" 2 "$SIM" run --snapshot 5m --json x scenarios/three-environments.yaml
contains "... and says so" "$tmp/err" "--snapshot needs a time and a file: --snapshot T FILE"

finish
