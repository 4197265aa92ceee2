/*
 * StageSet member model (sim/models/stageset_model): the member side of spec §3 in a
 * world without any FleetRollout controller.  Each test creates StageSets in
 * a store, runs the model on the simulated clock, and asserts the status the
 * fleet would read (status.version, pendingVersion, observedGeneration, the
 * Ready condition) and the recorded adoption stats, with exact values.
 * Approvals and rollback-to stamps are made by hand with api_set_annotation
 * at given times, standing in for the fleet or an operator.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/core/rng.h"
#include "sim/models/stageset_model.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define NS "tenant"
#define MIN INT64_C(60000)
#define RUNBOOK "https://stageset.projects.metio.wtf/runbooks/"

/* ---------------------------------------------------------------- fixtures */

/* member() - a fleet member as §5's fleetMember: spec.version {approvalMode, allowDowngrade}, ring label. */
static void member(struct des *w, const char *name, const char *ring, const char *mode, bool allow_down)
{
	struct obj *o = obj_new("stages.metio.wtf/v1", "StageSet", NS, name);
	struct val *v = val_new_map();

	obj_strmap_set(&o->labels, "app", "moodle");
	obj_strmap_set(&o->labels, "ring", ring);
	o->spec = val_new_map();
	if (mode)
		val_map_set(v, "approvalMode", val_new_string(mode));
	if (allow_down)
		val_map_set(v, "allowDowngrade", val_new_bool(true));
	val_map_set(o->spec, "version", v);
	CU_ASSERT_EQUAL_FATAL(api_create(des_api(w), o), 0);
}

static const struct obj *get(struct des *w, const char *name)
{
	return api_get(des_api(w), "StageSet", NS, name);
}

static const char *st(struct des *w, const char *name, const char *field)
{
	return val_str(val_map_get(get(w, name)->status, field), "");
}

static const char *ready(struct des *w, const char *name, const char *field)
{
	return val_str(val_map_get(obj_ready_condition(get(w, name)), field), "");
}

static int64_t obsgen(struct des *w, const char *name)
{
	return val_int(val_map_get(get(w, name)->status, "observedGeneration"), -1);
}

/* A timed annotation write, as the fleet's approval or rollback stamp. */
struct stamp {
	const char *name, *key, *value;
};

static void on_stamp(struct des *w, void *ctx, void *arg)
{
	const struct stamp *sp = arg;

	(void)ctx;
	des_set_cause(w, "test");
	api_set_annotation(des_api(w), "StageSet", NS, sp->name, sp->key, sp->value);
}

static void stamp_at(struct des *w, int64_t t, struct stamp *sp)
{
	des_at(w, t, DES_PRIO_SCRIPT, on_stamp, NULL, sp);
}

static void on_delete(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	des_set_cause(w, "test");
	api_delete(des_api(w), "StageSet", NS, arg);
}

static struct lbl_selector sel_ring(const char *ring)
{
	struct lbl_selector s;
	struct val *v = fx_match_labels("ring", ring);

	CU_ASSERT_EQUAL_FATAL(lbl_selector_from_val(v, &s, NULL, 0), 0);
	val_free(v);
	return s;
}

static const struct lbl_selector everyone; /* empty: matches every member */

static void run(struct des *w, int64_t until)
{
	CU_ASSERT_NOT_EQUAL(des_run(w, until, NULL), DES_LOOP);
}

/* ---------------------------------------------------------------- §3.2 baseline */

/* §3.2: status.version "" => baseline, never held for approval, even under Always. */
static void test_baseline_adopted_without_approval(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "1.0.0" } };
	const struct ssm_member_stat *ms;
	struct ssm *m;

	fx_ssm_params(&p, pub, 1);
	dist_init_constant(&p.defaults.adopt, 30000);
	member(w, "a", "0", "Always", false);
	m = ssm_new(w, &p);

	run(w, 29999);
	/* the pass blocks in its verify wait: nothing written yet */
	CU_ASSERT_PTR_NULL(get(w, "a")->status);
	run(w, 30000);
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "1.0.0");
	CU_ASSERT_PTR_NULL(val_map_get(get(w, "a")->status, "pendingVersion"));
	CU_ASSERT_EQUAL(obsgen(w, "a"), 1);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "status"), "True");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "Succeeded");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "message"), "Applied and verified 1 stage(s)");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "lastTransitionTime"), "1970-01-01T00:00:30Z");
	CU_ASSERT_EQUAL(val_int(val_map_get(obj_ready_condition(get(w, "a")), "observedGeneration"), 0), 1);

	ms = ssm_member(m, NS, "a");
	CU_ASSERT_FATAL(ms != NULL);
	CU_ASSERT_EQUAL(ms->nadoptions, 1);
	CU_ASSERT_STRING_EQUAL(ms->adoptions[0].version, "1.0.0");
	CU_ASSERT_STRING_EQUAL(ms->adoptions[0].from, "");
	CU_ASSERT_TRUE(ms->adoptions[0].baseline);
	CU_ASSERT_EQUAL(ms->adoptions[0].approved_ms, -1);
	CU_ASSERT_EQUAL(ms->adoptions[0].held_ms, -1);
	CU_ASSERT_EQUAL(ms->adoptions[0].start_ms, 0);
	CU_ASSERT_EQUAL(ms->adoptions[0].end_ms, 30000);
	CU_ASSERT_EQUAL(ms->adoptions[0].outcome, SSM_SUCCEEDED);
	CU_ASSERT_EQUAL(ms->holds, 0);
	ssm_free(m);
	des_free(w);
}

/* §3.2: with no publish yet, spec.version.value is the offered version; none at all => InvalidVersion refusal. */
static void test_offered_falls_back_to_spec_value(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm *m;
	struct obj *o = obj_new("stages.metio.wtf/v1", "StageSet", NS, "v");

	o->spec = val_new_map();
	val_map_set(o->spec, "version", val_new_map());
	val_map_set(val_map_get(o->spec, "version"), "value", val_new_string(" 3.1.0 "));
	CU_ASSERT_EQUAL_FATAL(api_create(des_api(w), o), 0);
	ssm_params_init(&p);
	p.interval_ms = 0;
	m = ssm_new(w, &p);
	run(w, 1000);
	CU_ASSERT_STRING_EQUAL(st(w, "v", "version"), "3.1.0");
	CU_ASSERT_PTR_NULL(ssm_offered(m, NS, "v"));
	ssm_free(m);
	des_free(w);
}

/* ---------------------------------------------------------------- §3.2 approval */

/* §3.2: Always holds a transition (AwaitingApproval, pendingVersion) until approved-version equals it exactly. */
static void test_always_holds_until_exact_approval(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "1.0.0" }, { MIN, &everyone, NULL, "2.0.0" } };
	struct stamp wrong = { "a", SS_ANN_APPROVED_VERSION, "v2.0.0" };
	struct stamp right = { "a", SS_ANN_APPROVED_VERSION, "2.0.0" };
	const struct ssm_member_stat *ms;
	struct ssm *m;

	fx_ssm_params(&p, pub, 2);
	p.interval_ms = 0;
	member(w, "a", "0", "Always", false);
	m = ssm_new(w, &p);
	stamp_at(w, 90000, &wrong);
	stamp_at(w, 2 * MIN, &right);

	run(w, MIN);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "AwaitingApproval");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "1.0.0");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "pendingVersion"), "2.0.0");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "status"), "False");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "message"),
			       "version transition to 2.0.0 is awaiting approval; set annotation "
			       "stages.metio.wtf/approved-version=\"2.0.0\" to proceed (runbook: " RUNBOOK
			       "awaitingapproval/)");
	CU_ASSERT_EQUAL(obsgen(w, "a"), 1);

	run(w, 2 * MIN - 1); /* "v2.0.0" is semver-equal but not the same string: still held */
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "AwaitingApproval");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "pendingVersion"), "2.0.0");

	run(w, 2 * MIN); /* adoption 0 ms by default: adopted at the approval */
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "2.0.0");
	CU_ASSERT_PTR_NULL(val_map_get(get(w, "a")->status, "pendingVersion"));
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "Succeeded");

	ms = ssm_member(m, NS, "a");
	CU_ASSERT_EQUAL_FATAL(ms->nadoptions, 2);
	CU_ASSERT_STRING_EQUAL(ms->adoptions[1].version, "2.0.0");
	CU_ASSERT_STRING_EQUAL(ms->adoptions[1].from, "1.0.0");
	CU_ASSERT_FALSE(ms->adoptions[1].baseline);
	CU_ASSERT_EQUAL(ms->adoptions[1].held_ms, MIN);
	CU_ASSERT_EQUAL(ms->adoptions[1].approved_ms, 2 * MIN);
	CU_ASSERT_EQUAL(ms->adoptions[1].end_ms, 2 * MIN);
	/* held at the publish and at the wrong approval; the 60 s requeue coincides with the approval */
	CU_ASSERT_EQUAL(ms->holds, 2);
	ssm_free(m);
	des_free(w);
}

static void on_tamper(struct des *w, void *ctx, void *arg)
{
	struct val *patch = val_new_map();

	(void)ctx;
	(void)arg;
	val_map_set(patch, "conditions", fx_ready_conditions("True", "Tampered"));
	val_map_set(patch, "pendingVersion", val_new_string("9.9.9"));
	des_set_cause(w, "test");
	CU_ASSERT_EQUAL(api_patch_status(des_api(w), "StageSet", NS, "a", patch), 0);
	val_free(patch);
}

/*
 * A held member's passes repeat the same plan and the same write: the
 * model remembers both, and neither hides a change by another writer —
 * the next pass after a foreign status write writes the hold again.
 */
static void test_repeated_pass_rewrites_after_foreign_status_write(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "1.0.0" }, { MIN, &everyone, NULL, "2.0.0" } };
	const struct ssm_member_stat *ms;
	uint64_t rv;
	struct ssm *m;

	fx_ssm_params(&p, pub, 2);
	p.interval_ms = 0;
	member(w, "a", "0", "Always", false);
	m = ssm_new(w, &p);
	des_at(w, 3 * MIN + 30000, DES_PRIO_SCRIPT, on_tamper, NULL, NULL);

	run(w, 3 * MIN); /* held at 1m, passes again at 2m and 3m: nothing to change */
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "AwaitingApproval");
	rv = get(w, "a")->resource_version;
	ms = ssm_member(m, NS, "a");
	CU_ASSERT_EQUAL(ms->holds, 3);
	run(w, 3 * MIN + 30000);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "Tampered");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "pendingVersion"), "9.9.9");
	CU_ASSERT_NOT_EQUAL(get(w, "a")->resource_version, rv);
	run(w, 4 * MIN); /* the 60 s requeue: the hold is written again */
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "AwaitingApproval");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "status"), "False");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "pendingVersion"), "2.0.0");
	CU_ASSERT_EQUAL(obsgen(w, "a"), 1);
	ms = ssm_member(m, NS, "a");
	CU_ASSERT_EQUAL(ms->holds, 4);
	ssm_free(m);
	des_free(w);
}

/* §3.1 step 9 / §3.3: while the approved pass waits for the workload, the fleet still sees the hold. */
static void test_approved_pass_writes_at_its_end(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "1.0.0" }, { MIN, &everyone, NULL, "2.0.0" } };
	struct stamp ok = { "a", SS_ANN_APPROVED_VERSION, "2.0.0" };
	struct ssm *m;

	fx_ssm_params(&p, pub, 2);
	p.interval_ms = 0;
	dist_init_constant(&p.defaults.adopt, 45000);
	member(w, "a", "0", "Always", false);
	m = ssm_new(w, &p);
	stamp_at(w, 2 * MIN, &ok);
	run(w, 2 * MIN + 44999);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "AwaitingApproval");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "pendingVersion"), "2.0.0");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "1.0.0");
	run(w, 2 * MIN + 45000);
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "2.0.0");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "Succeeded");
	ssm_free(m);
	des_free(w);
}

/* §3.3: a verify wait that runs out (15 min) shows StageProgressing with pendingVersion cleared; the retry pass sees the outcome. */
static void test_verify_timeout_shows_stage_progressing(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "1.0.0" }, { MIN, &everyone, NULL, "2.0.0" } };
	struct stamp ok = { "a", SS_ANN_APPROVED_VERSION, "2.0.0" };
	struct ssm *m;

	fx_ssm_params(&p, pub, 2);
	p.interval_ms = 0;
	dist_init_constant(&p.defaults.adopt, 0);
	member(w, "a", "0", "Always", false);
	m = ssm_new(w, &p);
	run(w, 0); /* baseline at 0 */
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "1.0.0");
	/* the params are borrowed: the next attempt samples the new default */
	dist_init_constant(&p.defaults.adopt, 20 * MIN);
	stamp_at(w, 2 * MIN, &ok);
	run(w, 17 * MIN - 1);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "AwaitingApproval");
	run(w, 17 * MIN);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "StageProgressing");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "status"), "False");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "message"),
			       "stage \"app\" is applied and still becoming ready: timeout waiting for: "
			       "Deployment/tenant/a (waited 15m0s: stage readyChecks.timeout, else "
			       "stages[].timeout, else spec.timeout) (runbook: " RUNBOOK "stageprogressing/)");
	CU_ASSERT_PTR_NULL(val_map_get(get(w, "a")->status, "pendingVersion"));
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "1.0.0");
	/* retry pass 10 min later: the workload became ready at 22 min, seen at 27 min */
	run(w, 27 * MIN - 1);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "StageProgressing");
	run(w, 27 * MIN);
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "2.0.0");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "Succeeded");
	{
		const struct ssm_member_stat *ms = ssm_member(m, NS, "a");

		CU_ASSERT_EQUAL_FATAL(ms->nadoptions, 2);
		CU_ASSERT_EQUAL(ms->adoptions[1].start_ms, 2 * MIN);
		CU_ASSERT_EQUAL(ms->adoptions[1].ready_ms, 22 * MIN);
		CU_ASSERT_EQUAL(ms->adoptions[1].end_ms, 27 * MIN);
	}
	ssm_free(m);
	des_free(w);
}

/* ---------------------------------------------------------------- durations, workers */

/* Model: adoption duration per selector rule (first match), else the default; a drawn duration is the stream's. */
static void test_adoption_duration_per_selector(void)
{
	struct des *w = fx_des_new(7, 0);
	struct ssm_params p;
	struct ssm_rule rules[2];
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "1.0.0" } };
	struct ssm *m;
	gsl_rng *g;
	int64_t expect;

	memset(rules, 0, sizeof(rules));
	rules[0].selector = sel_ring("0");
	rules[0].has_adopt = true;
	dist_init_constant(&rules[0].adopt, 10000);
	rules[1].selector = sel_ring("1");
	rules[1].has_adopt = true;
	dist_init_uniform(&rules[1].adopt, 1000, 60000);
	fx_ssm_params(&p, pub, 1);
	p.rules = rules;
	p.nrules = 2;
	p.interval_ms = 0;
	dist_init_constant(&p.defaults.adopt, 40000);
	member(w, "c", "0", "Always", false);
	member(w, "b", "1", "Always", false);
	member(w, "r", "2", "Always", false);
	m = ssm_new(w, &p);
	run(w, 10 * MIN);

	g = rng_gsl_new(7, 0, "stageset/tenant/b/adopt#1/duration");
	expect = dist_sample_ms(&rules[1].adopt, g);
	gsl_rng_free(g);
	CU_ASSERT_EQUAL(ssm_member(m, NS, "c")->adoptions[0].end_ms, 10000);
	CU_ASSERT_EQUAL(ssm_member(m, NS, "b")->adoptions[0].end_ms, expect);
	CU_ASSERT_TRUE(expect >= 1000 && expect <= 60000 && expect != 10000 && expect != 40000);
	CU_ASSERT_EQUAL(ssm_member(m, NS, "r")->adoptions[0].end_ms, 40000);
	ssm_free(m);
	des_free(w);
	lbl_selector_release(&rules[0].selector);
	lbl_selector_release(&rules[1].selector);
}

/* SC concurrentReconciles = 4: a fifth and sixth adoption wait for a worker. */
static void test_four_workers(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "1.0.0" } };
	const char *names[] = { "m1", "m2", "m3", "m4", "m5", "m6" };
	struct ssm *m;

	fx_ssm_params(&p, pub, 1);
	p.interval_ms = 0;
	dist_init_constant(&p.defaults.adopt, 10000);
	for (size_t i = 0; i < 6; i++)
		member(w, names[i], "0", "Always", false);
	m = ssm_new(w, &p);
	run(w, MIN);
	for (size_t i = 0; i < 6; i++) {
		const struct ssm_member_stat *ms = ssm_member(m, NS, names[i]);

		CU_ASSERT_EQUAL(ms->adoptions[0].start_ms, i < 4 ? 0 : 10000);
		CU_ASSERT_EQUAL(ms->adoptions[0].end_ms, i < 4 ? 10000 : 20000);
	}
	CU_ASSERT_EQUAL(ssm_busy_peak(m), 4);
	ssm_free(m);
	des_free(w);
}

/* ---------------------------------------------------------------- failure */

/* §3.3: a failed adoption is Ready False StageFailed, version kept; the error back-off (5 ms doubling) retries as a new attempt. */
static void test_failure_is_stage_failed_and_retried(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "1.0.0" } };
	const struct ssm_member_stat *ms;
	struct ssm *m;

	fx_ssm_params(&p, pub, 1);
	p.interval_ms = 0;
	dist_init_constant(&p.defaults.adopt, 1000);
	p.defaults.failure_probability = 1;
	member(w, "a", "0", "Always", false);
	m = ssm_new(w, &p);
	run(w, 2015);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "StageFailed");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "status"), "False");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "message"),
			       "stage \"app\" verify: failed early: Deployment/tenant/a (runbook: " RUNBOOK
			       "stagefailed/)");
	CU_ASSERT_PTR_NULL(val_map_get(get(w, "a")->status, "version"));
	CU_ASSERT_EQUAL(obsgen(w, "a"), 1);
	ms = ssm_member(m, NS, "a");
	CU_ASSERT_EQUAL_FATAL(ms->nadoptions, 3);
	CU_ASSERT_EQUAL(ms->adoptions[0].outcome, SSM_FAILED);
	CU_ASSERT_EQUAL(ms->adoptions[0].end_ms, 1000);
	CU_ASSERT_EQUAL(ms->adoptions[1].attempt, 2);
	CU_ASSERT_EQUAL(ms->adoptions[1].start_ms, 1005);
	CU_ASSERT_EQUAL(ms->adoptions[1].end_ms, 2005);
	CU_ASSERT_EQUAL(ms->adoptions[2].start_ms, 2015);
	CU_ASSERT_EQUAL(ms->adoptions[2].outcome, SSM_IN_FLIGHT);
	ssm_free(m);
	des_free(w);

	/* probability 0.5: the outcome is the stream's draw, attempt by attempt */
	w = fx_des_new(3, 0);
	fx_ssm_params(&p, pub, 1);
	p.interval_ms = 0;
	dist_init_constant(&p.defaults.adopt, 1000);
	p.defaults.failure_probability = 0.5;
	member(w, "a", "0", "Always", false);
	m = ssm_new(w, &p);
	run(w, 10 * MIN);
	ms = ssm_member(m, NS, "a");
	for (size_t i = 0; i < ms->nadoptions; i++) {
		struct rng r;
		char id[64];
		bool fail;

		snprintf(id, sizeof(id), "stageset/tenant/a/adopt#%zu/failure", i + 1);
		rng_stream(&r, 3, 0, id);
		fail = rng_uniform01(&r) < 0.5;
		CU_ASSERT_EQUAL(ms->adoptions[i].outcome, fail ? SSM_FAILED : SSM_SUCCEEDED);
		if (!fail)
			CU_ASSERT_EQUAL(i + 1, ms->nadoptions);
	}
	CU_ASSERT_EQUAL(ms->adoptions[ms->nadoptions - 1].outcome, SSM_SUCCEEDED);
	ssm_free(m);
	des_free(w);
}

/* ---------------------------------------------------------------- regressions */

/* §2.5 via §3.3: a scripted regression turns an adopted member Ready False for its window, then Ready True again. */
static void test_scripted_regression_window(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "1.0.0" } };
	struct ssm_regression rg[] = { { 5 * MIN, NULL, "tenant/a", 2 * MIN } };
	const struct ssm_member_stat *ms;
	struct ssm *m;

	fx_ssm_params(&p, pub, 1);
	p.regressions = rg;
	p.nregressions = 1;
	p.interval_ms = 0;
	member(w, "a", "0", "Always", false);
	member(w, "b", "0", "Always", false);
	m = ssm_new(w, &p);
	run(w, 5 * MIN);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "StageFailed");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "status"), "False");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "lastTransitionTime"), "1970-01-01T00:05:00Z");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "1.0.0");
	CU_ASSERT_EQUAL(obsgen(w, "a"), 1);
	CU_ASSERT_STRING_EQUAL(ready(w, "b", "reason"), "Succeeded");
	run(w, 7 * MIN - 1);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "StageFailed");
	run(w, 7 * MIN);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "Succeeded");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "status"), "True");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "lastTransitionTime"), "1970-01-01T00:07:00Z");
	ms = ssm_member(m, NS, "a");
	CU_ASSERT_EQUAL_FATAL(ms->nwindows, 1);
	CU_ASSERT_EQUAL(ms->windows[0].start_ms, 5 * MIN);
	CU_ASSERT_EQUAL(ms->windows[0].end_ms, 7 * MIN);
	CU_ASSERT_TRUE(ms->windows[0].scripted);
	CU_ASSERT_STRING_EQUAL(ms->windows[0].version, "1.0.0");
	CU_ASSERT_EQUAL(ssm_member(m, NS, "b")->nwindows, 0);
	ssm_free(m);
	des_free(w);
}

/* Model: a regression drawn after a successful adoption (probability, onset, duration per rule). */
static void test_modelled_regression_after_adoption(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "1.0.0" } };
	const struct ssm_member_stat *ms;
	struct ssm *m;

	fx_ssm_params(&p, pub, 1);
	p.interval_ms = 0;
	dist_init_constant(&p.defaults.adopt, 1000);
	p.defaults.regression_probability = 1;
	dist_init_constant(&p.defaults.regression_onset, MIN);
	dist_init_constant(&p.defaults.regression_duration, 2 * MIN);
	member(w, "a", "0", "Always", false);
	m = ssm_new(w, &p);
	run(w, 1000 + MIN);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "StageFailed");
	run(w, 1000 + 3 * MIN);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "Succeeded");
	ms = ssm_member(m, NS, "a");
	CU_ASSERT_EQUAL_FATAL(ms->nwindows, 1);
	CU_ASSERT_EQUAL(ms->windows[0].start_ms, 1000 + MIN);
	CU_ASSERT_EQUAL(ms->windows[0].end_ms, 1000 + 3 * MIN);
	CU_ASSERT_FALSE(ms->windows[0].scripted);
	/* the recovery pass ran the stage loop again: no new adoption */
	CU_ASSERT_EQUAL(ms->nadoptions, 1);
	ssm_free(m);
	des_free(w);
}

/* ---------------------------------------------------------------- §3.4 rollback-to */

/*
 * §3.4 / §2.8: rollback-to below the deployed version is a downgrade; with
 * allowDowngrade under Always it is held for approval of the previous
 * version; once approved it runs; §6 #4: the stale annotation then stops
 * applying and the member holds for the newer offered version again.
 */
static void test_rollback_to_downgrade_held_under_always(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "2.0.0" } };
	struct stamp rb = { "a", SS_ANN_ROLLBACK_TO, "1.0.0" };
	struct stamp ok = { "a", SS_ANN_APPROVED_VERSION, "1.0.0" };
	const struct ssm_member_stat *ms;
	struct ssm *m;

	fx_ssm_params(&p, pub, 1);
	member(w, "a", "0", "Always", true);
	m = ssm_new(w, &p);
	stamp_at(w, MIN, &rb);
	stamp_at(w, 2 * MIN, &ok);
	run(w, MIN);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "AwaitingApproval");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "pendingVersion"), "1.0.0");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "2.0.0");
	run(w, 2 * MIN);
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "1.0.0");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "Succeeded");
	ms = ssm_member(m, NS, "a");
	CU_ASSERT_EQUAL_FATAL(ms->nadoptions, 2);
	CU_ASSERT_TRUE(ms->adoptions[1].downgrade);
	CU_ASSERT_TRUE(ms->adoptions[1].directed);
	CU_ASSERT_EQUAL(ms->adoptions[1].held_ms, MIN);
	/* the steady requeue (10 min ±5 %) re-plans: 2.0.0 is desired again and held */
	run(w, 2 * MIN + 10 * MIN + 30000);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "AwaitingApproval");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "pendingVersion"), "2.0.0");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "1.0.0");
	ssm_free(m);
	des_free(w);
}

/* §3.4: allowDowngrade false => DowngradeNotAllowed, version and pendingVersion kept, re-evaluated every 60 s. */
static void test_rollback_to_downgrade_not_allowed(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "2.0.0" } };
	struct stamp rb = { "a", SS_ANN_ROLLBACK_TO, "1.0.0" };
	const struct ssm_member_stat *ms;
	struct ssm *m;
	uint32_t passes;

	fx_ssm_params(&p, pub, 1);
	p.interval_ms = 0;
	member(w, "a", "0", "Always", false);
	m = ssm_new(w, &p);
	stamp_at(w, MIN, &rb);
	run(w, MIN);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "DowngradeNotAllowed");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "status"), "False");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "message"),
			       "desired version 1.0.0 is below the deployed version 2.0.0 and downgrades "
			       "are not enabled; set spec.version.allowDowngrade to enable reversible "
			       "downgrades (runbook: " RUNBOOK "downgradenotallowed/)");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "2.0.0");
	CU_ASSERT_PTR_NULL(val_map_get(get(w, "a")->status, "pendingVersion"));
	ms = ssm_member(m, NS, "a");
	passes = ms->passes;
	CU_ASSERT_EQUAL(ms->refusals, 1);
	run(w, 4 * MIN);
	ms = ssm_member(m, NS, "a");
	CU_ASSERT_EQUAL(ms->passes, passes + 3);
	CU_ASSERT_EQUAL(ms->refusals, 4);
	CU_ASSERT_EQUAL(ms->nadoptions, 1);
	ssm_free(m);
	des_free(w);
}

/* §3.4: a crossed migration without down actions => DowngradeRequiresMigration. */
static void test_rollback_to_downgrade_requires_migration(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "2.0.0" } };
	struct ss_migration lad[] = { { "add-column", "1.5.0", true }, { "drop-table", "2.0.0", false } };
	struct stamp rb = { "a", SS_ANN_ROLLBACK_TO, "1.0.0" };
	struct ssm *m;

	fx_ssm_params(&p, pub, 1);
	p.interval_ms = 0;
	p.defaults.migrations = lad;
	p.defaults.nmigrations = 2;
	member(w, "a", "0", "Always", true);
	m = ssm_new(w, &p);
	stamp_at(w, MIN, &rb);
	run(w, MIN);
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "reason"), "DowngradeRequiresMigration");
	CU_ASSERT_STRING_EQUAL(ready(w, "a", "message"),
			       "downgrade 2.0.0 → 1.0.0 crosses migration \"drop-table\" (to 2.0.0), which "
			       "declares no down actions; it is irreversible (runbook: " RUNBOOK
			       "downgraderequiresmigration/)");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "2.0.0");
	ssm_free(m);
	des_free(w);
}

/* ---------------------------------------------------------------- determinism, CRN */

static void crn_run(uint64_t seed, const struct dist *b_adopt, int64_t *a_end, int64_t *b_end,
		    int64_t *a_requeue_pass)
{
	struct des *w = fx_des_new(seed, 0);
	struct ssm_params p;
	struct ssm_rule rules[1];
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "1.0.0" } };
	struct ssm *m;

	memset(rules, 0, sizeof(rules));
	rules[0].selector = sel_ring("1");
	rules[0].has_adopt = true;
	rules[0].adopt = *b_adopt;
	fx_ssm_params(&p, pub, 1);
	p.rules = rules;
	p.nrules = 1;
	p.workers = 0;
	dist_init_lognormal_median_p95(&p.defaults.adopt, 60000, 300000);
	member(w, "a", "0", "Always", false);
	member(w, "b", "1", "Always", false);
	m = ssm_new(w, &p);
	run(w, 30 * MIN);
	*a_end = ssm_member(m, NS, "a")->adoptions[0].end_ms;
	*b_end = ssm_member(m, NS, "b")->adoptions[0].end_ms;
	*a_requeue_pass = ssm_member(m, NS, "a")->passes;
	ssm_free(m);
	des_free(w);
	lbl_selector_release(&rules[0].selector);
}

/* DESIGN §3: same seed => same draws; another member's rule leaves a member's draws unchanged. */
static void test_determinism_and_common_random_numbers(void)
{
	struct dist u1, u2;
	int64_t a1, b1, a2, b2, a3, b3, p1, p2, p3;

	dist_init_uniform(&u1, 1000, 100000);
	dist_init_exponential(&u2, 500000);
	crn_run(11, &u1, &a1, &b1, &p1);
	crn_run(11, &u1, &a2, &b2, &p2);
	CU_ASSERT_EQUAL(a1, a2);
	CU_ASSERT_EQUAL(b1, b2);
	CU_ASSERT_EQUAL(p1, p2);
	crn_run(11, &u2, &a3, &b3, &p3);
	CU_ASSERT_EQUAL(a1, a3);
	CU_ASSERT_EQUAL(p1, p3);
	CU_ASSERT_NOT_EQUAL(b1, b3);
	crn_run(12, &u1, &a3, &b3, &p3);
	CU_ASSERT_NOT_EQUAL(a1, a3);
}

/* ---------------------------------------------------------------- wakes */

/* §3.2 wake-up: a relabel that changes the offered version wakes the member; other label changes do not. */
static void test_relabel_changes_offered_version(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct lbl_selector r1 = sel_ring("1");
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "1.0.0" }, { 0, &r1, NULL, "1.1.0" } };
	struct ssm *m;
	uint32_t passes;

	fx_ssm_params(&p, pub, 2);
	p.interval_ms = 0;
	member(w, "a", "0", "Never", false);
	m = ssm_new(w, &p);
	run(w, 1000);
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "1.0.0");
	passes = ssm_member(m, NS, "a")->passes;
	api_set_label(des_api(w), "StageSet", NS, "a", "team", "x");
	run(w, 2000);
	CU_ASSERT_EQUAL(ssm_member(m, NS, "a")->passes, passes);
	api_set_label(des_api(w), "StageSet", NS, "a", "ring", "1");
	run(w, 3000);
	CU_ASSERT_STRING_EQUAL(ssm_offered(m, NS, "a"), "1.1.0");
	CU_ASSERT_STRING_EQUAL(st(w, "a", "version"), "1.1.0"); /* Never: no approval */
	ssm_free(m);
	des_free(w);
	lbl_selector_release(&r1);
}

/* SC: a StageSet deleted while its pass waits frees the worker (the attempt is abandoned); a new plan supersedes an attempt. */
static void test_deleted_and_superseded_attempts(void)
{
	struct des *w = fx_des_new(1, 0);
	struct ssm_params p;
	struct ssm_publish pub[] = { { 0, &everyone, NULL, "1.0.0" }, { MIN, &everyone, NULL, "2.0.0" } };
	const struct ssm_member_stat *ms;
	struct ssm *m;

	fx_ssm_params(&p, pub, 2);
	p.interval_ms = 0;
	p.workers = 1;
	p.verify_timeout_ms = 30000;
	p.retry_interval_ms = 30000;
	dist_init_constant(&p.defaults.adopt, 100000);
	member(w, "a", "0", "Never", false);
	member(w, "b", "0", "Never", false);
	static char a_name[] = "a";

	m = ssm_new(w, &p);
	des_at(w, 10000, DES_PRIO_SCRIPT, on_delete, NULL, a_name);
	run(w, 10000);
	CU_ASSERT_PTR_NULL(get(w, "a"));
	ms = ssm_member(m, NS, "a");
	CU_ASSERT_EQUAL_FATAL(ms->nadoptions, 1);
	CU_ASSERT_EQUAL(ms->adoptions[0].outcome, SSM_ABANDONED);
	CU_ASSERT_EQUAL(ms->adoptions[0].end_ms, 10000);
	ms = ssm_member(m, NS, "b");
	CU_ASSERT_EQUAL_FATAL(ms->nadoptions, 1);
	CU_ASSERT_EQUAL(ms->adoptions[0].start_ms, 10000);
	/* b's verify wait runs out at 40 s (StageProgressing); the publish of 2.0.0 at 60 s replans it */
	run(w, 40000);
	CU_ASSERT_STRING_EQUAL(ready(w, "b", "reason"), "StageProgressing");
	run(w, MIN);
	ms = ssm_member(m, NS, "b");
	CU_ASSERT_EQUAL_FATAL(ms->nadoptions, 2);
	CU_ASSERT_EQUAL(ms->adoptions[0].outcome, SSM_SUPERSEDED);
	CU_ASSERT_EQUAL(ms->adoptions[0].end_ms, MIN);
	CU_ASSERT_STRING_EQUAL(ms->adoptions[1].version, "2.0.0");
	CU_ASSERT_TRUE(ms->adoptions[1].baseline);
	ssm_free(m);
	des_free(w);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
	{ "a repeated pass rewrites after a foreign status write", test_repeated_pass_rewrites_after_foreign_status_write },
		{ "3.2 baseline adopted without approval", test_baseline_adopted_without_approval },
		{ "3.2 offered falls back to spec.version.value", test_offered_falls_back_to_spec_value },
		{ "3.2 Always holds until the exact approval", test_always_holds_until_exact_approval },
		{ "3.1 the approved pass writes at its end", test_approved_pass_writes_at_its_end },
		{ "3.3 verify timeout shows StageProgressing", test_verify_timeout_shows_stage_progressing },
		{ "adoption duration per selector", test_adoption_duration_per_selector },
		{ "four concurrent reconciles", test_four_workers },
		{ "3.3 failure is StageFailed and retried", test_failure_is_stage_failed_and_retried },
		{ "scripted regression window", test_scripted_regression_window },
		{ "modelled regression after adoption", test_modelled_regression_after_adoption },
		{ "3.4 rollback-to: downgrade held under Always", test_rollback_to_downgrade_held_under_always },
		{ "3.4 rollback-to: DowngradeNotAllowed", test_rollback_to_downgrade_not_allowed },
		{ "3.4 rollback-to: DowngradeRequiresMigration", test_rollback_to_downgrade_requires_migration },
		{ "determinism and common random numbers", test_determinism_and_common_random_numbers },
		{ "deleted and superseded attempts", test_deleted_and_superseded_attempts },
		{ "3.2 relabel changes the offered version", test_relabel_changes_offered_version },
		CU_TEST_INFO_NULL,
	};

	rng_gsl_init();
	CU_ADD_SUITE("stageset_model", tests);
}
