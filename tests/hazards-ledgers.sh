#!/bin/sh
# The StageSet ledger hazards told twice, by `lint` before a run and by
# `run` at its end, and each claim checked against the run of the same
# input: a fixture where it fires and the timeline (and a snapshot of the
# cluster) shows what the message says, and one where it must not fire
# (tests/hazards/ledgers-*.yaml, each saying what it shows).
#   MS252  a promote token handled at 11m2s, then staging fails on 2.1.0
#          (1h0m1s): the retry promotes 2.1.0 to prod at 1h7m45.675s with no
#          annotation change since 10m; without the failure prod keeps
#          2.0.0, held AwaitingPromotion.
#   MS275  a reconcile-stage token handled at 10m3s (the snapshot at 30m
#          shows it on db's entry), then db's apply fails from 1h (1h0m9.177s):
#          the snapshot at 1h3m shows the Failed entry without it while the
#          annotation stays, and seed-data runs on every retry (18 runs);
#          with the annotation removed at 20m, nothing is told.
#   MS277  canary soaks 3h from 3h11m1s (closing 14:11:01Z); the regress at
#          4h5m fails it at the hourly poll (4h11m2s), and the pass that finds
#          it healthy again (4h33m10.715s) soaks anew, closing 15:33:10Z; the
#          fault between two polls: nothing is told.
#   MS278  canary's restart check blocks 2.1.0 at 1h1m1s (5 restarts); the
#          regress at 1h20m fails canary (1h21m3s), and 2.1.0 reaches prod at
#          1h33m16.355s (the snapshot at 1h45m shows both stages on it);
#          without the fault it stays blocked and nothing is told.
#   MS253  the kubeconfig Secret deleted at 30m and re-created at 35m: the
#          pass at the soak's end fails before the stage loop, and stage
#          "db" soaks again from the start (closing 09:06:31 instead of
#          08:31:02); rotated in place, nothing is told and "app" follows at
#          32m4.005s.
#   MS254  a post action failing from 10m until 40m: StageFailed from
#          10m33s and no other status write until the success at
#          49m41.715s, the onFailure action page in 1.1.0's ledger at 35m;
#          with a smoke that does not fail, nothing is told.
#   MS255  suspended by a patch at 1h, edited at 1h10m, resumed at 2h:
#          status.observedGeneration stays 1 beside generation 3 (the
#          snapshot at 1h30m) until 2h0m1s; an edit alone is observed at
#          once (1h10m1s).
#   MS256  BackOff events from 40m on, listed until 1h40m: 2.1.0 (1h) is
#          PromotionBlocked at its first evaluation (1h1m1s) and promoted
#          at 1h42m6s; the same events raised by 2.1.0's own pods block it
#          just the same, and nothing is told.
. "$(dirname "$0")/lib.sh"
require_python
. "$(dirname "$0")/lib/hazards.sh"
HAZARD_RUN_ARGS="--until horizon"

# ---- MS252: a handled promote token replays after a failure -------------------
lint_of ledgers-promote-replay
contains "promote replay: MS252" "$tmp/ledgers-promote-replay.lint" \
	'MS252 warning the annotate event at 10m0s stamps stages.metio.wtf/promote "staging@release-200" on StageSet shop/shop, whose stage "staging" holds each revision at its promotion gate (manual promotion), and its apply can fail at "apply" (apply.failure, probability 1 per apply from 1h0m0s until 1h5m0s)'
contains "promote replay: MS252 names the later revision" "$tmp/ledgers-promote-replay.lint" \
	'when that stage fails on a later revision (2.1.0, published at 1h0m0s) the pass after the failure takes this handled token as fresh and promotes that revision past the gate with no operator'
run_of ledgers-promote-replay
snapshot_of ledgers-promote-replay 3h replay "promote replay"
facts_of ledgers-promote-replay "$tmp/replay.yaml" <<'EOF2'
st = [(e["t_ms"], e["reason"], e["detail"] or "") for e in d["timeline"] if e["kind"] == "StageSet"
      and e["change"] == "status"]
tok = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "updated"
       and "stages.metio.wtf/promote" in (e["detail"] or "")]
check("promote replay: the token is stamped once, at 10m", tok == [600000], tok)
check("promote replay: staging waits for it first", st[0][:2] == (61005, "AwaitingPromotion"), st[:1])
check("promote replay: handled by the Succeeded at 11m2s", st[1][:2] == (662000, "Succeeded"), st[1:2])
check("promote replay: staging fails on 2.1.0 at 1h0m1s", (3601000, "StageFailed") in [x[:2] for x in st], st)
later = [x for x in st if x[0] > 3601000]
check("promote replay: the next status is a Succeeded that applied a new revision at 1h7m45.675s",
      later and later[0][:2] == (4065675, "Succeeded") and "lastAppliedRevisions" in later[0][2], later)
check("promote replay: no AwaitingPromotion after the failure",
      not [x for x in later if x[1] == "AwaitingPromotion"], later)
snap = stageset_snapshot(sys.argv[2])
revs = re.findall(r"appliedRevision: (\S+)", snap)
check("promote replay: at 3h prod runs staging's revision (%s)" % revs, len(revs) == 2 and revs[0] == revs[1])
check("promote replay: at 3h status.version is 2.1.0", re.search(r"\n    version: 2\.1\.0\n", snap) is not None)
n = told(d, "promote replay", 'StageSet shop/shop: the promote token "staging@release-200", handled at 11m2s, promoted a later revision again after stage "staging" failed at 1h0m1s')
check("promote replay: with the pass that replayed it",
      n is not None and "the pass at 1h7m45.675s took the token as fresh and passed the stage's gate (manual promotion) with no operator" in n["text"], n and n["text"])
EOF2

lint_of ledgers-promote-no-failure
lacks "promote, no failure: no MS252" "$tmp/ledgers-promote-no-failure.lint" 'MS252'
run_of ledgers-promote-no-failure
snapshot_of ledgers-promote-no-failure 3h nofail "promote, no failure"
facts_of ledgers-promote-no-failure "$tmp/nofail.yaml" <<'EOF2'
st = member_ready(d, "shop", "shop")
check("promote, no failure: 2.1.0 waits for a promotion from 1h1m1s to the end",
      st[-1] == (3661000, "AwaitingPromotion"), st)
snap = stageset_snapshot(sys.argv[2])
revs = re.findall(r"appliedRevision: (\S+)", snap)
check("promote, no failure: at 3h prod keeps the old revision (%s)" % revs, len(revs) == 2 and revs[0] != revs[1])
check("promote, no failure: the run tells no replay", notice(d, "promote token") is None)
EOF2

# ---- MS275: a handled reconcile-stage token replays after a failure -----------
lint_of ledgers-reconcile-stage-replay
contains "reconcile-stage replay: MS275" "$tmp/ledgers-reconcile-stage-replay.lint" \
	'MS275 warning the annotate event at 10m0s stamps stages.metio.wtf/reconcile-stage "db@rerun-1" on StageSet shop/shop, whose stage "db" has Revision-scoped actions ("seed-data"), and its apply can fail at "apply" (apply.failure, probability 1 per apply from 1h0m0s until 1h5m0s): a failed (or StageProgressing) stage'"'"'s status entry is written without lastHandledReconcileAt while the annotation stays'
run_of ledgers-reconcile-stage-replay
snapshot_of ledgers-reconcile-stage-replay 30m rs30 "reconcile-stage replay"
snapshot_of ledgers-reconcile-stage-replay 1h3m rs63 "reconcile-stage replay"
facts_of ledgers-reconcile-stage-replay "$tmp/rs30.yaml" "$tmp/rs63.yaml" <<'EOF2'
st = member_ready(d, "shop", "shop")
check("reconcile-stage replay: db fails at 1h0m9.177s and passes again at 1h6m9.852s",
      [x for x in st if x[0] >= 3600000] == [(3609177, "StageFailed"), (3969852, "Succeeded")], st)
s30, s63 = open(sys.argv[2]).read(), open(sys.argv[3]).read()
check("reconcile-stage replay: at 30m db's entry records the token as handled",
      "lastHandledReconcileAt: rerun-1" in s30)
check("reconcile-stage replay: at 1h3m the annotation stays and db's Failed entry has no handled token",
      "stages.metio.wtf/reconcile-stage: db@rerun-1" in s63 and "phase: Failed" in s63
      and "lastHandledReconcileAt" not in s63)
n = notice(d, 'StageSet shop/shop: the reconcile-stage token "db@rerun-1", handled at 10m3s, was taken as fresh again after stage "db" failed at 1h0m9.177s')
check("reconcile-stage replay: the run tells it", n is not None and n["severity"] == "warning", [x["text"] for x in d["notices"]])
check("reconcile-stage replay: with the runs of seed-data",
      n is not None and 'its Revision-scoped action "seed-data" ran 18 times in all, where the 1 version tried and the 1 token handled account for 2' in n["text"], n and n["text"])
EOF2

lint_of ledgers-reconcile-stage-removed
lacks "reconcile-stage removed: no MS275" "$tmp/ledgers-reconcile-stage-removed.lint" 'MS275'
run_of ledgers-reconcile-stage-removed
facts_of ledgers-reconcile-stage-removed <<'EOF2'
st = member_ready(d, "shop", "shop")
check("reconcile-stage removed: db fails during the outage all the same",
      [x[1] for x in st if x[0] >= 3600000] == ["StageFailed", "Succeeded"], st)
check("reconcile-stage removed: the run tells no replay", notice(d, "reconcile-stage token") is None)
EOF2

# ---- MS277: a failure during a soak starts it over ------------------------------
lint_of ledgers-soak-restart
contains "soak restart: MS277" "$tmp/ledgers-soak-restart.lint" \
	'MS277 warning the publish of 2.1.0 at 3h10m0s starts a 3h0m0s soak at stage "canary" of StageSet shop/shop, whose hold requeues it at most an hour apart, and at the pass of 4h10m0s the regress event at 4h5m0s fails its workload for 20m0s'
contains "soak restart: MS277 names the deadline it loses" "$tmp/ledgers-soak-restart.lint" \
	'its soak starts over from that pass instead of ending at 6h10m0s'
run_of ledgers-soak-restart
facts_of ledgers-soak-restart <<'EOF2'
st = [(e["t_ms"], e["reason"], e["message"] or "") for e in d["timeline"] if e["kind"] == "StageSet"
      and e["change"] == "status" and e["t_ms"] > 11000000]
soaks = [(t, re.search(r"soak window closes at (\S+)", m).group(1)) for t, r, m in st if r == "Soaking"]
check("soak restart: 2.1.0 soaks towards 14:11:01Z from 3h11m1s, then anew towards 15:33:10Z from 4h33m10.715s",
      soaks == [(11461000, "2026-03-02T14:11:01Z"), (16390715, "2026-03-02T15:33:10Z")], soaks)
check("soak restart: canary fails between the two, at 4h11m2s",
      [(t, r) for t, r, m in st if 11461000 < t < 16390715] == [(15062000, "StageFailed")], st)
check("soak restart: prod gets 2.1.0 only at 7h34m12.715s",
      [(t, r) for t, r, m in st if r == "Succeeded"] == [(27252715, "Succeeded")], st)
n = notice(d, 'StageSet shop/shop: stage "canary" was soaking towards 2026-03-02T14:11:01Z when it failed at 4h11m2s')
check("soak restart: the run tells it", n is not None and n["severity"] == "warning", [x["text"] for x in d["notices"]])
check("soak restart: with the new closing and the time lost",
      n is not None and "the pass at 4h33m10.715s that found it healthy again started the soak over, closing at 2026-03-02T15:33:10Z, 1h22m9s later" in n["text"], n and n["text"])
EOF2

lint_of ledgers-soak-unseen
lacks "soak unseen: no MS277" "$tmp/ledgers-soak-unseen.lint" 'MS277'
run_of ledgers-soak-unseen
facts_of ledgers-soak-unseen <<'EOF2'
st = member_ready(d, "shop", "shop")
check("soak unseen: no failure, prod gets 2.1.0 at the soak's first deadline (6h12m3s)",
      [x for x in st if x[0] > 11461000] == [(22323000, "Succeeded")], st)
check("soak unseen: the run tells no restarted soak", notice(d, "started the soak over") is None)
EOF2

# ---- MS278: a failure forgives a restart block ------------------------------------
lint_of ledgers-restart-forgiven
contains "restart forgiven: MS278" "$tmp/ledgers-restart-forgiven.lint" \
	'MS278 warning StageSet shop/shop: the restart check "crashloop" of stage "canary" (maxRestarts 0) selects pods the pods model restarts 5 times at 1h0m30s, while the stage gates the revision new at 1h0m0s, which it holds PromotionBlocked; at 1h20m0s the regress event at 1h20m0s fails its workload for 10m0s'
run_of ledgers-restart-forgiven
snapshot_of ledgers-restart-forgiven 1h45m forgiven "restart forgiven"
facts_of ledgers-restart-forgiven "$tmp/forgiven.yaml" <<'EOF2'
st = member_ready(d, "shop", "shop")
check("restart forgiven: blocked at 1h1m1s, failed at 1h21m3s, applied through at 1h33m16.355s",
      [x for x in st if x[0] > 3600000] == [(3661000, "PromotionBlocked"), (4863000, "StageFailed"), (5596355, "Succeeded")], st)
snap = stageset_snapshot(sys.argv[2])
revs = re.findall(r"appliedRevision: (\S+)", snap)
check("restart forgiven: at 1h45m prod runs canary's revision (%s)" % revs, len(revs) == 2 and revs[0] == revs[1])
check("restart forgiven: at 1h45m status.version is 2.1.0", re.search(r"\n    version: 2\.1\.0\n", snap) is not None)
n = notice(d, 'StageSet shop/shop: the restart check "crashloop" of stage "canary" blocked its revision at 1h1m1s (5 pod restart(s) over its limit), the stage failed at 1h21m3s, and the pass at 1h33m16.355s applied the revision through every stage')
check("restart forgiven: the run tells it", n is not None and n["severity"] == "warning", [x["text"] for x in d["notices"]])
EOF2

lint_of ledgers-restart-held
lacks "restart held: no MS278" "$tmp/ledgers-restart-held.lint" 'MS278'
run_of ledgers-restart-held
facts_of ledgers-restart-held <<'EOF2'
st = member_ready(d, "shop", "shop")
check("restart held: 2.1.0 stays blocked from 1h1m1s to the end", st[-1] == (3661000, "PromotionBlocked"), st)
check("restart held: the run tells no forgiven block", notice(d, "let the blocked revision through") is None)
EOF2

# ---- MS253: a failure before the stage loop wipes the first stage's ledgers -----
lint_of ledgers-preloop-wipe
contains "preloop wipe: MS253" "$tmp/ledgers-preloop-wipe.lint" \
	'MS253 warning the delete event at 30m0s removes Secret shop/prod-kubeconfig, which StageSet shop/shop reads before its stages (spec.kubeConfig.secretRef): a pass while it is gone fails before the stage loop, and that failure writes the first stage "db" with empty ledgers and no applied revision, so once the Secret is back (the apply at 35m0s brings it back) its completed Revision-scoped action "seed-data" runs again and its 30m0s soak starts over'
run_of ledgers-preloop-wipe
snapshot_of ledgers-preloop-wipe 1h wipe "preloop wipe"
facts_of ledgers-preloop-wipe "$tmp/wipe.yaml" <<'EOF2'
st = [(e["t_ms"], e["reason"], e["message"]) for e in d["timeline"] if e["kind"] == "StageSet"
      and e["change"] == "status"]
fail = [x for x in st if x[1] == "StageFailed"]
check("preloop wipe: one failure, before the stages, at 31m2.005s",
      len(fail) == 1 and fail[0][0] == 1862005 and 'stage "db" connect to target cluster: kubeConfig secret' in fail[0][2], fail)
soaks = [re.search(r"soak window closes at (\S+)", m).group(1) for t, r, m in st if r == "Soaking"]
check("preloop wipe: db soaked until 08:31:02, then again until 09:06:31",
      soaks == ["2026-03-02T08:31:02Z", "2026-03-02T09:06:31Z"], soaks)
check("preloop wipe: app follows at 1h7m33.68s", st[-1][:2] == (4053680, "Succeeded"), st[-1:])
snap = stageset_snapshot(sys.argv[2])
check("preloop wipe: at 1h db's soak runs since the re-apply (08:36:31)",
      'since: "2026-03-02T08:36:31Z"' in snap, snap)
n = told(d, "preloop wipe", "StageSet shop/shop failed before its stages at 31m2.005s (connect to target cluster: kubeConfig secret \"prod-kubeconfig\": secrets \"prod-kubeconfig\" not found), which wrote stage \"db\" with empty ledgers")
check("preloop wipe: with the soak's two closings",
      n is not None and "its soak started over (closing at 2026-03-02T09:06:31Z instead of 2026-03-02T08:31:02Z)" in n["text"], n and n["text"])
check("preloop wipe: and the action run twice",
      n is not None and 'its action "seed-data" had run 2 times in all' in n["text"], n and n["text"])
EOF2

lint_of ledgers-preloop-in-place
lacks "preloop, in place: no MS253" "$tmp/ledgers-preloop-in-place.lint" 'MS253'
run_of ledgers-preloop-in-place
facts_of ledgers-preloop-in-place <<'EOF2'
st = member_ready(d, "shop", "shop")
check("preloop, in place: no failure, app follows at 32m4.005s",
      st == [(62005, "Soaking"), (1924005, "Succeeded")], st)
check("preloop, in place: the run tells no wipe", notice(d, "failed before its stages") is None)
EOF2

# ---- MS254: onFailure runs once per revision -----------------------------------
lint_of ledgers-on-failure-once
contains "on-failure once: MS254" "$tmp/ledgers-on-failure-once.lint" \
	'MS254 warning StageSet web/web: stage "app" has onFailure action "page" and its post action "smoke" can fail (probability 1 per attempt from 10m0s until 40m0s): onFailure'"'"'s completions are recorded in the revision'"'"'s ledger, so they run at the first failure of each revision only'
run_of ledgers-on-failure-once
snapshot_of ledgers-on-failure-once 35m once "on-failure once"
facts_of ledgers-on-failure-once "$tmp/once.yaml" <<'EOF2'
st = member_ready(d, "web", "web")
check("on-failure once: 1.0.0, then StageFailed from 10m33s, then the success at 49m41.715s",
      st == [(32005, "Succeeded"), (633000, "StageFailed"), (2981715, "Succeeded")], st)
snap = stageset_snapshot(sys.argv[2])
check("on-failure once: at 35m page is in 1.1.0's ledger of the failed stage",
      re.search(r"executedActions:\n\s+- page\n\s+ledgerRevision: \S+\n\s+ledgerVersion: 1\.1\.0\n", snap) is not None
      and "phase: Failed" in snap, snap)
n = told(d, "on-failure once", "passes in a row failed on version 1.1.0 (from 10m0s until ")
m = n and re.search(r"(\d+) passes in a row .* until (\S+); stage \"app\" failed\), and its onFailure action \"page\" ran 1 time in the whole run", n["text"])
def ms(go):
    h, mi, se = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?(?:([\d.]+)s)?", go).groups()
    return round(((int(h or 0) * 60 + int(mi or 0)) * 60 + float(se or 0)) * 1000)
check("on-failure once: many failed passes, the last before the success, and one page",
      m is not None and int(m.group(1)) >= 2 and 633000 <= ms(m.group(2)) < 2981715, n and n["text"])
EOF2

lint_of ledgers-on-failure-healthy
lacks "on-failure, healthy: no MS254" "$tmp/ledgers-on-failure-healthy.lint" 'MS254'
run_of ledgers-on-failure-healthy
facts_of ledgers-on-failure-healthy <<'EOF2'
st = member_ready(d, "web", "web")
check("on-failure, healthy: both versions succeed", [r for t, r in st] == ["Succeeded", "Succeeded"], st)
check("on-failure, healthy: the run tells nothing", notice(d, "onFailure") is None)
EOF2

# ---- MS255: a suspended StageSet keeps an old observedGeneration ----------------
lint_of ledgers-suspend-generation
contains "suspend: MS255" "$tmp/ledgers-suspend-generation.lint" \
	'MS255 info the patch event at 1h0m0s suspends StageSet shop/shop (spec.suspend true): the Suspended pass writes the Ready condition (with the current generation on the condition) but leaves status.observedGeneration at the generation the controller last reconciled, while the suspend, a spec edit, raised metadata.generation'
run_of ledgers-suspend-generation
snapshot_of ledgers-suspend-generation 1h30m suspended "suspend"
facts_of ledgers-suspend-generation "$tmp/suspended.yaml" <<'EOF2'
st = [(e["t_ms"], e["reason"], e["generation"], "observedGeneration" in (e["detail"] or "")) for e in d["timeline"]
      if e["kind"] == "StageSet" and e["change"] == "status"]
check("suspend: Suspended at 1h and 1h10m (generations 2, 3), none writing observedGeneration",
      st[1:3] == [(3600000, "Suspended", 2, False), (4200000, "Suspended", 3, False)], st)
check("suspend: the pass after the resume writes it at 2h0m1s", st[3] == (7201000, "Succeeded", 4, True), st)
snap = stageset_snapshot(sys.argv[2])
check("suspend: at 1h30m generation 3, status.observedGeneration 1, the condition's 3",
      re.search(r"\n    generation: 3\n", snap) and re.search(r"\n    observedGeneration: 1\n", snap)
      and re.search(r"\n      observedGeneration: 3\n      reason: Suspended\n", snap), snap)
n = told(d, "suspend", "StageSet shop/shop was Suspended from 1h0m0s until 2h0m1s with status.observedGeneration 1 while its generation was up to 3", "info")
EOF2

lint_of ledgers-edit-generation
lacks "edit alone: no MS255" "$tmp/ledgers-edit-generation.lint" 'MS255'
run_of ledgers-edit-generation
facts_of ledgers-edit-generation <<'EOF2'
st = [(e["t_ms"], e["generation"], "observedGeneration" in (e["detail"] or "")) for e in d["timeline"]
      if e["kind"] == "StageSet" and e["change"] == "status"]
check("edit alone: observed at once", st == [(61005, 1, True), (4201000, 2, True)], st)
check("edit alone: the run tells nothing", notice(d, "Suspended") is None)
EOF2

# ---- MS256: the event gate has no baseline ---------------------------------------
lint_of ledgers-event-baseline
contains "event baseline: MS256" "$tmp/ledgers-event-baseline.lint" \
	'MS256 warning StageSet shop/shop: the event check "backoff" of stage "canary" counts the Warning events its pods carry, with no baseline, and when a later revision arrives (2.1.0, published at 1h0m0s) the pods model holds 4 of them (from 40m0s on), over its maxEvents 0'
run_of ledgers-event-baseline
facts_of ledgers-event-baseline <<'EOF2'
st = [(e["t_ms"], e["reason"], e["message"]) for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("event baseline: 2.0.0, then 2.1.0 blocked at 1h1m1s by 4 events, promoted at 1h42m6s",
      [x[:2] for x in st] == [(122005, "Succeeded"), (3661000, "PromotionBlocked"), (6126000, "Succeeded")]
      and 'event check "backoff" observed 4 warning event(s) over its limit' in st[1][2], st)
n = told(d, "event baseline", 'StageSet shop/shop: the event check "backoff" of stage "canary" blocked 2.1.0 at 1h1m1s, in the first pass of that revision, on 4 Warning events of its pods that the pods model raised from 40m0s on, before the revision\'s pass started (1h0m0s)')
check("event baseline: with the promotion after they expired",
      n is not None and "it was promoted at 1h42m6s, once they had expired" in n["text"], n and n["text"])
EOF2

lint_of ledgers-event-own
lacks "event, own pods: no MS256" "$tmp/ledgers-event-own.lint" 'MS256'
run_of ledgers-event-own
facts_of ledgers-event-own <<'EOF2'
st = member_ready(d, "shop", "shop")
check("event, own pods: the gate blocks 2.1.0 at 1h1m1s all the same",
      st == [(122005, "Succeeded"), (3661000, "PromotionBlocked"), (6126000, "Succeeded")], st)
check("event, own pods: the run tells no missing baseline", notice(d, "keeps no baseline") is None)
EOF2
finish
