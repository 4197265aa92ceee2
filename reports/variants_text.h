#ifndef MAGOS_REPORTS_VARIANTS_TEXT_H
#define MAGOS_REPORTS_VARIANTS_TEXT_H

/*
 * Side-by-side reports of a base and its variants (sim/plan/variant.h) or of a
 * sweep's values (sim/plan/sweep.h), each run on the same trial seeds: terminal
 * tables with deltas against the base, and sweep CSV rows for a plot.
 * Writers only: they never change what they read and write to a stream the
 * caller owns (the caller makes files atomic and checks the final flush).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/plan/stats.h"

/* One column of a comparison: the base or a variant / a sweep value.  Borrowed. */
struct rep_variant {
	const char *name;        /* "base", the variant's name, or the sweep value ("4", "5m0s") */
	const char *description; /* or NULL */
	const struct plan_stats *st;
};

/*
 * rep_variants_text() - the variant × metric tables: @v[0] is the base,
 * @v[1..n-1] the variants, each followed by a "vs base" line of deltas.
 * Table 1: time to complete p50 and p95, completion and halt probability;
 * table 2: mean blast radius (targets), detection latency p50, mean
 * exposure (target-time), peak Jobs p95 and mean queueing delay.  Durations
 * as rep_plan_duration(), probabilities in %, their deltas in percentage
 * points ("+2.5pp"); a percentile among censored trials prints "> HORIZON"
 * and its delta "n/a"; a quantity no trial had prints "-".  @seed and
 * @ntrials go into the heading.  Fits 80 columns (longer names are cut with
 * "~").  Returns: 0, or -1 when a write failed (errno set).
 */
int rep_variants_text(FILE *f, const struct rep_variant *v, size_t n, uint64_t seed,
		      size_t ntrials, bool color);

/*
 * rep_sweep_text() - one table, a row per value of sweep parameter @param
 * (@v[i].name the value's text): time to complete p50 and p95, completion
 * and halt probability, peak Jobs p95 and mean queueing delay per trial.
 * Returns: 0, or -1 when a write failed (errno set).
 */
int rep_sweep_text(FILE *f, const char *param, const struct rep_variant *v, size_t n,
		   uint64_t seed, size_t ntrials, bool color);

/*
 * rep_sweep_csv() - a header line and one row per value (RFC 4180, CRLF):
 * PARAM (the value as written), ttc_p50_ms, ttc_p95_ms (empty when censored
 * or unknown), complete_p, halt_p, blast_mean, detection_p50_ms,
 * exposure_mean_ms, peak_jobs_p95, job_wait_mean_ms, ntrials.
 * Returns: 0, or -1 when a write failed (errno set).
 */
int rep_sweep_csv(FILE *f, const char *param, const struct rep_variant *v, size_t n);

#endif
