/*
 * sim/plan/compare.h and reports/partial.h on hand-made rows.  Expected figures
 * are computed independently: the t distribution with 3 degrees of freedom
 * has the closed form F(t) = 1/2 + (x/(1+x^2) + atan x)/pi with x = t/sqrt 3,
 * t(0.975, 3) = 3.182446305284263 is the published table value, and the
 * McNemar p-values are sums of binomial(k, 1/2) terms by hand.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/xalloc.h"
#include "sim/plan/compare.h"
#include "reports/partial.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define NEAR(a, b, eps) CU_ASSERT_DOUBLE_EQUAL((a), (b), (eps))

/* 10 rows completed at 1 s .. 10 s, each shifted by @shift ms. */
static void ladder(struct trial_row *rows, int64_t shift)
{
	for (uint32_t i = 0; i < 10; i++)
		rows[i] = fx_trial_row(i, 1000 * (int64_t)(i + 1) + shift);
}

static void test_identical(void)
{
	struct trial_row a[10];
	struct cmp_result r;

	ladder(a, 0);
	cmp_compute(a, a, 10, 60000, 7, 200, &r);
	CU_ASSERT_EQUAL(r.n, 10);
	CU_ASSERT_EQUAL(r.resamples, 200);
	for (int k = 0; k < CMP_NMETRICS; k++) {
		CU_ASSERT_FALSE(r.m[k].significant);
		CU_ASSERT_FALSE(r.m[k].worse);
		NEAR(r.m[k].delta, 0, 0);
	}
	NEAR(r.m[CMP_TTC_P50].base, 5500, 1e-9);
	NEAR(r.m[CMP_TTC_P50].lo, 0, 0);
	NEAR(r.m[CMP_TTC_P50].hi, 0, 0);
	NEAR(r.m[CMP_TTC_MEAN].p_value, 1, 0);
	NEAR(r.m[CMP_HALT].p_value, 1, 0);
	NEAR(r.m[CMP_COMPLETE].base, 1, 0);
	CU_ASSERT_EQUAL(r.m[CMP_HALT].npairs, 0);
	CU_ASSERT_STRING_EQUAL(r.m[CMP_TTC_P95].key, "p95");
	CU_ASSERT_EQUAL(r.m[CMP_TTC_P95].method, CMP_BOOTSTRAP);
}

static void test_constant_shift(void)
{
	struct trial_row a[10], b[10];
	struct cmp_result r;

	ladder(a, 0);
	ladder(b, 1000);
	cmp_compute(a, b, 10, 60000, 7, 0, &r);
	CU_ASSERT_EQUAL(r.resamples, CMP_DEFAULT_RESAMPLES);
	/* p50 rank 4.5: 5.5 s vs 6.5 s; p90 rank 8.1: 9.1 s vs 10.1 s */
	NEAR(r.m[CMP_TTC_P50].base, 5500, 1e-9);
	NEAR(r.m[CMP_TTC_P50].head, 6500, 1e-9);
	NEAR(r.m[CMP_TTC_P50].delta_pct, 100.0 * 1000 / 5500, 1e-9);
	NEAR(r.m[CMP_TTC_P90].base, 9100, 1e-9);
	NEAR(r.m[CMP_TTC_P90].head, 10100, 1e-9);
	/* every resample moves by exactly 1 s: the interval is a point */
	for (int k = CMP_TTC_P50; k <= CMP_TTC_P99; k++) {
		NEAR(r.m[k].lo, 1000, 1e-9);
		NEAR(r.m[k].hi, 1000, 1e-9);
		CU_ASSERT_TRUE(r.m[k].significant);
		CU_ASSERT_TRUE(r.m[k].worse);
		CU_ASSERT_TRUE(isnan(r.m[k].p_value));
	}
	/* no spread in the differences: p = 0 */
	NEAR(r.m[CMP_TTC_MEAN].base, 5500, 1e-9);
	NEAR(r.m[CMP_TTC_MEAN].head, 6500, 1e-9);
	NEAR(r.m[CMP_TTC_MEAN].delta, 1000, 1e-9);
	NEAR(r.m[CMP_TTC_MEAN].p_value, 0, 0);
	CU_ASSERT_EQUAL(r.m[CMP_TTC_MEAN].npairs, 10);
	CU_ASSERT_TRUE(r.m[CMP_TTC_MEAN].worse);
	/* a faster head is significant but not worse */
	cmp_compute(b, a, 10, 60000, 7, 0, &r);
	CU_ASSERT_TRUE(r.m[CMP_TTC_P50].significant);
	CU_ASSERT_FALSE(r.m[CMP_TTC_P50].worse);
	NEAR(r.m[CMP_TTC_P50].delta, -1000, 1e-9);
}

static void test_paired_t(void)
{
	struct trial_row a[4], b[4];
	struct cmp_result r;

	/* differences 1, 2, 3, 4 s; blast radius 0 vs 1, 2, 3, 4 targets */
	for (uint32_t i = 0; i < 4; i++) {
		a[i] = fx_trial_row(i, 10000);
		b[i] = fx_trial_row(i, 10000 + 1000 * (int64_t)(i + 1));
		b[i].blast_count = i + 1;
		b[i].blast_total = 10;
	}
	cmp_compute(a, b, 4, 60000, 7, 100, &r);
	NEAR(r.m[CMP_TTC_MEAN].delta, 2500, 1e-9);
	NEAR(r.m[CMP_TTC_MEAN].delta_pct, 25, 1e-9);
	NEAR(r.m[CMP_TTC_MEAN].p_value, 0.030466291662170963, 1e-9);
	NEAR(r.m[CMP_TTC_MEAN].lo, 445.7397432391208, 1e-6);
	NEAR(r.m[CMP_TTC_MEAN].hi, 4554.260256760879, 1e-6);
	CU_ASSERT_TRUE(r.m[CMP_TTC_MEAN].significant);
	NEAR(r.m[CMP_BLAST].base, 0, 0);
	NEAR(r.m[CMP_BLAST].head, 2.5, 1e-12);
	NEAR(r.m[CMP_BLAST].delta, 2.5, 1e-12);
	CU_ASSERT_TRUE(isnan(r.m[CMP_BLAST].delta_pct));
	NEAR(r.m[CMP_BLAST].p_value, 0.030466291662170963, 1e-9);
	CU_ASSERT_TRUE(r.m[CMP_BLAST].worse);
}

static void test_mcnemar(void)
{
	struct trial_row a[10], b[10];
	struct cmp_result r;

	ladder(a, 0);
	ladder(b, 0);
	/* head halts in 6 trials the base did not: p = 2 / 2^6 */
	for (int i = 0; i < 6; i++)
		b[i].halted = true;
	cmp_compute(a, b, 10, 60000, 7, 50, &r);
	NEAR(r.m[CMP_HALT].base, 0, 0);
	NEAR(r.m[CMP_HALT].head, 0.6, 1e-12);
	NEAR(r.m[CMP_HALT].p_value, 0.03125, 1e-12);
	CU_ASSERT_EQUAL(r.m[CMP_HALT].npairs, 6);
	CU_ASSERT_TRUE(r.m[CMP_HALT].worse);
	/* 5 only: p = 2 / 2^5, not significant */
	b[5].halted = false;
	cmp_compute(a, b, 10, 60000, 7, 50, &r);
	NEAR(r.m[CMP_HALT].p_value, 0.0625, 1e-12);
	CU_ASSERT_FALSE(r.m[CMP_HALT].significant);
	/* 6 up, 1 down: p = 2 (1 + 7) / 2^7 */
	b[5].halted = true;
	a[9].halted = true;
	cmp_compute(a, b, 10, 60000, 7, 50, &r);
	NEAR(r.m[CMP_HALT].p_value, 0.125, 1e-12);
	CU_ASSERT_EQUAL(r.m[CMP_HALT].npairs, 7);
	/* completion: fewer completions are worse */
	ladder(b, 0);
	for (int i = 0; i < 6; i++)
		b[i] = fx_trial_row((uint32_t)i, -1);
	cmp_compute(a, b, 10, 60000, 7, 50, &r);
	NEAR(r.m[CMP_COMPLETE].delta, -0.6, 1e-12);
	CU_ASSERT_TRUE(r.m[CMP_COMPLETE].worse);
	CU_ASSERT_FALSE(r.m[CMP_COMPLETE].higher_is_worse);
}

static void test_censored_and_deterministic(void)
{
	struct trial_row a[10], b[10];
	struct cmp_result r1, r2, r3;

	ladder(a, 0);
	ladder(b, 0);
	b[8] = fx_trial_row(8, -1);
	b[9] = fx_trial_row(9, -1);
	b[9].stop = DES_BUDGET;
	cmp_compute(a, b, 10, 60000, 7, 300, &r1);
	CU_ASSERT_EQUAL(r1.nbound[0], 0);
	CU_ASSERT_EQUAL(r1.nbound[1], 1);
	/* p90 rank 8.1 falls among the 2 censored head trials: "> horizon", counted as 60 s */
	CU_ASSERT_FALSE(r1.m[CMP_TTC_P90].base_censored);
	CU_ASSERT_TRUE(r1.m[CMP_TTC_P90].head_censored);
	NEAR(r1.m[CMP_TTC_P90].head, 60000, 1e-9);
	CU_ASSERT_FALSE(r1.m[CMP_TTC_P50].head_censored);
	/* the mean uses the 8 trials completed in both */
	CU_ASSERT_EQUAL(r1.m[CMP_TTC_MEAN].npairs, 8);
	NEAR(r1.m[CMP_TTC_MEAN].base, 4500, 1e-9);
	/* same rows and seed: the same interval; the draws follow the seed */
	cmp_compute(a, b, 10, 60000, 7, 300, &r2);
	NEAR(r2.m[CMP_TTC_P90].lo, r1.m[CMP_TTC_P90].lo, 0);
	NEAR(r2.m[CMP_TTC_P90].hi, r1.m[CMP_TTC_P90].hi, 0);
	NEAR(r2.m[CMP_TTC_P50].lo, r1.m[CMP_TTC_P50].lo, 0);
	CU_ASSERT_TRUE(r1.m[CMP_TTC_P90].lo <= r1.m[CMP_TTC_P90].hi);
	/* a noisy head: another seed draws other resamples, so another interval */
	for (uint32_t i = 0; i < 10; i++)
		b[i] = fx_trial_row(i, 1000 * (int64_t)((i * 3) % 10 + 1) + 500 * (int64_t)(i % 2));
	cmp_compute(a, b, 10, 60000, 7, 300, &r1);
	cmp_compute(a, b, 10, 60000, 8, 300, &r3);
	CU_ASSERT_TRUE(r3.m[CMP_TTC_P50].lo != r1.m[CMP_TTC_P50].lo ||
		       r3.m[CMP_TTC_P50].hi != r1.m[CMP_TTC_P50].hi);
}

static void test_limits(void)
{
	struct cmp_limit *l = NULL;
	struct trial_row a[10], b[10];
	struct cmp_result r;
	size_t n = 0;
	char err[256];

	CU_ASSERT_EQUAL(cmp_parse_limits("p95=10%,mean=5m", &l, &n, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(cmp_parse_limits("haltProbability=0.05,blastRadius=2", &l, &n, err,
					 sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	CU_ASSERT_EQUAL(l[0].metric, CMP_TTC_P95);
	CU_ASSERT_TRUE(l[0].pct);
	NEAR(l[0].value, 10, 0);
	CU_ASSERT_STRING_EQUAL(l[0].text, "p95=10%");
	CU_ASSERT_FALSE(l[1].pct);
	NEAR(l[1].value, 300000, 0);
	CU_ASSERT_EQUAL(l[2].metric, CMP_HALT);
	NEAR(l[2].value, 0.05, 0);
	CU_ASSERT_EQUAL(l[3].metric, CMP_BLAST);
	NEAR(l[3].value, 2, 0);
	/* 5% as spec.expect writes it: the same absolute 0.05 */
	CU_ASSERT_EQUAL(cmp_parse_limits("haltProbability=5%", &l, &n, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(n, 5);
	CU_ASSERT_EQUAL(l[4].metric, CMP_HALT);
	CU_ASSERT_FALSE(l[4].pct);
	NEAR(l[4].value, 0.05, 1e-15);
	cmp_limits_free(l, n);

	l = NULL;
	n = 0;
	CU_ASSERT_EQUAL(cmp_parse_limits("p95", &l, &n, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "'p95' is not METRIC=LIMIT");
	CU_ASSERT_EQUAL(cmp_parse_limits("p42=1%", &l, &n, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown metric 'p42'"));
	CU_ASSERT_EQUAL(cmp_parse_limits("p95=abc", &l, &n, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(cmp_parse_limits("p95=x%", &l, &n, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(cmp_parse_limits("haltProbability=2", &l, &n, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(cmp_parse_limits("haltProbability=105%", &l, &n, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "like 0.05 or 5%"));
	CU_ASSERT_EQUAL(cmp_parse_limits("haltProbability=x%", &l, &n, err, sizeof(err)), -1);
	/* A negative percentage: the message offers both forms a time limit takes. */
	CU_ASSERT_EQUAL(cmp_parse_limits("p95=-5%", &l, &n, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "invalid limit '-5%' for 'p95': expected a percentage like "
				    "10% or a duration like 5m");
	CU_ASSERT_EQUAL(cmp_parse_limits("blastRadius=-1", &l, &n, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(cmp_parse_limits("", &l, &n, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(cmp_parse_limits("p50=1%,", &l, &n, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(n, 1); /* p50=1% stayed appended */
	cmp_limits_free(l, n);

	/* +1 s on 5.5 s is +18.2 % */
	ladder(a, 0);
	ladder(b, 1000);
	cmp_compute(a, b, 10, 60000, 7, 100, &r);
	{
		struct cmp_limit t = { CMP_TTC_P50, true, 18, NULL };

		CU_ASSERT_TRUE(cmp_limit_failed(&r, &t));
		t.value = 19;
		CU_ASSERT_FALSE(cmp_limit_failed(&r, &t));
		t.pct = false;
		t.value = 1000; /* worse by exactly the limit: allowed */
		CU_ASSERT_FALSE(cmp_limit_failed(&r, &t));
		t.value = 999;
		CU_ASSERT_TRUE(cmp_limit_failed(&r, &t));
	}
	/* a faster head never fails */
	cmp_compute(b, a, 10, 60000, 7, 100, &r);
	{
		struct cmp_limit t = { CMP_TTC_P50, true, 0, NULL };

		CU_ASSERT_FALSE(cmp_limit_failed(&r, &t));
	}
}

static void test_shard_parse_and_slice(void)
{
	uint32_t k, n, first, count;
	char err[256];

	CU_ASSERT_EQUAL(partial_parse_shard("2/5", 100, &k, &n, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(k, 2);
	CU_ASSERT_EQUAL(n, 5);
	CU_ASSERT_EQUAL(partial_parse_shard("0/3", 100, &k, &n, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "K must be from 1 to 3"));
	CU_ASSERT_EQUAL(partial_parse_shard("4/3", 100, &k, &n, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(partial_parse_shard("1/0", 100, &k, &n, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "shard count must be from 1 to 100"));
	CU_ASSERT_EQUAL(partial_parse_shard("1/101", 100, &k, &n, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(partial_parse_shard("x", 100, &k, &n, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "invalid shard 'x': expected K/N, like 2/5");
	CU_ASSERT_EQUAL(partial_parse_shard("1/", 100, &k, &n, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(partial_parse_shard("-1/3", 100, &k, &n, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(partial_parse_shard("1/3x", 100, &k, &n, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(partial_parse_shard("1/+3", 100, &k, &n, err, sizeof(err)), -1);

	partial_slice(100, 1, 3, &first, &count);
	CU_ASSERT_EQUAL(first, 0);
	CU_ASSERT_EQUAL(count, 33);
	partial_slice(100, 2, 3, &first, &count);
	CU_ASSERT_EQUAL(first, 33);
	CU_ASSERT_EQUAL(count, 33);
	partial_slice(100, 3, 3, &first, &count);
	CU_ASSERT_EQUAL(first, 66);
	CU_ASSERT_EQUAL(count, 34);
	partial_slice(3, 2, 5, &first, &count);
	CU_ASSERT_EQUAL(first, 0);
	CU_ASSERT_EQUAL(count, 1);
	partial_slice(3, 1, 5, &first, &count);
	CU_ASSERT_EQUAL(count, 0);
}

/* Shard @k of @kn of a run partial of 6 trials, written to a new temporary file @path. */
static void make_partial(char *path, uint32_t k, uint32_t kn, uint64_t seed)
{
	struct partial p;
	uint32_t first, n;
	int fd;
	FILE *f;

	partial_slice(6, k, kn, &first, &n);
	memset(&p, 0, sizeof(p));
	p.command = xstrdup("run");
	p.seed = seed;
	p.horizon_ms = 60000;
	p.total = 6;
	p.shard_k = k;
	p.shard_n = kn;
	p.first = first;
	p.n = n;
	p.nin = 1;
	p.in[0].role = xstrdup("scenario");
	p.in[0].name = xstrdup("demo");
	p.in[0].nfiles = 1;
	p.in[0].files = xcalloc(1, sizeof(char *));
	p.in[0].files[0] = xstrdup("demo.yaml");
	memcpy(p.in[0].digest, "0123456789abcdef", PARTIAL_DIGEST_LEN);
	p.in[0].rows = xcalloc(n ? n : 1, sizeof(struct trial_row));
	for (uint32_t i = 0; i < n; i++) {
		struct trial_row *r = &p.in[0].rows[i];

		*r = fx_trial_row(first + i, i == 1 ? -1 : 1000 * (int64_t)(first + i));
		/* Base seed 2^64-1: some trial seeds are above 2^63, written as strings. */
		r->seed = trials_seed(seed, first + i);
		r->halted = i == 1;
		r->halt_ms = r->halted ? 5000 : -1;
		r->halt_where = r->halted ? xstrdup("step \"prod\"") : NULL;
		r->halt_reason = r->halted ? xstrdup("StepFailed") : NULL;
		r->stop = i == 1 ? DES_LOOP : DES_STOPPED;
		r->nphases = 1;
		r->phases = xcalloc(1, sizeof(*r->phases));
		/* Opened at the start, done by the trial's end (merge refuses a phase after it). */
		r->phases[0] = (struct trial_phase){ xstrdup("Rollout default/shop"), xstrdup("step dev"),
						     0, i == 1 ? -1 : r->end_ms };
	}
	strcpy(path, "/tmp/test_compare_XXXXXX");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "w");
	CU_ASSERT_EQUAL(partial_write(f, &p), 0);
	fclose(f);
	partial_release(&p);
}

static void test_partial_round_trip_and_merge(void)
{
	char pa[64], pb[64], pc[64], pd[64], err[512];
	const char *paths[3];
	struct partial p[3], m;
	uint64_t budget = 1 << 20;

	make_partial(pa, 1, 2, UINT64_MAX);
	make_partial(pb, 2, 2, UINT64_MAX);
	make_partial(pc, 2, 3, UINT64_MAX); /* trials 2..3 overlap pa's 0..2 */
	make_partial(pd, 2, 2, 8);          /* another seed */
	CU_ASSERT_EQUAL_FATAL(partial_read(pa, &budget, &p[0], err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p[0].first, 0);
	CU_ASSERT_EQUAL(p[0].n, 3);
	CU_ASSERT_EQUAL(p[0].seed, UINT64_MAX);
	CU_ASSERT_STRING_EQUAL(p[0].in[0].digest, "0123456789abcdef");
	CU_ASSERT_EQUAL(p[0].in[0].rows[1].seed, trials_seed(UINT64_MAX, 1));
	CU_ASSERT_EQUAL(p[0].in[0].rows[1].stop, DES_LOOP);
	CU_ASSERT_EQUAL(p[0].in[0].rows[1].ttc_ms, -1);
	CU_ASSERT_STRING_EQUAL(p[0].in[0].rows[1].halt_where, "step \"prod\"");
	CU_ASSERT_PTR_NULL(p[0].in[0].rows[0].halt_where);
	CU_ASSERT_EQUAL(p[0].in[0].rows[1].phases[0].done_ms, -1);
	CU_ASSERT_STRING_EQUAL(p[0].in[0].rows[2].phases[0].name, "step dev");

	/* b then a: merged in index order */
	CU_ASSERT_EQUAL_FATAL(partial_read(pb, &budget, &p[1], err, sizeof(err)), 0);
	{
		struct partial two[2] = { p[1], p[0] };
		const char *names[2] = { pb, pa };

		CU_ASSERT_EQUAL_FATAL(partial_merge(two, 2, names, &m, err, sizeof(err)), 0);
		CU_ASSERT_EQUAL(m.n, 6);
		CU_ASSERT_EQUAL(m.first, 0);
		for (uint32_t i = 0; i < 6; i++)
			CU_ASSERT_EQUAL(m.in[0].rows[i].index, i);
		partial_release(&m);
		partial_release(&two[0]);
		partial_release(&two[1]);
	}

	CU_ASSERT_EQUAL_FATAL(partial_read(pa, &budget, &p[0], err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(partial_read(pc, &budget, &p[1], err, sizeof(err)), 0);
	paths[0] = pa;
	paths[1] = pc;
	CU_ASSERT_EQUAL(partial_merge(p, 2, paths, &m, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "(trials 2..3) overlaps"));
	partial_release(&p[1]);
	/* a alone: 3..5 missing */
	CU_ASSERT_EQUAL(partial_merge(p, 1, paths, &m, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "trials 3..5 of 6 are missing");
	CU_ASSERT_EQUAL_FATAL(partial_read(pd, &budget, &p[1], err, sizeof(err)), 0);
	paths[1] = pd;
	CU_ASSERT_EQUAL(partial_merge(p, 2, paths, &m, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "they have different seeds"));
	partial_release(&p[0]);
	partial_release(&p[1]);

	/* not a partial */
	{
		FILE *f = fopen(pd, "w");

		fputs("{\"schema\": \"magos-sim/trials/v1\"}\n", f);
		fclose(f);
		CU_ASSERT_EQUAL(partial_read(pd, &budget, &p[0], err, sizeof(err)), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a magos-sim partial result"));
		partial_release(&p[0]);
		f = fopen(pd, "w");
		fputs("garbage", f);
		fclose(f);
		CU_ASSERT_EQUAL(partial_read(pd, &budget, &p[0], err, sizeof(err)), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "not JSON"));
		partial_release(&p[0]);
	}
	unlink(pa);
	unlink(pb);
	unlink(pc);
	unlink(pd);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "identical rows: nothing significant", test_identical },
		{ "constant shift: exact deltas, point intervals", test_constant_shift },
		{ "paired t-test against the closed-form t(3)", test_paired_t },
		{ "exact McNemar p-values", test_mcnemar },
		{ "censored percentiles, deterministic bootstrap", test_censored_and_deterministic },
		{ "--max-regression parsing and verdicts", test_limits },
		{ "--shard parsing and slices", test_shard_parse_and_slice },
		{ "partial round trip and merge checks", test_partial_round_trip_and_merge },
		CU_TEST_INFO_NULL,
	};

	CU_ADD_SUITE("compare", tests);
}
