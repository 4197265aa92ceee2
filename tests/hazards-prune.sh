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
finish
