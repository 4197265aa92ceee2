#!/bin/sh
# The StageSet hold hazards told twice, by `lint` before a run and by `run` at
# its end, and each claim checked against the run of the same input: for every
# rule a fixture where it fires and the timeline shows what the message says,
# and one where it must not fire (tests/hazards/holds-*.yaml, each saying what
# it shows).
#   MS234  a patch of spec.version.value inside a closed Deny window: the
#          migration runs and the version moves at once, 2h30m before the
#          window ends; after the window, or while a published revision is
#          held, nothing to tell.  The same with an exhausted error budget,
#          and its near miss beside a publish the budget holds.
#   MS235  an absolute Allow window in the past and an Allow on 30 February:
#          never deployed, the revision held at the end; a daily Allow
#          window: deployed when it opens, nothing to tell.
#   MS236  canary soaks into a Deny window: Ready True 'Deployed; …' while
#          prod and status.version stay on the old revision (the snapshot at
#          3h40m shows both revisions); published earlier, the soak ends
#          before the window and nothing is told; with the soak on the last
#          stage, lint and run say nothing.
#   MS237  db held by its error budget: app, which dependsOn it, adopts the
#          new version in the meantime; with a healthy budget app waits for
#          db; held by an update window instead, app waits for the window.
#   MS238  canary's soak shortened from 1h to 10m while it soaks: the
#          deadline stays, prod follows at the old one; the same edit after
#          the soak: nothing.
#   MS239  update-now stamped before the version was approved: the approval
#          gate holds the token's pass, the next pass meets the window again
#          and delivery waits for its end; approved first: delivered at once.
#   MS240  an analysis with onFailure Rollback and no rollbackOnFailure: no
#          revert, a Warning PromotionBlocked every pass; with
#          rollbackOnFailure the stage is reverted.
#   MS241  a restart gate's pod list forbidden for 30 minutes on a promoted,
#          steady StageSet: Ready False RBACDenied meanwhile; the list failing
#          in another namespace: nothing.
#   MS276  1.1.0 held for approval, then 1.2.0 published inside a Deny
#          window: Ready True 'Deployed; …' from 40m while pendingVersion
#          stays 1.1.0 (the snapshot at 50m) until 1.2.0 is held at 1h30m;
#          without the window 1.2.0 is held at 40m and nothing is told.
. "$(dirname "$0")/lib.sh"
require_python
. "$(dirname "$0")/lib/hazards.sh"

# ---- MS234: an edit passes a closed update window --------------------------------
lint_of holds-edit-window
contains "edit in window: MS234" "$tmp/holds-edit-window.lint" \
	'MS234 warning the patch event at 1h30m0s (2026-03-06T15:30:00Z) sets spec.version.value to 2.1.0 on StageSet shop/shop while its update windows hold new revisions (Deny "0 16 * * 5" for 3h0m0s in Europe/Berlin; next window opens 2026-03-06T18:00:00Z)'
contains "edit in window: MS234 names the migration" "$tmp/holds-edit-window.lint" \
	'the migration(s) to 2.1.0 (drop-legacy) included'
run_of holds-edit-window
facts_of holds-edit-window <<'EOF2'
mig = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["name"] == "shop"
       and e["reason"] == "MigrationCompleted" and e["message"] == 'migration "drop-legacy" (to 2.1.0) completed']
check("edit in window: drop-legacy completes at 1h30m2s, inside the window (ends at 4h)", mig == [5402000], mig)
ver = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["name"] == "shop"
       and e["change"] == "status" and "version" in (e["detail"] or "") and e["t_ms"] > 120000]
check("edit in window: status.version moves at 1h30m2s", ver == [5402000], ver)
n = notice(d, "StageSet shop/shop moved from 2.0.0 to 2.1.0 while its update windows held new revisions: the pass started at 1h30m0s (2026-03-06T15:30:00Z), inside its update windows' hold (Deny \"0 16 * * 5\" for 3h0m0s in Europe/Berlin; the next window opens 2026-03-06T18:00:00Z), and reached 2.1.0 at 1h30m2s")
check("edit in window: the run tells it", n is not None and n["severity"] == "warning")
EOF2

lint_of holds-edit-open
lacks "edit after window: no MS234" "$tmp/holds-edit-open.lint" "MS234"
run_of holds-edit-open
facts_of holds-edit-open <<'EOF2'
mig = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["reason"] == "MigrationCompleted"]
check("edit after window: drop-legacy completes at 4h30m2s", mig == [16202000], mig)
check("edit after window: no notice", notice(d, "held new revisions") is None)
EOF2

lint_of holds-edit-published
lacks "edit beside a held publish: no MS234" "$tmp/holds-edit-published.lint" "MS234"
run_of holds-edit-published
facts_of holds-edit-published <<'EOF2'
mig = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["reason"] == "MigrationCompleted"]
check("edit beside a held publish: nothing moves before the window ends (drop-legacy at 4h1m2s)",
      mig == [14462000], mig)
held = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"
        and e["t_ms"] == 7200000 and "delivery held by update window" in (e["message"] or "")]
check("edit beside a held publish: the pass after the edit is held", len(held) == 1)
check("edit beside a held publish: no notice", notice(d, "held new revisions") is None)
EOF2

lint_of holds-edit-budget
contains "edit in budget freeze: MS234" "$tmp/holds-edit-budget.lint" \
	'MS234 warning the patch event at 1h30m0s (2026-01-01T01:30:00Z) sets spec.version.value to 2.1.0 on StageSet shop/shop while its error budget is exhausted (remaining 0.02 < freezeThreshold 0.05 then), and the budget gates only a new artifact revision of its sources: the controller applies this change at once, the migration(s) to 2.1.0 (add-index) included'
run_of holds-edit-budget
facts_of holds-edit-budget <<'EOF2'
mig = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["reason"] == "MigrationCompleted"
       and e["message"] == 'migration "add-index" (to 2.1.0) completed']
check("edit in budget freeze: add-index completes at 1h30m2s, budget exhausted until 3h1m", mig == [5402000], mig)
n = notice(d, "StageSet shop/shop moved from 2.0.0 to 2.1.0 while its error budget held new revisions: the pass started at 1h30m0s (2026-01-01T01:30:00Z), with its error budget exhausted (remaining 0.02 < freezeThreshold 0.05), and reached 2.1.0 at 1h30m2s")
check("edit in budget freeze: the run tells it", n is not None and n["severity"] == "warning")
EOF2

lint_of holds-edit-budget-published
lacks "edit beside a budget-held publish: no MS234" "$tmp/holds-edit-budget-published.lint" "MS234"
run_of holds-edit-budget-published
facts_of holds-edit-budget-published <<'EOF2'
mig = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["reason"] == "MigrationCompleted"]
check("edit beside a budget-held publish: add-index waits for the budget (3h6m2s)", mig == [11162000], mig)
held = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"
        and e["t_ms"] == 7200000 and "error budget exhausted" in (e["message"] or "")]
check("edit beside a budget-held publish: the pass after the edit is held", len(held) == 1)
check("edit beside a budget-held publish: no notice", notice(d, "held new revisions") is None)
EOF2

# ---- MS235: an update window that never opens ----------------------------------
lint_of holds-window-never
contains "window never: MS235 for the past Allow" "$tmp/holds-window-never.lint" \
	'MS235 warning StageSet shop/shop: its update windows (Allow from 2026-01-01T00:00:00Z to 2026-01-02T00:00:00Z) allow no update from 2026-03-06T14:00:00Z (when the scenario has it) on, and never again'
contains "window never: MS235 for the Allow on 30 February" "$tmp/holds-window-never.lint" \
	'MS235 warning StageSet shop/cart: its update windows (Allow "0 0 30 2 *" for 1h0m0s in UTC) allow no update'
run_of holds-window-never
facts_of holds-window-never <<'EOF2'
for name in ("shop", "cart"):
    st = member_ready(d, "shop", name)
    check("window never: %s is only ever UpdateDeferred (%s)" % (name, st),
          st and all(r == "UpdateDeferred" for _, r in st))
    msgs = {e["message"] for e in d["timeline"] if e["kind"] == "StageSet" and e["name"] == name
            and e["change"] == "status"}
    check("window never: %s's message names no next opening" % name,
          msgs and all(m.startswith("delivery held by update window") and "next window opens" not in m
                       for m in msgs), msgs)
    n = notice(d, "StageSet shop/%s ended the run (2h0m0s, 2026-03-06T16:00:00Z) holding a new revision back for its update windows" % name)
    check("window never: the run tells it for %s" % name,
          n is not None and n["severity"] == "warning" and "never allow an update again" in n["text"])
EOF2

lint_of holds-window-later
lacks "window daily: no MS235" "$tmp/holds-window-later.lint" "MS235"
run_of holds-window-later
facts_of holds-window-later <<'EOF2'
st = member_ready(d, "shop", "shop")
check("window daily: deployed once the window opens at 1h", (3661000, "Succeeded") in st, st)
check("window daily: no notice", notice(d, "never allow an update again") is None)
EOF2

# ---- MS236: a window closes while an earlier stage holds at its gate ------------
lint_of holds-mid-rollout
contains "mid-rollout: MS236" "$tmp/holds-mid-rollout.lint" \
	'MS236 warning StageSet shop/shop: stage "canary" holds a new revision at its promotion gate (soak 1h0m0s) before 1 later stage(s), and its update windows (Deny "0 16 * * 5" for 3h0m0s in Europe/Berlin) are checked before the plan on every pass'
run_of holds-mid-rollout
"$SIM" run -q --snapshot 3h40m "$tmp/mid.yaml" "$H/holds-mid-rollout.yaml" >/dev/null 2>&1 ||
	bad "mid-rollout: the snapshot at 3h40m is written"
facts_of holds-mid-rollout "$tmp/mid.yaml" <<'EOF2'
st = [(e["t_ms"], e["reason"], e["message"]) for e in d["timeline"] if e["kind"] == "StageSet"
      and e["change"] == "status"]
check("mid-rollout: canary soaks from 2h31m1s", any(t == 9061000 and r == "Soaking" for t, r, _ in st), st)
check("mid-rollout: Ready True 'Deployed; delivery held by update window' at 3h31m1s",
      any(t == 12661000 and r == "Succeeded" and m.startswith("Deployed; delivery held by update window")
          for t, r, m in st), st)
snap = open(sys.argv[2]).read()
snap = snap[snap.index("kind: StageSet"):]
revs = re.findall(r"appliedRevision: (\S+)", snap)
check("mid-rollout: at 3h40m canary and prod run different revisions (%s)" % revs,
      len(revs) == 2 and revs[0] != revs[1])
check("mid-rollout: at 3h40m status.version is still 2.0.0", re.search(r"\n    version: 2\.0\.0\n", snap) is not None)
check("mid-rollout: prod follows at 6h1m2s", (21662000, "Succeeded", "Applied and verified 2 stage(s)") in st, st)
n = notice(d, "StageSet shop/shop reported Ready True 'Deployed; delivery held by update window (next window opens 2026-03-06T18:00:00Z)' at 3h31m1s while its rollout from 2.0.0 to 2.1.0 stood half done: stage \"canary\" held 2.1.0 at its promotion gate (Soaking at 2h31m1s), the stages after it kept 2.0.0 and status.version stayed 2.0.0 until 6h1m2s")
check("mid-rollout: the run tells it", n is not None and n["severity"] == "warning")
EOF2

run_of holds-mid-rollout-early
facts_of holds-mid-rollout-early <<'EOF2'
st = member_ready(d, "shop", "shop")
check("mid-rollout early: 2.1.0 everywhere at 2h12m3s, before the window", (7923000, "Succeeded") in st, st)
check("mid-rollout early: no half-rolled notice", notice(d, "stood half done") is None)
EOF2

lint_of holds-last-stage-gate
lacks "last-stage gate: no MS236" "$tmp/holds-last-stage-gate.lint" "MS236"
run_of holds-last-stage-gate
facts_of holds-last-stage-gate <<'EOF2'
st = [(e["t_ms"], e["reason"], e["message"]) for e in d["timeline"] if e["kind"] == "StageSet"
      and e["change"] == "status"]
check("last-stage gate: deferred during prod's soak too",
      any(r == "Succeeded" and m.startswith("Deployed; delivery held") for t, r, m in st), st)
check("last-stage gate: no half-rolled notice (no stage after prod)", notice(d, "stood half done") is None)
EOF2

# ---- MS237: a budget hold is invisible to dependents -----------------------------
lint_of holds-budget-dependent
contains "budget dependent: MS237" "$tmp/holds-budget-dependent.lint" \
	'MS237 warning StageSet shop/db: its error budget reads exhausted at 1h1m0s (remaining 0.02 < freezeThreshold 0.05), and a budget hold keeps a deployed StageSet Ready True with no pendingUpdate: shop/app, which dependsOn it, proceeds against its old revision'
run_of holds-budget-dependent
facts_of holds-budget-dependent <<'EOF2'
db, app = member_ready(d, "shop", "db"), member_ready(d, "shop", "app")
check("budget dependent: db held from 1h30m0s, moves at 3h6m1s", (5400000, "Succeeded") in db and (11161000, "Succeeded") in db, db)
held = [e["message"] for e in d["timeline"] if e["kind"] == "StageSet" and e["name"] == "db" and e["change"] == "status" and e["t_ms"] == 5400000]
check("budget dependent: db's hold is Ready True 'Deployed; error budget exhausted'", held and held[0].startswith("Deployed; error budget exhausted"), held)
check("budget dependent: app adopts at 1h31m1s, in between", (5461000, "Succeeded") in app, app)
n = notice(d, "StageSet shop/app moved from 2.0.0 to 2.1.0 while shop/db, which it dependsOn, was held by its error budget: the pass started at 1h30m0s and reached it at 1h31m1s")
check("budget dependent: the run tells it", n is not None and n["severity"] == "warning"
      and "from 1h30m0s until 3h6m1s, on version 2.0.0" in n["text"])
EOF2

lint_of holds-budget-healthy
lacks "budget healthy: no MS237" "$tmp/holds-budget-healthy.lint" "MS237"
run_of holds-budget-healthy
facts_of holds-budget-healthy <<'EOF2'
db, app = member_ready(d, "shop", "db"), member_ready(d, "shop", "app")
check("budget healthy: db first (1h31m1s), app after it (1h32m2s)", (5461000, "Succeeded") in db and (5522000, "Succeeded") in app, (db, app))
check("budget healthy: no notice", notice(d, "was held by its error budget") is None)
EOF2

lint_of holds-window-dependent
lacks "window dependent: no MS237" "$tmp/holds-window-dependent.lint" "MS237"
run_of holds-window-dependent
facts_of holds-window-dependent <<'EOF2'
app = [(e["t_ms"], e["reason"], e["message"]) for e in d["timeline"] if e["kind"] == "StageSet" and e["name"] == "app" and e["change"] == "status"]
check("window dependent: app waits for the window's hold",
      any(t == 9000000 and r == "DependencyNotReady" and m.startswith("dependency shop/db has a new revision held by an update window") for t, r, m in app), app)
check("window dependent: app follows db after the window (5h2m2s)", any(t == 18122000 and r == "Succeeded" for t, r, _ in app), app)
check("window dependent: no notice", notice(d, "was held by its error budget") is None)
EOF2

# ---- MS238: a soak edited while it runs keeps its deadline --------------------------
lint_of holds-soak-edit
contains "soak edit: MS238" "$tmp/holds-soak-edit.lint" \
	'MS238 warning the patch event at 1h45m0s changes the soak of stage "canary" of StageSet shop/shop from 1h0m0s to 10m0s while, at the median modelled durations, that stage soaks the revision of the publish of 2.1.0 at 1h30m0s (from about 1h31m1s): a running soak keeps the deadline it first got, so it ends at about 2h31m1s, not at once'
run_of holds-soak-edit
facts_of holds-soak-edit <<'EOF2'
st = [(e["t_ms"], e["reason"], e["message"]) for e in d["timeline"] if e["kind"] == "StageSet"
      and e["change"] == "status"]
soaks = [(t, m) for t, r, m in st if r == "Soaking" and t >= 5400000]
check("soak edit: canary soaks from 1h31m1s to 02:31:01Z", soaks and soaks[0][0] == 5461000
      and "soak window closes at 2026-01-01T02:31:01Z" in soaks[0][1], soaks)
check("soak edit: the status after the edit names the same deadline",
      any(t > 6300000 and "soak window closes at 2026-01-01T02:31:01Z" in m for t, m in soaks), soaks)
check("soak edit: prod follows only after 2h31m1s (2h32m3s)",
      [t for t, r, _ in st if r == "Succeeded" and t > 5400000][:1] == [9123000], st)
n = notice(d, "StageSet shop/shop: the patch at 1h45m0s changed the soak of stage \"canary\" from 1h0m0s to 10m0s while it soaked (since 1h31m1s, until 2h31m1s): the soak kept its deadline")
check("soak edit: the run tells it", n is not None and n["severity"] == "warning"
      and "stayed Soaking (its status after the edit still named the old deadline) to 2h31m1s (the next status came at 2h32m3s)" in n["text"])
EOF2

lint_of holds-soak-edit-later
lacks "soak edit later: no MS238" "$tmp/holds-soak-edit-later.lint" "MS238"
run_of holds-soak-edit-later
facts_of holds-soak-edit-later <<'EOF2'
st = member_ready(d, "shop", "shop")
check("soak edit later: 2.1.0 done at 2h32m3s, before the edit", (9123000, "Succeeded") in st, st)
check("soak edit later: no notice", notice(d, "kept its deadline") is None)
EOF2

# ---- MS239: a one-shot token spent by a later hold ---------------------------------
lint_of holds-token-burned
contains "token burned: MS239" "$tmp/holds-token-burned.lint" \
	'MS239 warning the annotate event at 1h40m0s stamps stages.metio.wtf/update-now "hotfix-1" on StageSet shop/shop, where its update windows hold new revisions (Deny "0 16 * * 5" for 3h0m0s in Europe/Berlin), but the approval gate (approvalMode Always; 2.1.0 is not approved then: stages.metio.wtf/approved-version is absent) holds the pass that sees it'
run_of holds-token-burned
facts_of holds-token-burned <<'EOF2'
st = [(e["t_ms"], e["reason"], e["message"]) for e in d["timeline"] if e["kind"] == "StageSet"
      and e["change"] == "status"]
check("token burned: the token's pass stops at the approval gate (1h40m0s)",
      any(t == 6000000 and r == "AwaitingApproval" for t, r, _ in st), st)
check("token burned: the next pass meets the window (1h41m0s)",
      any(t == 6060000 and m.startswith("Deployed; delivery held by update window") for t, r, m in st), st)
check("token burned: approved at 2h, 2.1.0 only at 4h1m1s",
      [t for t, r, m in st if m == "Applied and verified 1 stage(s)" and t > 120000] == [14461000], st)
n = notice(d, "StageSet shop/shop: the stages.metio.wtf/update-now token \"hotfix-1\" stamped at 1h40m0s was spent by the pass at 1h40m0s, which the approval gate held (AwaitingApproval); the pass at 1h41m0s met the update window again")
check("token burned: the run tells it", n is not None and n["severity"] == "warning"
      and "it moved only at 4h1m1s (to 2.1.0)" in n["text"])
EOF2

lint_of holds-token-approved-first
lacks "token after approval: no MS239" "$tmp/holds-token-approved-first.lint" "MS239"
run_of holds-token-approved-first
facts_of holds-token-approved-first <<'EOF2'
st = member_ready(d, "shop", "shop")
check("token after approval: 2.1.0 delivered at 1h41m1s, inside the window", (6061000, "Succeeded") in st, st)
check("token after approval: no notice", notice(d, "was spent by the pass") is None)
EOF2

# ---- MS240: a gate revert that cannot happen ---------------------------------------
lint_of holds-revert-impossible
contains "revert impossible: MS240" "$tmp/holds-revert-impossible.lint" \
	'MS240 warning StageSet shop/shop: stage "canary"'"'"'s promotion analysis has onFailure Rollback, but the StageSet does not set rollbackOnFailure'
run_of holds-revert-impossible
facts_of holds-revert-impossible <<'EOF2'
ev = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "event"
      and e["reason"] == "PromotionBlocked" and "could not be reverted" in (e["message"] or "")]
check("revert impossible: a Warning every pass from 31m1s (%d)" % len(ev), len(ev) > 10 and ev[0] == 1861000, ev[:3])
back = [e for e in d["timeline"] if e["kind"] == "StageSet" and "rolled back to" in (e["message"] or "")]
check("revert impossible: nothing is rolled back", back == [])
st = member_ready(d, "shop", "shop")
check("revert impossible: never Succeeded after the publish", all(r != "Succeeded" for t, r in st if t > 1800000), st)
n = next((x for x in d["notices"] if x["text"].startswith("StageSet shop/shop warned %d time(s), from 31m1s to " % len(ev))), None)
check("revert impossible: the run tells it with the timeline's count", n is not None and n["severity"] == "warning"
      and 'stage "canary" was not reverted and kept the new revision, 2.1.0, and the stages after it did not move' in n["text"])
EOF2

lint_of holds-revert-snapshot
lacks "revert with a snapshot: no MS240" "$tmp/holds-revert-snapshot.lint" "MS240"
run_of holds-revert-snapshot
facts_of holds-revert-snapshot <<'EOF2'
back = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "event"
        and (e["message"] or "").startswith('stage "canary" promotion analysis failed; rolled back to revision')]
check("revert with a snapshot: canary reverted at 31m2s", back == [1862000], back)
check("revert with a snapshot: no notice", notice(d, "was not reverted") is None)
EOF2

# ---- MS241: a promoted stage's gate read fails ------------------------------------
lint_of holds-gate-read-denied
contains "gate read denied: MS241" "$tmp/holds-gate-read-denied.lint" \
	'MS241 warning StageSet shop/shop: stage "canary"'"'"'s restart gate lists pods on every pass, also once the stage is promoted, and the StageSet world fails that list in namespace shop from 1h0m0s to 1h30m0s (forbidden)'
run_of holds-gate-read-denied
facts_of holds-gate-read-denied <<'EOF2'
st = member_ready(d, "shop", "shop")
denied = [t for t, r in st if r == "RBACDenied"]
check("gate read denied: Succeeded at 2m2.005s, then RBACDenied inside 1h-1h30m",
      st[0] == (122005, "Succeeded") and denied and all(3600000 <= t < 5400000 for t in denied), st)
check("gate read denied: nothing rolled out (no attempt, no spec change)",
      not [e for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "updated" and e["t_ms"] > 0])
back = [t for t, r in st if r == "Succeeded" and t > denied[0]]
check("gate read denied: Succeeded again after the window", back and back[0] >= 5400000, st)
when = {e["t_ms"]: e["time"] for e in d["timeline"]}
n = notice(d, "StageSet shop/shop, deployed and steady (Ready True 'Applied and verified' at 2m2.005s), was Ready False RBACDenied from")
check("gate read denied: the run tells it with the timeline's times", n is not None and n["severity"] == "warning"
      and ("RBACDenied from %s to %s" % (when[denied[0]], when[back[0]])) in n["text"], n and n["text"])
EOF2

lint_of holds-gate-read-elsewhere
lacks "gate read elsewhere: no MS241" "$tmp/holds-gate-read-elsewhere.lint" "MS241"
run_of holds-gate-read-elsewhere
facts_of holds-gate-read-elsewhere <<'EOF2'
st = member_ready(d, "shop", "shop")
check("gate read elsewhere: never RBACDenied", all(r != "RBACDenied" for _, r in st), st)
check("gate read elsewhere: no notice", notice(d, "was Ready False RBACDenied") is None)
EOF2

# ---- MS276: a deferral leaves a stale pendingVersion -----------------------------
lint_of holds-pending-stale
contains "pending stale: MS276" "$tmp/holds-pending-stale.lint" \
	'MS276 warning the publish of 1.2.0 at 40m0s reaches StageSet shop/shop (approvalMode Always) while its update windows hold new revisions (Deny "30 12 * * *" for 1h0m0s in UTC) until 1h30m0s, and 1.1.0, published at 20m0s, is held for approval then'
HAZARD_RUN_ARGS="--until horizon" run_of holds-pending-stale
"$SIM" run -q --snapshot 50m "$tmp/pending50.yaml" "$H/holds-pending-stale.yaml" >/dev/null 2>&1 ||
	bad "pending stale: the snapshot at 50m is written"
pyfacts "$tmp/holds-pending-stale.json" "$tmp/pending50.yaml" <<'EOF2'
import json, re, sys
from hazards_facts import *
d = json.load(open(sys.argv[1]))
st = [(e["t_ms"], e["reason"], e["message"] or "") for e in d["timeline"] if e["kind"] == "StageSet"
      and e["change"] == "status"]
check("pending stale: 1.1.0 held for approval at 20m",
      [(t, r) for t, r, m in st if t == 1200000] == [(1200000, "AwaitingApproval")] and "1.1.0" in st[1][2], st)
check("pending stale: Ready True 'Deployed; delivery held by update window' at 40m",
      [(t, r) for t, r, m in st if t == 2400000] == [(2400000, "Succeeded")]
      and [m for t, r, m in st if t == 2400000][0].startswith("Deployed; delivery held by update window"), st)
check("pending stale: 1.2.0 held for approval only at 1h30m",
      [(t, r) for t, r, m in st if r == "AwaitingApproval" and "1.2.0" in m][:1] == [(5400000, "AwaitingApproval")], st)
snap = open(sys.argv[2]).read()
ss = snap[snap.index("kind: StageSet"):]
check("pending stale: at 50m status.pendingVersion is 1.1.0", re.search(r"\n    pendingVersion: 1\.1\.0\n", ss) is not None)
check("pending stale: at 50m the source offers 1.2.0", "model.magos-sim.io/source-version: 1.2.0" in snap)
n = notice(d, "StageSet shop/shop: status.pendingVersion named 1.1.0, held for approval since 20m0s, from 40m0s until 1h30m0s (50m0s) while its source offered 1.2.0")
check("pending stale: the run tells it", n is not None and n["severity"] == "warning", [x["text"] for x in d["notices"]])
EOF2

lint_of holds-pending-fresh
lacks "pending fresh: no MS276" "$tmp/holds-pending-fresh.lint" 'MS276'
HAZARD_RUN_ARGS="--until horizon" run_of holds-pending-fresh
pyfacts "$tmp/holds-pending-fresh.json" <<'EOF2'
import json, sys
from hazards_facts import *
d = json.load(open(sys.argv[1]))
st = member_ready(d, "shop", "shop")
check("pending fresh: 1.2.0 held for approval at 40m", (2400000, "AwaitingApproval") in st, st)
check("pending fresh: the run tells no stale pendingVersion", notice(d, "status.pendingVersion named") is None)
EOF2

finish
