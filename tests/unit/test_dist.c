/*
 * Tests of sim/load/dist: seeded statistical checks (tolerances several standard
 * errors wide, so they fail only when the mapping is wrong), golden values
 * that pin the exact mapping from a stream to samples, closed forms,
 * validation messages and descriptions.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "sim/load/dist.h"
#include "sim/core/rng.h"
#include "tests/unit/cu_main.h"

#define N_BIG 200000
#define N_MID 100000

/* x within a relative tolerance rel of want */
#define ASSERT_REL(x, want, rel) CU_ASSERT(fabs((x) - (want)) <= (rel) * fabs(want))

static double *samples_buf(size_t n)
{
	double *p = malloc(n * sizeof *p);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	return p;
}

/* n samples of d from the stream (seed, 0, id); returned unsorted */
static double *draw(const struct dist *d, const char *id, size_t n)
{
	gsl_rng *r = rng_gsl_new(2024, 0, id);
	double *x = samples_buf(n);
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = dist_sample(d, r);
	gsl_rng_free(r);
	return x;
}

static double quantile_of(double *x, size_t n, double p)
{
	gsl_sort(x, 1, n);
	return gsl_stats_quantile_from_sorted_data(x, 1, n, p);
}

static void test_lognormal_median_p95(void)
{
	struct dist d;
	double *x;
	char err[128];

	dist_init_lognormal_median_p95(&d, 300000, 720000);
	CU_ASSERT_EQUAL(dist_validate(&d, err, sizeof err), 0);
	CU_ASSERT_EQUAL(d.kind, DIST_LOGNORMAL);
	CU_ASSERT_DOUBLE_EQUAL(d.u.lognormal.mu, log(300000.0), 1e-12);
	/* z_0.95 = 1.6448536269514722 */
	CU_ASSERT_DOUBLE_EQUAL(d.u.lognormal.sigma, log(2.4) / 1.6448536269514722, 1e-12);
	ASSERT_REL(dist_quantile(&d, 0.5), 300000.0, 1e-9);
	ASSERT_REL(dist_quantile(&d, 0.95), 720000.0, 1e-9);
	ASSERT_REL(dist_mean(&d), 300000 * exp(d.u.lognormal.sigma * d.u.lognormal.sigma / 2), 1e-12);

	x = draw(&d, "lognormal", N_BIG);
	ASSERT_REL(quantile_of(x, N_BIG, 0.5), 300000.0, 0.01);
	ASSERT_REL(quantile_of(x, N_BIG, 0.95), 720000.0, 0.02);
	CU_ASSERT(x[0] > 0);
	free(x);
	dist_release(&d);

	/* by (mu, sigma): median exp(mu) */
	dist_init_lognormal(&d, 1.0, 0.5);
	CU_ASSERT_EQUAL(dist_validate(&d, NULL, 0), 0);
	ASSERT_REL(dist_quantile(&d, 0.5), exp(1.0), 1e-12);
	ASSERT_REL(d.u.lognormal.p95, exp(1.0 + 0.5 * 1.6448536269514722), 1e-12);
}

static void test_exponential(void)
{
	struct dist d;
	double *x;

	dist_init_exponential(&d, 60000);
	CU_ASSERT_EQUAL(dist_mean(&d), 60000.0);
	ASSERT_REL(dist_quantile(&d, 0.5), 60000 * log(2.0), 1e-12);
	CU_ASSERT(isinf(dist_quantile(&d, 1.0)));
	CU_ASSERT_EQUAL(dist_quantile(&d, 0.0), 0.0);
	x = draw(&d, "exponential", N_MID);
	/* sd of the sample mean is mean / sqrt(n) = 0.3%: 2% is over 6 sd */
	ASSERT_REL(gsl_stats_mean(x, 1, N_MID), 60000.0, 0.02);
	ASSERT_REL(quantile_of(x, N_MID, 0.5), 60000 * log(2.0), 0.02);
	CU_ASSERT(x[0] >= 0);
	free(x);
}

static void test_uniform(void)
{
	struct dist d;
	double *x;
	size_t i;

	dist_init_uniform(&d, 1000, 5000);
	x = draw(&d, "uniform", N_MID);
	for (i = 0; i < N_MID; i++)
		CU_ASSERT_FATAL(x[i] >= 1000 && x[i] <= 5000);
	ASSERT_REL(gsl_stats_mean(x, 1, N_MID), 3000.0, 0.01);
	gsl_sort(x, 1, N_MID);
	CU_ASSERT(x[0] < 1000.5);
	CU_ASSERT(x[N_MID - 1] > 4999.5);
	free(x);
	CU_ASSERT_EQUAL(dist_mean(&d), 3000.0);
	CU_ASSERT_EQUAL(dist_quantile(&d, 0.25), 2000.0);

	/* min == max is a valid point mass */
	dist_init_uniform(&d, 7, 7);
	CU_ASSERT_EQUAL(dist_validate(&d, NULL, 0), 0);
	x = draw(&d, "uniform-point", 10);
	for (i = 0; i < 10; i++)
		CU_ASSERT_EQUAL(x[i], 7.0);
	free(x);
}

static void test_normal_truncated(void)
{
	struct dist d;
	double *x;
	size_t i;

	/* far from the truncation point it is the plain normal */
	dist_init_normal(&d, 10000, 2000);
	x = draw(&d, "normal", N_MID);
	for (i = 0; i < N_MID; i++)
		CU_ASSERT_FATAL(x[i] >= 0);
	ASSERT_REL(gsl_stats_mean(x, 1, N_MID), 10000.0, 0.005);
	ASSERT_REL(gsl_stats_sd(x, 1, N_MID), 2000.0, 0.02);
	free(x);
	ASSERT_REL(dist_mean(&d), 10000.0, 1e-6);
	/* truncation removes P(Z < -5) = 2.9e-7 of the mass: the median moves up by ~1e-7 */
	ASSERT_REL(dist_quantile(&d, 0.5), 10000.0, 1e-6);
	CU_ASSERT(dist_quantile(&d, 0.5) > 10000.0);

	/* mean 0: the half-normal, mean sd * sqrt(2 / pi), median sd * 0.6745 */
	dist_init_normal(&d, 0, 1000);
	ASSERT_REL(dist_mean(&d), 1000 * sqrt(2 / M_PI), 1e-9);
	ASSERT_REL(dist_quantile(&d, 0.5), 1000 * gsl_cdf_ugaussian_Pinv(0.75), 1e-9);
	x = draw(&d, "half-normal", N_MID);
	for (i = 0; i < N_MID; i++)
		CU_ASSERT_FATAL(x[i] >= 0);
	ASSERT_REL(gsl_stats_mean(x, 1, N_MID), dist_mean(&d), 0.01);
	free(x);

	/* mean = -10 sd: all mass is in a thin tail at 0 (mean about sd / 10);
	 * a rejection sampler would loop ~10^23 times per draw */
	dist_init_normal(&d, -10000, 1000);
	CU_ASSERT_EQUAL(dist_validate(&d, NULL, 0), 0);
	ASSERT_REL(dist_mean(&d), 1000 * (gsl_ran_ugaussian_pdf(10) / gsl_cdf_ugaussian_Q(10) - 10), 1e-9);
	CU_ASSERT(dist_mean(&d) > 95 && dist_mean(&d) < 100); /* 1000 (1/10 - 2/1000 + ...) */
	x = draw(&d, "normal-far", N_MID);
	for (i = 0; i < N_MID; i++)
		CU_ASSERT_FATAL(isfinite(x[i]) && x[i] >= 0 && x[i] < 3000);
	ASSERT_REL(gsl_stats_mean(x, 1, N_MID), dist_mean(&d), 0.02);
	free(x);

	/* beyond the underflow of Q (a = 100): the exponential-tail fallback */
	dist_init_normal(&d, -100, 1);
	ASSERT_REL(dist_mean(&d), 0.01, 0.001);
	x = draw(&d, "normal-farther", N_MID);
	for (i = 0; i < N_MID; i++)
		CU_ASSERT_FATAL(isfinite(x[i]) && x[i] >= 0 && x[i] < 1);
	ASSERT_REL(gsl_stats_mean(x, 1, N_MID), 0.01, 0.03);
	free(x);
	CU_ASSERT_EQUAL(dist_quantile(&d, 0.0), 0.0);
	CU_ASSERT(isinf(dist_quantile(&d, 1.0)));
}

static void test_gamma_weibull(void)
{
	struct dist d;
	double *x;

	dist_init_gamma(&d, 2.0, 30000);
	CU_ASSERT_EQUAL(dist_validate(&d, NULL, 0), 0);
	CU_ASSERT_EQUAL(dist_mean(&d), 60000.0);
	ASSERT_REL(dist_quantile(&d, 0.5), gsl_cdf_gamma_Pinv(0.5, 2.0, 30000), 1e-12);
	x = draw(&d, "gamma", N_MID);
	ASSERT_REL(gsl_stats_mean(x, 1, N_MID), 60000.0, 0.02);
	ASSERT_REL(quantile_of(x, N_MID, 0.5), dist_quantile(&d, 0.5), 0.02);
	free(x);

	dist_init_gamma_mean_sd(&d, 600, 300);
	CU_ASSERT_EQUAL(dist_validate(&d, NULL, 0), 0);
	CU_ASSERT_DOUBLE_EQUAL(d.u.gamma.shape, 4.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(d.u.gamma.scale, 150.0, 1e-12);
	x = draw(&d, "gamma-moments", N_MID);
	ASSERT_REL(gsl_stats_mean(x, 1, N_MID), 600.0, 0.01);
	ASSERT_REL(gsl_stats_sd(x, 1, N_MID), 300.0, 0.02);
	free(x);

	dist_init_weibull(&d, 1.5, 1000);
	CU_ASSERT_EQUAL(dist_validate(&d, NULL, 0), 0);
	ASSERT_REL(dist_mean(&d), 1000 * tgamma(1 + 1 / 1.5), 1e-12);
	/* P(X > x) = exp(-(x/scale)^shape): the median is scale * ln(2)^(1/shape) */
	ASSERT_REL(dist_quantile(&d, 0.5), 1000 * pow(log(2.0), 1 / 1.5), 1e-12);
	x = draw(&d, "weibull", N_MID);
	ASSERT_REL(gsl_stats_mean(x, 1, N_MID), dist_mean(&d), 0.01);
	ASSERT_REL(quantile_of(x, N_MID, 0.5), dist_quantile(&d, 0.5), 0.02);
	free(x);
}

static void test_empirical(void)
{
	static const double given[] = { 30, 10, 90, 10, 50 };
	struct dist d, copy;
	gsl_rng *r = rng_gsl_new(1, 0, "empirical");
	static const double values[4] = { 10, 30, 50, 90 };
	unsigned counts[4] = { 0 };
	size_t i, k;

	dist_init_empirical(&d, given, 5);
	CU_ASSERT_EQUAL(dist_validate(&d, NULL, 0), 0);
	for (i = 0; i < 50000; i++) {
		double v = dist_sample(&d, r);

		for (k = 0; k < 4 && values[k] != v; k++)
			;
		CU_ASSERT_FATAL(k < 4);
		counts[k]++;
	}
	/* 10 is given twice: 20000 expected, the others 10000 (sd about 90) */
	CU_ASSERT(counts[0] > 19500 && counts[0] < 20500);
	for (k = 1; k < 4; k++)
		CU_ASSERT(counts[k] > 9500 && counts[k] < 10500);
	CU_ASSERT_EQUAL(dist_mean(&d), 38.0);
	CU_ASSERT_EQUAL(dist_quantile(&d, 0.0), 10.0);
	CU_ASSERT_EQUAL(dist_quantile(&d, 0.4), 10.0); /* F(10) = 0.4 */
	CU_ASSERT_EQUAL(dist_quantile(&d, 0.41), 30.0);
	CU_ASSERT_EQUAL(dist_quantile(&d, 0.6), 30.0);
	CU_ASSERT_EQUAL(dist_quantile(&d, 1.0), 90.0);

	/* the copy owns its own arrays: it survives the original */
	dist_copy(&copy, &d);
	dist_release(&d);
	CU_ASSERT_EQUAL(dist_mean(&copy), 38.0);
	for (i = 0; i < 100; i++) {
		double v = dist_sample(&copy, r);

		CU_ASSERT(v == 10 || v == 30 || v == 50 || v == 90);
	}
	dist_release(&copy);
	dist_release(NULL);
	gsl_rng_free(r);

	/* p = 0.3 of 10 samples is the third, despite 0.3 * 10 > 3 in doubles */
	{
		double ten[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

		dist_init_empirical(&d, ten, 10);
		CU_ASSERT_EQUAL(dist_quantile(&d, 0.3), 3.0);
		CU_ASSERT_EQUAL(dist_quantile(&d, 0.7), 7.0);
		dist_release(&d);
	}
}

static void test_histogram(void)
{
	static const double edges[] = { 0, 1000, 2000, 6000 };
	static const double weights[] = { 1, 0, 3 };
	struct dist d, copy;
	gsl_rng *r = rng_gsl_new(1, 0, "histogram");
	unsigned in_first = 0, in_last = 0, in_low_half = 0;
	size_t i;

	dist_init_histogram(&d, edges, weights, 3);
	CU_ASSERT_EQUAL(dist_validate(&d, NULL, 0), 0);
	for (i = 0; i < 40000; i++) {
		double v = dist_sample(&d, r);

		CU_ASSERT_FATAL(v >= 0 && v <= 6000);
		CU_ASSERT_FATAL(!(v > 1000 && v < 2000)); /* weight 0 */
		if (v < 1000) {
			in_first++;
			in_low_half += v < 500;
		} else {
			in_last++;
		}
	}
	/* 1:3 by weight (10000 : 30000, sd about 87); uniform within a bin */
	CU_ASSERT(in_first > 9500 && in_first < 10500);
	CU_ASSERT(in_last > 29500 && in_last < 30500);
	CU_ASSERT(in_low_half > in_first / 2 - 400 && in_low_half < in_first / 2 + 400);
	CU_ASSERT_EQUAL(dist_mean(&d), (1 * 500.0 + 3 * 4000.0) / 4);
	CU_ASSERT_EQUAL(dist_quantile(&d, 0.0), 0.0);
	CU_ASSERT_EQUAL(dist_quantile(&d, 0.125), 500.0);
	CU_ASSERT_EQUAL(dist_quantile(&d, 0.25), 1000.0);
	CU_ASSERT_EQUAL(dist_quantile(&d, 0.625), 4000.0);
	CU_ASSERT_EQUAL(dist_quantile(&d, 1.0), 6000.0);

	dist_copy(&copy, &d);
	dist_release(&d);
	CU_ASSERT_EQUAL(dist_quantile(&copy, 0.625), 4000.0);
	dist_release(&copy);
	gsl_rng_free(r);
}

/*
 * The same stream gives the same samples, and these exact values: a change
 * to the mapping from draws to samples (or to the stream derivation) fails
 * here.  Durations are pinned in whole ms (exact); two raw lognormal values
 * to 1e-12 relative, which tolerates a last-bit difference of a libm.  The
 * uniform, exponential, Weibull, truncated normal, empirical and histogram
 * rows were recomputed independently (Python, from the documented stream
 * derivation and sampling maps).
 */
static void test_golden(void)
{
	static const double edges[] = { 0, 1000, 2000 };
	static const double weights[] = { 1, 3 };
	static const double given[] = { 5, 6, 7, 8 };
	struct dist ds[9];
	int64_t got[9][3];
	size_t k, i;

	dist_init_constant(&ds[0], 1234.5);
	dist_init_uniform(&ds[1], 1000, 5000);
	dist_init_exponential(&ds[2], 60000);
	dist_init_lognormal_median_p95(&ds[3], 300000, 720000);
	dist_init_normal(&ds[4], 10000, 2000);
	dist_init_gamma(&ds[5], 2, 30000);
	dist_init_weibull(&ds[6], 1.5, 1000);
	dist_init_empirical(&ds[7], given, 4);
	dist_init_histogram(&ds[8], edges, weights, 2);

	for (k = 0; k < 9; k++) {
		gsl_rng *a = rng_gsl_new(42, 7, "golden"), *b = rng_gsl_new(42, 7, "golden");

		for (i = 0; i < 3; i++) {
			got[k][i] = dist_sample_ms(&ds[k], a);
			CU_ASSERT_EQUAL(got[k][i], dist_sample_ms(&ds[k], b));
		}
		gsl_rng_free(a);
		gsl_rng_free(b);
	}
	{
		static const int64_t want[9][3] = {
			{ 1235, 1235, 1235 }, /* constant 1234.5 */
			{ 2442, 1181, 2124 }, /* uniform(1000, 5000) */
			{ 26834, 2785, 19790 }, /* exponential(mean 60000) */
			{ 279746, 122728, 165803 }, /* lognormal(median 300000, p95 720000) */
			{ 10714, 13383, 11160 }, /* normal(10000, 2000) */
			{ 70038, 31397, 90708 }, /* gamma(2, 30000) */
			{ 1013, 2123, 1172 }, /* weibull(1.5, 1000) */
			{ 6, 7, 5 }, /* empirical {5, 6, 7, 8} */
			{ 1045, 1570, 2000 }, /* histogram {0, 1000, 2000} by {1, 3} */
		};

		for (k = 0; k < 9; k++)
			for (i = 0; i < 3; i++) {
				if (got[k][i] != want[k][i])
					printf("golden kind %zu draw %zu: got %lld want %lld\n", k, i,
					       (long long)got[k][i], (long long)want[k][i]);
				CU_ASSERT_EQUAL(got[k][i], want[k][i]);
			}
	}
	{
		gsl_rng *r = rng_gsl_new(42, 7, "golden");

		double l0 = dist_sample(&ds[3], r), l1 = dist_sample(&ds[3], r);

		ASSERT_REL(l0, 279745.92633761239, 1e-12);
		ASSERT_REL(l1, 122727.90065483165, 1e-12);
		gsl_rng_free(r);
	}
	for (k = 0; k < 9; k++)
		dist_release(&ds[k]);
}

static void test_sample_ms_rounding(void)
{
	struct dist d;
	gsl_rng *r = rng_gsl_new(1, 0, "ms");

	dist_init_constant(&d, 1.5);
	CU_ASSERT_EQUAL(dist_sample_ms(&d, r), 2);
	dist_init_constant(&d, 2.5);
	CU_ASSERT_EQUAL(dist_sample_ms(&d, r), 3); /* half away from zero, not to even */
	dist_init_constant(&d, 2.4999);
	CU_ASSERT_EQUAL(dist_sample_ms(&d, r), 2);
	dist_init_constant(&d, 0.4);
	CU_ASSERT_EQUAL(dist_sample_ms(&d, r), 0);
	dist_init_constant(&d, -3);
	CU_ASSERT_EQUAL(dist_sample_ms(&d, r), 0);
	dist_init_constant(&d, NAN);
	CU_ASSERT_EQUAL(dist_sample_ms(&d, r), 0);
	dist_init_constant(&d, 1e300);
	CU_ASSERT_EQUAL(dist_sample_ms(&d, r), INT64_MAX);
	dist_init_constant(&d, 9007199254740993.0); /* rounds to 2^53 as a double */
	CU_ASSERT_EQUAL(dist_sample_ms(&d, r), INT64_C(9007199254740992));
	gsl_rng_free(r);
}

/* Builds d, validates it and checks the message. */
static void expect_invalid(struct dist *d, const char *want)
{
	char err[128] = "untouched";

	CU_ASSERT_EQUAL(dist_validate(d, err, sizeof err), -1);
	CU_ASSERT_STRING_EQUAL(err, want);
	if (strcmp(err, want) != 0)
		printf("validate: got \"%s\", want \"%s\"\n", err, want);
	dist_release(d);
}

static void test_validate(void)
{
	static const double edges_ok[] = { 0, 1, 2 }, edges_flat[] = { 0, 1, 1 };
	static const double edges_nan[] = { 0, NAN, 2 };
	static const double w_ok[] = { 1, 1 }, w_zero[] = { 0, 0 }, w_neg[] = { 1, -1 };
	static const double w_inf[] = { 1, INFINITY };
	static const double s_bad[] = { 1, INFINITY };
	struct dist d;
	char err[8] = "same";

	dist_init_lognormal_median_p95(&d, 300, 300);
	expect_invalid(&d, "p95 must be greater than the median");
	dist_init_lognormal_median_p95(&d, 300, 200);
	expect_invalid(&d, "p95 must be greater than the median");
	dist_init_lognormal_median_p95(&d, 0, 200);
	expect_invalid(&d, "median must be > 0");
	dist_init_lognormal_median_p95(&d, 100, INFINITY);
	expect_invalid(&d, "p95 must be finite");
	dist_init_lognormal(&d, 1, 0);
	expect_invalid(&d, "sigma must be > 0");
	dist_init_lognormal(&d, NAN, 1);
	expect_invalid(&d, "mu must be finite");
	dist_init_uniform(&d, 5, 4);
	expect_invalid(&d, "uniform needs min <= max");
	dist_init_uniform(&d, NAN, 4);
	expect_invalid(&d, "min and max must be finite");
	dist_init_exponential(&d, 0);
	expect_invalid(&d, "mean must be > 0");
	dist_init_exponential(&d, -1);
	expect_invalid(&d, "mean must be > 0");
	dist_init_normal(&d, 5, 0);
	expect_invalid(&d, "sd must be > 0");
	dist_init_normal(&d, INFINITY, 1);
	expect_invalid(&d, "mean must be finite");
	dist_init_gamma(&d, 0, 1);
	expect_invalid(&d, "shape must be > 0");
	dist_init_gamma(&d, 1, -2);
	expect_invalid(&d, "scale must be > 0");
	dist_init_gamma_mean_sd(&d, -5, 1);
	expect_invalid(&d, "mean must be > 0");
	dist_init_gamma_mean_sd(&d, 5, 0);
	expect_invalid(&d, "sd must be > 0");
	dist_init_weibull(&d, -1, 1);
	expect_invalid(&d, "shape must be > 0");
	dist_init_weibull(&d, 1, NAN);
	expect_invalid(&d, "scale must be finite");
	dist_init_constant(&d, NAN);
	expect_invalid(&d, "value must be finite");
	dist_init_empirical(&d, NULL, 0);
	expect_invalid(&d, "empirical needs at least one sample");
	dist_init_empirical(&d, s_bad, 2);
	expect_invalid(&d, "samples must be finite");
	dist_init_histogram(&d, NULL, NULL, 0);
	expect_invalid(&d, "histogram needs at least one bin");
	dist_init_histogram(&d, edges_ok, w_zero, 2);
	expect_invalid(&d, "weights must be non-negative and not all zero");
	dist_init_histogram(&d, edges_ok, w_neg, 2);
	expect_invalid(&d, "weights must be non-negative and not all zero");
	dist_init_histogram(&d, edges_ok, w_inf, 2);
	expect_invalid(&d, "weights must be finite");
	dist_init_histogram(&d, edges_flat, w_ok, 2);
	expect_invalid(&d, "edges must be strictly increasing");
	dist_init_histogram(&d, edges_nan, w_ok, 2);
	expect_invalid(&d, "edges must be finite");

	/* truncated to the buffer; NULL buffer allowed */
	dist_init_uniform(&d, 5, 4);
	CU_ASSERT_EQUAL(dist_validate(&d, err, sizeof err), -1);
	CU_ASSERT_STRING_EQUAL(err, "uniform");
	CU_ASSERT_EQUAL(dist_validate(&d, NULL, 0), -1);
	/* a valid dist leaves err alone */
	dist_init_uniform(&d, 4, 5);
	CU_ASSERT_EQUAL(dist_validate(&d, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(err, "uniform");
}

static size_t fmt_seconds(double v, char *buf, size_t len)
{
	return (size_t)snprintf(buf, len, "%gs", v / 1000);
}

static void expect_describe(struct dist *d, dist_fmt_fn fmt, const char *want)
{
	char buf[128];
	size_t n = dist_describe(d, buf, sizeof buf, fmt);

	CU_ASSERT_STRING_EQUAL(buf, want);
	CU_ASSERT_EQUAL(n, strlen(want));
	if (strcmp(buf, want) != 0)
		printf("describe: got \"%s\", want \"%s\"\n", buf, want);
	dist_release(d);
}

static void test_describe(void)
{
	static const double given[] = { 90, 10, 50 };
	static const double edges[] = { 0, 30000, 60000 };
	static const double weights[] = { 1, 2 };
	struct dist d;
	char small[10];

	dist_init_constant(&d, 300000);
	expect_describe(&d, NULL, "constant(300000)");
	dist_init_uniform(&d, 1000, 5000);
	expect_describe(&d, NULL, "uniform(min 1000, max 5000)");
	dist_init_exponential(&d, 60000);
	expect_describe(&d, fmt_seconds, "exponential(mean 60s)");
	dist_init_lognormal_median_p95(&d, 300000, 720000);
	expect_describe(&d, NULL, "lognormal(median 300000, p95 720000)");
	dist_init_lognormal_median_p95(&d, 300000, 720000);
	expect_describe(&d, fmt_seconds, "lognormal(median 300s, p95 720s)");
	dist_init_lognormal(&d, 1, 0.5);
	expect_describe(&d, fmt_seconds, "lognormal(mu 1, sigma 0.5)");
	dist_init_normal(&d, 10, 2);
	expect_describe(&d, NULL, "normal(mean 10, sd 2, truncated at 0)");
	dist_init_gamma(&d, 2, 3000);
	expect_describe(&d, fmt_seconds, "gamma(shape 2, scale 3s)");
	dist_init_gamma_mean_sd(&d, 6, 4.5);
	expect_describe(&d, NULL, "gamma(mean 6, sd 4.5)");
	dist_init_weibull(&d, 1.5, 1000);
	expect_describe(&d, NULL, "weibull(shape 1.5, scale 1000)");
	dist_init_empirical(&d, given, 3);
	expect_describe(&d, NULL, "empirical(3 samples, 10..90)");
	dist_init_empirical(&d, given, 1);
	expect_describe(&d, NULL, "empirical(1 sample, 90..90)");
	dist_init_histogram(&d, edges, weights, 2);
	expect_describe(&d, fmt_seconds, "histogram(2 bins, 0s..60s)");

	/* truncation keeps the full length as the return value */
	dist_init_uniform(&d, 1000, 5000);
	CU_ASSERT_EQUAL(dist_describe(&d, small, sizeof small, NULL), strlen("uniform(min 1000, max 5000)"));
	CU_ASSERT_STRING_EQUAL(small, "uniform(m");
}

static void test_quantile_domain(void)
{
	struct dist d;

	dist_init_exponential(&d, 10);
	CU_ASSERT(isnan(dist_quantile(&d, -0.1)));
	CU_ASSERT(isnan(dist_quantile(&d, 1.1)));
	CU_ASSERT(isnan(dist_quantile(&d, NAN)));
	dist_init_constant(&d, 4);
	CU_ASSERT_EQUAL(dist_quantile(&d, 0.3), 4.0);
	CU_ASSERT_EQUAL(dist_mean(&d), 4.0);
}

/* n draws of d beyond t from the stream (seed, 0, id); every one is >= t; returns their median. */
static double median_beyond(const struct dist *d, double t, const char *id, size_t n)
{
	gsl_rng *r = rng_gsl_new(2024, 0, id);
	double *x = samples_buf(n), med;
	size_t below = 0;

	for (size_t i = 0; i < n; i++) {
		x[i] = dist_sample_beyond(d, r, t);
		below += x[i] < t;
	}
	gsl_rng_free(r);
	CU_ASSERT_EQUAL(below, 0);
	med = quantile_of(x, n, 0.5);
	free(x);
	return med;
}

/*
 * A duration conditioned on having lasted t already: X | X > t, whose median
 * is the quantile at (1 + F(t)) / 2; no mass beyond t gives t; t <= 0 is an
 * ordinary draw, draw for draw.
 */
static void test_sample_beyond(void)
{
	struct dist d;
	double edges[] = { 0, 10, 20 }, weights[] = { 1, 3 }, emp[] = { 10, 20, 30, 40 };
	double f;
	gsl_rng *a, *b;

	dist_init_constant(&d, 30000);
	CU_ASSERT_EQUAL(dist_sample_beyond(&d, NULL, 10000), 30000);
	CU_ASSERT_EQUAL(dist_sample_beyond(&d, NULL, 45000), 45000); /* overdue: ends now */
	dist_init_exponential(&d, 100);
	ASSERT_REL(median_beyond(&d, 250, "exp", N_MID), 250 + 100 * M_LN2, 0.01);
	dist_init_uniform(&d, 0, 100);
	ASSERT_REL(median_beyond(&d, 40, "uni", N_MID), 70.0, 0.01);
	CU_ASSERT_EQUAL(dist_sample_beyond(&d, NULL, 100), 100);
	dist_init_lognormal_median_p95(&d, 300, 720);
	f = gsl_cdf_lognormal_P(600, d.u.lognormal.mu, d.u.lognormal.sigma);
	ASSERT_REL(median_beyond(&d, 600, "logn", N_MID), dist_quantile(&d, (1 + f) / 2), 0.01);
	dist_init_gamma(&d, 2, 50);
	f = gsl_cdf_gamma_P(150, 2, 50);
	ASSERT_REL(median_beyond(&d, 150, "gamma", N_MID), dist_quantile(&d, (1 + f) / 2), 0.01);
	dist_init_weibull(&d, 1.5, 100);
	f = gsl_cdf_weibull_P(120, 100, 1.5);
	ASSERT_REL(median_beyond(&d, 120, "weib", N_MID), dist_quantile(&d, (1 + f) / 2), 0.01);
	dist_init_normal(&d, 100, 20);
	f = gsl_cdf_gaussian_P(110 - 100, 20);
	ASSERT_REL(median_beyond(&d, 110, "norm", N_MID), 100 + gsl_cdf_gaussian_Pinv((1 + f) / 2, 20), 0.01);
	dist_init_histogram(&d, edges, weights, 2);
	ASSERT_REL(median_beyond(&d, 5, "hist", N_MID), 10 + 10 * (2.25 - 1) / 3, 0.01);
	dist_release(&d);
	dist_init_empirical(&d, emp, 4);
	{
		gsl_rng *r = rng_gsl_new(2024, 0, "emp");
		size_t n30 = 0;

		for (int i = 0; i < 10000; i++) {
			double v = dist_sample_beyond(&d, r, 25);

			CU_ASSERT(v == 30 || v == 40);
			n30 += v == 30;
		}
		gsl_rng_free(r);
		CU_ASSERT(n30 > 4800 && n30 < 5200);
	}
	CU_ASSERT_EQUAL(dist_sample_beyond(&d, NULL, 40), 40);
	dist_release(&d);
	/* nothing spent: the unconditioned draws */
	dist_init_lognormal_median_p95(&d, 300, 720);
	a = rng_gsl_new(7, 0, "same");
	b = rng_gsl_new(7, 0, "same");
	for (int i = 0; i < 100; i++)
		CU_ASSERT_EQUAL(dist_sample_beyond(&d, a, 0), dist_sample(&d, b));
	gsl_rng_free(a);
	gsl_rng_free(b);
}

static CU_TestInfo dist_tests[] = {
	{ "sample beyond the time already spent", test_sample_beyond },
	{ "lognormal by median and p95", test_lognormal_median_p95 },
	{ "exponential", test_exponential },
	{ "uniform", test_uniform },
	{ "normal truncated at 0", test_normal_truncated },
	{ "gamma and weibull", test_gamma_weibull },
	{ "empirical", test_empirical },
	{ "histogram", test_histogram },
	{ "golden samples", test_golden },
	{ "sample_ms rounds once and clamps", test_sample_ms_rounding },
	{ "validation messages", test_validate },
	{ "describe", test_describe },
	{ "quantile domain", test_quantile_domain },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	rng_gsl_init();
	CU_ADD_SUITE("dist", dist_tests);
}
