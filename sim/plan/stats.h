#ifndef MAGOS_PLAN_STATS_H
#define MAGOS_PLAN_STATS_H

/*
 * Statistics over the rows of a set of trials (GSL).  Censored trials (those
 * that did not complete by the horizon) are counted, never dropped: a
 * percentile of time-to-complete that falls among them is reported as
 * censored ("> horizon"), and the completion probability counts them as not
 * completed.  Pure function of the rows: the same rows give the same numbers.
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

/* One step/wave across trials. */
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

/* A kind of notice (trials_notice_key()) and the trials whose run ended with it. */
struct plan_notice_count {
	char *text;                /* owned: as the first trial (lowest index) with it said it */
	enum tl_severity severity;
	size_t n;                  /* trials */
	uint32_t first;            /* index of that trial (run --seed of it shows it) */
};

struct plan_stats {
	size_t ntrials;
	int64_t horizon_ms;              /* ms: what "> horizon" means */
	/* Wilson score 95 % intervals, clamped to 0..1. */
	struct plan_prop complete;       /* completion probability */
	struct plan_prop halt;           /* halt probability */
	struct plan_dist ttc;            /* time to complete, ms (censored counted) */
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
	struct plan_notice_count *notices; /* owned: the warning and error notices by kind, most
					    * trials first, then by text */
	size_t nnotices;
};

/*
 * plan_stats_compute() - the statistics of @n rows (borrowed).
 * @horizon_ms: the horizon the trials ran to, ms.
 * @out: filled in; release with plan_stats_release().
 * Cannot fail (aborts on OOM); n = 0 gives an all-zero result.
 */
void plan_stats_compute(const struct trial_row *rows, size_t n, int64_t horizon_ms,
			struct plan_stats *out);

/* plan_stats_release() - frees what @st owns; accepts NULL. */
void plan_stats_release(struct plan_stats *st);

#endif
