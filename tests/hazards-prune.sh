#!/bin/sh
# Objects dropped from a stage's render that no prune deletes (StageSet spec
# R-20, §5 Q-28), told by `lint` before a run and by `run` at its end, each
# claim checked against the run of the same input (tests/hazards/prune-*.yaml,
# each saying what it shows).
#   MS282  shop/shop's stage "app" renders ConfigMaps cm-a and cm-b; the
#          source's update at 1h drops cm-b and app soaks 30m: the pass at
#          1h applies the new render and holds (Soaking), the success at
#          1h31m2s deletes nothing, and cm-b lives to the end, in no
#          StageInventory (the snapshot at 2h counts app's 2 entries: the
#          workload and cm-a; --at 2h lists cm-b under no StageInventory).
#          The same with the soak on a later stage "db" of the same source:
#          the pass at 1h applies app, then holds at db's soak.  With the
#          later stage on another source, its soak holds nothing (its
#          revision is the one promoted) and the pass at 1h prunes cm-b:
#          nothing is told.  With the soak on an earlier stage, the
#          pass at 1h holds before app is applied, and the success at
#          1h32m3s prunes cm-b: nothing is told.  With prune: false on
#          app, cm-b stays as the stage's setting says: nothing is told.
#          A failed pass that rolls app back (rollbackOnFailure) writes the
#          restored render, cm-b included, to app's shard: nothing is told.
. "$(dirname "$0")/lib.sh"
require_python
. "$(dirname "$0")/lib/hazards.sh"
HAZARD_RUN_ARGS="--until horizon"

lint_of prune-dropped
contains "dropped: MS282 is a warning at the update" "$tmp/prune-dropped.lintjson" '"line": 23'
contains "dropped: MS282 says why" "$tmp/prune-dropped.lint" \
	'MS282 warning the sources model'"'"'s update at 1h0m0s drops ConfigMap/cm-b from stage "app"'"'"'s render (GitRepository shop/shop) of StageSet shop/shop, whose promotion gate (a 30m0s soak) holds every new revision: the pass that applies it rewrites the stage'"'"'s StageInventory without it before the gate holds, and the prune, which runs only when every stage promotes, reads the StageInventory as that pass left it, so ConfigMap/cm-b stays in namespace shop for good, listed by no StageInventory'
run_of prune-dropped
snapshot_of prune-dropped 2h dropped2h "dropped"
facts_of prune-dropped "$tmp/dropped2h.yaml" <<'PY'
cms = [(e["t_ms"], e["name"], e["change"]) for e in d["timeline"] if e["kind"] == "ConfigMap"]
check("dropped: cm-a and cm-b are created with the first apply, and never deleted",
      cms == [(61005, "cm-a", "created"), (61005, "cm-b", "created")], cms)
st = [(e["t_ms"], e["reason"]) for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("dropped: the pass at 1h holds at the soak, the success follows at 1h31m2s",
      (3661000, "Soaking") in st and (5462000, "Succeeded") in st, st)
check("dropped: at 2h app's StageInventory lists 2 entries (the workload and cm-a)",
      "model.magos-sim.io/inventory: app=2" in open(sys.argv[2]).read())
n = notice(d, 'StageSet shop/shop: ConfigMap shop/cm-b left stage "app"\'s render, and the pass ending at 1h1m1s applied that render, rewrote the stage\'s StageInventory without it and then held at a promotion gate (PromotionHold)')
check("dropped: the run tells it", n is not None and n["severity"] == "warning", [x["text"] for x in d["notices"]])
check("dropped: the run says how long, and when the run ended", n is not None and "listed by no StageInventory, for 1h58m59s, to the end of the run at 3h0m0s, and for good" in n["text"], n and n["text"])
PY

run_at 2h prune-dropped
contains "dropped: --at 2h shows cm-b in the cluster, in no StageInventory" "$tmp/prune-dropped.at.out" \
	'shop        configmap/cm-b   shop       app       <none>'
contains "dropped: --at 2h shows cm-a listed by app's" "$tmp/prune-dropped.at.out" \
	'shop        configmap/cm-a   shop       app       app'

lint_of prune-dropped-later
contains "later gate: MS282 names the later stage's gate" "$tmp/prune-dropped-later.lint" \
	'MS282 warning the sources model'"'"'s update at 1h0m0s drops ConfigMap/cm-b from stage "app"'"'"'s render (GitRepository shop/shop) of StageSet shop/shop, whose later stage "db", which reads the same source, holds every new revision at its promotion gate (a 30m0s soak): the pass that applies it rewrites the stage'"'"'s StageInventory without it before the gate holds'
run_of prune-dropped-later
facts_of prune-dropped-later <<'PY'
cms = [(e["t_ms"], e["name"], e["change"]) for e in d["timeline"] if e["kind"] == "ConfigMap"]
check("later gate: cm-a and cm-b are created with the first apply, and never deleted",
      cms == [(122005, "cm-a", "created"), (122005, "cm-b", "created")], cms)
st = [(e["t_ms"], e["reason"]) for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("later gate: the pass at 1h holds at db's soak, the success follows at 1h32m4s",
      (3722000, "Soaking") in st and (5524000, "Succeeded") in st, st)
n = notice(d, 'StageSet shop/shop: ConfigMap shop/cm-b left stage "app"\'s render, and the pass ending at 1h2m2s applied that render, rewrote the stage\'s StageInventory without it and then held at a promotion gate (PromotionHold)')
check("later gate: the run tells it", n is not None and n["severity"] == "warning", [x["text"] for x in d["notices"]])
PY

lint_of prune-dropped-later-other
lacks "later gate of another source: no MS282" "$tmp/prune-dropped-later-other.lint" 'MS282'
run_of prune-dropped-later-other
facts_of prune-dropped-later-other <<'PY'
cms = [(e["t_ms"], e["name"], e["change"]) for e in d["timeline"] if e["kind"] == "ConfigMap"]
check("later gate of another source: the pass at 1h prunes cm-b",
      cms == [(122005, "cm-a", "created"), (122005, "cm-b", "created"), (3662000, "cm-b", "deleted")], cms)
check("later gate of another source: the run tells nothing", notice(d, "left stage") is None)
PY

lint_of prune-dropped-steady
lacks "earlier gate: no MS282" "$tmp/prune-dropped-steady.lint" 'MS282'
run_of prune-dropped-steady
facts_of prune-dropped-steady <<'PY'
cms = [(e["t_ms"], e["name"], e["change"]) for e in d["timeline"] if e["kind"] == "ConfigMap"]
check("earlier gate: the success at 1h32m3s prunes cm-b",
      cms == [(1923005, "cm-a", "created"), (1923005, "cm-b", "created"), (5523000, "cm-b", "deleted")], cms)
check("earlier gate: the run tells nothing", notice(d, "left stage") is None)
PY
run_at 2h prune-dropped-steady
lacks "earlier gate: --at 2h shows no cm-b" "$tmp/prune-dropped-steady.at.out" 'configmap/cm-b'
contains "earlier gate: --at 2h shows cm-a" "$tmp/prune-dropped-steady.at.out" \
	'shop        configmap/cm-a   shop       app       app'

lint_of prune-dropped-kept
lacks "prune false: no MS282" "$tmp/prune-dropped-kept.lint" 'MS282'
run_of prune-dropped-kept
facts_of prune-dropped-kept <<'PY'
cms = [(e["t_ms"], e["name"], e["change"]) for e in d["timeline"] if e["kind"] == "ConfigMap"]
check("prune false: cm-a and cm-b are created, and never deleted",
      cms == [(61005, "cm-a", "created"), (61005, "cm-b", "created")], cms)
check("prune false: the run tells nothing", notice(d, "left stage") is None)
PY
run_at 2h prune-dropped-kept
contains "prune false: --at 2h shows cm-b, in no StageInventory" "$tmp/prune-dropped-kept.at.out" \
	'shop        configmap/cm-b   shop       app       <none>'
lint_of prune-dropped-rollback
lacks "rollback: no MS282" "$tmp/prune-dropped-rollback.lint" 'MS282'
run_of prune-dropped-rollback
facts_of prune-dropped-rollback <<'PY'
check("rollback: the run tells nothing", notice(d, "left stage") is None)
check("rollback: the pass at 1h fails StageFailed",
      any(e["kind"] == "StageSet" and e["change"] == "status" and e["reason"] == "StageFailed" and e["t_ms"] >= 3600000
          for e in d["timeline"]))
PY
run_at 1h30m prune-dropped-rollback
contains "rollback: --at 1h30m shows cm-b listed by app's StageInventory again" "$tmp/prune-dropped-rollback.at.out" \
	'shop        configmap/cm-b   shop       app       app'
# --- resumed from a snapshot, the prune and the Q-28 notice are the whole run's ---
# The snapshot carries each shard's entry IDs, the renders naming objects,
# the live objects besides workloads and the survivors
# (model.magos-sim.io/inventory): resumed before the drop, at it, during the
# hold, mid-pass and after, the rest of the timeline and the end-of-run
# notices are the uninterrupted run's.
pyfacts "$SIM" "$tmp" <<'PY'
import sys
from facts import check
from resume_facts import resumed_differ as differ_of, snapshot
sim, tmp = sys.argv[1], sys.argv[2]
def resumed_differ(src, times, notices):
    """Where runs of @src resumed at @times part from the whole run: the rest of
    the timeline, and the end-of-run notices when @notices (else only a
    survivor told that the whole run does not tell)."""
    told = lambda t, whole, rest: [(t, 'a survivor told')] if any('left stage' in n['text'] for n in rest['notices']) else []
    return differ_of(sim, tmp, src, times, notices, extra=None if notices else told)
times = [1800000, 3600000, 3661000, 4000000, 5462000, 5600000, 7200000]
for fx in ['prune-dropped', 'prune-dropped-steady', 'prune-dropped-kept']:
    differ = resumed_differ('tests/hazards/%s.yaml' % fx, times, True)
    check("%s: resumed at 30m, 1h, 1h1m1s, 1h6m40s, 1h31m2s (a pass in flight), 1h33m20s and 2h, "
          "the rest of the timeline and the end-of-run notices are the whole run's" % fx, not differ, differ[:2])
# A whole-run rollback restores the revision from before the drop: a resumed
# run renders what that revision rendered then (cm-b too), not the render
# after the drop, so it keeps cm-b as the whole run does.  (Its rollback-loop
# notice says "from X to Y", which on_original_clock() does not move.)
src = 'tests/hazards/prune-dropped-rollback.yaml'
differ = resumed_differ(src, [1800000, 3600000, 3661000, 4000000, 5462000, 5600000, 7000000], False)
check("prune-dropped-rollback: resumed at 30m, 1h and 1h1m1s, and at 1h6m40s, 1h31m2s, 1h33m20s and "
      "1h56m40s in its rollback loop with a pass in flight, the rollback renders the restored revision's "
      "objects and each stage runs the revision the rollback put back: the timeline is the whole run's "
      "and no object is told left behind", not differ, differ[:2])
# the stage a whole-run rollback put back runs what its status does not name (Q-27)
_, now = snapshot(sim, src, 4000000, tmp + '/resume-snap.yaml')
text = open(tmp + '/resume-snap.yaml').read()
check("the snapshot in the rollback loop says what each stage runs besides its status",
      'running:app=main@sha1:' in text and 'running:bad=main@sha1:' in text, None)
PY

# After the drop the shards, live objects and survivor are in the snapshot;
# a snapshot with counts alone (as before they were carried) still loads.
snapshot_of prune-dropped 2h resumed2h "resumed"
scn_only=$tmp/resumed-sc.yaml
python3 -c 'import sys; sys.path.insert(0, "tests/lib"); from resume_facts import scenario_only; scenario_only(sys.argv[1], sys.argv[2])' \
	tests/hazards/prune-dropped.yaml "$scn_only"
contains "the snapshot lists app's entry IDs, its render, the live ConfigMaps and the survivor" "$tmp/resumed2h.yaml" \
	'model.magos-sim.io/inventory: app=2:apps_Deployment_shop_shop-app;_ConfigMap_shop_cm-a,render:app=apps_Deployment_shop_shop-app;_ConfigMap_shop_cm-a,live:app=_ConfigMap_shop_cm-a;_ConfigMap_shop_cm-b,survivor:app=_ConfigMap_shop_cm-b;2026-03-02T09:01:01Z;PromotionHold'
sed 's|model.magos-sim.io/inventory: .*|model.magos-sim.io/inventory: app=2|' "$tmp/resumed2h.yaml" >"$tmp/counts.yaml"
expect_rc "a snapshot with the counts alone still loads and runs" 0 \
	"$SIM" run -q --until horizon --now 2026-03-02T10:00:00Z "$scn_only" "$tmp/counts.yaml"
for bad in 'app=2:apps_Deployment_shop_shop-app' 'render:app=' 'live:app=a;;b' 'running:app=' 'running:app=main@sha1:ab;1.0.0;x' \
	'survivor:app=_ConfigMap_shop_cm-b;2026-03-02T09:01:01Z;Bogus' 'survivor:app=_ConfigMap_shop_cm-b;yesterday;PromotionHold'; do
	sed "s|model.magos-sim.io/inventory: .*|model.magos-sim.io/inventory: '$bad'|" "$tmp/resumed2h.yaml" >"$tmp/bad.yaml"
	expect_rc "inventory '$bad' is refused" 3 "$SIM" run -q --now 2026-03-02T10:00:00Z "$scn_only" "$tmp/bad.yaml"
	contains "inventory '$bad': the error names the StageSet's file:line:col and the accepted forms" "$tmp/err" \
		"bad.yaml:21:3: error: StageSet \"shop/shop\": annotation model.magos-sim.io/inventory='$bad' is not a StageSet's list of StageInventory shards: expected '<stage>=<entries>[:<id>;...]', 'render:<stage>=<id>;...', 'live:<stage>=<id>;...', 'survivor:<stage>=<id>;<RFC 3339 time>;<pass exit>[;<RFC 3339 time>]' or 'running:<stage>=<revision>[;<version>]'"
done
finish
