/*
 * Statistics over trial rows, with GSL's sort, quantile, mean, sd and the
 * Student t quantile.  Every figure is a pure function of the rows.
 */
#include "sim/plan/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "engine/xalloc.h"

static const double pct_of[PLAN_NPCT] = { 0.50, 0.90, 0.95, 0.99 };

/*
 * The distribution of @m known values (@v, sorted in place) and @ncens
 * censored ones, known only to exceed every known value: they sit at the top
 * of the order.  A percentile whose type-7 interpolation touches a censored
 * rank is flagged and given @cens_value.  @v must have room for m + ncens.
 */
static void dist_of_in(double *v, size_t m, size_t ncens, double cens_value, double sup_hi,
		      struct plan_dist *d)
{
	size_t n = m + ncens;

	memset(d, 0, sizeof(*d));
	d->n = n;
	d->ncensored = ncens;
	if (n == 0)
		return;
	if (m)
		gsl_sort(v, 1, m);
	if (m && cens_value < v[m - 1])
		cens_value = v[m - 1];
	for (size_t i = m; i < n; i++)
		v[i] = cens_value;
	for (int k = 0; k < PLAN_NPCT; k++) {
		double h = (double)(n - 1) * pct_of[k];
		size_t lo = (size_t)h;
		bool frac = h > (double)lo;

		if (lo >= m || (frac && lo + 1 >= m)) {
			d->p_censored[k] = true;
			d->p[k] = cens_value;
		} else {
			d->p[k] = gsl_stats_quantile_from_sorted_data(v, 1, n, pct_of[k]);
		}
	}
	if (m == 0)
		return;
	d->mean = gsl_stats_mean(v, 1, m);
	d->min = v[0];
	d->max = v[m - 1];
	if (m >= 2) {
		double half = gsl_cdf_tdist_Pinv(0.975, (double)(m - 1)) * gsl_stats_sd(v, 1, m) /
			      sqrt((double)m);

		/* The t interval is symmetric and can leave the support of a
		 * skewed non-negative quantity: clamp it to [0, sup_hi]. */
		d->ci95_lo = d->mean - half < 0 ? 0 : d->mean - half;
		d->ci95_hi = d->mean + half > sup_hi ? sup_hi : d->mean + half;
	} else {
		d->ci95_lo = d->ci95_hi = d->mean;
	}
}

/* dist_of_in() for a non-negative quantity without an upper bound. */
static void dist_of(double *v, size_t m, size_t ncens, double cens_value, struct plan_dist *d)
{
	dist_of_in(v, m, ncens, cens_value, HUGE_VAL, d);
}

/* Wilson score interval at 95 %: sharper than the normal one near 0 and 1. */
static void prop_of(size_t k, size_t n, struct plan_prop *p)
{
	double z = gsl_cdf_ugaussian_Pinv(0.975), ph, z2n, denom, centre, half;

	memset(p, 0, sizeof(*p));
	p->k = k;
	p->n = n;
	if (n == 0)
		return;
	ph = (double)k / (double)n;
	z2n = z * z / (double)n;
	denom = 1 + z2n;
	centre = (ph + z2n / 2) / denom;
	half = z * sqrt(ph * (1 - ph) / (double)n + z2n / (4 * (double)n)) / denom;
	p->p = ph;
	p->lo = centre - half < 0 ? 0 : centre - half;
	p->hi = centre + half > 1 ? 1 : centre + half;
}

static int cmp_halt(const void *pa, const void *pb)
{
	const struct plan_halt_count *a = pa, *b = pb;
	int c;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	if ((c = strcmp(a->where, b->where)) != 0)
		return c;
	return strcmp(a->reason, b->reason);
}

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* The index of (driver, name) in @st->phases, added at the end when new. */
static size_t phase_slot(struct plan_stats *st, size_t *cap, const struct trial_phase *ph)
{
	for (size_t i = 0; i < st->nphases; i++)
		if (!strcmp(st->phases[i].driver, nz(ph->driver)) &&
		    !strcmp(st->phases[i].name, nz(ph->name)))
			return i;
	if (st->nphases == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		st->phases = xreallocarray(st->phases, *cap, sizeof(*st->phases));
	}
	memset(&st->phases[st->nphases], 0, sizeof(st->phases[0]));
	st->phases[st->nphases].driver = xstrdup(nz(ph->driver));
	st->phases[st->nphases].name = xstrdup(nz(ph->name));
	return st->nphases++;
}

static void phases_of(const struct trial_row *rows, size_t n, int64_t horizon_ms,
		      struct plan_stats *st)
{
	size_t cap = 0, np;
	size_t **slot; /* per row, per phase: index into st->phases */
	size_t total = 0;
	double *v;

	slot = xcalloc(n ? n : 1, sizeof(*slot));
	for (size_t r = 0; r < n; r++) {
		slot[r] = xcalloc(rows[r].nphases ? rows[r].nphases : 1, sizeof(**slot));
		for (size_t k = 0; k < rows[r].nphases; k++)
			slot[r][k] = phase_slot(st, &cap, &rows[r].phases[k]);
	}
	np = st->nphases;
	/* A row may hold a phase twice (a partial from merge says what it says):
	 * room for every phase of every row, not one a row. */
	for (size_t r = 0; r < n; r++)
		total += rows[r].nphases;
	v = xcalloc(total ? total : 1, sizeof(*v));
	for (size_t i = 0; i < np; i++) {
		size_t m = 0, ncens = 0;

		/* Known durations first, then the censored ones at the end of v. */
		for (size_t r = 0; r < n; r++)
			for (size_t k = 0; k < rows[r].nphases; k++) {
				const struct trial_phase *ph = &rows[r].phases[k];

				if (slot[r][k] != i || ph->opened_ms < 0)
					continue;
				if (ph->done_ms >= ph->opened_ms)
					v[m++] = (double)(ph->done_ms - ph->opened_ms);
				else
					ncens++;
			}
		dist_of(v, m, ncens, (double)horizon_ms, &st->phases[i].duration);
	}
	/* The critical path: per trial, the phase that took longest (open ones to the end of the run). */
	for (size_t r = 0; r < n; r++) {
		int64_t best = -1;
		size_t at = 0;

		for (size_t k = 0; k < rows[r].nphases; k++) {
			const struct trial_phase *ph = &rows[r].phases[k];
			int64_t d;

			if (ph->opened_ms < 0)
				continue;
			d = (ph->done_ms >= ph->opened_ms ? ph->done_ms : rows[r].end_ms) - ph->opened_ms;
			if (d > best) {
				best = d;
				at = slot[r][k];
			}
		}
		if (best >= 0)
			st->phases[at].ncritical++;
		free(slot[r]);
	}
	free(slot);
	free(v);
}

/* A notice of one trial, by kind. */
struct nk {
	char *key;
	const struct trial_notice *no;
	uint32_t trial;
};

static int cmp_nk(const void *pa, const void *pb)
{
	const struct nk *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	if (c)
		return c;
	return a->trial < b->trial ? -1 : a->trial > b->trial;
}

static int cmp_notice(const void *pa, const void *pb)
{
	const struct plan_notice_count *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return strcmp(a->text, b->text);
}

/*
 * The kinds of notice over the trials and how many trials had each (a row
 * holds each kind once).  Cost: O(N log N) in the notices of all rows.
 */
static void notices_of(const struct trial_row *rows, size_t n, struct plan_stats *st)
{
	size_t total = 0, m = 0;
	struct nk *v;

	for (size_t r = 0; r < n; r++)
		total += rows[r].nnotices;
	if (!total)
		return;
	v = xcalloc(total, sizeof(*v));
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < rows[r].nnotices; i++)
			v[m++] = (struct nk){ trials_notice_key(rows[r].notices[i].text),
					      &rows[r].notices[i], rows[r].index };
	qsort(v, m, sizeof(*v), cmp_nk);
	st->notices = xcalloc(m, sizeof(*st->notices));
	for (size_t i = 0; i < m; i++) {
		if (i == 0 || strcmp(v[i - 1].key, v[i].key) != 0)
			st->notices[st->nnotices++] = (struct plan_notice_count){
				xstrdup(v[i].no->text), v[i].no->severity, 0, v[i].trial
			};
		st->notices[st->nnotices - 1].n++;
	}
	for (size_t i = 0; i < m; i++)
		free(v[i].key);
	free(v);
	qsort(st->notices, st->nnotices, sizeof(*st->notices), cmp_notice);
}

void plan_stats_compute(const struct trial_row *rows, size_t n, int64_t horizon_ms,
			struct plan_stats *out)
{
	double *v = xcalloc(n ? n : 1, sizeof(*v));
	size_t m, k, cap = 0;

	memset(out, 0, sizeof(*out));
	out->ntrials = n;
	out->horizon_ms = horizon_ms;

	k = 0;
	for (size_t i = 0; i < n; i++)
		k += rows[i].completed;
	prop_of(k, n, &out->complete);
	k = 0;
	for (size_t i = 0; i < n; i++)
		k += rows[i].halted;
	prop_of(k, n, &out->halt);
	for (size_t i = 0; i < n; i++)
		out->nbound += rows[i].stop == DES_LOOP || rows[i].stop == DES_BUDGET;

	/* A trial already complete at the start has no time: neither a value nor censored. */
	m = 0;
	k = 0;
	for (size_t i = 0; i < n; i++) {
		if (rows[i].completed && rows[i].ttc_ms >= 0)
			v[m++] = (double)rows[i].ttc_ms;
		k += !rows[i].completed;
	}
	dist_of(v, m, k, (double)horizon_ms, &out->ttc);

#define EVERY(field, expr)                          \
	do {                                        \
		for (size_t i_ = 0; i_ < n; i_++) { \
			const struct trial_row *r_ = &rows[i_]; \
			v[i_] = (double)(expr);     \
		}                                   \
		dist_of(v, n, 0, 0, &out->field);   \
	} while (0)
	EVERY(blast_count, r_->blast_count);
	EVERY(exposure, r_->exposure_ms);
	EVERY(peak_jobs, r_->peak_jobs);
	EVERY(peak_adopting, r_->peak_adopting);
	EVERY(job_wait, r_->job_wait_ms);
#undef EVERY
	m = 0;
	for (size_t i = 0; i < n; i++)
		if (rows[i].blast_total > 0)
			v[m++] = (double)rows[i].blast_count / (double)rows[i].blast_total;
	dist_of_in(v, m, 0, 0, 1.0, &out->blast_share);
	m = 0;
	for (size_t i = 0; i < n; i++)
		if (rows[i].halted && rows[i].detection_ms >= 0)
			v[m++] = (double)rows[i].detection_ms;
	dist_of(v, m, 0, 0, &out->detection);

	for (size_t i = 0; i < n; i++) {
		const char *where = nz(rows[i].halt_where), *reason = nz(rows[i].halt_reason);
		size_t h;

		if (!rows[i].halted)
			continue;
		for (h = 0; h < out->nhalts; h++)
			if (!strcmp(out->halts[h].where, where) && !strcmp(out->halts[h].reason, reason))
				break;
		if (h == out->nhalts) {
			if (out->nhalts == cap) {
				cap = cap ? cap * 2 : 4;
				out->halts = xreallocarray(out->halts, cap, sizeof(*out->halts));
			}
			out->halts[h] = (struct plan_halt_count){ xstrdup(where), xstrdup(reason), 0 };
			out->nhalts++;
		}
		out->halts[h].n++;
	}
	if (out->nhalts > 1)
		qsort(out->halts, out->nhalts, sizeof(*out->halts), cmp_halt);
	free(v);
	phases_of(rows, n, horizon_ms, out);
	notices_of(rows, n, out);
}

void plan_stats_release(struct plan_stats *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nhalts; i++) {
		free(st->halts[i].where);
		free(st->halts[i].reason);
	}
	free(st->halts);
	for (size_t i = 0; i < st->nphases; i++) {
		free(st->phases[i].driver);
		free(st->phases[i].name);
	}
	free(st->phases);
	for (size_t i = 0; i < st->nnotices; i++)
		free(st->notices[i].text);
	free(st->notices);
	memset(st, 0, sizeof(*st));
}
