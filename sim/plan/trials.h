#ifndef MAGOS_PLAN_TRIALS_H
#define MAGOS_PLAN_TRIALS_H

/*
 * Monte Carlo trials of one scenario: N independent runs, each with its own
 * world and random streams derived from (seed, trial index, source id), run
 * on J threads.  Each trial is reduced to a trial_row as soon as it ends (the
 * world is freed), so only rows could grow with N, and trials_each() hands
 * them over one by one.  Rows come back in trial index order: the result is
 * the same whatever J is.
 *
 * Trial 0 uses the scenario's seed unchanged, so `run -n 1` reproduces `run`.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/world/des.h"
#include "sim/run/run.h"
#include "sim/load/scenario.h"

/* One step (Magos) or wave (FleetRollout) of one trial. */
struct trial_phase {
	char *driver;      /* owned: "Rollout ns/name" or "FleetRollout ns/name" */
	char *name;        /* owned: step index as "step 2" / label, or wave name */
	int64_t opened_ms; /* ms, -1 when it never opened */
	int64_t done_ms;   /* ms it completed (step done / wave passed), -1 when not */
};

/* A notice a trial's run ended with (info, warning or error), once per kind. */
struct trial_notice {
	char *text;              /* owned: the first of its kind in the run, as the run said it */
	enum tl_severity severity;
};

/* The summary of one trial: everything the statistics need, nothing more. */
struct trial_row {
	uint32_t index;          /* 0..n-1 over the whole trial set (shards included) */
	uint64_t seed;           /* the trial's seed (trials_seed()) */
	enum des_stop stop;      /* why its clock stopped */
	int64_t end_ms;          /* ms the run ended */
	uint64_t events;         /* events run */
	bool completed;
	int64_t ttc_ms;          /* time to complete, ms; -1 when censored, or when completed
				  * with no time (the two flags below) */
	/* completed with no time: every driver was complete when the run started (a
	 * snapshot of a finished rollout; oc_summary.already_complete) */
	bool already_complete;
	/* completed with no time: every driver idle (no steps) or already complete, at
	 * least one idle (oc_summary.nothing_to_complete) */
	bool nothing_to_complete;
	bool halted;
	int64_t halt_ms;         /* first halt, ms; -1 when none; 0 for one before the start */
	/* the first halt is before the start of a run resumed from a snapshot (the
	 * snapshot dates it; oc_summary.halt_before_start): halt_ms is 0 */
	bool halt_before_start;
	char *halt_where;        /* owned: the step/wave that halted ("wave canary"), NULL when none */
	char *halt_reason;       /* owned: the Ready/phase reason of the halt ("StepFailed"; for a
				  * FleetRollout "Halted (gate)" or "Halted (regression)"), NULL when none */
	size_t blast_count;      /* targets (Workspaces / members) that took the bad change */
	size_t blast_total;      /* targets in scope; blast share = count / total.  Without a
				  * halt: every Workspace existing at the end plus every
				  * StageSet member seen (count 0) */
	int64_t detection_ms;    /* fault onset to halt, ms; -1 when not applicable.  Fleet:
				  * sim/observe/fleetobs.h's detection latency.  Rollout: from the first
				  * Workspace of its Project entering Failed/ValidationFailed */
	int64_t exposure_ms;     /* target-ms on the bad version before the halt (FleetRollout
				  * only): sim/observe/fleetobs.h's exposure, each blast member from its
				  * adoption to the first halt; 0 when none */
	unsigned peak_jobs;      /* most plan/apply Jobs running at once */
	unsigned peak_adopting;  /* most StageSet adoption attempts in flight at once (each holds
				  * [start, outcome written), sim/wire/stageset_rc.h struct ssrc_attempt) */
	int64_t job_wait_ms;     /* total queueing delay of Jobs for a runner, ms */
	struct trial_phase *phases; /* owned, in driver then step/wave order: Rollouts in
				     * (ns, name) order, then FleetRollouts in name order; names
				     * "step <name>" ("step <n>", 1-based, when unnamed) and
				     * "wave <name>", as halt_where */
	size_t nphases;
	struct trial_notice *notices; /* owned: the run's notices (every severity), one of each
				       * kind (trials_notice_key()), in the order first told */
	size_t nnotices;
	char *bound_note;        /* owned: for DES_LOOP/DES_BUDGET, which objects (hot keys): "hot objects:
				  * Kind ns/name xN, ..." or, naming none, the bound ("event budget of 2
				  * events exhausted at 0s"); else NULL */
};

/*
 * trials_seed() - the seed of trial @index for base seed @base: @base itself
 * for index 0, otherwise a SplitMix64-style mix of both (no two indices of
 * one base collide in practice, and nearby bases give unrelated seeds).
 */
uint64_t trials_seed(uint64_t base, uint32_t index);

/*
 * trial_row_from_run() - reduces the finished run @r of trial @index to
 * @row (filled in; release with trial_row_release()).
 */
void trial_row_from_run(const struct run_result *r, uint32_t index, struct trial_row *row);

/*
 * trials_notice_key() - the kind of a notice: its @text with every run of
 * digits replaced by one '#', so the same hazard with another trial's times
 * and counts is the same kind.  Returns a new string (free()).
 */
char *trials_notice_key(const char *text);

/* trial_row_release() - frees what @row owns; accepts NULL. */
void trial_row_release(struct trial_row *row);

struct trials_opts {
	uint32_t first;          /* index of the first trial (shards), usually 0 */
	uint32_t n;              /* trials to run, >= 1 */
	unsigned jobs;           /* threads, >= 1 */
	struct run_opts run;     /* overrides (seed = base seed; horizon; until).  Trial i runs
				  * with seed trials_seed(base, first + i), so `run --seed S`
				  * reproduces any trial.  Probes run on the worker threads,
				  * concurrently: the callback must be thread-safe */
	/* Called from the calling thread after each finished trial, in any order
	 * of completion; NULL for none.  @done counts finished trials. */
	void (*progress)(void *ctx, uint32_t done, uint32_t n);
	void *progress_ctx;
	/* Events all the trials may run together (`--limit total-events`); 0: no
	 * bound.  Counted in index order, so the trial that passes it is the same
	 * at every -j; that trial and the later ones are not handed over. */
	uint64_t max_events;
	/* Filled in when the trials stopped at max_events (return 1); may be NULL. */
	struct trials_over *over;
};

/* Where the trials stopped at trials_opts.max_events. */
struct trials_over {
	uint32_t index;  /* the trial that took the count past the bound (with opts.first) */
	uint64_t events; /* the events of the trials up to and with it */
};

/*
 * trials_run() - runs trials first..first+n-1 of @s on @o->jobs threads.
 * @s:     loaded scenario, borrowed and only read (shared by the threads).
 * @rows:  receives a new array of @o->n rows in index order; free each with
 *         trial_row_release() and the array with free().
 * Returns: 0, 1 when the trials stopped at @o->max_events (@o->over
 *          filled in; nothing is returned then either), or -1 when no thread
 *          could be started (errno set; nothing is returned then; when some
 *          but not all started, those finish every trial).
 * Cost:    each trial builds its own world from @s and frees it once its
 *          row is taken; memory is O(J worlds + n rows).
 */
int trials_run(const struct scenario *s, const struct trials_opts *o, struct trial_row **rows);

/*
 * trials_each() - runs trials first..first+n-1 of @s on @o->jobs threads,
 * as trials_run() does, and hands each row to @take on the calling thread,
 * in index order, whatever the order the trials finish in.
 * @take:  receives @row to keep (then release with trial_row_release()) or
 *         release; called n times; @ctx is passed through.  @o->progress is
 *         called after each @take with the rows taken so far.
 * Returns: 0; 1 when the events of the trials, in index order, passed
 *          @o->max_events (@o->over filled in; @take had the rows before the
 *          one that passed it, the later trials were not run or their rows
 *          freed); or -1 when no thread could be started (errno set; @take was
 *          not called then).
 * Cost:    memory is O(J worlds + 16 J rows): a thread starts a trial only
 *          while fewer than 16 J rows wait for @take, so the rows never
 *          pile up whatever n is.
 */
int trials_each(const struct scenario *s, const struct trials_opts *o,
		void (*take)(void *ctx, struct trial_row *row), void *ctx);

#endif
