#ifndef MAGOS_SIM_DIST_H
#define MAGOS_SIM_DIST_H

/*
 * Probability distributions for models: Job durations (ms), delays,
 * probabilities.  A struct dist is a value: built by one dist_init_*()
 * constructor, checked once with dist_validate() (the scenario loader turns
 * its message into a file:line:col diagnostic), then sampled many times from
 * a per-source stream (sim/core/rng.h) with dist_sample() or dist_sample_ms().
 *
 * Sampling maps a stream to values deterministically: the same dist and the
 * same stream position always give the same value.  Which draws a sampler
 * consumes is part of that mapping; changing it changes every seeded result
 * (tests/unit/test_dist.c pins golden values to catch this).
 *
 * Constructors do not validate: they store what they are given so that
 * dist_validate() can name the problem.  Sampling, dist_mean() and
 * dist_quantile() on a dist that failed validation give unspecified values
 * (typically NaN), never a crash or a hang.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

enum dist_kind {
	DIST_CONSTANT,	  /* always the same value */
	DIST_UNIFORM,	  /* continuous uniform on [min, max] */
	DIST_EXPONENTIAL, /* exponential with the given mean */
	DIST_LOGNORMAL,	  /* exp(N(mu, sigma^2)); given by (median, p95) or (mu, sigma) */
	DIST_NORMAL,	  /* N(mean, sd^2) truncated to [0, inf) */
	DIST_GAMMA,	  /* gamma(shape k, scale theta); given by (shape, scale) or (mean, sd) */
	DIST_WEIBULL,	  /* Weibull(shape k, scale lambda) */
	DIST_EMPIRICAL,	  /* one of the given samples, each equally likely */
	DIST_HISTOGRAM,	  /* a bin chosen by weight, then uniform within the bin */
};

/*
 * A distribution.  Read the member of @u named after @kind; the others are
 * meaningless.  Empirical and histogram dists own heap arrays: release them
 * with dist_release(), copy them with dist_copy() (a plain struct copy would
 * share the arrays).  Every other kind owns nothing.
 */
struct dist {
	enum dist_kind kind;
	union {
		struct {
			double value;
		} constant;
		struct {
			double min, max; /* min <= max; min == max is a constant */
		} uniform;
		struct {
			double mean; /* > 0 (1/rate) */
		} exponential;
		struct {
			double mu, sigma;   /* log-space mean and sd; sigma > 0 */
			double median, p95; /* as given when @by_quantiles, else derived */
			bool by_quantiles;  /* built from (median, p95) rather than (mu, sigma) */
		} lognormal;
		struct {
			double mean, sd; /* of the untruncated normal; sd > 0 */
		} normal;
		struct {
			double shape, scale; /* both > 0 */
			double mean, sd;     /* as given when @by_moments, else derived */
			bool by_moments;     /* built from (mean, sd) */
		} gamma;
		struct {
			double shape, scale; /* both > 0 */
		} weibull;
		struct {
			size_t n;	 /* count of samples, >= 1 */
			double *sorted; /* owned: the n samples in ascending order */
		} empirical;
		struct {
			size_t n;	  /* count of bins, >= 1 */
			double *edges;	  /* owned: n + 1 edges, strictly increasing */
			double *weights;  /* owned: n weights, >= 0, not all 0 */
			double *cum;	  /* owned: n running sums of @weights */
		} histogram;
	} u;
};

/*
 * Constructors.  Each fills the caller-owned @d (overwriting it without
 * releasing: call dist_release() first when reusing one that owns arrays).
 * Units are the caller's (ms for durations, a ratio 0..1 for probabilities).
 * Errors: cannot fail (the array-copying ones abort on out-of-memory);
 * parameters are checked by dist_validate().
 */

/* dist_init_constant() - always @value. */
void dist_init_constant(struct dist *d, double value);

/* dist_init_uniform() - uniform on [@min, @max]. */
void dist_init_uniform(struct dist *d, double min, double max);

/* dist_init_exponential() - exponential with mean @mean (not the rate). */
void dist_init_exponential(struct dist *d, double mean);

/*
 * dist_init_lognormal_median_p95() - lognormal whose median is @median and
 * whose 95th percentile is @p95: mu = ln(median), sigma = (ln(p95) -
 * ln(median)) / z, with z = gsl_cdf_ugaussian_Pinv(0.95) (about 1.645).
 * Needs 0 < median < p95.
 */
void dist_init_lognormal_median_p95(struct dist *d, double median, double p95);

/* dist_init_lognormal() - exp(X), X ~ N(@mu, @sigma^2); median exp(mu). */
void dist_init_lognormal(struct dist *d, double mu, double sigma);

/*
 * dist_init_normal() - N(@mean, @sd^2) conditioned on being >= 0 (durations
 * cannot be negative).  @mean and @sd are those of the untruncated normal, so
 * the result's mean is larger than @mean (see dist_mean()).
 * Sampling is by inverse CDF, never by rejection: one uniform draw, whatever
 * the parameters, even when @mean is many sd below 0.
 */
void dist_init_normal(struct dist *d, double mean, double sd);

/* dist_init_gamma() - gamma with shape @shape and scale @scale (mean shape * scale). */
void dist_init_gamma(struct dist *d, double shape, double scale);

/*
 * dist_init_gamma_mean_sd() - gamma with mean @mean and standard deviation
 * @sd: shape = (mean / sd)^2, scale = sd^2 / mean.  Needs mean > 0, sd > 0.
 */
void dist_init_gamma_mean_sd(struct dist *d, double mean, double sd);

/*
 * dist_init_weibull() - Weibull with shape @shape and scale @scale:
 * P(X > x) = exp(-(x / scale)^shape).
 */
void dist_init_weibull(struct dist *d, double shape, double scale);

/*
 * dist_init_empirical() - each of the @n @samples equally likely (a value
 * listed twice is twice as likely).
 * @samples: @n doubles, borrowed (copied; @d keeps a sorted copy).  May be
 *           NULL when @n is 0, which dist_validate() rejects.
 */
void dist_init_empirical(struct dist *d, const double *samples, size_t n);

/*
 * dist_init_histogram() - bin i, [@edges[i], @edges[i+1]), is chosen with
 * probability @weights[i] / sum(weights); the value is uniform within it.
 * @edges:   @n + 1 doubles, borrowed (copied); may be NULL when @n is 0.
 * @weights: @n doubles, borrowed (copied); relative, need not sum to 1.
 */
void dist_init_histogram(struct dist *d, const double *edges, const double *weights, size_t n);

/*
 * dist_copy() - make @dst an independent copy of @src (arrays duplicated).
 * @dst: overwritten without releasing.  Errors: aborts on out-of-memory.
 */
void dist_copy(struct dist *dst, const struct dist *src);

/* dist_release() - free the arrays @d owns (if any); @d may be NULL.  @d is left a constant 0. */
void dist_release(struct dist *d);

/*
 * dist_validate() - check the parameters of @d.
 * @err, @len: receive a lower-case message without a full stop, e.g.
 *          "p95 must be greater than the median", "uniform needs min <= max",
 *          "shape must be > 0", "weights must be non-negative and not all
 *          zero"; NUL-terminated, truncated to @len bytes; may be NULL / 0.
 *          Untouched when @d is valid.
 * Returns: 0 when @d is valid, -1 otherwise (the first problem is reported).
 * Every parameter must also be finite (NaN and infinities are rejected).
 */
int dist_validate(const struct dist *d, char *err, size_t len);

/*
 * dist_sample() - one value of @d drawn from the stream behind @r.
 * @d: validated (dist_validate() returned 0).
 * @r: any gsl_rng; in this program a PCG32 stream (rng_gsl_new(),
 *     rng_gsl_wrap()).  Advanced by the draws the sampler consumes.
 * Draws consumed: constant none; uniform, exponential, normal (inverse CDF
 * on gsl_rng_uniform_pos) and Weibull one uniform; histogram two
 * (bin, then position); empirical gsl_rng_uniform_int (one get, rarely more);
 * lognormal and gamma what gsl_ran_lognormal / gsl_ran_gamma consume.
 * Returns: the value, in the unit of the parameters.
 */
double dist_sample(const struct dist *d, gsl_rng *r);

/*
 * dist_sample_ms() - dist_sample() as a duration in whole milliseconds.
 * The value is rounded once, half away from zero (llround), then clamped:
 * negative values and NaN give 0, values beyond INT64_MAX give INT64_MAX.
 * Returns: a duration in ms, >= 0.
 */
int64_t dist_sample_ms(const struct dist *d, gsl_rng *r);

/*
 * dist_sample_beyond() - a value of @d conditioned on exceeding @t: the
 * duration of something that has already run for @t (a Job resumed from a
 * snapshot).  @t <= 0 (nothing spent yet, or a negative value that @d never
 * takes) is dist_sample() itself, with the same draws.
 * By kind: constant, its value when above @t; uniform, flat on
 * (max(min, @t), max]; exponential, @t plus a fresh draw (memoryless);
 * normal, the normal truncated at max(0, @t); lognormal, gamma, Weibull, the
 * inverse of the upper tail at a uniform share of the tail beyond @t;
 * empirical, a sample above @t, each equally likely; histogram, the
 * quantile of a uniform share of the mass above @t.  When @d puts no mass
 * above @t (the thing should have ended already) the value is @t: it ends
 * now.  Draws consumed: none for the constant, else one uniform.
 * Returns: a value >= @t (for @t > 0), in the unit of the parameters.
 */
double dist_sample_beyond(const struct dist *d, gsl_rng *r, double t);

/*
 * dist_mean() - the mean of @d, in closed form.
 * For the truncated normal, the mean of the truncated distribution.
 * Returns: the mean; unspecified (often NaN) for an invalid @d.  Never samples.
 */
double dist_mean(const struct dist *d);

/*
 * dist_quantile() - the value below which a share @p of @d lies (inverse CDF).
 * @p: ratio 0..1.  For the empirical dist the smallest sample x with
 *     P(X <= x) >= p; for the histogram, linear within the bin.
 * Returns: the quantile; +inf for p = 1 on unbounded kinds; NaN when @p is
 *          outside [0, 1]; unspecified for an invalid @d.
 * The truncated normal's quantile is the very map dist_sample() applies to
 * its uniform draw v: dist_quantile(d, 1 - v).
 */
double dist_quantile(const struct dist *d, double p);

/*
 * dist_fmt_fn - formats one parameter value for dist_describe(), e.g. ms as
 * a Go duration.  Writes at most @len bytes including the NUL into @buf and
 * returns the length of the full text, like snprintf.
 */
typedef size_t (*dist_fmt_fn)(double v, char *buf, size_t len);

/*
 * dist_describe() - short human text for @d, as a scenario would name it:
 * "constant(300000)", "uniform(min 1000, max 5000)", "exponential(mean 60000)",
 * "lognormal(median 300000, p95 720000)", "lognormal(mu 1, sigma 0.5)",
 * "normal(mean 10, sd 2, truncated at 0)", "gamma(shape 2, scale 3)",
 * "gamma(mean 6, sd 4.24264)", "weibull(shape 1.5, scale 1000)",
 * "empirical(5 samples, 10..90)", "histogram(3 bins, 0..60000)".
 * Parameters in log space (mu, sigma) and shapes are printed with %g; the
 * others (values in the caller's unit) with @fmt, or %g when @fmt is NULL,
 * so "lognormal(median 5m0s, p95 12m0s)" with a duration formatter.
 * @buf, @len: output, NUL-terminated when @len > 0, truncated if too small.
 * Returns: the length of the full text (without the NUL), like snprintf.
 */
size_t dist_describe(const struct dist *d, char *buf, size_t len, dist_fmt_fn fmt);

#endif
