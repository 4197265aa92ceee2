#include "sim/load/dist.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>

#include "engine/xalloc.h"

/* ---- constructors ---- */

void dist_init_constant(struct dist *d, double value)
{
	memset(d, 0, sizeof *d);
	d->kind = DIST_CONSTANT;
	d->u.constant.value = value;
}

void dist_init_uniform(struct dist *d, double min, double max)
{
	memset(d, 0, sizeof *d);
	d->kind = DIST_UNIFORM;
	d->u.uniform.min = min;
	d->u.uniform.max = max;
}

void dist_init_exponential(struct dist *d, double mean)
{
	memset(d, 0, sizeof *d);
	d->kind = DIST_EXPONENTIAL;
	d->u.exponential.mean = mean;
}

void dist_init_lognormal_median_p95(struct dist *d, double median, double p95)
{
	memset(d, 0, sizeof *d);
	d->kind = DIST_LOGNORMAL;
	d->u.lognormal.by_quantiles = true;
	d->u.lognormal.median = median;
	d->u.lognormal.p95 = p95;
	/* log(X) is normal: its median is ln(median) and its 95th percentile
	 * lies z_0.95 standard deviations above.  Invalid input gives NaN or a
	 * non-positive sigma here, which dist_validate() reports in the
	 * user's terms. */
	d->u.lognormal.mu = log(median);
	d->u.lognormal.sigma = (log(p95) - log(median)) / gsl_cdf_ugaussian_Pinv(0.95);
}

void dist_init_lognormal(struct dist *d, double mu, double sigma)
{
	memset(d, 0, sizeof *d);
	d->kind = DIST_LOGNORMAL;
	d->u.lognormal.mu = mu;
	d->u.lognormal.sigma = sigma;
	d->u.lognormal.median = exp(mu);
	d->u.lognormal.p95 = exp(mu + sigma * gsl_cdf_ugaussian_Pinv(0.95));
}

void dist_init_normal(struct dist *d, double mean, double sd)
{
	memset(d, 0, sizeof *d);
	d->kind = DIST_NORMAL;
	d->u.normal.mean = mean;
	d->u.normal.sd = sd;
}

void dist_init_gamma(struct dist *d, double shape, double scale)
{
	memset(d, 0, sizeof *d);
	d->kind = DIST_GAMMA;
	d->u.gamma.shape = shape;
	d->u.gamma.scale = scale;
	d->u.gamma.mean = shape * scale;
	d->u.gamma.sd = sqrt(shape) * scale;
}

void dist_init_gamma_mean_sd(struct dist *d, double mean, double sd)
{
	memset(d, 0, sizeof *d);
	d->kind = DIST_GAMMA;
	d->u.gamma.by_moments = true;
	d->u.gamma.mean = mean;
	d->u.gamma.sd = sd;
	/* mean = k theta and variance = k theta^2 */
	d->u.gamma.shape = (mean / sd) * (mean / sd);
	d->u.gamma.scale = sd * sd / mean;
}

void dist_init_weibull(struct dist *d, double shape, double scale)
{
	memset(d, 0, sizeof *d);
	d->kind = DIST_WEIBULL;
	d->u.weibull.shape = shape;
	d->u.weibull.scale = scale;
}

/* A new array of @n doubles (at least one), copied from @src unless it is NULL. */
static double *dup_doubles(const double *src, size_t n)
{
	double *p = xreallocarray(NULL, n ? n : 1, sizeof *p);

	if (src && n)
		memcpy(p, src, n * sizeof *p);
	return p;
}

/* Total order for qsort; NaN (rejected by dist_validate()) sorts last. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	if (x < y)
		return -1;
	if (x > y)
		return 1;
	return isnan(x) - isnan(y);
}

void dist_init_empirical(struct dist *d, const double *samples, size_t n)
{
	memset(d, 0, sizeof *d);
	d->kind = DIST_EMPIRICAL;
	d->u.empirical.n = n;
	d->u.empirical.sorted = dup_doubles(samples, n);
	/* Sorted once so that dist_quantile() is a lookup; sampling picks an
	 * index uniformly, so the order does not change the distribution. */
	qsort(d->u.empirical.sorted, n, sizeof(double), cmp_double);
}

static void histogram_cum(struct dist *d)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < d->u.histogram.n; i++) {
		sum += d->u.histogram.weights[i];
		d->u.histogram.cum[i] = sum;
	}
}

void dist_init_histogram(struct dist *d, const double *edges, const double *weights, size_t n)
{
	memset(d, 0, sizeof *d);
	d->kind = DIST_HISTOGRAM;
	d->u.histogram.n = n;
	d->u.histogram.edges = dup_doubles(edges, n + 1);
	d->u.histogram.weights = dup_doubles(weights, n);
	d->u.histogram.cum = dup_doubles(NULL, n);
	histogram_cum(d);
}

void dist_copy(struct dist *dst, const struct dist *src)
{
	*dst = *src;
	if (src->kind == DIST_EMPIRICAL) {
		dst->u.empirical.sorted = dup_doubles(src->u.empirical.sorted, src->u.empirical.n);
	} else if (src->kind == DIST_HISTOGRAM) {
		size_t n = src->u.histogram.n;

		dst->u.histogram.edges = dup_doubles(src->u.histogram.edges, n + 1);
		dst->u.histogram.weights = dup_doubles(src->u.histogram.weights, n);
		dst->u.histogram.cum = dup_doubles(src->u.histogram.cum, n);
	}
}

void dist_release(struct dist *d)
{
	if (!d)
		return;
	if (d->kind == DIST_EMPIRICAL) {
		free(d->u.empirical.sorted);
	} else if (d->kind == DIST_HISTOGRAM) {
		free(d->u.histogram.edges);
		free(d->u.histogram.weights);
		free(d->u.histogram.cum);
	}
	dist_init_constant(d, 0);
}

/* ---- validation ---- */

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* 0 when @x is finite and > 0, else -1 with "@name must be ..." in @err. */
static int check_pos(double x, const char *name, char *err, size_t len)
{
	if (!isfinite(x))
		return fail(err, len, "%s must be finite", name);
	if (!(x > 0))
		return fail(err, len, "%s must be > 0", name);
	return 0;
}

static int validate_histogram(const struct dist *d, char *err, size_t len)
{
	size_t i, n = d->u.histogram.n;
	const double *e = d->u.histogram.edges, *w = d->u.histogram.weights;
	bool any = false;

	if (n == 0)
		return fail(err, len, "histogram needs at least one bin");
	for (i = 0; i <= n; i++) {
		if (!isfinite(e[i]))
			return fail(err, len, "edges must be finite");
		if (i > 0 && !(e[i] > e[i - 1]))
			return fail(err, len, "edges must be strictly increasing");
	}
	for (i = 0; i < n; i++) {
		if (!(w[i] >= 0))
			return fail(err, len, "weights must be non-negative and not all zero");
		if (!isfinite(w[i]))
			return fail(err, len, "weights must be finite");
		any = any || w[i] > 0;
	}
	if (!any)
		return fail(err, len, "weights must be non-negative and not all zero");
	if (!isfinite(d->u.histogram.cum[n - 1]))
		return fail(err, len, "weights must be finite");
	return 0;
}

int dist_validate(const struct dist *d, char *err, size_t len)
{
	size_t i;

	switch (d->kind) {
	case DIST_CONSTANT:
		if (!isfinite(d->u.constant.value))
			return fail(err, len, "value must be finite");
		return 0;
	case DIST_UNIFORM:
		if (!isfinite(d->u.uniform.min) || !isfinite(d->u.uniform.max))
			return fail(err, len, "min and max must be finite");
		if (!(d->u.uniform.min <= d->u.uniform.max))
			return fail(err, len, "uniform needs min <= max");
		return 0;
	case DIST_EXPONENTIAL:
		return check_pos(d->u.exponential.mean, "mean", err, len);
	case DIST_LOGNORMAL:
		if (d->u.lognormal.by_quantiles) {
			if (check_pos(d->u.lognormal.median, "median", err, len))
				return -1;
			if (!isfinite(d->u.lognormal.p95))
				return fail(err, len, "p95 must be finite");
			if (!(d->u.lognormal.p95 > d->u.lognormal.median))
				return fail(err, len, "p95 must be greater than the median");
		} else if (!isfinite(d->u.lognormal.mu)) {
			return fail(err, len, "mu must be finite");
		}
		/* Also catches a derived sigma that overflowed or rounded to 0. */
		return check_pos(d->u.lognormal.sigma, "sigma", err, len);
	case DIST_NORMAL:
		if (!isfinite(d->u.normal.mean))
			return fail(err, len, "mean must be finite");
		return check_pos(d->u.normal.sd, "sd", err, len);
	case DIST_GAMMA:
		if (d->u.gamma.by_moments &&
		    (check_pos(d->u.gamma.mean, "mean", err, len) ||
		     check_pos(d->u.gamma.sd, "sd", err, len)))
			return -1;
		if (check_pos(d->u.gamma.shape, "shape", err, len) ||
		    check_pos(d->u.gamma.scale, "scale", err, len))
			return -1;
		return 0;
	case DIST_WEIBULL:
		if (check_pos(d->u.weibull.shape, "shape", err, len) ||
		    check_pos(d->u.weibull.scale, "scale", err, len))
			return -1;
		return 0;
	case DIST_EMPIRICAL:
		if (d->u.empirical.n == 0)
			return fail(err, len, "empirical needs at least one sample");
		/* gsl_rng_uniform_int() picks among at most 2^32 outcomes */
		if (d->u.empirical.n > 0xffffffffu)
			return fail(err, len, "empirical takes at most 4294967295 samples");
		for (i = 0; i < d->u.empirical.n; i++)
			if (!isfinite(d->u.empirical.sorted[i]))
				return fail(err, len, "samples must be finite");
		return 0;
	case DIST_HISTOGRAM:
		return validate_histogram(d, err, len);
	}
	return fail(err, len, "unknown distribution kind %d", (int)d->kind);
}

/* ---- truncated normal ---- */

/*
 * The standard normal Z conditioned on Z > a, by inverse CDF: Q(Z) (the upper
 * tail) is uniform on (0, Q(a)), so z = Qinv(v Q(a)) for v in (0, 1].
 * Working in the upper tail keeps precision when a is far right (mean far
 * below 0).  Beyond a ~ 37, Q(a) underflows; there Z - a is exponential with
 * rate a to first order (the tail's Mills-ratio asymptotics), which is what
 * the fallback returns.  Never loops.
 */
static double trunc_std_normal_inv(double a, double v)
{
	double qa = gsl_cdf_ugaussian_Q(a);
	double z = qa > 0 ? gsl_cdf_ugaussian_Qinv(v * qa) : NAN;

	if (!isfinite(z) && a > 0)
		z = a - log(v) / a;
	return z < a ? a : z;
}

static double normal_trunc_value(const struct dist *d, double v)
{
	double mean = d->u.normal.mean, sd = d->u.normal.sd;
	double a = -mean / sd;
	double z = trunc_std_normal_inv(a, v);

	/* mean + sd * z: with z >= a this is >= 0 up to rounding */
	return v == 0 ? INFINITY : fmax(0.0, mean + sd * z);
}

static double normal_trunc_mean(const struct dist *d)
{
	double mean = d->u.normal.mean, sd = d->u.normal.sd;
	double a = -mean / sd;
	double qa = gsl_cdf_ugaussian_Q(a);

	/* E[Z | Z > a] = phi(a) / Q(a), the inverse Mills ratio; beyond the
	 * underflow of Q its asymptotic series a + 1/a - 2/a^3. */
	if (qa > 0)
		return mean + sd * gsl_ran_ugaussian_pdf(a) / qa;
	return sd * (1 / a - 2 / (a * a * a));
}

/* ---- sampling ---- */

static double histogram_sample(const struct dist *d, gsl_rng *r)
{
	size_t n = d->u.histogram.n, lo = 0, hi = n - 1;
	const double *cum = d->u.histogram.cum, *e = d->u.histogram.edges;
	double target = gsl_rng_uniform(r) * cum[n - 1];

	/* lowest bin whose running sum exceeds the target: a bin of weight 0
	 * has the same sum as its predecessor and is never chosen */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cum[mid] > target)
			hi = mid;
		else
			lo = mid + 1;
	}
	/* Only rounding can leave target >= the total (then lo = n - 1): take
	 * the last bin that has weight. */
	if (!(cum[lo] > target))
		while (lo > 0 && !(d->u.histogram.weights[lo] > 0))
			lo--;
	return e[lo] + gsl_rng_uniform(r) * (e[lo + 1] - e[lo]);
}

double dist_sample(const struct dist *d, gsl_rng *r)
{
	switch (d->kind) {
	case DIST_CONSTANT:
		return d->u.constant.value;
	case DIST_UNIFORM:
		return gsl_ran_flat(r, d->u.uniform.min, d->u.uniform.max);
	case DIST_EXPONENTIAL:
		/* GSL's parameter is the mean, not the rate */
		return gsl_ran_exponential(r, d->u.exponential.mean);
	case DIST_LOGNORMAL:
		return gsl_ran_lognormal(r, d->u.lognormal.mu, d->u.lognormal.sigma);
	case DIST_NORMAL:
		return normal_trunc_value(d, gsl_rng_uniform_pos(r));
	case DIST_GAMMA:
		return gsl_ran_gamma(r, d->u.gamma.shape, d->u.gamma.scale);
	case DIST_WEIBULL:
		/* GSL's order is (scale, shape) */
		return gsl_ran_weibull(r, d->u.weibull.scale, d->u.weibull.shape);
	case DIST_EMPIRICAL:
		if (d->u.empirical.n == 0)
			return NAN;
		return d->u.empirical.sorted[gsl_rng_uniform_int(r, d->u.empirical.n)];
	case DIST_HISTOGRAM:
		if (d->u.histogram.n == 0)
			return NAN;
		return histogram_sample(d, r);
	}
	return NAN;
}

int64_t dist_sample_ms(const struct dist *d, gsl_rng *r)
{
	double x = dist_sample(d, r);

	if (!(x > 0))
		return 0;
	/* 2^63 is the first double beyond int64 */
	if (x >= 9223372036854775808.0)
		return INT64_MAX;
	return (int64_t)llround(x);
}

/* histogram_cdf() - P(X <= @t) of the histogram, linear within a bin. */
static double histogram_cdf(const struct dist *d, double t)
{
	size_t n = d->u.histogram.n;
	const double *cum = d->u.histogram.cum, *w = d->u.histogram.weights, *e = d->u.histogram.edges;

	if (t <= e[0])
		return 0;
	for (size_t i = 0; i < n; i++)
		if (t < e[i + 1])
			return (cum[i] - w[i] + w[i] * (t - e[i]) / (e[i + 1] - e[i])) / cum[n - 1];
	return 1;
}

static double histogram_quantile(const struct dist *d, double p);

/*
 * tail_beyond() - @x, the inverse upper tail at a share of the tail q(@t) =
 * @qt, kept >= @t; @t itself when no mass is beyond @t or the inverse failed.
 */
static double tail_beyond(double qt, double t, double x)
{
	if (!(qt > 0) || !isfinite(x))
		return t;
	return x < t ? t : x;
}

double dist_sample_beyond(const struct dist *d, gsl_rng *r, double t)
{
	double v, q, lo;
	size_t k, n;

	if (!(t > 0))
		return dist_sample(d, r);
	switch (d->kind) {
	case DIST_CONSTANT:
		return d->u.constant.value > t ? d->u.constant.value : t;
	case DIST_UNIFORM:
		if (!(d->u.uniform.max > t))
			return t;
		lo = d->u.uniform.min > t ? d->u.uniform.min : t;
		return gsl_ran_flat(r, lo, d->u.uniform.max);
	case DIST_EXPONENTIAL:
		return t + gsl_ran_exponential(r, d->u.exponential.mean);
	case DIST_NORMAL: {
		double a = (t - d->u.normal.mean) / d->u.normal.sd;
		double z = trunc_std_normal_inv(a, gsl_rng_uniform_pos(r));

		return fmax(t, d->u.normal.mean + d->u.normal.sd * z);
	}
	case DIST_LOGNORMAL:
		q = gsl_cdf_lognormal_Q(t, d->u.lognormal.mu, d->u.lognormal.sigma);
		v = gsl_rng_uniform_pos(r);
		return tail_beyond(q, t,
				   gsl_cdf_lognormal_Qinv(v * q, d->u.lognormal.mu, d->u.lognormal.sigma));
	case DIST_GAMMA:
		q = gsl_cdf_gamma_Q(t, d->u.gamma.shape, d->u.gamma.scale);
		v = gsl_rng_uniform_pos(r);
		return tail_beyond(q, t, gsl_cdf_gamma_Qinv(v * q, d->u.gamma.shape, d->u.gamma.scale));
	case DIST_WEIBULL:
		q = gsl_cdf_weibull_Q(t, d->u.weibull.scale, d->u.weibull.shape);
		v = gsl_rng_uniform_pos(r);
		return tail_beyond(q, t,
				   gsl_cdf_weibull_Qinv(v * q, d->u.weibull.scale, d->u.weibull.shape));
	case DIST_EMPIRICAL:
		n = d->u.empirical.n;
		/* the first sample above t (sorted ascending) */
		for (k = 0; k < n && !(d->u.empirical.sorted[k] > t); k++)
			;
		if (k == n)
			return t;
		return d->u.empirical.sorted[k + gsl_rng_uniform_int(r, n - k)];
	case DIST_HISTOGRAM: {
		double p0 = histogram_cdf(d, t);

		if (!(p0 < 1))
			return t;
		v = gsl_rng_uniform(r);
		return fmax(t, histogram_quantile(d, p0 + v * (1 - p0)));
	}
	}
	return t;
}

/* ---- closed forms ---- */

double dist_mean(const struct dist *d)
{
	double sum = 0;
	size_t i;

	switch (d->kind) {
	case DIST_CONSTANT:
		return d->u.constant.value;
	case DIST_UNIFORM:
		return d->u.uniform.min / 2 + d->u.uniform.max / 2;
	case DIST_EXPONENTIAL:
		return d->u.exponential.mean;
	case DIST_LOGNORMAL:
		return exp(d->u.lognormal.mu + d->u.lognormal.sigma * d->u.lognormal.sigma / 2);
	case DIST_NORMAL:
		return normal_trunc_mean(d);
	case DIST_GAMMA:
		return d->u.gamma.shape * d->u.gamma.scale;
	case DIST_WEIBULL:
		return d->u.weibull.scale * gsl_sf_gamma(1 + 1 / d->u.weibull.shape);
	case DIST_EMPIRICAL:
		if (d->u.empirical.n == 0)
			return NAN;
		for (i = 0; i < d->u.empirical.n; i++)
			sum += d->u.empirical.sorted[i];
		return sum / (double)d->u.empirical.n;
	case DIST_HISTOGRAM:
		if (d->u.histogram.n == 0)
			return NAN;
		for (i = 0; i < d->u.histogram.n; i++)
			sum += d->u.histogram.weights[i] *
			       (d->u.histogram.edges[i] + d->u.histogram.edges[i + 1]) / 2;
		return sum / d->u.histogram.cum[d->u.histogram.n - 1];
	}
	return NAN;
}

static double empirical_quantile(const struct dist *d, double p)
{
	size_t n = d->u.empirical.n;
	double t = p * (double)n, k;

	if (n == 0)
		return NAN;
	/* p = 0.3 with n = 10 should be index 2, not ceil(3.0000000000000004) - 1 */
	if (fabs(t - nearbyint(t)) <= 1e-9 * (double)n)
		t = nearbyint(t);
	k = ceil(t);
	if (k < 1)
		k = 1;
	if (k > (double)n)
		k = (double)n;
	return d->u.empirical.sorted[(size_t)k - 1];
}

static double histogram_quantile(const struct dist *d, double p)
{
	size_t i, n = d->u.histogram.n;
	const double *cum = d->u.histogram.cum, *w = d->u.histogram.weights, *e = d->u.histogram.edges;
	double target, before;

	if (n == 0)
		return NAN;
	target = p * cum[n - 1];
	for (i = 0; i < n; i++) {
		if (w[i] > 0 && cum[i] >= target)
			break;
	}
	if (i == n) /* rounding at p = 1 */
		for (i = n; i-- > 0 && !(w[i] > 0);)
			;
	before = cum[i] - w[i];
	return e[i] + fmin(1.0, fmax(0.0, (target - before) / w[i])) * (e[i + 1] - e[i]);
}

double dist_quantile(const struct dist *d, double p)
{
	if (!(p >= 0 && p <= 1))
		return NAN;
	switch (d->kind) {
	case DIST_CONSTANT:
		return d->u.constant.value;
	case DIST_UNIFORM:
		return d->u.uniform.min + p * (d->u.uniform.max - d->u.uniform.min);
	case DIST_EXPONENTIAL:
		return gsl_cdf_exponential_Pinv(p, d->u.exponential.mean);
	case DIST_LOGNORMAL:
		return gsl_cdf_lognormal_Pinv(p, d->u.lognormal.mu, d->u.lognormal.sigma);
	case DIST_NORMAL:
		return normal_trunc_value(d, 1 - p);
	case DIST_GAMMA:
		return gsl_cdf_gamma_Pinv(p, d->u.gamma.shape, d->u.gamma.scale);
	case DIST_WEIBULL:
		return gsl_cdf_weibull_Pinv(p, d->u.weibull.scale, d->u.weibull.shape);
	case DIST_EMPIRICAL:
		return empirical_quantile(d, p);
	case DIST_HISTOGRAM:
		return histogram_quantile(d, p);
	}
	return NAN;
}

/* ---- description ---- */

/* One parameter value as text: through @fmt, or %g. */
static const char *fmt_value(double v, dist_fmt_fn fmt, char *buf, size_t len)
{
	if (fmt)
		fmt(v, buf, len);
	else
		snprintf(buf, len, "%g", v);
	return buf;
}

size_t dist_describe(const struct dist *d, char *buf, size_t len, dist_fmt_fn fmt)
{
	char a[64], b[64];
	int n = -1;

	switch (d->kind) {
	case DIST_CONSTANT:
		n = snprintf(buf, len, "constant(%s)", fmt_value(d->u.constant.value, fmt, a, sizeof a));
		break;
	case DIST_UNIFORM:
		n = snprintf(buf, len, "uniform(min %s, max %s)",
			     fmt_value(d->u.uniform.min, fmt, a, sizeof a),
			     fmt_value(d->u.uniform.max, fmt, b, sizeof b));
		break;
	case DIST_EXPONENTIAL:
		n = snprintf(buf, len, "exponential(mean %s)",
			     fmt_value(d->u.exponential.mean, fmt, a, sizeof a));
		break;
	case DIST_LOGNORMAL:
		if (d->u.lognormal.by_quantiles)
			n = snprintf(buf, len, "lognormal(median %s, p95 %s)",
				     fmt_value(d->u.lognormal.median, fmt, a, sizeof a),
				     fmt_value(d->u.lognormal.p95, fmt, b, sizeof b));
		else
			n = snprintf(buf, len, "lognormal(mu %g, sigma %g)", d->u.lognormal.mu,
				     d->u.lognormal.sigma);
		break;
	case DIST_NORMAL:
		n = snprintf(buf, len, "normal(mean %s, sd %s, truncated at 0)",
			     fmt_value(d->u.normal.mean, fmt, a, sizeof a),
			     fmt_value(d->u.normal.sd, fmt, b, sizeof b));
		break;
	case DIST_GAMMA:
		if (d->u.gamma.by_moments)
			n = snprintf(buf, len, "gamma(mean %s, sd %s)",
				     fmt_value(d->u.gamma.mean, fmt, a, sizeof a),
				     fmt_value(d->u.gamma.sd, fmt, b, sizeof b));
		else
			n = snprintf(buf, len, "gamma(shape %g, scale %s)", d->u.gamma.shape,
				     fmt_value(d->u.gamma.scale, fmt, a, sizeof a));
		break;
	case DIST_WEIBULL:
		n = snprintf(buf, len, "weibull(shape %g, scale %s)", d->u.weibull.shape,
			     fmt_value(d->u.weibull.scale, fmt, a, sizeof a));
		break;
	case DIST_EMPIRICAL:
		if (d->u.empirical.n == 0) {
			n = snprintf(buf, len, "empirical(0 samples)");
			break;
		}
		n = snprintf(buf, len, "empirical(%zu sample%s, %s..%s)", d->u.empirical.n,
			     d->u.empirical.n == 1 ? "" : "s",
			     fmt_value(d->u.empirical.sorted[0], fmt, a, sizeof a),
			     fmt_value(d->u.empirical.sorted[d->u.empirical.n - 1], fmt, b, sizeof b));
		break;
	case DIST_HISTOGRAM:
		if (d->u.histogram.n == 0) {
			n = snprintf(buf, len, "histogram(0 bins)");
			break;
		}
		n = snprintf(buf, len, "histogram(%zu bin%s, %s..%s)", d->u.histogram.n,
			     d->u.histogram.n == 1 ? "" : "s",
			     fmt_value(d->u.histogram.edges[0], fmt, a, sizeof a),
			     fmt_value(d->u.histogram.edges[d->u.histogram.n], fmt, b, sizeof b));
		break;
	}
	if (n < 0) {
		n = snprintf(buf, len, "unknown(%d)", (int)d->kind);
		assert(n >= 0);
	}
	return (size_t)n;
}
