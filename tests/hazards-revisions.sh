#!/bin/sh
# A revision absorbed mid-run (spec magos-controllers.md §7 #17), told by
# `run` at its end (no lint rule: whether a commit lands during a run depends
# on the run's timing), checked against the timeline of the same run
# (tests/hazards/revision-*.yaml, each saying what it shows).
#   a commit at 2m, while the first plan (started at 0s) runs: the apply at
#   10m10s records its SHA as observedRevision and drops the annotation; no
#   run plans it; a commit at 15m, after the run: NewRevisionDetected, planned
#   and applied, nothing told.
. "$(dirname "$0")/lib.sh"
require_python "to read the run reports"
. "$(dirname "$0")/lib/hazards.sh"

HAZARD_RUN_ARGS="--until horizon" run_of revision-absorbed
pyfacts "$tmp/revision-absorbed.json" <<'PY'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
tl = d["timeline"]
ann = [e for e in tl if e["kind"] == "Workspace" and e["change"] == "updated"
       and "magosproject.io/detected-revision" in (e["detail"] or "")]
check("absorbed: the SHA is annotated while Planning, removed when Applied",
      len(ann) == 2 and ann[0]["phase"] == "Planning" and ann[1]["phase"] == "Applied"
      and ann[1]["detail"].startswith("annotations: -magosproject.io/detected-revision"),
      [(e["time"], e["phase"], e["detail"]) for e in ann])
plans = [e["t_ms"] for e in tl if e["kind"] == "Job" and "-plan-" in e["name"] and e["change"] == "created"]
check("absorbed: one plan ran, created at 0s, before the commit (2m)", plans == [0], plans)
check("absorbed: no NewRevisionDetected reset", new_revision_resets(
    d, "shop-dev", ann[0]["detail"].split("=", 1)[1]) == [] if ann else False)
t = notices_about(d, "shop-dev")
check("absorbed: the run says the commit counts as applied without a plan",
      any("revision eceddcc7e469, committed at 2m0s after its plan Job had checked out the branch, "
          "was seen by the RefWatcher at 2m25.535s while it was Planning, and the apply that ended "
          "that run at 10m10s recorded it as status.observedRevision" in x
          and "no plan started again to the end of the run" in x for x in t), t)
PY

HAZARD_RUN_ARGS="--until horizon" run_of revision-after-run
pyfacts "$tmp/revision-after-run.json" <<'PY'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
r = new_revision_resets(d, "shop-dev", "eceddcc7e4690e57fd43358a08f59096edeb547a")
check("after the run: the commit resets shop-dev (NewRevisionDetected)", len(r) == 1, r)
plans = [e["t_ms"] for e in d["timeline"] if e["kind"] == "Job" and "-plan-" in e["name"]
         and e["change"] == "created"]
check("after the run: a second plan runs for it", len(plans) == 2 and plans[1] >= 15 * 60000, plans)
check("after the run: nothing told of an absorbed revision",
      not any("counts as applied" in x for x in notices_about(d, "shop-dev")))
PY
finish
