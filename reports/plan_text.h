#ifndef MAGOS_REPORTS_PLAN_TEXT_H
#define MAGOS_REPORTS_PLAN_TEXT_H

/*
 * Renderers of a set of Monte Carlo trials (sim/plan/trials.h, sim/plan/stats.h):
 * terminal tables and per-trial CSV rows.  They write to a stream the caller
 * owns (the caller makes files atomic and checks the final flush) and never
 * change what they read.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/plan/stats.h"
#include "sim/plan/trials.h"

/* What a report of trials covers; everything borrowed. */
struct rep_plan {
	const char *name;          /* scenario name */
	const char *const *files;  /* inputs read, in order */
	size_t nfiles;
	uint64_t seed;             /* base seed: trial 0's, trials_seed() for the others */
	int64_t horizon_ms;        /* ms */
	uint32_t first;            /* index of the first trial */
	const struct trial_row *rows; /* n rows in index order, for the JSON's trials array; NULL
				       * will do for rep_plan_text(), which reads @st alone */
	size_t n;
	const struct plan_stats *st; /* the statistics of the rows */
	/* Whence the clock when not spec.start (scn_clock_said()), else NULL: said
	 * under the first line. */
	const char *clock_said;
	/* start_unix_ms is an instant the user gave (spec.start written, --now, or a
	 * snapshot's latest timestamp: scenario.clock not SCN_CLOCK_DEFAULT), not the
	 * default start: then the time to complete is also given as UTC wall-clock
	 * times from it. */
	bool start_given;
	int64_t start_unix_ms;     /* wall-clock time of simulated time 0, Unix ms */
	/* A run resumed from a simulator snapshot: the original run's ms at this
	 * run's 0 (scenario.resumed_ms), else 0.  horizon_ms and the times count
	 * from this run's 0; the text says the horizon and the time to complete
	 * on the original clock too. */
	int64_t resumed_ms;
};

/* Options of the terminal tables. */
struct rep_plan_text_opts {
	bool color;     /* ANSI bold headings and highlights (callers pass true only for a TTY) */
	unsigned width; /* columns, >= 60 (the tables need 80 at most; wider changes nothing) */
	bool quiet;     /* only the outcome lines and the time-to-complete distribution */
};

/*
 * rep_plan_text() - writes the statistics of @p as terminal tables to @f:
 * completion and halt probability with Wilson intervals, trials stopped by a
 * bound (each named with its seed and hot objects, the first 10), the
 * time-to-complete distribution ("> 1h" for percentiles among censored
 * trials), where halts happen, blast radius count and share, detection
 * latency, exposure, capacity (peak Jobs, queueing, peak adopting members)
 * and per step/wave durations with the critical path.  Every line fits 80
 * columns.  Sections with nothing to say (no halt, no Job) are left out.
 * Returns: 0, or -1 when a write to @f failed (errno set).
 */
int rep_plan_text(FILE *f, const struct rep_plan *p, const struct rep_plan_text_opts *o);

/*
 * rep_plan_csv() - writes @n rows as CSV (RFC 4180: CRLF line ends, fields
 * with a comma, quote, CR or LF quoted, quotes doubled) with a header line:
 * index, seed, stop, end_ms, events, completed, ttc_ms, halted, halt_ms,
 * halt_where, halt_reason, blast_count, blast_total, detection_ms,
 * exposure_ms, peak_jobs, peak_adopting, job_wait_ms, bound_note.  Booleans
 * are 0/1; an absent time (-1 in the row) is an empty field, and so are
 * blast_count and exposure_ms of a trial that did not halt (they are
 * measured at a halt; null in run/v1 and the trials JSON).
 * Returns: 0, or -1 when a write failed (errno set).
 */
int rep_plan_csv(FILE *f, const struct trial_row *rows, size_t n);

/* One set of trials for rep_variants_csv(): its name and @n rows (all borrowed). */
struct rep_csv_set {
	const char *name; /* "base", or the variant's name */
	const struct trial_row *rows;
	size_t n;
};

/*
 * rep_variants_csv() - the trials of the base and of every variant as one
 * CSV: the columns of rep_plan_csv(), then "variant", the name of the set
 * a row belongs to; the rows of @sets[0] (the base) in index order, then
 * those of each of the other @n - 1 sets in order.  A row's index and seed
 * are its trial's, the same in every set (common random numbers).
 * Returns: 0, or -1 when a write failed (errno set).
 */
int rep_variants_csv(FILE *f, const struct rep_csv_set *sets, size_t n);

/*
 * rep_plan_duration() - @ms as a short duration for tables: "0s", "850ms", "12.3s",
 * "30m06s", "8h", "8h02m", "76h" (no day unit, as Go durations have none:
 * whole hours past a day).  Writes at most @len bytes with the NUL;
 * 16 is always enough.  Negative values get a leading '-'.
 */
void rep_plan_duration(int64_t ms, char *buf, size_t len);

#endif
