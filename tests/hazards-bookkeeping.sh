#!/bin/sh
# StageSet bookkeeping that a hold or an early stop leaves stale, told by
# `lint` before a run and by `run` at its end, each claim checked against
# the run of the same input (tests/hazards/bookkeeping-*.yaml, each saying
# what it shows).
#   MS257  a promote token handled at 11m2s, then staging's verify of 2.1.0
#          runs out its 30s timeout (StageProgressing at 1h0m31s): the retry
#          promotes 2.1.0 to prod at 1h2m33s with no annotation change since
#          10m; with a 2m timeout the pods meet, 2.1.0 waits at staging,
#          AwaitingPromotion.
#   MS274  split-orders (to 2.0.0, from <1.5.0, no down actions) skipped by
#          the upgrade 1.5.0 → 2.0.0 at 10m: the downgrade to 1.5.0 at 1h is
#          refused DowngradeRequiresMigration all the same and shop stays on
#          2.0.0; from 1.0.0 the upgrade runs it (MigrationCompleted at
#          11m3s), the refusal is sound, and nothing is told.
#   MS258  canary's pods restart 5 times at 20m (12 by 40m) while 2.0.0 is
#          promoted: the passes at 22m0.925s and 42m7.088s rewrite the
#          restart baseline, nothing blocks, and 2.1.0 is promoted at
#          1h2m2s; restarts from 1h0m30s, while canary gates 2.1.0, hold it
#          PromotionBlocked, and nothing is told.
#   MS259  reset-scope "rerun-1" stamped at 35m while the workload fails
#          (30m to 50m): the StageFailed pass at 35m1s records it, prod's
#          Version-scoped smoke never runs; stamped at 55m, once Ready, it
#          is recorded by a Succeeded pass and nothing is told.
. "$(dirname "$0")/lib.sh"
require_python "to read the run reports"
. "$(dirname "$0")/lib/hazards.sh"
HAZARD_RUN_ARGS="--until horizon"

# ---- MS257: a handled promote token replays after a progress hold ------------
lint_of bookkeeping-promote-progress
contains "progress replay: MS257 at the annotate event" "$tmp/bookkeeping-promote-progress.lintjson" '"line": 22'
contains "progress replay: MS257 says why" "$tmp/bookkeeping-promote-progress.lint" \
	'MS257 warning the annotate event at 10m0s stamps stages.metio.wtf/promote "staging@release-200" on StageSet shop/shop, whose stage "staging" holds each revision at its promotion gate (manual promotion), and its objects can take 1m0s to become ready (readiness.delay, 99th percentile), longer than its 30s verify timeout'
contains "progress replay: MS257 names the later revision" "$tmp/bookkeeping-promote-progress.lint" \
	'so when a later revision (2.1.0, published at 1h0m0s) outlasts the timeout there the retry that finds it ready takes this handled token as fresh and promotes that revision past the gate with no operator'
if grep -q '^MS252 ' "$tmp/bookkeeping-promote-progress.lint"; then
	bad "progress replay: no MS252 (nothing fails)"; show "$tmp/bookkeeping-promote-progress.lint"
else ok "progress replay: no MS252 (nothing fails)"; fi
run_of bookkeeping-promote-progress
"$SIM" run -q --snapshot 3h "$tmp/progress.yaml" "$H/bookkeeping-promote-progress.yaml" >/dev/null 2>&1 ||
	bad "progress replay: the snapshot at 3h is written"
facts_of bookkeeping-promote-progress "$tmp/progress.yaml" <<'PY'
st = stageset_statuses(d)
tok = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "updated"
       and "stages.metio.wtf/promote" in (e["detail"] or "")]
check("progress replay: the token is stamped once, at 10m", tok == [600000], tok)
check("progress replay: handled by the Succeeded at 11m2s", (662000, "Succeeded") in [x[:2] for x in st], st)
hold = [x for x in st if x[0] > 662000 and x[1] == "StageProgressing"]
check("progress replay: staging holds StageProgressing on 2.1.0 at 1h0m31s",
      hold[:1] and hold[0][0] == 3631000 and hold[0][3].startswith('stage "staging" is applied and still becoming ready'), hold)
later = [x for x in st if x[0] > 3631000]
check("progress replay: the next status is a Succeeded that applied a new revision at 1h2m33s",
      later and later[0][:2] == (3753000, "Succeeded") and "lastAppliedRevisions" in later[0][2], later)
check("progress replay: no AwaitingPromotion after the hold", not [x for x in later if x[1] == "AwaitingPromotion"], later)
snap = open(sys.argv[2]).read()
snap = snap[snap.index("kind: StageSet"):]
revs = re.findall(r"appliedRevision: (\S+)", snap)
check("progress replay: at 3h prod runs staging's revision (%s)" % revs, len(revs) == 2 and revs[0] == revs[1])
check("progress replay: at 3h status.version is 2.1.0", re.search(r"\n    version: 2\.1\.0\n", snap) is not None)
n = told(d, "progress replay", 'StageSet shop/shop: the promote token "staging@release-200", handled at 11m2s, promoted a later revision again after stage "staging" held StageProgressing at 1h0m31s (its verify timeout ran out)')
check("progress replay: with the pass that replayed it",
      n is not None and "so the pass at 1h2m33s took the token as fresh and passed the stage's gate (manual promotion) with no operator" in n["text"], n and n["text"])
PY

lint_clean bookkeeping-promote-in-time "timeout met"
run_of bookkeeping-promote-in-time
facts_of bookkeeping-promote-in-time <<'PY'
st = [(e["t_ms"], e["reason"]) for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("timeout met: no progress hold", not [x for x in st if x[1] == "StageProgressing"], st)
check("timeout met: 2.1.0 waits at staging from 1h1m1s to the end", st[-1] == (3661000, "AwaitingPromotion"), st)
check("timeout met: nothing told", not [n for n in d["notices"] if "promote token" in n["text"]], d["notices"])
PY

# ---- MS274: a downgrade refused for a migration skipped on the way up --------
lint_of bookkeeping-downgrade-skipped
contains "skipped boundary: MS274 at the downgrade's publish" "$tmp/bookkeeping-downgrade-skipped.lintjson" '"line": 25'
contains "skipped boundary: MS274 says why" "$tmp/bookkeeping-downgrade-skipped.lint" \
	'MS274 warning the publish at 1h0m0s asks StageSet shop/shop for 1.5.0, a downgrade from 2.0.0 that crosses migration "split-orders" (to 2.0.0), which declares no down actions; the upgrade 1.5.0 → 2.0.0 at 10m0s skipped it (from "<1.5.0" does not match 1.5.0), so it never ran'
contains "skipped boundary: MS274 says what follows" "$tmp/bookkeeping-downgrade-skipped.lint" \
	'the downgrade is refused DowngradeRequiresMigration and shop/shop stays on 2.0.0'
run_of bookkeeping-downgrade-skipped
"$SIM" run -q --snapshot 2h "$tmp/downgrade.yaml" "$H/bookkeeping-downgrade-skipped.yaml" >/dev/null 2>&1 ||
	bad "skipped boundary: the snapshot at 2h is written"
facts_of bookkeeping-downgrade-skipped "$tmp/downgrade.yaml" <<'PY'
ss = [e for e in d["timeline"] if e["kind"] == "StageSet"]
mig = [e["reason"] for e in ss if e["change"] == "event" and e["reason"] in ("MigrationStarted", "MigrationCompleted")]
check("skipped boundary: split-orders never starts", mig == [], mig)
st = [(e["t_ms"], e["reason"], e["message"]) for e in ss if e["change"] == "status"]
check("skipped boundary: 2.0.0 deployed at 11m1s", (661000, "Succeeded") in [x[:2] for x in st], st)
refused = [x for x in st if x[1] == "DowngradeRequiresMigration"]
check("skipped boundary: the downgrade is refused at 1h0m0s for split-orders",
      refused[:1] and refused[0][0] == 3600000 and
      refused[0][2].startswith('downgrade 2.0.0 → 1.5.0 crosses migration "split-orders" (to 2.0.0)'), refused)
check("skipped boundary: nothing else after the refusal", st[-1][1] == "DowngradeRequiresMigration", st[-1:])
snap = open(sys.argv[2]).read()
snap = snap[snap.index("kind: StageSet"):]
check("skipped boundary: at 2h status.version is 2.0.0", re.search(r"\n    version: 2\.0\.0\n", snap) is not None)
n = told(d, "skipped boundary", 'StageSet shop/shop: the downgrade 2.0.0 → 1.5.0 was refused DowngradeRequiresMigration at 1h0m0s for migration "split-orders" (to 2.0.0), which never ran here')
check("skipped boundary: with the version kept",
      n is not None and "status.version was 2.0.0 at the end" in n["text"], n and n["text"])
PY

lint_clean bookkeeping-downgrade-ran "boundary crossed"
run_of bookkeeping-downgrade-ran
facts_of bookkeeping-downgrade-ran <<'PY'
ss = [e for e in d["timeline"] if e["kind"] == "StageSet"]
done = [e["t_ms"] for e in ss if e["change"] == "event" and e["reason"] == "MigrationCompleted"]
check("boundary crossed: split-orders ran at 11m3s", done == [663000], done)
check("boundary crossed: the downgrade is refused all the same",
      [e["t_ms"] for e in ss if e["change"] == "status" and e["reason"] == "DowngradeRequiresMigration"] == [3600000])
check("boundary crossed: nothing told", not [n for n in d["notices"] if "DowngradeRequiresMigration" in n["text"]],
      d["notices"])
PY

# ---- MS258: restarts while a stage is promoted are forgiven -----------------
lint_of bookkeeping-restarts-promoted
contains "forgiven restarts: MS258 at restartGate" "$tmp/bookkeeping-restarts-promoted.lintjson" '"line": 40'
contains "forgiven restarts: MS258 says why" "$tmp/bookkeeping-restarts-promoted.lint" \
	'MS258 warning StageSet shop/shop: the restart check "crashloop" of stage "canary" (maxRestarts 0) selects pods the pods model restarts 5 times at 20m0s, when the stage has held its revision (new at 0s) past its 10m0s interval: the restart gate refreshes its baseline at every pass of a promoted stage, so the pass after 20m0s takes these restarts in, nothing blocks or tells them, and Ready stays True'
run_of bookkeeping-restarts-promoted
facts_of bookkeeping-restarts-promoted <<'PY'
st = [(e["t_ms"], e["reason"], e["detail"] or "") for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("forgiven restarts: every status write is Succeeded", {x[1] for x in st} == {"Succeeded"}, st)
refresh = [x[0] for x in st if x[2] == "status: stages"]
check("forgiven restarts: the passes after 20m and 40m rewrite the baseline alone (22m0.925s, 42m7.088s)",
      refresh == [1320925, 2527088], st)
check("forgiven restarts: 2.1.0 is promoted at 1h2m2s, the crash loop forgotten",
      (3722000, "Succeeded") in [x[:2] for x in st] and "lastAppliedRevisions" in [x for x in st if x[0] == 3722000][0][2], st)
n = told(d, "forgiven restarts", 'StageSet shop/shop: the pods of restart check "crashloop" (stage "canary", maxRestarts 0) restarted 5 times at 20m0s while the stage was promoted (Ready True since 2m2.005s)')
check("forgiven restarts: with the pass that took them in and the later rise",
      n is not None and "the pass at 22m0.925s took them into the gate's baseline and nothing blocked them (nor the 1 later rise)" in n["text"], n and n["text"])
PY

lint_clean bookkeeping-restarts-gating "restarts while gating"
run_of bookkeeping-restarts-gating
facts_of bookkeeping-restarts-gating <<'PY'
st = [(e["t_ms"], e["reason"], e["message"] or "") for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("restarts while gating: 2.1.0 is held PromotionBlocked at 1h1m1s by the restart check",
      st[-1][:2] == (3661000, "PromotionBlocked") and 'restart check "crashloop" observed 5 pod restart(s)' in st[-1][2], st)
check("restarts while gating: nothing told", not [n for n in d["notices"] if "restart check" in n["text"]], d["notices"])
PY

# ---- MS259: a reset-scope token burned by a pass that stopped early ----------
lint_of bookkeeping-reset-scope-held
contains "burned reset: MS259 at the stamp" "$tmp/bookkeeping-reset-scope-held.lintjson" '"line": 23'
contains "burned reset: MS259 says why" "$tmp/bookkeeping-reset-scope-held.lint" \
	'MS259 warning scenario event 2 at 35m0s stamps stages.metio.wtf/reset-scope "rerun-1" on StageSet shop/shop while the regress event at 30m0s fails its workload for 20m0s, so the pass that reads the token stops at its first stage "staging"'
contains "burned reset: MS259 names the actions" "$tmp/bookkeeping-reset-scope-held.lint" \
	'so their Version-scoped actions (prod: "smoke") do not run again'
run_of bookkeeping-reset-scope-held
facts_of bookkeeping-reset-scope-held <<'PY'
st = stageset_statuses(d)
rec = [x for x in st if "lastHandledResetScope" in x[2]]
check("burned reset: the token is recorded once, at 35m1s, by a StageFailed pass at staging",
      len(rec) == 1 and rec[0][:2] == (2101000, "StageFailed") and rec[0][3].startswith('stage "staging"'), rec)
check("burned reset: shop is Ready again at 51m27.04s", (3087040, "Succeeded") in [x[:2] for x in st], st)
n = told(d, "burned reset", 'StageSet shop/shop: the reset-scope token "rerun-1" was recorded as handled at 35m1s by a pass that stopped at stage "staging" (StageFailed)')
check("burned reset: smoke never ran",
      n is not None and 'prod\'s Version-scoped post action "smoke" ran 0 times in the whole run' in n["text"], n and n["text"])
PY

lint_clean bookkeeping-reset-scope-ready "reset when Ready"
run_of bookkeeping-reset-scope-ready
facts_of bookkeeping-reset-scope-ready <<'PY'
rec = [(e["t_ms"], e["reason"]) for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"
       and "lastHandledResetScope" in (e["detail"] or "")]
check("reset when Ready: the token is recorded by a Succeeded pass at 55m3s", rec == [(3303000, "Succeeded")], rec)
check("reset when Ready: nothing told", not [n for n in d["notices"] if "reset-scope" in n["text"]], d["notices"])
PY
finish
