/*
 * Models: the Job runner (capacity, FIFO, durations per selector, failures,
 * deadlines, deletions, policy checks, scripted outcomes), common random
 * numbers, git remotes, model events, selector strings, and the scenario's
 * `models` section and model events with their exact diagnostics.
 *
 * Each runtime test loads a small scenario from a temporary directory, builds
 * a world as sim/run/run.c does, and creates Jobs itself at given times the way
 * the Workspace controller would (JOB CONTRACT), then runs the clock.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/models/models.h"
#include "sim/core/rng.h"
#include "sim/load/scenario.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

/* load() - scn_load() of "s.yaml" holding @text; diagnostics in *@diags (new). */
static int load(const char *text, struct scenario *s, char **diags)
{
	const char *p = "s.yaml";

	fx_put(p, text);
	return fx_scn_load(&p, 1, s, diags);
}

/* expect_diags() - loading @text gives exactly @want (and fails when @fails). */
static void expect_diags(const char *text, bool fails, const char *want)
{
	struct scenario s;
	char *got;
	int rc;

	fx_tmp_enter("test_models");
	rc = load(text, &s, &got);
	CU_ASSERT_EQUAL(rc, fails ? -1 : 0);
	fx_same_text(got, want);
	free(got);
	scn_release(&s);
	fx_tmp_leave();
}

#define HEAD "apiVersion: magos-sim/v1alpha1\nkind: Scenario\nmetadata:\n  name: t\n"
#define WS(name, labels)                                                                  \
	"---\napiVersion: magosproject.io/v1alpha1\nkind: Workspace\nmetadata:\n  name: " name \
	"\n  namespace: default\n  labels: " labels "\nspec:\n  projectRef: {name: p}\n"       \
	"  source: {repoURL: https://git.example/infra.git, targetRevision: main}\n"          \
	"  terraform: {version: \"1.14.8\"}\n"
#define POLICY(name, category, message)                                                   \
	"---\napiVersion: policies.kyverno.io/v1\nkind: ValidatingPolicy\nmetadata:\n  name: " \
	name "\n  labels: {policy.magosproject.io/category: " category "}\nspec:\n"            \
	"  validations:\n    - message: '" message "'\n      expression: 'true'\n"

/* ---------------------------------------------------------------- a world to run */

struct world {
	struct scenario s;
	struct des *w;
	struct mdl *m;
};

/* start() - loads @text (must load cleanly) and builds the world with @seed. */
static void start(struct world *W, const char *text, uint64_t seed)
{
	char *diags;

	fx_tmp_enter("test_models");
	CU_ASSERT_EQUAL_FATAL(load(text, &W->s, &diags), 0);
	if (diags[0] && getenv("TEST_VERBOSE"))
		fprintf(stderr, "diagnostics:\n%s\n", diags);
	free(diags);
	W->w = fx_des_new(seed, 0);
	fx_create_copies(W->w, &W->s);
	W->m = mdl_new(&W->s, W->w, 0);
	mdl_schedule_events(W->m);
}

static void stop(struct world *W)
{
	mdl_free(W->m);
	des_free(W->w);
	scn_release(&W->s);
	fx_tmp_leave();
}

/* A Job to create at a time, as the Workspace controller would. */
struct job_spec {
	const char *name;
	const char *ws;
	const char *type;     /* "plan" or "apply" */
	int64_t deadline_s;   /* activeDeadlineSeconds; 0: 86400 */
	const char *selector; /* MAGOS_POLICY_SELECTOR or NULL */
};

static struct val *env(const char *name, const char *value)
{
	struct val *e = val_new_map();

	val_map_set(e, "name", val_new_string(name));
	val_map_set(e, "value", val_new_string(value));
	return e;
}

static struct obj *job_obj(const struct job_spec *js)
{
	struct obj *o = obj_new("batch/v1", "Job", "default", js->name);
	struct val *tmpl, *pod, *c, *envs;

	obj_strmap_set(&o->labels, MDL_LABEL_WORKSPACE, js->ws);
	obj_strmap_set(&o->labels, MDL_LABEL_JOB_TYPE, js->type);
	obj_strmap_set(&o->labels, "magosproject.io/run-id", "20260101T000000-0000abcd");
	o->spec = val_new_map();
	val_map_set(o->spec, "backoffLimit", val_new_int(0));
	val_map_set(o->spec, "activeDeadlineSeconds",
		    val_new_int(js->deadline_s ? js->deadline_s : 86400));
	tmpl = val_map_set(o->spec, "template", val_new_map());
	pod = val_map_set(tmpl, "spec", val_new_map());
	val_map_set(pod, "restartPolicy", val_new_string("Never"));
	c = val_list_push(val_map_set(pod, "containers", val_new_list()), val_new_map());
	val_map_set(c, "name", val_new_string("terraform"));
	envs = val_map_set(c, "env", val_new_list());
	val_list_push(envs, env("MAGOS_JOB_TYPE", js->type));
	if (js->selector)
		val_list_push(envs, env("MAGOS_POLICY_SELECTOR", js->selector));
	return o;
}

static void create_job_cb(struct des *w, void *ctx, void *arg)
{
	struct obj *o = arg;
	const struct obj *ws = api_get(des_api(w), "Workspace", o->ns,
				       obj_strmap_get(&o->labels, MDL_LABEL_WORKSPACE));

	(void)ctx;
	/* owned by its Workspace, as the Workspace controller sets it */
	if (ws)
		obj_add_controller_ref(o, ws);
	des_set_cause(w, "test");
	CU_ASSERT_EQUAL(api_create(des_api(w), (struct obj *)arg), 0);
}

static void job_at(struct world *W, int64_t t_ms, struct job_spec js)
{
	des_at(W->w, t_ms, DES_PRIO_SCRIPT, create_job_cb, NULL, job_obj(&js));
}

static void delete_job_cb(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	CU_ASSERT_EQUAL(api_delete(des_api(w), "Job", "default", (const char *)arg), 0);
}

static void run(struct world *W, int64_t horizon_ms)
{
	des_run(W->w, horizon_ms, NULL);
}

/* stat_of() - the last record of Job @name. */
static const struct mdl_job_stat *stat_of(struct world *W, const char *name)
{
	const struct mdl_job_stat *st, *found = NULL;
	size_t n = mdl_jobs(W->m, &st);

	for (size_t i = 0; i < n; i++)
		if (strcmp(st[i].name, name) == 0)
			found = &st[i];
	return found;
}

static const struct obj *job(struct world *W, const char *name)
{
	return api_get(des_api(W->w), "Job", "default", name);
}

static const char *cond(const struct obj *o, const char *field)
{
	return val_str(val_path(o ? o->status : NULL, field), "(none)");
}

/* ---------------------------------------------------------------- runtime tests */

/* JOB CONTRACT: the default models (plan 15s, apply 25s, pod start 5s, no failures). */
static void test_defaults_and_status(void)
{
	struct world W;
	const struct mdl_job_stat *st;
	const struct obj *o;

	start(&W, HEAD WS("a", "{env: dev}"), 1);
	CU_ASSERT_FALSE(W.s.models.given);
	job_at(&W, 1500, (struct job_spec){ "a-plan-1", "a", "plan", 0, NULL });
	job_at(&W, 200000, (struct job_spec){ "a-apply-1", "a", "apply", 0, NULL });
	run(&W, 150000);
	o = job(&W, "a-plan-1");
	CU_ASSERT_EQUAL(val_int(val_path(o->status, "succeeded"), 0), 1);
	CU_ASSERT_PTR_NULL(val_path(o->status, "active"));
	CU_ASSERT_PTR_NULL(val_path(o->status, "failed"));
	CU_ASSERT_STRING_EQUAL(cond(o, "startTime"), "2026-01-01T00:00:01Z");
	CU_ASSERT_STRING_EQUAL(cond(o, "completionTime"), "2026-01-01T00:00:21Z");
	CU_ASSERT_STRING_EQUAL(cond(o, "conditions.0.type"), "Complete");
	CU_ASSERT_STRING_EQUAL(cond(o, "conditions.0.status"), "True");
	CU_ASSERT_PTR_NULL(val_path(o->rest, "podLog"));
	st = stat_of(&W, "a-plan-1");
	CU_ASSERT_EQUAL(st->state, MDL_JOB_SUCCEEDED);
	CU_ASSERT_EQUAL(st->seen_ms, 1500);
	CU_ASSERT_EQUAL(st->slot_ms, 1500);
	CU_ASSERT_EQUAL(st->start_ms, 6500);
	CU_ASSERT_EQUAL(st->duration_ms, 15000);
	CU_ASSERT_EQUAL(st->end_ms, 21500);
	CU_ASSERT_EQUAL(st->deadline_ms, 1000 + 86400000);
	/* the apply: running at the horizon, active */
	run(&W, 200000 + 1000);
	o = job(&W, "a-apply-1");
	CU_ASSERT_EQUAL(val_int(val_path(o->status, "active"), 0), 1);
	run(&W, 10 * 60000);
	st = stat_of(&W, "a-apply-1");
	CU_ASSERT_EQUAL(st->duration_ms, 25000);
	CU_ASSERT_EQUAL(st->end_ms, 200000 + 5000 + 25000);
	CU_ASSERT_EQUAL(mdl_capacity(W.m), 0);
	CU_ASSERT_EQUAL(mdl_capacity_peak(W.m), 1);
	stop(&W);
}

/* Capacity: at most N hold a slot; the rest wait first seen, first served. */
static void test_capacity_fifo(void)
{
	struct world W;
	const struct mdl_cap_point *cp;
	size_t n;
	static const char *names[] = { "j1", "j2", "j3", "j4", "j5" };

	start(&W, HEAD "spec:\n  models:\n    jobs:\n      capacity: 2\n      podStartup: 0s\n"
		       "      plan: {duration: 1m}\n" WS("a", "{env: dev}"), 1);
	for (int i = 0; i < 5; i++)
		job_at(&W, i * 1000, (struct job_spec){ names[i], "a", "plan", 0, NULL });
	run(&W, 3600000);
	CU_ASSERT_EQUAL(stat_of(&W, "j1")->slot_ms, 0);
	CU_ASSERT_EQUAL(stat_of(&W, "j2")->slot_ms, 1000);
	CU_ASSERT_EQUAL(stat_of(&W, "j3")->slot_ms, 60000);
	CU_ASSERT_EQUAL(stat_of(&W, "j4")->slot_ms, 61000);
	CU_ASSERT_EQUAL(stat_of(&W, "j5")->slot_ms, 120000);
	CU_ASSERT_EQUAL(stat_of(&W, "j5")->end_ms, 180000);
	CU_ASSERT_EQUAL(stat_of(&W, "j5")->seen_ms, 4000);
	CU_ASSERT_EQUAL(mdl_capacity_peak(W.m), 2);
	n = mdl_capacity_series(W.m, &cp);
	if (getenv("TEST_VERBOSE"))
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, "{%lld,%u,%u}\n", (long long)cp[i].t_ms, cp[i].running, cp[i].waiting);
	CU_ASSERT_EQUAL_FATAL(n, 10);
	{
		/* the initial {0, 0, 0} is replaced by the last state of instant 0 */
		static const struct mdl_cap_point want[] = {
			{ 0, 1, 0 },	  { 1000, 2, 0 },   { 2000, 2, 1 },   { 3000, 2, 2 },
			{ 4000, 2, 3 },	  { 60000, 2, 2 },  { 61000, 2, 1 },  { 120000, 2, 0 },
			{ 121000, 1, 0 }, { 180000, 0, 0 },
		};
		for (size_t i = 0; i < n && i < 10; i++) {
			CU_ASSERT_EQUAL(cp[i].t_ms, want[i].t_ms);
			CU_ASSERT_EQUAL(cp[i].running, want[i].running);
			CU_ASSERT_EQUAL(cp[i].waiting, want[i].waiting);
		}
	}
	stop(&W);
}

/* Durations per selector: first matching rule per field, then the default. */
static void test_durations_by_selector(void)
{
	struct world W;

	start(&W, HEAD "spec:\n  models:\n    jobs:\n      podStartup: 1s\n"
		       "      plan: {duration: 2m}\n"
		       "      rules:\n"
		       "        - selector: {matchLabels: {env: prod}}\n"
		       "          plan: {duration: {constant: 10m}}\n"
		       "        - selector: {matchExpressions: [{key: env, operator: In, values: [prod, staging]}]}\n"
		       "          plan: {duration: 5m}\n"
		       "          apply: {duration: {uniform: {min: 7m, max: 7m}}}\n" WS("dev", "{env: dev}")
			       WS("stg", "{env: staging}") WS("prod", "{env: prod}"),
	      1);
	job_at(&W, 0, (struct job_spec){ "dev-p", "dev", "plan", 0, NULL });
	job_at(&W, 0, (struct job_spec){ "dev-a", "dev", "apply", 0, NULL });
	job_at(&W, 0, (struct job_spec){ "stg-p", "stg", "plan", 0, NULL });
	job_at(&W, 0, (struct job_spec){ "prod-p", "prod", "plan", 0, NULL });
	job_at(&W, 0, (struct job_spec){ "prod-a", "prod", "apply", 0, NULL });
	run(&W, 3600000);
	CU_ASSERT_EQUAL(stat_of(&W, "dev-p")->duration_ms, 120000);
	CU_ASSERT_EQUAL(stat_of(&W, "dev-a")->duration_ms, 25000);
	CU_ASSERT_EQUAL(stat_of(&W, "stg-p")->duration_ms, 300000);
	CU_ASSERT_EQUAL(stat_of(&W, "prod-p")->duration_ms, 600000);
	CU_ASSERT_EQUAL(stat_of(&W, "prod-a")->duration_ms, 420000);
	CU_ASSERT_EQUAL(stat_of(&W, "prod-a")->end_ms, 421000);
	stop(&W);
}

/* Failure probability: the share of failed Jobs over many Workspaces. */
static void test_failure_probability(void)
{
	struct world W;
	int failed = 0, n = 2000;
	char name[32], ws[32];

	start(&W, HEAD "spec:\n  models:\n    jobs:\n      apply: {failureProbability: 0.25}\n", 11);
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "w%d-apply", i);
		snprintf(ws, sizeof(ws), "w%d", i);
		job_at(&W, 0, (struct job_spec){ name, ws, "apply", 0, NULL });
	}
	run(&W, 3600000);
	for (int i = 0; i < n; i++) {
		const struct obj *o;

		snprintf(name, sizeof(name), "w%d-apply", i);
		o = job(&W, name);
		if (val_int(val_path(o->status, "failed"), 0) == 1) {
			failed++;
			CU_ASSERT_STRING_EQUAL(cond(o, "conditions.0.reason"), "BackoffLimitExceeded");
			CU_ASSERT_STRING_EQUAL(cond(o, "conditions.0.type"), "Failed");
		}
	}
	/* binomial(2000, 0.25): mean 500, sd 19.4; +-4 sd */
	CU_ASSERT(failed > 422 && failed < 578);
	stop(&W);
}

#define LOGN_MODEL                                                                   \
	"spec:\n  models:\n    jobs:\n      plan: {duration: {lognormal: {median: 2m, p95: 6m}}, " \
	"failureProbability: 0.3}\n"

/* durations() - plan durations of Workspaces a and b, 3 Jobs each, with @text and @seed. */
static void durations(const char *text, uint64_t seed, int64_t out[6], int fails[6])
{
	struct world W;
	static const char *names[] = { "a1", "a2", "a3", "b1", "b2", "b3" };

	start(&W, text, seed);
	for (int i = 0; i < 6; i++)
		job_at(&W, 10000 * (i % 3), (struct job_spec){ names[i], i < 3 ? "a" : "b", "plan", 0,
							       NULL });
	run(&W, 24 * 3600000LL);
	for (int i = 0; i < 6; i++) {
		out[i] = stat_of(&W, names[i])->duration_ms;
		fails[i] = stat_of(&W, names[i])->state == MDL_JOB_FAILED;
	}
	stop(&W);
}

/* Same seed, same draws; another seed, other draws. */
static void test_determinism(void)
{
	int64_t x[6], y[6], z[6];
	int fx[6], fy[6], fz[6];

	durations(HEAD LOGN_MODEL WS("a", "{env: dev}") WS("b", "{env: prod}"), 42, x, fx);
	durations(HEAD LOGN_MODEL WS("a", "{env: dev}") WS("b", "{env: prod}"), 42, y, fy);
	durations(HEAD LOGN_MODEL WS("a", "{env: dev}") WS("b", "{env: prod}"), 43, z, fz);
	CU_ASSERT_EQUAL(memcmp(x, y, sizeof(x)), 0);
	CU_ASSERT_EQUAL(memcmp(fx, fy, sizeof(fx)), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(x, z, sizeof(x)), 0);
	/* the three Jobs of one Workspace draw from three streams */
	CU_ASSERT(x[0] != x[1] && x[1] != x[2]);
	/* and so do two Workspaces */
	CU_ASSERT(x[0] != x[3]);
	/* the stream ids are the documented ones: a1's duration */
	{
		struct rng r;
		gsl_rng g;
		struct dist d;

		rng_stream(&r, 42, 0, "job/default/a/plan#1/duration");
		rng_gsl_wrap(&g, &r);
		dist_init_lognormal_median_p95(&d, 120000, 360000);
		CU_ASSERT_EQUAL(x[0], dist_sample_ms(&d, &g));
	}
}

/* Common random numbers: a what-if on Workspace a leaves b's draws alone. */
static void test_common_random_numbers(void)
{
	int64_t base[6], what_if[6];
	int fb[6], fw[6];

	durations(HEAD LOGN_MODEL WS("a", "{env: dev}") WS("b", "{env: prod}"), 5, base, fb);
	durations(HEAD LOGN_MODEL "      rules:\n"
				  "        - selector: {matchLabels: {env: dev}}\n"
				  "          plan: {duration: {gamma: {mean: 9m, sd: 3m}}, "
				  "failureProbability: 0.9}\n" WS("a", "{env: dev}")
					  WS("b", "{env: prod}") WS("c", "{env: prod}"),
		  5, what_if, fw);
	CU_ASSERT_NOT_EQUAL(memcmp(base, what_if, 3 * sizeof(int64_t)), 0);
	CU_ASSERT_EQUAL(memcmp(base + 3, what_if + 3, 3 * sizeof(int64_t)), 0);
	CU_ASSERT_EQUAL(memcmp(fb + 3, fw + 3, 3 * sizeof(int)), 0);
}

/* activeDeadlineSeconds: DeadlineExceeded at the deadline, also while queued. */
static void test_deadline_exceeded(void)
{
	struct world W;
	const struct obj *o;

	start(&W, HEAD "spec:\n  models:\n    jobs:\n      capacity: 1\n      podStartup: 0s\n"
		       "      plan: {duration: 90s}\n" WS("a", "{env: dev}"), 1);
	job_at(&W, 500, (struct job_spec){ "slow", "a", "plan", 60, NULL });
	job_at(&W, 1000, (struct job_spec){ "queued", "a", "plan", 30, NULL });
	job_at(&W, 2000, (struct job_spec){ "next", "a", "plan", 0, NULL });
	run(&W, 3600000);
	o = job(&W, "slow");
	CU_ASSERT_EQUAL(val_int(val_path(o->status, "failed"), 0), 1);
	CU_ASSERT_PTR_NULL(val_path(o->status, "succeeded"));
	CU_ASSERT_PTR_NULL(val_path(o->status, "active"));
	CU_ASSERT_STRING_EQUAL(cond(o, "conditions.0.reason"), "DeadlineExceeded");
	CU_ASSERT_STRING_EQUAL(cond(o, "conditions.0.message"),
			       "Job was active longer than specified deadline");
	CU_ASSERT_STRING_EQUAL(cond(o, "startTime"), "2026-01-01T00:00:00Z");
	/* startTime is stored as 00:00:00, so the deadline is at 60 s, not 60.5 s */
	CU_ASSERT_EQUAL(stat_of(&W, "slow")->end_ms, 60000);
	CU_ASSERT_EQUAL(stat_of(&W, "slow")->state, MDL_JOB_DEADLINE);
	CU_ASSERT_EQUAL(stat_of(&W, "queued")->state, MDL_JOB_DEADLINE);
	CU_ASSERT_EQUAL(stat_of(&W, "queued")->slot_ms, -1);
	CU_ASSERT_EQUAL(stat_of(&W, "queued")->end_ms, 31000);
	CU_ASSERT_STRING_EQUAL(cond(job(&W, "queued"), "conditions.0.reason"), "DeadlineExceeded");
	CU_ASSERT_EQUAL(stat_of(&W, "next")->slot_ms, 60000);
	CU_ASSERT_EQUAL(stat_of(&W, "next")->state, MDL_JOB_SUCCEEDED);
	stop(&W);
}

/* A deleted Job frees its slot (and a waiting one leaves the queue). */
static void test_deleted_job_frees_slot(void)
{
	struct world W;

	start(&W, HEAD "spec:\n  models:\n    jobs:\n      capacity: 1\n      podStartup: 0s\n"
		       "      plan: {duration: 10m}\n" WS("a", "{env: dev}"), 1);
	job_at(&W, 0, (struct job_spec){ "j1", "a", "plan", 0, NULL });
	job_at(&W, 0, (struct job_spec){ "j2", "a", "plan", 0, NULL });
	job_at(&W, 0, (struct job_spec){ "j3", "a", "plan", 0, NULL });
	des_at(W.w, 5000, DES_PRIO_SCRIPT, delete_job_cb, NULL, (void *)"j2");
	des_at(W.w, 7000, DES_PRIO_SCRIPT, delete_job_cb, NULL, (void *)"j1");
	run(&W, 24 * 3600000LL);
	CU_ASSERT_EQUAL(stat_of(&W, "j1")->state, MDL_JOB_DELETED);
	CU_ASSERT_EQUAL(stat_of(&W, "j1")->end_ms, 7000);
	CU_ASSERT_EQUAL(stat_of(&W, "j2")->state, MDL_JOB_DELETED);
	CU_ASSERT_EQUAL(stat_of(&W, "j2")->slot_ms, -1);
	CU_ASSERT_EQUAL(stat_of(&W, "j3")->slot_ms, 7000);
	CU_ASSERT_EQUAL(stat_of(&W, "j3")->end_ms, 607000);
	/* the same name created again is a new Job with its own record and stream */
	job_at(&W, 700000, (struct job_spec){ "j1", "a", "plan", 0, NULL });
	run(&W, 48 * 3600000LL);
	CU_ASSERT_EQUAL(stat_of(&W, "j1")->state, MDL_JOB_SUCCEEDED);
	CU_ASSERT_EQUAL(stat_of(&W, "j1")->seen_ms, 700000);
	stop(&W);
}

#define POLICIES                                                                       \
	POLICY("require-a", "security-1", "Require random_id.server its byte_lenght to be 1") \
	POLICY("require-b", "security-2", "Require B") POLICY("other", "cost", "Cost cap")

/* Policy violations: the policy's own message; podLog as the JOB CONTRACT says. */
static void test_policy_violation(void)
{
	struct world W;
	const struct obj *o;
	const struct val *v;

	start(&W, HEAD "spec:\n  models:\n    policies:\n      - {name: require-b, "
		       "violationProbability: 1}\n"
		       "  events:\n"
		       "    - at: 1h\n      violate: {name: a, policy: require-a}\n"
		       "    - at: 1h\n      violate: {name: a, policy: other}\n"
		       "    - at: 3h\n      succeedNext: {name: a, job: plan}\n" WS("a", "{env: dev}")
			       POLICIES,
	      1);
	/* 1: selector matching require-b only: violated with probability 1 */
	job_at(&W, 0, (struct job_spec){ "p1", "a", "plan", 0,
					 "policy.magosproject.io/category in (security-2)" });
	/* 2: no policy matches: no check, no podLog, success */
	job_at(&W, 0, (struct job_spec){ "p2", "a", "plan", 0, "policy.magosproject.io/category=none" });
	/* 3: scripted violation of require-a; other is not checked: dropped with a warning */
	job_at(&W, 2 * 3600000, (struct job_spec){ "p3", "a", "plan", 0,
						   "policy.magosproject.io/category in (security-1)" });
	/* 4: succeedNext: require-b is checked but not violated */
	job_at(&W, 4 * 3600000, (struct job_spec){ "p4", "a", "plan", 0,
						   "policy.magosproject.io/category notin (cost)" });
	run(&W, 24 * 3600000LL);

	o = job(&W, "p1");
	CU_ASSERT_EQUAL(val_int(val_path(o->status, "failed"), 0), 1);
	CU_ASSERT_STRING_EQUAL(cond(o, "conditions.0.reason"), "BackoffLimitExceeded");
	CU_ASSERT_EQUAL(val_bool(val_path(o->rest, "podLog.result.passed"), true), false);
	v = val_path(o->rest, "podLog.result.violations");
	CU_ASSERT_EQUAL_FATAL(v ? v->u.list.n : 0, 1);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(v, "0.policy"), ""), "require-b");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(v, "0.message"), ""), "Require B");
	CU_ASSERT_EQUAL(stat_of(&W, "p1")->nviolations, 1);

	o = job(&W, "p2");
	CU_ASSERT_EQUAL(val_int(val_path(o->status, "succeeded"), 0), 1);
	CU_ASSERT_PTR_NULL(val_path(o->rest, "podLog"));

	o = job(&W, "p3");
	CU_ASSERT_EQUAL(val_int(val_path(o->status, "failed"), 0), 1);
	v = val_path(o->rest, "podLog.result.violations");
	CU_ASSERT_EQUAL_FATAL(v ? v->u.list.n : 0, 1);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(v, "0.policy"), ""), "require-a");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(v, "0.message"), ""),
			       "Require random_id.server its byte_lenght to be 1");
	{
		struct tl_notice n;
		struct tl *tl = des_timeline(W.w);
		bool found = false;

		for (size_t i = 0; i < tl_notice_count(tl); i++) {
			tl_notice_get(tl, i, &n);
			if (strstr(n.text, "ValidatingPolicy \"other\"")) {
				found = true;
				CU_ASSERT_STRING_EQUAL(
					n.text,
					"scenario event 2 (violate): the plan Job default/p3 did not "
					"check ValidatingPolicy \"other\" (MAGOS_POLICY_SELECTOR "
					"\"policy.magosproject.io/category in (security-1)\"); the "
					"violation is dropped");
				CU_ASSERT_EQUAL(n.severity, TL_WARNING);
			}
		}
		CU_ASSERT_TRUE(found);
	}

	o = job(&W, "p4");
	CU_ASSERT_EQUAL(val_int(val_path(o->status, "succeeded"), 0), 1);
	CU_ASSERT_EQUAL(val_bool(val_path(o->rest, "podLog.result.passed"), false), true);
	v = val_path(o->rest, "podLog.result.violations");
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_EQUAL(v->type, VAL_NULL);
	stop(&W);
}

/* failNext / succeedNext act on the next Job of that type that ends. */
static void test_scripted_outcomes(void)
{
	struct world W;

	start(&W, HEAD "spec:\n  models:\n    jobs:\n      plan: {failureProbability: 1}\n"
		       "  events:\n"
		       "    - at: 0s\n      succeedNext: {kind: Workspace, name: a, job: plan}\n"
		       "    - at: 0s\n      failNext: {name: a, job: apply}\n"
		       "    - at: 0s\n      failNext: {name: a, job: plan}\n" WS("a", "{env: dev}")
			       WS("b", "{env: dev}"),
	      1);
	job_at(&W, 0, (struct job_spec){ "a-p1", "a", "plan", 0, NULL });
	job_at(&W, 0, (struct job_spec){ "b-p1", "b", "plan", 0, NULL });
	job_at(&W, 0, (struct job_spec){ "a-a1", "a", "apply", 0, NULL });
	job_at(&W, 3600000, (struct job_spec){ "a-p2", "a", "plan", 0, NULL });
	job_at(&W, 3600000, (struct job_spec){ "a-a2", "a", "apply", 0, NULL });
	run(&W, 24 * 3600000LL);
	/* a-p1 takes the failNext (it has priority), a-p2 the succeedNext */
	CU_ASSERT_EQUAL(stat_of(&W, "a-p1")->state, MDL_JOB_FAILED);
	CU_ASSERT_EQUAL(stat_of(&W, "a-p2")->state, MDL_JOB_SUCCEEDED);
	CU_ASSERT_EQUAL(stat_of(&W, "b-p1")->state, MDL_JOB_FAILED);
	CU_ASSERT_EQUAL(stat_of(&W, "a-a1")->state, MDL_JOB_FAILED);
	CU_ASSERT_EQUAL(stat_of(&W, "a-a2")->state, MDL_JOB_SUCCEEDED);
	stop(&W);
}

/* reconcileRequest and approve write the upstream annotations. */
static void test_annotation_events(void)
{
	struct world W;
	const struct obj *o;

	start(&W, HEAD "spec:\n  start: 2026-04-26T10:00:00Z\n  events:\n"
		       "    - at: 90500ms\n      reconcileRequest: {name: a}\n"
		       "    - at: 2m\n      approve: {name: a}\n"
		       "    - at: 3m\n      reconcileRequest: {name: b, value: by-hand}\n"
		       "    - at: 4m\n      delete: {kind: Workspace, name: b}\n"
		       "    - at: 5m\n      approve: {name: b}\n" WS("a", "{env: dev}")
			       WS("b", "{env: dev}"),
	      1);
	run(&W, 100000);
	o = api_get(des_api(W.w), "Workspace", "default", "a");
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&o->annotations, MDL_ANN_RECONCILE_REQUEST),
			       "2026-04-26T10:01:30.5Z");
	CU_ASSERT_PTR_NULL(obj_strmap_get(&o->annotations, MDL_ANN_APPROVED));
	run(&W, 4 * 60000 - 1);
	o = api_get(des_api(W.w), "Workspace", "default", "a");
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&o->annotations, MDL_ANN_APPROVED), "true");
	o = api_get(des_api(W.w), "Workspace", "default", "b");
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&o->annotations, MDL_ANN_RECONCILE_REQUEST), "by-hand");
	stop(&W);
}

static void delete_ws_cb(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	CU_ASSERT_EQUAL(api_delete(des_api(w), "Workspace", "default", (const char *)arg), 0);
}

/* The approve event of a deleted Workspace: a timeline warning, the run goes on. */
static void test_event_on_missing_workspace(void)
{
	struct world W;
	struct tl_notice n;

	start(&W, HEAD "spec:\n  events:\n"
		       "    - at: 4m\n      delete: {kind: Workspace, name: b}\n"
		       "    - at: 5m\n      approve: {name: b}\n" WS("b", "{env: dev}"),
	      1);
	/* sim/run/run.c fires the delete; here the test does */
	des_at(W.w, 240000, DES_PRIO_SCRIPT, delete_ws_cb, NULL, (void *)"b");
	run(&W, 3600000);
	if (getenv("TEST_VERBOSE"))
		for (size_t i = 0; i < tl_notice_count(des_timeline(W.w)); i++) {
			tl_notice_get(des_timeline(W.w), i, &n);
			fprintf(stderr, "notice: %s\n", n.text);
		}
	CU_ASSERT_EQUAL_FATAL(tl_notice_count(des_timeline(W.w)), 1);
	tl_notice_get(des_timeline(W.w), 0, &n);
	CU_ASSERT_EQUAL(n.severity, TL_WARNING);
	CU_ASSERT_EQUAL(n.t_ms, 300000);
	CU_ASSERT_STRING_EQUAL(n.text, "s.yaml:10:7: scenario event 2 (approve) at 5m0s did not apply: "
				       "NotFound");
	CU_ASSERT_EQUAL_FATAL(n.nrelated, 1);
	CU_ASSERT_STRING_EQUAL(n.related[0].name, "b");
	stop(&W);
}

/* Deleting a Workspace garbage-collects its Jobs, which frees their slots. */
static void test_garbage_collection(void)
{
	struct world W;

	start(&W, HEAD "spec:\n  models:\n    jobs:\n      capacity: 1\n      podStartup: 0s\n"
		       WS("a", "{env: dev}") WS("b", "{env: dev}"), 1);
	job_at(&W, 0, (struct job_spec){ "a-p", "a", "plan", 0, NULL });
	job_at(&W, 0, (struct job_spec){ "b-p", "b", "plan", 0, NULL });
	des_at(W.w, 10000, DES_PRIO_SCRIPT, delete_ws_cb, NULL, (void *)"a");
	run(&W, 3600000);
	CU_ASSERT_PTR_NULL(job(&W, "a-p"));
	CU_ASSERT_EQUAL(stat_of(&W, "a-p")->state, MDL_JOB_DELETED);
	if (getenv("TEST_VERBOSE"))
		fprintf(stderr, "b-p slot %lld a-p state %d cap %u a-p slot %lld end %lld\n", (long long)stat_of(&W, "b-p")->slot_ms, stat_of(&W, "a-p")->state, mdl_capacity(W.m), (long long)stat_of(&W, "a-p")->slot_ms, (long long)stat_of(&W, "a-p")->end_ms);
	CU_ASSERT_EQUAL(stat_of(&W, "b-p")->slot_ms, 10000);
	CU_ASSERT_EQUAL(stat_of(&W, "b-p")->state, MDL_JOB_SUCCEEDED);
	stop(&W);
}

/* Git remotes: deterministic initial SHAs, commits at their time, windows. */
static void test_git_resolve(void)
{
	struct world W;
	char sha[41], sha2[41], head[41];
	const char *given = "0123456789abcdef0123456789abcdef01234567";
	const char *pinned = "89abcdef0123456789abcdef0123456789abcdef";

	start(&W, HEAD "spec:\n  models:\n    git:\n      repositories:\n"
		       "        - url: https://git.example/infra.git\n"
		       "          refs: {release: 0123456789abcdef0123456789abcdef01234567}\n"
		       "          unreachable: [{from: 2h, until: 3h}]\n"
		       "  events:\n"
		       "    - at: 1h\n      commit: {repoURL: https://git.example/infra.git}\n"
		       "    - at: 4h\n      commit: {repoURL: https://git.example/infra.git, ref: "
		       "refs/heads/main, sha: 89abcdef0123456789abcdef0123456789abcdef}\n"
		       "    - at: 5h\n      commit: {repoURL: https://git.example/infra.git, ref: "
		       "release}\n" WS("a", "{env: dev}"),
	      1);
	/* before the first commit: derived from (repo, ref), the same for every alias of main */
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/infra.git", "main", 0, sha), 0);
	CU_ASSERT_EQUAL(strlen(sha), 40);
	CU_ASSERT_EQUAL(strspn(sha, "0123456789abcdef"), 40);
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/infra.git", "refs/heads/main",
					3599999, sha2), 0);
	CU_ASSERT_STRING_EQUAL(sha, sha2);
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/infra.git", "HEAD", 0, head), 0);
	CU_ASSERT_STRING_EQUAL(sha, head);
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/infra.git", "", 0, head), 0);
	CU_ASSERT_STRING_EQUAL(sha, head);
	/* another repository or ref: another SHA */
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/other.git", "main", 0, sha2), 0);
	CU_ASSERT_STRING_NOT_EQUAL(sha, sha2);
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/infra.git", "dev", 0, sha2), 0);
	CU_ASSERT_STRING_NOT_EQUAL(sha, sha2);
	/* the commit without ref goes to the ref the Workspaces track: main */
	CU_ASSERT_STRING_EQUAL(W.s.mevents[0].ref, "main");
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/infra.git", "main", 3600000,
					sha2), 0);
	CU_ASSERT_STRING_NOT_EQUAL(sha, sha2);
	/* unreachable from 2h to 3h */
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/infra.git", "main", 7200000,
					head), -1);
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/infra.git", "main", 10799999,
					head), -1);
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/infra.git", "main", 10800000,
					head), 0);
	CU_ASSERT_STRING_EQUAL(head, sha2);
	/* the given SHA at 4h */
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/infra.git", "main", 4 * 3600000,
					head), 0);
	CU_ASSERT_STRING_EQUAL(head, pinned);
	/* the given initial SHA of release, then its first commit */
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/infra.git", "refs/tags/release",
					0, head), 0);
	CU_ASSERT_STRING_EQUAL(head, given);
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/infra.git", "release",
					5 * 3600000, head), 0);
	CU_ASSERT_STRING_NOT_EQUAL(head, given);
	/* a 40-character ref is the SHA itself */
	CU_ASSERT_EQUAL(mdl_git_resolve(W.m, "https://git.example/x.git", pinned, 0, head), 0);
	CU_ASSERT_STRING_EQUAL(head, pinned);
	/* the commit writes a notice when it fires */
	run(&W, 3600000);
	{
		struct tl_notice n;
		char want[256];

		/* notice 0: the commit; notice 1: the horizon */
		CU_ASSERT_EQUAL_FATAL(tl_notice_count(des_timeline(W.w)), 2);
		tl_notice_get(des_timeline(W.w), 0, &n);
		CU_ASSERT_EQUAL(n.t_ms, 3600000);
		CU_ASSERT_EQUAL(n.severity, TL_INFO);
		snprintf(want, sizeof(want),
			 "commit %.12s on https://git.example/infra.git main (scenario event 1 "
			 "(commit))",
			 sha2);
		CU_ASSERT_STRING_EQUAL(n.text, want);
	}
	stop(&W);
}

/* Selector strings as labels.Parse reads them, round trip with lbl_selector_string(). */
static void test_parse_selector(void)
{
	static const struct {
		const char *in, *out; /* out NULL: error text in err */
		const char *err;
	} cases[] = {
		{ "", "", NULL },
		{ "a=b", "a=b", NULL },
		{ " a == b , c ", "a=b,c", NULL },
		{ "z!=1,a", "a,z notin (1)", NULL },
		{ "!x,k in (b, a),k2 notin (c)", "k in (a,b),k2 notin (c),!x", NULL },
		{ "policy.magosproject.io/category in (security-1,security-2)",
		  "policy.magosproject.io/category in (security-1,security-2)", NULL },
		{ "a>1", NULL, "operator '>' is not a label selector operator" },
		{ "a in b", NULL, "found 'b', expected: '('" },
		{ "a in (b", NULL, "found ' ', expected: ',' or ')'" },
		{ "a=b c", NULL, "found 'c', expected: ','" },
		{ ",a", NULL, "found ',', expected: identifier" },
		{ "a=b!", NULL, "found '!', expected: ','" },
		{ "a=-x", NULL, NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lbl_selector sel;
		char err[LBL_ERRLEN] = "";
		int rc = mdl_parse_selector(cases[i].in, &sel, err, sizeof(err));

		if (cases[i].out) {
			char *s = lbl_selector_string(&sel);

			CU_ASSERT_EQUAL(rc, 0);
			CU_ASSERT_STRING_EQUAL(s, cases[i].out);
			free(s);
		} else {
			CU_ASSERT_EQUAL(rc, -1);
			if (cases[i].err) {
				CU_ASSERT_STRING_EQUAL(err, cases[i].err);
			} else {
				CU_ASSERT_PTR_NOT_NULL(strstr(err, "invalid label value \"-x\""));
			}
		}
		lbl_selector_release(&sel);
	}
	/* matching */
	{
		struct lbl_selector sel;
		struct obj_strmap l;

		obj_strmap_init(&l);
		obj_strmap_set(&l, "env", "prod");
		CU_ASSERT_EQUAL(mdl_parse_selector("env!=dev,!legacy", &sel, NULL, 0), 0);
		CU_ASSERT_TRUE(lbl_matches(&sel, &l));
		obj_strmap_set(&l, "legacy", "");
		CU_ASSERT_FALSE(lbl_matches(&sel, &l));
		lbl_selector_release(&sel);
		obj_strmap_release(&l);
	}
}

/* ---------------------------------------------------------------- scenario parsing */

static void test_models_parse(void)
{
	struct scenario s;
	char *diags;
	const struct scn_models *m = &s.models;

	fx_tmp_enter("test_models");
	CU_ASSERT_EQUAL_FATAL(
		load(HEAD "spec:\n  models:\n    jobs:\n      capacity: 4\n      podStartup: 2s\n"
			  "      plan:\n        duration: {lognormal: {median: 2m, p95: 6m}}\n"
			  "        failureProbability: 0.05\n"
			  "      apply: {duration: {uniform: {min: 1m, max: 3m}}}\n"
			  "      rules:\n"
			  "        - selector: {matchLabels: {env: prod}}\n"
			  "          apply: {duration: {empirical: [1m, 2m, 4m]}, failureProbability: 0}\n"
			  "        - selector: {}\n"
			  "          plan: {duration: {histogram: {edges: [0s, 1m, 5m], weights: [3, 1]}}}\n"
			  "    policies:\n      - {name: require-a, violationProbability: 0.1}\n"
			  "    git:\n      repositories:\n"
			  "        - {url: https://git.example/infra.git, head: trunk}\n" WS("a", "{env: dev}")
				  POLICY("require-a", "x", "m") "---\napiVersion: v1\nkind: ServiceAccount\n"
				  "metadata: {name: magos-job, namespace: default}\n",
		     &s, &diags),
		0);
	if (getenv("TEST_VERBOSE"))
		fprintf(stderr, "%s\nrule1 line %u\n", diags, m->rules[1].mark.line);
	CU_ASSERT_STRING_EQUAL(diags,
			       "s.yaml:46:1: note: 1 object of kinds the simulated controllers do "
			       "not read is accepted and ignored: ServiceAccount \"default/magos-job\" (v1)");
	CU_ASSERT_EQUAL_FATAL(s.nignored, 1);
	CU_ASSERT_TRUE(m->given);
	CU_ASSERT_EQUAL(m->capacity, 4);
	CU_ASSERT_EQUAL(m->pod_startup_ms, 2000);
	CU_ASSERT_EQUAL(m->job[SCN_JOB_PLAN].duration.kind, DIST_LOGNORMAL);
	CU_ASSERT_DOUBLE_EQUAL(m->job[SCN_JOB_PLAN].duration.u.lognormal.median, 120000, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->job[SCN_JOB_PLAN].duration.u.lognormal.p95, 360000, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->job[SCN_JOB_PLAN].failure_probability, 0.05, 1e-12);
	CU_ASSERT_EQUAL(m->job[SCN_JOB_APPLY].duration.kind, DIST_UNIFORM);
	CU_ASSERT_DOUBLE_EQUAL(m->job[SCN_JOB_APPLY].duration.u.uniform.max, 180000, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->job[SCN_JOB_APPLY].failure_probability, 0, 0);
	CU_ASSERT_EQUAL_FATAL(m->nrules, 2);
	CU_ASSERT_STRING_EQUAL(m->rules[0].selector_text, "env=prod");
	CU_ASSERT_FALSE(m->rules[0].job[SCN_JOB_PLAN].has_duration);
	CU_ASSERT_TRUE(m->rules[0].job[SCN_JOB_APPLY].has_duration);
	CU_ASSERT_TRUE(m->rules[0].job[SCN_JOB_APPLY].has_failure);
	CU_ASSERT_EQUAL(m->rules[0].job[SCN_JOB_APPLY].duration.kind, DIST_EMPIRICAL);
	CU_ASSERT_EQUAL(m->rules[0].job[SCN_JOB_APPLY].duration.u.empirical.n, 3);
	CU_ASSERT_EQUAL(m->rules[1].job[SCN_JOB_PLAN].duration.kind, DIST_HISTOGRAM);
	CU_ASSERT_EQUAL(m->rules[1].job[SCN_JOB_PLAN].duration.u.histogram.n, 2);
	CU_ASSERT_TRUE(lbl_selector_is_empty(&m->rules[1].selector));
	CU_ASSERT_EQUAL(m->rules[1].mark.line, 17);
	CU_ASSERT_EQUAL_FATAL(m->npolicies, 1);
	CU_ASSERT_STRING_EQUAL(m->policies[0].name, "require-a");
	CU_ASSERT_EQUAL_FATAL(m->nrepos, 1);
	CU_ASSERT_STRING_EQUAL(m->repos[0].head, "trunk");
	CU_ASSERT_STRING_EQUAL(scn_git_head(m, "https://git.example/infra.git"), "trunk");
	CU_ASSERT_STRING_EQUAL(scn_git_head(m, "https://other"), "main");
	free(diags);
	scn_release(&s);

	/* no models: the documented defaults */
	CU_ASSERT_EQUAL(load(HEAD, &s, &diags), 0);
	CU_ASSERT_FALSE(m->given);
	CU_ASSERT_EQUAL(m->capacity, 0);
	CU_ASSERT_EQUAL(m->pod_startup_ms, 5000);
	CU_ASSERT_EQUAL(m->job[SCN_JOB_PLAN].duration.kind, DIST_CONSTANT);
	CU_ASSERT_DOUBLE_EQUAL(m->job[SCN_JOB_PLAN].duration.u.constant.value, 15000, 0);
	CU_ASSERT_DOUBLE_EQUAL(m->job[SCN_JOB_APPLY].duration.u.constant.value, 25000, 0);
	CU_ASSERT_DOUBLE_EQUAL(m->job[SCN_JOB_PLAN].failure_probability, 0, 0);
	free(diags);
	scn_release(&s);
	fx_tmp_leave();
}

static void test_mevents_parse(void)
{
	struct scenario s;
	char *diags;

	fx_tmp_enter("test_models");
	CU_ASSERT_EQUAL_FATAL(
		load(HEAD "spec:\n  events:\n"
			  "    - at: 1m\n      label: {kind: Workspace, name: a, set: {x: \"y\"}}\n"
			  "    - at: 2m\n      commit: {repoURL: https://git.example/infra.git}\n"
			  "    - at: 3m\n      failNext: {name: a, job: apply}\n"
			  "    - at: 4m\n      succeedNext: {name: a, namespace: default, job: plan}\n"
			  "    - at: 5m\n      violate: {name: a, policy: require-a}\n"
			  "    - at: 6m\n      reconcileRequest: {name: a}\n"
			  "    - at: 7m\n      approve: {kind: Workspace, name: a}\n" WS("a", "{env: dev}")
				  POLICY("require-a", "x", "m"),
		     &s, &diags),
		0);
	CU_ASSERT_STRING_EQUAL(diags, "");
	CU_ASSERT_EQUAL_FATAL(s.nevents, 1);
	CU_ASSERT_EQUAL(s.events[0].index, 0);
	CU_ASSERT_EQUAL_FATAL(s.nmevents, 6);
	CU_ASSERT_EQUAL(s.mevents[5].index, 6);
	CU_ASSERT_EQUAL(s.mevents[0].type, SCN_MEV_COMMIT);
	CU_ASSERT_EQUAL(s.mevents[0].index, 1);
	CU_ASSERT_EQUAL(s.mevents[0].at_ms, 120000);
	CU_ASSERT_STRING_EQUAL(s.mevents[0].repo_url, "https://git.example/infra.git");
	CU_ASSERT_STRING_EQUAL(s.mevents[0].ref, "main");
	CU_ASSERT_PTR_NULL(s.mevents[0].sha);
	CU_ASSERT_EQUAL(s.mevents[0].mark.line, 10);
	CU_ASSERT_EQUAL(s.mevents[0].mark.col, 7);
	CU_ASSERT_EQUAL(s.mevents[1].type, SCN_MEV_FAIL_NEXT);
	CU_ASSERT_EQUAL(s.mevents[1].job, SCN_JOB_APPLY);
	CU_ASSERT_STRING_EQUAL(s.mevents[1].target.ns, "default");
	CU_ASSERT_STRING_EQUAL(s.mevents[1].target.name, "a");
	CU_ASSERT_EQUAL(s.mevents[2].type, SCN_MEV_SUCCEED_NEXT);
	CU_ASSERT_EQUAL(s.mevents[2].job, SCN_JOB_PLAN);
	CU_ASSERT_STRING_EQUAL(s.mevents[3].policy, "require-a");
	CU_ASSERT_EQUAL(s.mevents[4].type, SCN_MEV_RECONCILE_REQUEST);
	CU_ASSERT_PTR_NULL(s.mevents[4].value);
	CU_ASSERT_EQUAL(s.mevents[5].type, SCN_MEV_APPROVE);
	CU_ASSERT_STRING_EQUAL(scn_mevent_type_name(SCN_MEV_RECONCILE_REQUEST), "reconcileRequest");
	free(diags);
	scn_release(&s);
	fx_tmp_leave();
}

static void test_models_errors(void)
{
	expect_diags(
		HEAD "spec:\n  models:\n    jobs:\n      capacity: 0\n      podStartup: 5\n"
		     "      plan:\n        duration: {lognormal: {median: 6m, p95: 2m}}\n"
		     "        failureProbability: 1.5\n"
		     "      apply:\n        duration: {uniform: {min: 1m}, constant: 2m}\n"
		     "      rules:\n"
		     "        - plan: {duration: {logn: {median: 1m}}}\n"
		     "        - selector: {matchExpressions: [{key: env, operator: Foo}]}\n"
		     "          apply: {duration: {gamma: {shape: 2, mean: 1m}}}\n"
		     "        - selector: {}\n"
		     "          plan: {duration: {histogram: {edges: [0s, 1m], weights: [1, 2]}}}\n"
		     "          apply: {duration: 3}\n"
		     "    policies:\n      - {name: nope}\n      - {name: nope, violationProbability: -1}\n"
		     "    git:\n      repositories:\n"
		     "        - {url: u, refs: {main: ABC}, unreachable: [{from: 2h, until: 1h}]}\n",
		true,
		"s.yaml:8:17: error: spec.models.jobs.capacity: Invalid value: 0: spec.models.jobs.capacity in body should be greater than or equal to 1\n"
		"s.yaml:9:19: error: spec.models.jobs.podStartup: Invalid value: 5: must be a duration such as \"90s\", \"5m\" or \"1h30m\"\n"
		"s.yaml:9:19: note: a duration needs a unit: ns, us, ms, s, m or h\n"
		"s.yaml:11:31: error: spec.models.jobs.plan.duration.lognormal: Invalid value: \"object\": p95 must be greater than the median\n"
		"s.yaml:12:29: error: spec.models.jobs.plan.failureProbability: Invalid value: 1.5: spec.models.jobs.plan.failureProbability in body should be less than or equal to 1\n"
		"s.yaml:12:29: note: a probability is a ratio from 0 to 1: write 0.05 for 5%\n"
		"s.yaml:14:29: error: spec.models.jobs.apply.duration.uniform.max: Required value\n"
		"s.yaml:16:29: error: unknown field \"spec.models.jobs.rules[0].plan.duration.logn\"\n"
		"s.yaml:16:29: note: accepted fields: constant, uniform, exponential, lognormal, normal, gamma, weibull, empirical, histogram\n"
		"s.yaml:16:11: error: spec.models.jobs.rules[0].selector: Required value\n"
		"s.yaml:17:21: error: spec.models.jobs.rules[1].selector: Invalid value: \"object\": \"Foo\" is not a valid label selector operator\n"
		"s.yaml:18:37: error: spec.models.jobs.rules[1].apply.duration.gamma: Invalid value: \"object\": give shape and scale, or mean and sd\n"
		"s.yaml:20:67: error: spec.models.jobs.rules[2].plan.duration.histogram: Invalid value: \"object\": 2 edges make 1 bins, but 2 weights are given\n"
		"s.yaml:21:29: error: spec.models.jobs.rules[2].apply.duration: Invalid value: 3: must be a duration or a distribution\n"
		"s.yaml:21:29: note: a duration needs a unit: ns, us, ms, s, m or h\n"
		"s.yaml:24:44: error: spec.models.policies[1].violationProbability: Invalid value: -1: spec.models.policies[1].violationProbability in body should be greater than or equal to 0\n"
		"s.yaml:27:33: error: spec.models.git.repositories[0].refs.main: Invalid value: \"ABC\": must be 40 lower-case hexadecimal digits (a full commit SHA)\n"
		"s.yaml:27:71: error: spec.models.git.repositories[0].unreachable[0]: Invalid value: \"object\": until (1h0m0s) must be later than from (2h0m0s)\n"
		"s.yaml:23:16: error: spec.models.policies[0].name: ValidatingPolicy \"nope\" not found\n"
		"s.yaml:23:16: note: a policy model names a policies.kyverno.io/v1 ValidatingPolicy of the inputs\n"
		"s.yaml:24:16: error: spec.models.policies[1].name: Duplicate value: \"nope\"\n"
		"s.yaml:24:16: error: spec.models.policies[1].name: ValidatingPolicy \"nope\" not found\n"
		"s.yaml:24:16: note: a policy model names a policies.kyverno.io/v1 ValidatingPolicy of the inputs");
}

static void test_mevents_errors(void)
{
	expect_diags(
		HEAD "spec:\n  events:\n"
		     "    - at: 1m\n      commit: {repoURL: https://git.example/infra.git}\n"
		     "    - at: 1m\n      commit: {repoURL: https://git.example/none.git, sha: abc}\n"
		     "    - at: 1m\n      commit: {repoURL: https://git.example/infra.git, ref: dev}\n"
		     "    - at: 2m\n      failNext: {name: ghost, job: plan}\n"
		     "    - at: 2m\n      succeedNext: {kind: Rollout, name: a, job: deploy}\n"
		     "    - at: 3m\n      violate: {name: a, policy: nope}\n"
		     "    - at: 4m\n      approve: {name: a, set: {x: \"y\"}}\n"
		     "    - at: 4m\n      reconcileRequest: {name: a, value: \"\"}\n"
		     "    - at: 5m\n      approve: {name: late}\n"
		     "    - at: 5m\n      apply:\n        apiVersion: v1\n        kind: ConfigMap\n"
		     "        metadata: {name: cm}\n" WS("a", "{env: dev}")
			     "---\napiVersion: magosproject.io/v1alpha1\nkind: Workspace\nmetadata:\n"
			     "  name: b\nspec:\n  projectRef: {name: p}\n"
			     "  source: {repoURL: https://git.example/infra.git, targetRevision: release}\n"
			     "  terraform: {version: \"1\"}\n"
			     "---\napiVersion: magosproject.io/v1alpha1\nkind: Workspace\nmetadata:\n"
			     "  name: c\nspec:\n  projectRef: {name: p}\n"
			     "  source: {repoURL: https://git.example/infra.git, targetRevision: refs/heads/main}\n"
			     "  terraform: {version: \"1\"}\n",
		true,
		"s.yaml:10:60: error: spec.events[1].commit.sha: Invalid value: \"abc\": must be 40 lower-case hexadecimal digits (a full commit SHA)\n"
		"s.yaml:16:27: error: spec.events[4].succeedNext.kind: Unsupported value: \"Rollout\": supported values: \"Workspace\"\n"
		"s.yaml:16:50: error: spec.events[4].succeedNext.job: Unsupported value: \"deploy\": supported values: \"plan\", \"apply\"\n"
		"s.yaml:20:26: error: unknown field \"spec.events[6].approve.set\"\n"
		"s.yaml:20:26: note: accepted fields: kind, namespace, name\n"
		"s.yaml:22:42: error: spec.events[7].reconcileRequest.value: Invalid value: \"\": spec.events[7].reconcileRequest.value in body should be at least 1 chars long\n"
		"s.yaml:26:7: note: spec.events[9].apply: ConfigMap \"cm\" (v1) is of a kind the simulated controllers do not read; the event is ignored\n"
		"s.yaml:8:7: error: spec.events[0].commit.ref: Required value: the Workspaces on \"https://git.example/infra.git\" track several refs (main, release)\n"
		"s.yaml:8:7: note: say which one the commit goes to, e.g. ref: main\n"
		"s.yaml:12:7: warning: spec.events[2].commit: no Workspace on \"https://git.example/infra.git\" tracks ref \"dev\"; no RefWatcher will see this commit\n"
		"s.yaml:14:7: error: spec.events[3].failNext: Workspace \"default/ghost\" not found\n"
		"s.yaml:14:7: note: no input defines it and no 'apply' event creates it earlier\n"
		"s.yaml:18:7: error: spec.events[5].violate.policy: ValidatingPolicy \"nope\" not found\n"
		"s.yaml:18:7: note: a violation names a policies.kyverno.io/v1 ValidatingPolicy of the inputs\n"
		"s.yaml:24:7: error: spec.events[8].approve: Workspace \"default/late\" not found\n"
		"s.yaml:24:7: note: no input defines it and no 'apply' event creates it earlier");
}

/* The upstream sample manifests load unchanged; the one on another ref warns. */
static void test_samples_with_models(void)
{
	struct scenario s;
	struct diag d;
	char *dir = xasprintf("%s/magos-samples/", cu_shared());
	const char *p = dir;

	diag_init(&d);
	CU_ASSERT_EQUAL(scn_load(&p, 1, &s, &d), 0);
	CU_ASSERT_EQUAL(d.n, 0);
	CU_ASSERT_EQUAL(s.nignored, 0);
	CU_ASSERT_FALSE(s.models.given);
	diag_release(&d);
	scn_release(&s);
	free(dir);
}

static CU_TestInfo tests[] = {
	{ "JOB CONTRACT: default models and Job status", test_defaults_and_status },
	{ "capacity: N slots, FIFO, series and peak", test_capacity_fifo },
	{ "durations by selector, first match per field", test_durations_by_selector },
	{ "failure probability over 2000 Jobs", test_failure_probability },
	{ "determinism per seed, documented stream ids", test_determinism },
	{ "common random numbers across a what-if", test_common_random_numbers },
	{ "activeDeadlineSeconds: DeadlineExceeded", test_deadline_exceeded },
	{ "deleted Job frees its slot", test_deleted_job_frees_slot },
	{ "policy violation with the policy's message", test_policy_violation },
	{ "failNext / succeedNext", test_scripted_outcomes },
	{ "reconcileRequest / approve annotations", test_annotation_events },
	{ "model event on a deleted Workspace", test_event_on_missing_workspace },
	{ "Workspace deletion collects its Jobs", test_garbage_collection },
	{ "git resolve before/after a commit", test_git_resolve },
	{ "selector strings", test_parse_selector },
	{ "scenario: models section", test_models_parse },
	{ "scenario: model events", test_mevents_parse },
	{ "scenario: models errors", test_models_errors },
	{ "scenario: model event errors", test_mevents_errors },
	CU_TEST_INFO_NULL,
};

/* make conformance: against the upstream fixtures in ../shared (cu_shared()). */
static CU_TestInfo conformance[] = {
	{ "upstream samples load unchanged", test_samples_with_models },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	rng_gsl_init();
	CU_ADD_SUITE("models", tests);
	CU_ADD_CONFORMANCE_SUITE("models against ../shared", conformance);
}
