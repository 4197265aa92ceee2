#!/bin/sh
# The worked examples of scenarios/ show what their opening comments promise.
# Each example runs with --json; python3 then checks the facts the comment
# states (times, phases, reasons, messages, halt, blast radius) against the
# report.  The times are exact: a scenario and its seed give the same run on
# any machine, so a changed time means the comment is out of date.
# Run from the repository root; MAGOS_SIM names the program (make check sets it).
. "$(dirname "$0")/lib.sh"

EXAMPLES="three-environments multi-region-prod parallel-cohorts staging-failure-halts
policy-violation commit-mid-rollout default-parallel payments-platform"

for name in $EXAMPLES; do
	run_example "$name"
done

expect_rc "check scenarios/*.yaml exits 0" 0 "$SIM" check scenarios/*.yaml

# The README says each example states what its comment promises in
# spec.expect, so that check verifies it: an example check finds nothing to
# verify in would pass whatever it showed.
for f in scenarios/*.yaml; do
	if "$SIM" check "$f" 2>&1 | grep -q "no expectations"; then
		bad "$f states no spec.expect for check to verify"
	else
		ok "$f states its expectations in spec.expect"
	fi
done

pyfacts "$tmp" <<'PY'
import sys

from facts import check, load, status_changes

tmp = sys.argv[1]


def rollout_levels(d, name):
    return status_changes(d, "Rollout", name)


def ws_phases(d, name):
    """(t_ms, phase, reason, message) of the status writes of Workspace name
    that changed its phase or reason."""
    out = []
    for e in d["timeline"]:
        if e["kind"] == "Workspace" and e["name"] == name and e["change"] == "status":
            row = (e["t_ms"], e["phase"], e["reason"], e["message"])
            if not out or out[-1][1:3] != row[1:3]:
                out.append(row)
    return out


def annotation_changes(d, name, key):
    """(t_ms, '+'|'-', value, phase, cause) of changes of one annotation."""
    out = []
    for e in d["timeline"]:
        if e["kind"] != "Workspace" or e["name"] != name or not e["detail"]:
            continue
        det = e["detail"].replace("\n", "")
        for part in det.split(","):
            part = part.strip()
            if part.startswith("annotations:"):
                part = part[len("annotations:"):].strip()
            if part[1:].split("=", 1)[0] == key and part[:1] in "+-":
                val = part.split("=", 1)[1] if "=" in part else None
                out.append((e["t_ms"], part[0], val, e["phase"], e["cause"]))
    return out


def first(rows, phase=None, reason=None):
    for r in rows:
        if (phase is None or r[1] == phase) and (reason is None or r[2] == reason):
            return r
    return None


def summary_basics(name, d, ttc, halted):
    s = d["summary"]
    check(name + ": completed", s["completed"] is True and s["censored"] is False, s["completed"])
    check(name + ": time_to_complete_ms %d" % ttc, s["time_to_complete_ms"] == ttc, s["time_to_complete_ms"])
    check(name + ": halted %s" % halted, s["halted"] is halted, s["halted"])


def steps(d, rollout):
    for r in d["summary"]["rollouts"]:
        if r["name"] == rollout:
            return [(st["name"], st["opened_ms"], st["completed_ms"], st["workspaces"]) for st in r["steps"]]
    return None


for name in ("three-environments", "multi-region-prod", "parallel-cohorts", "staging-failure-halts",
             "policy-violation", "default-parallel"):
    rep = load(tmp, name)
    if rep:
        warn = [x for x in rep["notices"] if x["severity"] != "info"]
        check(name + ": no warnings in the run's notices", not warn, warn)

L = "Executing level [%s]"
DONE = ("Applied", "RolloutCompleted", "All steps completed successfully")

# 1. three-environments ------------------------------------------------------
n = "three-environments"
d = load(tmp, n)
if d:
    summary_basics(n, d, 1805716, False)
    check(n + ": levels dev → staging → prod → completed",
          rollout_levels(d, "shop") == [
              (0, "Reconciling", "LevelProgressing", L % "dev"),
              (344196, "Reconciling", "LevelProgressing", L % "staging"),
              (770150, "Reconciling", "LevelProgressing", L % "prod"),
              (1805716,) + DONE], rollout_levels(d, "shop"))
    check(n + ": per-step open and completion times",
          steps(d, "shop") == [("dev", 0, 344196, ["shop-dev"]),
                               ("staging", 344196, 770150, ["shop-staging"]),
                               ("prod", 770150, 1805716, ["shop-prod"])], steps(d, "shop"))
    p = [e for e in d["timeline"] if e["kind"] == "Project" and e["change"] == "status"]
    check(n + ": Project Ready/ManagedByRollout", [(e["phase"], e["reason"]) for e in p] == [("Ready", "ManagedByRollout")])
    for w in ("shop-staging", "shop-prod"):
        check(n + ": %s starts Pending/AwaitingRollout" % w, ws_phases(d, w)[0][:3] == (0, "Pending", "AwaitingRollout"))

# 2. multi-region-prod -------------------------------------------------------
n = "multi-region-prod"
d = load(tmp, n)
if d:
    summary_basics(n, d, 1872177, False)
    want = [(0, "Reconciling", "LevelProgressing", L % "staging"),
            (176792, "Reconciling", "LevelProgressing", L % "prod-eu-west"),
            (802193, "Reconciling", "LevelProgressing", L % "prod-us-east"),
            (1309048, "Reconciling", "LevelProgressing", L % "prod-ap-south"),
            (1872177,) + DONE]
    check(n + ": one level per region, in order", rollout_levels(d, "edge") == want, rollout_levels(d, "edge"))
    st = steps(d, "edge")
    check(n + ": four steps, each opening when the one before completes",
          st is not None and len(st) == 4 and all(st[i][1] == st[i - 1][2] for i in range(1, 4))
          and [s[3] for s in st] == [["edge-staging"], ["edge-prod-eu-west"], ["edge-prod-us-east"], ["edge-prod-ap-south"]], st)
    # No prod region is granted before the previous region is Applied.
    for prev, cur in (("edge-prod-eu-west", "edge-prod-us-east"), ("edge-prod-us-east", "edge-prod-ap-south")):
        applied = first(ws_phases(d, prev), "Applied")
        grant = [a for a in annotation_changes(d, cur, "magosproject.io/execution-allowed") if a[1] == "+"]
        check(n + ": %s granted only once %s is Applied" % (cur, prev),
              applied is not None and grant and grant[0][0] == applied[0], (applied, grant[:1]))

# 3. parallel-cohorts ---------------------------------------------------------
n = "parallel-cohorts"
d = load(tmp, n)
if d:
    summary_basics(n, d, 1856419, False)
    check(n + ": three cohorts",
          rollout_levels(d, "stores") == [
              (0, "Reconciling", "LevelProgressing", L % "cohort-1"),
              (604123, "Reconciling", "LevelProgressing", L % "cohort-2"),
              (1266338, "Reconciling", "LevelProgressing", L % "cohort-3"),
              (1856419,) + DONE], rollout_levels(d, "stores"))
    st = steps(d, "stores") or []
    check(n + ": four Workspaces per step", [len(s[3]) for s in st] == [4, 4, 4], st)
    c1 = st[0][3] if st else []
    planned = {w: first(ws_phases(d, w), "Planning", "PlanJobCreated") for w in c1}
    check(n + ": cohort-1 plans all created at 0s", all(r and r[0] == 0 for r in planned.values()), planned)
    ends = {w: first(ws_phases(d, w), "Applying", "ApplyJobCreated")[0] for w in c1}
    # Without a queue a plan ends by 10s + 2m = 130 s; with 3 slots for 4 plans
    # the last cannot start before the first ends (>= 70 s), so it ends >= 140 s.
    check(n + ": one cohort-1 plan queued for a runner (ends at 3m33.468s > 2m10s)",
          ends.get("store-munich") == 213468 and max(ends.values()) >= 140000
          and sorted(ends.values())[2] <= 130000, ends)
    check(n + ": the queued store-munich completes cohort-1",
          first(ws_phases(d, "store-munich"), "Applied")[0] == 604123)
    cap = d["summary"]["capacity"]
    check(n + ": 3 runners, all busy at the peak, Jobs waited for one",
          cap["runners"] == 3 and cap["peak_running"] == 3 and cap["jobs"] == 24
          and cap["max_wait_ms"] > 0, cap)

# 4. staging-failure-halts ---------------------------------------------------
n = "staging-failure-halts"
d = load(tmp, n)
if d:
    summary_basics(n, d, 3108082, True)
    s = d["summary"]
    check(n + ": halt at 12m50.15s in step staging, StepFailed",
          s["halt"] is not None and s["halt"]["t_ms"] == 770150 and s["halt"]["step"] == "staging"
          and s["halt"]["reason"] == "StepFailed"
          and s["halt"]["message"] == "One or more workspaces failed in level [staging]", s["halt"])
    check(n + ": blast radius 2 of 3 (shop-dev, shop-staging)",
          s["blast_radius"] == {"count": 2, "total": 3, "names": ["shop-dev", "shop-staging"]}, s["blast_radius"])
    check(n + ": Rollout StepFailed, then LevelProgressing at the retry tick, then prod, then completed",
          rollout_levels(d, "shop") == [
              (0, "Reconciling", "LevelProgressing", L % "dev"),
              (344196, "Reconciling", "LevelProgressing", L % "staging"),
              (770150, "Failed", "StepFailed", "One or more workspaces failed in level [staging]"),
              (1800000, "Reconciling", "LevelProgressing", L % "staging"),
              (2072516, "Reconciling", "LevelProgressing", L % "prod"),
              (3108082,) + DONE], rollout_levels(d, "shop"))
    ph = ws_phases(d, "shop-staging")
    check(n + ": shop-staging Failed/ApplyFailed at 12m50.15s",
          first(ph, "Failed") == (770150, "Failed", "ApplyFailed", "Terraform Apply execution failed"), first(ph, "Failed"))
    check(n + ": shop-staging Pending/RetryApply at the 30m grid tick",
          first(ph, "Pending", "RetryApply") == (1800000, "Pending", "RetryApply",
                                                 "Retrying failed apply starting from new plan"), first(ph, "Pending", "RetryApply"))
    grant = [a for a in annotation_changes(d, "shop-prod", "magosproject.io/execution-allowed") if a[1] == "+"]
    check(n + ": shop-prod first granted after staging recovered (34m32.516s)", grant and grant[0][0] == 2072516, grant)

# 5. policy-violation --------------------------------------------------------
n = "policy-violation"
d = load(tmp, n)
if d:
    summary_basics(n, d, 4982164, True)
    s = d["summary"]
    check(n + ": halt at 9m12.379s in step staging, StepFailed",
          s["halt"] is not None and s["halt"]["t_ms"] == 552379 and s["halt"]["step"] == "staging"
          and s["halt"]["reason"] == "StepFailed", s["halt"])
    check(n + ": blast radius 1 of 3 (shop-dev)",
          s["blast_radius"] == {"count": 1, "total": 3, "names": ["shop-dev"]}, s["blast_radius"])
    vf = [e for e in d["timeline"] if e["kind"] == "Workspace" and e["phase"] == "ValidationFailed"
          and e["change"] == "status"]
    check(n + ": shop-staging ValidationFailed/PolicyViolation with status.policyViolations",
          vf and vf[0]["t_ms"] == 552379 and vf[0]["name"] == "shop-staging"
          and vf[0]["reason"] == "PolicyViolation" and vf[0]["message"] == "Plan violated 1 policy rule(s)"
          and "policyViolations" in (vf[0]["detail"] or ""), vf[:1])
    msg = "require-cost-center-tag: Every AWS resource must carry a cost-center tag"
    wsv = [w for w in s["workspaces"] if w["name"] == "shop-staging"]
    check(n + ": the policy's own message is reported for shop-staging",
          wsv and wsv[0]["policy_violations"] == [msg], wsv[:1])
    check(n + ": Rollout halts, resumes at the 1h tick, completes",
          rollout_levels(d, "shop") == [
              (0, "Reconciling", "LevelProgressing", L % "dev"),
              (344196, "Reconciling", "LevelProgressing", L % "staging"),
              (552379, "Failed", "StepFailed", "One or more workspaces failed in level [staging]"),
              (3600000, "Reconciling", "LevelProgressing", L % "staging"),
              (3946598, "Reconciling", "LevelProgressing", L % "prod"),
              (4982164,) + DONE], rollout_levels(d, "shop"))
    rr = annotation_changes(d, "shop-staging", "magosproject.io/reconcile-request")
    check(n + ": reconcile-request set at 20m while ValidationFailed, removed when the retry run ends",
          [(a[0], a[1]) for a in rr] == [(1200000, "+"), (3946598, "-")] and rr[0][3] == "ValidationFailed", rr)
    ph = ws_phases(d, "shop-staging")
    after = [r[:3] for r in ph if r[0] > 552379]
    check(n + ": the request resets nothing; the next phase change is RetryPlan at 1h",
          after[:1] == [(3600000, "Pending", "RetryPlan")], after[:1])

# 6. commit-mid-rollout ------------------------------------------------------
n = "commit-mid-rollout"
d = load(tmp, n)
if d:
    summary_basics(n, d, 2054604, False)
    KEY = "magosproject.io/detected-revision"
    check(n + ": the commit is announced at 8m",
          any(x["t_ms"] == 480000 and "commit" in x["text"] for x in d["notices"]), d["notices"])
    det = {w: annotation_changes(d, w, KEY) for w in ("shop-dev", "shop-staging", "shop-prod")}
    got = {w: [(a[0], a[1], a[3]) for a in v] for w, v in det.items()}
    check(n + ": RefWatchers patch detected-revision per Workspace at their own polls",
          got == {"shop-prod": [(502728, "+", "Pending"), (2054604, "-", "Applied")],
                  "shop-dev": [(509291, "+", "Applied"), (801267, "-", "Applied")],
                  "shop-staging": [(530303, "+", "Planning"), (1019038, "-", "Applied")]}, got)
    sha = det["shop-dev"][0][2] if det["shop-dev"] else None
    check(n + ": shop-dev Pending/NewRevisionDetected naming the SHA",
          first(ws_phases(d, "shop-dev"), "Pending", "NewRevisionDetected")
          == (509291, "Pending", "NewRevisionDetected", "RefWatcher detected new revision %s" % sha))
    check(n + ": Rollout rewinds staging → dev, then staging, prod, completed",
          rollout_levels(d, "shop") == [
              (0, "Reconciling", "LevelProgressing", L % "dev"),
              (344196, "Reconciling", "LevelProgressing", L % "staging"),
              (509291, "Reconciling", "LevelProgressing", L % "dev"),
              (801267, "Reconciling", "LevelProgressing", L % "staging"),
              (1019038, "Reconciling", "LevelProgressing", L % "prod"),
              (2054604,) + DONE], rollout_levels(d, "shop"))
    ea = [(a[0], a[1], a[3]) for a in annotation_changes(d, "shop-staging", "magosproject.io/execution-allowed")]
    check(n + ": staging's permission revoked at the rewind while Planning, re-granted at 13m21.267s",
          ea == [(344196, "+", "Pending"), (509291, "-", "Planning"), (801267, "+", "Planning"),
                 (1019038, "-", "Applied")], ea)
    ph = ws_phases(d, "shop-staging")
    check(n + ": staging never resets for the commit; it applies its pre-commit plan",
          [r[:3] for r in ph] == [(0, "Pending", "AwaitingRollout"), (344196, "Planning", "PlanJobCreated"),
                                  (344196, "Planning", "Planning"), (801267, "Applying", "ApplyJobCreated"),
                                  (801267, "Applying", "Applying"), (1019038, "Applied", "ApplySucceeded")], ph)
    plans = [e for e in d["timeline"] if e["kind"] == "Job" and e["change"] == "created"
             and e["name"].startswith("shop-staging-plan-")]
    check(n + ": staging's only plan Job was created before the commit", [e["t_ms"] for e in plans] == [344196], plans)
    warn = [x["text"] for x in d["notices"] if x["severity"] != "info"]
    check(n + ": the one warning is staging's absorbed revision (spec §7 #17)",
          len(warn) == 1 and warn[0].startswith(
              "Workspace default/shop-staging: revision %s, committed at 8m0s after its plan Job had "
              "checked out the branch, was seen by the RefWatcher at 8m50.303s while it was Planning, "
              "and the apply that ended that run at 16m59.038s recorded it as "
              "status.observedRevision" % (sha or "")[:12]), warn)

# 7. default-parallel --------------------------------------------------------
n = "default-parallel"
d = load(tmp, n)
if d:
    summary_basics(n, d, 426012, False)
    p = [(e["t_ms"], e["phase"], e["reason"], e["message"]) for e in d["timeline"]
         if e["kind"] == "Project" and e["change"] == "status"]
    check(n + ": Project Ready/DefaultParallel",
          p == [(0, "Ready", "DefaultParallel", "Project is orchestrating workspaces in parallel")], p)
    names = ["sandbox-checkout", "sandbox-search", "sandbox-payments", "sandbox-identity", "sandbox-data"]
    grants = {w: [(a[0], a[4]) for a in annotation_changes(d, w, "magosproject.io/execution-allowed") if a[1] == "+"]
              for w in names}
    check(n + ": the Project grants all five at 0s",
          all(g and g[0][0] == 0 and g[0][1].startswith("reconcile project-controller") for g in grants.values()), grants)
    check(n + ": all five plan at 0s",
          all(first(ws_phases(d, w), "Planning", "PlanJobCreated")[0] == 0 for w in names))
    applied = sorted((first(ws_phases(d, w), "Applied")[0], w) for w in names)
    check(n + ": first Applied sandbox-payments at 3m23.595s, last sandbox-checkout at 7m6.012s",
          applied[0] == (203595, "sandbox-payments") and applied[-1] == (426012, "sandbox-checkout"), applied)
    check(n + ": no Rollout in the summary", d["summary"]["rollouts"] == [], d["summary"]["rollouts"])
PY
finish
