#ifndef MAGOS_REPORTS_PLAN_JSON_H
#define MAGOS_REPORTS_PLAN_JSON_H

/*
 * The JSON document of a set of Monte Carlo trials, schema
 * "magos-sim/trials/v1".  One object with these keys, in this order:
 *
 *   schema       "magos-sim/trials/v1" (docs/schemas/trials-v1.schema.json)
 *   tool         {name, version, commit} of the program (reports/tool.h)
 *   scenario     {name, files: [paths], seed, horizon_ms}: seed is the base
 *                seed (trial 0's); above 2^63-1 it is a decimal string
 *   first        index of the first trial (0 unless sharded)
 *   n            trials in this document
 *   trials       one object per trial, in index order:
 *                  index, seed (trials_seed(base, index); a string above
 *                  2^63-1: `run --seed` with it reproduces the trial), stop
 *                  ("quiescent", "horizon", "budget", "loop", "completed"),
 *                  end_ms, events, completed, ttc_ms (null when censored),
 *                  halted, halt_ms, halt_where, halt_reason (null without a
 *                  halt), blast_count (null without a halt), blast_total,
 *                  detection_ms (null when none), exposure_ms (member-ms;
 *                  null without a halt), peak_jobs, peak_adopting, job_wait_ms,
 *                  phases: [{driver, name, opened_ms, done_ms}] (null for a
 *                  phase that never opened / was not done), bound_note (the
 *                  hot objects of a trial stopped by a bound, else null)
 *   statistics   complete, halt: {k, n, p, lo, hi} (Wilson 95 %);
 *                nbound (trials stopped by a bound);
 *                ttc, blast_count, blast_share, detection, exposure,
 *                peak_jobs, peak_adopting, job_wait: distributions
 *                  {n, ncensored, p50, p90, p95, p99, mean, ci95: [lo, hi],
 *                   min, max}; a percentile among censored trials is the
 *                  string ">horizon" and mean/ci95/min/max are null when
 *                  no value is known; quantities in ms are integers
 *                  (rounded), the others reals;
 *                halts: [{where, reason, n}], most frequent first;
 *                phases: [{driver, name, duration: distribution, ncritical}]
 *
 *   variants     only with rep_plan_json_variants(): one object per variant
 *                (or sweep value, named "PARAM=VALUE"), in order: {name,
 *                description (null when none), statistics (as above, over
 *                the same trial seeds as the base's)}
 *
 * The thread count is not in the document: the same trials give the same
 * bytes whatever -j was.
 */

#include <stdio.h>

#include "reports/plan_text.h"
#include "reports/variants_text.h"

/*
 * rep_plan_json() - writes @p as the document above to @f.
 * Returns: 0, or -1 when a write failed (errno set).
 */
int rep_plan_json(FILE *f, const struct rep_plan *p);

/*
 * rep_plan_json_variants() - the same document with the `variants` array:
 * @p is the base run (its trials and statistics), @v the @nv variants
 * (borrowed; v[i].st their statistics).  @v NULL: no `variants` key.
 * Returns: 0, or -1 when a write failed (errno set).
 */
int rep_plan_json_variants(FILE *f, const struct rep_plan *p, const struct rep_variant *v,
			   size_t nv);

#endif
