/*
 * plan_stats_compute(): hand-made rows, figures computed independently
 * (type-7 percentiles by hand, Student t 0.975 quantiles and Wilson bounds
 * from published tables / a separate script).
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

#include "engine/xalloc.h"

#include "sim/base/limits.h"
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
	plan_stats_compute(rows, 10, 10000, lim_default(LIM_EXACT_VALUES), &st);
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
	plan_stats_compute(rows, 4, 10000, lim_default(LIM_EXACT_VALUES), &st);
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
	plan_stats_compute(rows, 5, 1000, lim_default(LIM_EXACT_VALUES), &st);
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
	plan_stats_compute(rows, 6, 10000, lim_default(LIM_EXACT_VALUES), &st);
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
	plan_stats_compute(rows, 3, 2000, lim_default(LIM_EXACT_VALUES), &st);
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

	plan_stats_compute(NULL, 0, 1000, lim_default(LIM_EXACT_VALUES), &st);
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

	plan_stats_compute(&r, 1, 5000, lim_default(LIM_EXACT_VALUES), &st);
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
	plan_stats_compute(rows, 5, 10000, lim_default(LIM_EXACT_VALUES), &st);
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

/* ---- the exact budget and the sketch ---------------------------------- */

/* A deterministic generator for the tests below (Knuth's MMIX LCG, top bits). */
static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 11;
}

/*
 * @n rows of widely spread values: ttc from 1 ms to about 10^9 ms (a tenth
 * censored), halts with blast radius and shares, detection, exposure, peak
 * Jobs 0..199 (whole numbers below 256: exact in the sketch), Job wait, and
 * two phases, one of them sometimes never done.  New; fx_rows_free().
 */
static struct trial_row *spread_rows(size_t n)
{
	struct trial_row *r = xcalloc(n, sizeof(*r));
	uint64_t x = 42;

	for (size_t i = 0; i < n; i++) {
		double u = (double)(lcg(&x) % 1000000) / 1e6;
		int64_t ttc = (int64_t)pow(10, 9 * u) + (int64_t)(lcg(&x) % 7);

		r[i] = fx_trial_row((uint32_t)i, lcg(&x) % 10 == 0 ? -1 : ttc);
		r[i].peak_jobs = (unsigned)(lcg(&x) % 200);
		r[i].job_wait_ms = (int64_t)(lcg(&x) % 5000000);
		r[i].blast_total = 1000;
		if (lcg(&x) % 3 == 0) {
			r[i].halted = true;
			r[i].halt_where = xstrdup(i % 2 ? "step 1" : "step 2");
			r[i].halt_reason = xstrdup("StepFailed");
			r[i].blast_count = 1 + lcg(&x) % 999;
			r[i].detection_ms = (int64_t)(lcg(&x) % 86400000);
			r[i].exposure_ms = (int64_t)(lcg(&x) % 100000000000ULL);
		}
		r[i].nphases = 2;
		r[i].phases = xcalloc(2, sizeof(*r[i].phases));
		for (size_t k = 0; k < 2; k++) {
			r[i].phases[k].driver = xstrdup("Rollout ns/r");
			r[i].phases[k].name = xasprintf("step %zu", k + 1);
			r[i].phases[k].opened_ms = (int64_t)(lcg(&x) % 1000);
			r[i].phases[k].done_ms = k == 1 && lcg(&x) % 5 == 0
							 ? -1
							 : r[i].phases[k].opened_ms +
								   (int64_t)(lcg(&x) % 100000000);
		}
	}
	return r;
}

/* The statistics of @n rows with an exact budget of @budget values. */
static void stats_of(const struct trial_row *rows, size_t n, size_t budget, struct plan_stats *st)
{
	struct plan_acc *a = plan_acc_new(1000000000, budget);

	for (size_t i = 0; i < n; i++)
		plan_acc_add(a, &rows[i]);
	plan_acc_finish(a, st);
	plan_acc_free(a);
}

/*
 * @sk against the exact @ex: counts, censoring, min and max the same; each
 * percentile within the documented relative error (@exact: equal); the mean
 * and its interval equal within rounding.
 */
static void check_within(const struct plan_dist *ex, const struct plan_dist *sk, bool exact)
{
	CU_ASSERT_EQUAL(sk->n, ex->n);
	CU_ASSERT_EQUAL(sk->ncensored, ex->ncensored);
	NEAR(sk->min, ex->min, 0);
	NEAR(sk->max, ex->max, 0);
	for (int k = 0; k < PLAN_NPCT; k++) {
		CU_ASSERT_EQUAL(sk->p_censored[k], ex->p_censored[k]);
		if (exact || ex->p_censored[k]) {
			NEAR(sk->p[k], ex->p[k], 1e-9 * fabs(ex->p[k]));
		} else {
			CU_ASSERT(fabs(sk->p[k] - ex->p[k]) <= PLAN_SKETCH_REL_ERR * ex->p[k] * (1 + 1e-12));
		}
	}
	NEAR(sk->mean, ex->mean, 1e-9 * fabs(ex->mean) + 1e-12);
	NEAR(sk->ci95_lo, ex->ci95_lo, 1e-6 * fabs(ex->ci95_lo) + 1e-9);
	NEAR(sk->ci95_hi, ex->ci95_hi, 1e-6 * fabs(ex->ci95_hi) + 1e-9);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Below the budget every figure is exact: the percentiles are type 7 of the
 * sorted values, worked out here by hand; one value more than the budget
 * holds and the same rows are sketched.
 */
static void test_exact_below_the_budget(void)
{
	enum { N = 3001 };
	struct trial_row *rows = spread_rows(N);
	struct plan_stats st;
	double *v = xcalloc(N, sizeof(*v));
	size_t m = 0, need = 0;

	for (size_t i = 0; i < N; i++) {
		if (rows[i].completed)
			v[m++] = (double)rows[i].ttc_ms;
		/* what a row keeps: 5 every trial, ttc, share, detection, done phases */
		need += 5 + rows[i].completed + 1 + (rows[i].halted && rows[i].detection_ms >= 0);
		for (size_t k = 0; k < 2; k++)
			need += rows[i].phases[k].done_ms >= 0;
	}
	qsort(v, m, sizeof(*v), cmp_double);
	stats_of(rows, N, need, &st);
	CU_ASSERT_FALSE(st.sketched);
	CU_ASSERT_EQUAL(st.exact_values, need);
	CU_ASSERT_EQUAL(st.ttc.n, N);
	CU_ASSERT_EQUAL(st.ttc.ncensored, N - m);
	/* p50: rank 1500 of 0..3000, among the known values (m > 2700) */
	CU_ASSERT_TRUE(m > 1501);
	NEAR(st.ttc.p[PLAN_P50], v[1500], 0);
	/* p90: rank 2700 exactly (no interpolation) */
	if (2700 < m) {
		NEAR(st.ttc.p[PLAN_P90], v[2700], 0);
	}
	NEAR(st.ttc.min, v[0], 0);
	NEAR(st.ttc.max, v[m - 1], 0);
	plan_stats_release(&st);
	/* one value fewer allowed: sketched */
	stats_of(rows, N, need - 1, &st);
	CU_ASSERT_TRUE(st.sketched);
	plan_stats_release(&st);
	free(v);
	fx_rows_free(rows, N);
}

/*
 * Above the budget each percentile is within PLAN_SKETCH_REL_ERR of the
 * exact one, for values from 1 ms to 10^11; whole numbers below 256 are
 * exact; counts, censoring, min and max are the same; halts and the
 * critical path are counted as ever.  The switch keeps the values seen
 * before it: a budget spent half way gives what a budget of 0 gives.
 */
static void test_sketch_within_its_error(void)
{
	enum { N = 20000 };
	struct trial_row *rows = spread_rows(N);
	struct plan_stats ex, sk, mid;

	stats_of(rows, N, (size_t)1 << 30, &ex);
	stats_of(rows, N, 0, &sk);
	stats_of(rows, N, 50000, &mid);
	CU_ASSERT_FALSE(ex.sketched);
	CU_ASSERT_TRUE(sk.sketched);
	CU_ASSERT_TRUE(mid.sketched);
	check_within(&ex.ttc, &sk.ttc, false);
	check_within(&ex.blast_count, &sk.blast_count, false);
	check_within(&ex.blast_share, &sk.blast_share, false);
	check_within(&ex.detection, &sk.detection, false);
	check_within(&ex.exposure, &sk.exposure, false);
	check_within(&ex.job_wait, &sk.job_wait, false);
	check_within(&ex.peak_jobs, &sk.peak_jobs, true);
	check_within(&ex.peak_adopting, &sk.peak_adopting, true);
	/* the sketch is not the exact answer by accident: some percentile moved */
	CU_ASSERT(ex.ttc.p[PLAN_P50] != sk.ttc.p[PLAN_P50] || ex.job_wait.p[PLAN_P50] != sk.job_wait.p[PLAN_P50]);
	CU_ASSERT_EQUAL_FATAL(sk.nphases, 2);
	for (size_t i = 0; i < 2; i++) {
		check_within(&ex.phases[i].duration, &sk.phases[i].duration, false);
		CU_ASSERT_EQUAL(sk.phases[i].ncritical, ex.phases[i].ncritical);
	}
	CU_ASSERT_TRUE(ex.phases[1].duration.ncensored > 0);
	CU_ASSERT_EQUAL(sk.complete.k, ex.complete.k);
	CU_ASSERT_EQUAL_FATAL(sk.nhalts, ex.nhalts);
	for (size_t i = 0; i < sk.nhalts; i++)
		CU_ASSERT_EQUAL(sk.halts[i].n, ex.halts[i].n);
	/* switched half way: the same bins, the same running mean */
	for (int k = 0; k < PLAN_NPCT; k++) {
		NEAR(mid.ttc.p[k], sk.ttc.p[k], 0);
		NEAR(mid.exposure.p[k], sk.exposure.p[k], 0);
		NEAR(mid.phases[0].duration.p[k], sk.phases[0].duration.p[k], 0);
	}
	NEAR(mid.ttc.mean, sk.ttc.mean, 0);
	plan_stats_release(&ex);
	plan_stats_release(&sk);
	plan_stats_release(&mid);
	fx_rows_free(rows, N);
}

/* One value, a value of 0, a share of 1 and a huge one: each exact in the sketch. */
static void test_sketch_edges(void)
{
	struct trial_row rows[3];
	struct plan_stats st;

	rows[0] = fx_trial_row(0, 0);
	rows[1] = fx_trial_row(1, 0);
	rows[2] = fx_trial_row(2, INT64_MAX / 2);
	for (size_t i = 0; i < 3; i++) {
		rows[i].blast_total = 4;
		rows[i].blast_count = 4;
		rows[i].halted = true;
	}
	stats_of(rows, 3, 0, &st);
	CU_ASSERT_TRUE(st.sketched);
	NEAR(st.ttc.p[PLAN_P50], 0, 0);                /* rank 1: a 0 */
	NEAR(st.ttc.max, (double)(INT64_MAX / 2), 0);
	CU_ASSERT(fabs(st.ttc.p[PLAN_P99] - 0.98 * (double)(INT64_MAX / 2)) <=
		  PLAN_SKETCH_REL_ERR * 0.98 * (double)(INT64_MAX / 2));
	NEAR(st.blast_share.p[PLAN_P50], 1, 0);        /* clamped to the max */
	NEAR(st.blast_count.p[PLAN_P90], 4, 0);
	plan_stats_release(&st);
	for (size_t i = 0; i < 3; i++)
		trial_row_release(&rows[i]);
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
	{ "exact below the budget, sketched one value past it", test_exact_below_the_budget },
	{ "sketched percentiles within the relative error", test_sketch_within_its_error },
	{ "the sketch at 0, at a share of 1 and near 2^62", test_sketch_edges },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	rng_gsl_init();
	CU_ADD_SUITE("plan_stats", stats_tests);
}
