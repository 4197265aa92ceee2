/*
 * The Rollout and Project controllers wired into a world (sim/wire/magos_rc),
 * driven by scripted Workspace status changes instead of a Workspace
 * controller: a script patches a Workspace's status to Applied / Failed /
 * Pending (and removes execution-allowed where the Workspace itself would),
 * and the tests watch the Rollout advance, the grants and revokes land on the
 * right Workspaces at the right times, and the Project switch modes.
 *
 * Cases are named after spec §2.8 (the worked example on the real sample
 * manifests), §6.6 scenarios 31, 32, 38, 39, 40, 42, §2.1 / §3.1 triggers
 * and the §7 quirks they exercise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/magos_project.h"
#include "engine/magos_rollout.h"
#include "engine/xalloc.h"
#include "sim/cluster/apiserver.h"
#include "sim/world/controllers.h"
#include "sim/world/des.h"
#include "sim/wire/magos_rc.h"
#include "sim/load/scenario.h"
#include "sim/core/timeline.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define START_MS 1767225600000LL /* 2026-01-01T00:00:00Z */

/* ---- recording what happens ------------------------------------------------ */

static const char *st(const struct obj *o, const char *k)
{
	return o ? val_str(val_map_get(o->status, k), "") : "";
}

/* Rollout status changes: "<t ms> <reason> | <message> | <currentStep>". */
static void watch_rollout(void *ctx, enum api_event_type type, const struct obj *old,
			  const struct obj *new)
{
	struct fx_rec *r = ctx;

	if (type == API_DELETED)
		return;
	if (old && strcmp(st(old, "reason"), st(new, "reason")) == 0 &&
	    strcmp(st(old, "message"), st(new, "message")) == 0 &&
	    val_int(val_map_get(old->status, "currentStep"), -1) ==
		    val_int(val_map_get(new->status, "currentStep"), -1))
		return;
	if (!new->status)
		return;
	fx_rec_add(r, xasprintf("%lld %s | %s | %lld", (long long)des_now(r->w), st(new, "reason"),
				st(new, "message"),
				(long long)val_int(val_map_get(new->status, "currentStep"), -1)));
}

/* Permission changes on Workspaces: "<t ms> +name" / "<t ms> -name". */
static void watch_ws(void *ctx, enum api_event_type type, const struct obj *old,
		     const struct obj *new)
{
	struct fx_rec *r = ctx;
	bool was = old && mr_workspace_allowed(old);
	bool is = type != API_DELETED && mr_workspace_allowed(new);

	if (was != is)
		fx_rec_add(r, xasprintf("%lld %c%s", (long long)des_now(r->w), is ? '+' : '-',
					new->name));
}

/* Project status changes: "<t ms> <reason>". */
static void watch_project(void *ctx, enum api_event_type type, const struct obj *old,
			  const struct obj *new)
{
	struct fx_rec *r = ctx;

	if (type == API_DELETED) {
		fx_rec_add(r, xasprintf("%lld deleted", (long long)des_now(r->w)));
		return;
	}
	if (old && strcmp(st(old, "reason"), st(new, "reason")) == 0)
		return;
	if (new->status)
		fx_rec_add(r, xasprintf("%lld %s", (long long)des_now(r->w), st(new, "reason")));
}

/*
 * The @k-th notice (0-based) whose text starts with "Rollout ", into @out;
 * returns how many such notices there are (the runtime adds its own, e.g. at
 * the horizon).
 */
static size_t rollout_notice(struct des *w, size_t k, struct tl_notice *out)
{
	size_t found = 0;

	for (size_t i = 0; i < tl_notice_count(des_timeline(w)); i++) {
		struct tl_notice n;

		tl_notice_get(des_timeline(w), i, &n);
		if (strncmp(n.text, "Rollout ", 8) != 0)
			continue;
		if (found++ == k)
			*out = n;
	}
	return found;
}

/* ---- a world with both controllers and recorders ---------------------------- */

struct fixture {
	struct des *w;
	struct mrc *m;
	struct fx_rec ro, ws, pr;
};

static void setup(struct fixture *f, int64_t latency_ms)
{
	struct mrc_params mp = { START_MS };

	f->w = fx_des_new(0, latency_ms);
	f->m = mrc_register(f->w, &mp);
	fx_rec_watch(&f->ro, f->w, "Rollout", watch_rollout);
	fx_rec_watch(&f->ws, f->w, "Workspace", watch_ws);
	fx_rec_watch(&f->pr, f->w, "Project", watch_project);
}

static void teardown(struct fixture *f)
{
	des_free(f->w);
	mrc_free(f->m);
	fx_rec_release(&f->ro);
	fx_rec_release(&f->ws);
	fx_rec_release(&f->pr);
}

/* ---- scripted Workspace behaviour -------------------------------------------- */

struct act {
	const char *ws;
	const char *phase;
};

/*
 * What the Workspace controller would write at the end of a run: the phase
 * (status first), then, for Applied and Failed, the merge patch removing its
 * permission (WC Step 8 / failure path); for Pending (a reset) the Update
 * removing it (§4.6 step 4).
 */
static void set_phase(struct des *w, void *ctx, void *arg)
{
	const struct act *a = arg;
	struct val *patch = val_new_map();

	(void)ctx;
	val_map_set(patch, "phase", val_new_string(a->phase));
	CU_ASSERT_EQUAL(api_patch_status(des_api(w), "Workspace", "default", a->ws, patch), 0);
	val_free(patch);
	if (strcmp(a->phase, "Applied") == 0 || strcmp(a->phase, "Failed") == 0 ||
	    strcmp(a->phase, "Pending") == 0)
		api_set_annotation(des_api(w), "Workspace", "default", a->ws,
				   MR_ANN_EXECUTION_ALLOWED, NULL);
}

static void at(struct fixture *f, int64_t t, const struct act *a)
{
	des_at(f->w, t, DES_PRIO_SCRIPT, set_phase, NULL, (void *)a);
}

/* ---- §2.8 worked example on the real sample manifests ------------------------ */

static void test_worked_example_samples(void)
{
	char *dir = xasprintf("%s/magos-samples/", cu_shared());
	const char *paths[] = { dir };
	static const struct act dev = { "demo-dev", "Applied" };
	static const struct act stg = { "demo-staging", "Applied" };
	static const struct act prod = { "demo-prod", "Applied" };
	static const char *const want_ro[] = {
		"0 LevelProgressing | Executing level [deploy-dev, deploy-staging] | 0",
		"20000 LevelProgressing | Executing level [deploy-prod] | 2",
		"30000 RolloutCompleted | All steps completed successfully | 3",
	};
	static const char *const want_ws[] = {
		"0 +demo-dev", "0 +demo-staging", "10000 -demo-dev", "20000 -demo-staging",
		"20000 +demo-prod", "30000 -demo-prod",
	};
	static const char *const want_pr[] = { "0 ManagedByRollout" };
	struct scenario s;
	struct fixture f;
	const struct obj *ro;

	CU_ASSERT_EQUAL_FATAL(fx_scn_load(paths, 1, &s, NULL), 0);
	setup(&f, 0);
	fx_create_copies(f.w, &s);
	at(&f, 10000, &dev);
	at(&f, 20000, &stg);
	at(&f, 30000, &prod);
	CU_ASSERT_EQUAL(des_run(f.w, 3600000, NULL), DES_QUIESCENT);
	fx_expect_lines(&f.ro, want_ro, 3, "rollout statuses");
	fx_expect_lines(&f.ws, want_ws, 6, "permissions");
	fx_expect_lines(&f.pr, want_pr, 1, "project statuses");
	ro = api_get(des_api(f.w), "Rollout", "default", "demo-project");
	CU_ASSERT_STRING_EQUAL(st(ro, "phase"), "Applied");
	CU_ASSERT_STRING_EQUAL(st(ro, "lastReconcileTime"), "2026-01-01T00:00:30Z");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(ro->status, "conditions.0.status"), ""), "True");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(ro->status, "conditions.0.lastTransitionTime"), ""),
			       "2026-01-01T00:00:30Z");
	CU_ASSERT_TRUE(obj_has_finalizer(api_get(des_api(f.w), "Project", "default",
						 "demo-project"),
					 MP_FINALIZER));
	/* §2.1 no periodic requeue: it went quiet; the Rollout reconciled a bounded number of times */
	CU_ASSERT_TRUE(ctl_reconciles(mrc_rollout_ctl(f.m)) < 40);
	CU_ASSERT_STRING_EQUAL(ctl_name(mrc_rollout_ctl(f.m)), "rollout-controller");
	CU_ASSERT_STRING_EQUAL(ctl_name(mrc_project_ctl(f.m)), "project-controller");
	CU_ASSERT_EQUAL(tl_notice_count(des_timeline(f.w)), 0);
	teardown(&f);
	scn_release(&s);	free(dir);
}

/* ---- a three-environment project built in code -------------------------------- */

static const struct fx_step three[] = { { "dev", "env=dev" },
					{ "staging", "env=staging" },
					{ "prod", "env=prod" } };

static void three_envs(struct fixture *f, bool with_rollout)
{
	fx_create(f->w, fx_project("default", "p", 0));
	if (with_rollout)
		fx_create(f->w, fx_rollout("default", "p", three, 3, NULL, 0));
	fx_create(f->w, fx_workspace("default", "w-dev", "env=dev", "p", NULL, ""));
	fx_create(f->w, fx_workspace("default", "w-prod", "env=prod", "p", NULL, ""));
	fx_create(f->w, fx_workspace("default", "w-staging", "env=staging", "p", NULL, ""));
}

/* §6.6 #32: a failure halts before the next level and recovers at the retry. */
static void test_failure_halts_and_recovers(void)
{
	static const struct act fail = { "w-dev", "Failed" };
	static const struct act retry = { "w-dev", "Pending" };
	static const struct act dev = { "w-dev", "Applied" };
	static const struct act stg = { "w-staging", "Applied" };
	static const char *const want_ro[] = {
		"0 LevelProgressing | Executing level [dev] | 0",
		"10000 StepFailed | One or more workspaces failed in level [dev] | 0",
		"120000 LevelProgressing | Executing level [dev] | 0",
		"130000 LevelProgressing | Executing level [staging] | 1",
		"140000 LevelProgressing | Executing level [prod] | 2",
	};
	static const char *const want_ws[] = {
		"0 +w-dev", "10000 -w-dev", "120000 +w-dev", "130000 -w-dev", "130000 +w-staging",
		"140000 -w-staging", "140000 +w-prod",
	};
	struct fixture f;

	setup(&f, 0);
	three_envs(&f, true);
	at(&f, 10000, &fail);
	at(&f, 120000, &retry);
	at(&f, 130000, &dev);
	at(&f, 140000, &stg);
	CU_ASSERT_EQUAL(des_run(f.w, 3600000, NULL), DES_QUIESCENT);
	fx_expect_lines(&f.ro, want_ro, 5, "rollout statuses");
	fx_expect_lines(&f.ws, want_ws, 7, "permissions");
	teardown(&f);
}

/* §2.7 Workspaces added mid-rollout rewind and revoke the later level. */
static void add_dev2(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	(void)arg;
	api_create(des_api(w), fx_workspace("default", "w-dev2", "env=dev", "p", NULL, ""));
}

static void test_new_workspace_rewinds(void)
{
	static const struct act dev = { "w-dev", "Applied" };
	static const char *const want_ro[] = {
		"0 LevelProgressing | Executing level [dev] | 0",
		"10000 LevelProgressing | Executing level [staging] | 1",
		"20000 LevelProgressing | Executing level [dev] | 0",
	};
	static const char *const want_ws[] = {
		"0 +w-dev", "10000 -w-dev", "10000 +w-staging", "20000 +w-dev2", "20000 -w-staging",
	};
	struct fixture f;

	setup(&f, 0);
	three_envs(&f, true);
	at(&f, 10000, &dev);
	des_at(f.w, 20000, DES_PRIO_SCRIPT, add_dev2, NULL, NULL);
	CU_ASSERT_EQUAL(des_run(f.w, 3600000, NULL), DES_QUIESCENT);
	fx_expect_lines(&f.ro, want_ro, 3, "rollout statuses");
	fx_expect_lines(&f.ws, want_ws, 5, "permissions");
	teardown(&f);
}

/* §6.6 #38: a member deleted so that its step is empty freezes the Rollout. */
static void delete_ws(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	api_delete(des_api(w), "Workspace", "default", arg);
}

static void test_member_deleted_no_workspaces_found(void)
{
	static const struct act dev = { "w-dev", "Applied" };
	static const char *const want_ro[] = {
		"0 LevelProgressing | Executing level [dev] | 0",
		"10000 LevelProgressing | Executing level [staging] | 1",
		"20000 NoWorkspacesFound | No workspaces found matching selector for step prod; "
		"halting to prevent skipping environments | 2",
	};
	struct fixture f;
	struct tl_notice n;

	setup(&f, 0);
	three_envs(&f, true);
	at(&f, 10000, &dev);
	des_at(f.w, 20000, DES_PRIO_SCRIPT, delete_ws, NULL, (void *)"w-prod");
	CU_ASSERT_EQUAL(des_run(f.w, 3600000, NULL), DES_QUIESCENT);
	fx_expect_lines(&f.ro, want_ro, 3, "rollout statuses");
	/* no revoke: w-staging keeps its permission while the Rollout is frozen */
	CU_ASSERT_TRUE(mr_workspace_allowed(api_get(des_api(f.w), "Workspace", "default",
						    "w-staging")));
	CU_ASSERT_EQUAL_FATAL(rollout_notice(f.w, 0, &n), 1);
	CU_ASSERT_EQUAL(n.severity, TL_WARNING);
	CU_ASSERT_EQUAL(n.t_ms, 20000);
	CU_ASSERT_PTR_NOT_NULL(strstr(n.text, "whole Rollout freezes"));
	teardown(&f);
}

/* §3.2 step 5 / §3.4: no Rollout → DefaultParallel grants every pending member at once. */
static void create_rollout(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	(void)arg;
	api_create(des_api(w), fx_rollout("default", "p", three, 3, NULL, 0));
}

static void test_default_parallel_then_hand_off(void)
{
	static const char *const want_pr[] = { "0 DefaultParallel", "5000 ManagedByRollout" };
	/* §3.4 hand-off: the Rollout's first pass revokes the later levels' grants */
	static const char *const want_ws[] = { "0 +w-dev", "0 +w-prod", "0 +w-staging",
					       "5000 -w-staging", "5000 -w-prod" };
	struct fixture f;

	setup(&f, 0);
	three_envs(&f, false);
	des_at(f.w, 5000, DES_PRIO_SCRIPT, create_rollout, NULL, NULL);
	CU_ASSERT_EQUAL(des_run(f.w, 3600000, NULL), DES_QUIESCENT);
	fx_expect_lines(&f.pr, want_pr, 2, "project statuses");
	fx_expect_lines(&f.ws, want_ws, 5, "permissions");
	teardown(&f);
}

/* §6.6 #39: Rollout deleted mid-run → DefaultParallel; frozen phases are not granted (§7 #16). */
static void delete_rollout(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	(void)arg;
	api_delete(des_api(w), "Rollout", "default", "p");
}

static void test_rollout_deleted(void)
{
	static const struct act stg = { "w-staging", "Planning" };
	static const char *const want_pr[] = { "0 ManagedByRollout", "20000 DefaultParallel" };
	static const char *const want_ws[] = { "0 +w-dev", "20000 +w-prod" };
	struct fixture f;

	setup(&f, 0);
	three_envs(&f, true);
	at(&f, 10000, &stg); /* Planning without permission: frozen */
	des_at(f.w, 20000, DES_PRIO_SCRIPT, delete_rollout, NULL, NULL);
	CU_ASSERT_EQUAL(des_run(f.w, 3600000, NULL), DES_QUIESCENT);
	fx_expect_lines(&f.pr, want_pr, 2, "project statuses");
	fx_expect_lines(&f.ws, want_ws, 2, "permissions");
	teardown(&f);
}

/* §3.2 step 3: Project deletion: Deleting, finalizer removed, gone; Workspaces stay. */
static void delete_project(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	(void)arg;
	api_delete(des_api(w), "Project", "default", "p");
}

static void test_project_deletion(void)
{
	static const char *const want_pr[] = { "0 DefaultParallel", "7000 Deleting", "7000 deleted" };
	struct fixture f;

	setup(&f, 0);
	three_envs(&f, false);
	des_at(f.w, 7000, DES_PRIO_SCRIPT, delete_project, NULL, NULL);
	CU_ASSERT_EQUAL(des_run(f.w, 3600000, NULL), DES_QUIESCENT);
	fx_expect_lines(&f.pr, want_pr, 3, "project statuses");
	CU_ASSERT_PTR_NULL(api_get(des_api(f.w), "Project", "default", "p"));
	CU_ASSERT_EQUAL(api_count(des_api(f.w), "Workspace"), 3);
	teardown(&f);
}

/* §2.1: a projectRef change wakes the Rollouts of the old and the new project. */
static void move_ws(struct des *w, void *ctx, void *arg)
{
	struct obj *o = obj_copy(api_get(des_api(w), "Workspace", "default", "mover"));

	(void)ctx;
	(void)arg;
	val_map_set(val_map_get(o->spec, "projectRef"), "name", val_new_string("p2"));
	o->resource_version = 0;
	CU_ASSERT_EQUAL(api_update(des_api(w), o), 0);
}

static void test_projectref_change_wakes_both(void)
{
	static const struct fx_step one[] = { { "all", "env=dev" } };
	struct fixture f;
	const struct obj *r1, *r2;

	setup(&f, 0);
	fx_create(f.w, fx_project("default", "p1", 0));
	fx_create(f.w, fx_project("default", "p2", 0));
	fx_create(f.w, fx_rollout("default", "p1", one, 1, NULL, 0));
	fx_create(f.w, fx_rollout("default", "p2", one, 1, NULL, 0));
	fx_create(f.w, fx_workspace("default", "mover", "env=dev", "p1", NULL, ""));
	des_at(f.w, 1000, DES_PRIO_SCRIPT, move_ws, NULL, NULL);
	CU_ASSERT_EQUAL(des_run(f.w, 3600000, NULL), DES_QUIESCENT);
	r1 = api_get(des_api(f.w), "Rollout", "default", "p1");
	r2 = api_get(des_api(f.w), "Rollout", "default", "p2");
	CU_ASSERT_STRING_EQUAL(st(r1, "reason"), "NoWorkspacesFound");
	CU_ASSERT_STRING_EQUAL(st(r2, "reason"), "LevelProgressing");
	CU_ASSERT_STRING_EQUAL(st(r2, "lastReconcileTime"), "2026-01-01T00:00:01Z");
	/* granted by p1 at 0, kept when it moved (nobody revokes a non-member) */
	CU_ASSERT_TRUE(mr_workspace_allowed(api_get(des_api(f.w), "Workspace", "default", "mover")));
	teardown(&f);
}

/*
 * §2.1: a label change moves a Workspace between steps without creating
 * or deleting one.  The Rollout's levels follow the store, not only the
 * member counts: staging's Workspace relabelled to dev joins the dev
 * level (granted there), staging is then empty and freezes the Rollout.
 */
static void relabel_staging(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	(void)arg;
	CU_ASSERT_EQUAL(api_set_label(des_api(w), "Workspace", "default", "w-staging", "env",
				      "dev"),
			0);
}

static void test_relabel_moves_level(void)
{
	static const char *const want_ro[] = {
		"0 LevelProgressing | Executing level [dev] | 0",
		"5000 NoWorkspacesFound | No workspaces found matching selector for step staging; "
		"halting to prevent skipping environments | 1",
	};
	static const char *const want_ws[] = { "0 +w-dev" };
	struct fixture f;

	setup(&f, 0);
	three_envs(&f, true);
	des_at(f.w, 5000, DES_PRIO_SCRIPT, relabel_staging, NULL, NULL);
	CU_ASSERT_EQUAL(des_run(f.w, 3600000, NULL), DES_QUIESCENT);
	fx_expect_lines(&f.ro, want_ro, 2, "rollout statuses");
	fx_expect_lines(&f.ws, want_ws, 1, "permissions");
	teardown(&f);
}

/* §2.1: a label change that keeps the step sets (another label) changes nothing. */
static void relabel_other_key(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	(void)arg;
	CU_ASSERT_EQUAL(api_set_label(des_api(w), "Workspace", "default", "w-prod", "tier",
				      "web"),
			0);
}

static void test_relabel_same_levels(void)
{
	static const struct act dev = { "w-dev", "Applied" };
	static const char *const want_ro[] = {
		"0 LevelProgressing | Executing level [dev] | 0",
		"10000 LevelProgressing | Executing level [staging] | 1",
	};
	static const char *const want_ws[] = { "0 +w-dev", "10000 -w-dev", "10000 +w-staging" };
	struct fixture f;

	setup(&f, 0);
	three_envs(&f, true);
	des_at(f.w, 5000, DES_PRIO_SCRIPT, relabel_other_key, NULL, NULL);
	at(&f, 10000, &dev);
	CU_ASSERT_EQUAL(des_run(f.w, 3600000, NULL), DES_QUIESCENT);
	fx_expect_lines(&f.ro, want_ro, 2, "rollout statuses");
	fx_expect_lines(&f.ws, want_ws, 3, "permissions");
	teardown(&f);
}

/* §6.6 #40: an invalid operator: ReconcileError with back-off retries, told once. */
static void test_invalid_operator_backoff(void)
{
	static const struct fx_step bad[] = { { "dev", "env=dev" }, { "bad", "expr:env:Foo:x" } };
	struct fixture f;
	const struct obj *ro;
	struct tl_notice n;

	setup(&f, 0);
	fx_create(f.w, fx_project("default", "p", 0));
	fx_create(f.w, fx_rollout("default", "p", bad, 2, NULL, 0));
	fx_create(f.w, fx_workspace("default", "w-dev", "env=dev", "p", NULL, ""));
	CU_ASSERT_EQUAL(des_run(f.w, 2000, NULL), DES_HORIZON);
	ro = api_get(des_api(f.w), "Rollout", "default", "p");
	CU_ASSERT_STRING_EQUAL(st(ro, "phase"), "Failed");
	CU_ASSERT_STRING_EQUAL(st(ro, "reason"), "ReconcileError");
	CU_ASSERT_STRING_EQUAL(st(ro, "message"), "\"Foo\" is not a valid label selector operator");
	CU_ASSERT_EQUAL(val_int(val_map_get(ro->status, "currentStep"), -1), 0);
	/* nothing was granted */
	CU_ASSERT_EQUAL(f.ws.n, 0);
	/* back-off 5 ms doubling: within 2 s at most a dozen passes, not thousands */
	CU_ASSERT_TRUE(ctl_failures(mrc_rollout_ctl(f.m), "default", "p") >= 5);
	CU_ASSERT_TRUE(ctl_reconciles(mrc_rollout_ctl(f.m)) < 20);
	CU_ASSERT_EQUAL_FATAL(rollout_notice(f.w, 0, &n), 1);
	CU_ASSERT_EQUAL(n.severity, TL_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(n.text, "\"Foo\" is not a valid label selector operator"));
	teardown(&f);
}

/* §6.6 #42 / §7 #1: overlapping steps flap grant/revoke while the member is pending. */
static void test_overlapping_steps_flap(void)
{
	static const struct fx_step steps[] = { { "dev", "env=dev" },
						{ "prod", "env=prod" },
						{ "dev-again", "env=dev" } };
	struct fixture f;
	struct tl_notice n;
	size_t grants = 0, revokes = 0;

	setup(&f, 10); /* with a latency the flapping advances the clock */
	fx_create(f.w, fx_project("default", "p", 0));
	fx_create(f.w, fx_rollout("default", "p", steps, 3, NULL, 0));
	fx_create(f.w, fx_workspace("default", "d", "env=dev", "p", NULL, ""));
	fx_create(f.w, fx_workspace("default", "q", "env=prod", "p", NULL, ""));
	CU_ASSERT_EQUAL(des_run(f.w, 1000, NULL), DES_HORIZON);
	for (size_t i = 0; i < f.ws.n; i++) {
		if (strstr(f.ws.lines[i], "+d"))
			grants++;
		if (strstr(f.ws.lines[i], "-d"))
			revokes++;
		CU_ASSERT_PTR_NULL(strstr(f.ws.lines[i], "q")); /* q is never granted */
	}
	CU_ASSERT_TRUE(grants >= 10);
	CU_ASSERT_TRUE(revokes + 1 >= grants);
	/* told once, though it happens on every pass */
	CU_ASSERT_EQUAL_FATAL(rollout_notice(f.w, 0, &n), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(n.text, "Workspace(s) d belong to the current level [dev]"));
	teardown(&f);
}

/* §2.7 new revision: a detected-revision on an Applied level-0 member reopens a completed Rollout. */
static void test_new_revision_reopens(void)
{
	static const struct fx_annotation set_rev = { "Workspace", "default", "w-dev",
						       MR_ANN_DETECTED_REVISION,
						       "0123456789abcdef0123456789abcdef01234567" };
	static const struct act dev = { "w-dev", "Applied" };
	static const struct act stg = { "w-staging", "Applied" };
	static const struct act prod = { "w-prod", "Applied" };
	static const char *const want_ro[] = {
		"0 LevelProgressing | Executing level [dev] | 0",
		"1000 LevelProgressing | Executing level [staging] | 1",
		"2000 LevelProgressing | Executing level [prod] | 2",
		"3000 RolloutCompleted | All steps completed successfully | 3",
		"9000 LevelProgressing | Executing level [dev] | 0",
	};
	struct fixture f;

	setup(&f, 0);
	three_envs(&f, true);
	at(&f, 1000, &dev);
	at(&f, 2000, &stg);
	at(&f, 3000, &prod);
	fx_annotate_at(f.w, 9000, &set_rev);
	CU_ASSERT_EQUAL(des_run(f.w, 3600000, NULL), DES_QUIESCENT);
	fx_expect_lines(&f.ro, want_ro, 5, "rollout statuses");
	CU_ASSERT_TRUE(mr_workspace_allowed(api_get(des_api(f.w), "Workspace", "default", "w-dev")));
	teardown(&f);
}

/* Bad input: a Rollout naming a missing Project still works; the hazard is told once. */
static void test_missing_project(void)
{
	static const struct fx_step one[] = { { "all", "{}" } };
	static const char *const want_ws[] = { "0 +w" };
	struct fixture f;
	struct tl_notice n;

	setup(&f, 0);
	fx_create(f.w, fx_rollout("default", "ghost", one, 1, NULL, 0));
	fx_create(f.w, fx_workspace("default", "w", "", "ghost", NULL, ""));
	CU_ASSERT_EQUAL(des_run(f.w, 3600000, NULL), DES_QUIESCENT);
	fx_expect_lines(&f.ws, want_ws, 1, "permissions");
	CU_ASSERT_STRING_EQUAL(st(api_get(des_api(f.w), "Rollout", "default", "ghost"), "reason"),
			       "LevelProgressing");
	CU_ASSERT_EQUAL_FATAL(rollout_notice(f.w, 0, &n), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(n.text, "names Project ghost, which does not exist"));
	teardown(&f);
}

static CU_TestInfo tests[] = {
	{ "§2.1 a relabelled Workspace moves between levels", test_relabel_moves_level },
	{ "§2.1 a relabel that keeps the step sets changes nothing", test_relabel_same_levels },
	{ "§6.6 #32 failure halts and recovers", test_failure_halts_and_recovers },
	{ "§2.7 new Workspace rewinds and revokes", test_new_workspace_rewinds },
	{ "§6.6 #38 member deleted: NoWorkspacesFound", test_member_deleted_no_workspaces_found },
	{ "§3.4 DefaultParallel then hand-off to a Rollout", test_default_parallel_then_hand_off },
	{ "§6.6 #39 Rollout deleted mid-run", test_rollout_deleted },
	{ "§3.2 Project deletion", test_project_deletion },
	{ "§2.1 projectRef change wakes both Rollouts", test_projectref_change_wakes_both },
	{ "§6.6 #40 invalid operator backs off", test_invalid_operator_backoff },
	{ "§6.6 #42 / §7 #1 overlapping steps flap", test_overlapping_steps_flap },
	{ "§6.6 #35 new revision reopens a completed Rollout", test_new_revision_reopens },
	{ "bad input: Rollout naming a missing Project", test_missing_project },
	CU_TEST_INFO_NULL,
};

/* make conformance: against the upstream fixtures in ../shared (cu_shared()). */
static CU_TestInfo conformance[] = {
	{ "§2.8 worked example on the sample manifests", test_worked_example_samples },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("magos_rc", tests);
	CU_ADD_CONFORMANCE_SUITE("magos_rc against ../shared", conformance);
}
