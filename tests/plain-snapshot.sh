#!/bin/sh
# What a run resumed from a plain `kubectl get -o yaml` (no
# state.magos-sim.io/observer history) tells of the time before it: the
# steps view gives what the objects say happened before the snapshot
# (the Jobs' creation, the Ready condition's lastTransitionTime, the
# Rollout's currentStep), each such time marked '*', never taken for one of
# the run; a halt in the run counts in its blast radius the Workspaces that
# had applied before the snapshot.  And `run --at` shows the claims the
# Workspace controller creates, Bound from their creation.
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim
require_python "to read the reports and edit the snapshots"

# magos-halt-before-prod taken at 9m: dev Applied, staging planning; the
# staging apply fails in the resumed run and halts the Rollout.
"$SIM" run -q --until horizon --snapshot 9m "$tmp/sim.yaml" scenarios/ci/magos-halt-before-prod.yaml >/dev/null
pyfacts "$tmp" scenarios/ci/magos-halt-before-prod.yaml <<'PY'
import sys, yaml
tmp, src = sys.argv[1], sys.argv[2]
docs = [d for d in yaml.safe_load_all(open(src)) if d and d.get('kind') == 'Scenario']
yaml.safe_dump_all(docs, open(tmp + '/scn.yaml', 'w'))
text = open(tmp + '/sim.yaml').read()
# a plain export: the same objects without the observer's history
open(tmp + '/plain.yaml', 'w').write(''.join(l for l in text.splitlines(True) if 'state.magos-sim.io/observer' not in l))
# and without the Jobs and claims (kubectl get workspaces,projects,rollouts)
lst = yaml.safe_load(open(tmp + '/plain.yaml'))
lst['items'] = [o for o in lst['items'] if o['kind'] not in ('Job', 'PersistentVolumeClaim')]
yaml.safe_dump(lst, open(tmp + '/nojobs.yaml', 'w'))
PY
for f in sim plain nojobs; do
	"$SIM" run --now 2026-01-01T00:09:00Z --json "$tmp/$f.json" "$tmp/scn.yaml" "$tmp/$f.yaml" >"$tmp/$f.txt" 2>&1
done

has_line "plain export: dev's plan and apply before the snapshot, marked" "$tmp/plain.txt" \
	"      shop-dev                     plan -9m0s*, apply -5m48s*→-3m16s*  Applied"
has_line "plain export: the steps dev opened and completed before the snapshot" "$tmp/plain.txt" \
	"  dev                        -9m0s*      -3m16s*  1"
lacks "plain export: no Workspace that applied 'never ran'" "$tmp/plain.txt" "never ran"
contains "plain export: the mark is said" "$tmp/plain.txt" "* before the snapshot (the run starts at 0s)"
has_line "plain export without Jobs: dev Applied since its Ready condition turned True" "$tmp/nojobs.txt" \
	"      shop-dev                     applied -3m16s*  Applied"
for f in sim plain nojobs; do
	contains "$f: the halt's blast radius counts dev, Applied before the snapshot" "$tmp/$f.txt" \
		"blast     2 of 3 Workspaces had begun applying by the halt"
done

pyfacts "$tmp" <<'PY'
import json, re, sys
from facts import check
tmp = sys.argv[1]
DUR = re.compile(r'(?<![\w.])(-?(?:\d+h)?(?:\d+m(?!s))?(?:\d+(?:\.\d+)?(?:ms|s))?)(\*?)(?=[\s,→]|$)')
def ms(d):
    t = sum(float(v) * {'h': 3600000, 'm': 60000, 's': 1000, 'ms': 1}[u]
            for v, u in re.findall(r'(\d+(?:\.\d+)?)(h|ms|m|s)', d))
    return -round(t) if d.startswith('-') else round(t)
def steps(name):
    text = open(tmp + '/' + name + '.txt').read()
    return text[text.index('\nRollout default/shop'):text.index('\nstopped ')]
def times(section):
    return [(m.group(1), m.group(2)) for m in DUR.finditer(section) if re.search(r'\d', m.group(1))]
for name in ('sim', 'plain', 'nojobs'):
    section = steps(name)
    unmarked = [d for d, mark in times(section) if d.startswith('-') and not mark]
    check(name + ": no time before the snapshot goes unmarked, beside one of the run",
          not unmarked, unmarked)
    marked = [d for d, mark in times(section) if mark and not d.startswith('-') and d != '0s']
    check(name + ": no time of the run is marked as before the snapshot", not marked, marked)
carried = [ms(d) for d, mark in times(steps('sim')) if mark]
derived = [ms(d) for d, mark in times(steps('plain')) if mark]
check("the history a plain export tells is the one the simulator's snapshot carries, to the second",
      len(carried) == len(derived) > 0 and all(abs(a - b) < 1000 for a, b in zip(carried, derived)),
      (carried, derived))
for name in ('sim', 'plain', 'nojobs'):
    s = json.load(open(tmp + '/' + name + '.json'))['summary']
    want = {'count': 2, 'total': 3, 'names': ['shop-dev', 'shop-staging']}
    check(name + ": JSON blast radius of the halt in the run holds dev, Applied before it",
          s['halt'] and s['halt']['before_start'] is False and s['blast_radius'] == want
          and s['rollouts'][0]['blast_radius'] == want, (s['halt'], s['blast_radius']))
PY

# The worked example, a live cluster's List: staging's apply Job was created
# 1m30s before the snapshot; the line says so, and that it ends in the run.
"$SIM" run --now 2026-11-30T14:02:07Z scenarios/snapshot-shop-network.yaml >"$tmp/shop.txt" 2>&1
has_line "the example: dev's history from its Jobs, on one line" "$tmp/shop.txt" \
	"      shop-network-dev             plan -7m0s*, apply -5m50s*→-2m40s*  Applied"
has_line "the example: staging opened when dev completed, before the snapshot" "$tmp/shop.txt" \
	"  staging                   -2m40s*    2m54.535s  1"
has_line "the example: staging's apply began before the snapshot and ended in the run" "$tmp/shop.txt" \
	"        │ plan -2m40s*, apply -1m30s*→2m54.535s"

# --- a start before the export's times: what they date is read as at the start ---
# The steps view then dates it at 0s*; a note under the warning says so,
# naming the earliest such time (the Rollout's lastReconcileTime, 13:59:27)
# and the start.
"$SIM" run --now 2026-11-30T13:58:00Z scenarios/snapshot-shop-network.yaml >"$tmp/early.txt" 2>"$tmp/early.err"
has_line "a start before the export's times: dev's Ready time is read as at the start" "$tmp/early.txt" \
	"      shop-network-dev             plan -2m53s*, apply -1m43s*→0s*  Applied"
has_line "... and a note at the earliest such time says so, naming it and the start" "$tmp/early.err" \
	"scenarios/snapshot-shop-network/cluster.yaml:118:24: note: from 2026-11-30T13:59:27Z on (the earliest, Rollout \"shop/shop-network\": status.lastReconcileTime), the times the objects hold of their history are after the start 2026-11-30T13:58:00Z and are read as at it: what they date is taken to have happened by 0s (the steps view shows it at 0s*), not when they say"
check "... under the warning of the latest" sh -c 'grep -n "warning: .*is later than the clock" "$1" | grep -q "^1:"' _ "$tmp/early.err"
mkdir "$tmp/early"
cp -R scenarios/snapshot-shop-network "$tmp/early/"
sed 's/^spec:$/spec:\n  start: "2026-11-30T13:59:00Z"/' scenarios/snapshot-shop-network.yaml >"$tmp/early/scn.yaml"
"$SIM" run -q "$tmp/early/scn.yaml" >/dev/null 2>"$tmp/early-start.err"
contains "with spec.start, the note names it and the first time after it" "$tmp/early-start.err" \
	"note: from 2026-11-30T13:59:27Z on (the earliest, Rollout \"shop/shop-network\": status.lastReconcileTime), the times the objects hold of their history are after the start 2026-11-30T13:59:00Z"
"$SIM" run -q --now 2026-11-30T14:00:30Z scenarios/snapshot-shop-network.yaml >/dev/null 2>"$tmp/late.err"
contains "a start after most of them names the first one after it" "$tmp/late.err" \
	"note: from 2026-11-30T14:00:37Z on (the earliest, Workspace \"shop/shop-network-staging\": status.lastReconcileTime), the times the objects hold of their history are after the start 2026-11-30T14:00:30Z"
"$SIM" run -q --now 2026-11-30T14:02:07Z scenarios/snapshot-shop-network.yaml >/dev/null 2>"$tmp/at.err"
lacks "started at the snapshot, there is no note" "$tmp/at.err" "are read as at it"

# --- the claims: a PVC table under --at, each claim Bound ---
expect_rc "the example at 5m" 0 "$SIM" run -q --at 5m --now 2026-11-30T14:02:07Z scenarios/snapshot-shop-network.yaml
has_line "--at prints kubectl's table of the claims" "$tmp/out" '$ kubectl get pvc -A'
has_line "... with kubectl's columns" "$tmp/out" \
	"NAMESPACE   NAME                        STATUS    VOLUME    CAPACITY   ACCESS MODES   STORAGECLASS   AGE"
has_line "a claim the Workspace controller created in the run is Bound" "$tmp/out" \
	"shop        shop-network-prod-eu-data   Bound                          RWO                           2m6s"
has_line "a snapshot's claim written without status is Bound too" "$tmp/out" \
	"shop        shop-network-dev-data       Bound                          RWO                           12m"
"$SIM" run -q --json "$tmp/three.json" --snapshot 2m "$tmp/three-snap.yaml" scenarios/three-environments.yaml >/dev/null
pyfacts "$tmp/three.json" "$tmp/three-snap.yaml" <<'PY'
import json, sys, yaml
from facts import check
d = json.load(open(sys.argv[1]))
pvc = [e for e in d['timeline'] if e['kind'] == 'PersistentVolumeClaim']
created = {e['name']: e['t_ms'] for e in pvc if e['change'] == 'created'}
bound = {e['name']: (e['t_ms'], e['cause']) for e in pvc if e['change'] == 'status' and e['phase'] == 'Bound'}
check("every claim created is Bound at its creation, by the world's model (job-runner)",
      created and all(bound.get(n) == (t, 'job-runner') for n, t in created.items()), (created, bound))
items = [o for o in yaml.safe_load(open(sys.argv[2]))['items'] if o['kind'] == 'PersistentVolumeClaim']
check("a snapshot writes each claim with status.phase Bound, its access modes and capacity",
      items and all(o.get('status') == {'phase': 'Bound', 'accessModes': ['ReadWriteOnce'], 'capacity': {'storage': '1Gi'}}
                    for o in items), [o.get('status') for o in items])
PY
finish
