/*
 * The Rollout controller port (engine/magos_rollout): given/when/then tables
 * named after the rules of the spec (../shared/specs/magos-controllers.md
 * §2.3 R-0..R-ERR, §2.5 state table, §2.7 situations, §6.6 scenarios, §7
 * quirks).  Every case states the Workspaces (labels, project, phase,
 * annotations) and the Rollout, runs one pass and checks the outcome, the
 * status intent (phase, reason, message, Ready, currentStep), the grants and
 * the revokes, in order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/magos_rollout.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define NOW "2026-01-01T00:00:10Z"

struct ws_def {
	const char *name, *labels, *project, *phase, *ann;
};

struct rcase {
	const char *rule;
	struct fx_step steps[6];
	size_t nsteps;
	struct ws_def ws[8];
	const char *stored_phase; /* NULL: no status yet */
	int64_t stored_step;
	/* then */
	int rc;
	enum mr_outcome outcome;
	const char *phase, *reason, *message, *ready;
	int64_t step;
	const char *grants, *revokes; /* comma-joined, "" for none */
	const char *overlapping;      /* NULL: not checked */
	bool transition;
};

#define DEVSTEPS                                                                    \
	{ { "deploy-dev", "env=dev" }, { "deploy-staging", "env=dev" }, { "deploy-prod", "env=prod" } }, 3
#define DEMO_WS(dev, devann, stg, stgann, prod, prodann)                    \
	{ { "demo-dev", "env=dev", "demo-project", dev, devann },          \
	  { "demo-prod", "env=prod", "demo-project", prod, prodann },      \
	  { "demo-staging", "env=dev", "demo-project", stg, stgann } }
#define LP "Reconciling", "LevelProgressing"

static const struct rcase cases[] = {
	/* ---- §2.3 R-1 ---- */
	{ "R-1 NoSteps leaves currentStep and touches no Workspace",
	  { { 0 } }, 0,
	  { { "a", "env=dev", "demo-project", NULL, "" } },
	  "Reconciling", 2,
	  0, MR_OUT_NO_STEPS, "Ready", "NoSteps", "No steps defined in strategy", "True", 2, "", "", NULL, false },
	/* ---- §2.3 R-2.3 ---- */
	{ "R-2.3 first empty step halts with NoWorkspacesFound at its index, no grant, no revoke",
	  { { "deploy-dev", "env=dev" }, { "deploy-qa", "env=qa" }, { "deploy-prod", "env=prod" } }, 3,
	  { { "a", "env=dev", "demo-project", "Pending", "" },
	    { "b", "env=prod", "demo-project", "Applied", "allowed" } },
	  NULL, 0,
	  0, MR_OUT_NO_WORKSPACES_FOUND, "Failed", "NoWorkspacesFound",
	  "No workspaces found matching selector for step deploy-qa; halting to prevent skipping environments",
	  "False", 1, "", "", NULL, false },
	{ "§7 #4 NoWorkspacesFound is global: an empty later step hides completion",
	  { { "deploy-dev", "env=dev" }, { "deploy-prod", "env=prod" } }, 2,
	  { { "a", "env=dev", "demo-project", "Applied", "" } },
	  "Applied", 2,
	  0, MR_OUT_NO_WORKSPACES_FOUND, "Failed", "NoWorkspacesFound",
	  "No workspaces found matching selector for step deploy-prod; halting to prevent skipping environments",
	  "False", 1, "", "", NULL, false },
	{ "§2.7 cross-project isolation: a step matching only another project's Workspaces is empty",
	  { { "deploy-dev", "env=dev" } }, 1,
	  { { "other", "env=dev", "other-project", "Pending", "allowed" } },
	  NULL, 0,
	  0, MR_OUT_NO_WORKSPACES_FOUND, "Failed", "NoWorkspacesFound",
	  "No workspaces found matching selector for step deploy-dev; halting to prevent skipping environments",
	  "False", 0, "", "", NULL, false },
	/* ---- §2.3 R-2.4 levels ---- */
	{ "§2.8 worked example: identical consecutive steps merge into one level",
	  DEVSTEPS, DEMO_WS("", "", "", "", "", ""), NULL, 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [deploy-dev, deploy-staging]", "Unknown", 0,
	  "demo-dev,demo-staging", "", "", false },
	{ "§2.8 worked example: level 1 after level 0 applied",
	  DEVSTEPS, DEMO_WS("Applied", "", "Applied", "", "Pending", ""), "Reconciling", 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [deploy-prod]", "Unknown", 2,
	  "demo-prod", "", "", true },
	{ "§2.8 worked example: all applied completes at currentStep n",
	  DEVSTEPS, DEMO_WS("Applied", "", "Applied", "", "Applied", ""), "Reconciling", 2,
	  0, MR_OUT_ROLLOUT_COMPLETED, "Applied", "RolloutCompleted", "All steps completed successfully",
	  "True", 3, "", "", NULL, false },
	{ "§6.6 #42 non-adjacent identical steps form separate levels; pass 1 grants the overlap",
	  { { "dev", "env=dev" }, { "prod", "env=prod" }, { "dev-again", "env=dev" } }, 3,
	  { { "d", "env=dev", "p", "Pending", "" }, { "q", "env=prod", "p", "Pending", "" } },
	  NULL, 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [dev]", "Unknown", 0, "d", "", "d", false },
	{ "§7 #1 overlapping selectors flap: pass 2 revokes what pass 1 granted",
	  { { "dev", "env=dev" }, { "prod", "env=prod" }, { "dev-again", "env=dev" } }, 3,
	  { { "d", "env=dev", "p", "Pending", "allowed" }, { "q", "env=prod", "p", "Pending", "" } },
	  "Reconciling", 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [dev]", "Unknown", 0, "", "d", "d", false },
	{ "§7 #1 a Workspace in two non-current levels is revoked once per level",
	  { { "web", "tier=web" }, { "dev", "env=dev" }, { "dev-web", "tier=web,env=dev" }, { "all", "{}" } }, 4,
	  { { "a", "env=dev,tier=web", "p", "Applied", "allowed" }, { "b", "env=dev", "p", "Pending", "" } },
	  NULL, 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [dev]", "Unknown", 1, "b", "a,a,a", "a,b", true },
	{ "R-2.4 sets that differ by one member do not merge",
	  { { "s1", "env=dev" }, { "s2", "{}" } }, 2,
	  { { "a", "env=dev", "p", "Pending", "" }, { "b", "env=prod", "p", "Pending", "" } },
	  NULL, 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [s1]", "Unknown", 0, "a", "", "a", false },
	/* ---- §2.3 R-3 pending ---- */
	{ "R-3 detected-revision present (even empty) makes an Applied member pending (§7 #20)",
	  { { "dev", "env=dev" }, { "prod", "env=prod" } }, 2,
	  { { "d", "env=dev", "p", "Applied", "rev=" }, { "q", "env=prod", "p", "Applied", "" } },
	  "Applied", 2,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [dev]", "Unknown", 0, "d", "", "", true },
	{ "R-3 a non-empty reconcile-request makes an Applied member pending",
	  { { "dev", "env=dev" } }, 1,
	  { { "d", "env=dev", "p", "Applied", "req=2026-01-01T00:00:00Z" } },
	  "Applied", 1,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [dev]", "Unknown", 0, "d", "", "", true },
	{ "R-3 an empty reconcile-request is no request",
	  { { "dev", "env=dev" } }, 1,
	  { { "d", "env=dev", "p", "Applied", "req=" } },
	  "Applied", 1,
	  0, MR_OUT_ROLLOUT_COMPLETED, "Applied", "RolloutCompleted", "All steps completed successfully",
	  "True", 1, "", "", NULL, false },
	{ "R-3 Planned is pending (waiting for approval keeps the level open)",
	  { { "dev", "env=dev" }, { "prod", "env=prod" } }, 2,
	  { { "d", "env=dev", "p", "Planned", "" }, { "q", "env=prod", "p", "Pending", "allowed" } },
	  NULL, 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [dev]", "Unknown", 0, "d", "q", "", false },
	{ "§2.7 a new Workspace in an earlier step rewinds and revokes later levels",
	  { { "dev", "env=dev" }, { "prod", "env=prod" } }, 2,
	  { { "d", "env=dev", "p", "Applied", "" }, { "new", "env=dev", "p", NULL, "" },
	    { "q", "env=prod", "p", "Applying", "allowed" } },
	  "Reconciling", 1,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [dev]", "Unknown", 0, "new", "q", "", true },
	/* ---- §2.3 R-5 ---- */
	{ "R-5 a Failed member halts: StepFailed, no grants, no revokes",
	  { { "dev", "env=dev" }, { "prod", "env=prod" } }, 2,
	  { { "a", "env=dev", "p", "Failed", "" }, { "b", "env=dev", "p", "Pending", "" },
	    { "q", "env=prod", "p", "Pending", "allowed" } },
	  "Reconciling", 0,
	  0, MR_OUT_STEP_FAILED, "Failed", "StepFailed", "One or more workspaces failed in level [dev]",
	  "False", 0, "", "", NULL, false },
	{ "R-5 ValidationFailed halts like Failed",
	  { { "dev", "env=dev" }, { "stg", "env=dev" } }, 2,
	  { { "a", "env=dev", "p", "ValidationFailed", "" } },
	  NULL, 0,
	  0, MR_OUT_STEP_FAILED, "Failed", "StepFailed", "One or more workspaces failed in level [dev, stg]",
	  "False", 0, "", "", NULL, false },
	{ "§2.7 a failed member of a later level is not noticed yet",
	  { { "dev", "env=dev" }, { "prod", "env=prod" } }, 2,
	  { { "a", "env=dev", "p", "Planning", "allowed" }, { "q", "env=prod", "p", "Failed", "" } },
	  "Reconciling", 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [dev]", "Unknown", 0, "", "", "", false },
	{ "§2.7 a failed member of an earlier level is pending, so its level is current",
	  { { "dev", "env=dev" }, { "prod", "env=prod" } }, 2,
	  { { "a", "env=dev", "p", "Failed", "" }, { "q", "env=prod", "p", "Applying", "allowed" } },
	  "Reconciling", 1,
	  0, MR_OUT_STEP_FAILED, "Failed", "StepFailed", "One or more workspaces failed in level [dev]",
	  "False", 0, "", "", NULL, true },
	/* ---- §2.3 R-6 / R-7 ---- */
	{ "R-6 only pending members without permission are granted",
	  { { "dev", "env=dev" } }, 1,
	  { { "a", "env=dev", "p", "Applied", "" }, { "b", "env=dev", "p", "Pending", "allowed" },
	    { "c", "env=dev", "p", "Pending", "allowed=yes" }, { "d", "env=dev", "p", "Planning", "" } },
	  NULL, 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [dev]", "Unknown", 0, "c,d", "", "", false },
	{ "R-7 revokes earlier and later levels alike, only where the value is \"true\"",
	  { { "dev", "env=dev" }, { "stg", "env=stg" }, { "prod", "env=prod" } }, 3,
	  { { "a", "env=dev", "p", "Applied", "allowed" }, { "b", "env=stg", "p", "Pending", "" },
	    { "c", "env=prod", "p", "Pending", "allowed" }, { "e", "env=prod", "p", "Pending", "allowed=1" },
	    { "x", "env=none", "p", "Pending", "allowed" } },
	  "Reconciling", 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [stg]", "Unknown", 1, "b", "a,c", "", true },
	{ "§2.7 foreign Workspaces matching the selector are never granted or revoked",
	  { { "dev", "env=dev" }, { "prod", "env=prod" } }, 2,
	  { { "a", "env=dev", "p", "Pending", "" }, { "f1", "env=dev", "other", "Pending", "" },
	    { "f2", "env=prod", "other", "Pending", "allowed" }, { "q", "env=prod", "p", "Pending", "" } },
	  NULL, 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [dev]", "Unknown", 0, "a", "", "", false },
	/* ---- §2.7 selectors ---- */
	{ "§6.6 #41 the empty selector {} matches every Workspace of the project",
	  { { "all", "{}" } }, 1,
	  { { "a", "env=dev", "p", "Pending", "" }, { "b", "", "p", NULL, "" }, { "f", "", "other", NULL, "" } },
	  NULL, 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [all]", "Unknown", 0, "a,b", "", "", false },
	{ "§2.7 a step without a selector acts as the empty selector",
	  { { "all", NULL } }, 1,
	  { { "a", "env=dev", "p", "Pending", "" } },
	  NULL, 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [all]", "Unknown", 0, "a", "", "", false },
	{ "§2.7 matchExpressions NotIn matches a missing label",
	  { { "not-prod", "expr:env:NotIn:prod" } }, 1,
	  { { "a", "", "p", "Pending", "" }, { "b", "env=prod", "p", "Pending", "" } },
	  NULL, 0,
	  0, MR_OUT_LEVEL_PROGRESSING, LP, "Executing level [not-prod]", "Unknown", 0, "a", "", "", false },
	/* ---- §2.3 R-ERR ---- */
	{ "§6.6 #40 unknown operator: ReconcileError, currentStep unchanged",
	  { { "dev", "env=dev" }, { "bad", "expr:env:Foo:a" } }, 2,
	  { { "a", "env=dev", "p", "Pending", "" } },
	  "Reconciling", 1,
	  MR_ERECONCILE, MR_OUT_RECONCILE_ERROR, "Failed", "ReconcileError",
	  "\"Foo\" is not a valid label selector operator", "False", 1, "", "", NULL, false },
	{ "R-ERR In without values",
	  { { "bad", "expr:env:In" } }, 1,
	  { { "a", "env=dev", "p", "Pending", "" } },
	  NULL, 0,
	  MR_ERECONCILE, MR_OUT_RECONCILE_ERROR, "Failed", "ReconcileError",
	  "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty", "False", 0,
	  "", "", NULL, false },
	{ "R-ERR operator names are case-sensitive",
	  { { "bad", "expr:env:in:dev" } }, 1,
	  { { "a", "env=dev", "p", "Pending", "" } },
	  NULL, 0,
	  MR_ERECONCILE, MR_OUT_RECONCILE_ERROR, "Failed", "ReconcileError",
	  "\"in\" is not a valid label selector operator", "False", 0, "", "", NULL, false },
};

static void run_case(const struct rcase *c)
{
	struct obj *ws[8];
	size_t nws = 0;
	const char *project = c->ws[0].project && strcmp(c->ws[0].project, "demo-project") == 0
				      ? "demo-project"
				      : "p";
	struct obj *ro = fx_rollout("default", project, c->steps, c->nsteps, c->stored_phase,
				    c->stored_step);
	struct mr_result r;
	char *g, *rv;
	int rc;

	for (; nws < 8 && c->ws[nws].name; nws++)
		ws[nws] = fx_workspace("default", c->ws[nws].name, c->ws[nws].labels,
				       c->ws[nws].project, c->ws[nws].phase && c->ws[nws].phase[0]
							     ? c->ws[nws].phase
							     : NULL,
				       c->ws[nws].ann);
	rc = mr_reconcile_rollout(ro, (const struct obj *const *)ws, nws, NOW, &r);
	g = fx_join(r.grant, r.ngrant);
	rv = fx_join(r.revoke, r.nrevoke);
	if (rc != c->rc || r.outcome != c->outcome || strcmp(r.want.message, c->message) != 0 ||
	    strcmp(g, c->grants) != 0 || strcmp(rv, c->revokes) != 0 ||
	    r.want.current_step != c->step)
		fprintf(stderr, "\ncase '%s': rc %d outcome %s message '%s' step %lld grants '%s' revokes '%s'\n",
			c->rule, rc, mr_outcome_name(r.outcome), r.want.message,
			(long long)r.want.current_step, g, rv);
	CU_ASSERT_EQUAL(rc, c->rc);
	CU_ASSERT_EQUAL(r.outcome, c->outcome);
	CU_ASSERT_TRUE(r.has_status);
	CU_ASSERT_STRING_EQUAL(r.want.phase, c->phase);
	CU_ASSERT_STRING_EQUAL(r.want.reason, c->reason);
	CU_ASSERT_STRING_EQUAL(r.want.message, c->message);
	CU_ASSERT_STRING_EQUAL(r.want.ready, c->ready);
	CU_ASSERT_EQUAL(r.want.current_step, c->step);
	CU_ASSERT_STRING_EQUAL(g, c->grants);
	CU_ASSERT_STRING_EQUAL(rv, c->revokes);
	if (c->overlapping) {
		char *ov = fx_join(r.overlapping, r.noverlapping);

		CU_ASSERT_STRING_EQUAL(ov, c->overlapping);
		free(ov);
	}
	if (c->outcome == MR_OUT_LEVEL_PROGRESSING || c->outcome == MR_OUT_STEP_FAILED)
		CU_ASSERT_EQUAL(r.level_transition, c->transition);
	if (c->outcome == MR_OUT_RECONCILE_ERROR)
		CU_ASSERT_STRING_EQUAL(r.error, c->message);
	/* the status to write mirrors the intent */
	CU_ASSERT_PTR_NOT_NULL_FATAL(r.status);
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(r.status, "reason"), ""), c->reason);
	CU_ASSERT_EQUAL(val_int(val_map_get(r.status, "currentStep"), -1), c->step);
	free(g);
	free(rv);
	mr_result_release(&r);
	for (size_t i = 0; i < nws; i++)
		obj_free(ws[i]);
	obj_free(ro);
}

static void test_table(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
}

/* R-0: a missing Rollout and one being deleted make no writes at all. */
static void test_r0_not_found_or_deleting(void)
{
	struct fx_step steps[] = { { "dev", "env=dev" } };
	struct obj *ws = fx_workspace("default", "a", "env=dev", "p", NULL, "");
	struct obj *ro = fx_rollout("default", "p", steps, 1, NULL, 0);
	const struct obj *list[] = { ws };
	struct mr_result r;

	CU_ASSERT_EQUAL(mr_reconcile_rollout(NULL, list, 1, NOW, &r), MR_OK);
	CU_ASSERT_EQUAL(r.outcome, MR_OUT_NONE);
	CU_ASSERT_FALSE(r.has_status);
	CU_ASSERT_PTR_NULL(r.status);
	CU_ASSERT_EQUAL(r.ngrant, 0);
	mr_result_release(&r);

	ro->deletion_ms = 5000;
	CU_ASSERT_EQUAL(mr_reconcile_rollout(ro, list, 1, NOW, &r), MR_OK);
	CU_ASSERT_EQUAL(r.outcome, MR_OUT_NONE);
	CU_ASSERT_EQUAL(r.ngrant, 0);
	CU_ASSERT_PTR_NULL(r.status);
	mr_result_release(&r);
	obj_free(ws);
	obj_free(ro);
}

/* Workspaces of another namespace in the list are not members (List InNamespace). */
static void test_other_namespace_ignored(void)
{
	struct fx_step steps[] = { { "dev", "env=dev" } };
	struct obj *a = fx_workspace("default", "a", "env=dev", "p", "Pending", "");
	struct obj *b = fx_workspace("other", "b", "env=dev", "p", "Pending", "");
	struct obj *ro = fx_rollout("default", "p", steps, 1, NULL, 0);
	const struct obj *list[] = { a, b };
	struct mr_result r;

	mr_reconcile_rollout(ro, list, 2, NOW, &r);
	CU_ASSERT_EQUAL(r.ngrant, 1);
	CU_ASSERT_STRING_EQUAL(r.grant[0], "a");
	CU_ASSERT_EQUAL(r.nlevels, 1);
	CU_ASSERT_EQUAL(r.levels[0].nmembers, 1);
	mr_result_release(&r);
	obj_free(a);
	obj_free(b);
	obj_free(ro);
}

/* Levels as built for the §2.8 sample: [0..1] {dev, staging}, [2..2] {prod}. */
static void test_levels_of_worked_example(void)
{
	struct fx_step steps[] = { { "deploy-dev", "env=dev" },
				   { "deploy-staging", "env=dev" },
				   { "deploy-prod", "env=prod" } };
	struct obj *d = fx_workspace("default", "demo-dev", "env=dev", "demo-project", NULL, "");
	struct obj *p = fx_workspace("default", "demo-prod", "env=prod", "demo-project", NULL, "");
	struct obj *s = fx_workspace("default", "demo-staging", "env=dev", "demo-project", NULL, "");
	struct obj *ro = fx_rollout("default", "demo-project", steps, 3, NULL, 0);
	const struct obj *list[] = { d, p, s };
	struct mr_result r;

	mr_reconcile_rollout(ro, list, 3, NOW, &r);
	CU_ASSERT_EQUAL_FATAL(r.nlevels, 2);
	CU_ASSERT_EQUAL(r.levels[0].start_idx, 0);
	CU_ASSERT_EQUAL(r.levels[0].end_idx, 1);
	CU_ASSERT_STRING_EQUAL(r.levels[0].names, "deploy-dev, deploy-staging");
	CU_ASSERT_EQUAL(r.levels[0].nmembers, 2);
	CU_ASSERT_EQUAL(r.levels[0].members[0], 0);
	CU_ASSERT_EQUAL(r.levels[0].members[1], 2);
	CU_ASSERT_EQUAL(r.levels[1].start_idx, 2);
	CU_ASSERT_EQUAL(r.levels[1].end_idx, 2);
	CU_ASSERT_STRING_EQUAL(r.levels[1].names, "deploy-prod");
	CU_ASSERT_EQUAL(r.current_level, 0);
	mr_result_release(&r);
	obj_free(d);
	obj_free(p);
	obj_free(s);
	obj_free(ro);
}

/* §2.4: no write when nothing changed; lastReconcileTime only on a write. */
static void test_status_write_only_on_change(void)
{
	struct fx_step steps[] = { { "dev", "env=dev" } };
	struct obj *ws = fx_workspace("default", "a", "env=dev", "p", "Pending", "allowed");
	struct obj *ro = fx_rollout("default", "p", steps, 1, NULL, 0);
	const struct obj *list[] = { ws };
	struct mr_result r;
	const struct val *c;

	mr_reconcile_rollout(ro, list, 1, "2026-01-01T00:00:01Z", &r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r.status);
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(r.status, "phase"), ""), "Reconciling");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(r.status, "message"), ""), "Executing level [dev]");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(r.status, "lastReconcileTime"), ""),
			       "2026-01-01T00:00:01Z");
	/* field order of the Go type: phase, currentStep, reason, message, lastReconcileTime, conditions */
	CU_ASSERT_STRING_EQUAL(r.status->u.map.items[0].key, "phase");
	CU_ASSERT_STRING_EQUAL(r.status->u.map.items[1].key, "currentStep");
	CU_ASSERT_STRING_EQUAL(r.status->u.map.items[5].key, "conditions");
	c = val_path(r.status, "conditions.0");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(c, "type"), ""), "Ready");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(c, "status"), ""), "Unknown");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(c, "reason"), ""), "LevelProgressing");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(c, "message"), ""), "Executing level [dev]");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(c, "lastTransitionTime"), ""),
			       "2026-01-01T00:00:01Z");
	/* store it, pass again later: nothing changes, nothing to write */
	ro->status = r.status;
	r.status = NULL;
	mr_result_release(&r);
	mr_reconcile_rollout(ro, list, 1, "2026-01-01T00:01:00Z", &r);
	CU_ASSERT_EQUAL(r.outcome, MR_OUT_LEVEL_PROGRESSING);
	CU_ASSERT_PTR_NULL(r.status);
	mr_result_release(&r);
	obj_free(ws);
	obj_free(ro);
}

/* meta.SetStatusCondition: lastTransitionTime moves only when status changes. */
static void test_condition_transition_time(void)
{
	struct val *conds = val_new_list();
	const struct val *c;

	CU_ASSERT_TRUE(mr_set_status_condition(conds, "Ready", "Unknown", "LevelProgressing",
					       "Executing level [a]", "T1"));
	CU_ASSERT_FALSE(mr_set_status_condition(conds, "Ready", "Unknown", "LevelProgressing",
						"Executing level [a]", "T2"));
	/* message changes, status does not: LTT kept */
	CU_ASSERT_TRUE(mr_set_status_condition(conds, "Ready", "Unknown", "LevelProgressing",
					       "Executing level [b]", "T3"));
	c = val_path(conds, "0");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(c, "lastTransitionTime"), ""), "T1");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(c, "message"), ""), "Executing level [b]");
	/* status changes: LTT moves */
	CU_ASSERT_TRUE(mr_set_status_condition(conds, "Ready", "True", "RolloutCompleted",
					       "All steps completed successfully", "T4"));
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(c, "lastTransitionTime"), ""), "T4");
	CU_ASSERT_EQUAL(conds->u.list.n, 1);
	/* another type is appended, the Ready entry stays first */
	CU_ASSERT_TRUE(mr_set_status_condition(conds, "Other", "True", "R", "M", "T5"));
	CU_ASSERT_EQUAL(conds->u.list.n, 2);
	/* a non-zero observedGeneration is cleared (the new condition has none) */
	val_map_set(conds->u.list.items[0], "observedGeneration", val_new_int(3));
	CU_ASSERT_TRUE(mr_set_status_condition(conds, "Ready", "True", "RolloutCompleted",
					       "All steps completed successfully", "T6"));
	CU_ASSERT_PTR_NULL(val_map_get(conds->u.list.items[0], "observedGeneration"));
	val_free(conds);
}

/* §2.4: a changed currentStep alone forces a write; unknown status fields are dropped. */
static void test_update_status_current_step(void)
{
	struct obj *o = obj_new(FX_API, "Rollout", "default", "p");
	struct mr_status_intent want = { "Applied", "RolloutCompleted",
					 (char *)"All steps completed successfully", "True", 3 };
	struct val *st, *st2;

	st = mr_update_status(o, &want, true, "T1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	val_map_set(st, "bogus", val_new_string("x"));
	o->status = st;
	want.current_step = 4;
	st2 = mr_update_status(o, &want, true, "T2");
	CU_ASSERT_PTR_NOT_NULL_FATAL(st2);
	CU_ASSERT_EQUAL(val_int(val_map_get(st2, "currentStep"), -1), 4);
	CU_ASSERT_PTR_NULL(val_map_get(st2, "bogus"));
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(st2, "lastReconcileTime"), ""), "T2");
	/* the Ready condition did not change status: its LTT is still T1 */
	CU_ASSERT_STRING_EQUAL(val_str(val_path(st2, "conditions.0.lastTransitionTime"), ""), "T1");
	/* without currentStep (the Project), a step difference is no change */
	st = mr_update_status(o, &want, false, "T3");
	CU_ASSERT_PTR_NULL(st);
	val_free(st);
	val_free(st2);
	obj_free(o);
}

/* §2.2 predicates. */
static void test_predicates(void)
{
	struct obj *a = fx_workspace("default", "a", "", "p", "Applied", "");
	struct obj *b = fx_workspace("default", "b", "", "p", "Applied", "rev=abc");
	struct obj *c = fx_workspace("default", "c", "", "p", NULL, "allowed=True");
	struct obj *d = fx_workspace("default", "d", "", "p", "ValidationFailed", "allowed");

	CU_ASSERT_TRUE(mr_workspace_fully_applied(a));
	CU_ASSERT_FALSE(mr_workspace_pending(a));
	CU_ASSERT_FALSE(mr_workspace_fully_applied(b));
	CU_ASSERT_TRUE(mr_workspace_pending(b));
	CU_ASSERT_TRUE(mr_workspace_pending(c));
	CU_ASSERT_FALSE(mr_workspace_allowed(c)); /* "True" is not "true" */
	CU_ASSERT_TRUE(mr_workspace_failed(d));
	CU_ASSERT_TRUE(mr_workspace_allowed(d));
	CU_ASSERT_FALSE(mr_workspace_failed(a));
	obj_free(a);
	obj_free(b);
	obj_free(c);
	obj_free(d);
}

/* ---- the plan: kept by member updates, it decides as a pass from scratch ---- */

static uint32_t next_rand(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) & 0x7fff;
}

/* One random change of what a pass reads of Workspace @o: phase and annotations. */
static void random_ws_change(struct obj *o, uint32_t *seed)
{
	static const char *const phases[] = { NULL, "Pending", "Planning", "Applying", "Applied",
					       "Failed", "ValidationFailed" };
	const char *ph = phases[next_rand(seed) % 7];

	switch (next_rand(seed) % 4) {
	case 0:
		val_free(o->status);
		o->status = NULL;
		if (ph) {
			o->status = val_new_map();
			val_map_set(o->status, "phase", val_new_string(ph));
		}
		break;
	case 1:
		if (next_rand(seed) % 2)
			obj_strmap_set(&o->annotations, MR_ANN_EXECUTION_ALLOWED,
				       next_rand(seed) % 4 ? "true" : "yes");
		else
			obj_strmap_del(&o->annotations, MR_ANN_EXECUTION_ALLOWED);
		break;
	case 2:
		if (next_rand(seed) % 2)
			obj_strmap_set(&o->annotations, MR_ANN_DETECTED_REVISION,
				       next_rand(seed) % 2 ? "abc" : "");
		else
			obj_strmap_del(&o->annotations, MR_ANN_DETECTED_REVISION);
		break;
	default:
		if (next_rand(seed) % 2)
			obj_strmap_set(&o->annotations, MR_ANN_RECONCILE_REQUEST,
				       next_rand(seed) % 2 ? "r1" : "");
		else
			obj_strmap_del(&o->annotations, MR_ANN_RECONCILE_REQUEST);
		break;
	}
}

static void same_names(char **a, size_t na, char **b, size_t nb)
{
	char *x = fx_join(a, na), *y = fx_join(b, nb);

	CU_ASSERT_STRING_EQUAL(x, y);
	free(x);
	free(y);
}

/* The result of a plan pass and of a pass from scratch agree in everything. */
static void same_result(const struct mr_result *a, int rca, const struct mr_result *b, int rcb)
{
	CU_ASSERT_EQUAL(rca, rcb);
	CU_ASSERT_EQUAL(a->outcome, b->outcome);
	CU_ASSERT_EQUAL(a->has_status, b->has_status);
	if (a->has_status && b->has_status) {
		CU_ASSERT_STRING_EQUAL(a->want.phase, b->want.phase);
		CU_ASSERT_STRING_EQUAL(a->want.reason, b->want.reason);
		CU_ASSERT_STRING_EQUAL(a->want.message, b->want.message);
		CU_ASSERT_STRING_EQUAL(a->want.ready, b->want.ready);
		CU_ASSERT_EQUAL(a->want.current_step, b->want.current_step);
	}
	CU_ASSERT_EQUAL(a->current_level, b->current_level);
	CU_ASSERT_EQUAL(a->level_transition, b->level_transition);
	CU_ASSERT_EQUAL(a->nlevels, b->nlevels);
	for (size_t l = 0; l < a->nlevels && l < b->nlevels; l++) {
		CU_ASSERT_STRING_EQUAL(a->levels[l].names, b->levels[l].names);
		CU_ASSERT_EQUAL(a->levels[l].nmembers, b->levels[l].nmembers);
	}
	same_names(a->grant, a->ngrant, b->grant, b->ngrant);
	same_names(a->revoke, a->nrevoke, b->revoke, b->nrevoke);
	same_names(a->overlapping, a->noverlapping, b->overlapping, b->noverlapping);
	CU_ASSERT_TRUE(val_equal(a->status, b->status));
}

/* Returns how many of its passes granted or revoked something. */
static size_t plan_property_run(uint32_t seed)
{
	static const char *const sels[] = { "env=dev", "env=prod", "tier=web", "{}",
					     "env=dev,tier=web", "expr:env:In:dev|qa",
					     "expr:tier:DoesNotExist", "env=none" };
	static const char *const labels[] = { "env=dev", "env=prod", "env=qa", "env=dev,tier=web",
					       "env=prod,tier=web", "tier=db", "" };
	enum { NWS = 14 };
	struct fx_step steps[6];
	char names[6][24], wsname[NWS][24];
	struct obj *ws[NWS], *ro;
	struct mr_plan *plan;
	size_t nsteps = 1 + next_rand(&seed) % 6, passes = 0;

	for (size_t i = 0; i < nsteps; i++) {
		snprintf(names[i], sizeof(names[i]), "s%zu", i);
		steps[i].name = names[i];
		steps[i].sel = sels[next_rand(&seed) % (next_rand(&seed) % 5 ? 7 : 8)];
	}
	for (size_t j = 0; j < NWS; j++) {
		snprintf(wsname[j], sizeof(wsname[j]), "w%02zu", j);
		ws[j] = fx_workspace(next_rand(&seed) % 8 ? "default" : "other", wsname[j],
				     labels[next_rand(&seed) % 7],
				     next_rand(&seed) % 8 ? "p" : "q", NULL, "");
		random_ws_change(ws[j], &seed);
	}
	ro = fx_rollout("default", "p", steps, nsteps, "Reconciling", next_rand(&seed) % 3);
	plan = mr_plan_new(ro, (const struct obj *const *)ws, NWS, NULL, 0);
	for (int round = 0; round < 60; round++) {
		struct mr_result a, b;
		int rca, rcb;

		/* a few changes, each told to the plan */
		for (uint32_t c = next_rand(&seed) % 3; c > 0; c--) {
			size_t j = next_rand(&seed) % NWS;

			random_ws_change(ws[j], &seed);
			mr_plan_update(plan, j, ws[j]);
		}
		rca = mr_reconcile_rollout_plan(ro, plan, (const struct obj *const *)ws, NOW, &a);
		rcb = mr_reconcile_rollout(ro, (const struct obj *const *)ws, NWS, NOW, &b);
		CU_ASSERT_TRUE(a.borrowed);
		CU_ASSERT_FALSE(b.borrowed);
		same_result(&a, rca, &b, rcb);
		passes += a.outcome == MR_OUT_LEVEL_PROGRESSING && (a.ngrant || a.nrevoke);
		mr_result_release(&a);
		mr_result_release(&b);
	}
	mr_plan_free(plan);
	for (size_t j = 0; j < NWS; j++)
		obj_free(ws[j]);
	obj_free(ro);
	return passes;
}

/*
 * A plan told of every status and annotation change decides what a pass
 * from scratch decides: outcomes, messages, grants, revokes (repeated per
 * level), the overlap report and the status, over random steps
 * (overlapping, empty, invalid-free), Workspaces of other namespaces and
 * projects, and random phases and annotations.
 */
static void test_plan_property(void)
{
	size_t acting = 0;

	for (uint32_t seed = 1; seed <= 300; seed++)
		acting += plan_property_run(seed * 2654435761u);
	/* the cases reach the grant and revoke paths, not only the early stops */
	CU_ASSERT_TRUE(acting > 1000);
}

/* A plan over candidates sees exactly what a plan over the whole List sees. */
static void test_plan_candidates(void)
{
	struct fx_step steps[] = { { "dev", "env=dev" }, { "prod", "env=prod" } };
	struct obj *ws[] = {
		fx_workspace("default", "a", "env=dev", "p", "Pending", ""),
		fx_workspace("default", "b", "env=dev", "q", "Pending", ""),
		fx_workspace("other", "c", "env=prod", "p", "Pending", ""),
		fx_workspace("default", "d", "env=prod", "p", "Applied", "allowed"),
	};
	const size_t cand[] = { 0, 3 };
	struct obj *ro = fx_rollout("default", "p", steps, 2, NULL, 0);
	struct mr_plan *p = mr_plan_new(ro, (const struct obj *const *)ws, 4, cand, 2);
	struct mr_result r;
	char *g, *rv;

	CU_ASSERT_EQUAL(mr_reconcile_rollout_plan(ro, p, (const struct obj *const *)ws, NOW, &r),
			MR_OK);
	CU_ASSERT_EQUAL(r.outcome, MR_OUT_LEVEL_PROGRESSING);
	g = fx_join(r.grant, r.ngrant);
	rv = fx_join(r.revoke, r.nrevoke);
	CU_ASSERT_STRING_EQUAL(g, "a");
	CU_ASSERT_STRING_EQUAL(rv, "d");
	free(g);
	free(rv);
	mr_result_release(&r);
	/* a applied: the prod level is current and d keeps its permission */
	val_free(ws[0]->status);
	ws[0]->status = fx_yaml("{phase: Applied}");
	obj_strmap_set(&ws[0]->annotations, MR_ANN_EXECUTION_ALLOWED, "true");
	mr_plan_update(p, 0, ws[0]);
	obj_strmap_set(&ws[3]->annotations, MR_ANN_DETECTED_REVISION, "abc");
	mr_plan_update(p, 3, ws[3]);
	mr_plan_update(p, 1, ws[1]); /* not a member: ignored */
	mr_reconcile_rollout_plan(ro, p, (const struct obj *const *)ws, NOW, &r);
	CU_ASSERT_STRING_EQUAL(r.want.message, "Executing level [prod]");
	g = fx_join(r.grant, r.ngrant);
	rv = fx_join(r.revoke, r.nrevoke);
	CU_ASSERT_STRING_EQUAL(g, "");
	CU_ASSERT_STRING_EQUAL(rv, "a");
	free(g);
	free(rv);
	mr_result_release(&r);
	mr_plan_free(p);
	for (size_t i = 0; i < 4; i++)
		obj_free(ws[i]);
	obj_free(ro);
}

/* 10 000 steps of one selector join into one level name without a copy per step. */
static void test_plan_many_steps_one_level(void)
{
	enum { N = 10000 };
	struct fx_step *steps = calloc(N, sizeof(*steps));
	char (*names)[24] = calloc(N, sizeof(*names));
	struct obj *ws = fx_workspace("default", "a", "env=dev", "p", "Pending", "");
	struct obj *ro;
	struct mr_result r;
	const char *msg;

	for (size_t i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "s%zu", i);
		steps[i].name = names[i];
		steps[i].sel = "env=dev";
	}
	ro = fx_rollout("default", "p", steps, N, NULL, 0);
	mr_reconcile_rollout(ro, (const struct obj *const *)&ws, 1, NOW, &r);
	CU_ASSERT_EQUAL(r.nlevels, 1);
	CU_ASSERT_EQUAL(r.levels[0].end_idx, N - 1);
	msg = r.want.message;
	CU_ASSERT_EQUAL(strncmp(msg, "Executing level [s0, s1, s2, ", 29), 0);
	CU_ASSERT_EQUAL(strcmp(msg + strlen(msg) - 13, "s9998, s9999]"), 0);
	mr_result_release(&r);
	obj_free(ro);
	obj_free(ws);
	free(steps);
	free(names);
}

static CU_TestInfo tests[] = {
	{ "given/when/then table (§2.3, §2.5, §2.7, §6.6, §7)", test_table },
	{ "R-0 not found or being deleted", test_r0_not_found_or_deleting },
	{ "R-2.2 other namespaces are not listed", test_other_namespace_ignored },
	{ "§2.8 levels of the worked example", test_levels_of_worked_example },
	{ "§2.4 status written only on change", test_status_write_only_on_change },
	{ "§1.1 Ready condition lastTransitionTime", test_condition_transition_time },
	{ "§2.4 currentStep and unknown fields", test_update_status_current_step },
	{ "§2.2 applied / pending / failed / allowed", test_predicates },
	{ "plan kept by member updates decides as a pass from scratch (randomized)",
	  test_plan_property },
	{ "plan over candidate Workspaces", test_plan_candidates },
	{ "R-2.4 10 000 identical steps make one level", test_plan_many_steps_one_level },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("magos_rollout", tests);
}
