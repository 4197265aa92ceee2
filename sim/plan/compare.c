/*
 * Paired comparison of two sets of trials (methods in sim/plan/compare.h):
 * bootstrap intervals of percentile differences drawn from PCG32, paired
 * t-tests and exact McNemar tests from GSL.
 */
#include "sim/plan/compare.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/core/rng.h"

static const double pct_of[4] = { 0.50, 0.90, 0.95, 0.99 };

static const struct {
	const char *key, *label;
	enum cmp_method method;
	enum cmp_unit unit;
} meta[CMP_NMETRICS] = {
	[CMP_TTC_P50] = { "p50", "time to complete p50", CMP_BOOTSTRAP, CMP_UNIT_MS },
	[CMP_TTC_P90] = { "p90", "time to complete p90", CMP_BOOTSTRAP, CMP_UNIT_MS },
	[CMP_TTC_P95] = { "p95", "time to complete p95", CMP_BOOTSTRAP, CMP_UNIT_MS },
	[CMP_TTC_P99] = { "p99", "time to complete p99", CMP_BOOTSTRAP, CMP_UNIT_MS },
	[CMP_TTC_MEAN] = { "mean", "time to complete mean", CMP_PAIRED_T, CMP_UNIT_MS },
	[CMP_COMPLETE] = { "completeProbability", "completion probability", CMP_MCNEMAR,
			   CMP_UNIT_RATIO },
	[CMP_HALT] = { "haltProbability", "halt probability", CMP_MCNEMAR, CMP_UNIT_RATIO },
	[CMP_BLAST] = { "blastRadius", "blast radius (mean)", CMP_PAIRED_T, CMP_UNIT_COUNT },
};

const char *cmp_method_name(enum cmp_method m)
{
	switch (m) {
	case CMP_BOOTSTRAP:
		return "bootstrap";
	case CMP_PAIRED_T:
		return "paired t-test";
	case CMP_MCNEMAR:
		return "McNemar exact";
	}
	return "?";
}

/* Time to complete of @r, a censored one as @cens. */
static double ttc_or(const struct trial_row *r, double cens)
{
	return r->completed && r->ttc_ms >= 0 ? (double)r->ttc_ms : cens;
}

/* The value censored trials stand for: the horizon, or the largest known time if above. */
static double cens_value(const struct trial_row *rows, size_t n, int64_t horizon_ms)
{
	double c = (double)horizon_ms;

	for (size_t i = 0; i < n; i++)
		if (rows[i].completed && rows[i].ttc_ms >= 0 && (double)rows[i].ttc_ms > c)
			c = (double)rows[i].ttc_ms;
	return c;
}

/*
 * Percentile @p (type 7) of the @n values @v (sorted) with the censored flag:
 * true when the interpolation touches a censored rank (value >= @cens, where
 * censored values sit; counted by @ncens at the top).
 */
static double pct(const double *v, size_t n, double p, size_t ncens, bool *censored)
{
	double h = (double)(n - 1) * p;
	size_t lo = (size_t)h;
	size_t m = n - ncens;

	*censored = lo >= m || (h > (double)lo && lo + 1 >= m);
	return gsl_stats_quantile_from_sorted_data(v, 1, n, p);
}

static void set_diff(struct cmp_metric *m)
{
	m->delta = m->head - m->base;
	m->delta_pct = m->base != 0 ? 100.0 * m->delta / m->base : NAN;
}

/* Bootstrap intervals of the four percentile differences. */
static void bootstrap(const struct trial_row *base, const struct trial_row *head, size_t n,
		      int64_t horizon_ms, uint64_t seed, unsigned b, struct cmp_result *out)
{
	double cb = cens_value(base, n, horizon_ms), ch = cens_value(head, n, horizon_ms);
	double *xb = xcalloc(n, sizeof(*xb)), *xh = xcalloc(n, sizeof(*xh));
	double *sb = xcalloc(n, sizeof(*sb)), *sh = xcalloc(n, sizeof(*sh));
	double *diff[4];
	size_t ncb = 0, nch = 0;
	struct rng r;
	bool cens;

	for (size_t i = 0; i < n; i++) {
		xb[i] = ttc_or(&base[i], cb);
		xh[i] = ttc_or(&head[i], ch);
		ncb += !(base[i].completed && base[i].ttc_ms >= 0);
		nch += !(head[i].completed && head[i].ttc_ms >= 0);
	}
	/* Point estimates on the whole sample. */
	memcpy(sb, xb, n * sizeof(*sb));
	memcpy(sh, xh, n * sizeof(*sh));
	gsl_sort(sb, 1, n);
	gsl_sort(sh, 1, n);
	for (int k = 0; k < 4; k++) {
		struct cmp_metric *m = &out->m[CMP_TTC_P50 + k];

		m->base = pct(sb, n, pct_of[k], ncb, &m->base_censored);
		m->head = pct(sh, n, pct_of[k], nch, &m->head_censored);
		set_diff(m);
		m->npairs = n;
		diff[k] = xcalloc(b, sizeof(double));
	}
	rng_stream(&r, seed, 0, "compare/bootstrap");
	for (unsigned j = 0; j < b; j++) {
		size_t kb = 0, kh = 0;

		for (size_t i = 0; i < n; i++) {
			uint32_t at = rng_bounded_u32(&r, (uint32_t)n);

			sb[i] = xb[at];
			sh[i] = xh[at];
			kb += !(base[at].completed && base[at].ttc_ms >= 0);
			kh += !(head[at].completed && head[at].ttc_ms >= 0);
		}
		gsl_sort(sb, 1, n);
		gsl_sort(sh, 1, n);
		for (int k = 0; k < 4; k++)
			diff[k][j] = pct(sh, n, pct_of[k], kh, &cens) - pct(sb, n, pct_of[k], kb, &cens);
	}
	for (int k = 0; k < 4; k++) {
		struct cmp_metric *m = &out->m[CMP_TTC_P50 + k];

		gsl_sort(diff[k], 1, b);
		/* One pair resamples to itself: no interval, nothing significant. */
		if (n < 2) {
			m->lo = m->hi = NAN;
			m->significant = false;
			free(diff[k]);
			continue;
		}
		m->lo = gsl_stats_quantile_from_sorted_data(diff[k], 1, b, 0.025);
		m->hi = gsl_stats_quantile_from_sorted_data(diff[k], 1, b, 0.975);
		m->significant = m->lo > 0 || m->hi < 0;
		free(diff[k]);
	}
	free(xb);
	free(xh);
	free(sb);
	free(sh);
}

/* Paired t-test of the @n differences @d (head - base) into @m (delta, interval, p). */
static void paired_t(const double *d, size_t n, struct cmp_metric *m)
{
	double mean, sd, se, t;

	m->npairs = n;
	m->lo = m->hi = m->p_value = NAN;
	m->significant = false;
	if (n == 0)
		return;
	mean = gsl_stats_mean(d, 1, n);
	m->delta = mean;
	if (n < 2) {
		/* One difference has no spread to test against: no interval. */
		m->p_value = 1;
		return;
	}
	sd = gsl_stats_sd_m(d, 1, n, mean);
	if (sd == 0) {
		/* Every trial moved by the same amount: no noise to test against. */
		m->lo = m->hi = mean;
		m->p_value = mean == 0 ? 1 : 0;
	} else {
		se = sd / sqrt((double)n);
		t = mean / se;
		m->p_value = 2 * gsl_cdf_tdist_Q(fabs(t), (double)(n - 1));
		m->lo = mean - gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * se;
		m->hi = mean + gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * se;
	}
	m->significant = m->p_value < 0.05;
}

/* Exact McNemar test of the flags a (base) and b (head) read by @get over the pairs. */
static void mcnemar(const struct trial_row *base, const struct trial_row *head, size_t n,
		    bool (*get)(const struct trial_row *), struct cmp_metric *m)
{
	size_t kb = 0, kh = 0, down = 0, up = 0, lo;

	for (size_t i = 0; i < n; i++) {
		bool a = get(&base[i]), b = get(&head[i]);

		kb += a;
		kh += b;
		down += a && !b;
		up += !a && b;
	}
	m->base = n ? (double)kb / (double)n : NAN;
	m->head = n ? (double)kh / (double)n : NAN;
	set_diff(m);
	m->lo = m->hi = NAN;
	m->npairs = down + up;
	lo = down < up ? down : up;
	if (down + up == 0) {
		m->p_value = 1;
	} else {
		m->p_value = 2 * gsl_cdf_binomial_P((unsigned)lo, 0.5, (unsigned)(down + up));
		if (m->p_value > 1)
			m->p_value = 1;
	}
	m->significant = m->p_value < 0.05;
}

static bool is_complete(const struct trial_row *r)
{
	return r->completed;
}

static bool is_halted(const struct trial_row *r)
{
	return r->halted;
}

void cmp_compute(const struct trial_row *base, const struct trial_row *head, size_t n,
		 int64_t horizon_ms, uint64_t seed, unsigned resamples, struct cmp_result *out)
{
	double *d = xcalloc(n ? n : 1, sizeof(*d));
	double sb = 0, sh = 0;
	size_t m = 0;

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->horizon_ms = horizon_ms;
	out->seed = seed;
	if (!resamples)
		resamples = n > CMP_LARGE_TRIALS ? CMP_LARGE_RESAMPLES : CMP_DEFAULT_RESAMPLES;
	out->resamples = resamples;
	for (int k = 0; k < CMP_NMETRICS; k++) {
		struct cmp_metric *x = &out->m[k];

		x->id = (enum cmp_metric_id)k;
		x->key = meta[k].key;
		x->label = meta[k].label;
		x->method = meta[k].method;
		x->unit = meta[k].unit;
		x->higher_is_worse = k != CMP_COMPLETE;
		x->base = x->head = x->delta = x->delta_pct = NAN;
		x->lo = x->hi = x->p_value = NAN;
	}
	for (size_t i = 0; i < n; i++) {
		assert(base[i].index == head[i].index);
		out->nbound[0] += base[i].stop == DES_LOOP || base[i].stop == DES_BUDGET;
		out->nbound[1] += head[i].stop == DES_LOOP || head[i].stop == DES_BUDGET;
	}
	if (n == 0) {
		free(d);
		return;
	}
	bootstrap(base, head, n, horizon_ms, seed, out->resamples, out);

	for (size_t i = 0; i < n; i++)
		if (base[i].completed && base[i].ttc_ms >= 0 && head[i].completed &&
		    head[i].ttc_ms >= 0) {
			sb += (double)base[i].ttc_ms;
			sh += (double)head[i].ttc_ms;
			d[m++] = (double)(head[i].ttc_ms - base[i].ttc_ms);
		}
	paired_t(d, m, &out->m[CMP_TTC_MEAN]);
	if (m) {
		out->m[CMP_TTC_MEAN].base = sb / (double)m;
		out->m[CMP_TTC_MEAN].head = sh / (double)m;
		/* delta is the mean difference, exact in integers, not sh/m - sb/m */
		out->m[CMP_TTC_MEAN].delta_pct = sb != 0 ? 100.0 * out->m[CMP_TTC_MEAN].delta /
								 out->m[CMP_TTC_MEAN].base
							 : NAN;
	}

	mcnemar(base, head, n, is_complete, &out->m[CMP_COMPLETE]);
	mcnemar(base, head, n, is_halted, &out->m[CMP_HALT]);

	sb = sh = 0;
	for (size_t i = 0; i < n; i++) {
		sb += (double)base[i].blast_count;
		sh += (double)head[i].blast_count;
		d[i] = (double)base[i].blast_count > (double)head[i].blast_count
			       ? -(double)(base[i].blast_count - head[i].blast_count)
			       : (double)(head[i].blast_count - base[i].blast_count);
	}
	paired_t(d, n, &out->m[CMP_BLAST]);
	out->m[CMP_BLAST].base = sb / (double)n;
	out->m[CMP_BLAST].head = sh / (double)n;
	out->m[CMP_BLAST].delta_pct =
		sb != 0 ? 100.0 * out->m[CMP_BLAST].delta / out->m[CMP_BLAST].base : NAN;

	for (int k = 0; k < CMP_NMETRICS; k++) {
		struct cmp_metric *x = &out->m[k];

		x->worse = x->significant && (x->higher_is_worse ? x->delta > 0 : x->delta < 0);
	}
	free(d);
}

/* Parses one "METRIC=LIMIT" of @len bytes at @s into @l; -1 with @err. */
static int parse_one(const char *s, size_t len, struct cmp_limit *l, char *err, size_t errlen)
{
	char *item = xstrndup(s, len), *eq = strchr(item, '='), *end;
	const char *val;
	char derr[128] = "";
	int k, rc = -1;
	size_t vlen;

	memset(l, 0, sizeof(*l));
	if (!eq || eq == item) {
		snprintf(err, errlen, "'%s' is not METRIC=LIMIT", item);
		goto out_free_item;
	}
	*eq = '\0';
	val = eq + 1;
	for (k = 0; k < CMP_NMETRICS; k++)
		if (k != CMP_COMPLETE && !strcmp(item, meta[k].key))
			break;
	if (k == CMP_NMETRICS) {
		snprintf(err, errlen,
			 "unknown metric '%s': expected p50, p90, p95, p99, mean, haltProbability or blastRadius",
			 item);
		goto out_free_item;
	}
	l->metric = (enum cmp_metric_id)k;
	vlen = strlen(val);
	if (!vlen) {
		snprintf(err, errlen, "no limit given for '%s'", item);
		goto out_free_item;
	}
	if (meta[k].unit == CMP_UNIT_MS && val[vlen - 1] == '%') {
		l->pct = true;
		l->value = strtod(val, &end);
		if (end != val + vlen - 1 || end == val || !isfinite(l->value) || l->value < 0) {
			snprintf(err, errlen,
				 "invalid limit '%s' for '%s': expected a percentage like 10%% or a duration like 5m",
				 val, item);
			goto out_free_item;
		}
	} else if (meta[k].unit == CMP_UNIT_MS) {
		int64_t ms;

		if (gt_parse_duration(val, &ms, derr, sizeof(derr)) != 0 || ms < 0) {
			snprintf(err, errlen,
				 "invalid limit '%s' for '%s': expected a percentage like 10%% or a duration like 5m",
				 val, item);
			goto out_free_item;
		}
		l->value = (double)ms;
	} else {
		/* A probability may be written as spec.expect writes one: 5% = 0.05
		 * (still absolute: 5 percentage points, not 5 % of the base). */
		bool pctform = meta[k].unit == CMP_UNIT_RATIO && val[vlen - 1] == '%';

		l->value = strtod(val, &end);
		if (pctform && end == val + vlen - 1 && end != val)
			end++, l->value /= 100;
		if (*end || end == val || !isfinite(l->value) || l->value < 0 ||
		    (meta[k].unit == CMP_UNIT_RATIO && l->value > 1)) {
			snprintf(err, errlen, "invalid limit '%s' for '%s': expected %s", val, item,
				 meta[k].unit == CMP_UNIT_RATIO
					 ? "an absolute probability from 0 to 1, like 0.05 or 5%"
					 : "an absolute number of targets, like 2");
			goto out_free_item;
		}
	}
	*eq = '=';
	l->text = item;
	return 0;

out_free_item:
	free(item);
	return rc;
}

int cmp_parse_limits(const char *spec, struct cmp_limit **lims, size_t *n, char *err,
		     size_t errlen)
{
	const char *p = spec;

	if (!*spec) {
		snprintf(err, errlen, "empty limit: expected METRIC=LIMIT[,METRIC=LIMIT...]");
		return -1;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		struct cmp_limit l;

		if (parse_one(p, len, &l, err, errlen) != 0)
			return -1;
		*lims = xreallocarray(*lims, *n + 1, sizeof(**lims));
		(*lims)[(*n)++] = l;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void cmp_limits_free(struct cmp_limit *lims, size_t n)
{
	if (!lims)
		return;
	for (size_t i = 0; i < n; i++)
		free(lims[i].text);
	free(lims);
}

bool cmp_limit_failed(const struct cmp_result *r, const struct cmp_limit *l)
{
	const struct cmp_metric *m = &r->m[l->metric];
	double by;

	if (!m->worse)
		return false;
	by = m->higher_is_worse ? m->delta : -m->delta;
	if (!l->pct)
		return by > l->value;
	if (m->base == 0)
		return by > 0;
	return 100.0 * by / fabs(m->base) > l->value;
}
