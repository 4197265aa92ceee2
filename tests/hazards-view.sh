#!/bin/sh
# Where `stagesetctl fleet` and the FleetRollout controller read a member's
# readiness differently (fleetrollout-controller.md §6 #16), told by `run` at
# its end (no lint rule: what the view prints depends on the statuses at the
# moment looked at), checked against the view and the timeline of the same
# run (tests/hazards/fleet-view-*.yaml, each saying what it shows).
#   a window-deferred canary member: the view at 1h prints it "✓ … Ready"
#   while the wave says "0 ready" and settles only at 2h16m1s; without the
#   window: held for approval, approved, nothing told.
#   the same under a fleet pinned to the version the members run: "✓ … Ready"
#   at 1h while the wave counts it not ready; without the window: held, and
#   nothing told.
#   a member soaking its first stage after the fleet's approval: the view at
#   1h prints it "not Ready (regressed)" although it was never Ready on the
#   new version; without the soak (fleet-view-open): nothing told.
. "$(dirname "$0")/lib.sh"
require_python "to read the run reports"
. "$(dirname "$0")/lib/hazards.sh"

run_at 1h fleet-view-ready
contains "window: the view at 1h counts no canary member ready" "$tmp/fleet-view-ready.at.out" \
	'  wave canary   1/1 adopted, 0 ready'
contains "window: the view at 1h prints tenant-a/shop Ready all the same" "$tmp/fleet-view-ready.at.out" \
	'    ✓ tenant-a/shop                1.0.0  Ready'
run_of fleet-view-ready
facts_of fleet-view-ready <<'PY'
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
facts_of fleet-view-open <<'PY'
fr = [e for e in d["timeline"] if e["kind"] == "FleetRollout" and e["change"] == "status"]
check("no window: the fleet completes", any(e["phase"] == "Completed" for e in fr), fr)
check("no window: nothing told of the view",
      not any("stagesetctl fleet" in n["text"] for n in d["notices"]))
PY
run_at 1h fleet-view-pinned
contains "pinned: the view at 1h counts no canary member ready" "$tmp/fleet-view-pinned.at.out" \
	'  wave canary   1/1 at 1.0.0, 0 ready'
contains "pinned: the view at 1h prints tenant-a/shop Ready all the same" "$tmp/fleet-view-pinned.at.out" \
	'    ✓ tenant-a/shop                1.0.0  Ready'
run_of fleet-view-pinned
facts_of fleet-view-pinned <<'PY'
tl = d["timeline"]
fr = [e for e in tl if e["kind"] == "FleetRollout" and e["change"] == "status"]
check("pinned: the fleet never leaves the canary wave",
      fr and all(e["phase"] == "InProgress" and 'wave "canary" open' in (e["message"] or "") for e in fr), fr)
a = [e for e in tl if e["kind"] == "StageSet" and e["namespace"] == "tenant-a" and e["change"] == "status"]
check("pinned: tenant-a/shop is Ready True with pendingUpdate from 20m, at 1.0.0 since 1m1s",
      [e["reason"] for e in a if e["t_ms"] == 1200000] == ["Succeeded"] and
      "pendingUpdate" in [e for e in a if e["t_ms"] == 1200000][0]["detail"] and
      "version" in a[0]["detail"] and a[0]["t_ms"] == 61005, a)
t = [n["text"] for n in d["notices"]]
check("pinned: the run says the view shows it Ready while the fleet counts it not ready",
      any('stagesetctl fleet shop shows StageSet tenant-a/shop of wave "canary" as "✓ … Ready" from '
          '25m0s to 2h15m0s (1h50m0s), while FleetRollout shop counted it not ready' in x
          and "adopted (at targetVersion 1.0.0)" in x and "delivery held by update window" in x for x in t), t)
check("pinned: nothing said of a regressed member", not any("(regressed)" in x for x in t), t)
PY

run_of fleet-view-pinned-open
facts_of fleet-view-pinned-open <<'PY'
a = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["namespace"] == "tenant-a" and e["change"] == "status"]
check("pinned, no window: tenant-a/shop holds 1.1.0 for approval",
      [e["reason"] for e in a if e["t_ms"] == 1200000] == ["AwaitingApproval"], a)
check("pinned, no window: nothing told of the view",
      not any("stagesetctl fleet" in n["text"] for n in d["notices"]))
PY

run_at 1h fleet-view-regressed
contains "soak: the view at 1h prints tenant-a/shop regressed" "$tmp/fleet-view-regressed.at.out" \
	'    ⚠ tenant-a/shop                1.0.0  not Ready (regressed)'
run_of fleet-view-regressed
facts_of fleet-view-regressed <<'PY'
tl = d["timeline"]
a = [e for e in tl if e["kind"] == "StageSet" and e["namespace"] == "tenant-a" and e["change"] == "status"]
check("soak: tenant-a/shop holds 1.1.0 for approval at 50m, then soaks with pendingVersion cleared at 56m1s",
      [(e["t_ms"], e["reason"]) for e in a if 3000000 <= e["t_ms"] <= 3361000] ==
      [(3000000, "AwaitingApproval"), (3361000, "Soaking")] and "-pendingVersion" in a[-2]["detail"], a)
ok = [e["t_ms"] for e in a if e["reason"] == "Succeeded" and e["t_ms"] > 3361000]
check("soak: it is Ready again (on 1.1.0) only at 1h27m3s", ok[:1] == [5223000], ok)
t = [n["text"] for n in d["notices"]]
check("soak: the run says the view called it regressed while it rolled out",
      any('stagesetctl fleet shop shows StageSet tenant-a/shop of wave "canary" as "⚠ … not Ready '
          '(regressed)" from 56m1s to 1h27m3s (31m2s), though it had not been Ready since FleetRollout '
          'shop counted it adopted at 56m1s' in x and "(Ready Soaking: " in x for x in t), t)
PY
finish
