#!/bin/sh
# Where `stagesetctl fleet` and the FleetRollout controller read a member's
# readiness differently (fleetrollout-controller.md §6 #16), told by `run` at
# its end (no lint rule: what the view prints depends on the statuses at the
# moment looked at), checked against the view and the timeline of the same
# run (tests/hazards/fleet-view-*.yaml, each saying what it shows).
#   a window-deferred canary member: the view at 1h prints it "✓ … Ready"
#   while the wave says "0 ready" and settles only at 2h16m1s; without the
#   window: held for approval, approved, nothing told.
. "$(dirname "$0")/lib.sh"
require_python "to read the run reports"
. "$(dirname "$0")/lib/hazards.sh"

"$SIM" run --at 1h "$H/fleet-view-ready.yaml" >"$tmp/view.out" 2>"$tmp/view.err" ||
	{ bad "fleet-view-ready runs with --at 1h"; show "$tmp/view.err"; }
contains "window: the view at 1h counts no canary member ready" "$tmp/view.out" \
	'  wave canary   1/1 adopted, 0 ready'
contains "window: the view at 1h prints tenant-a/shop Ready all the same" "$tmp/view.out" \
	'    ✓ tenant-a/shop                1.0.0  Ready'
run_of fleet-view-ready
pyfacts "$tmp/fleet-view-ready.json" <<'PY'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
tl = d["timeline"]
fr = [e for e in tl if e["kind"] == "FleetRollout" and e["change"] == "status"]
rest = [e["t_ms"] for e in fr if 'wave "rest" open' in (e["message"] or "")]
check("window: the canary wave settles only after the window, at 2h16m1s", rest[:1] == [8161000], rest)
a = [e for e in tl if e["kind"] == "StageSet" and e["namespace"] == "tenant-a" and e["change"] == "status"]
held = [e for e in a if e["t_ms"] == 1200000]
check("window: tenant-a/shop is Ready True with pendingUpdate from 20m",
      held and held[0]["reason"] == "Succeeded" and "pendingUpdate" in held[0]["detail"], held)
t = [n["text"] for n in d["notices"]]
check("window: the run says the view shows it Ready while the fleet counts it not ready",
      any('stagesetctl fleet shop shows StageSet tenant-a/shop of wave "canary" as "✓ … Ready" from '
          '25m0s to 2h15m0s (1h50m0s), while FleetRollout shop counted it not ready' in x
          and "Deployed; delivery held by update window" in x for x in t), t)
PY

run_of fleet-view-open
pyfacts "$tmp/fleet-view-open.json" <<'PY'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
fr = [e for e in d["timeline"] if e["kind"] == "FleetRollout" and e["change"] == "status"]
check("no window: the fleet completes", any(e["phase"] == "Completed" for e in fr), fr)
check("no window: nothing told of the view",
      not any("stagesetctl fleet" in n["text"] for n in d["notices"]))
PY
finish
