#!/bin/sh
# The StageSet failure hazards told twice, by `lint` before a run and by
# `run` at its end, and each claim checked against the run of the same
# input: a fixture where it fires and the timeline shows what the message
# says, and one where it must not fire (tests/hazards/failure-*.yaml, each
# saying what it shows).
#   MS226  rollbackOnFailure with a version that fails on every try: rolled
#          back 22 times in 2h with no success between, onRollback on every
#          cycle; with the fix published at 40m the cycle ends (lint still
#          warns of the failing version, the run tells no loop); without
#          rollbackOnFailure nothing is rolled back.
#   MS227  an RBAC denial of the apply: Ready False RBACDenied, no pass after
#          it although the denial stops at 5m; a plain failure in the same
#          window is retried and succeeds.  A rollback whose restore finds
#          the previous revision gone: PreviousRevisionUnavailable, and the
#          run ends there with nothing left to happen.
#   MS228  objects Current at 4m and expressions 3m later against a 5m
#          timeout: the verify succeeds at 7m (the expression poll gets a
#          fresh 5m); with expressions 30s later it is within 5m.
#   MS229  a migration action that always fails: MigrationDirty at
#          10m10.075s, and the revision published at 40m runs the action
#          again; with an action that succeeds, nothing is told.
#   MS230  a steady workload Failed for 20m with rollbackOnFailure: 18
#          rollbacks to the same revision, onRollback with each; without
#          rollbackOnFailure the StageSet is StageFailed until the fault ends.
#   MS231  a retried apply failure: the retry's apply is a DriftCorrected
#          Warning; in the rollback loop every re-apply is one; an RBAC
#          denial (not retried) or no failure: none.  An immutable-field
#          conflict left at Fail: the apply under the Recreate policy set
#          later is one; recreated from the start (or never changed): none.
. "$(dirname "$0")/lib.sh"
require_python
. "$(dirname "$0")/lib/hazards.sh"
HAZARD_RUN_ARGS="--until horizon"

# ---- MS226: the whole-run rollback never parks ----------------------------------
lint_of failure-rollback-loop
contains "rollback loop: MS226" "$tmp/failure-rollback-loop.lint" \
	'MS226 warning StageSet default/web sets rollbackOnFailure and its stage "app" fails on every try: a revision carrying version 1.1.0 regresses to Failed as soon as it is ready'
contains "rollback loop: MS226 names onRollback" "$tmp/failure-rollback-loop.lint" \
	'its onRollback (1 action) runs on every cycle once a revision has succeeded'
run_of failure-rollback-loop
facts_of failure-rollback-loop <<'EOF2'
ev = lambda reason: [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["name"] == "web"
                     and e["change"] == "event" and e["reason"] == reason]
rb, hook = ev("RolledBack"), ev("OnRollbackAction")
st = member_ready(d, "default", "web")
check("rollback loop: 1.0.0 succeeds at 1m1.005s", st[0] == (61005, "Succeeded"), st[:2])
check("rollback loop: no success after the first rollback",
      rb and not [t for t, r in st if r == "Succeeded" and t >= rb[0]])
check("rollback loop: rolled back 22 times (%d)" % len(rb), len(rb) == 22)
check("rollback loop: onRollback ran with every rollback", hook == rb)
check("rollback loop: the next pass applied the revision again before each rollback",
      all(t in ev("DriftCorrected") for t in rb[1:]))
n = notice(d, "rollbackOnFailure rolled back")
check("rollback loop: the run tells it", n is not None and n["severity"] == "warning")
check("rollback loop: with the timeline's count and times",
      n is not None and "rolled back 22 times from 11m3s to 1h44m56.715s with no success between" in n["text"]
      and rb[0] == 663000 and rb[-1] == 6296715, n and n["text"])
check("rollback loop: the last cycle's length is the timeline's (%d ms)" % (rb[-1] - rb[-2]),
      n is not None and rb[-1] - rb[-2] == 1063000 and "the last cycle took 17m43s" in n["text"])
check("rollback loop: onRollback's count is the timeline's",
      n is not None and "onRollback (1 action) ran %d times" % len(hook) in n["text"])
check("rollback loop: names the failing stage",
      n is not None and 're-applied the failing revision main@sha1:' in n["text"] and 'of stage "app"' in n["text"])
EOF2

lint_of failure-rollback-fixed
contains "rollback fixed: MS226 for 1.1.0 all the same" "$tmp/failure-rollback-fixed.lint" \
	'MS226 warning StageSet default/web sets rollbackOnFailure'
run_of failure-rollback-fixed
facts_of failure-rollback-fixed <<'EOF2'
rb = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "event"
      and e["reason"] == "RolledBack"]
st = member_ready(d, "default", "web")
check("rollback fixed: rolled back again and again before the fix (%d times)" % len(rb), len(rb) >= 2)
check("rollback fixed: 1.1.1 succeeds after the last rollback",
      [t for t, r in st if r == "Succeeded" and t > rb[-1]], st[-2:])
check("rollback fixed: no rollback-loop notice", notice(d, "rollbackOnFailure rolled back") is None)
EOF2

lint_of failure-no-rollback
lacks "no rollbackOnFailure: no MS226" "$tmp/failure-no-rollback.lint" "MS226"
run_of failure-no-rollback
facts_of failure-no-rollback <<'EOF2'
st = member_ready(d, "default", "web")
check("no rollbackOnFailure: 1.1.0 fails (StageFailed at 11m1s)", (661000, "StageFailed") in st, st)
check("no rollbackOnFailure: nothing rolled back",
      not [e for e in d["timeline"] if e["change"] == "event" and e["reason"] in ("RolledBack", "OnRollbackAction")])
check("no rollbackOnFailure: no rollback-loop notice", notice(d, "rollbackOnFailure rolled back") is None)
EOF2

# ---- MS227: terminal failures are not requeued ----------------------------------
lint_of failure-terminal
contains "terminal: MS227" "$tmp/failure-terminal.lint" \
	'MS227 warning StageSet default/web: an apply of stage "app" can be denied (apply.failure.class forbidden), with probability 1 per apply from 0s until 5m0s: the controller writes Ready False RBACDenied and does not requeue this failure'
lacks "terminal: not for api" "$tmp/failure-terminal.lint" "default/api"
run_of failure-terminal
facts_of failure-terminal <<'EOF2'
web, api = member_ready(d, "default", "web"), member_ready(d, "default", "api")
check("terminal: web RBACDenied at 1.005s and nothing after (%s)" % web, web == [(1005, "RBACDenied")])
check("terminal: api succeeds, and the run goes on to the horizon",
      (121005, "Succeeded") in api and d["run"]["end_ms"] == 3600000 and d["run"]["stop"] == "horizon")
n = notice(d, "StageSet default/web ended Ready False RBACDenied")
check("terminal: the run tells it", n is not None and n["severity"] == "warning")
check("terminal: with the pass and the end of the denial",
      n is not None and "no pass looked at it after the one that started at 5ms, 1h0m0s before the end of the run: "
      "the controller does not requeue this failure, although the modelled failure of that apply stopped at 5m0s" in n["text"],
      n and n["text"])
check("terminal: not for api", notice(d, "default/api") is None)
EOF2

# ---- MS284: a spec the controller refuses, told at the end of the run too ------------
lint_of failure-invalid-spec
contains "invalid spec: MS284" "$tmp/failure-invalid-spec.lint" \
	'MS284 error StageSet default/web: schedule "0 16 * *": expected exactly 5 fields, found 4: [0 16 * *]; the controller reports Ready False InvalidSpec from its first pass'
lacks "invalid spec: not for api" "$tmp/failure-invalid-spec.lint" "default/api"
run_of failure-invalid-spec
facts_of failure-invalid-spec <<'EOF2'
web, api = member_ready(d, "default", "web"), member_ready(d, "default", "api")
check("invalid spec: web InvalidSpec from 5ms, never anything else (%s)" % web,
      web and web[0] == (5, "InvalidSpec") and all(r == "InvalidSpec" for t, r in web))
check("invalid spec: api succeeds", [t for t, r in api if r == "Succeeded"], api)
n = notice(d, "StageSet default/web ended Ready False InvalidSpec")
check("invalid spec: the run tells it", n is not None and n["severity"] == "warning")
check("invalid spec: with the controller's message",
      n is not None and 'schedule "0 16 * *": expected exactly 5 fields, found 4' in n["text"], n and n["text"])
check("invalid spec: not for api", notice(d, "default/api") is None)
EOF2

lint_of failure-retried
lacks "retried: no MS227" "$tmp/failure-retried.lint" "MS227"
run_of failure-retried
facts_of failure-retried <<'EOF2'
st = member_ready(d, "default", "web")
check("retried: StageFailed at 1.005s, then the retry succeeds at 7m43.675s (%s)" % st,
      st[0] == (1005, "StageFailed") and (463675, "Succeeded") in st)
check("retried: no terminal notice", notice(d, "does not requeue") is None)
EOF2

lint_of failure-restore-terminal
contains "restore terminal: MS227" "$tmp/failure-restore-terminal.lint" \
	'MS227 warning StageSet default/web sets rollbackOnFailure, its stage "app" can fail and the modelled restore of its last-applied revision ends PreviousRevisionUnavailable'
lacks "restore terminal: no MS226 (the first rollback ends the cycle)" "$tmp/failure-restore-terminal.lint" "MS226"
run_of failure-restore-terminal
facts_of failure-restore-terminal <<'EOF2'
st = member_ready(d, "default", "web")
check("restore terminal: PreviousRevisionUnavailable at 11m2s, the last status (%s)" % st[-1:],
      st[-1] == (662000, "PreviousRevisionUnavailable"))
check("restore terminal: the run ends there with nothing left to happen",
      d["run"]["stop"] == "quiescent" and d["run"]["end_ms"] == 662000, d["run"])
n = notice(d, "StageSet default/web ended Ready False PreviousRevisionUnavailable")
check("restore terminal: the run tells it",
      n is not None and "the run ended after its pass that started at 10m0s, with nothing left to happen: "
      "the controller does not requeue this failure" in n["text"], n and n["text"])
check("restore terminal: no rollback-loop notice", notice(d, "rollbackOnFailure rolled back") is None)
EOF2

# ---- MS228: the kstatus wait and the expression poll each get the timeout -------
lint_of failure-verify-2t
contains "verify 2T: MS228" "$tmp/failure-verify-2t.lint" \
	'MS228 warning StageSet default/web: the verify of stage "app" can block 10m0s, not 5m0s: its kstatus wait and its ready-check expression poll each get the whole 5m0s timeout'
contains "verify 2T: MS228 with the medians" "$tmp/failure-verify-2t.lint" \
	'its objects are Current 4m0s after the apply and its expressions hold 3m0s later, so a verify succeeds after 7m0s, past its 5m0s timeout'
run_of failure-verify-2t
facts_of failure-verify-2t <<'EOF2'
st = member_ready(d, "default", "web")
check("verify 2T: Succeeded at 7m1.005s, 7m after the apply ended (%s)" % st, st == [(421005, "Succeeded")])
n = notice(d, "verify outlasted the stage's timeout")
check("verify 2T: the run tells it", n is not None and n["severity"] == "warning")
check("verify 2T: with the timeline's times",
      n is not None and 'StageSet default/web: 1 verify outlasted the stage\'s timeout; the longest, of stage "app" from 1.005s, '
      "took 7m0s against its 5m0s timeout and ended ready" in n["text"]
      and 1005 + 420000 == st[0][0], n and n["text"])
EOF2
lint_of failure-verify-within
lacks "verify within: no MS228" "$tmp/failure-verify-within.lint" "MS228"
run_of failure-verify-within
facts_of failure-verify-within <<'EOF2'
st = member_ready(d, "default", "web")
check("verify within: Succeeded at 4m31.005s (%s)" % st, st == [(271005, "Succeeded")])
check("verify within: no notice", notice(d, "outlasted") is None)
EOF2

# ---- MS229: MigrationDirty is not a halt ------------------------------------------
lint_of failure-dirty
contains "dirty: MS229" "$tmp/failure-dirty.lint" \
	'MS229 warning StageSet shop/shop: action "drop-legacy-table" of migration "drop-legacy" can fail (probability 1 per attempt): five failed passes in a row, 5, 10, 20 and 40ms of back-off apart, reach MigrationDirty (at its 2s median attempt, about 10.075s after the first when every attempt fails)'
run_of failure-dirty
facts_of failure-dirty <<'EOF2'
st = member_ready(d, "shop", "shop")
started = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "event"
           and e["reason"] == "MigrationStarted"]
dirty = [t for t, r in st if r == "MigrationDirty"]
check("dirty: MigrationFailed at 10m2s, MigrationDirty at 10m10.075s (%s)" % st,
      (602000, "MigrationFailed") in st and dirty and dirty[0] == 610075)
check("dirty: five passes ran the migration up to Dirty, 10.075s after the first began at 10m",
      [t for t in started if t <= 610075] == [602000, 604005, 606015, 608035, 610075])
check("dirty: the revision of 40m ran it again (%s)" % started[5:], started[5:] == [2402000])
n = notice(d, "reached MigrationDirty")
check("dirty: the run tells it", n is not None and n["severity"] == "warning")
check("dirty: with the timeline's times and count",
      n is not None and "StageSet shop/shop reached MigrationDirty at 10m10.075s, 8.075s after its first failed "
      "migration pass at 10m2s, and the migration ran again 1 time after it (from 40m2s to 40m2s)" in n["text"],
      n and n["text"])
EOF2
lint_of failure-migration-ok
lacks "migration ok: no MS229" "$tmp/failure-migration-ok.lint" "MS229"
run_of failure-migration-ok
facts_of failure-migration-ok <<'EOF2'
st = member_ready(d, "shop", "shop")
check("migration ok: migrated and Succeeded at 11m3s and 41m1s (%s)" % st,
      (663000, "Succeeded") in st and (2461000, "Succeeded") in st)
check("migration ok: no Dirty notice", notice(d, "MigrationDirty") is None)
EOF2

# ---- MS230: a steady-state fault "rolls back" to the same revision ----------------
lint_of failure-steady-rollback
contains "steady rollback: MS230" "$tmp/failure-steady-rollback.lint" \
	'MS230 warning StageSet default/web sets rollbackOnFailure and the regress event at 25m0s makes its workload Failed for 20m0s: every pass re-verifies every stage, so the next steady pass fails the run, and the controller rolls back to the snapshot of the same revision and runs its onRollback (1 action) each time'
lacks "steady rollback: no MS226 (no revision fails on every try)" "$tmp/failure-steady-rollback.lint" "MS226"
run_of failure-steady-rollback
facts_of failure-steady-rollback <<'EOF2'
ss = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["name"] == "web"]
st = member_ready(d, "default", "web")
rb = [e["t_ms"] for e in ss if e["change"] == "event" and e["reason"] == "RolledBack"]
hook = [e["t_ms"] for e in ss if e["change"] == "event" and e["reason"] == "OnRollbackAction"]
check("steady rollback: Succeeded at 1m1.005s, StageFailed at 30m35.837s, Succeeded at 53m18.552s (%s)" % st,
      st == [(61005, "Succeeded"), (1835837, "StageFailed"), (3198552, "Succeeded")])
check("steady rollback: no new revision attempted after the first success",
      not [e for e in ss if e["change"] == "status" and e["t_ms"] > 61005
           and "lastAttemptedRevisions" in (e["detail"] or "")])
check("steady rollback: 18 rollbacks from 30m35.837s to 42m22.192s (%d)" % len(rb),
      len(rb) == 18 and rb[0] == 1835837 and rb[-1] == 2542192)
check("steady rollback: onRollback ran with each", hook == rb)
n = notice(d, "with no new revision attempted")
check("steady rollback: the run tells it", n is not None and n["severity"] == "warning")
check("steady rollback: with the timeline's count, times and onRollback runs",
      n is not None and "rolled back 18 times (from 30m35.837s to 42m22.192s) with no new revision attempted" in n["text"]
      and "onRollback (1 action) ran 18 times" in n["text"], n and n["text"])
check("steady rollback: no rollback-loop notice (the same revision, and it recovered)",
      notice(d, "with no success between") is None)
EOF2
lint_of failure-steady-fault
lacks "steady fault: no MS230" "$tmp/failure-steady-fault.lint" "MS230"
run_of failure-steady-fault
facts_of failure-steady-fault <<'EOF2'
st = member_ready(d, "default", "web")
check("steady fault: StageFailed at 30m33.837s until 52m42.552s (%s)" % st,
      st == [(61005, "Succeeded"), (1833837, "StageFailed"), (3162552, "Succeeded")])
check("steady fault: nothing rolled back",
      not [e for e in d["timeline"] if e["change"] == "event" and e["reason"] in ("RolledBack", "OnRollbackAction")])
check("steady fault: no rollback notice", notice(d, "rolled back") is None)
EOF2

# ---- MS231: a failed stage claims the new revision ---------------------------------
lint_of failure-retried
contains "retried: MS231" "$tmp/failure-retried.lint" \
	'MS231 warning StageSet default/web: an apply of stage "app" can fail at "apply" (probability 1 per apply), and the failed stage'"'"'s status records the new revision as applied although nothing was: the retry'"'"'s real apply is then reported as a DriftCorrected Warning (no drift happened)'
facts_of failure-retried <<'EOF2'
drift = [e["t_ms"] for e in d["timeline"] if e["change"] == "event" and e["reason"] == "DriftCorrected"]
check("retried: the one DriftCorrected is the retry's success at 7m43.675s (%s)" % drift, drift == [463675])
n = notice(d, "DriftCorrected Warning came from the first apply after a failed attempt")
check("retried: the run tells it",
      n is not None and n["severity"] == "warning" and "StageSet default/web: 1 DriftCorrected Warning came from the "
      "first apply after a failed attempt (the first at 7m43.675s, after the StageFailed at 1.005s)" in n["text"],
      n and n["text"])
EOF2
contains "rollback loop: MS231 too" "$tmp/failure-rollback-loop.lint" \
	'MS231 warning StageSet default/web: stage "app" can fail and rollbackOnFailure restores the previous revision'
facts_of failure-rollback-loop <<'EOF2'
drift = [e["t_ms"] for e in d["timeline"] if e["change"] == "event" and e["reason"] == "DriftCorrected"]
n = notice(d, "DriftCorrected Warnings came from the first apply after a failed attempt")
check("rollback loop: %d DriftCorrected, the notice's count and first" % len(drift),
      n is not None and len(drift) == 21 and drift[0] == 726005
      and "21 DriftCorrected Warnings came from the first apply after a failed attempt (the first at 12m6.005s, "
      "after the StageFailed at 11m3s)" in n["text"], n and n["text"])
EOF2
lacks "terminal: no MS231 (a denial is not retried)" "$tmp/failure-terminal.lint" "MS231"
lacks "no rollbackOnFailure: no MS231 (a failed verify retried finds nothing to apply)" "$tmp/failure-no-rollback.lint" "MS231"
lacks "steady rollback: no MS231 (the same revision is restored)" "$tmp/failure-steady-rollback.lint" "MS231"
pyfacts "$tmp/failure-no-rollback.json" "$tmp/failure-steady-rollback.json" "$tmp/failure-terminal.json" <<'EOF2'
import json, sys
from hazards_facts import *
for f in sys.argv[1:]:
    d = json.load(open(f))
    name = f.rsplit("/", 1)[-1][:-5]
    drift = [e for e in d["timeline"] if e["change"] == "event" and e["reason"] == "DriftCorrected"]
    check("%s: no DriftCorrected and no notice of one" % name,
          not drift and notice(d, "DriftCorrected") is None)
EOF2

# An apply.conflicts entry whose conflict handling is Fail is such a failure too.
lint_of failure-conflict
contains "conflict: MS231" "$tmp/failure-conflict.lint" \
	'MS231 warning StageSet default/web: a new revision of stage "app" can change an immutable field of ConfigMap default/web-config (probability 1 per revision, spec.models.stagesets.apply.conflicts) and its conflict handling is Fail'
contains "conflict: MS231 says what then happens" "$tmp/failure-conflict.lint" \
	'the apply that goes through once the conflict is resolved (conflictPolicy Recreate, or force) is then reported as a DriftCorrected Warning (no drift happened)'
run_of failure-conflict
facts_of failure-conflict <<'EOF2'
ev = lambda reason: [e["t_ms"] for e in d["timeline"] if e["change"] == "event" and e["reason"] == reason]
check("conflict: the new revision fails at 5m1s and is not applied until the policy changes (%s)" % ev("StageFailed"),
      ev("StageFailed") == [301000])
check("conflict: the apply under Recreate is a DriftCorrected at 22m1s (%s)" % ev("DriftCorrected"),
      ev("DriftCorrected") == [1321000])
n = notice(d, "DriftCorrected Warning came from the first apply after a failed attempt")
check("conflict: the run tells it", n is not None and "(the first at 22m1s, after the StageFailed at 5m1s)" in n["text"],
      n and n["text"])
EOF2
lint_of failure-conflict-recreate
lacks "conflict recreated, or never changed: no MS231" "$tmp/failure-conflict-recreate.lint" "MS231"
run_of failure-conflict-recreate
facts_of failure-conflict-recreate <<'EOF2'
bad = [e for e in d["timeline"] if e["change"] == "event" and e["reason"] in ("StageFailed", "DriftCorrected")]
check("conflict recreated: no StageFailed, no DriftCorrected (%s)" % bad, not bad and notice(d, "DriftCorrected") is None)
EOF2

finish
