#!/bin/sh
# The Magos Workspace surprises of spec magos-controllers.md §7 told by `lint`
# before a run and by `run` at its end, each claim checked against the run of
# the same input: a fixture where it fires and the timeline shows what the
# message says, and one where it must not fire (tests/hazards/quirks-*.yaml,
# each saying what it shows).
#   MS117  an empty magosproject.io/detected-revision: reset after every
#          apply, the Rollout's first step never completes; with the SHA the
#          Rollout completes.
#   MS118  timeoutSeconds -5 (plan): the Job API refuses the Job, Failed /
#          ConfigurationChanged without the clock moving; 0 (apply): the Job
#          fails at once with DeadlineExceeded; 600: the Rollout completes.
#   §7 #13 an apply that ends on a tick of the reconcile schedule: reset to
#          Pending straight from Applying, never Applied; with a longer
#          interval: Applied, nothing told.
#   §7 #12 a spec patched while the apply Job runs: the new spec's plan Job
#          runs beside it; patched after the run ended: one at a time.
#   §7 #16 a Rollout deleted after revoking a planning Workspace: it stays
#          Planning; deleted after the run: nothing stuck.
#   MS119, §7 #25  autoApply set true while Planned: it plans again; an
#          approve event instead: the plan is applied.  An approval given
#          while a plan that then fails runs: the retried plan is applied on it.
#   §7 #14 a policy violation under DefaultParallel: a reconcile-request is
#          consumed without a run, a commit loops grant / failure / revoke;
#          without them the schedule retries and the plan passes.
#   MS250  targetVersion "v1.1.0" against a publish of "1.1.0": every member
#          holds for an approval the fleet never gives, the canary never
#          settles; fleet-unsettled-safe pins "1.1.0" and completes.
#   MS251  a hand approval of 1.2.0 on a member of a fleet pinned to 1.1.0:
#          overwritten at once; approving 1.1.0: nothing to overwrite.
#   fleet §6 #15  a member no wave selects joins after Completed: Ready False
#          MembersUnassigned beside phase Completed from the last full pass.
. "$(dirname "$0")/lib.sh"
require_python "to read the run reports"
. "$(dirname "$0")/lib/hazards.sh"

# ---- MS117: an empty detected-revision (§7 #20) ------------------------------
lint_of quirks-empty-revision
contains "empty revision: MS117 is an error at the annotation" "$tmp/quirks-empty-revision.lintjson" '"line": 39'
contains "empty revision: MS117 says why" "$tmp/quirks-empty-revision.lint" \
	'MS117 error Workspace "default/shop-dev": annotation magosproject.io/detected-revision is present but empty: after each apply observedRevision is "main", which differs from "", so the next pass resets it (NewRevisionDetected)'
contains "empty revision: MS117 names the Rollout's step" "$tmp/quirks-empty-revision.lint" \
	'its Rollout counts it pending on every pass, so its step never completes and the later steps never open'
expect_rc "empty revision: lint fails" 1 "$SIM" lint "$H/quirks-empty-revision.yaml"
run_of quirks-empty-revision
pyfacts "$tmp/quirks-empty-revision.json" <<'EOF'
import json, sys
from quirks_facts import *
from hazards_facts import completed, step_opened
d = json.load(open(sys.argv[1]))
applied = [e["t_ms"] for e in statuses(d, "shop-dev") if e["phase"] == "Applied"]
resets = new_revision_resets(d, "shop-dev", "")
check("empty revision: shop-dev applies again and again (%d times)" % len(applied), len(applied) >= 5)
check("empty revision: each apply is followed by a reset for the empty revision",
      all(any(r >= a for r in resets) for a in applied))
check("empty revision: step prod never opens", step_opened(d, "shop", "prod") is None)
check("empty revision: the Rollout does not complete", not completed(d, "shop"))
check("empty revision: the run says the key is present but empty",
      any("detected-revision is present but empty" in t for t in notices_about(d, "shop-dev")))
EOF
lint_clean quirks-revision-set
run_of quirks-revision-set
pyfacts "$tmp/quirks-revision-set.json" <<'EOF'
import json, sys
from quirks_facts import *
from hazards_facts import completed
d = json.load(open(sys.argv[1]))
check("revision set: the Rollout completes", completed(d, "shop"))
r = new_revision_resets(d, "shop-dev", "4f2a9c0d1b3e5f7a9c0d1b3e5f7a9c0d1b3e5f7a")
check("revision set: reset for the SHA at 0s, never after the apply", r and set(r) == {0})
check("revision set: nothing told of shop-dev", notices_about(d, "shop-dev") == [])
EOF

# ---- MS118: timeoutSeconds zero or negative (§7 #24, #23) ----------------------
lint_of quirks-timeout-negative
contains "timeout -5: MS118 says the Job API refuses it" "$tmp/quirks-timeout-negative.lint" \
	'MS118 error Workspace "default/shop-prod": spec.plan.timeoutSeconds is -5: the plan Job gets it as activeDeadlineSeconds, which the Job API refuses below 0, so the Workspace fails with ReconcileError each time it would plan, the next pass resets it (ConfigurationChanged) and it never plans'
run_of quirks-timeout-negative
pyfacts "$tmp/quirks-timeout-negative.json" <<'EOF'
import json, sys, re
from quirks_facts import *
from hazards_facts import completed
d = json.load(open(sys.argv[1]))
refused = deadline_refusals(d, "shop-prod")
resets = [e for e in statuses(d, "shop-prod") if e["reason"] == "ConfigurationChanged"]
check("timeout -5: the Job API refuses the plan Job (%d times)" % len(refused), len(refused) > 1)
check("timeout -5: each refusal is followed by a ConfigurationChanged reset", len(resets) >= len(refused) - 1)
check("timeout -5: shop-prod never plans", not any(e["phase"] == "Planning" for e in statuses(d, "shop-prod")))
check("timeout -5: no plan Job of shop-prod exists", job_spans(d, "shop-prod") == {})
t = [x for x in notices_about(d, "shop-prod") if "refused its plan Job" in x]
check("timeout -5: the run says how often, as the timeline counts",
      len(t) == 1 and ("refused its plan Job %d times, first at 3m10s" % len(refused)) in t[0])
check("timeout -5: ... with the value and the loop",
      len(t) == 1 and "spec.plan.timeoutSeconds -5" in t[0] and "(ConfigurationChanged)" in t[0])
EOF
lint_of quirks-timeout-zero
contains "timeout 0: MS118 says the Job fails before it runs" "$tmp/quirks-timeout-zero.lint" \
	'MS118 error Workspace "default/shop-prod": spec.apply.timeoutSeconds is 0: the apply Job'"'"'s deadline is over when it starts, so it fails with DeadlineExceeded without running (ApplyFailed)'
run_of quirks-timeout-zero
pyfacts "$tmp/quirks-timeout-zero.json" <<'EOF'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
spans = {k: v for k, v in job_spans(d, "shop-prod").items() if "-apply-" in k}
check("timeout 0: the apply Job ends when it is created",
      len(spans) >= 1 and all(v[1] == v[0] for v in spans.values()))
check("timeout 0: shop-prod ends ApplyFailed",
      [e["reason"] for e in statuses(d, "shop-prod")][-1:] == ["ApplyFailed"])
check("timeout 0: never Applied", not any(e["phase"] == "Applied" for e in statuses(d, "shop-prod")))
EOF
lint_clean quirks-timeout-positive
run_of quirks-timeout-positive
pyfacts "$tmp/quirks-timeout-positive.json" <<'EOF'
import json, sys
from quirks_facts import *
from hazards_facts import completed
d = json.load(open(sys.argv[1]))
check("timeout 600: the Rollout completes", completed(d, "shop"))
check("timeout 600: nothing told of shop-prod", notices_about(d, "shop-prod") == [])
EOF

# ---- §7 #13: an apply that finishes when the schedule is due ------------------
run_of quirks-apply-due
pyfacts "$tmp/quirks-apply-due.json" <<'EOF'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
r = straight_resets(d, "shop-dev")
check("apply due: reset straight from Applying (%d times)" % len(r), len(r) >= 2 and r[0] == 360000)
check("apply due: never Applied", not any(e["phase"] == "Applied" for e in statuses(d, "shop-dev")))
t = [x for x in notices_about(d, "shop-dev") if "straight from Applying" in x]
check("apply due: the run says it, with the timeline's count and first time",
      len(t) == 1 and ("(ScheduledReconcile) straight from Applying %d times, first at 6m0s" % len(r)) in t[0])
check("apply due: ... and the interval it had", len(t) == 1 and "its reconcile interval is 3m (the default)" in t[0])
EOF
run_of quirks-apply-in-time
pyfacts "$tmp/quirks-apply-in-time.json" <<'EOF'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
check("apply in time: no reset straight from Applying", straight_resets(d, "shop-dev") == [])
check("apply in time: Applied", any(e["phase"] == "Applied" for e in statuses(d, "shop-dev")))
check("apply in time: nothing told", notices_about(d, "shop-dev") == [])
EOF

# ---- §7 #12: a spec change while a Job runs ----------------------------------
run_of quirks-spec-change
pyfacts "$tmp/quirks-spec-change.json" <<'EOF'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
s = job_spans(d, "shop-dev")
old, new = "shop-dev-apply-e73d1bfd", "shop-dev-plan-8e9e569d"
check("spec change: the new plan Job starts at 2m0s", s.get(new, [None])[0] == 120000)
check("spec change: the old apply Job still runs then, until 3m10s",
      s.get(old, [0, 0])[0] < 120000 and s.get(old, [0, 0])[1] == 190000)
t = [x for x in notices_about(d, "shop-dev") if "its spec changed" in x]
check("spec change: the run names both Jobs and the times",
      len(t) == 1 and "its spec changed at 2m0s (scenario event 1 (patch)) while it was Applying" in t[0]
      and ("started the new spec's Job %s at 2m0s while %s of the old spec was still running (it ended at 3m10s)" % (new, old)) in t[0])
EOF
run_of quirks-spec-change-idle
pyfacts "$tmp/quirks-spec-change-idle.json" <<'EOF'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
s = sorted(job_spans(d, "shop-dev").values())
check("spec change idle: shop-dev's Jobs never overlap",
      all(a[1] is not None and a[1] <= b[0] for a, b in zip(s, s[1:])))
check("spec change idle: nothing told", notices_about(d, "shop-dev") == [])
EOF

# ---- §7 #14: ValidationFailed under DefaultParallel ---------------------------
run_of quirks-validation-loop
pyfacts "$tmp/quirks-validation-loop.json" <<'EOF'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
ws = [e for e in d["timeline"] if e["kind"] == "Workspace" and e["name"] == "shop-dev" and e["change"] == "updated"]
req = [e for e in ws if "reconcile-request" in (e["detail"] or "")]
check("validation loop: the request set at 5m0s is removed at 5m0s while ValidationFailed",
      [(e["t_ms"], e["phase"]) for e in req] == [(300000, "ValidationFailed")] * 2
      and "workspace-controller" in req[1]["cause"])
check("validation loop: no run between", not any(e["phase"] == "Planning" and 300000 <= e["t_ms"] < 600000
                                               for e in statuses(d, "shop-dev")))
grants = [e["t_ms"] for e in ws if "+magosproject.io/execution-allowed" in (e["detail"] or "")
          and "project-controller" in e["cause"] and e["phase"] == "ValidationFailed"]
at = max(set(grants), key=grants.count)
check("validation loop: the Project grants again and again at one instant (%d at %d ms)" % (grants.count(at), at),
      grants.count(at) > 100)
t = [x for x in notices_about(d, "shop-dev")]
check("validation loop: the run tells the wasted request",
      any("reconcile-request set at 5m0s was consumed at 5m0s while it was ValidationFailed, without a new run" in x for x in t))
check("validation loop: the run tells the loop with the timeline's counts",
      any(("granted execution %d times while ValidationFailed, first at 5m0s, up to %d times in one instant"
           % (len(grants), grants.count(at))) in x for x in t))
EOF
run_of quirks-validation-retry
pyfacts "$tmp/quirks-validation-retry.json" <<'EOF'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
st = statuses(d, "shop-dev")
check("validation retry: ValidationFailed, then RetryPlan at 30m0s, then Applied",
      any(e["phase"] == "ValidationFailed" for e in st) and any(e["reason"] == "RetryPlan" and e["t_ms"] == 1800000 for e in st)
      and st[-1]["phase"] == "Applied")
check("validation retry: nothing told", notices_about(d, "shop-dev") == [])
EOF

# ---- MS250: targetVersion spelled otherwise than the offer (fleet §6 #13) ----
lint_of quirks-fleet-v-prefix
contains "v-prefix: MS250 is an error naming both spellings and the offer" "$tmp/quirks-fleet-v-prefix.lint" \
	'MS250 error FleetRollout shop: targetVersion "v1.1.0" is the version "1.1.0" (the publish of scenario event 1) spelled differently'
run_of quirks-fleet-v-prefix
pyfacts "$tmp/quirks-fleet-v-prefix.json" <<'EOF'
import json, sys
from hazards_facts import annotated, wave_opened, fleet_wave
from facts import check
d = json.load(open(sys.argv[1]))
stamps = {e["namespace"]: e["detail"] for e in annotated(d, "StageSet", "stages.metio.wtf/approved-version")}
check("v-prefix: the fleet stamps approved-version v1.1.0 on the canary",
      set(stamps) == {"tenant-00", "tenant-01"} and all("=v1.1.0" in x for x in stamps.values()))
last = {}
for e in d["timeline"]:
    if e["kind"] == "StageSet" and e["change"] == "status":
        last[e["namespace"]] = (e["reason"], e["message"] or "")
check("v-prefix: every member ends AwaitingApproval for 1.1.0",
      len(last) == 6 and all(r == "AwaitingApproval" and "version transition to 1.1.0" in m for r, m in last.values()))
w = fleet_wave(d, "shop", "canary")
check("v-prefix: the canary opens and never settles", wave_opened(d, "shop", "canary") is not None
      and w is not None and w.get("settled_ms") is None)
n = [x["text"] for x in d["notices"] if x["text"].startswith("FleetRollout shop: 6 members")]
check("v-prefix: the run counts the 6 members and gives both spellings",
      len(n) == 1 and 'ended on or held for "1.1.0", which is targetVersion "v1.1.0" spelled differently' in n[0]
      and "no wave with them settled" in n[0])
EOF
lint_of fleet-unsettled-safe
lacks "exact target: no MS250" "$tmp/fleet-unsettled-safe.lint" "MS250"
run_of fleet-unsettled-safe
lacks "exact target: nothing told of spellings" "$tmp/fleet-unsettled-safe.json" "spelled differently"

# ---- §7 #16: a Rollout deleted while it had revoked a running Workspace ----
run_of quirks-rollout-deleted
pyfacts "$tmp/quirks-rollout-deleted.json" <<'EOF'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
rev = [e for e in d["timeline"] if e["kind"] == "Workspace" and e["name"] == "shop-prod"
       and e["change"] == "updated" and "-magosproject.io/execution-allowed" in (e["detail"] or "")]
check("rollout deleted: the Rollout revokes shop-prod at 3m0s while it plans",
      len(rev) == 1 and rev[0]["t_ms"] == 180000 and rev[0]["phase"] == "Planning"
      and "rollout-controller" in rev[0]["cause"])
check("rollout deleted: the Rollout is deleted at 3m5s",
      any(e["kind"] == "Rollout" and e["change"] == "deleted" and e["t_ms"] == 185000 for e in d["timeline"]))
plan = [v for k, v in job_spans(d, "shop-prod").items() if "-plan-" in k]
check("rollout deleted: shop-prod's plan Job ends at 5m35s", plan == [[30000, 335000]])
st = statuses(d, "shop-prod")
check("rollout deleted: shop-prod stays Planning to the end, never granted again",
      st[-1]["phase"] == "Planning" and not any(e["phase"] in ("Applying", "Applied") for e in st)
      and len([e for e in d["timeline"] if e["kind"] == "Workspace" and e["name"] == "shop-prod"
               and "+magosproject.io/execution-allowed" in (e["detail"] or "")]) == 1)
t = [x for x in notices_about(d, "shop-prod") if "without permission to run" in x]
check("rollout deleted: the run says so with the times",
      len(t) == 1 and "ended Planning without permission to run: the Rollout revoked its permission at 3m0s while it was Planning, Rollout default/shop was deleted at 3m5s" in t[0])
EOF
run_of quirks-rollout-deleted-late
pyfacts "$tmp/quirks-rollout-deleted-late.json" <<'EOF'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
check("rollout deleted late: shop-prod applied", any(e["phase"] == "Applied" for e in statuses(d, "shop-prod")))
check("rollout deleted late: nothing told of shop-prod", notices_about(d, "shop-prod") == [])
EOF

# ---- MS119 and §7 #25: autoApply changed while Planned; approvals kept ------
lint_of quirks-auto-apply-flip
contains "autoApply flip: MS119" "$tmp/quirks-auto-apply-flip.lint" \
	'MS119 warning scenario event 1 at 5m0s: Workspace "default/shop-dev": the patch sets spec.autoApply to true (false before): autoApply is part of the spec hash'
run_of quirks-auto-apply-flip
pyfacts "$tmp/quirks-auto-apply-flip.json" <<'EOF'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
st = statuses(d, "shop-dev")
planned = [e["t_ms"] for e in st if e["phase"] == "Planned"]
again = [e["t_ms"] for e in st if e["phase"] == "Planning" and e["t_ms"] >= 300000]
check("autoApply flip: Planned before the patch", planned and planned[0] < 300000)
check("autoApply flip: plans again at 5m0s", again[:1] == [300000])
plans = [k for k in job_spans(d, "shop-dev") if "-plan-" in k]
check("autoApply flip: two plan Jobs (the waiting plan is not applied)", len(plans) == 2)
t = [x for x in notices_about(d, "shop-dev") if "changed spec.autoApply" in x]
check("autoApply flip: the run says so", len(t) == 1 and "at 5m0s while it waited in Planned, and it planned again at 5m0s" in t[0])
EOF
lint_clean quirks-approve
run_of quirks-approve
pyfacts "$tmp/quirks-approve.json" <<'EOF'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
check("approve: one plan Job, applied", len([k for k in job_spans(d, "shop-dev") if "-plan-" in k]) == 1
      and any(e["phase"] == "Applied" for e in statuses(d, "shop-dev")))
check("approve: nothing told", notices_about(d, "shop-dev") == [])
EOF
run_of quirks-approval-kept
pyfacts "$tmp/quirks-approval-kept.json" <<'EOF'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
st = statuses(d, "shop-dev")
check("approval kept: the first plan fails", any(e["reason"] == "PlanFailed" for e in st))
retry = [e["t_ms"] for e in st if e["reason"] == "RetryPlan"]
check("approval kept: retried by the schedule at 3m0s", retry[:1] == [180000])
check("approval kept: never Planned (the new plan is applied at once)", not any(e["phase"] == "Planned" for e in st))
check("approval kept: Applied", any(e["phase"] == "Applied" for e in st))
t = [x for x in notices_about(d, "shop-dev") if "before that plan existed" in x]
check("approval kept: the run says the approval of 30s applied the plan of 3m0s",
      len(t) == 1 and "a plan started at 3m0s on the approval (magosproject.io/approved: \"true\") given at 30s" in t[0])
EOF

# ---- MS251 and fleet §6 #14: a manual approval the fleet overwrites ---------
lint_of quirks-fleet-manual-approval
contains "manual approval: MS251" "$tmp/quirks-fleet-manual-approval.lint" \
	'MS251 warning scenario event 2 at 1h5m0s sets stages.metio.wtf/approved-version "1.2.0" on StageSet "tenant-00/shop", which FleetRollout shop selects'
run_of quirks-fleet-manual-approval
pyfacts "$tmp/quirks-fleet-manual-approval.json" <<'EOF'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
ch = [(e["t_ms"], e["cause"], e["detail"]) for e in d["timeline"] if e["kind"] == "StageSet"
      and e["namespace"] == "tenant-00" and "stages.metio.wtf/approved-version=" in (e["detail"] or "")
      and e["t_ms"] >= 3900000]
check("manual approval: set by the event, overwritten by the fleet at 1h5m0s",
      len(ch) >= 2 and ch[0][1].startswith("scenario event 2") and ch[0][2].endswith("→1.2.0")
      and ch[1][0] == 3900000 and "fleetrollout-controller" in ch[1][1] and ch[1][2].endswith("1.2.0→1.1.0"))
check("manual approval: the run tells the overwrite",
      any("overwrote approved-version=1.2.0 on tenant-00/shop with 1.1.0" in n["text"] for n in d["notices"]))
EOF
lint_of quirks-fleet-approval-target
lacks "approving the target: no MS251" "$tmp/quirks-fleet-approval-target.lint" "MS251"
run_of quirks-fleet-approval-target
lacks "approving the target: nothing overwritten" "$tmp/quirks-fleet-approval-target.json" "overwrote approved-version"

# ---- fleet §6 #15: an early exit leaves the progress of the last full pass --
run_of quirks-fleet-stale-status
pyfacts "$tmp/quirks-fleet-stale-status.json" <<'EOF'
import json, sys
from hazards_facts import fleet_status
from facts import check
d = json.load(open(sys.argv[1]))
fs = fleet_status(d, "shop")
check("stale status: Completed at 38m2s, then MembersUnassigned at 40m0s with phase Completed",
      (2282000, "Completed") in [(t, p) for t, p, m in fs] and fs[-1][0] == 2400000 and fs[-1][1] == "Completed"
      and any(e["kind"] == "FleetRollout" and e["t_ms"] == 2400000 and e["reason"] == "MembersUnassigned" for e in d["timeline"]))
n = [x["text"] for x in d["notices"] if "ended Ready False (MembersUnassigned" in x["text"]]
check("stale status: the run says the phase is the last full pass's",
      len(n) == 1 and "from 40m0s, while its status still says phase Completed" in n[0]
      and "what the last full pass wrote at 38m2s" in n[0])
EOF
lacks "a fleet that ends Ready: no stale-status notice" "$tmp/fleet-unsettled-safe.json" "ended Ready False"

finish
