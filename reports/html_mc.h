#ifndef MAGOS_REPORTS_HTML_MC_H
#define MAGOS_REPORTS_HTML_MC_H

/*
 * HTML pages of Monte Carlo runs (`run -n N --html`, with variants or a
 * sweep) and of change reviews (`compare --html`): one self-contained file
 * each, in the frame of the single-run page (reports/html.h: inline CSS and
 * SVG, the same small script, nothing fetched), drawn from the trial rows
 * and their statistics only, so the same rows give the same bytes whatever
 * -j ran them.  Every curve is sampled per pixel column and every
 * histogram binned, so the page size does not grow with the trial count.
 *
 * Sections (stable ids for tests): #mc-stats (the statistics table, the
 * same figures as the terminal tables), #cdf (time-to-complete CDF, one
 * curve per set; censored trials reach 1 only in a "> horizon" zone past
 * the axis), #halts (halt probability by step/wave and reason, bars with
 * Wilson 95 % intervals), #blast (blast-radius histogram), #phases
 * (per-step/wave duration box plots, whiskers p5..p95), #detection and
 * #exposure (histograms, when any trial has a value), #critical (how often
 * each step/wave was the critical path), #variants (the variant × metric
 * table with deltas), #sweep (p50 with a p5..p95 band per value), #compare
 * (the compare table with significance).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/plan/compare.h"
#include "sim/plan/stats.h"
#include "sim/plan/trials.h"

/* One set of trials on a page: the base, a variant, a sweep value or a compare side. */
struct rep_mc_set {
	const char *name;             /* "base", the variant's name, the value's text ("4", "5m") */
	const char *description;      /* or NULL */
	const struct trial_row *rows; /* n rows, borrowed */
	size_t n;
	const struct plan_stats *st;  /* the statistics of the rows, borrowed */
};

/* What a Monte Carlo page draws; everything borrowed. */
struct rep_mc_page {
	const char *name;              /* scenario name (escaped on the page) */
	uint64_t seed;                 /* base seed */
	int64_t horizon_ms;            /* ms: what "> horizon" means */
	const struct rep_mc_set *base; /* the base's trials (required) */
	const struct rep_mc_set *variants; /* nvariants sets (spec.variants), or NULL */
	size_t nvariants;
	const char *sweep_param;       /* the swept parameter, NULL without a sweep */
	const struct rep_mc_set *sweep;/* nsweep sets in the order given, or NULL */
	size_t nsweep;
};

/* Curves on one CDF chart at most (more sets: the first ones are drawn, the page says so). */
#define REP_MC_MAX_CURVES 8

/*
 * rep_html_mc() - writes the Monte Carlo page of @pg to @f: the statistics,
 * CDF, halts, blast radius, step/wave box plots, detection and exposure,
 * critical path of the base; with variants, every variant's CDF on the one
 * chart and the variant × metric table with deltas against the base; with a
 * sweep, the sweep curves (time to complete; for `capacity` also the
 * queueing delay per trial).
 * Returns: 0, or -1 when a write to @f failed (errno set).
 * Errors:  aborts on out-of-memory (xalloc).
 */
int rep_html_mc(FILE *f, const struct rep_mc_page *pg);

/*
 * rep_html_compare() - writes the change-review page to @f: the compare
 * table of @r (metric, base, head, delta, interval or p-value, method,
 * significance; a significant worse row highlighted) and the CDFs of
 * time to complete of @base and @head on one chart.  @base->st / @head->st
 * may be NULL (the CDF needs only the rows).  @horizon_ms as in @r.
 * Returns: 0, or -1 when a write to @f failed (errno set).
 */
int rep_html_compare(FILE *f, const struct rep_mc_set *base, const struct rep_mc_set *head,
		     const struct cmp_result *r);

/*
 * rep_mc_wilson() - the Wilson score 95 % interval of @k successes in @n
 * trials into *@lo, *@hi (ratios 0..1, clamped); n = 0 gives 0 and 1.
 */
void rep_mc_wilson(size_t k, size_t n, double *lo, double *hi);

/*
 * rep_mc_quantile() - the @q quantile (0..1, type 7 as sim/plan/stats.h) of @n
 * ascending values @v; 0 when n = 0.
 */
double rep_mc_quantile(const double *v, size_t n, double q);

#endif
