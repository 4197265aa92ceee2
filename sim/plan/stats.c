/*
 * Statistics over trial rows, with GSL's sort, quantile, mean, sd and the
 * Student t quantile.  Every figure is a pure function of the rows in index
 * order.  The rows stream through an accumulator: each quantity keeps its
 * values while they fit the exact budget, then a log-linear histogram
 * (stats.h says how it is built and how exact it is).
 */
#include "sim/plan/stats.h"

#include <float.h>
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


/* ---- one quantity ---------------------------------------------------- */

/* log2(PLAN_SKETCH_SUB): the mantissa bits a bin keeps. */
#define SUB_BITS 7
_Static_assert((1 << SUB_BITS) == PLAN_SKETCH_SUB, "PLAN_SKETCH_SUB is 2^SUB_BITS");
/* The bins of positive finite doubles: binary exponents -1074..1023. */
#define BIN_MIN ((int64_t)-1075 * PLAN_SKETCH_SUB)
#define BIN_MAX ((int64_t)1024 * PLAN_SKETCH_SUB)

/*
 * The values of one quantity: kept in @v (in index order) while the
 * accumulator is exact, counted in bins once it sketches.  Count, mean
 * (Welford's running update), min and max are kept either way.
 */
struct stream {
	bool integral;    /* whole numbers only: a bin narrower than 1 stands for its number */
	double sup_hi;    /* the quantity's upper bound, for its interval (HUGE_VAL or 1) */
	double *v;        /* exact: the known values, in the order added */
	size_t cap;
	size_t m;         /* known values */
	size_t ncens;     /* censored ones (known only to exceed the horizon) */
	double mean, m2;  /* Welford: running mean and sum of squared deviations */
	double min, max;
	uint64_t zeros;   /* sketch: values <= 0 */
	uint64_t *bins;   /* sketch: counts of bins lo..lo+nbins-1 */
	int64_t lo;
	size_t nbins;
};

/* The bin of @x > 0: exponent and the top SUB_BITS bits of the mantissa. */
static int64_t bin_of(double x)
{
	int e;
	double f = frexp(x, &e); /* x = f 2^e, f in [0.5, 1) */

	/* 2f - 1 in [0, 1) and its product with a power of two are exact. */
	return (int64_t)(e - 1) * PLAN_SKETCH_SUB + (int64_t)((2 * f - 1) * PLAN_SKETCH_SUB);
}

/*
 * What bin @b stands for: its midpoint, or for a quantity of whole numbers
 * the one whole number a bin narrower than 1 can hold.
 */
static double bin_value(int64_t b, bool integral)
{
	int64_t e = b >= 0 ? b / PLAN_SKETCH_SUB : -((-b + PLAN_SKETCH_SUB - 1) / PLAN_SKETCH_SUB);
	int64_t j = b - e * PLAN_SKETCH_SUB;
	double lo = ldexp(1.0 + (double)j / PLAN_SKETCH_SUB, (int)e);
	double w = ldexp(1.0, (int)e - SUB_BITS);

	if (integral && w <= 1 && ceil(lo) < lo + w)
		return ceil(lo);
	return lo + w / 2;
}

static void sketch_put(struct stream *s, double x)
{
	int64_t b, hi, nlo, nhi;
	uint64_t *nb;

	if (!(x > 0)) {
		s->zeros++;
		return;
	}
	if (x > DBL_MAX)
		x = DBL_MAX;
	b = bin_of(x);
	if (!s->nbins) {
		s->lo = b;
		s->nbins = 1;
		s->bins = xcalloc(1, sizeof(*s->bins));
	}
	hi = s->lo + (int64_t)s->nbins;
	if (b < s->lo || b >= hi) {
		/* Grow toward @b to at least twice the size, within the bins there are. */
		nlo = b < s->lo ? b : s->lo;
		nhi = b >= hi ? b + 1 : hi;
		if (nhi - nlo < 2 * (int64_t)s->nbins) {
			if (b < s->lo)
				nlo = nhi - 2 * (int64_t)s->nbins;
			else
				nhi = nlo + 2 * (int64_t)s->nbins;
		}
		nlo = nlo < BIN_MIN ? BIN_MIN : nlo;
		nhi = nhi > BIN_MAX ? BIN_MAX : nhi;
		nb = xcalloc((size_t)(nhi - nlo), sizeof(*nb));
		memcpy(nb + (s->lo - nlo), s->bins, s->nbins * sizeof(*nb));
		free(s->bins);
		s->bins = nb;
		s->lo = nlo;
		s->nbins = (size_t)(nhi - nlo);
	}
	s->bins[b - s->lo]++;
}

/* A known value. */
static void stream_put(struct stream *s, double x, bool sketched)
{
	double d;

	if (s->m == 0 || x < s->min)
		s->min = x;
	if (s->m == 0 || x > s->max)
		s->max = x;
	s->m++;
	d = x - s->mean;
	s->mean += d / (double)s->m;
	s->m2 += d * (x - s->mean);
	if (sketched) {
		sketch_put(s, x);
		return;
	}
	if (s->m > s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = xreallocarray(s->v, s->cap, sizeof(*s->v));
	}
	s->v[s->m - 1] = x;
}

/* From exact to sketch: the kept values into bins, in the order added. */
static void stream_sketch(struct stream *s)
{
	for (size_t i = 0; i < s->m; i++)
		sketch_put(s, s->v[i]);
	free(s->v);
	s->v = NULL;
	s->cap = 0;
}

static void stream_release(struct stream *s)
{
	free(s->v);
	free(s->bins);
	memset(s, 0, sizeof(*s));
}

/* The value of rank @r (0-based) among the known values of a sketch. */
static double sketch_at(const struct stream *s, uint64_t r)
{
	double x = s->max;

	if (r < s->zeros) {
		x = 0;
	} else {
		r -= s->zeros;
		for (size_t i = 0; i < s->nbins; i++) {
			if (r < s->bins[i]) {
				x = bin_value(s->lo + (int64_t)i, s->integral);
				break;
			}
			r -= s->bins[i];
		}
	}
	return x < s->min ? s->min : x > s->max ? s->max : x;
}

/* dist_of_in() from a sketch: the same ranks, each value from its bin. */
static void dist_of_sketch(const struct stream *s, double cens_value, struct plan_dist *d)
{
	size_t m = s->m, n = m + s->ncens;

	memset(d, 0, sizeof(*d));
	d->n = n;
	d->ncensored = s->ncens;
	if (n == 0)
		return;
	if (m && cens_value < s->max)
		cens_value = s->max;
	for (int k = 0; k < PLAN_NPCT; k++) {
		double h = (double)(n - 1) * pct_of[k];
		size_t lo = (size_t)h;
		double frac = h - (double)lo;

		if (lo >= m || (frac > 0 && lo + 1 >= m)) {
			d->p_censored[k] = true;
			d->p[k] = cens_value;
		} else if (lo + 1 == n) {
			d->p[k] = sketch_at(s, lo);
		} else {
			/* As gsl_stats_quantile_from_sorted_data() interpolates. */
			d->p[k] = (1 - frac) * sketch_at(s, lo) + frac * sketch_at(s, lo + 1);
		}
	}
	if (m == 0)
		return;
	d->mean = s->mean;
	d->min = s->min;
	d->max = s->max;
	if (m >= 2) {
		double sd = sqrt(s->m2 / (double)(m - 1));
		double half = gsl_cdf_tdist_Pinv(0.975, (double)(m - 1)) * sd / sqrt((double)m);

		d->ci95_lo = d->mean - half < 0 ? 0 : d->mean - half;
		d->ci95_hi = d->mean + half > s->sup_hi ? s->sup_hi : d->mean + half;
	} else {
		d->ci95_lo = d->ci95_hi = d->mean;
	}
}

/* The distribution of @s: exact from its values, or from its sketch. */
static void stream_dist(struct stream *s, bool sketched, double cens_value, struct plan_dist *d)
{
	if (sketched) {
		dist_of_sketch(s, cens_value, d);
		return;
	}
	/* dist_of_in() needs room for the censored ones after the known. */
	if (s->m + s->ncens > s->cap) {
		s->cap = s->m + s->ncens;
		s->v = xreallocarray(s->v, s->cap, sizeof(*s->v));
	}
	dist_of_in(s->v, s->m, s->ncens, cens_value, s->sup_hi, d);
}

/* ---- the accumulator ------------------------------------------------- */

struct acc_phase {
	char *driver, *name; /* owned */
	struct stream dur;   /* ms, opened -> done; never done: censored */
	size_t ncritical;
};

enum { Q_TTC, Q_BLAST_COUNT, Q_BLAST_SHARE, Q_DETECTION, Q_EXPOSURE, Q_PEAK_JOBS,
       Q_PEAK_ADOPTING, Q_JOB_WAIT, Q_N };

/* A kind of notice being counted: its key, and the first trial's words. */
struct acc_notice {
	char *key;  /* owned: trials_notice_key() */
	struct plan_notice_count c; /* text owned */
};

struct plan_acc {
	int64_t horizon_ms;
	size_t budget;      /* values kept exactly, at most */
	size_t held;        /* values kept so far (exact) */
	bool sketched;
	size_t n, ncomplete, nhalted, nbound, nalready, nnothing, nhalt_before;
	struct stream q[Q_N];
	struct plan_halt_count *halts;
	size_t nhalts, cap_halts;
	struct acc_phase *ph;
	size_t nph, cap_ph;
	size_t *slot;       /* scratch: the phase of each of a row's phases */
	size_t cap_slot;
	struct plan_bound_trial bound[PLAN_BOUND_KEPT];
	size_t nbound_kept;
	struct acc_notice *no; /* kinds in the order first seen, at most PLAN_NOTICE_KINDS */
	size_t nno, cap_no, nno_other;
};

struct plan_acc *plan_acc_new(int64_t horizon_ms, size_t exact_values)
{
	struct plan_acc *a = xcalloc(1, sizeof(*a));

	a->horizon_ms = horizon_ms;
	a->budget = exact_values;
	for (int i = 0; i < Q_N; i++) {
		a->q[i].integral = i != Q_BLAST_SHARE;
		a->q[i].sup_hi = i == Q_BLAST_SHARE ? 1.0 : HUGE_VAL;
	}
	return a;
}

void plan_acc_free(struct plan_acc *a)
{
	if (!a)
		return;
	for (int i = 0; i < Q_N; i++)
		stream_release(&a->q[i]);
	for (size_t i = 0; i < a->nhalts; i++) {
		free(a->halts[i].where);
		free(a->halts[i].reason);
	}
	free(a->halts);
	for (size_t i = 0; i < a->nph; i++) {
		free(a->ph[i].driver);
		free(a->ph[i].name);
		stream_release(&a->ph[i].dur);
	}
	free(a->ph);
	free(a->slot);
	for (size_t i = 0; i < a->nbound_kept; i++)
		free(a->bound[i].note);
	for (size_t i = 0; i < a->nno; i++) {
		free(a->no[i].key);
		free(a->no[i].c.text);
	}
	free(a->no);
	free(a);
}

static const char *nz(const char *s)
{
	return s ? s : "";
}

/*
 * The index of (driver, name) in @a->ph, added at the end when new.  Rows
 * of one scenario list their phases in one order, so @hint (the row's
 * position of it) nearly always finds it at once.
 */
static size_t phase_slot(struct plan_acc *a, size_t hint, const struct trial_phase *ph)
{
	const char *dr = nz(ph->driver), *nm = nz(ph->name);

	if (hint < a->nph && !strcmp(a->ph[hint].driver, dr) && !strcmp(a->ph[hint].name, nm))
		return hint;
	for (size_t i = 0; i < a->nph; i++)
		if (!strcmp(a->ph[i].driver, dr) && !strcmp(a->ph[i].name, nm))
			return i;
	if (a->nph == a->cap_ph) {
		a->cap_ph = a->cap_ph ? a->cap_ph * 2 : 8;
		a->ph = xreallocarray(a->ph, a->cap_ph, sizeof(*a->ph));
	}
	memset(&a->ph[a->nph], 0, sizeof(a->ph[0]));
	a->ph[a->nph].driver = xstrdup(dr);
	a->ph[a->nph].name = xstrdup(nm);
	a->ph[a->nph].dur.integral = true;
	a->ph[a->nph].dur.sup_hi = HUGE_VAL;
	return a->nph++;
}

/* Every quantity from its kept values to its sketch: the budget is spent. */
static void acc_sketch(struct plan_acc *a)
{
	for (int i = 0; i < Q_N; i++)
		stream_sketch(&a->q[i]);
	for (size_t i = 0; i < a->nph; i++)
		stream_sketch(&a->ph[i].dur);
	a->sketched = true;
	a->held = 0;
}

static void put(struct plan_acc *a, struct stream *s, double x)
{
	stream_put(s, x, a->sketched);
	a->held += !a->sketched;
}

static void count_halt(struct plan_acc *a, const struct trial_row *r)
{
	const char *where = nz(r->halt_where), *reason = nz(r->halt_reason);
	size_t h;

	for (h = 0; h < a->nhalts; h++)
		if (!strcmp(a->halts[h].where, where) && !strcmp(a->halts[h].reason, reason))
			break;
	if (h == a->nhalts) {
		if (a->nhalts == a->cap_halts) {
			a->cap_halts = a->cap_halts ? a->cap_halts * 2 : 4;
			a->halts = xreallocarray(a->halts, a->cap_halts, sizeof(*a->halts));
		}
		a->halts[h] = (struct plan_halt_count){ xstrdup(where), xstrdup(reason), 0 };
		a->nhalts++;
	}
	a->halts[h].n++;
}

/*
 * Counts the notices of @r by kind (a row holds each kind once).  Rows come
 * in index order, so the first trial seen with a kind is its lowest index.
 * Cost: O(kinds) a notice; kinds are capped at PLAN_NOTICE_KINDS.
 */
static void count_notices(struct plan_acc *a, const struct trial_row *r)
{
	for (size_t i = 0; i < r->nnotices; i++) {
		const struct trial_notice *tn = &r->notices[i];
		char *key = trials_notice_key(tn->text);
		size_t k;

		for (k = 0; k < a->nno; k++)
			if (!strcmp(a->no[k].key, key))
				break;
		if (k == a->nno) {
			if (a->nno == PLAN_NOTICE_KINDS) {
				a->nno_other++;
				free(key);
				continue;
			}
			if (a->nno == a->cap_no) {
				a->cap_no = a->cap_no ? a->cap_no * 2 : 8;
				a->no = xreallocarray(a->no, a->cap_no, sizeof(*a->no));
			}
			a->no[k] = (struct acc_notice){
				key, { xstrdup(tn->text), tn->severity, 0, r->index }
			};
			a->nno++;
		} else {
			free(key);
			if (r->index < a->no[k].c.first) {
				free(a->no[k].c.text);
				a->no[k].c.text = xstrdup(tn->text);
				a->no[k].c.first = r->index;
			}
		}
		a->no[k].c.n++;
	}
}

static int cmp_notice(const void *pa, const void *pb)
{
	const struct plan_notice_count *a = pa, *b = pb;

	/* Errors first, then warnings, then info: info is never told before a warning. */
	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return strcmp(a->text, b->text);
}

/* The values @r adds to the kept ones (known durations included). */
static size_t row_values(const struct trial_row *r)
{
	size_t k = 5; /* blast count, exposure, peak Jobs, peak adopting, Job wait */

	k += r->completed && r->ttc_ms >= 0;
	k += r->blast_total > 0;
	k += r->halted && r->detection_ms >= 0;
	for (size_t i = 0; i < r->nphases; i++)
		k += r->phases[i].opened_ms >= 0 && r->phases[i].done_ms >= r->phases[i].opened_ms;
	return k;
}

void plan_acc_add(struct plan_acc *a, const struct trial_row *r)
{
	int64_t best = -1;
	size_t at = 0;

	if (!a->sketched && row_values(r) > a->budget - a->held)
		acc_sketch(a);
	a->n++;
	a->ncomplete += r->completed;
	a->nhalted += r->halted;
	a->nhalt_before += r->halted && r->halt_before_start;
	a->nalready += r->already_complete;
	a->nnothing += r->nothing_to_complete;
	if (r->stop == DES_LOOP || r->stop == DES_BUDGET) {
		if (a->nbound_kept < PLAN_BOUND_KEPT)
			a->bound[a->nbound_kept++] = (struct plan_bound_trial){
				r->index, r->seed, r->stop, r->end_ms,
				r->bound_note ? xstrdup(r->bound_note) : NULL
			};
		a->nbound++;
	}
	/* A trial already complete at the start has no time: neither a value nor censored. */
	if (r->completed && r->ttc_ms >= 0)
		put(a, &a->q[Q_TTC], (double)r->ttc_ms);
	a->q[Q_TTC].ncens += !r->completed;
	put(a, &a->q[Q_BLAST_COUNT], (double)r->blast_count);
	put(a, &a->q[Q_EXPOSURE], (double)r->exposure_ms);
	put(a, &a->q[Q_PEAK_JOBS], (double)r->peak_jobs);
	put(a, &a->q[Q_PEAK_ADOPTING], (double)r->peak_adopting);
	put(a, &a->q[Q_JOB_WAIT], (double)r->job_wait_ms);
	if (r->blast_total > 0)
		put(a, &a->q[Q_BLAST_SHARE], (double)r->blast_count / (double)r->blast_total);
	if (r->halted && r->detection_ms >= 0)
		put(a, &a->q[Q_DETECTION], (double)r->detection_ms);
	if (r->halted)
		count_halt(a, r);
	count_notices(a, r);

	/* its steps and waves were done before the run: no durations of this run */
	if (r->already_complete)
		return;
	if (r->nphases > a->cap_slot) {
		a->cap_slot = r->nphases;
		a->slot = xreallocarray(a->slot, a->cap_slot, sizeof(*a->slot));
	}
	for (size_t k = 0; k < r->nphases; k++)
		a->slot[k] = phase_slot(a, k, &r->phases[k]);
	for (size_t k = 0; k < r->nphases; k++) {
		const struct trial_phase *ph = &r->phases[k];
		int64_t d;

		if (ph->opened_ms < 0)
			continue;
		/* Known durations kept, the censored counted. */
		if (ph->done_ms >= ph->opened_ms)
			put(a, &a->ph[a->slot[k]].dur, (double)(ph->done_ms - ph->opened_ms));
		else
			a->ph[a->slot[k]].dur.ncens++;
		/* The critical path: the phase that took longest (open ones to the end of
		 * the run; ties to the earlier). */
		d = (ph->done_ms >= ph->opened_ms ? ph->done_ms : r->end_ms) - ph->opened_ms;
		if (d > best) {
			best = d;
			at = a->slot[k];
		}
	}
	if (best >= 0)
		a->ph[at].ncritical++;
}

void plan_acc_finish(struct plan_acc *a, struct plan_stats *out)
{
	double hz = (double)a->horizon_ms;

	memset(out, 0, sizeof(*out));
	out->ntrials = a->n;
	out->horizon_ms = a->horizon_ms;
	out->sketched = a->sketched;
	out->exact_values = a->budget;
	prop_of(a->ncomplete, a->n, &out->complete);
	prop_of(a->nhalted, a->n, &out->halt);
	out->nbound = a->nbound;
	out->nalready = a->nalready;
	out->nnothing = a->nnothing;
	out->nhalt_before = a->nhalt_before;
	stream_dist(&a->q[Q_TTC], a->sketched, hz, &out->ttc);
	stream_dist(&a->q[Q_BLAST_COUNT], a->sketched, 0, &out->blast_count);
	stream_dist(&a->q[Q_EXPOSURE], a->sketched, 0, &out->exposure);
	stream_dist(&a->q[Q_PEAK_JOBS], a->sketched, 0, &out->peak_jobs);
	stream_dist(&a->q[Q_PEAK_ADOPTING], a->sketched, 0, &out->peak_adopting);
	stream_dist(&a->q[Q_JOB_WAIT], a->sketched, 0, &out->job_wait);
	stream_dist(&a->q[Q_BLAST_SHARE], a->sketched, 0, &out->blast_share);
	stream_dist(&a->q[Q_DETECTION], a->sketched, 0, &out->detection);

	out->nhalts = a->nhalts;
	out->halts = xcalloc(a->nhalts ? a->nhalts : 1, sizeof(*out->halts));
	for (size_t i = 0; i < a->nhalts; i++)
		out->halts[i] = (struct plan_halt_count){ xstrdup(a->halts[i].where),
							  xstrdup(a->halts[i].reason), a->halts[i].n };
	if (out->nhalts > 1)
		qsort(out->halts, out->nhalts, sizeof(*out->halts), cmp_halt);

	out->nphases = a->nph;
	out->phases = xcalloc(a->nph ? a->nph : 1, sizeof(*out->phases));
	for (size_t i = 0; i < a->nph; i++) {
		out->phases[i].driver = xstrdup(a->ph[i].driver);
		out->phases[i].name = xstrdup(a->ph[i].name);
		out->phases[i].ncritical = a->ph[i].ncritical;
		stream_dist(&a->ph[i].dur, a->sketched, hz, &out->phases[i].duration);
	}

	out->nnotices = a->nno;
	out->nnotice_other = a->nno_other;
	out->notices = xcalloc(a->nno ? a->nno : 1, sizeof(*out->notices));
	for (size_t i = 0; i < a->nno; i++) {
		out->notices[i] = a->no[i].c;
		out->notices[i].text = xstrdup(a->no[i].c.text);
	}
	if (out->nnotices > 1)
		qsort(out->notices, out->nnotices, sizeof(*out->notices), cmp_notice);

	out->nbound_kept = a->nbound_kept;
	out->bound = xcalloc(a->nbound_kept ? a->nbound_kept : 1, sizeof(*out->bound));
	for (size_t i = 0; i < a->nbound_kept; i++) {
		out->bound[i] = a->bound[i];
		out->bound[i].note = a->bound[i].note ? xstrdup(a->bound[i].note) : NULL;
	}
}

void plan_stats_compute(const struct trial_row *rows, size_t n, int64_t horizon_ms,
			size_t exact_values, struct plan_stats *out)
{
	struct plan_acc *a = plan_acc_new(horizon_ms, exact_values);

	for (size_t i = 0; i < n; i++)
		plan_acc_add(a, &rows[i]);
	plan_acc_finish(a, out);
	plan_acc_free(a);
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
	for (size_t i = 0; i < st->nbound_kept; i++)
		free(st->bound[i].note);
	free(st->bound);
	for (size_t i = 0; i < st->nnotices; i++)
		free(st->notices[i].text);
	free(st->notices);
	memset(st, 0, sizeof(*st));
}
