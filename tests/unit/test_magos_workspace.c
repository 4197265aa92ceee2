/*
 * Conformance tests of engine/magos_workspace (spec §4) and an end-to-end run
 * of sim/wire/magos_wc with a fake Job runner (spec §6.6 scenarios 30, 32, 34, 35,
 * 36, 37).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/magos_workspace.h"
#include "engine/xalloc.h"
#include "sim/cluster/apiserver.h"
#include "sim/world/controllers.h"
#include "sim/world/des.h"
#include "sim/base/gotime.h"
#include "sim/wire/magos_wc.h"
#include "sim/core/timeline.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define NOW 1000000 /* simulated ms of the engine tests */

/* ---- builders ------------------------------------------------------------ */

static struct val *str(const char *s)
{
	return val_new_string(s);
}

/* The Workspace of the engine tests: fx_tf_workspace("demo") with the finalizer and @phase. */
static struct obj *mk_ws(const char *phase)
{
	struct obj *o = fx_tf_workspace("demo");

	obj_add_finalizer(o, MW_FINALIZER);
	o->status = val_new_map();
	if (phase)
		val_map_set(o->status, "phase", str(phase));
	return o;
}

enum jstate { J_RUNNING, J_OK, J_FAILED, J_VIOLATED, J_FAILED_NOCOND };

static struct obj *mk_job(const char *name, enum jstate s)
{
	struct obj *j = obj_new("batch/v1", "Job", "default", name);
	struct val *conds = val_new_list(), *c = val_new_map();

	obj_strmap_set(&j->labels, MW_LABEL_WORKSPACE, "demo");
	j->status = val_new_map();
	val_map_set(j->status, "startTime", str("2026-01-01T00:00:00Z"));
	switch (s) {
	case J_RUNNING:
		val_map_set(j->status, "active", val_new_int(1));
		break;
	case J_OK:
		val_map_set(j->status, "succeeded", val_new_int(1));
		val_map_set(j->status, "completionTime", str("2026-01-01T00:01:00Z"));
		val_map_set(c, "type", str("Complete"));
		break;
	case J_FAILED:
	case J_VIOLATED:
	case J_FAILED_NOCOND:
		val_map_set(j->status, "failed", val_new_int(1));
		val_map_set(c, "type", str("Failed"));
		break;
	}
	if (s != J_RUNNING && s != J_FAILED_NOCOND) {
		val_map_set(c, "status", str("True"));
		val_list_push(conds, c);
		val_map_set(j->status, "conditions", conds);
	} else {
		val_free(c);
		val_free(conds);
	}
	if (s == J_VIOLATED) {
		struct val *res = val_new_map(), *v = val_new_list(), *log = val_new_map();

		for (int i = 0; i < 2; i++) {
			struct val *e = val_new_map();

			val_map_set(e, "policy", str(i ? "p2" : "p1"));
			val_map_set(e, "message", str("bad"));
			val_list_push(v, e);
		}
		val_map_set(res, "passed", val_new_bool(false));
		val_map_set(res, "violations", v);
		val_map_set(log, "result", res);
		j->rest = val_new_map();
		val_map_set(j->rest, "podLog", log);
	}
	return j;
}

/* A pass: Workspace @ws (owned), plan/apply jobs (owned, may be NULL). */
struct pass {
	struct obj *ws, *plan, *apply, *pvc, *project;
	const struct obj *jobs[4];
	struct mw_input in;
	struct mw_result r;
	char hash[9];
};

static void pass_init(struct pass *f, struct obj *ws)
{
	memset(f, 0, sizeof(*f));
	f->ws = ws;
	mw_get_spec_hash(ws->spec, f->hash);
	f->pvc = obj_new("v1", "PersistentVolumeClaim", "default", "demo-data");
	f->in.sched.interval_ms = MW_DEFAULT_INTERVAL_MS;
	f->in.sched.interval_str = "3m0s";
	f->in.sched.has_next = true;
	f->in.sched.next_ms = NOW + 60000; /* not due */
	f->in.now_ms = NOW;
	f->in.now_rfc3339 = "2026-01-01T00:16:40Z";
	f->in.run_id_stamp = "20260101T001640";
	f->in.run_id_rand = 0x0badcafe;
	mw_result_init(&f->r);
}

static void pass_jobs(struct pass *f, enum jstate *plan, enum jstate *apply)
{
	char *n;

	mw_get_spec_hash(f->ws->spec, f->hash);
	if (plan) {
		n = mw_job_name("demo", "plan", f->hash);
		f->plan = mk_job(n, *plan);
		free(n);
	}
	if (apply) {
		n = mw_job_name("demo", "apply", f->hash);
		f->apply = mk_job(n, *apply);
		free(n);
	}
}

static int pass_run(struct pass *f)
{
	size_t k = 0;

	f->in.ws = f->ws;
	f->in.plan_job = f->plan;
	f->in.apply_job = f->apply;
	f->in.pvc = f->pvc;
	f->in.project = f->project;
	if (f->plan)
		f->jobs[k++] = f->plan;
	if (f->apply)
		f->jobs[k++] = f->apply;
	f->in.jobs = f->jobs;
	f->in.njobs = k;
	return mw_reconcile(&f->in, &f->r);
}

static void pass_release(struct pass *f)
{
	mw_result_release(&f->r);
	obj_free(f->ws);
	obj_free(f->plan);
	obj_free(f->apply);
	obj_free(f->pvc);
	obj_free(f->project);
}

/* The action types of the result as a string, e.g. "D D S U". */
static const char *acts(const struct pass *f)
{
	static char buf[128];
	static const char code[] = { 'F', 'R', 'U', 'P', 'S', 'C', 'D' };
	size_t k = 0;

	for (size_t i = 0; i < f->r.n && k + 2 < sizeof(buf); i++) {
		if (k)
			buf[k++] = ' ';
		buf[k++] = code[f->r.acts[i].type];
	}
	buf[k] = '\0';
	return buf;
}

static const struct mw_action *find_act(const struct pass *f, enum mw_act_type t)
{
	for (size_t i = 0; i < f->r.n; i++)
		if (f->r.acts[i].type == t)
			return &f->r.acts[i];
	return NULL;
}

static void set_ann(struct obj *o, const char *k, const char *v)
{
	obj_strmap_set(&o->annotations, k, v);
}

/* Checks the (only) status request of the result. */
static void expect_status(const struct pass *f, const char *phase, const char *reason,
			  const char *message, const char *cond)
{
	const struct mw_action *a = find_act(f, MW_ACT_STATUS);

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_STRING_EQUAL(a->st.phase, phase);
	CU_ASSERT_STRING_EQUAL(a->st.reason, reason);
	CU_ASSERT_STRING_EQUAL(a->st.message, message);
	CU_ASSERT_STRING_EQUAL(a->st.cond, cond);
}

static const char *CFG_MSG = "Workspace spec was modified or jobs were deleted, triggering fresh execution";

/* ---- §4.2 outer reconcile ------------------------------------------------- */

static void test_4_2_finalizer_first(void)
{
	struct pass f;
	struct obj *ws = mk_ws(NULL);

	obj_remove_finalizer(ws, MW_FINALIZER);
	pass_init(&f, ws);
	CU_ASSERT_EQUAL(pass_run(&f), MW_OK);
	CU_ASSERT_STRING_EQUAL(acts(&f), "F");
	CU_ASSERT_EQUAL(f.r.acts[0].on_fail, MW_FAIL_RETURN);
	CU_ASSERT_FALSE(f.r.schedule);
	pass_release(&f);
}

static void test_4_2_deletion(void)
{
	struct pass f;
	struct obj *ws = mk_ws("Applied");

	ws->deletion_ms = 5000;
	pass_init(&f, ws);
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "S R");
	expect_status(&f, "Deleting", "Deleting", "Workspace is being deleted", "False");
	CU_ASSERT_FALSE(f.r.schedule);
	pass_release(&f);
}

static void test_4_2_schedule_fields(void)
{
	struct pass f;

	pass_init(&f, mk_ws(NULL));
	f.in.sched.has_next = false;
	pass_run(&f);
	CU_ASSERT_TRUE(f.r.schedule);
	CU_ASSERT_EQUAL(f.r.next_ms, NOW + 180000);
	CU_ASSERT_EQUAL(f.r.requeue_after_ms, 180000);
	CU_ASSERT_STRING_EQUAL(f.r.interval_str, "3m0s");
	pass_release(&f);
}

static void test_4_2_reconcile_error_status(void)
{
	struct pass f;
	struct mw_status_req st;
	const struct mw_action *c;

	pass_init(&f, mk_ws("Pending"));
	set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "true");
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "C S");
	c = find_act(&f, MW_ACT_CREATE);
	CU_ASSERT_EQUAL(c->on_fail, MW_FAIL_RECONCILE_ERROR);
	mw_error_status(c, "jobs.batch \"x\" already exists", &st);
	CU_ASSERT_STRING_EQUAL(st.phase, "Failed");
	CU_ASSERT_STRING_EQUAL(st.reason, "ReconcileError");
	CU_ASSERT_STRING_EQUAL(st.message, "jobs.batch \"x\" already exists");
	CU_ASSERT_STRING_EQUAL(st.cond, "False");
	CU_ASSERT_STRING_EQUAL(st.mem.run_id, "20260101T001640-0badcafe");
	mw_status_req_release(&st);
	pass_release(&f);
}

/* ---- §4.5 / §4.3 pass outcomes ------------------------------------------- */

static void test_4_7_awaiting_rollout_only_when_new(void)
{
	struct pass f;

	pass_init(&f, mk_ws(NULL));
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "S");
	expect_status(&f, "Pending", "AwaitingRollout",
		      "Waiting for the Rollout controller to schedule this Workspace for execution",
		      "Unknown");
	pass_release(&f);

	/* Planning without permission: frozen, no write. */
	pass_init(&f, mk_ws("Planning"));
	pass_jobs(&f, &(enum jstate){ J_OK }, NULL);
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "");
	CU_ASSERT_EQUAL(f.r.requeue_after_ms, 60000);
	pass_release(&f);

	/* A value other than "true" is no permission. */
	pass_init(&f, mk_ws("Pending"));
	set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "yes");
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "");
	pass_release(&f);
}

static void test_4_3_plan_creation(void)
{
	struct pass f;
	const struct mw_action *c;
	const struct val *env;
	bool saw_sel = false;

	pass_init(&f, mk_ws("Pending"));
	obj_free(f.pvc);
	f.pvc = NULL;
	set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "true");
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "C C S");
	CU_ASSERT_STRING_EQUAL(f.r.acts[0].obj->kind, "PersistentVolumeClaim");
	CU_ASSERT_STRING_EQUAL(f.r.acts[0].obj->name, "demo-data");
	c = &f.r.acts[1];
	CU_ASSERT_STRING_EQUAL(c->obj->kind, "Job");
	CU_ASSERT_TRUE(strncmp(c->obj->name, "demo-plan-", 10) == 0);
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&c->obj->labels, MW_LABEL_JOB_TYPE), "plan");
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&c->obj->labels, MW_LABEL_RUN_ID),
			       "20260101T001640-0badcafe");
	CU_ASSERT_EQUAL(val_int(val_map_get(c->obj->spec, "activeDeadlineSeconds"), 0), 86400);
	CU_ASSERT_EQUAL(val_int(val_map_get(c->obj->spec, "backoffLimit"), -1), 0);
	env = val_path(c->obj->spec, "template.spec.containers.0.env");
	CU_ASSERT_PTR_NOT_NULL_FATAL(env);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(env, "0.name"), ""), "REPO_URL");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(env, "4.value"), ""), "plan");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(env, "6.name"), ""), "TF_PATH");
	for (size_t i = 0; i < env->u.list.n; i++)
		saw_sel |= strcmp(val_str(val_path(env->u.list.items[i], "name"), ""),
				  "MAGOS_POLICY_SELECTOR") == 0;
	CU_ASSERT_FALSE(saw_sel);
	expect_status(&f, "Planning", "PlanJobCreated", "Terraform Plan job created", "Unknown");
	CU_ASSERT_TRUE(f.r.used_run_rand);
	/* First run: trigger left empty (§7 #22). */
	CU_ASSERT_PTR_NULL(f.r.acts[2].st.mem.run_trigger && *f.r.acts[2].st.mem.run_trigger
				   ? f.r.acts[2].st.mem.run_trigger
				   : NULL);
	pass_release(&f);
}

static void test_4_3_plan_running_and_apply(void)
{
	struct pass f;

	pass_init(&f, mk_ws("Planning"));
	set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "true");
	pass_jobs(&f, &(enum jstate){ J_RUNNING }, NULL);
	pass_run(&f);
	expect_status(&f, "Planning", "Planning", "Terraform Plan execution is running", "Unknown");
	pass_release(&f);

	pass_init(&f, mk_ws("Planning"));
	set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "true");
	val_map_set(f.ws->status, "currentRunID", str("20250101T000000-00000001"));
	pass_jobs(&f, &(enum jstate){ J_OK }, NULL);
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "C S");
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&f.r.acts[0].obj->labels, MW_LABEL_RUN_ID),
			       "20250101T000000-00000001");
	CU_ASSERT_FALSE(f.r.used_run_rand);
	expect_status(&f, "Applying", "ApplyJobCreated", "Terraform Apply job created", "Unknown");
	pass_release(&f);

	pass_init(&f, mk_ws("Applying"));
	set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "true");
	pass_jobs(&f, &(enum jstate){ J_OK }, &(enum jstate){ J_RUNNING });
	pass_run(&f);
	expect_status(&f, "Applying", "Applying", "Terraform Apply execution is running", "Unknown");
	pass_release(&f);
}

static void test_4_3_step8_success(void)
{
	struct pass f;
	const struct mw_action *p;
	const struct val *anns;

	pass_init(&f, mk_ws("Applying"));
	set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "true");
	set_ann(f.ws, MW_ANN_DETECTED_REVISION, "abc123");
	set_ann(f.ws, MW_ANN_RECONCILE_REQUEST, "now");
	pass_jobs(&f, &(enum jstate){ J_OK }, &(enum jstate){ J_OK });
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "S P");
	expect_status(&f, "Applied", "ApplySucceeded", "Terraform Apply completed successfully",
		      "True");
	CU_ASSERT_STRING_EQUAL(find_act(&f, MW_ACT_STATUS)->st.mem.observed_revision, "abc123");
	p = find_act(&f, MW_ACT_PATCH_META);
	anns = val_map_get(p->patch, "annotations");
	CU_ASSERT_EQUAL(anns->u.map.n, 3);
	CU_ASSERT_EQUAL(val_map_get(anns, MW_ANN_DETECTED_REVISION)->type, VAL_NULL);
	pass_release(&f);

	/* Without a detected revision: observedRevision = targetRevision; empty values stay. */
	pass_init(&f, mk_ws("Applying"));
	set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "true");
	set_ann(f.ws, MW_ANN_DETECTED_REVISION, "");
	pass_jobs(&f, &(enum jstate){ J_OK }, &(enum jstate){ J_OK });
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(find_act(&f, MW_ACT_STATUS)->st.mem.observed_revision, "main");
	anns = val_map_get(find_act(&f, MW_ACT_PATCH_META)->patch, "annotations");
	CU_ASSERT_EQUAL(anns->u.map.n, 1);
	CU_ASSERT_PTR_NULL(val_map_get(anns, MW_ANN_DETECTED_REVISION));
	pass_release(&f);
}

/* ---- §4.6 reset rules, in order ------------------------------------------ */

struct reset_case {
	const char *name;
	const char *phase;
	int plan, apply;      /* -1: absent, else enum jstate */
	bool due;
	const char *detected; /* NULL: absent */
	const char *observed; /* status.observedRevision */
	const char *request;
	bool allowed;
	const char *reason;   /* NULL: no reset */
	const char *trigger;
	const char *acts;
};

static const struct reset_case reset_cases[] = {
	{ "rule1 ConfigurationChanged from Applied", "Applied", -1, -1, false, NULL, NULL, NULL,
	  false, "ConfigurationChanged", "configuration", "S" },
	{ "rule1 with permission: Update removes it", "Failed", -1, -1, false, NULL, NULL, NULL,
	  true, "ConfigurationChanged", "configuration", "S U" },
	{ "rule1 not from Planning", "Planning", -1, -1, false, NULL, NULL, NULL, false, NULL,
	  NULL, "" },
	{ "rule1 not from Pending", "Pending", -1, -1, false, NULL, NULL, NULL, false, NULL, NULL,
	  "" },
	{ "rule1 before revision", "Applied", -1, -1, false, "sha2", "sha1", NULL, false,
	  "ConfigurationChanged", "configuration", "S" },
	{ "rule2 ScheduledReconcile", "Applied", J_OK, J_OK, true, NULL, NULL, NULL, false,
	  "ScheduledReconcile", "scheduled", "D D S" },
	{ "rule2 RetryApply", "Failed", J_OK, J_FAILED, true, NULL, NULL, NULL, false,
	  "RetryApply", "retry", "D D S" },
	{ "rule2 RetryPlan", "Failed", J_FAILED, -1, true, NULL, NULL, NULL, false, "RetryPlan",
	  "retry", "D S" },
	{ "rule2 RetryPlan from ValidationFailed", "ValidationFailed", J_VIOLATED, -1, true, NULL,
	  NULL, NULL, false, "RetryPlan", "retry", "D S" },
	{ "rule2 ignores phase (Applying)", "Applying", J_OK, J_OK, true, NULL, NULL, NULL, true,
	  "ScheduledReconcile", "scheduled", "D D S U" },
	{ "rule2 not due: no reset", "Applied", J_OK, J_OK, false, NULL, NULL, NULL, false, NULL,
	  NULL, "" },
	{ "rule2 failed without condition: no retry", "Failed", J_FAILED_NOCOND, -1, true, NULL,
	  NULL, NULL, false, NULL, NULL, "" },
	{ "rule2 before revision", "Applied", J_OK, J_OK, true, "sha2", "sha1", NULL, false,
	  "ScheduledReconcile", "scheduled", "D D S" },
	{ "rule3 NewRevisionDetected", "Applied", J_OK, J_OK, false, "sha2", "sha1", NULL, false,
	  "NewRevisionDetected", "revision", "D D S" },
	{ "rule3 same revision: nothing", "Applied", J_OK, J_OK, false, "sha1", "sha1", NULL,
	  false, NULL, NULL, "" },
	{ "rule3 empty value counts", "Applied", J_OK, J_OK, false, "", "main", NULL, false,
	  "NewRevisionDetected", "revision", "D D S" },
	{ "rule3 before rule4", "Failed", J_FAILED, -1, false, "sha2", "sha1", "r1", false,
	  "NewRevisionDetected", "revision", "D S" },
	{ "rule3 ignored in ValidationFailed", "ValidationFailed", J_VIOLATED, -1, false, "sha2",
	  "sha1", "r1", false, NULL, NULL, "" },
	{ "rule3 ignored in Planned", "Planned", J_OK, -1, false, "sha2", "sha1", NULL, false, NULL,
	  NULL, "" },
	{ "rule4 ManualReconcileRequested", "Applied", J_OK, J_OK, false, NULL, NULL, "r1", false,
	  "ManualReconcileRequested", "manual", "D D S" },
	{ "rule4 from new Workspace", "", -1, -1, false, NULL, NULL, "r1", false,
	  "ManualReconcileRequested", "manual", "S" },
	{ "rule4 ignored while Pending", "Pending", -1, -1, false, NULL, NULL, "r1", false, NULL,
	  NULL, "" },
};

static void test_4_6_reset_rules(void)
{
	for (size_t i = 0; i < sizeof(reset_cases) / sizeof(reset_cases[0]); i++) {
		const struct reset_case *c = &reset_cases[i];
		struct pass f;
		enum jstate ps = (enum jstate)c->plan, as = (enum jstate)c->apply;
		const struct mw_action *st;

		pass_init(&f, mk_ws(*c->phase ? c->phase : NULL));
		pass_jobs(&f, c->plan >= 0 ? &ps : NULL, c->apply >= 0 ? &as : NULL);
		if (c->due)
			f.in.sched.next_ms = NOW - 1000;
		if (c->detected)
			set_ann(f.ws, MW_ANN_DETECTED_REVISION, c->detected);
		if (c->observed)
			val_map_set(f.ws->status, "observedRevision", str(c->observed));
		if (c->request)
			set_ann(f.ws, MW_ANN_RECONCILE_REQUEST, c->request);
		if (c->allowed && !c->reason)
			; /* a non-reset case with permission would run the plan; not used */
		else if (c->allowed)
			set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "true");
		pass_run(&f);
		st = find_act(&f, MW_ACT_STATUS);
		if (strcmp(acts(&f), c->acts) != 0)
			fprintf(stderr, "\n%s: actions \"%s\", want \"%s\"\n", c->name, acts(&f),
				c->acts);
		CU_ASSERT_STRING_EQUAL(acts(&f), c->acts);
		if (c->reason) {
			CU_ASSERT_PTR_NOT_NULL_FATAL(st);
			CU_ASSERT_STRING_EQUAL(st->st.phase, "Pending");
			CU_ASSERT_STRING_EQUAL(st->st.reason, c->reason);
			CU_ASSERT_STRING_EQUAL(st->st.cond, "Unknown");
			CU_ASSERT_STRING_EQUAL(st->st.mem.run_trigger, c->trigger);
			CU_ASSERT_STRING_EQUAL(st->st.mem.run_id, "20260101T001640-0badcafe");
			if (strcmp(c->reason, "ConfigurationChanged") == 0)
				CU_ASSERT_STRING_EQUAL(st->st.message, CFG_MSG);
			if (strcmp(c->reason, "NewRevisionDetected") == 0) {
				char want[64];

				snprintf(want, sizeof(want), "RefWatcher detected new revision %s",
					 c->detected);
				CU_ASSERT_STRING_EQUAL(st->st.message, want);
			}
			if (strcmp(c->reason, "ManualReconcileRequested") == 0)
				CU_ASSERT_STRING_EQUAL(st->st.message,
						       "Manual reconcile requested at r1");
		} else if (st) {
			CU_FAIL("unexpected status write");
		}
		pass_release(&f);
	}
}

static void test_4_6_messages(void)
{
	static const struct { int plan, apply; const char *msg; } cases[] = {
		{ J_OK, J_OK, "Starting scheduled reconciliation" },
		{ J_OK, J_FAILED, "Retrying failed apply starting from new plan" },
		{ J_FAILED, -1, "Retrying failed plan" },
	};

	for (size_t i = 0; i < 3; i++) {
		struct pass f;
		enum jstate ps = (enum jstate)cases[i].plan, as = (enum jstate)cases[i].apply;

		pass_init(&f, mk_ws("Failed"));
		pass_jobs(&f, &ps, cases[i].apply >= 0 ? &as : NULL);
		f.in.sched.next_ms = NOW;
		pass_run(&f);
		CU_ASSERT_STRING_EQUAL(find_act(&f, MW_ACT_STATUS)->st.message, cases[i].msg);
		pass_release(&f);
	}
}

/* ---- §4.8 approval, §4.9 failures ------------------------------------------ */

static void test_4_8_manual_approval(void)
{
	struct pass f;
	const struct val *anns;

	pass_init(&f, mk_ws("Planning"));
	val_map_set(f.ws->spec, "autoApply", val_new_bool(false));
	set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "true");
	set_ann(f.ws, MW_ANN_APPROVED, "yes");
	pass_jobs(&f, &(enum jstate){ J_OK }, NULL);
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "S");
	expect_status(&f, "Planned", "PlanSucceeded",
		      "Terraform Plan succeeded. Waiting for manual approval to Apply.", "True");
	pass_release(&f);

	pass_init(&f, mk_ws("Planned"));
	val_map_set(f.ws->spec, "autoApply", val_new_bool(false));
	set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "true");
	set_ann(f.ws, MW_ANN_APPROVED, "true");
	pass_jobs(&f, &(enum jstate){ J_OK }, NULL);
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "P C S");
	anns = val_map_get(f.r.acts[0].patch, "annotations");
	CU_ASSERT_EQUAL(anns->u.map.n, 1);
	CU_ASSERT_PTR_NOT_NULL(val_map_get(anns, MW_ANN_APPROVED));
	expect_status(&f, "Applying", "ApplyJobCreated", "Terraform Apply job created", "Unknown");
	pass_release(&f);

	/* Approved without permission: nothing happens (§4.8). */
	pass_init(&f, mk_ws("Planned"));
	val_map_set(f.ws->spec, "autoApply", val_new_bool(false));
	set_ann(f.ws, MW_ANN_APPROVED, "true");
	pass_jobs(&f, &(enum jstate){ J_OK }, NULL);
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "");
	pass_release(&f);
}

static void test_4_9_failures(void)
{
	struct pass f;
	const struct val *anns;
	const struct mw_action *st;

	pass_init(&f, mk_ws("Planning"));
	set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "true");
	set_ann(f.ws, MW_ANN_RECONCILE_REQUEST, "r1");
	pass_jobs(&f, &(enum jstate){ J_FAILED }, NULL);
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "S P");
	expect_status(&f, "Failed", "PlanFailed", "Terraform Plan execution failed", "False");
	anns = val_map_get(find_act(&f, MW_ACT_PATCH_META)->patch, "annotations");
	CU_ASSERT_EQUAL(anns->u.map.n, 2);
	pass_release(&f);

	pass_init(&f, mk_ws("Applying"));
	set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "true");
	pass_jobs(&f, &(enum jstate){ J_OK }, &(enum jstate){ J_FAILED });
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "S P");
	expect_status(&f, "Failed", "ApplyFailed", "Terraform Apply execution failed", "False");
	pass_release(&f);

	/* §4.12: violations → ValidationFailed/PolicyViolation with the list. */
	pass_init(&f, mk_ws("Planning"));
	set_ann(f.ws, MW_ANN_EXECUTION_ALLOWED, "true");
	pass_jobs(&f, &(enum jstate){ J_VIOLATED }, NULL);
	pass_run(&f);
	expect_status(&f, "ValidationFailed", "PolicyViolation", "Plan violated 2 policy rule(s)",
		      "False");
	st = find_act(&f, MW_ACT_STATUS);
	CU_ASSERT_EQUAL(st->st.mem.violations->u.list.n, 2);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(st->st.mem.violations, "1.policy"), ""), "p2");
	pass_release(&f);

	/* §7 #23: failed without the condition while not allowed stays "running" forever. */
	pass_init(&f, mk_ws("Failed"));
	pass_jobs(&f, &(enum jstate){ J_FAILED_NOCOND }, NULL);
	f.in.sched.next_ms = NOW;
	pass_run(&f);
	CU_ASSERT_STRING_EQUAL(acts(&f), "");
	pass_release(&f);
}

/*
 * owned() - @j with the controller reference of Workspace "demo" (uid
 * "ws-uid"), as the controller sets it; @ws gets that uid.
 */
static struct obj *owned(struct obj *j, struct obj *ws)
{
	free(ws->uid);
	ws->uid = xstrdup("ws-uid");
	obj_add_controller_ref(j, ws);
	return j;
}

static void test_4_3_orphan_cleanup(void)
{
	struct pass f;
	struct obj *old = mk_job("demo-plan-00000000", J_OK);
	struct obj *other = mk_job("demo-plan-11111111", J_OK);

	pass_init(&f, mk_ws("Applied"));
	owned(old, f.ws);
	f.jobs[0] = old;
	f.in.ws = f.ws;
	f.in.jobs = f.jobs;
	f.in.njobs = 1;
	f.in.pvc = f.pvc;
	mw_reconcile(&f.in, &f.r);
	/* Orphan deleted, then ConfigurationChanged (§6.6 #37). */
	CU_ASSERT_STRING_EQUAL(acts(&f), "D S");
	CU_ASSERT_STRING_EQUAL(f.r.acts[0].key, "demo-plan-00000000");
	pass_release(&f);

	/* Not while Planning (§7 #12). */
	pass_init(&f, mk_ws("Planning"));
	f.jobs[0] = old;
	f.in.ws = f.ws;
	f.in.jobs = f.jobs;
	f.in.njobs = 1;
	mw_reconcile(&f.in, &f.r);
	CU_ASSERT_STRING_EQUAL(acts(&f), "");
	pass_release(&f);

	/* isOwned is the UID: a Job with the label but another owner is left alone. */
	pass_init(&f, mk_ws("Applied"));
	free(f.ws->uid);
	f.ws->uid = xstrdup("ws-uid");
	{
		struct obj *prev = obj_new("magosproject.io/v1alpha1", "Workspace", "default", "demo");

		free(prev->uid);
		prev->uid = xstrdup("old-ws-uid");
		obj_add_controller_ref(other, prev);
		obj_free(prev);
	}
	f.jobs[0] = other;
	f.in.ws = f.ws;
	f.in.jobs = f.jobs;
	f.in.njobs = 1;
	f.in.pvc = f.pvc;
	mw_reconcile(&f.in, &f.r);
	CU_ASSERT_STRING_EQUAL(acts(&f), "S");
	pass_release(&f);
	obj_free(old);
	obj_free(other);
}

/* The Job and the PVC carry the Workspace's controller reference (SetControllerReference). */
static void test_controller_reference(void)
{
	struct obj *ws = mk_ws("Pending");
	struct obj *job;
	const struct val *ref;

	free(ws->uid);
	ws->uid = xstrdup("ws-uid");
	job = mw_construct_job_for_workspace(ws, "demo-plan-abc", "plan", "/p", "r", NULL, NULL);
	ref = obj_controller_ref(job);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ref);
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ref, "apiVersion"), ""), "magosproject.io/v1alpha1");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ref, "kind"), ""), "Workspace");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ref, "name"), ""), "demo");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ref, "uid"), ""), "ws-uid");
	CU_ASSERT(val_map_get(ref, "blockOwnerDeletion")->u.b);
	CU_ASSERT_EQUAL(job->owner_refs->u.list.n, 1);
	CU_ASSERT(obj_owned_by_uid(job, "ws-uid"));
	CU_ASSERT(!obj_owned_by_uid(job, "other"));
	CU_ASSERT(!obj_owned_by_uid(job, ""));
	/* a second controller is refused, as AlreadyOwnedError */
	CU_ASSERT_EQUAL(obj_add_controller_ref(job, ws), -1);
	CU_ASSERT_EQUAL(job->owner_refs->u.list.n, 1);
	obj_free(job);
	obj_free(ws);
}

/* ---- §4.4 schedule maths ---------------------------------------------------- */

struct sched_case {
	const char *name;
	int64_t interval;
	const char *istr;
	bool has_next;
	int64_t next;
	const char *observed;
	int64_t observed_ms; /* 0: parse failed */
	int64_t now;
	int rc;
	int64_t want_next;
	bool want_due;
};

static const struct sched_case sched_cases[] = {
	{ "first pass", 180000, "3m0s", false, 0, "", 0, 5000, MW_OK, 185000, false },
	{ "not due keeps N", 180000, "3m0s", true, 180000, "3m0s", 180000, 100000, MW_OK, 180000,
	  false },
	{ "due at N exactly", 180000, "3m0s", true, 180000, "3m0s", 180000, 180000, MW_OK, 360000,
	  true },
	{ "late reconcile keeps the grid", 180000, "3m0s", true, 180000, "3m0s", 180000, 600000,
	  MW_OK, 720000, true },
	{ "re-anchor 3m -> 2m", 120000, "2m0s", true, 360000, "3m0s", 180000, 200000, MW_OK,
	  300000, false },
	{ "re-anchor 3m -> 30s not due", 30000, "30s", true, 360000, "3m0s", 180000, 200000,
	  MW_OK, 210000, false },
	{ "re-anchor due at once", 30000, "30s", true, 360000, "3m0s", 180000, 350000, MW_OK,
	  360000, true },
	{ "same String(): no re-anchor", 180000, "3m0s", true, 500000, "3m0s", 180000, 100000,
	  MW_OK, 500000, false },
	{ "unparseable observed: no re-anchor", 120000, "2m0s", true, 500000, "3 min", 0, 100000,
	  MW_OK, 500000, false },
	{ "interval 0, first pass", 0, "0s", false, 0, "", 0, 5000, MW_OK, 5000, false },
	{ "interval 0 hangs (§7 #19)", 0, "0s", true, 5000, "0s", 0, 5000, MW_EHANG, 0, true },
	{ "negative interval hangs", -60000, "-1m0s", true, 1000, "-1m0s", 0, 5000, MW_EHANG, 0,
	  true },
	{ "interval 0 with N ahead: no loop", 0, "0s", true, 9000, "0s", 0, 5000, MW_OK, 9000,
	  false },
	{ "re-anchor onto 0s hangs", 0, "0s", true, 360000, "3m0s", 180000, 200000, MW_EHANG, 0,
	  true },
};

static void test_4_4_schedule(void)
{
	for (size_t i = 0; i < sizeof(sched_cases) / sizeof(sched_cases[0]); i++) {
		const struct sched_case *c = &sched_cases[i];
		struct mw_sched s = { c->interval, c->istr, c->has_next, c->next,
				      c->observed_ms != 0, c->observed_ms };
		int64_t next = -1;
		bool due = !c->want_due;
		int rc = mw_compute_next_reconcile_time(&s, c->observed, c->now, &next, &due);

		if (rc != c->rc || (rc == MW_OK && (next != c->want_next || due != c->want_due)))
			fprintf(stderr, "\n%s: rc %d next %lld due %d\n", c->name, rc,
				(long long)next, due);
		CU_ASSERT_EQUAL(rc, c->rc);
		if (rc == MW_OK) {
			CU_ASSERT_EQUAL(next, c->want_next);
			CU_ASSERT_EQUAL(due, c->want_due);
		}
	}
}

/* The observedReconcileInterval strings the comparison depends on (sim/base/gotime). */
static void test_4_4_duration_string(void)
{
	static const struct { int64_t ms; const char *s; } cases[] = {
		{ 180000, "3m0s" }, { 120000, "2m0s" }, { 2700000, "45m0s" }, { 30000, "30s" },
		{ 3600000, "1h0m0s" }, { 90000, "1m30s" }, { 500, "500ms" }, { 0, "0s" },
	};
	char buf[GT_DURATION_BUFSZ];
	int64_t ms;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		gt_format_duration(cases[i].ms, buf, sizeof(buf));
		CU_ASSERT_STRING_EQUAL(buf, cases[i].s);
	}
	/* "120s" parses to the interval whose String() is "2m0s": no re-anchor against "2m0s". */
	CU_ASSERT_EQUAL(gt_parse_duration("120s", &ms, NULL, 0), 0);
	gt_format_duration(ms, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "2m0s");
}

static void test_4_4_exact_requeue_when_gated(void)
{
	struct pass f;

	pass_init(&f, mk_ws("Applied"));
	pass_jobs(&f, &(enum jstate){ J_OK }, &(enum jstate){ J_OK });
	f.in.sched.next_ms = NOW + 42000;
	pass_run(&f);
	CU_ASSERT_EQUAL(f.r.requeue_after_ms, 42000);
	CU_ASSERT_EQUAL(f.r.next_ms, NOW + 42000);
	pass_release(&f);
}

static void test_7_hang_outcome(void)
{
	struct pass f;

	pass_init(&f, mk_ws("Applied"));
	set_ann(f.ws, MW_ANN_RECONCILE_INTERVAL, "0s");
	f.in.sched.interval_ms = 0;
	f.in.sched.interval_str = "0s";
	f.in.sched.next_ms = NOW - 5;
	pass_jobs(&f, &(enum jstate){ J_OK }, &(enum jstate){ J_OK });
	CU_ASSERT_EQUAL(pass_run(&f), MW_EHANG);
	CU_ASSERT_EQUAL(f.r.outcome, MW_OUT_HANG);
	CU_ASSERT_FALSE(f.r.schedule);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f.r.hang_msg);
	CU_ASSERT_PTR_NOT_NULL(strstr(f.r.hang_msg, "default/demo"));
	CU_ASSERT_PTR_NOT_NULL(strstr(f.r.hang_msg, "\"0s\""));
	pass_release(&f);
}

/* ---- updateStatus ------------------------------------------------------------ */

static void test_4_3_update_status(void)
{
	struct mw_status_req req = { "Planning", "Planning", (char *)"m", "Unknown", { 0 } };
	struct val *s1, *s2, *s3;
	const struct val *c;

	s1 = mw_update_status(NULL, &req, "T1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s1);
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(s1, "lastReconcileTime"), ""), "T1");
	c = val_path(s1, "conditions.0");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(c, "lastTransitionTime"), ""), "T1");
	/* Nothing changed: no write. */
	CU_ASSERT_PTR_NULL(mw_update_status(s1, &req, "T2"));
	/* Same condition status: lastTransitionTime kept. */
	req.phase = "Applying";
	req.reason = "Applying";
	s2 = mw_update_status(s1, &req, "T3");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(s2, "conditions.0.lastTransitionTime"), ""), "T1");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(s2, "conditions.0.reason"), ""), "Applying");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(s2, "lastReconcileTime"), ""), "T3");
	/* In-memory violations force a write outside Pending/Planning. */
	req.mem.violations = val_new_list();
	val_list_push(req.mem.violations, val_new_map());
	s3 = mw_update_status(s2, &req, "T4");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s3);
	CU_ASSERT_EQUAL(val_map_get(s3, "policyViolations")->u.list.n, 1);
	/* ... and are cleared by a Planning write. */
	req.phase = "Planning";
	{
		struct val *s4 = mw_update_status(s3, &req, "T5");

		CU_ASSERT_PTR_NULL(val_map_get(s4, "policyViolations"));
		CU_ASSERT_STRING_EQUAL(val_str(val_path(s4, "conditions.0.lastTransitionTime"), ""),
				       "T1");
		val_free(s4);
	}
	val_free(req.mem.violations);
	val_free(s1);
	val_free(s2);
	val_free(s3);
}

/* ---- §1.5 hash, §4.12 selector, run IDs ---------------------------------------- */

static void test_1_5_spec_hash(void)
{
	struct obj *ws = mk_ws(NULL);
	struct val *sel = val_new_map(), *ml = val_new_map(), *v = val_new_map();
	char h1[9], h2[9];

	/* samples/workspace-dev.yaml; expected = sha256 of the Go encoding, computed offline. */
	val_map_set(ws->spec, "projectRef", val_new_map());
	val_map_set(val_map_get(ws->spec, "projectRef"), "name", str("demo-project"));
	val_map_set(val_map_get(ws->spec, "source"), "repoURL",
		    str("https://github.com/magosproject/demo.git"));
	val_map_set(val_map_get(ws->spec, "terraform"), "tfvarsPath",
		    str("env/staging/vars.tfvars"));
	val_map_set(ml, "policy.magosproject.io/category", str("security"));
	val_map_set(sel, "matchLabels", ml);
	val_map_set(v, "policySelector", sel);
	val_map_set(ws->spec, "validation", v);
	val_map_set(ws->spec, "unknownField", str("dropped by Go's decoder"));
	mw_get_spec_hash(ws->spec, h1);
	CU_ASSERT_STRING_EQUAL(h1, "20a44d06");
	/* autoApply is part of the hash (§7 #25). */
	val_map_set(ws->spec, "autoApply", val_new_bool(false));
	mw_get_spec_hash(ws->spec, h2);
	CU_ASSERT_STRING_NOT_EQUAL(h1, h2);
	obj_free(ws);

	/* Sorted map keys, HTML escaping, omitempty, timeoutSeconds, empty validation. */
	{
		struct val *s = val_new_map(), *a = val_new_map(), *pl = val_new_map();
		struct val *src = val_new_map(), *tf = val_new_map(), *ref = val_new_map();
		char h[9];

		val_map_set(ref, "name", str("p"));
		val_map_set(s, "projectRef", ref);
		val_map_set(s, "autoApply", val_new_bool(false));
		val_map_set(a, "b", str("1"));
		val_map_set(a, "a", str("x<y"));
		val_map_set(s, "annotations", a);
		val_map_set(pl, "timeoutSeconds", val_new_int(600));
		val_map_set(s, "plan", pl);
		val_map_set(src, "repoURL", str("r"));
		val_map_set(src, "targetRevision", str("main"));
		val_map_set(s, "source", src);
		val_map_set(tf, "version", str("1.5"));
		val_map_set(s, "terraform", tf);
		val_map_set(s, "validation", val_new_map());
		mw_get_spec_hash(s, h);
		CU_ASSERT_STRING_EQUAL(h, "eaa0f556");
		val_free(s);
	}
}

static void test_4_12_policy_selector(void)
{
	struct obj *ws = mk_ws(NULL);
	struct obj *proj = obj_new("magosproject.io/v1alpha1", "Project", "default", "proj");
	struct val *pv = val_new_map(), *psel = val_new_map(), *pml = val_new_map();
	char *s;

	val_map_set(pml, "tier", str("gold"));
	val_map_set(psel, "matchLabels", pml);
	val_map_set(pv, "policySelector", psel);
	proj->spec = val_new_map();
	val_map_set(proj->spec, "validation", pv);

	/* No Workspace selector: the Project's. */
	s = mw_resolve_effective_policy_selector(ws, proj);
	CU_ASSERT_STRING_EQUAL(s, "tier=gold");
	free(s);
	/* No Project: none. */
	s = mw_resolve_effective_policy_selector(ws, NULL);
	CU_ASSERT_STRING_EQUAL(s, "");
	free(s);
	/* validation: {} (nil selector) falls back to the Project (§7 #21). */
	val_map_set(ws->spec, "validation", val_new_map());
	s = mw_resolve_effective_policy_selector(ws, proj);
	CU_ASSERT_STRING_EQUAL(s, "tier=gold");
	free(s);
	/* policySelector: {} wins and turns validation off. */
	val_map_set(val_map_get(ws->spec, "validation"), "policySelector", val_new_map());
	s = mw_resolve_effective_policy_selector(ws, proj);
	CU_ASSERT_STRING_EQUAL(s, "");
	free(s);
	/* A Workspace selector with expressions, sorted. */
	{
		struct val *sel = val_new_map(), *ml = val_new_map(), *me = val_new_list();
		struct val *e = val_new_map(), *vs = val_new_list();

		val_map_set(ml, "z", str("1"));
		val_map_set(sel, "matchLabels", ml);
		val_map_set(e, "key", str("a"));
		val_map_set(e, "operator", str("In"));
		val_list_push(vs, str("y"));
		val_list_push(vs, str("x"));
		val_map_set(e, "values", vs);
		val_list_push(me, e);
		val_map_set(sel, "matchExpressions", me);
		val_map_set(val_map_get(ws->spec, "validation"), "policySelector", sel);
		s = mw_resolve_effective_policy_selector(ws, proj);
		CU_ASSERT_STRING_EQUAL(s, "a in (x,y),z=1");
		free(s);
		/* An invalid operator: no validation. */
		val_map_set(e, "operator", str("Foo"));
		s = mw_resolve_effective_policy_selector(ws, proj);
		CU_ASSERT_STRING_EQUAL(s, "");
		free(s);
	}
	/* The plan Job carries it; the apply Job never. */
	val_map_del(ws->spec, "validation");
	{
		struct obj *j = mw_construct_job_for_workspace(ws, "demo-plan-x", "plan", "/f", "id",
							       proj, NULL);
		const struct val *env = val_path(j->spec, "template.spec.containers.0.env");
		const struct val *last = env->u.list.items[env->u.list.n - 1];

		CU_ASSERT_STRING_EQUAL(val_str(val_map_get(last, "name"), ""), "MAGOS_POLICY_SELECTOR");
		CU_ASSERT_STRING_EQUAL(val_str(val_map_get(last, "value"), ""), "tier=gold");
		obj_free(j);
		j = mw_construct_job_for_workspace(ws, "demo-apply-x", "apply", "/f", "id", proj,
						   NULL);
		env = val_path(j->spec, "template.spec.containers.0.env");
		last = env->u.list.items[env->u.list.n - 1];
		CU_ASSERT_STRING_EQUAL(val_str(val_map_get(last, "name"), ""), "TF_PATH");
		obj_free(j);
	}
	obj_free(ws);
	obj_free(proj);
}

static void test_run_id_and_triggers(void)
{
	char *id = mw_new_run_id("20260426T100000", 0xabc);

	CU_ASSERT_STRING_EQUAL(id, "20260426T100000-00000abc");
	free(id);
	CU_ASSERT_STRING_EQUAL(mw_run_trigger_from_reset_reason("ConfigurationChanged"),
			       "configuration");
	CU_ASSERT_STRING_EQUAL(mw_run_trigger_from_reset_reason("RetryPlan"), "retry");
	CU_ASSERT_STRING_EQUAL(mw_run_trigger_from_reset_reason("RetryApply"), "retry");
	CU_ASSERT_STRING_EQUAL(mw_run_trigger_from_reset_reason("ManualReconcileRequested"),
			       "manual");
	CU_ASSERT_STRING_EQUAL(mw_run_trigger_from_reset_reason("Other"), "unknown");
}

/* ---- end to end: sim/wire/magos_wc with a fake Job runner ------------------------------ */

#define ANCHOR 1767225600000LL /* 2026-01-01T00:00:00Z */

static char n_good[] = "good", n_bad[] = "bad", n_manual[] = "manual";

static void allow(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	des_set_cause(w, "test grant");
	api_set_annotation(des_api(w), "Workspace", "default", arg, MW_ANN_EXECUTION_ALLOWED,
			   "true");
}

/* First time the Workspace's status shows @reason, or -1. */
static int64_t first_reason(struct tl *tl, const char *name, const char *reason, size_t *from)
{
	for (size_t i = from ? *from : 0; i < tl_count(tl); i++) {
		struct tl_entry e;

		tl_get(tl, i, &e);
		if (strcmp(e.kind, "Workspace") == 0 && strcmp(e.name, name) == 0 && e.reason &&
		    strcmp(e.reason, reason) == 0) {
			if (from)
				*from = i;
			return e.t_ms;
		}
	}
	return -1;
}

static void create_ws(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	api_create(des_api(w), fx_tf_workspace(arg));
}

static void test_e2e_happy_path_and_retry(void)
{
	struct des *w = des_new(NULL);
	struct fx_runner r;
	struct mwc_params p = { .anchor_unix_ms = ANCHOR, .no_refwatcher = true };
	struct mwc *m;
	struct tl *tl = des_timeline(w);
	const struct obj *ws;
	size_t at = 0;
	char want[64];

	fx_runner_start(&r, w, ANCHOR, 5000);
	m = mwc_register(w, &p);
	api_create(des_api(w), fx_tf_workspace("good"));
	des_at(w, 10000, DES_PRIO_SCRIPT, allow, NULL, n_good);
	des_run(w, 60000, NULL);

	/* §6.6 #30: the status sequence of one Workspace. */
	CU_ASSERT_EQUAL(first_reason(tl, "good", "AwaitingRollout", &at), 0);
	CU_ASSERT_EQUAL(first_reason(tl, "good", "PlanJobCreated", &at), 10000);
	CU_ASSERT_EQUAL(first_reason(tl, "good", "ApplyJobCreated", &at), 15000);
	CU_ASSERT_EQUAL(first_reason(tl, "good", "ApplySucceeded", &at), 20000);
	ws = api_get(des_api(w), "Workspace", "default", "good");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "phase"), ""), "Applied");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "observedRevision"), ""), "main");
	CU_ASSERT_PTR_NULL(obj_strmap_get(&ws->annotations, MW_ANN_EXECUTION_ALLOWED));
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "nextReconcileTime"), ""),
			       "2026-01-01T00:03:00Z");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "observedReconcileInterval"), ""),
			       "3m0s");
	CU_ASSERT_EQUAL(strlen(val_str(val_map_get(ws->status, "currentRunID"), "")), 24);
	CU_ASSERT_TRUE(strncmp(val_str(val_map_get(ws->status, "currentRunID"), ""),
			       "20260101T000010-", 16) == 0);
	CU_ASSERT_PTR_NOT_NULL(api_get(des_api(w), "PersistentVolumeClaim", "default", "good-data"));

	/* §6.6 #36: at the grid tick (3 min) the Applied Workspace resets to Pending. */
	des_run(w, 200000, NULL);
	CU_ASSERT_EQUAL(first_reason(tl, "good", "ScheduledReconcile", &at), 180000);
	ws = api_get(des_api(w), "Workspace", "default", "good");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "currentRunTrigger"), ""),
			       "scheduled");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "nextReconcileTime"), ""),
			       "2026-01-01T00:06:00Z");

	/* §6.6 #32: a plan failure, then RetryPlan at the next grid tick, not 3 min later. */
	r.plan_failures = 1;
	des_at(w, 200000, DES_PRIO_SCRIPT, create_ws, NULL, n_bad);
	des_at(w, 210000, DES_PRIO_SCRIPT, allow, NULL, n_bad);
	des_run(w, 400000, NULL);
	at = 0;
	CU_ASSERT_EQUAL(first_reason(tl, "bad", "AwaitingRollout", &at), 200000);
	CU_ASSERT_EQUAL(first_reason(tl, "bad", "PlanJobCreated", &at), 210000);
	CU_ASSERT_EQUAL(first_reason(tl, "bad", "PlanFailed", &at), 215000);
	/* Grid anchored at creation: 200 s + 180 s. */
	CU_ASSERT_EQUAL(first_reason(tl, "bad", "RetryPlan", &at), 380000);
	ws = api_get(des_api(w), "Workspace", "default", "bad");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "phase"), ""), "Pending");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "currentRunTrigger"), ""), "retry");
	CU_ASSERT_PTR_NULL(obj_strmap_get(&ws->annotations, MW_ANN_EXECUTION_ALLOWED));
	/* The failed plan Job was deleted by the reset. */
	snprintf(want, sizeof(want), "bad-plan-");
	{
		struct api_list l;

		api_list_init(&l);
		api_list(des_api(w), "Job", "default", NULL, NULL, &l);
		for (size_t i = 0; i < l.n; i++)
			CU_ASSERT_TRUE(strncmp(l.items[i]->name, want, strlen(want)) != 0);
		api_list_release(&l);
	}
	/* Re-granted, the retry succeeds. */
	des_at(w, 400000, DES_PRIO_SCRIPT, allow, NULL, n_bad);
	des_run(w, 420000, NULL);
	CU_ASSERT_EQUAL(first_reason(tl, "bad", "ApplySucceeded", &at), 410000);

	des_free(w);
	mwc_free(m);
}

static void edit_spec(struct des *w, void *ctx, void *arg)
{
	const struct obj *cur = api_get(des_api(w), "Workspace", "default", arg);
	struct obj *o = obj_copy(cur);

	(void)ctx;
	val_map_set(val_map_get(o->spec, "terraform"), "version", val_new_string("1.15.0"));
	o->resource_version = 0;
	api_update(des_api(w), o);
}

static void approve(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	api_set_annotation(des_api(w), "Workspace", "default", arg, MW_ANN_APPROVED, "true");
}

static void set_interval(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	api_set_annotation(des_api(w), "Workspace", "default", arg, MW_ANN_RECONCILE_INTERVAL,
			   "0s");
}

/* §6.6 #34 (approval) and #37 (spec edit), §7 #19 (hang reported, not hung). */
static void test_e2e_approval_edit_hang(void)
{
	struct des *w = des_new(NULL);
	struct fx_runner r;
	struct mwc_params p = { .anchor_unix_ms = ANCHOR, .no_refwatcher = true };
	struct mwc *m;
	struct tl *tl = des_timeline(w);
	struct obj *o = fx_tf_workspace("manual");
	const struct obj *ws;
	size_t at = 0;
	struct tl_notice n;

	fx_runner_start(&r, w, ANCHOR, 5000);
	m = mwc_register(w, &p);
	val_map_set(o->spec, "autoApply", val_new_bool(false));
	api_create(des_api(w), o);
	des_at(w, 1000, DES_PRIO_SCRIPT, allow, NULL, n_manual);
	des_at(w, 30000, DES_PRIO_SCRIPT, approve, NULL, n_manual);
	des_run(w, 60000, NULL);
	CU_ASSERT_EQUAL(first_reason(tl, "manual", "PlanSucceeded", &at), 6000);
	CU_ASSERT_EQUAL(first_reason(tl, "manual", "ApplyJobCreated", &at), 30000);
	CU_ASSERT_EQUAL(first_reason(tl, "manual", "ApplySucceeded", &at), 35000);
	ws = api_get(des_api(w), "Workspace", "default", "manual");
	CU_ASSERT_PTR_NULL(obj_strmap_get(&ws->annotations, MW_ANN_APPROVED));

	/* #37: a spec edit on the Applied Workspace → ConfigurationChanged, old Jobs deleted. */
	des_at(w, 70000, DES_PRIO_SCRIPT, edit_spec, NULL, n_manual);
	des_run(w, 80000, NULL);
	CU_ASSERT_EQUAL(first_reason(tl, "manual", "ConfigurationChanged", &at), 70000);
	ws = api_get(des_api(w), "Workspace", "default", "manual");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "currentRunTrigger"), ""),
			       "configuration");
	CU_ASSERT_EQUAL(api_count(des_api(w), "Job"), 0);

	/*
	 * §7 #19: interval 0s → error notice naming the Workspace, the run goes
	 * on and ends quietly: the annotation's event made the key's pending
	 * requeue ready (one queue entry per key), and the pass it ran hangs, as
	 * upstream's would, so nothing is left to run.
	 */
	des_at(w, 90000, DES_PRIO_SCRIPT, set_interval, NULL, n_manual);
	CU_ASSERT_EQUAL(des_run(w, 100000, NULL), DES_QUIESCENT);
	CU_ASSERT_TRUE(mwc_is_hung(m, "default", "manual"));
	/* The single worker is stuck: every other Workspace stops too. */
	CU_ASSERT_TRUE(mwc_is_hung(m, "default", "any-other-workspace"));
	n.severity = TL_INFO;
	for (size_t i = 0; i < tl_notice_count(tl) && n.severity != TL_ERROR; i++)
		tl_notice_get(tl, i, &n);
	CU_ASSERT_EQUAL_FATAL(n.severity, TL_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(n.text, "default/manual"));
	CU_ASSERT_EQUAL(n.t_ms, 90000);

	des_free(w);
	mwc_free(m);
}

void register_tests(void)
{
	static CU_TestInfo engine[] = {
		{ "4.2 finalizer first", test_4_2_finalizer_first },
		{ "4.2 deletion", test_4_2_deletion },
		{ "4.2 schedule fields", test_4_2_schedule_fields },
		{ "4.2 ReconcileError status", test_4_2_reconcile_error_status },
		{ "4.7 AwaitingRollout only when new", test_4_7_awaiting_rollout_only_when_new },
		{ "4.3 plan creation", test_4_3_plan_creation },
		{ "4.3 plan running, apply creation", test_4_3_plan_running_and_apply },
		{ "4.3 step 8 success", test_4_3_step8_success },
		{ "4.3 orphan cleanup", test_4_3_orphan_cleanup },
		{ "Job and PVC controller reference", test_controller_reference },
		{ "4.3 updateStatus", test_4_3_update_status },
		{ "4.6 reset rules in order", test_4_6_reset_rules },
		{ "4.6 reset messages", test_4_6_messages },
		{ "4.8 manual approval", test_4_8_manual_approval },
		{ "4.9 failures", test_4_9_failures },
		{ "4.4 schedule grid", test_4_4_schedule },
		{ "4.4 Duration.String()", test_4_4_duration_string },
		{ "4.4 exact requeue when gated", test_4_4_exact_requeue_when_gated },
		{ "7 #19 interval <= 0", test_7_hang_outcome },
		{ "1.5 spec hash", test_1_5_spec_hash },
		{ "4.12 policy selector", test_4_12_policy_selector },
		{ "run IDs and triggers", test_run_id_and_triggers },
		CU_TEST_INFO_NULL,
	};
	static CU_TestInfo e2e[] = {
		{ "6.6 #30 #32 #36 happy path, retry at grid tick", test_e2e_happy_path_and_retry },
		{ "6.6 #34 #37, 7 #19", test_e2e_approval_edit_hang },
		CU_TEST_INFO_NULL,
	};

	CU_ADD_SUITE("magos_workspace", engine);
	CU_ADD_SUITE("magos_workspace_e2e", e2e);
}
