#!/bin/sh
# The StageSet worked examples (scenarios/stageset-*.yaml) show what their
# opening comments say: each one's spec.expect passes under `magos-sim check`
# (the status fields at the times the comment names), and its timeline holds
# the Ready writes, messages and events at the times the comment names.
. "$(dirname "$0")/lib.sh"
require_sim
require_python "to read the JSON timelines"

for ex in stageset-migration-hold stageset-budget-freeze stageset-promotion-gate; do
	"$SIM" check --no-color "scenarios/$ex.yaml" >"$tmp/$ex.check" 2>"$tmp/$ex.cerr"
	rc=$?
	expect_status "$ex: its expectations hold under check" 0 $rc
	[ $rc -eq 0 ] || show "$tmp/$ex.check" 10
	lacks "$ex: no FAIL line" "$tmp/$ex.check" "FAIL"
	check "$ex: check writes nothing to stderr" [ ! -s "$tmp/$ex.cerr" ]
	"$SIM" run --json "$tmp/$ex.json" "scenarios/$ex.yaml" >/dev/null 2>"$tmp/$ex.err"
	check "$ex: the run is accepted, nothing on stderr" sh -c "[ $? -eq 0 ] && [ ! -s '$tmp/$ex.err' ]"
done

pyfacts "$tmp" <<'PY'
import sys
from facts import load, check

def writes(d):
    """(t_ms, reason, message) of every StageSet status write."""
    return [(e["t_ms"], e["reason"], e["message"]) for e in d["timeline"]
            if e["kind"] == "StageSet" and e["change"] == "status"]

def details(d):
    return [(e["t_ms"], e["detail"]) for e in d["timeline"]
            if e["kind"] == "StageSet" and e["change"] == "status"]

def events(d, reason=None):
    return [(e["t_ms"], e["phase"], e["reason"], e["message"]) for e in d["timeline"]
            if e["change"] == "event" and (reason is None or e["reason"] == reason)]

M, H = 60000, 3600000
APPLIED = "Applied and verified 1 stage(s)"

d = load(sys.argv[1], "stageset-migration-hold")
if d:
    held = ("version transition to 2.0.0 is awaiting approval (1 pending migration(s)); "
            "set annotation stages.metio.wtf/approved-version=\"2.0.0\" to proceed")
    w = writes(d)
    check("migration hold: baseline at 1m1.005s, held at 30m, through at 1h1m2s",
          [(t, r) for t, r, _ in w] == [(61005, "Succeeded"), (30 * M, "AwaitingApproval"),
                                        (H + M + 2000, "Succeeded")], w)
    check("migration hold: upstream's AwaitingApproval message, with the runbook link",
          w[1][2].startswith(held + " (runbook: "), w[1][2])
    dt = details(d)
    check("migration hold: the hold writes pendingVersion and pendingMigrations",
          "pendingVersion" in dt[1][1] and "pendingMigrations" in dt[1][1], dt)
    check("migration hold: the approved pass clears them",
          "-pendingVersion" in dt[2][1] and "-pendingMigrations" in dt[2][1], dt)
    ev = events(d, "AwaitingApproval")
    check("migration hold: one Warning AwaitingApproval event (re-checks each minute write nothing)",
          ev == [(30 * M, "Warning", "AwaitingApproval", held)], ev)
    ev = [(t, r, m) for t, _, r, m in events(d) if r.startswith("Migration")]
    check("migration hold: the baseline runs nothing, the approval runs drop-legacy",
          [r for _, r, _ in ev] == ["MigrationsBaselined", "MigrationStarted", "MigrationCompleted"]
          and ev[1][2] == 'migration "drop-legacy" (to 2.0.0) starting', ev)

d = load(sys.argv[1], "stageset-budget-freeze")
if d:
    frozen = ("Deployed; error budget exhausted: remaining 0.02 < freezeThreshold 0.05; "
              "new-revision rollouts are frozen until it recovers to 0.1")
    w = writes(d)
    check("budget freeze: baseline, Ready True frozen at 1h30m, adopted at 3h6m2s",
          w == [(61005, "Succeeded", APPLIED), (90 * M, "Succeeded", frozen),
                (3 * H + 6 * M + 2000, "Succeeded", APPLIED)], w)
    dt = details(d)
    check("budget freeze: the hold writes budgetFreeze, no pendingUpdate, nothing planned",
          "budgetFreeze" in dt[1][1] and "pendingUpdate" not in dt[1][1]
          and "pendingMigrations" not in dt[1][1] and "pendingVersion" not in dt[1][1], dt)
    check("budget freeze: adoption clears budgetFreeze", "-budgetFreeze" in dt[2][1], dt)
    ev = [(t, r) for t, _, r, _ in events(d)]
    check("budget freeze: the migration runs only after the budget recovers",
          ev == [(61005, "MigrationsBaselined"), (61005, "Succeeded"),
                 (3 * H + 6 * M + 2000, "MigrationStarted"), (3 * H + 6 * M + 2000, "MigrationCompleted")], ev)
    passes = [e["t_ms"] for e in d["timeline"] if e["change"] == "status"]
    check("budget freeze: no write while frozen (the hold's passes change nothing)", len(passes) == 3, passes)

d = load(sys.argv[1], "stageset-promotion-gate")
if d:
    w = writes(d)
    soak = 'stage "canary" is soaking before promotion; soak window closes at '
    block = 'stage "canary" promotion analysis is failing (%d failure(s)); the rollout will not advance past it'
    applied2 = "Applied and verified 2 stage(s)"
    want = [(31 * M + 1000, "Soaking", soak + "2026-03-02T08:41:01Z"), (42 * M + 3000, "Succeeded", applied2)]
    want += [(2 * H + (2 * k + 1) * M + k * 1000 + 1000, "PromotionBlocked", block % (k + 1)) for k in range(5)]
    want += [(2 * H + 11 * M + 6000, "Soaking", soak + "2026-03-02T10:21:06Z"),
             (2 * H + 22 * M + 8000, "Succeeded", applied2)]
    got = [(t, r, m.split(" (runbook: ")[0]) for t, r, m in w if t >= 30 * M]
    check("promotion gate: soak, promote, block for every failing read, soak anew, promote", got == want, got)
    check("promotion gate: the baseline soaks too (a stage seen for the first time)",
          w[0][:2] == (61005, "Soaking") and w[0][2].startswith(soak + "2026-03-02T08:11:01Z"), w[:2])
    ev = events(d, "PromotionBlocked")
    check("promotion gate: one Warning PromotionBlocked event for the block",
          ev == [(2 * H + M + 1000, "Warning", "PromotionBlocked", block % 1)], ev)
PY
finish
