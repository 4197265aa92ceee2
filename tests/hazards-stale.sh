#!/bin/sh
# The StageSet status fields left stale, told twice, by `lint` before a run
# and by `run` at its end, and each claim checked against the run of the
# same input: a fixture where it fires and the timeline (and a snapshot of
# the cluster) shows what the message says, and one where it must not fire
# (tests/hazards/stale-*.yaml, each saying what it shows).
#   MS262  a 2h soak on prod, the last stage: 2.1.0 (2h30m) is applied on
#          both stages by 2h32m2s, yet the snapshot at 3h holds
#          status.version 2.0.0 and 2.0.0's lastAppliedRevisions, no
#          pendingVersion, until the success at 4h32m4s; the soak polled
#          hourly ends on time.  The soak on canary, the first stage, is
#          not told: prod then still runs 2.0.0.
#   MS263  rollbackOnFailure switched off at 20m: 2.1.0 succeeds at 32m2s
#          without refreshing status.lastAppliedSnapshot, and 2.2.0's failed
#          analysis reverts canary at 1h1m2s to 2.0.0's revision; kept on,
#          the revert goes to 2.1.0's revision and nothing is told.
#   MS264  stage "legacy" dropped at 2h10m while prod soaks 2.1.0 (published
#          at 2h): the snapshot at 2h30m lists legacy's StageInventory
#          beside a status.stages without it, and only the success at
#          3h3m5s prunes it; dropped at 1h30m, while steady, it is pruned by
#          that pass (the snapshot at 1h40m) and nothing is told.
#   MS265  approvalMode Always: 2.1.0 approved at 1h35m soaks on canary
#          from 1h36m1s; approving 2.2.0 at 2h holds 2.1.0 AwaitingApproval
#          at once, canary on 2.1.0 and prod on 2.0.0 (the snapshot at 3h),
#          until 2.2.0 comes at 4h; approved at 2h50m, after 2.1.0's
#          success at 2h37m3s, nothing is held and nothing is told.
#   MS266  the version artifact's source unfetchable from 1h until 1h40m,
#          2.1.0 published at 1h10m: 20 passes fail at the plan and no
#          status is written from 1m1.105s (2.0.0's success) until
#          1h55m16.76s; with an inline version the plan fetches nothing and
#          2.1.0 is adopted at 1h11m1s, and nothing is told.
#   MS267  2.1.0 (1h) held, replaced by 2.2.0 (1h20m), then 2.1.0 approved at
#          1h30m: 2.2.0 stays held to the end; approving 2.2.0 instead
#          adopts it at 1h31m1s and nothing is told.  A stamp that lands
#          inside a pass (no rule): AwaitingApproval written at 1h0m30s for
#          the 2.1.0 approved at 1h0m10s, adopted at 1h2m1s.
. "$(dirname "$0")/lib.sh"
require_python
. "$(dirname "$0")/lib/hazards.sh"
HAZARD_RUN_ARGS="--until horizon"

# ---- MS262: the last stage's soak holds status.version ------------------------
lint_of stale-last-soak
contains "last soak: MS262" "$tmp/stale-last-soak.lint" \
	'MS262 info StageSet shop/shop: its last stage "prod" soaks 2h0m0s before promotion, though no stage comes after it: status.version and status.lastAppliedRevisions are written only by the success that follows the soak, so for 2h0m0s after each version has been applied and verified on every stage they still name the version before it (status.pendingVersion is already empty and Ready is False, Soaking)'
run_of stale-last-soak
snapshot_of stale-last-soak 3h soak3h "last soak"
facts_of stale-last-soak "$tmp/soak3h.yaml" <<'EOF2'
st = stageset_statuses(d)
check("last soak: 2.0.0's soak, its success, 2.1.0's soak, its success",
      [x[:2] for x in st] == [(122005, "Soaking"), (7324005, "Succeeded"), (9122000, "Soaking"), (16324000, "Succeeded")], st)
check("last soak: the soak at 2h32m2s is prod's and closes at 12:32:02",
      st[2][3].startswith('stage "prod" is soaking before promotion; soak window closes at 2026-03-02T12:32:02Z'), st[2:3])
check("last soak: the Soaking status writes neither version nor lastAppliedRevisions",
      "version" not in st[2][2].replace("status: ", "").split(", ") and "lastAppliedRevisions" not in st[2][2], st[2][2])
check("last soak: the success at 4h32m4s writes both, on time (under a pass after 2h0m0s; hourly polls)",
      "lastAppliedRevisions" in st[3][2] and st[3][2].endswith(", version") and 0 <= st[3][0] - 16322000 < 5000, st[3])
snap = stageset_snapshot(sys.argv[2])
status = snap[snap.index("\n  status:"):]
applied = re.findall(r"appliedRevision: (\S+)", status)
last = re.findall(r"\n      shop/(shop(?:-canary)?): (\S+)", status[status.index("lastAppliedRevisions"):])
check("last soak: at 3h status.version is 2.0.0", re.search(r"\n    version: 2\.0\.0\n", status) is not None)
check("last soak: at 3h no pendingVersion", "pendingVersion: 2" not in status)
check("last soak: at 3h both stages run revisions that lastAppliedRevisions does not name (%s, %s)" % (applied, last),
      len(applied) == 2 and last and not set(applied) & {r for _, r in last[:2]})
n = told(d, "last soak", 'StageSet shop/shop: 2.1.0 was applied and verified on every stage by 2h32m2s, when its last stage "prod" began to soak; status.version still said 2.0.0', "info")
check("last soak: until the success that ended it",
      n is not None and "until the success at 4h32m4s ended it (2h0m2s), with pendingVersion empty" in n["text"], n and n["text"])
EOF2

lint_of stale-first-soak
lacks "first soak: no MS262" "$tmp/stale-first-soak.lint" 'MS262'
run_of stale-first-soak
facts_of stale-first-soak <<'EOF2'
st = [(e["t_ms"], e["reason"], e["message"] or "") for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("first soak: canary soaks 2.1.0 from 2h31m1s, adopted at 4h32m3s",
      [x[:2] for x in st][2:] == [(9061000, "Soaking"), (16323000, "Succeeded")] and st[2][2].startswith('stage "canary"'), st)
check("first soak: the run tells no stale version", notice(d, "began to soak") is None)
EOF2

# ---- MS263: a snapshot kept after rollbackOnFailure is switched off -----------
lint_of stale-snapshot
contains "stale snapshot: MS263" "$tmp/stale-snapshot.lint" \
	'MS263 warning the patch event at 20m0s switches rollbackOnFailure off on StageSet shop/shop, whose stage "canary" is rolled back on a failed promotion analysis (onFailure Rollback): status.lastAppliedSnapshot is not cleared, and from then on no success refreshes it, yet gate reverts still read it, so once a later version has been adopted (the first: 2.1.0, published at 30m0s) a failed gate rolls "canary" back past it, to the revision the last success before 20m0s recorded'
run_of stale-snapshot
run_of stale-snapshot-kept
snapshot_of stale-snapshot 50m stale50 "stale snapshot"
facts_of stale-snapshot "$tmp/stale-snapshot-kept.json" "$tmp/stale50.yaml" <<'EOF2'
k = json.load(open(sys.argv[2]))
def succ(x):
    return [(e["t_ms"], e["detail"]) for e in x["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"
            and e["reason"] == "Succeeded" and "lastAppliedRevisions" in (e["detail"] or "")]
def reverts(x):
    return [(e["t_ms"], e["message"].rsplit(" ", 1)[1]) for e in x["timeline"] if e["change"] == "event"
            and "rolled back to revision" in (e["message"] or "")]
s = succ(d)
check("stale snapshot: 2.0.0 at 2m2.005s writes the snapshot, 2.1.0 at 32m2s does not",
      [t for t, _ in s] == [122005, 1922000] and "lastAppliedSnapshot" in s[0][1] and "lastAppliedSnapshot" not in s[1][1], s)
snap = open(sys.argv[3]).read()
status = snap[snap.index("kind: StageSet"):]
status = status[status.index("\n  status:"):]
canary = re.search(r"- appliedRevision: (\S+)", status).group(1)
stored = re.search(r"lastAppliedSnapshot:\n(?:.*\n)*?\s+revision: (\S+)", status)
r = reverts(d)
check("stale snapshot: at 50m canary runs 2.1.0's %s, the snapshot holds %s" % (canary, stored and stored.group(1)),
      stored is not None and stored.group(1) != canary)
check("stale snapshot: 2.2.0's analysis reverts canary at 1h1m2s to the snapshot's revision, not 2.1.0's",
      len(r) == 1 and r[0][0] == 3662000 and stored is not None and r[0][1] == stored.group(1) and r[0][1] != canary, r)
kr = reverts(k)
check("snapshot kept: the same revert goes to 2.1.0's revision",
      len(kr) == 1 and kr[0][1] == canary and [t for t, _ in succ(k)] == [122005, 1922000], kr)
n = told(d, "stale snapshot", 'StageSet shop/shop: stage "canary" was rolled back at 1h1m2s to revision %s, which status.lastAppliedSnapshot has held since the success of 2.0.0 at 2m2.005s' % (r[0][1] if r else "?"))
check("stale snapshot: naming the success it went back past",
      n is not None and "the later successes (2.1.0 at 32m2s), with rollbackOnFailure off, did not refresh the snapshot" in n["text"], n and n["text"])
check("snapshot kept: the run tells nothing", not [x for x in k["notices"] if "lastAppliedSnapshot" in x["text"]], k["notices"])
EOF2
lint_of stale-snapshot-kept
lacks "snapshot kept: no MS263" "$tmp/stale-snapshot-kept.lint" 'MS263'

# ---- MS264: a removed stage's objects kept until a full success -----------------
lint_of stale-removed-stage
contains "removed stage: MS264" "$tmp/stale-removed-stage.lint" \
	'MS264 warning the patch event at 2h10m0s removes stage "legacy" from StageSet shop/shop while 2.1.0 (published at 2h0m0s) cannot yet have passed the promotion soaks of the stages it keeps (prod 1h0m0s: not before 3h0m0s): the controller deletes a removed stage'"'"'s objects only at a full success'
run_of stale-removed-stage
for at in 2h30m 3h30m; do
	snapshot_of stale-removed-stage "$at" "removed$at" "removed stage"
done
facts_of stale-removed-stage "$tmp/removed2h30m.yaml" "$tmp/removed3h30m.yaml" <<'EOF2'
st = [(e["t_ms"], e["reason"], e["message"] or "") for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("removed stage: the pass at 2h10m2s holds at prod's soak, the success comes at 3h3m5s",
      (7802000, "Soaking") in [x[:2] for x in st] and [x for x in st if x[0] > 7802000][0][:2] == (10985000, "Succeeded"), st)
def inv(path):
    m = re.search(r"model\.magos-sim\.io/inventory: (\S+)", open(path).read())
    return m and m.group(1)
def stages(path):
    text = open(path).read()
    text = text[text.index("kind: StageSet"):]
    return re.findall(r"\n      name: (\S+)\n      phase:", text[text.index("\n  status:"):])
check("removed stage: at 2h30m legacy's StageInventory is kept (%s)" % inv(sys.argv[2]), inv(sys.argv[2]) == "canary=1,legacy=1,prod=1")
check("removed stage: at 2h30m status.stages no longer lists legacy (%s)" % stages(sys.argv[2]),
      stages(sys.argv[2]) and "legacy" not in stages(sys.argv[2]))
check("removed stage: at 3h30m it is pruned (%s)" % inv(sys.argv[3]), inv(sys.argv[3]) == "canary=1,prod=1")
n = told(d, "removed stage", 'StageSet shop/shop: stage "legacy" left the spec (the pass ending at 2h10m2s ran without it and status.stages dropped it), but its StageInventory, and the objects it lists, were kept until the full success at 3h3m5s (53m3s later), while the passes held at Soaking')
EOF2

lint_of stale-removed-steady
lacks "removed while steady: no MS264" "$tmp/stale-removed-steady.lint" 'MS264'
run_of stale-removed-steady
snapshot_of stale-removed-steady 1h40m steady "removed while steady"
facts_of stale-removed-steady "$tmp/steady.yaml" <<'EOF2'
st = [(e["t_ms"], e["reason"]) for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("removed while steady: the pass at 1h30m2s succeeds", (5402000, "Succeeded") in st, st)
m = re.search(r"model\.magos-sim\.io/inventory: (\S+)", open(sys.argv[2]).read())
check("removed while steady: at 1h40m legacy is pruned", m is not None and m.group(1) == "canary=1,prod=1", m and m.group(1))
check("removed while steady: the run tells nothing", notice(d, "left the spec") is None)
EOF2

# ---- MS265: an approval changed mid-rollout holds it again ------------------------
lint_of stale-approval-rehold
contains "re-hold: MS265" "$tmp/stale-approval-rehold.lint" \
	'MS265 warning the annotate event at 2h0m0s sets stages.metio.wtf/approved-version to "2.2.0" on StageSet shop/shop (approvalMode Always) while 2.1.0, approved at 1h35m0s and published at 1h30m0s, cannot yet have passed its promotion soaks (canary 1h0m0s: not before 2h35m0s): the approval gate runs on every pass, before the stages, so the next pass holds 2.1.0 AwaitingApproval half-applied'
run_of stale-approval-rehold
snapshot_of stale-approval-rehold 3h rehold "re-hold"
facts_of stale-approval-rehold "$tmp/rehold.yaml" <<'EOF2'
st = [(e["t_ms"], e["reason"], e["message"] or "") for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("re-hold: 2.1.0 soaks on canary from 1h36m1s, is held AwaitingApproval at 2h0m0s, and 2.2.0 soaks from 4h1m1s",
      [x[:2] for x in st][3:] == [(5761000, "Soaking"), (7200000, "AwaitingApproval"), (14461000, "Soaking")]
      and st[4][2].startswith("version transition to 2.1.0 is awaiting approval"), st)
snap = stageset_snapshot(sys.argv[2])
status = snap[snap.index("\n  status:"):]
applied = re.findall(r"appliedRevision: (\S+)", status)
check("re-hold: at 3h pendingVersion 2.1.0 and status.version 2.0.0",
      "pendingVersion: 2.1.0" in status and re.search(r"\n    version: 2\.0\.0\n", status) is not None)
last = dict(re.findall(r"\n      shop/(shop(?:-canary)?): (\S+)", status[status.index("lastAppliedRevisions:"):])[:2])
check("re-hold: at 3h canary runs a revision past 2.0.0's, prod still 2.0.0's (%s, %s)" % (applied, last),
      len(applied) == 2 and applied[0] != last.get("shop-canary") and applied[1] == last.get("shop"))
n = told(d, "re-hold", "StageSet shop/shop: the transition to 2.1.0 had passed the approval gate and reached its stages (Soaking at 1h36m1s) when the pass at 2h0m0s held it AwaitingApproval again, after stages.metio.wtf/approved-version changed at 2h0m0s (2.1.0\u21922.2.0)")
check("re-hold: until 2.2.0's pass", n is not None and "the later ones on the old version, until 4h1m1s" in n["text"], n and n["text"])
EOF2

lint_of stale-approval-after
lacks "approved after: no MS265" "$tmp/stale-approval-after.lint" 'MS265'
run_of stale-approval-after
facts_of stale-approval-after <<'EOF2'
st = [(e["t_ms"], e["reason"]) for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("approved after: 2.1.0 adopted at 2h37m3s, no hold after it", (9423000, "Succeeded") in st
      and not [x for x in st if x[0] > 5400000 and x[1] == "AwaitingApproval"], st)
check("approved after: the run tells nothing", notice(d, "held it AwaitingApproval again") is None)
EOF2

# ---- MS266: a transient plan error writes nothing ----------------------------------
lint_of stale-plan-error
contains "plan error: MS266" "$tmp/stale-plan-error.lint" \
	'MS266 warning StageSet shop/shop reads its version from stage "app"'"'"'s artifact (GitRepository shop/shop), which the sources model cannot fetch from 1h0m0s until 1h40m0s: every pass then fails at the version plan with a transient error, which writes nothing'
run_of stale-plan-error
facts_of stale-plan-error <<'EOF2'
st = [(e["t_ms"], e["reason"], e["detail"] or "") for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("plan error: 2.0.0 at 1m1.105s, then no status write until 2.1.0's at 1h55m16.76s, past the outage",
      [x[:2] for x in st] == [(61105, "Succeeded"), (6916760, "Succeeded")] and "version" in st[1][2], st)
n = told(d, "plan error", 'StageSet shop/shop: 20 passes from 1h1m12.331s to 1h37m35.56s failed at the version plan with a transient error (fetch version artifact for stage "app": failed to fetch artifact ')
check("plan error: with what the status kept saying",
      n is not None and 'its status said Succeeded "Applied and verified 1 stage(s)" (written at 1m1.105s)' in n["text"]
      and "the next status write came at 1h55m16.76s" in n["text"], n and n["text"])
EOF2

lint_of stale-plan-inline
lacks "inline version: no MS266" "$tmp/stale-plan-inline.lint" 'MS266'
run_of stale-plan-inline
facts_of stale-plan-inline <<'EOF2'
st = [(e["t_ms"], e["reason"]) for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("inline version: 2.1.0 adopted at 1h11m1s, in the outage", st == [(61005, "Succeeded"), (4261000, "Succeeded")], st)
check("inline version: the run tells nothing", notice(d, "wrote nothing") is None)
EOF2

# ---- MS267 and the approval races ------------------------------------------------
lint_of stale-approval-replaced
contains "replaced: MS267" "$tmp/stale-approval-replaced.lint" \
	'MS267 warning the annotate event at 1h30m0s approves 2.1.0 on StageSet shop/shop (approvalMode Always), published at 1h0m0s, but 2.2.0, published at 1h20m0s, replaced it before the approval'
run_of stale-approval-replaced
run_of stale-approval-current
run_of stale-approval-race
pyfacts "$tmp/stale-approval-replaced.json" "$tmp/stale-approval-current.json" "$tmp/stale-approval-race.json" <<'EOF2'
import json, sys
from hazards_facts import *
d, c, r = (json.load(open(x)) for x in sys.argv[1:4])
def st(x):
    return [(e["t_ms"], e["reason"], (e["message"] or "")[:45]) for e in x["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
s = st(d)
check("replaced: held for 2.1.0 at 1h, for 2.2.0 at 1h20m, nothing after the approval",
      [x[:2] for x in s] == [(61005, "Succeeded"), (3600000, "AwaitingApproval"), (4800000, "AwaitingApproval")]
      and s[2][2].startswith("version transition to 2.2.0 is awaiting"), s)
n = told(d, "replaced", "StageSet shop/shop: stages.metio.wtf/approved-version was set to 2.1.0 at 1h30m0s, a version it had held for approval before, while it held 2.2.0 (since 1h20m0s")
check("current: 2.2.0 adopted at 1h31m1s", [x[:2] for x in st(c)][-1] == (5461000, "Succeeded"), st(c))
check("current: the run tells nothing", notice(c, "approved-version was set") is None)
s = st(r)
upd = [e["t_ms"] for e in r["timeline"] if e["kind"] == "StageSet" and e["change"] == "updated"
       and "approved-version=2.1.0" in (e["detail"] or "")]
check("race: approved at 1h0m10s, held at 1h0m30s, adopted at 1h2m1s",
      upd == [3610000] and [x[:2] for x in s][1:] == [(3630000, "AwaitingApproval"), (3721000, "Succeeded")], (upd, s))
n = notice(r, "StageSet shop/shop: the pass ending at 1h0m30s wrote AwaitingApproval for 2.1.0 although stages.metio.wtf/approved-version had been set to 2.1.0 at 1h0m10s")
check("race: the run tells it", n is not None and n["severity"] == "info", [x["text"] for x in r["notices"]])
EOF2
lint_of stale-approval-current
lacks "current: no MS267" "$tmp/stale-approval-current.lint" 'MS267'
lint_of stale-approval-race
lacks "race: no MS267" "$tmp/stale-approval-race.lint" 'MS267'
finish
