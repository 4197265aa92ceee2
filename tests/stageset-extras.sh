#!/bin/sh
# Fleet-side behaviours around the StageSet controller, end to end:
#   - a gate query returning one series per pod is expressible (entries of
#     spec.metrics with one query and different labels) and gives upstream's
#     scalarFromResult outcome, for a StageSet analysis and a FleetRollout gate;
#   - spec.api.reconcileDuration holds the StageSet controller's worker;
#   - a publish with a namespaceSelector reaches StageSets created later by
#     apply events, in Namespaces created later;
#   - a publish of the version an inline-version StageSet already has wakes
#     it at once through the source watch (the source's new revision);
#   - a FleetRollout snapshot whose wave had passed reports the soak it passed
#     on (soak_until_ms), not -1 or null;
#   - spec.models.stagesets.apply.conflicts key by key (during, message,
#     forceAnnotation, a rule's list).
. "$(dirname "$0")/lib.sh"
require_sim
require_python "to read the JSON reports"

S=tests/scenarios
for f in stageset-multi-series stageset-publish-later stageset-publish-same-inline stageset-reconcile-duration \
	fleet-snapshot-passed-wave; do
	"$SIM" run --json "$tmp/$f.json" "$S/$f.yaml" >"$tmp/$f.out" 2>"$tmp/$f.err"
	check "$f runs" [ $? -eq 0 ]
	lacks "$f: no warning" "$tmp/$f.err" "warning"
done
# The text table says the snapshot's passed wave soaked until before the
# start, and under the wave when, in UTC (not a negative offset).
has_line "fleet-snapshot-passed-wave: the text shows the soak end before the start" \
	"$tmp/fleet-snapshot-passed-wave.out" '  canary                   0s           0s before start           0s  no gate'
has_line "... and when it ended, in UTC" \
	"$tmp/fleet-snapshot-passed-wave.out" "      its soak ended at 2026-03-02T07:50:00Z, 10m0s before the run's start"
lacks "... no negative offset" "$tmp/fleet-snapshot-passed-wave.out" "-10m0s"
for f in stageset-multi-series stageset-publish-later stageset-publish-same-inline stageset-conflict-keys; do
	"$SIM" check --no-color "$S/$f.yaml" >"$tmp/$f.check" 2>&1
	rc=$?
	expect_status "$f: its expectations hold" 0 $rc
	[ $rc -eq 0 ] || show "$tmp/$f.check" 10
done
sed 's/reconcileDuration: 7s/reconcileDuration: 0s/' "$S/stageset-reconcile-duration.yaml" >"$tmp/rd0.yaml"
"$SIM" run --json "$tmp/rd0.json" "$tmp/rd0.yaml" >/dev/null 2>&1
check "reconcileDuration 0s runs" [ $? -eq 0 ]

pyfacts "$tmp" <<'PY'
import sys
from facts import load, check

d = load(sys.argv[1], "stageset-reconcile-duration")
d0 = load(sys.argv[1], "rd0")
if d and d0:
    w = lambda d: [(e["t_ms"], e["change"]) for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] in ("updated", "status")]
    check("reconcileDuration 7s: the finalizer pass ends at 7s, the applying pass at 15.005s",
          w(d) == [(7000, "updated"), (15005, "status")], w(d))
    check("reconcileDuration 0s: at 0s and 1.005s", w(d0) == [(0, "updated"), (1005, "status")], w(d0))

d = load(sys.argv[1], "stageset-publish-same-inline")
if d:
    w = [(e["t_ms"], e["change"]) for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] in ("updated", "status")]
    check("a publish of the inline version it has: one pass at the publish (10m1s), no spec edit",
          w == [(0, "updated"), (1005, "status"), (601000, "status")], w)

d = load(sys.argv[1], "fleet-snapshot-passed-wave")
if d:
    waves = {w["name"]: w for w in d["summary"]["fleets"][0]["waves"]}
    check("a wave passed before the run reports the soak it passed on",
          waves["canary"]["soak_until_ms"] == -600000 and waves["canary"]["soaks"] == 1, waves["canary"])
    check("... and the run's own soak of the next wave as it came",
          waves["broad"]["soak_until_ms"] not in (None, -1) or waves["broad"]["soaks"] == 0, waves["broad"])

d = load(sys.argv[1], "stageset-multi-series")
if d:
    w = d["summary"]["fleets"][0]["waves"]
    ev = w[0]["gate_evaluations"]
    check("a FleetRollout gate on the per-pod query: every evaluation Unknown with scalarFromResult's error",
          len(ev) > 0 and all(e["verdict"] == "Unknown" and e["error"] ==
              "metric source unavailable: query returned 2 samples, want exactly 1 (the query must reduce to a "
              "single scalar)" for e in ev), ev[:2])
    check("... and the wave holds: rest never opens", w[0]["passed_ms"] is None and w[1]["opened_ms"] is None,
          (w[0]["passed_ms"], w[1]["opened_ms"]))
PY
finish
