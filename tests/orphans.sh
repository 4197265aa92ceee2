#!/bin/sh
# Dependents whose owners are gone: a loaded Job or PVC none of whose
# ownerReferences names the uid of an object of the inputs is deleted at the
# start by the garbage collector (background propagation), before any
# controller lists it, with an info notice; an object whose owner is there
# is kept.
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim
require_python "to read the JSON report"

expect_rc "a snapshot with orphans runs" 0 "$SIM" run --no-color --json "$tmp/o.json" tests/scenarios/orphans.yaml
contains "the notice says what the collector deleted" "$tmp/out" "the garbage collector deletes 2 loaded objects"
if python3 - "$tmp/o.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
gc = [(e["kind"], e["name"]) for e in d["timeline"] if e["change"] == "deleted" and e["cause"] == "garbage-collector"]
assert gc == [("Job", "old-plan-orphan"), ("PersistentVolumeClaim", "old-data")], gc
assert all(e["t_ms"] == 0 for e in d["timeline"] if e["cause"] == "garbage-collector")
# the Workspace's own Job is not the collector's: its owner is loaded
assert not any(e["name"] == "web-plan-kept" and e["cause"] == "garbage-collector" for e in d["timeline"])
# no controller ever saw the orphans
assert not any(e["name"] in ("old-plan-orphan", "old-data") and (e["cause"] or "").startswith("reconcile")
               for e in d["timeline"])
ns = [n for n in d["notices"] if n["text"].startswith("the garbage collector deletes")]
assert len(ns) == 1 and ns[0]["t_ms"] == 0, ns
assert ns[0]["text"].endswith("Job shop/old-plan-orphan (owner Workspace old, uid "
                              "dddddddd-0000-0000-0000-000000000009), PersistentVolumeClaim shop/old-data "
                              "(owner Workspace old, uid dddddddd-0000-0000-0000-000000000009)"), ns[0]["text"]
PY
then ok "the orphans are deleted at 0s by the garbage collector, the owned Job is not"
else bad "the orphans are deleted at 0s by the garbage collector, the owned Job is not"; fi

# With the owner in the inputs nothing is collected.
sed 's/dddddddd-0000-0000-0000-000000000009/aaaaaaaa-0000-0000-0000-000000000001/' tests/scenarios/orphans.yaml >"$tmp/owned.yaml"
expect_rc "the same with their owner loaded runs" 0 "$SIM" run --no-color "$tmp/owned.yaml"
lacks "... and collects nothing" "$tmp/out" "garbage collector"

finish
