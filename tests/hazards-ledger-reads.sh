#!/bin/sh
# A StageLedger or StageInventory read error freezes a StageSet's status,
# told twice, by `lint` before a run (MS283) and by `run` at its end, and
# each claim checked against the run of the same input: fixtures where it
# fires and the timeline (and a snapshot of the cluster) shows what the
# message says, and ones where it must not fire (tests/hazards/ledger-reads-*.yaml,
# each saying what it shows).
#   MS283  shop's StageInventory List fails from 1h until 1h40m, 2.1.0 is
#          published at 1h10m (generation 2): 20 passes fail, no status is
#          written from 1m1.005s (2.0.0) until 1h55m16.36s (2.1.0), and the
#          snapshot at 1h30m holds observedGeneration 1 and version 2.0.0.
#          shop's StageLedger Get fails from 1h until 1h30m although shop
#          has no Lifetime action and no StageLedger (every pass Gets it):
#          19 passes fail, and a patch at 1h5m is observed only at
#          1h38m4.04s.  The same outage for another StageSet, or one that
#          falls between two steady passes, fails nothing and is not told
#          (an entry naming a StageSet there is not is a warning of its own).
. "$(dirname "$0")/lib.sh"
require_python
. "$(dirname "$0")/lib/hazards.sh"
HAZARD_RUN_ARGS="--until horizon"

# ---- MS283: the StageInventory read -----------------------------------------------
lint_of ledger-reads-inventory
contains "inventory: MS283" "$tmp/ledger-reads-inventory.lint" \
	'MS283 warning StageSet shop/shop: the StageSet world fails the read of its StageInventory from 1h0m0s until 1h40m0s (ledgerErrors), and a pass comes then (the publish of 2.1.0 at 1h10m0s wakes it): every pass in that span returns the API error at the StageInventory read (R-18: every pass Lists it), before any status write, so its status (Ready, its message, observedGeneration, pendingVersion) stays as the last write before left it'
run_of ledger-reads-inventory
snapshot_of ledger-reads-inventory 1h30m inventory1h30m "inventory"
facts_of ledger-reads-inventory "$tmp/inventory1h30m.yaml" <<'EOF2'
st = stageset_statuses(d)
check("inventory: 2.0.0 at 1m1.005s, then no status write until 2.1.0's at 1h55m16.36s, past the outage",
      [x[:2] for x in st] == [(61005, "Succeeded"), (6916360, "Succeeded")] and st[1][2].endswith(", version"), st)
gen = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "updated"
       and "generation 2" in (e["detail"] or "")]
check("inventory: the publish makes generation 2 at 1h10m", gen == [4200000], gen)
status = stageset_snapshot(sys.argv[2])
status = status[status.index("\n  status:"):]
check("inventory: at 1h30m status still says observedGeneration 1, version 2.0.0, Ready Succeeded",
      "\n    observedGeneration: 1\n" in status and re.search(r"\n    version: 2\.0\.0\n", status) is not None
      and "reason: Succeeded" in status, status)
check("inventory: at 1h30m the StageSet is at generation 2 with 2.1.0",
      "generation: 2" in stageset_snapshot(sys.argv[2]) and "value: 2.1.0" in stageset_snapshot(sys.argv[2]))
n = told(d, "inventory", "StageSet shop/shop: 20 passes from 1h1m11.631s to 1h37m35.36s failed reading its StageInventory (the List of every pass) with an API error (list StageInventory: the server is currently unable to handle the request (get stageinventories.stages.metio.wtf)) and wrote nothing")
check("inventory: with what the status kept saying and the next write",
      n is not None and 'its status said Succeeded "Applied and verified 1 stage(s)" (written at 1m1.005s)' in n["text"]
      and "the next status write came at 1h55m16.36s" in n["text"], n and n["text"])
check("inventory: not told as a version plan error", notice(d, "failed at the version plan") is None)
EOF2

# ---- MS283: the StageLedger read, without Lifetime actions -------------------------
lint_of ledger-reads-ledger
contains "ledger: MS283" "$tmp/ledger-reads-ledger.lint" \
	'MS283 warning StageSet shop/shop: the StageSet world fails the read of its StageLedger from 1h0m0s until 1h30m0s (ledgerErrors), and a pass comes then (it lasts longer than the 10m30s a pass waits at most for the next one): every pass in that span returns the API error at the StageLedger read (R-17: every pass Gets it, Lifetime actions or not)'
run_of ledger-reads-ledger
snapshot_of ledger-reads-ledger 1h20m ledger1h20m "ledger"
facts_of ledger-reads-ledger "$tmp/ledger1h20m.yaml" <<'EOF2'
st = stageset_statuses(d)
check("ledger: 2.0.0 at 1m1.005s, then the patch of 1h5m observed only at 1h38m4.04s",
      [x[:2] for x in st] == [(61005, "Succeeded"), (5884040, "Succeeded")] and "observedGeneration" in st[1][2], st)
snap = open(sys.argv[2]).read()
check("ledger: shop has no StageLedger to read", "kind: StageLedger" not in snap)
status = stageset_snapshot(sys.argv[2])
check("ledger: at 1h20m generation 2, status.observedGeneration 1",
      "generation: 2" in status and "\n    observedGeneration: 1\n" in status[status.index("\n  status:"):])
n = told(d, "ledger", "StageSet shop/shop: 19 passes from 1h1m11.631s to 1h21m23.04s failed reading its StageLedger (the Get of every pass, Lifetime actions or not) with an API error (etcdserver: request timed out) and wrote nothing")
check("ledger: until the next write", n is not None and "the next status write came at 1h38m4.04s" in n["text"],
      n and n["text"])
EOF2

# ---- no MS283: another StageSet's outage, and one between two passes ---------------
lint_of ledger-reads-elsewhere
lacks "elsewhere: no MS283" "$tmp/ledger-reads-elsewhere.lint" 'MS283'
contains "elsewhere: the entry names no StageSet, and lint says so with those there are" "$tmp/ledger-reads-elsewhere.lint" \
	'MS003 warning spec.models.stagesets.ledgerErrors[0]: no StageSet of the inputs or of an apply event is named "cart" in namespace "shop": the entry fails no read; the StageSets are shop/shop'
run_of ledger-reads-elsewhere
facts_of ledger-reads-elsewhere <<'EOF2'
st = stageset_statuses(d)
check("elsewhere: 2.1.0 adopted at 1h11m1s, in the outage",
      [x[:2] for x in st] == [(61005, "Succeeded"), (4261000, "Succeeded")] and st[1][2].endswith(", version"), st)
check("elsewhere: the run tells nothing", notice(d, "wrote nothing") is None)
EOF2

lint_of ledger-reads-between
lacks "between: no MS283" "$tmp/ledger-reads-between.lint" 'MS283'
run_of ledger-reads-between
facts_of ledger-reads-between "$tmp/ledger-reads-elsewhere.json" <<'EOF2'
st = stageset_statuses(d)
check("between: the statuses of a run without the outage",
      st == stageset_statuses(json.load(open(sys.argv[2]))), st)
check("between: the run tells nothing", notice(d, "wrote nothing") is None)
EOF2
finish
