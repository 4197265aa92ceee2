#!/bin/sh
# The Magos hazards told twice, by `lint` before a run and by `run` at its end,
# and each claim checked against the run of the same input: for every rule a
# fixture where it fires and the timeline shows what the message says, and one
# where it must not fire (tests/hazards/*.yaml, each saying what it shows).
#   MS102  empty steps: fires beside a Project with Workspaces never granted;
#          not without a Project, not when the Workspaces were granted before,
#          not without Workspaces (the upstream no-op, which `check` passes).
#   MS105/MS114  a Workspace no step selects: never granted when the Rollout is
#          there from the start; granted by the Project's DefaultParallel when
#          the Rollout comes later, and then it runs (the hand-off hazard).
#   MS114  a later step's Workspace granted before the Rollout starts planning
#          before its step opens.
#   MS115  a reconcile interval shorter than the later steps take at the
#          modelled medians: the Rollout does not complete; with the interval
#          the rule proposes it does.  A Rollout held by a failed Job the
#          controller never retries (no Failed=True condition) is told so, not
#          blamed on resets of earlier steps that re-run meanwhile.
#   MS116  a later step's Workspace that polls as often as an earlier one's sees
#          a commit first and plans it before them; swapped, it does not.
#   After Completed: a gate metric spike the fleet never queried is told.
#   MS222  a wave of 200 members at 3m each: the StageSet controller's 4
#          workers make it settle no sooner than 2h30m50s, and the run says
#          by how much; waves of 1 and 7: nothing.
#   MS223  a canary member fails on the new version: the wave never settles,
#          the fleet neither halts nor rolls back; without failures: nothing.
#   MS224  a member falters during the canary's soak: a one-pass regression
#          halt and the soak starts over; faltering after the soak: no
#          restart told.
#   MS225  retryInterval 0s: a verify timeout is never retried and the
#          StageSet stays StageProgressing; without it, it succeeds.
#   A gate halt: the value as read, in full, beside the upstream %.4g message.
. "$(dirname "$0")/lib.sh"
require_python
. "$(dirname "$0")/lib/hazards.sh"

# ---- MS115 and the run notice of scheduled resets -----------------------------
lint_of interval-short
contains "MS115 fires for shop-dev" "$tmp/interval-short.lint" \
	'MS115 warning Workspace "default/shop-dev" (step "dev" of Rollout "default/shop") stays Applied for less than its 3m0s reconcile interval'
contains "MS115 gives the later steps' median time" "$tmp/interval-short.lint" \
	'those take 12m20s at the median modelled durations (staging: 6m10s, prod: 6m10s)'
contains "MS115 proposes an interval" "$tmp/interval-short.lint" "set magosproject.io/reconcile-interval on it to 30m or more (twice their time, rounded up)"
contains "MS115 fires for shop-staging" "$tmp/interval-short.lint" 'MS115 warning Workspace "default/shop-staging"'
lacks "MS115 not for the last step" "$tmp/interval-short.lint" 'Workspace "default/shop-prod"'
run_of interval-short
facts_of interval-short <<'EOF'
check("interval-short: the Rollout does not complete in 3h", not completed(d, "shop"))
opened = step_opened(d, "shop", "staging")
resets = [e for e in resets_of(d, "shop-dev") if e["t_ms"] >= opened]
check("interval-short: shop-dev is reset by its schedule after staging opened", len(resets) > 0)
check("interval-short: each reset re-opens step dev",
      all(any(x["kind"] == "Rollout" and x["t_ms"] >= r["t_ms"] and x["message"] == "Executing level [dev]"
              for x in d["timeline"]) for r in resets))
n = notice(d, "did not complete: the scheduled reconcile reset")
check("interval-short: the notice says the later step was running", n is not None and "while a later step was planning or applying" in n["text"])
check("interval-short: the run says why", n is not None)
c = resets_while_later_runs(d, [["shop-dev"], ["shop-staging"], ["shop-prod"]])
check("interval-short: the notice's counts are the timeline's (%(shop-dev)d, %(shop-staging)d)" % c,
      n is not None and c["shop-dev"] > 0 and ("shop-dev %d time" % c["shop-dev"]) in n["text"]
      and ("shop-staging %d time" % c["shop-staging"]) in n["text"]
      and ("steps %d time" % (c["shop-dev"] + c["shop-staging"])) in n["text"])
EOF
lint_of interval-long
if [ ! -s "$tmp/interval-long.lint" ]; then ok "interval-long: the proposed intervals lint clean"; else
	bad "interval-long: the proposed intervals lint clean"; show "$tmp/interval-long.lint"; fi
run_of interval-long
facts_of interval-long <<'EOF'
check("interval-long: the Rollout completes", completed(d, "shop"))
check("interval-long: no notice of scheduled resets", notice(d, "did not complete") is None)
EOF

# Resets while the later step waits (here for an approval nobody gives) are not
# what keeps the Rollout from completing: no such notice.
"$SIM" run -q --json "$tmp/noauto.json" tests/scenarios/auto-apply-false.yaml >/dev/null 2>&1
contains "waiting for approval: the run says so" "$tmp/noauto.json" "ended Planned: autoApply is false"
lacks "waiting for approval: no blame on the scheduled resets" "$tmp/noauto.json" "did not complete: the scheduled reconcile"

# A plan Job scripted as failed without the Failed=True condition is never
# retried (upstream retries only on that condition): the run names the Job
# and the condition, and does not blame the scheduled resets of earlier steps
# that re-run meanwhile (staging's own resets, not the Rollout's progress).
run_of failed-no-condition
facts_of failed-no-condition <<'EOF'
check("failed-no-condition: the Rollout does not complete", not completed(d, "shop"))
check("failed-no-condition: shop-prod is never retried",
      not any(e["kind"] == "Workspace" and e["name"] == "shop-prod" and e["reason"] == "RetryPlan" for e in d["timeline"]))
n = notice(d, "ended Failed and was never retried")
check("failed-no-condition: the run names the Job and the condition upstream needs",
      n is not None and "its Job shop-prod-plan-2bf06f4b has status.failed 1 but no Failed=True condition" in n["text"]
      and "(RetryPlan, on the reconcile grid) only when the Job has that condition" in n["text"])
c = resets_while_later_runs(d, [["shop-dev"], ["shop-staging"], ["shop-prod"]])
check("failed-no-condition: no reset came while a later step made progress", sum(c.values()) == 0)
check("failed-no-condition: earlier steps were reset meanwhile", len(resets_of(d, "shop-dev")) > 0)
check("failed-no-condition: no blame on the scheduled resets", notice(d, "did not complete: the scheduled reconcile") is None)
EOF
run_of failed-condition
facts_of failed-condition <<'EOF'
check("failed-condition: the plan is retried and the Rollout completes", completed(d, "shop")
      and any(e["kind"] == "Workspace" and e["name"] == "shop-prod" and e["reason"] == "RetryPlan" for e in d["timeline"]))
check("failed-condition: no notice of a Job never retried", notice(d, "never retried") is None)
EOF

# ---- MS105 and MS114: Workspaces no step selects ------------------------------
lint_of unselected
contains "unselected: MS105" "$tmp/unselected.lint" \
	'MS105 warning Workspace "default/ws-prod" of project "shop" is selected by no step of Rollout "default/shop": nothing ever grants it execution'
lacks "unselected: no MS114" "$tmp/unselected.lint" "MS114"
run_of unselected
facts_of unselected <<'EOF'
check("unselected: ws-prod is never granted", grant_times(d, "ws-prod") == [])
check("unselected: ws-prod never plans", phases(d, "ws-prod") <= {None, "Pending"})
check("unselected: the run says never granted", notice(d, "and never granted: ws-prod") is not None)
EOF

lint_of handoff-unselected
contains "handoff: MS114 for the Workspace no step selects" "$tmp/handoff-unselected.lint" \
	'MS114 warning Workspace "default/ws-prod" is granted execution by Project "shop" (DefaultParallel) at 0s, before Rollout "default/shop" exists (at 1s), and grants given before the hand-off survive it: no step selects it, so the Rollout never revokes that grant: it plans and applies outside the Rollout'"'"'s order'
lacks "handoff: MS105 does not say never granted" "$tmp/handoff-unselected.lint" "MS105"
run_of handoff-unselected
facts_of handoff-unselected <<'EOF'
g = grant_times(d, "ws-prod")
check("handoff: the Project grants ws-prod at 0s", g[:1] == [(0, "reconcile project-controller default/shop")])
check("handoff: the Rollout is created at 1s", created(d, "Rollout", "shop") == 1000)
check("handoff: ws-prod applies", "Applied" in phases(d, "ws-prod"))
check("handoff: the Rollout never revokes it",
      not any(e["name"] == "ws-prod" and e["detail"] == "annotations: -magosproject.io/execution-allowed"
              and "rollout-controller" in (e["cause"] or "") for e in d["timeline"]))
check("handoff: the run tells the hand-off", notice(d, "but it was granted execution at 0s, before the Rollout existed (at 1s)") is not None)
check("handoff: the run does not say never granted", notice(d, "never granted") is None)
EOF

lint_of handoff-later-step
contains "later step: MS114 says it starts before its step" "$tmp/handoff-later-step.lint" \
	'it starts planning before its step "prod" opens'
run_of handoff-later-step
facts_of handoff-later-step <<'EOF'
plan = first_phase(d, "ws-prod", "Planning")
opened = step_opened(d, "shop", "prod")
check("later step: ws-prod plans (%s ms) before step prod opens (%s ms)" % (plan, opened),
      plan is not None and opened is not None and plan < opened)
n = notice(d, "Workspace default/ws-prod of step prod of Rollout default/shop started planning at 0s, but its step opened at")
check("later step: the run says so", n is not None)
EOF

# ---- MS102: empty steps ------------------------------------------------------
lint_of empty-steps
contains "empty steps: MS102 is a warning naming the Workspaces" "$tmp/empty-steps.lint" \
	'MS102 warning Rollout "default/shop": spec.strategy.steps is empty: the Rollout reports Ready/NoSteps and grants nothing, and Project "shop" defers to it (ManagedByRollout), so 2 Workspaces of the project (ws-dev, ws-prod) never run'
expect_rc "empty steps: lint passes (a warning)" 0 "$SIM" lint "$H/empty-steps.yaml"
expect_rc "empty steps: check passes" 0 "$SIM" check "$H/empty-steps.yaml"
run_of empty-steps
facts_of empty-steps <<'EOF'
check("empty steps: no Workspace ever plans",
      first_phase(d, "ws-dev", "Planning") is None and first_phase(d, "ws-prod", "Planning") is None)
check("empty steps: the run names them", notice(d, "never ran: ws-dev, ws-prod") is not None)
# Upstream does not requeue a Rollout without steps: nothing is left to wait
# for once the instant it went idle has run (its Workspaces await it).
check("empty steps: the run ends at 0s, complete, not at the horizon",
      d["run"]["stop"] == "completed" and d["run"]["end_ms"] == 0, d["run"])
check("empty steps: the Workspaces await the Rollout before it ends",
      "Pending" in phases(d, "ws-dev") and "Pending" in phases(d, "ws-prod"))
EOF

lint_of empty-steps-no-project
lacks "no Project: no MS102" "$tmp/empty-steps-no-project.lint" "MS102"
contains "no Project: MS106 tells it" "$tmp/empty-steps-no-project.lint" "MS106"
run_of empty-steps-no-project
facts_of empty-steps-no-project <<'EOF'
check("no Project: the run does not claim a Project defers", notice(d, "defers to it") is None)
EOF

lint_of empty-steps-granted
lacks "granted before: no MS102" "$tmp/empty-steps-granted.lint" "MS102"
run_of empty-steps-granted
facts_of empty-steps-granted <<'EOF'
check("granted before: both Workspaces apply",
      "Applied" in phases(d, "ws-dev") and "Applied" in phases(d, "ws-prod"))
check("granted before: no notice of Workspaces that never ran", notice(d, "never ran") is None)
last = max(first_phase(d, "ws-dev", "Applied"), first_phase(d, "ws-prod", "Applied"))
check("granted before: the run ends when what was granted has applied (%s ms)" % last,
      d["run"]["stop"] == "completed" and d["run"]["end_ms"] == last, d["run"])
EOF

lint_of empty-steps-no-workspaces
if [ ! -s "$tmp/empty-steps-no-workspaces.lint" ]; then ok "no Workspaces: lint says nothing"; else
	bad "no Workspaces: lint says nothing"; show "$tmp/empty-steps-no-workspaces.lint"; fi
expect_rc "no Workspaces: the upstream no-op passes check" 0 "$SIM" check "$H/empty-steps-no-workspaces.yaml"
run_of empty-steps-no-workspaces
"$SIM" run --no-color "$H/empty-steps-no-workspaces.yaml" >"$tmp/esnw.out" 2>&1
contains "no Workspaces: the run says there is nothing to complete" "$tmp/esnw.out" \
	"completed yes, nothing to complete: 1 Rollout without steps is"
contains "no Workspaces: ... and why" "$tmp/esnw.out" "Ready/NoSteps, a no-op upstream"
lacks "no Workspaces: not censored" "$tmp/esnw.out" "censored"
"$SIM" run --no-color "$H/interval-short.yaml" >"$tmp/is.out" 2>&1
contains "a Rollout with steps that did not complete is censored" "$tmp/is.out" "completed no, censored: time to complete >"
facts_of empty-steps-no-workspaces <<'EOF'
check("no Workspaces: no warning notice", not [n for n in d["notices"] if n["severity"] != "info"])
s = d["summary"]
check("no Workspaces: the JSON says completed, nothing to complete, not censored",
      s["completed"] is True and s["censored"] is False and s["nothing_to_complete"] is True
      and s["time_to_complete_ms"] is None and s["idle_rollouts"] == 1, s)
EOF
# A timeToComplete limit passes the no-op (0 s, nothing waited for); a
# minimum above 0 fails it.
expect_rc "no Workspaces: a timeToComplete max passes the no-op" 0 "$SIM" check "$H/empty-steps-expect.yaml"
"$SIM" check --no-color "$H/empty-steps-expect.yaml" >"$tmp/ese.out" 2>&1
contains "no Workspaces: check says why" "$tmp/ese.out" \
	"p95 time to complete 0s is within the limit <= 10m0s (3 trials with nothing to complete)"
sed 's/p95: {max: 10m}/p50: {min: 1m}/' "$H/empty-steps-expect.yaml" >"$tmp/ese-min.yaml"
expect_rc "no Workspaces: a timeToComplete min above 0 fails" 1 "$SIM" check "$tmp/ese-min.yaml"

# ---- a gate halt shows the value as read -------------------------------------
run_of gate-rounding
"$SIM" run --no-color "$H/gate-rounding.yaml" >"$tmp/gate.out" 2>&1
contains "gate: the upstream message rounds" "$tmp/gate.out" "failed its health gate: metric 0.01 is outside the"
contains "gate: the value in full beside it" "$tmp/gate.out" 'the gate read 0.0100001, threshold max "0.01" (the message rounds it'
facts_of gate-rounding <<'EOF'
h = d["summary"]["halt"]
check("gate: JSON holds the value as read", h["gate_value"] == 0.0100001, h["gate_value"])
check("gate: JSON keeps the upstream message", h["message"].endswith("metric 0.01 is outside the threshold"))
EOF
facts_of interval-short <<'EOF'
check("a Magos run has no gate value", d["summary"]["halt"] is None or d["summary"]["halt"]["gate_value"] is None)
EOF

# ---- MS116: a later step sees a commit first -----------------------------------
lint_of commit-order
contains "commit order: MS116 for shop-prod" "$tmp/commit-order.lint" \
	'MS116 warning Workspace "default/shop-prod" (step "prod" of Rollout "default/shop") polls for commits every 10s, as often as or more often than "shop-dev" of the earlier step "dev" (every 10m0s)'
"$SIM" run -q --until horizon --json "$tmp/commit-order.json" "$H/commit-order.yaml" >/dev/null 2>&1
facts_of commit-order <<'EOF'
sha = revision_seen(d, "shop-prod")
pp = planning_after(d, "shop-prod", sha)
dd = revision_seen_ms(d, "shop-dev", sha)
check("commit order: prod plans the commit (%s ms) before dev has seen it (%s ms)" % (pp, dd),
      sha and pp is not None and dd is not None and pp < dd)
n = notice(d, "Workspace default/shop-prod of step prod of Rollout default/shop started planning revision " + (sha or "?")[:7])
check("commit order: the run tells it with both times", n is not None and "before shop-dev of the earlier step dev had seen it" in n["text"])
EOF
lint_of commit-order-safe
if [ ! -s "$tmp/commit-order-safe.lint" ]; then ok "commit order swapped: no MS116"; else
	bad "commit order swapped: no MS116"; show "$tmp/commit-order-safe.lint"; fi
"$SIM" run -q --until horizon --json "$tmp/commit-order-safe.json" "$H/commit-order-safe.yaml" >/dev/null 2>&1
facts_of commit-order-safe <<'EOF'
sha = revision_seen(d, "shop-dev")
pp = planning_after(d, "shop-prod", sha)
dd = revision_seen_ms(d, "shop-dev", sha)
check("commit order swapped: dev sees the commit (%s ms) and prod does not plan it before (%s)" % (dd, pp),
      sha and dd is not None and (pp is None or dd < pp))
check("commit order swapped: no ordering notice", notice(d, "started planning revision") is None)
EOF

# ---- a spike after Completed ---------------------------------------------------
"$SIM" run -q --until horizon --json "$tmp/gac.json" "$H/gate-after-completed.yaml" >/dev/null 2>&1
facts_of gac <<'EOF'
done = [e["t_ms"] for e in d["timeline"] if e["kind"] == "FleetRollout" and e["phase"] == "Completed"]
# 44m4s: the StageSet controller's passes (1s reconcile each) follow the adoption.
check("after Completed: the fleet completes at 44m4s", done[:1] == [2644000], done[:1])
check("after Completed: it never halts", not any(e["kind"] == "FleetRollout" and e["phase"] == "Halted" for e in d["timeline"]))
n = notice(d, "FleetRollout moodle: the metric of wave \"canary\"'s gate left its threshold (max \"0.01\") from 1h0m0s to 1h6m0s, reaching 0.05, after the fleet Completed at 44m4s")
check("after Completed: the run tells the unseen spike", n is not None)
check("after Completed: the last query it names is before the spike", n is not None and "its last query was at 44m4s" in n["text"])
EOF
"$SIM" run -q --until horizon --json "$tmp/gh.json" scenarios/fleet-gate-halt.yaml >/dev/null 2>&1
lacks "a spike the gate saw (fleet-gate-halt) is not told as unseen" "$tmp/gh.json" "after the fleet Completed"

# ---- a manifest's grant the Rollout revokes first -------------------------------
lint_of granted-in-manifest
lacks "grant in the manifest, Rollout from the start: no MS114" "$tmp/granted-in-manifest.lint" "MS114"
run_of granted-in-manifest
facts_of granted-in-manifest <<'EOF'
check("grant in the manifest: ws-prod plans only once step prod opens",
      first_phase(d, "ws-prod", "Planning") >= step_opened(d, "shop", "prod"))
check("grant in the manifest: no early-start notice", notice(d, "started planning at") is None)
EOF

# ---- MS222: the StageSet controller's 4 workers --------------------------------
lint_of fleet-workers
contains "workers: MS222 gives the wave's least time" "$tmp/fleet-workers.lint" \
	'MS222 warning FleetRollout shop wave "broad" has 200 members, and the StageSet controller reconciles 4 StageSets at once'
contains "workers: MS222's numbers" "$tmp/fleet-workers.lint" \
	'(3m1s a member on average at the median modelled durations): the wave cannot settle in less than 2h30m50s (200 × 3m1s / 4)'
contains "workers: MS222 says what fits" "$tmp/fleet-workers.lint" 'a wave of at most 39 members settles within 30m0s'
run_of fleet-workers
facts_of fleet-workers <<'EOF2'
w = fleet_wave(d, "shop", "broad")
took = w["settled_ms"] - w["opened_ms"]
check("workers: broad settles no sooner than lint's 2h30m50s (%d ms)" % took, took >= 9050000)
n = notice(d, 'FleetRollout shop: wave "broad" (200 members) settled 2h30m50s after it opened at 2h48m1s')
check("workers: the run tells the wave's time as the timeline has it",
      n is not None and w["opened_ms"] == 10081000 and took == 9050000)
check("workers: a warning", n is not None and n["severity"] == "warning")
check("workers: the run gives the bound", n is not None and "could not settle in less than 2h30m50s" in n["text"])
done = sorted(e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"
              and e["namespace"] != "tenant-000" and e["reason"] == "Succeeded" and e["t_ms"] >= w["opened_ms"])
most = max(sum(1 for u in done if t <= u < t + 180000) for t in done)
check("workers: 200 adoptions, at most 4 in any 3m (%d)" % most, len(done) == 200 and most == 4)
EOF2
lint_of fleet-workers-small
lacks "small waves: no MS222" "$tmp/fleet-workers-small.lint" "MS222"
run_of fleet-workers-small
facts_of fleet-workers-small <<'EOF2'
w = fleet_wave(d, "shop", "broad")
check("small waves: broad settles within 15m", w["settled_ms"] - w["opened_ms"] < 900000)
check("small waves: no worker notice", notice(d, "StageSets at once") is None)
EOF2

# ---- MS223: a wave that never settles cannot roll back -------------------------
lint_of fleet-unsettled
contains "unsettled: MS223" "$tmp/fleet-unsettled.lint" \
	'MS223 warning FleetRollout shop: 2 members in 1 wave (the first: wave "canary") may fail to become ready on a new version (e.g. tenant-00/shop: 0.5 per rollout, from the modelled readiness), 0.75 that one of them does'
contains "unsettled: MS223 says no rollback" "$tmp/fleet-unsettled.lint" 'so it neither halts nor stamps rollback-to (onRegression Rollback)'
run_of fleet-unsettled
facts_of fleet-unsettled <<'EOF2'
w = fleet_wave(d, "shop", "canary")
st = fleet_status(d, "shop")
check("unsettled: canary opens at 25m", wave_opened(d, "shop", "canary") == 1500000)
check("unsettled: canary never settles", w["settled_ms"] is None)
check("unsettled: tenant-00 ends StageFailed", member_ready(d, "tenant-00", "shop")[-1][1] == "StageFailed")
check("unsettled: the fleet never halts", not any(p == "Halted" for _, p, _ in st))
check("unsettled: nothing stamps rollback-to", annotated(d, "StageSet", "stages.metio.wtf/rollback-to") == [])
check("unsettled: InProgress to the end", st[-1][1] == "InProgress")
check("unsettled: tenant-01 keeps 1.1.0", w["adoption"]["targets"][-1]["adopted"] == 1)
n = notice(d, 'FleetRollout shop: wave "canary" was open and not settled at the end of the run (open since 25m0s): 1 of its 2 members ended not Ready for a failure (e.g. tenant-00/shop: StageFailed)')
check("unsettled: the run tells it", n is not None and n["severity"] == "warning")
check("unsettled: the run says what it did not do", n is not None and "so it did not halt and stamped no rollback-to" in n["text"])
check("unsettled: the run names who keeps the version", n is not None and "1 member of the wave keeps 1.1.0" in n["text"])
EOF2
lint_of fleet-unsettled-safe
lacks "no failures: no MS223" "$tmp/fleet-unsettled-safe.lint" "MS223"
run_of fleet-unsettled-safe
facts_of fleet-unsettled-safe <<'EOF2'
check("no failures: the fleet completes", d["summary"]["fleets"][0]["completed_ms"] is not None)
check("no failures: no unsettled notice", notice(d, "was open and not settled") is None)
EOF2

# ---- MS224: a soak restarted by a flap -----------------------------------------
lint_of fleet-flap
contains "flap: MS224" "$tmp/fleet-flap.lint" \
	'MS224 warning FleetRollout shop wave "canary" soaks 30m0s, and 1 of its 1 members may regress sooner once ready (e.g. tenant-00/shop: 1 per version, 5m0s after it is ready, for 5m0s, at the medians)'
run_of fleet-flap
facts_of fleet-flap <<'EOF2'
f = d["summary"]["fleets"][0]
w = fleet_wave(d, "shop", "canary")
during = [h for h in f["halts"] if h["wave"] == "canary" and h["kind"] == "regression"
          and w["settled_ms"] <= h["t_ms"] < w["passed_ms"]]
check("flap: one regression halt during canary's soak", len(during) == 1)
check("flap: it lasts one pass", during and during[0]["passes"] == 1)
check("flap: the soak restarts (2 soakUntil values)", w["soaks"] == 2)
check("flap: the canary passes more than 30m after it first settled",
      w["passed_ms"] - w["settled_ms"] > 1800000)
n = notice(d, "FleetRollout shop: wave \"canary\"'s soak of 30m0s restarted 1 time")
check("flap: the run tells it", n is not None and n["severity"] == "warning")
check("flap: with the halt's time and the wave's", n is not None and "regression halt at 26m1.533s" in n["text"]
      and during[0]["t_ms"] == 1561533 and "first settled at 21m1s and passed at 1h1m45s" in n["text"]
      and w["settled_ms"] == 1261000 and w["passed_ms"] == 3705000)
EOF2
lint_of fleet-flap-late
lacks "late flap: no MS224" "$tmp/fleet-flap-late.lint" "MS224"
"$SIM" run -q --until horizon --json "$tmp/fleet-flap-late.json" "$H/fleet-flap-late.yaml" >/dev/null 2>&1
facts_of fleet-flap-late <<'EOF2'
f = d["summary"]["fleets"][0]
w = fleet_wave(d, "shop", "canary")
check("late flap: canary passes on its first soak", w["passed_ms"] - w["settled_ms"] == 1800000)
check("late flap: the member falters after that (a halt after the pass)",
      any(h["wave"] == "canary" and h["t_ms"] > w["passed_ms"] for h in f["halts"]))
check("late flap: no soak-restart notice", notice(d, "restarted") is None)
EOF2

# ---- MS225: retryInterval 0s turns the timed retry off --------------------------
lint_of retry-zero
contains "retry 0s: MS225" "$tmp/retry-zero.lint" \
	'MS225 warning StageSet default/shop sets retryInterval 0s, which turns the timed retry off'
"$SIM" run -q --until horizon --json "$tmp/retry-zero.json" "$H/retry-zero.yaml" >/dev/null 2>&1
facts_of retry-zero <<'EOF2'
st = member_ready(d, "default", "shop")
check("retry 0s: StageProgressing at 5m1.005s, the last status (%s)" % st[-1:],
      st and st[-1] == (301005, "StageProgressing"))
check("retry 0s: nothing was left to happen (no retry pending) long before 20m",
      d["run"]["stop"] == "quiescent" and d["run"]["end_ms"] < 1200000, d["run"])
n = notice(d, "StageSet default/shop ended Ready False StageProgressing, held since 5m1s (5m1s before the end of the run), and its retryInterval 0s turns the timed retry of that hold off")
check("retry 0s: the run tells it", n is not None and n["severity"] == "warning")
EOF2
lint_of retry-default
lacks "retry default: no MS225" "$tmp/retry-default.lint" "MS225"
"$SIM" run -q --until horizon --json "$tmp/retry-default.json" "$H/retry-default.yaml" >/dev/null 2>&1
facts_of retry-default <<'EOF2'
st = member_ready(d, "default", "shop")
check("retry default: the retry succeeds at 20m3.005s", (1203005, "Succeeded") in st, st)
check("retry default: no retry notice", notice(d, "turns the timed retry") is None)
EOF2

# ---- run -n: which notices fired in how many trials ------------------------------
"$SIM" run -q -n 20 --json "$tmp/mc.json" "$H/fleet-unsettled.yaml" >/dev/null 2>&1
"$SIM" run -n 20 --no-color "$H/fleet-unsettled.yaml" >"$tmp/mc.out" 2>&1
facts_of mc <<'EOF2'
key = lambda t: re.sub(r"[0-9]+", "#", t)
rows, st = d["trials"], d["statistics"]["notices"]
count = {}
for r in rows:
    for k in {key(n["text"]) for n in r["notices"]}:
        count[k] = count.get(k, 0) + 1
check("run -n: a kind of notice per distinct text up to digits", len(st) == len(count) and len(st) >= 1)
check("run -n: each kind's trials are the rows that have it",
      all(count[key(n["text"])] == n["trials"] for n in st))
check("run -n: the first trial's words",
      all(any(n["text"] == m["text"] for m in rows[n["first_trial"]]["notices"]) for n in st))
unsettled = sum(n["trials"] for n in st if "was open and not settled" in n["text"])
check("run -n: the unsettled canary in some trials, not all (%d of 20)" % unsettled, 0 < unsettled < 20)
# Info notices count too: the trials that completed say so as info, and the
# count is theirs (a run that completes ends on "the change completed").
done = [n for n in st if n["text"].startswith("the change completed")]
check("run -n: info notices are counted", len(done) == 1 and done[0]["severity"] == "info")
check("run -n: ... in the trials that completed (%s)" % [n["trials"] for n in done],
      len(done) == 1 and done[0]["trials"] == sum(1 for r in rows if r["completed"]) > 0)
rank = {"error": 0, "warning": 1, "info": 2}
check("run -n: errors, warnings, then info",
      [rank[n["severity"]] for n in st] == sorted(rank[n["severity"]] for n in st))
EOF2
contains "run -n: the text says it" "$tmp/mc.out" "What the runs told (errors, warnings, then info; the first trial's words)"
contains "run -n: with the count" "$tmp/mc.out" " of 20 trials (first: trial "
"$SIM" run -q -n 20 --shard 1/2 --json "$tmp/p1.json" "$H/fleet-unsettled.yaml" >/dev/null 2>&1
"$SIM" run -q -n 20 --shard 2/2 --json "$tmp/p2.json" "$H/fleet-unsettled.yaml" >/dev/null 2>&1
"$SIM" merge --json "$tmp/merged.json" "$tmp/p1.json" "$tmp/p2.json" >/dev/null 2>&1
pyfacts "$tmp/mc.json" "$tmp/merged.json" <<'EOF2'
import json, sys
from hazards_facts import *
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
check("run -n: merged shards count the notices as one run does",
      a["statistics"]["notices"] == b["statistics"]["notices"])
EOF2

finish
