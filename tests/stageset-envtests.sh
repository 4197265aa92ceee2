#!/bin/sh
# The upstream envtests of the StageSet controller (metio/stageset-controller
# internal/controller/*_test.go at f2c7604), reproduced as scenarios in
# tests/stageset-envtests/: each file names the tests it reproduces and pins
# their expectations in spec.expect (conditions, reasons, messages, status
# fields and ledgers at the times the upstream test reconciles), which
# `magos-sim check` evaluates; what a status cannot show (events, how often
# an action ran, when a requeue came) is read here from the JSON timeline
# (an action's modelled duration makes the pass that runs it end later),
# and what spec.expect cannot say is absent from a snapshot.
#
# Not reproducible end to end, one line each (the controller's part of
# T-44..T-48 and T-114, T-115 is a test in tests/unit/test_stageset_controller.c):
#   T-44..T-48 (side effects)  what patch/delete/apply/wait actions do to other objects is not modelled
#   T-114, T-115  StageInventory shards are kept by the controller's wiring, not as objects a scenario can delete or restore (a render can drop an object: tests/hazards-prune.sh)
. "$(dirname "$0")/lib.sh"
require_sim
require_python "to read the JSON timelines"

D=tests/stageset-envtests
"$SIM" check --no-color "$D" >"$tmp/check.out" 2>"$tmp/check.err"
rc=$?
expect_status "every envtest scenario's expectations hold" 0 $rc
[ $rc -eq 0 ] || grep -v '^PASS' "$tmp/check.out" | head -n 20
lacks "no FAIL line" "$tmp/check.out" "FAIL"
lacks "no scenario skipped" "$tmp/check.out" "SKIP"
# Lint findings count among the checks (warnings and infos): t52's "deployed" has an Allow window
# that ends at 00:05 and never opens again (MS235, StageSet spec §5 Q-20), and
# t82's "denied" a restart gate whose pod list is forbidden from 5m on (MS241,
# §5 Q-16); both warnings, and check passes.
contains "t52: MS235 on the Allow window that ends at 00:05" "$tmp/check.out" \
	'WARN  tests/stageset-envtests/t52-update-windows.yaml:94:1: MS235: StageSet envtest/deployed: its update windows (Allow from 2020-01-01T00:00:00Z to 2025-06-01T00:05:00Z) allow no update from 2025-06-01T00:05:00Z on'
contains "t82: MS241 on the forbidden pod list" "$tmp/check.out" \
	'WARN  tests/stageset-envtests/t82-restart-gate-rollback.yaml:96:7: MS241: StageSet envtest-b/denied'
# t89's "crossns" reads a GitRepository of another namespace, which wakes it
# only at its own next pass (MS245, info, StageSet spec §5 Q-25).
contains "t89: MS245 on the source of another namespace" "$tmp/check.out" \
	'INFO  tests/stageset-envtests/t89-failure-classes.yaml:81:39: MS245: StageSet envtest/crossns stage "stage-a" reads GitRepository other-team/app in another namespace'
n=$(grep -c -E '^(PASS|WARN|INFO) ' "$tmp/check.out")
files=$(ls "$D"/*.yaml | wc -l)
has_line "every expectation of every scenario ran and passed" "$tmp/check.out" \
	"$n checks in $files scenarios: 0 failed"
check "at least 75 expectations ($n)" [ "$n" -ge 75 ]
lacks "no warning or error on stderr (notes only)" "$tmp/check.err" "warning"
lacks "... no error" "$tmp/check.err" "error"

for f in "$D"/*.yaml; do
	b=$(basename "$f" .yaml)
	"$SIM" run --json "$tmp/$b.json" "$f" >/dev/null 2>"$tmp/$b.err"
	check "$b runs" [ $? -eq 0 ]
done
# what a status lacks (a key spec.expect cannot say is absent): from a snapshot
"$SIM" run --snapshot 20m "$tmp/t79.snap.yaml" "$D/t79-gate-rollbacks.yaml" >/dev/null 2>&1
check "t79-gate-rollbacks snapshot" [ $? -eq 0 ]
"$SIM" run --snapshot 6m "$tmp/t95.snap.yaml" "$D/t95-rollback.yaml" >/dev/null 2>&1
check "t95-rollback snapshot" [ $? -eq 0 ]

pyfacts "$tmp" <<'PY'
import sys
from facts import load, check

S, M = 1000, 60000

def writes(d, name):
    return [(e["t_ms"], e["reason"], e["message"] or "") for e in d["timeline"]
            if e["kind"] == "StageSet" and e["name"] == name and e["change"] == "status"]

def events(d, name, reason=None):
    return [(e["t_ms"], e["phase"], e["reason"], e["message"]) for e in d["timeline"]
            if e["name"] == name and e["change"] == "event" and (reason is None or e["reason"] == reason)]

d = load(sys.argv[1], "t02-baseline-emits-event")
if d:
    ev = events(d, "baseline", "MigrationsBaselined")
    check("T-2: one MigrationsBaselined event over ten passes",
          [(p, m) for _, p, _, m in ev] == [("Normal", "baselined at 2.0.0 on first adoption: no migrations "
                                             "were run; the deployment is assumed already at this version")], ev)

d = load(sys.argv[1], "t09-source-not-ready-suspended")
if d:
    w = writes(d, "paused")
    check("T-11: Suspended with upstream's message", [(r, m) for _, r, m in w] == [("Suspended", "Reconciliation is suspended")], w)

d = load(sys.argv[1], "t12-require-coverage-blocks-major")
if d:
    w = [x for x in writes(d, "coverage") if x[1] != "Succeeded"]
    check("T-12: the coverage message names both versions",
          [(t, r, m.split(" (runbook: ")[0]) for t, r, m in w] == [(4 * M, "MigrationCoverageMissing",
           "version crosses a major boundary 1.1.0 → 2.0.0 but no migration covers it, and "
           "requireMigrationCoverage is set")], w)

d = load(sys.argv[1], "t13-approval-on-migrations")
if d:
    ev = [(t, r) for t, _, r, _ in events(d, "approval") if r.startswith("Migration") and r != "MigrationsBaselined"]
    check("T-13: the migration runs only in the approved pass",
          [r for _, r in ev] == ["MigrationStarted", "MigrationCompleted"] and all(t > 5 * M for t, _ in ev), ev)

d = load(sys.argv[1], "t15-baseline-upgrade-downgrade")
if d:
    started = lambda n: [m for _, _, r, m in events(d, n) if r == "MigrationStarted"]
    check("T-15: baselining runs no migration", started("baselined") == [], started("baselined"))
    check("T-16: the upgrade runs drop-legacy", started("upgrader") == ['migration "drop-legacy" (to 2.0.0) starting'],
          started("upgrader"))

d = load(sys.argv[1], "t21-sourced-migrations")
if d:
    ev = [r for _, _, r, _ in events(d, "runs") if r.startswith("Migration")]
    check("T-21: the sourced drop-legacy runs once, at 2.0.0", ev == ["MigrationsBaselined", "MigrationStarted", "MigrationCompleted"], ev)
    w = [(t, r) for t, r, _ in writes(d, "retry")]
    check("T-22: delete-legacy (20s) runs in the 2m pass only; the stamped pass at 4m ends 1.1s later",
          w[1] == (2 * M + 21100, "MigrationFailed") and (4 * M + 1100, "MigrationFailed") in w, w)
    w = [m for _, r, m in writes(d, "invalid") if r == "MigrationArtifactInvalid"]
    check("T-23: the strict parse's error names the file", len(w) == 1 and w[0].startswith(
          'parsing migrations file "ladder.yaml": error unmarshaling JSON: while decoding JSON: json: '
          'cannot unmarshal array into Go value of type v1.Migration'), w)

d = load(sys.argv[1], "t24-downgrades")
if d:
    started = lambda n: [(t, m) for t, _, r, m in events(d, n) if r == "MigrationStarted"]
    s = started("down")
    check("T-24: up at 2m, down actions at 5m",
          [m for _, m in s] == ['migration "schema-2" (to 2.0.0) starting',
                                'rollback of migration "schema-2" (to 2.0.0) starting'] and s[1][0] > 5 * M, s)
    s = started("directed")
    check("T-26: rollback-to runs the down actions in the next pass", s[1][1].startswith("rollback of") and s[1][0] < 5 * M + 10 * S, s)
    w = [x for x in writes(d, "irreversible") if x[1] != "Succeeded"]
    check("T-28: the refusal names schema-2 and says irreversible",
          len(w) == 1 and 'migration "schema-2"' in w[0][2] and "irreversible" in w[0][2], w)
    w = [x for x in writes(d, "refused") if x[1] != "Succeeded"]
    check("T-27: the refusal says how to enable downgrades",
          len(w) == 1 and "set spec.version.allowDowngrade to enable reversible downgrades" in w[0][2], w)

# A pass that runs rev-notify takes 7s more, ver-notify 20s more (apply 1s).
d = load(sys.argv[1], "t29-action-scopes")
if d:
    ends = lambda n: [t for t, _, _ in writes(d, n)]
    check("T-29: rev-notify at adoption and at the new revision, ver-notify never",
          ends("churn") == [8005, 2 * M + 8 * S], ends("churn"))
    ev = [m for _, _, _, m in events(d, "churn", "ActionSkipped")]
    check("T-29: ver-notify skipped once, held at 1.0.0", len(ev) == 1 and
          ev[0].startswith('stage "app" action "ver-notify" (scope: Version) held at version "1.0.0"'), ev)
    check("T-30: adoption runs rev-notify only; 2.0.0 runs both", ends("bump") == [8005, 2 * M + 28 * S], ends("bump"))
    check("T-31: reset-scope tok-1 runs ver-notify alone; the next pass neither",
          ends("reset") == [8005, 2 * M + 28 * S, 5 * M + 21 * S, 7 * M + S], ends("reset"))
    check("T-32: adoption at 3.1.4 runs rev-notify only", ends("adopt") == [8005], ends("adopt"))

# install-database (Lifetime) takes 30s; the apply 1s.
d = load(sys.argv[1], "t33-lifetime-ledger")
if d:
    ends = lambda n: [t for t, _, _ in writes(d, n)]
    check("T-33: install-database runs at the first pass only, not at a new revision, 2.0.0 or a reconcile-stage token",
          ends("boot") == [31005, 2 * M + S, 3 * M + S, 4 * M + S], ends("boot"))
    check("T-34: a baselined install-database never runs", ends("adopt") == [1005], ends("adopt"))
    check("T-35: not run again after delete and recreate", ends("keep") == [31005, 4 * M + 1005], ends("keep"))
    ev = [(t, p, m) for t, p, _, m in events(d, "keep", "LedgerAdopted")]
    check("T-36: one LedgerAdopted event, at the recreated StageSet's first pass",
          len(ev) == 1 and ev[0][:2] == (4 * M + 1005, "Normal") and
          ev[0][2].startswith("adopted an existing StageLedger with 1 recorded completion(s)"), ev)

d = load(sys.argv[1], "t37-anchors")
if d:
    ends = lambda n: [t for t, _, _ in writes(d, n)]
    check("T-37: a stable witness: install-database not run again", ends("boot") == [31005, 2 * M + S], ends("boot"))
    check("T-38: the witness gone: the stamped pass runs install-database again", ends("reboot") == [31005, 2 * M + 31 * S], ends("reboot"))
    ev = [(t, m) for t, _, _, m in events(d, "reboot", "LedgerInvalidated")]
    check("T-38: one LedgerInvalidated event", ev == [(2 * M + 31 * S, 'stage "app" action "install-database": completionAnchor '
          "witness is gone; the scope: Lifetime action will run again")], ev)
    w = writes(d, "ghost")
    check("T-39: the absent anchor fails the stage", w[0][1] == "StageFailed" and
          "completionAnchor ConfigMap envtest/never-applied" in w[0][2] and "it must exist so its UID can be recorded" in w[0][2], w)

d = load(sys.argv[1], "t40-baseline-dirty")
if d:
    ev = [(p, m) for _, p, _, m in events(d, "typo", "BaselineInvalid")]
    check("T-40: one Warning BaselineInvalid naming app/no-such-action", ev == [("Warning",
          'spec.baseline entries that resolve to no scope: Lifetime action in StageSet "typo": app/no-such-action')], ev)
    ends = [t for t, _, _ in writes(d, "heal")]
    check("T-41: late-boot (10s) runs at the first pass only; the renamed install-database never",
          ends == [11005, 2 * M + S], ends)
    w = [(t, r) for t, r, _ in writes(d, "dirty") if r != "StageFailed"]
    check("T-42: ActionDirty after five failing passes; the stamp clears it for one pass",
          [r for _, r in w][:1] == ["ActionDirty"] and w[0][0] < M and
          any(t == 10 * M + 2 * S and r == "StageFailed" for t, r, _ in writes(d, "dirty")), writes(d, "dirty"))
    w = writes(d, "revfail")
    check("T-43: a failing Revision-scoped action: StageFailed, never ActionDirty",
          w and all(r == "StageFailed" for _, r, _ in w), w)

d = load(sys.argv[1], "t25-downgrade-unwinds")
if d:
    ev = [m for t, _, r, m in events(d, "unwind", "MigrationStarted") if t > 5 * M]
    check("T-25: 3.0.0 to 1.0.0 unwinds schema-3, then schema-2", ev == [
          'rollback of migration "schema-3" (to 3.0.0) starting', 'rollback of migration "schema-2" (to 2.0.0) starting'], ev)

d = load(sys.argv[1], "t49-action-ledger-force-stage")
if d:
    w = [t for t, _, _ in writes(d, "notifier")]
    check("T-49/T-51: notify runs at the first pass, at tok1 and at tok2 only (each such pass ends 30s later)",
          w == [31005, 5 * M + 31 * S, 10 * M + 31 * S], w)

d = load(sys.argv[1], "t50-on-failure")
if d:
    w = writes(d, "smoked")
    check("T-50: one StageFailed write, after page's 20s; the retries run neither action again",
          [(t, r, m.split(" (runbook: ")[0]) for t, r, m in w] ==
          [(22005, "StageFailed", 'stage "stage-a" post-action: action "smoke": POST http://smoke.envtest.svc/run returned 500')], w)

d = load(sys.argv[1], "t52-update-windows")
if d:
    w = writes(d, "deployed")
    check("T-56: the held revision keeps Ready True Succeeded",
          [r for _, r, _ in w] == ["Succeeded", "Succeeded"] and w[1][0] == 10 * M
          and w[1][2].startswith("Deployed; delivery held by update window"), w)
    w = writes(d, "denied")
    check("T-52: UpdateDeferred with upstream's message",
          [(r, m.split(" (runbook: ")[0]) for _, r, m in w] == [("UpdateDeferred", "delivery held by update window (next window opens 2030-01-01T00:00:00Z)")], w)
    ev = events(d, "denied", "UpdateDeferred")
    check("T-53: one UpdateDeferred event for the deferral, whatever the passes", len(ev) == 1, ev)

d = load(sys.argv[1], "t87-verify-timeout")
if d:
    w = writes(d, "hold")
    check("T-87: StageProgressing names the timeout ladder",
          w[0][1] == "StageProgressing" and "spec.timeout" in w[0][2], w)
    check("T-87: retried every 90s (retryInterval): the first retry after 4m1s succeeds",
          len(w) == 2 and w[1][1] == "Succeeded" and 2005 + 3 * 90 * S < w[1][0] < 2005 + 3 * 90 * S + 10 * S, w)
    check("T-87: no RolledBack event", events(d, "hold", "RolledBack") == [])
    w = writes(d, "rollback")
    check("T-88: onTimeout Rollback: StageFailed", w[0][1] == "StageFailed" and "verify: timeout waiting for" in w[0][2], w)

d = load(sys.argv[1], "t109-dependencies")
if d:
    w = writes(d, "gated")
    ok = [t for t, r, _ in w if r == "Succeeded"]
    check("T-111: gated proceeds right after db reaches 2.0.0 (woken by db, not its 10m interval)",
          len(ok) == 1 and 5 * M < ok[0] < 6 * M, w)
    check("T-111: upstream's version-gate message",
          any(m.startswith("dependency envtest/db is at version 1.0.0, need >= 2.0.0") for _, _, m in w), w)
    w = writes(d, "app")
    check("Q-24: a dependent flips to DependencyNotReady while its dependency's spec edit is unobserved",
          any(t == 5 * M and r == "DependencyNotReady" for t, r, _ in w), w)
    w = writes(d, "cyc-x")
    check("T-112: Stalled 'spec.dependsOn forms a cycle'", w[0][1:] == ("Stalled", "spec.dependsOn forms a cycle (runbook: "
          "https://stageset.projects.metio.wtf/runbooks/stalled/)"), w)

d = load(sys.argv[1], "t57-error-budget")
if d:
    ev = events(d, "allow", "BudgetSourceUnavailable")
    check("T-63: a Warning BudgetSourceUnavailable event, proceeding",
          len(ev) == 1 and ev[0][1] == "Warning" and ev[0][3].startswith(
              "error-budget source unavailable; proceeding (onSourceError=Allow): metric source unavailable"), ev)
    w = writes(d, "hold")
    check("T-64: upstream's Hold message", w[0][1] == "BudgetSourceUnavailable" and w[0][2].startswith(
          "error-budget source unavailable and onSourceError=Hold: "), w)
    w = writes(d, "frozen")
    check("T-57: upstream's freeze message", w[0][2].startswith("error budget exhausted: remaining 0.05 < "
          "freezeThreshold 0.1; new-revision rollouts are frozen until it recovers to 0.1"), w)
    ev = events(d, "dryrun", "BudgetExhausted")
    check("T-62: dryRun says what it would do, once", [m for _, _, _, m in ev] ==
          ["error-budget freeze would activate (dryRun): remaining 0.01 < freezeThreshold 0.1"], ev)

d = load(sys.argv[1], "t79-gate-rollbacks")
if d:
    ev = [(t, m) for t, _, _, m in events(d, "revert", "PromotionBlocked") if "failed; rolled back to revision" in m]
    check("T-79: one 'rolled back' event, in the first pass of the new revision", len(ev) == 1 and 10 * M < ev[0][0] < 11 * M, ev)
    w = [t for t, _, _ in writes(d, "revert")]
    check("T-79: parked: no later pass writes (the analysis is not queried once unreadable)", w[-1] < 11 * M, w)
    ev = [m for _, _, _, m in events(d, "nosnap", "PromotionBlocked")]
    check("T-80: onFailure Rollback without a snapshot says it could not revert", any(
          "could not be reverted: no last-good revision is available to roll back to" in m for m in ev), ev)
    import yaml
    snap = {o["metadata"]["name"]: o for o in yaml.safe_load(open(sys.argv[1] + "/t79.snap.yaml"))["items"] if o["kind"] == "StageSet"}
    ps = snap["nosnap"]["status"]["stages"][0]["promotionState"]
    check("T-80: no abortedRevision", "abortedRevision" not in ps and ps["phase"] == "Blocked", ps)
    ev = [(t, m) for t, _, _, m in events(d, "events", "PromotionBlocked") if "failed; rolled back to revision" in m]
    check("T-83: one event-check rollback event", len(ev) == 1 and ev[0][1].startswith('stage "stage-a" event check "web" failed'), ev)
    check("T-84: a transient pod-list error: no write, no RolledBack", writes(d, "transient")[1:] == [] and
          events(d, "transient", "RolledBack") == [], writes(d, "transient"))

d = load(sys.argv[1], "t86-gate-unevaluable-ledgers")
if d:
    w = [t for t, _, _ in writes(d, "gated")]
    check("T-86: the migration (20s), the pre action (10s) and the apply (1s) run in the 2m pass; the 4m pass runs neither",
          w[1:3] == [2 * M + 31 * S, 4 * M + S], w)
    ev = [r for _, _, r, _ in events(d, "gated") if r.startswith("Migration") and r != "MigrationsBaselined"]
    check("T-86: the migration runs once", ev == ["MigrationStarted", "MigrationCompleted"], ev)

d = load(sys.argv[1], "t59-windows-and-budgets")
if d:
    check("T-59: the closed window holds before the budget is read (no BudgetSourceUnavailable)",
          events(d, "closed", "BudgetSourceUnavailable") == [] and
          [r for _, r, _ in writes(d, "closed")] == ["UpdateDeferred"], writes(d, "closed"))

d = load(sys.argv[1], "t89-failure-classes")
if d:
    w = [(t, r) for t, r, _ in writes(d, "rbac")]
    check("T-89: RBACDenied requeues every 1m without back-off: the grant at 2m30s is seen at the 3m pass",
          w == [(5, "RBACDenied"), (3 * M + 1005, "Succeeded")], w)
    w = [(t, r) for t, r, _ in writes(d, "transient")]
    check("T-90: SourceNotReady until the source's update at 2m30s wakes it", w == [(5, "SourceNotReady"), (2 * M + 31 * S, "Succeeded")], w)
    m = writes(d, "crossns")[0][2]
    check("T-91: the cross-namespace message leaks nothing", "is not reachable" in m and "other-team" in m and
          not any(x in m for x in ("Forbidden", "forbidden", "cannot get", "NotFound")), m)
    w = writes(d, "fetchterm")
    check("T-92: a terminal fetch error is written once and not retried", [r for _, r, _ in w] == ["StageFailed"] and
          "fetch artifact: artifact digest mismatch" in w[0][2], w)
    w = [(t, r) for t, r, _ in writes(d, "fetchtrans")]
    check("T-93: a transient fetch error backs off and recovers after 2m", w[0] == (1005, "StageFailed") and
          w[-1][1] == "Succeeded" and 2 * M < w[-1][0] < 4 * M, w)
    w = writes(d, "applyrbac")
    check("T-94: a Forbidden apply: RBACDenied, terminal", [r for _, r, _ in w] == ["RBACDenied"] and
          "RBAC denied apply" in w[0][2], w)

# cleanup-maintenance (onRollback) 7s, a restore 1s per stage, an apply 1s
d = load(sys.argv[1], "t95-rollback")
if d:
    import yaml
    snap = {o["metadata"]["name"]: o for o in yaml.safe_load(open(sys.argv[1] + "/t95.snap.yaml"))["items"] if o["kind"] == "StageSet"}
    w = writes(d, "restore")
    check("T-95/T-96: stage-b fails at the 2m revision: stage-a applied (1s), both restored (2s), cleanup-maintenance (7s)",
          w[1][0] == 2 * M + 11 * S and w[1][1] == "StageFailed", w)
    rb = [t for t, _, _, _ in events(d, "restore", "RolledBack")]
    check("T-101: every failing pass rolls back and runs onRollback again (11s per retry)",
          len(rb) >= 3 and rb[0] == 2 * M + 11 * S and all(b - a >= 11 * S for a, b in zip(rb, rb[1:])), rb)
    check("T-95: the snapshot keeps both stages", [x["stage"] for x in snap["restore"]["status"]["lastAppliedSnapshot"]] ==
          ["stage-a", "stage-b"], snap["restore"]["status"].get("lastAppliedSnapshot"))
    w = writes(d, "firstrun")
    check("T-97/T-98: a failing first run: StageFailed after the apply alone (no onRollback), no snapshot",
          w[0][:2] == (1005, "StageFailed") and "lastAppliedSnapshot" not in snap["firstrun"]["status"], w)
    check("T-99: success: no onRollback (1s pass), lastAppliedSnapshot recorded",
          [t for t, _, _ in writes(d, "success")] == [1005] and
          [x["stage"] for x in snap["success"]["status"]["lastAppliedSnapshot"]] == ["stage-a"], writes(d, "success"))
    w = writes(d, "gate")
    check("T-100: a gate rollback runs onRollback: apply 1s, restore 1s, cleanup 7s", w[1][:2] == (2 * M + 9 * S, "PromotionBlocked"), w)
    ev = [(p, m) for _, p, _, m in events(d, "order", "OnRollbackAction")]
    check("T-102/T-103: first (3s) ran, then second failed best-effort: one Warning OnRollbackAction",
          ev == [("Warning", 'onRollback: action "second": host "blocked.example.com" is not in --allowed-action-hosts')]
          and writes(d, "order")[1][0] == 2 * M + 8 * S, (ev, writes(d, "order")))
    check("T-102: one RolledBack, StageFailed", len(events(d, "order", "RolledBack")) == 1 and writes(d, "order")[-1][1] == "StageFailed")

# a controller with a rollback store; producers GC their older revisions (gcAt)
d = load(sys.argv[1], "t104-rollback-store")
if d:
    store = lambda n: [(t, m) for t, _, _, m in events(d, n, "RollbackStoreFailed")]
    check("T-104: a successful run with rollbackOnFailure puts its stage in the store (no failed Put)",
          [r for _, r, _ in writes(d, "stored")][:1] == ["Succeeded"] and
          not any(m.startswith("storing") for _, m in store("stored")), store("stored"))
    rb = [t for t, _, _, _ in events(d, "stored", "RolledBack")]
    check("T-105: the producer GC'd the first revision at 2m, yet the rollback restores it from the store",
          rb[:1] == [2 * M + 2 * S] and all(r != "PreviousRevisionUnavailable" for _, r, _ in writes(d, "stored")),
          (rb, writes(d, "stored")))
    w = writes(d, "refetch")
    check("T-105 (no store copy): a failed Put is evented, the apply stands",
          store("refetch")[:1] == [(5 * M + 1005, 'storing stage "stage-a" in the rollback store failed: '
                                    'rollback store unavailable')] and w[0][1] == "Succeeded", (store("refetch"), w))
    check("T-105 (no store copy): a store miss re-fetches the GC'd revision: PreviousRevisionUnavailable, no RolledBack",
          w[-1][1] == "PreviousRevisionUnavailable" and w[-1][2].startswith("cannot roll back: revision main@sha1:") and
          'for stage "stage-a" is no longer fetchable (fetch artifact: unexpected status 404)' in w[-1][2] and
          events(d, "refetch", "RolledBack") == [], w)
    ev = store("outage")
    rb = [t for t, _, _, _ in events(d, "outage", "RolledBack")]
    check("TransientStoreError_BacksOff: a Get error is evented and backs off, no re-fetch; restored after 3m30s",
          len(ev) >= 3 and all(3 * M <= t < 3 * M + 30 * S and
                               m == 'reading stage "stage-a" from the rollback store failed: rollback store unavailable'
                               for t, m in ev) and
          rb and rb[0] >= 3 * M + 30 * S and
          all(r != "PreviousRevisionUnavailable" for _, r, _ in writes(d, "outage")), (ev, rb))
    w = writes(d, "corrupt")
    check("CorruptSnapshot_EventsAndFallsThrough: evented, then the re-fetch's PreviousRevisionUnavailable",
          store("corrupt") == [(9 * M + 2 * S, 'decoding stage "stage-a" from the rollback store failed (corrupt '
                                'snapshot); falling back to producer re-fetch: unexpected end of JSON input')] and
          w[-1][:2] == (9 * M + 2 * S, "PreviousRevisionUnavailable") and events(d, "corrupt", "RolledBack") == [],
          (store("corrupt"), w))

d = load(sys.argv[1], "t117-new-revision-not-drift")
if d:
    w = [t for t, _, _ in writes(d, "drift")]
    check("T-117: the 2m revision is applied at once, and no pass reports drift",
          w == [1005, 2 * M + S] and events(d, "drift", "DriftCorrected") == [], (w, events(d, "drift")))

d = load(sys.argv[1], "t116-drift-corrected")
if d:
    ev = events(d, "drift", "DriftCorrected")
    check("T-116: one Warning DriftCorrected, at the first pass after the 2m30s edit, naming the object",
          [(p, m) for _, p, _, m in ev] == [("Warning", 'stage "stage-a" corrected out-of-band drift on '
                                             '1 object(s): Deployment/drift-stage-a')] and
          2 * M + 30 * S < ev[0][0] <= 3 * M + 10 * S, ev)
    check("T-116: the unedited StageSet reports no drift", events(d, "quiet", "DriftCorrected") == [],
          events(d, "quiet"))
    check("T-116: an edit of a KeepExisting workload is never put back nor reported",
          events(d, "kept", "DriftCorrected") == [], events(d, "kept"))
    dn = [(n["t_ms"], n["severity"], [(o["kind"], o["namespace"], o["name"]) for o in n["objects"]], n["text"])
          for n in d["notices"] if n["text"].startswith("drift: ")]
    check("T-116: each drift event is a notice at 2m30s naming the StageSets it edits",
          [(t, sev, objs) for t, sev, objs, _ in dn] ==
          [(150000, "info", [("StageSet", "envtest", "drift")]), (150000, "info", [("StageSet", "envtest", "kept")])] and
          dn[0][3].startswith("drift: the workload of every stage is edited out of band (scenario event 1 (drift))") and
          dn[1][3].startswith('drift: the workload of stage "stage-a" is edited out of band (scenario event 2 (drift))'), dn)

d = load(sys.argv[1], "t122-wakes-on-deletion")
if d:
    e = [(x["t_ms"], x["change"], x["generation"], x["cause"]) for x in d["timeline"]
         if x["kind"] == "StageSet" and x["name"] == "held" and x["change"] in ("deleting", "deleted")]
    check("T-122: deletion bumps generation to 2; the controller removes its finalizer at once",
          [(t, c, g) for t, c, g, _ in e] == [(2 * M, "deleting", 2), (2 * M, "deleted", 2)] and
          e[1][3].startswith("reconcile stageset-controller"), e)

d = load(sys.argv[1], "t82-restart-gate-rollback")
if d:
    ev = [(t, m) for t, p, r, m in events(d, "api", "PromotionBlocked") if "failed; rolled back to revision" in m]
    check("T-82: one 'failed; rolled back' event per aborted revision, none while parked",
          len(ev) == 2 and 10 * M < ev[0][0] < 11 * M and 20 * M < ev[1][0] < 21 * M, ev)
    check("T-82: no RolledBack event for a gate revert", events(d, "api", "RolledBack") == [])
    w = writes(d, "denied")
    check("T-85: RBACDenied names the restart check and the forbidden list, within a minute of the denial",
          w[-1][1] == "RBACDenied" and 'restart check "web": list pods: pods is forbidden' in w[-1][2]
          and 5 * M < w[-1][0] < 6 * M + 10 * S, w)
    check("T-85: no RolledBack event", events(d, "denied", "RolledBack") == [])
PY

# The drift events are on the terminal timeline and in the HTML page as the other scripted events are.
"$SIM" run --no-color --width 200 --html "$tmp/t116.html" "$D/t116-drift-corrected.yaml" >"$tmp/t116.out" 2>&1
check "t116 runs with --html" [ $? -eq 0 ]
grep -A1 '^ *2m30s  !! info' "$tmp/t116.out" >"$tmp/t116.drift"
contains "T-116: the drift is on the timeline at 2m30s" "$tmp/t116.drift" \
	'drift: the workload of every stage is edited out of band (scenario event 1 (drift))'
contains "T-116: the HTML page lists it" "$tmp/t116.html" \
	'drift: the workload of stage &quot;stage-a&quot; is edited out of band (scenario event 2 (drift))'
finish
