/*
 * plan_stats_compute(): hand-made rows, figures computed independently
 * (type-7 percentiles by hand, Student t 0.975 quantiles and Wilson bounds
 * from published tables / a separate script).
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

#include "sim/plan/stats.h"
#include "sim/core/rng.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define NEAR(a, b, eps) CU_ASSERT_DOUBLE_EQUAL((a), (b), (eps))

static void test_ttc_with_censored(void)
{
	struct trial_row rows[10];
	struct plan_stats st;

	/* 1s..8s completed, two censored at a 10 s horizon. */
	for (uint32_t i = 0; i < 8; i++)
		rows[i] = fx_trial_row(i, 1000 * (int64_t)(i + 1));
	rows[8] = fx_trial_row(8, -1);
	rows[9] = fx_trial_row(9, -1);
	plan_stats_compute(rows, 10, 10000, &st);
	CU_ASSERT_EQUAL(st.ntrials, 10);
	CU_ASSERT_EQUAL(st.ttc.n, 10);
	CU_ASSERT_EQUAL(st.ttc.ncensored, 2);
	/* p50: rank 4.5 of 0..9 -> between 5 s and 6 s */
	CU_ASSERT_FALSE(st.ttc.p_censored[PLAN_P50]);
	NEAR(st.ttc.p[PLAN_P50], 5500, 1e-9);
	/* p90: rank 8.1 -> among the censored: "> horizon" */
	CU_ASSERT_TRUE(st.ttc.p_censored[PLAN_P90]);
	CU_ASSERT_TRUE(st.ttc.p_censored[PLAN_P95]);
	CU_ASSERT_TRUE(st.ttc.p_censored[PLAN_P99]);
	NEAR(st.ttc.p[PLAN_P90], 10000, 1e-9);
	/* mean and CI over the 8 known: sd = 1000 sqrt(6), t(0.975, 7) = 2.364624251592785 */
	NEAR(st.ttc.mean, 4500, 1e-9);
	NEAR(st.ttc.ci95_lo, 2452.1753277158828, 1e-6);
	NEAR(st.ttc.ci95_hi, 6547.824672284118, 1e-6);
	NEAR(st.ttc.min, 1000, 0);
	NEAR(st.ttc.max, 8000, 0);
	/* Wilson 95 % of 8/10 */
	CU_ASSERT_EQUAL(st.complete.k, 8);
	CU_ASSERT_EQUAL(st.complete.n, 10);
	NEAR(st.complete.p, 0.8, 1e-12);
	NEAR(st.complete.lo, 0.49016247153664183, 1e-9);
	NEAR(st.complete.hi, 0.9433178485456247, 1e-9);
	/* 0 of 10 halted: Wilson [0, 0.2775...] */
	CU_ASSERT_EQUAL(st.halt.k, 0);
	NEAR(st.halt.lo, 0, 1e-12);
	NEAR(st.halt.hi, 0.2775327998628892, 1e-9);
	CU_ASSERT_EQUAL(st.nbound, 0);
	CU_ASSERT_EQUAL(st.nhalts, 0);
	plan_stats_release(&st);
}

/* A trial already complete at the start: completed, but neither a time nor censored. */
static void test_ttc_already_complete(void)
{
	struct trial_row rows[4];
	struct plan_stats st;

	rows[0] = fx_trial_row(0, 1000);
	rows[1] = fx_trial_row(1, 3000);
	rows[2] = fx_trial_row(2, -1); /* censored */
	rows[3] = fx_trial_row(3, -1);
	rows[3].completed = true; /* already complete: no time */
	plan_stats_compute(rows, 4, 10000, &st);
	CU_ASSERT_EQUAL(st.complete.k, 3);
	CU_ASSERT_EQUAL(st.ttc.n, 3);
	CU_ASSERT_EQUAL(st.ttc.ncensored, 1);
	NEAR(st.ttc.mean, 2000, 1e-9);
	NEAR(st.ttc.min, 1000, 0);
	plan_stats_release(&st);
}

static void test_type7_percentiles(void)
{
	struct trial_row rows[5];
	struct plan_stats st;
	/* given out of order: the sort is the function's */
	int64_t t[5] = { 40, 10, 50, 30, 20 };

	for (uint32_t i = 0; i < 5; i++)
		rows[i] = fx_trial_row(i, t[i]);
	plan_stats_compute(rows, 5, 1000, &st);
	NEAR(st.ttc.p[PLAN_P50], 30, 1e-9);
	NEAR(st.ttc.p[PLAN_P90], 46, 1e-9);   /* rank 3.6 */
	NEAR(st.ttc.p[PLAN_P95], 48, 1e-9);   /* rank 3.8 */
	NEAR(st.ttc.p[PLAN_P99], 49.6, 1e-9); /* rank 3.96 */
	for (int k = 0; k < PLAN_NPCT; k++)
		CU_ASSERT_FALSE(st.ttc.p_censored[k]);
	/* sd = sqrt(250) = 15.811388300841896; t(0.975, 4) = 2.7764451051977987 */
	NEAR(st.ttc.ci95_lo, 30 - 2.7764451051977987 * 15.811388300841896 / sqrt(5), 1e-9);
	NEAR(st.ttc.ci95_hi, 30 + 2.7764451051977987 * 15.811388300841896 / sqrt(5), 1e-9);
	NEAR(st.complete.p, 1, 0);
	plan_stats_release(&st);
}

static void test_halts_blast_detection(void)
{
	struct trial_row rows[6];
	struct plan_stats st;
	struct {
		const char *where, *reason;
		size_t blast, total;
		int64_t det;
	} h[6] = {
		{ "wave canary", "Halted (gate)", 3, 10, 60000 },
		{ "step staging", "StepFailed", 1, 3, -1 },
		{ "wave b", "Halted (regression)", 5, 10, 120000 },
		{ "wave canary", "Halted (gate)", 2, 10, 30000 },
		{ "wave b", "Halted (regression)", 4, 10, 90000 },
		{ NULL, NULL, 0, 0, -1 },
	};

	for (uint32_t i = 0; i < 6; i++) {
		rows[i] = fx_trial_row(i, h[i].where ? -1 : 500);
		rows[i].halted = h[i].where != NULL;
		rows[i].halt_where = (char *)h[i].where;
		rows[i].halt_reason = (char *)h[i].reason;
		rows[i].blast_count = h[i].blast;
		rows[i].blast_total = h[i].total;
		rows[i].detection_ms = h[i].det;
	}
	rows[1].stop = DES_LOOP;
	plan_stats_compute(rows, 6, 10000, &st);
	CU_ASSERT_EQUAL(st.halt.k, 5);
	CU_ASSERT_EQUAL(st.nbound, 1);
	CU_ASSERT_EQUAL_FATAL(st.nhalts, 3);
	/* most frequent first; ties by where: "wave b" < "wave canary" */
	CU_ASSERT_STRING_EQUAL(st.halts[0].where, "wave b");
	CU_ASSERT_EQUAL(st.halts[0].n, 2);
	CU_ASSERT_STRING_EQUAL(st.halts[1].where, "wave canary");
	CU_ASSERT_STRING_EQUAL(st.halts[1].reason, "Halted (gate)");
	CU_ASSERT_EQUAL(st.halts[1].n, 2);
	CU_ASSERT_STRING_EQUAL(st.halts[2].where, "step staging");
	CU_ASSERT_EQUAL(st.halts[2].n, 1);
	/* blast count over every trial: 0 1 2 3 4 5 */
	CU_ASSERT_EQUAL(st.blast_count.n, 6);
	NEAR(st.blast_count.mean, 2.5, 1e-12);
	NEAR(st.blast_count.p[PLAN_P50], 2.5, 1e-12);
	/* share only where there is a scope: .3 .333.. .5 .2 .4 */
	CU_ASSERT_EQUAL(st.blast_share.n, 5);
	NEAR(st.blast_share.p[PLAN_P50], 1.0 / 3.0, 1e-12);
	NEAR(st.blast_share.max, 0.5, 1e-12);
	/* detection only for halts with an onset: 30 60 90 120 s */
	CU_ASSERT_EQUAL(st.detection.n, 4);
	NEAR(st.detection.mean, 75000, 1e-9);
	NEAR(st.detection.p[PLAN_P50], 75000, 1e-9);
	NEAR(st.detection.p[PLAN_P90], 111000, 1e-9); /* rank 2.7 */
	plan_stats_release(&st);
}

static void test_phases_and_critical_path(void)
{
	static char d[] = "Rollout d/r", a[] = "step a", b[] = "step b";
	struct trial_row rows[3];
	struct trial_phase ph[3][2] = {
		{ { d, a, 0, 100 }, { d, b, 100, 400 } },
		{ { d, a, 0, 500 }, { d, b, 500, 700 } },
		/* step b opened and never finished: censored, and the longest to the end (2000) */
		{ { d, a, 0, 300 }, { d, b, 300, -1 } },
	};
	struct plan_stats st;

	for (uint32_t i = 0; i < 3; i++) {
		rows[i] = fx_trial_row(i, i < 2 ? 700 : -1);
		rows[i].phases = ph[i];
		rows[i].nphases = 2;
	}
	rows[2].end_ms = 2000;
	plan_stats_compute(rows, 3, 2000, &st);
	CU_ASSERT_EQUAL_FATAL(st.nphases, 2);
	CU_ASSERT_STRING_EQUAL(st.phases[0].name, "step a");
	CU_ASSERT_STRING_EQUAL(st.phases[1].name, "step b");
	CU_ASSERT_EQUAL(st.phases[0].duration.n, 3);
	NEAR(st.phases[0].duration.p[PLAN_P50], 300, 1e-9);
	NEAR(st.phases[0].duration.mean, 300, 1e-9);
	CU_ASSERT_EQUAL(st.phases[1].duration.n, 3);
	CU_ASSERT_EQUAL(st.phases[1].duration.ncensored, 1);
	/* known 200, 300 and one censored: p50 at rank 1 is 300; p90 at rank 1.8 touches the censored */
	NEAR(st.phases[1].duration.p[PLAN_P50], 300, 1e-9);
	CU_ASSERT_FALSE(st.phases[1].duration.p_censored[PLAN_P50]);
	CU_ASSERT_TRUE(st.phases[1].duration.p_censored[PLAN_P90]);
	NEAR(st.phases[1].duration.mean, 250, 1e-9);
	/* longest: trial 0 b (300 > 100), trial 1 a (500 > 200), trial 2 b (1700 > 300) */
	CU_ASSERT_EQUAL(st.phases[0].ncritical, 1);
	CU_ASSERT_EQUAL(st.phases[1].ncritical, 2);
	plan_stats_release(&st);
}

static void test_no_rows(void)
{
	struct plan_stats st;

	plan_stats_compute(NULL, 0, 1000, &st);
	CU_ASSERT_EQUAL(st.ntrials, 0);
	CU_ASSERT_EQUAL(st.ttc.n, 0);
	NEAR(st.complete.p, 0, 0);
	CU_ASSERT_EQUAL(st.nphases, 0);
	plan_stats_release(&st);
	plan_stats_release(NULL);
}

static void test_single_value(void)
{
	struct trial_row r = fx_trial_row(0, 1234);
	struct plan_stats st;

	plan_stats_compute(&r, 1, 5000, &st);
	NEAR(st.ttc.p[PLAN_P99], 1234, 0);
	NEAR(st.ttc.ci95_lo, 1234, 0);
	NEAR(st.ttc.ci95_hi, 1234, 0);
	/* Wilson of 1/1: [0.2065..., 1] */
	NEAR(st.complete.lo, 0.20654931437723745, 1e-9);
	NEAR(st.complete.hi, 1, 1e-12);
	plan_stats_release(&st);
}

/*
 * A skewed non-negative quantity: the symmetric t interval of its mean
 * would go below 0 and is clamped to the support; a share's upper bound is
 * clamped to 1.
 */
static void test_ci_clamped_to_support(void)
{
	struct trial_row rows[5];
	struct plan_stats st;
	double half;

	for (uint32_t i = 0; i < 5; i++) {
		rows[i] = fx_trial_row(i, 1000);
		rows[i].blast_total = 2;
	}
	/* detection 0, 0, 0, 0, 100 s on five halting trials */
	for (uint32_t i = 0; i < 5; i++) {
		rows[i].halted = true;
		rows[i].detection_ms = i == 4 ? 100000 : 0;
		rows[i].blast_count = i == 4 ? 0 : 2; /* shares 1, 1, 1, 1, 0 */
	}
	plan_stats_compute(rows, 5, 10000, &st);
	/* mean 20 s, sd = 100 s / sqrt(5) = 44721.36 ms, t(0.975, 4) = 2.7764451051977987 */
	half = 2.7764451051977987 * 44721.359549995796 / sqrt(5);
	NEAR(st.detection.mean, 20000, 1e-9);
	CU_ASSERT_TRUE(20000 - half < 0);
	NEAR(st.detection.ci95_lo, 0, 0);
	NEAR(st.detection.ci95_hi, 20000 + half, 1e-6);
	/* shares: mean 0.8, sd sqrt(0.2) -> 0.8 + 0.555 > 1 */
	NEAR(st.blast_share.mean, 0.8, 1e-12);
	NEAR(st.blast_share.ci95_hi, 1, 0);
	NEAR(st.blast_share.ci95_lo, 0.8 - 2.7764451051977987 * sqrt(0.2) / sqrt(5), 1e-9);
	/* counts: 2, 2, 2, 2, 0: mean 1.6, lower bound 1.6 - 1.11 stays positive */
	NEAR(st.blast_count.ci95_lo, 1.6 - 2.7764451051977987 * sqrt(0.8) / sqrt(5), 1e-9);
	plan_stats_release(&st);
}

static CU_TestInfo stats_tests[] = {
	{ "a confidence interval stays within the support", test_ci_clamped_to_support },
	{ "time to complete with censored trials", test_ttc_with_censored },
	{ "time to complete leaves out trials already complete", test_ttc_already_complete },
	{ "type-7 percentiles and the t interval", test_type7_percentiles },
	{ "halts grouped, blast radius, detection", test_halts_blast_detection },
	{ "per-phase durations and the critical path", test_phases_and_critical_path },
	{ "no rows", test_no_rows },
	{ "one value", test_single_value },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	rng_gsl_init();
	CU_ADD_SUITE("plan_stats", stats_tests);
}
