#ifndef MAGOS_PLAN_COMPARE_H
#define MAGOS_PLAN_COMPARE_H

/*
 * Change review: the trials of a base and a head scenario, run on common
 * random numbers (trial i of both has the same seed), compared metric by
 * metric with a paired method, and checked against regression limits.
 *
 * Pairing.  Row i of the base and row i of the head are the same trial
 * (same index, same seed): the differences are taken per trial, so the noise
 * both share cancels and a small change shows up with few trials.
 *
 * Methods (significance at the 5 % level, two-sided):
 *   - time-to-complete percentiles (p50, p90, p95, p99): a paired bootstrap.
 *     Each resample draws n trial indices with replacement (the same indices
 *     for base and head), takes the percentile of each side (type 7) and
 *     records head - base; the 2.5 % and 97.5 % quantiles of those
 *     differences are the 95 % interval of the difference, significant when
 *     it excludes 0.  A censored trial counts as the horizon (as in
 *     sim/plan/stats.h: at least the largest known value).  The draws come from
 *     the project's PCG32 (sim/core/rng.h), stream rng_stream(seed, 0,
 *     "compare/bootstrap"): the same rows and seed give the same interval.
 *   - mean time to complete: a paired t-test on the per-trial differences of
 *     the trials that completed in both; base and head are the means over
 *     those trials (so delta is the mean difference), with its Student t
 *     95 % interval.
 *   - completion and halt probability: an exact McNemar test: of the trials
 *     where base and head disagree, the number going each way is
 *     Binomial(discordant, 1/2) under no change; two-sided p from GSL's
 *     binomial cdf.
 *   - blast radius: the mean count of targets reached per trial, paired
 *     t-test on the per-trial differences (every trial).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/plan/trials.h"

/* The metrics of a comparison, in table order. */
enum cmp_metric_id {
	CMP_TTC_P50,
	CMP_TTC_P90,
	CMP_TTC_P95,
	CMP_TTC_P99,
	CMP_TTC_MEAN,
	CMP_COMPLETE,
	CMP_HALT,
	CMP_BLAST,
	CMP_NMETRICS,
};

enum cmp_method { CMP_BOOTSTRAP, CMP_PAIRED_T, CMP_MCNEMAR };

/* What a metric's values are: ms, a ratio 0..1, or a count. */
enum cmp_unit { CMP_UNIT_MS, CMP_UNIT_RATIO, CMP_UNIT_COUNT };

/* One row of the comparison.  A figure that does not apply is NaN. */
struct cmp_metric {
	enum cmp_metric_id id;
	const char *key;       /* static: the --max-regression name ("p95", "haltProbability") */
	const char *label;     /* static: the table label ("time to complete p95") */
	enum cmp_method method;
	enum cmp_unit unit;
	bool higher_is_worse;  /* false only for the completion probability */
	double base, head;     /* the metric on each side, in @unit */
	bool base_censored;    /* percentile among censored trials: "> horizon" */
	bool head_censored;
	double delta;          /* head - base */
	double delta_pct;      /* 100 * delta / base; NaN when base is 0 */
	double lo, hi;         /* 95 % interval of delta (bootstrap or t); NaN for McNemar */
	double p_value;        /* t-test or McNemar; NaN for the bootstrap */
	size_t npairs;         /* trials the method used (McNemar: discordant ones) */
	bool significant;      /* the difference is significant at 5 % */
	bool worse;            /* significant and in the worse direction */
};

struct cmp_result {
	size_t n;              /* trials per side */
	int64_t horizon_ms;    /* ms */
	uint64_t seed;         /* base seed; also seeds the bootstrap */
	unsigned resamples;    /* bootstrap resamples */
	size_t nbound[2];      /* base, head: trials stopped by the loop or budget bound
				* (counted as not completed) */
	struct cmp_metric m[CMP_NMETRICS]; /* indexed by enum cmp_metric_id */
};

/*
 * Bootstrap resamples when the caller passes 0: CMP_DEFAULT_RESAMPLES, or
 * CMP_LARGE_RESAMPLES above CMP_LARGE_TRIALS trials (each resample sorts
 * 2 n values; a fixed rule of n, so still deterministic).
 */
#define CMP_DEFAULT_RESAMPLES 1000u
#define CMP_LARGE_RESAMPLES 200u
#define CMP_LARGE_TRIALS 100000u

/*
 * cmp_compute() - compares @n head rows with @n base rows, paired by
 * position (row i of both must be the same trial: asserted on the index).
 * @horizon_ms: ms, the horizon both ran to (censored values count as it).
 * @seed:       seeds the bootstrap stream (use the trials' base seed).
 * @resamples:  bootstrap resamples, 0 for the default above.
 * @out:        filled in (owns nothing: no release needed).
 * Cannot fail (aborts on out-of-memory); n = 0 gives NaN figures, nothing
 * significant.  Cost: O(resamples * n log n).
 */
void cmp_compute(const struct trial_row *base, const struct trial_row *head, size_t n,
		 int64_t horizon_ms, uint64_t seed, unsigned resamples, struct cmp_result *out);

/* cmp_method_name() - "bootstrap", "paired t-test" or "McNemar exact". */
const char *cmp_method_name(enum cmp_method m);

/*
 * A regression limit (--max-regression METRIC=LIMIT): the head may be
 * worse than the base by at most @value.
 */
struct cmp_limit {
	enum cmp_metric_id metric;
	bool pct;      /* @value is a percentage of the base (times only) */
	double value;  /* percent, or ms for times, ratio 0..1 for haltProbability,
			* targets for blastRadius */
	char *text;    /* owned: "p95=10%" as given */
};

/*
 * cmp_parse_limits() - parses "METRIC=LIMIT[,METRIC=LIMIT...]" and appends
 * the limits to *@lims (a heap array of *@n; grown with xrealloc).
 * METRIC is p50, p90, p95, p99 or mean (LIMIT a percentage "10%" or a Go
 * duration "5m"), haltProbability (a ratio 0..1 "0.05" or a percentage
 * "5%", both absolute: the head's probability may exceed the base's by 5
 * percentage points) or blastRadius (a count of targets, absolute).
 * Returns: 0, or -1 with a lower-case reason in @err (@errlen bytes); limits
 *          parsed before the error stay appended.
 */
int cmp_parse_limits(const char *spec, struct cmp_limit **lims, size_t *n, char *err,
		     size_t errlen);

/* cmp_limits_free() - frees @n limits and the array; accepts NULL. */
void cmp_limits_free(struct cmp_limit *lims, size_t n);

/*
 * cmp_limit_failed() - whether the head breaks @l: the metric is worse by
 * more than the limit (a percentage: of the base; a base of 0 with a worse
 * head is an infinite percentage) and the difference is significant.
 */
bool cmp_limit_failed(const struct cmp_result *r, const struct cmp_limit *l);

#endif
