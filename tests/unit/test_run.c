/* run_scenario(): probes see the world as it was at their instant. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "engine/value.h"
#include "sim/cluster/apiserver.h"
#include "sim/run/run.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

struct seen {
	int64_t at[4];
	char phase[4][32];
	size_t calls;
};

static void probe(void *ctx, size_t i, struct des *w)
{
	struct seen *s = ctx;
	const struct obj *ro = api_get(des_api(w), "Rollout", "default", "shop");
	const struct val *ph = ro && ro->status ? val_map_get(ro->status, "phase") : NULL;

	s->at[i] = des_now(w);
	snprintf(s->phase[i], sizeof(s->phase[i]), "%s",
		 ph && ph->type == VAL_STRING ? ph->u.s : "-");
	s->calls++;
}

static void test_probes_fire_at_their_instant(void)
{
	const char *paths[] = { "scenarios/three-environments.yaml" };
	const int64_t at[] = { 0, 60000, 100 * 3600 * 1000LL };
	struct scenario s;
	struct run_result r;
	struct seen seen = { 0 };
	struct run_opts o = { .probe_ms = at, .nprobes = 3, .probe = probe, .probe_ctx = &seen };

	CU_ASSERT_EQUAL_FATAL(fx_scn_load(paths, 1, &s, NULL), 0);
	run_scenario(&s, &o, &r);
	/* The third is past the end of the run (it completes in about 21m): it never runs. */
	CU_ASSERT_EQUAL(seen.calls, 2);
	CU_ASSERT_EQUAL(seen.at[0], 0);
	CU_ASSERT_EQUAL(seen.at[1], 60000);
	CU_ASSERT_STRING_EQUAL(seen.phase[1], "Reconciling");
	/* The world after the run holds the final state, which the probe at 1m did not see. */
	probe(&seen, 3, r.world);
	CU_ASSERT_STRING_EQUAL(seen.phase[3], "Applied");
	CU_ASSERT_TRUE(r.summary.completed);
	run_result_release(&r);
	scn_release(&s);
}

static CU_TestInfo run_tests[] = {
	{ "probes fire at their instant and not past the end", test_probes_fire_at_their_instant },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("run", run_tests);
}
