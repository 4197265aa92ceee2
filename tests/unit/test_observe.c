/*
 * The observer's reading of steps, halts and the blast radius, on a world
 * with no controllers: the Rollout's and Workspaces' statuses are scripted
 * (tests/scenarios/observe-halt.yaml) so the expectations do not depend on
 * the engines.
 */
#include <string.h>

#include "sim/cluster/apiserver.h"
#include "sim/world/des.h"
#include "sim/observe/observe.h"
#include "sim/load/scenario.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static struct obs *run_file(const char *path, struct des **wout, struct scenario *s)
{
	const char *paths[] = { path };
	struct des *w;
	struct obs *o;

	CU_ASSERT_EQUAL_FATAL(fx_scn_load(paths, 1, s, NULL), 0);
	w = des_new(NULL);
	o = obs_new(w, 0, 0);
	fx_create_copies(w, s);
	fx_script_status(w, s);
	des_run(w, s->horizon_ms, NULL);
	obs_finish(o, w);
	*wout = w;
	return o;
}

static void test_steps_halt_blast(void)
{
	struct scenario s;
	struct des *w;
	struct obs *o = run_file("tests/scenarios/observe-halt.yaml", &w, &s);
	size_t n;
	const struct obs_rollout *r = obs_rollouts(o, &n);
	const struct obs_workspace *ws;

	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(r->name, "shop");
	CU_ASSERT_STRING_EQUAL(r->project, "shop");
	CU_ASSERT_EQUAL_FATAL(r->nsteps, 3);
	/* dev and qa form one level: both open with it, both complete when prod opens. */
	CU_ASSERT_EQUAL(r->steps[0].opened_ms, 60000);
	CU_ASSERT_EQUAL(r->steps[1].opened_ms, 60000);
	CU_ASSERT_EQUAL(r->steps[0].completed_ms, 300000);
	CU_ASSERT_EQUAL(r->steps[1].completed_ms, 300000);
	CU_ASSERT_EQUAL(r->steps[2].opened_ms, 300000);
	CU_ASSERT_EQUAL(r->steps[2].completed_ms, -1);
	CU_ASSERT_EQUAL_FATAL(r->steps[2].nmembers, 2);
	CU_ASSERT_STRING_EQUAL(r->steps[2].members[0], "shop-prod-a");
	CU_ASSERT_STRING_EQUAL(r->steps[2].members[1], "shop-prod-b");
	CU_ASSERT_TRUE(r->halted);
	CU_ASSERT_EQUAL(r->halt_ms, 480000);
	CU_ASSERT_EQUAL(r->halt_step, 2);
	CU_ASSERT_STRING_EQUAL(r->halt_reason, "StepFailed");
	/* shop-prod-b begins applying after the halt: outside the blast radius. */
	CU_ASSERT_EQUAL_FATAL(r->nblast, 2);
	CU_ASSERT_STRING_EQUAL(r->blast[0], "shop-dev");
	CU_ASSERT_STRING_EQUAL(r->blast[1], "shop-prod-a");
	CU_ASSERT_EQUAL(r->blast_total, 3);
	CU_ASSERT_EQUAL(r->completed_ms, -1);

	ws = obs_workspace(o, "default", "shop-dev");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ws);
	CU_ASSERT_EQUAL(ws->planning_ms, 120000);
	CU_ASSERT_EQUAL(ws->applying_ms, 180000);
	CU_ASSERT_EQUAL(ws->applied_ms, 240000);
	CU_ASSERT_EQUAL(ws->failed_ms, -1);
	ws = obs_workspace(o, "default", "shop-prod-b");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ws);
	CU_ASSERT_EQUAL(ws->failed_ms, 420000);
	CU_ASSERT_EQUAL(ws->applying_ms, 540000);
	CU_ASSERT_STRING_EQUAL(ws->last_phase, "Applying");
	CU_ASSERT_PTR_NULL(obs_workspace(o, "default", "nope"));

	obs_free(o);
	des_free(w);
	scn_release(&s);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "steps, halt and blast radius from scripted statuses", test_steps_halt_blast },
		CU_TEST_INFO_NULL,
	};
	CU_ADD_SUITE("observe", tests);
}
