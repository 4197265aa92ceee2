#ifndef MAGOS_PLAN_STATS_H
#define MAGOS_PLAN_STATS_H

/*
 * Statistics over the rows of a set of trials (GSL).  Censored trials (those
 * that did not complete by the horizon) are counted, never dropped: a
 * percentile of time-to-complete that falls among them is reported as
 * censored ("> horizon"), and the completion probability counts them as not
 * completed.  Pure function of the rows in index order: the same rows give
 * the same numbers.
 *
 * The statistics stream (struct plan_acc): a row is added and may be freed
 * at once, so memory does not grow with the trials.  The values a row adds
 * (one a quantity: time to complete, blast radius, ..., one a step or wave)
 * are kept while all of them together number at most an exact budget (by
 * default 16 Mi values, 128 MiB: `--limit exact-values`, sim/base/limits.h):
 * percentiles, mean, interval, min and max are then
 * computed from every value, exactly.  The row that would pass the budget
 * turns every quantity into a sketch (plan_stats.sketched): a log-linear
 * histogram of PLAN_SKETCH_SUB sub-bins an octave (HdrHistogram's layout,
 * G. Tene), each value counted in the bin [L, L + w) that holds it, w =
 * 2^e / PLAN_SKETCH_SUB for L in [2^e, 2^(e+1)).  A bin stands for its
 * midpoint, within w/2 <= L / (2 PLAN_SKETCH_SUB) of every value in it, so
 * each order statistic, and each percentile interpolated between two, is
 * within a relative error of PLAN_SKETCH_REL_ERR (1/256, 0.39 %); for a
 * quantity of whole numbers a bin narrower than 1 holds one number, which it
 * stands for exactly (every value below 256 is exact).  Estimates are
 * clamped to the exact min and max.  Counts, min and max stay exact; the
 * mean and its interval come from running sums in index order (Welford),
 * equal to the exact ones within rounding.  Bins are found from the bits of
 * the double (frexp), not from log(), so every machine gets the same bins.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/plan/trials.h"

/* Which percentiles a plan_dist carries, as indices into plan_dist.p[]. */
enum plan_pct { PLAN_P50, PLAN_P90, PLAN_P95, PLAN_P99, PLAN_NPCT };

/*
 * A distribution of one quantity over trials.  Times are ms, counts are
 * counts, shares are ratios 0..1.  n = 0: no trial had a value (every
 * figure is 0 and meaningless).
 */
struct plan_dist {
	size_t n;                   /* trials with a value (censored ones included for ttc) */
	size_t ncensored;           /* of which censored (value known only to exceed the horizon) */
	double p[PLAN_NPCT];        /* percentiles (type 7, as R's default / numpy linear) */
	bool p_censored[PLAN_NPCT]; /* the percentile falls among censored trials: "> horizon" */
	double mean;                /* over uncensored values */
	double ci95_lo, ci95_hi;    /* 95 % confidence interval of the mean (Student t with
				     * n - ncensored - 1 degrees of freedom; both = mean for
				     * a single value), clamped to the quantity's support:
				     * never below 0 (every quantity here is non-negative)
				     * and never above 1 for a share */
	double min, max;            /* over uncensored values */
};

/* A trial stopped by the loop or budget bound, as the reports name it. */
struct plan_bound_trial {
	uint32_t index;
	uint64_t seed;
	enum des_stop stop; /* DES_LOOP or DES_BUDGET */
	int64_t end_ms;     /* ms */
	char *note;         /* owned: the row's bound_note, NULL when none */
};

/* Bound trials a plan_stats names one by one (the count covers them all). */
#define PLAN_BOUND_KEPT 10


/* A kind of notice (trials_notice_key()) and the trials whose run ended with it. */
struct plan_notice_count {
	char *text;                /* owned: as the first trial (lowest index) with it said it */
	enum tl_severity severity;
	size_t n;                  /* trials */
	uint32_t first;            /* index of that trial (run --seed of it shows it) */
};

/* Kinds of notice a plan_stats counts one by one; notices of further kinds are
 * counted together in nnotice_other (memory stays bounded at any -n). */
#define PLAN_NOTICE_KINDS 256

/* Sub-bins an octave of the sketch, and the relative error that gives. */
#define PLAN_SKETCH_SUB 128
#define PLAN_SKETCH_REL_ERR (1.0 / (2.0 * PLAN_SKETCH_SUB))

/* A probability estimated from k of n trials, with its Wilson 95 % interval. */
struct plan_prop {
	size_t k, n;
	double p, lo, hi; /* ratios 0..1 */
};

/* How often the fleet/rollout halted at one place for one reason. */
struct plan_halt_count {
	char *where;  /* owned: "wave canary", "step 2" */
	char *reason; /* owned */
	size_t n;     /* trials */
};

/*
 * One step/wave across trials; a trial already complete when it started
 * (trial_row.already_complete) adds none: its steps and waves were done
 * before its run.
 */
struct plan_phase_stats {
	char *driver;              /* owned */
	char *name;                /* owned */
	struct plan_dist duration; /* opened → done, ms, over trials where it opened; one that
				    * opened and was never done is censored (its percentiles
				    * "> horizon", kept out of mean/min/max) */
	size_t ncritical;          /* trials in which it was the longest phase (critical path;
				    * a phase never done counts to the end of its run; ties go
				    * to the earlier phase) */
};

struct plan_stats {
	size_t ntrials;
	int64_t horizon_ms;              /* ms: what "> horizon" means */
	/* Wilson score 95 % intervals, clamped to 0..1. */
	struct plan_prop complete;       /* completion probability */
	struct plan_prop halt;           /* halt probability */
	struct plan_dist ttc;            /* time to complete, ms (censored counted; the trials
					  * below have none and are left out) */
	size_t nalready;                 /* trials complete when the run started (no time) */
	size_t nnothing;                 /* trials with nothing to complete (idle Rollouts; no time) */
	size_t nhalt_before;             /* halted trials whose halt is before the start of a
					  * resumed run (trial_row.halt_before_start) */
	/*
	 * Harm and detection.  Blast radius and exposure are measured at the
	 * first halt; a trial without a halt counts 0 in them (nothing was
	 * reached "before the halt"), so their mean is the expected harm per
	 * rollout and equals (mean over halting trials) x (halt.p).
	 * Detection latency has no value without a halt, so it is over the
	 * halting trials with a known fault onset only (n says how many).
	 */
	struct plan_dist blast_count;    /* targets, count (every trial; 0 without a halt) */
	struct plan_dist blast_share;    /* ratio 0..1 (every trial with a scope; 0 without a halt) */
	struct plan_dist detection;      /* ms (halting trials with a known fault onset only) */
	struct plan_dist exposure;       /* member-ms (every trial; 0 without a halt) */
	struct plan_dist peak_jobs;      /* count */
	struct plan_dist peak_adopting;  /* count */
	struct plan_dist job_wait;       /* ms, total per trial */
	struct plan_halt_count *halts;   /* owned, most frequent first, then by where/reason */
	size_t nhalts;
	struct plan_phase_stats *phases; /* owned, in first-seen order */
	size_t nphases;
	size_t nbound;                   /* trials stopped by the loop or budget bound */
	struct plan_bound_trial *bound;  /* owned: the first PLAN_BOUND_KEPT of them, by index */
	size_t nbound_kept;
	struct plan_notice_count *notices; /* owned: the notices by kind (every severity),
					    * errors, warnings, then info; most trials first
					    * within each, then by text */
	size_t nnotices;
	size_t nnotice_other;            /* notices of kinds past the first PLAN_NOTICE_KINDS */
	bool sketched;                   /* percentiles from the sketch: the values passed the
					  * exact budget (relative error PLAN_SKETCH_REL_ERR) */
	size_t exact_values;             /* the exact budget they were computed with (values) */
};

/*
 * plan_stats_compute() - the statistics of @n rows (borrowed), in index
 * order, with an exact budget of @exact_values values (the default of
 * `--limit exact-values` unless a user set it).
 * @horizon_ms: the horizon the trials ran to, ms.
 * @out: filled in; release with plan_stats_release().
 * Cannot fail (aborts on OOM); n = 0 gives an all-zero result.
 */
void plan_stats_compute(const struct trial_row *rows, size_t n, int64_t horizon_ms,
			size_t exact_values, struct plan_stats *out);

/* Statistics being gathered, one row at a time (opaque). */
struct plan_acc;

/*
 * plan_acc_new() - an empty accumulator.
 * @horizon_ms:   the horizon the trials ran to, ms.
 * @exact_values: the exact budget, in values (`--limit exact-values`, by
 *                default lim_default(LIM_EXACT_VALUES)); 0 sketches from
 *                the start.
 * Returns: a new accumulator; free with plan_acc_free().  Aborts on OOM.
 */
struct plan_acc *plan_acc_new(int64_t horizon_ms, size_t exact_values);

/*
 * plan_acc_add() - adds @row (borrowed: nothing of it is kept but copies of
 * the names of its halt and phases and the first bound notes).  Rows must be
 * added in index order for the result to be a function of the rows alone.
 * Cost: O(values of the row) beside the phase lookup; memory grows with the
 * trials only while under the exact budget.
 */
void plan_acc_add(struct plan_acc *a, const struct trial_row *row);

/*
 * plan_acc_finish() - the statistics of the rows added so far into @out
 * (release with plan_stats_release()).  It sorts what @a holds: afterwards
 * @a may only be freed.
 */
void plan_acc_finish(struct plan_acc *a, struct plan_stats *out);

/* plan_acc_free() - frees @a; accepts NULL. */
void plan_acc_free(struct plan_acc *a);

/* plan_stats_release() - frees what @st owns; accepts NULL. */
void plan_stats_release(struct plan_stats *st);

#endif
