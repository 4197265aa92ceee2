#!/bin/sh
# What a FleetRollout counts as adopted against what its members run
# (fleetrollout-controller.md §6 #12; StageSet spec §5 Q-10, the fleet half),
# told by `lint` before a run and by `run` at its end, each claim checked
# against the run of the same input (tests/hazards/fleet-budget-*.yaml, each
# saying what it shows).
#   MS271  a derived fleet (no targetVersion) and a canary member whose error
#          budget is exhausted: the fleet opens the next wave and completes
#          while that member runs 1.0.0; once the budget recovers, the member
#          holds 1.1.0 for approval and the fleet halts on a "regressed" wave;
#          pinned to 1.1.0: the canary wave waits for the member, nothing told.
. "$(dirname "$0")/lib.sh"
require_python "to read the run reports"
. "$(dirname "$0")/lib/hazards.sh"

lint_of fleet-budget-derived
contains "derived: MS271 is a warning at the member's errorBudget" "$tmp/fleet-budget-derived.lintjson" \
	'"line": 61'
contains "derived: MS271 says why" "$tmp/fleet-budget-derived.lint" \
	'MS271 warning StageSet tenant-a/shop, in wave "canary" of FleetRollout shop: its error budget reads exhausted at 11m0s (remaining 0.02 < freezeThreshold 0.05), and a budget hold keeps a deployed StageSet Ready True with no pendingVersion; the FleetRollout has no targetVersion, so it counts a member without a pendingVersion as adopted: the wave can settle and the fleet complete while this member still runs its old version'
HAZARD_RUN_ARGS="--until horizon" run_of fleet-budget-derived
pyfacts "$tmp/fleet-budget-derived.json" <<'PY'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
tl = d["timeline"]
fleet = [e for e in tl if e["kind"] == "FleetRollout" and e["change"] == "status"]
done = [e["t_ms"] for e in fleet if e["phase"] == "Completed"]
a = [e for e in tl if e["kind"] == "StageSet" and e["namespace"] == "tenant-a" and e["change"] == "status"]
held = [e["t_ms"] for e in a if "error budget exhausted" in (e["message"] or "")]
verified = [e["t_ms"] for e in a if (e["message"] or "").startswith("Applied and verified") and e["t_ms"] > 120000]
check("derived: tenant-a/shop is budget-held from 20m", held[:1] == [1200000], held)
check("derived: the fleet completes (37m2s) before tenant-a/shop rolls 1.1.0 out (2h16m1s)",
      done and verified and done[0] == 2222000 and verified[0] == 8161000, (done, verified))
halts = [e for e in fleet if e["phase"] == "Halted"]
check("derived: the fleet halts when the member holds 1.1.0 for approval (2h15m0s)",
      halts and halts[0]["t_ms"] == 8100000 and "regressed" in halts[0]["message"], halts)
t = [n["text"] for n in d["notices"]]
check("derived: the run says the fleet counted the budget-held member adopted",
      any("FleetRollout shop counted StageSet tenant-a/shop adopted at 36m1s ('rolling out version "
          "1.1.0; wave \"rest\" open') while its error budget held it on its old version: since 20m0s"
          in x and "it verified a rollout only at 2h16m1s" in x
          and "the fleet took it for a regression and halted" in x for x in t), t)
PY

lint_clean fleet-budget-pinned "pinned"
run_of fleet-budget-pinned
pyfacts "$tmp/fleet-budget-pinned.json" <<'PY'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
tl = d["timeline"]
fleet = [e for e in tl if e["kind"] == "FleetRollout" and e["change"] == "status"]
rest = [e["t_ms"] for e in fleet if 'wave "rest" open' in (e["message"] or "")]
a = [e["t_ms"] for e in tl if e["kind"] == "StageSet" and e["namespace"] == "tenant-a"
     and e["change"] == "status" and (e["message"] or "").startswith("Applied and verified")
     and e["t_ms"] > 120000]
check("pinned: the rest wave opens only after tenant-a/shop adopted 1.1.0", rest and a and rest[0] > a[0],
      (rest, a))
check("pinned: nothing told of adoption", not any("counted StageSet" in n["text"] for n in d["notices"]))
PY
finish
