#ifndef MAGOS_SIM_OUTCOME_H
#define MAGOS_SIM_OUTCOME_H

/*
 * The outcome of one run, read off its timeline with the definitions of
 * DESIGN §6 (they are part of the product, so they live in one place):
 *
 *  - the change starts at simulated time 0 (scenario start);
 *  - a run with Rollouts or FleetRollouts ("drivers"; one deleted before it
 *    completed no longer counts) completes when every driver has reached its
 *    completed state at least once: a Rollout phase
 *    `Applied` with reason `RolloutCompleted`, a FleetRollout phase
 *    `Completed`; time-to-complete is the latest of those first times;
 *  - a run without drivers but with Workspaces (Projects granting in
 *    `DefaultParallel`) completes at the first instant every Workspace that
 *    exists is `Applied`;
 *  - a driver already in its completed state when the run starts (a
 *    snapshot of a finished rollout) is "already complete": it counts as
 *    completed but adds no time, and a run whose drivers were all already
 *    complete has no time-to-complete (-1, already_complete set), so the
 *    statistics leave it out instead of counting 0 s;
 *  - a Rollout without steps (upstream reports it Ready/NoSteps, idle,
 *    never Applied, and treats it as a valid no-op) has nothing to
 *    complete: it does not hold the run's completion back and adds no time;
 *    drivers_idle counts them, so that a report can say why, and a run whose
 *    drivers are all idle or already complete (at least one idle) completes
 *    with no time-to-complete (-1, nothing_to_complete set);
 *  - anything else never completes;
 *  - a run that did not complete is censored: its time-to-complete is only
 *    known to be beyond the end of the run ("> horizon"), never dropped;
 *  - halted: a Rollout entered phase `Failed` — `StepFailed` (its halt on
 *    the first failure), `NoWorkspacesFound` (it refuses to skip a step) or
 *    `ReconcileError` (an invalid selector): in each it grants nothing more —
 *    or a FleetRollout entered phase `Halted`; the first such entry is the
 *    halt reported; one loaded in that phase (a snapshot of a halted
 *    rollout) halted before the start (halt_before_start, halt_ms 0: the
 *    run dates it where the snapshot says when, sim/run/run.c).
 *
 * No I/O; works for any timeline, with or without engine controllers.
 */

#include <stdbool.h>
#include <stdint.h>

#include "sim/core/timeline.h"

struct oc_summary {
	bool completed;
	bool censored;               /* == !completed */
	int64_t time_to_complete_ms; /* ms, or -1 when not completed */
	bool halted;
	int64_t halt_ms;             /* ms of the first halt, -1 when none */
	/* the first halt's driver was loaded halted (halt_ms 0), or the snapshot dates a
	 * halt before the start, a FleetRollout's or a Rollout's (halt_ms <= 0, sim/run/run.c) */
	bool halt_before_start;
	/* The first halt's object and Ready reason/message; borrowed from the timeline, NULL when none. */
	const char *halt_kind, *halt_ns, *halt_name, *halt_reason, *halt_message;
	/*
	 * A FleetRollout's gate halt: the metric as the gate read it, in full
	 * (the Halted message prints it with Go's %.4g), and the threshold
	 * bounds as written (NULL when absent).  Not set by oc_summarize(): the
	 * run fills it from the controller's gate log (sim/run); the strings
	 * are borrowed from that log.
	 */
	bool has_halt_value;
	double halt_value;
	/*
	 * halt_value is what the halt's message says, rounded to 4 significant
	 * digits, with no threshold: a halt before the start that a snapshot
	 * carried, whose reading is in the pass log of the run that halted.
	 */
	bool halt_value_rounded;
	const char *halt_min, *halt_max;
	unsigned drivers;            /* Rollouts and FleetRollouts seen */
	unsigned drivers_completed;  /* of which reached their completed state */
	unsigned drivers_already;    /* of those, already complete when the run started */
	/*
	 * Rollouts without steps that never completed: their last status is
	 * Ready/NoSteps, which upstream writes instead of orchestrating (idle,
	 * never Applied/RolloutCompleted), so they have no completion to wait
	 * for; they count in drivers and not in drivers_completed, and count
	 * as done for `completed`.
	 */
	unsigned drivers_idle;
	bool already_complete;       /* completed, every driver already complete at the start */
	/* completed, every driver idle (no steps) or already complete, at least one idle: no time */
	bool nothing_to_complete;
};

/*
 * oc_summarize() - computes the outcome of the run recorded in @tl.
 * @out: filled in; its strings are borrowed from @tl (valid until tl_free).
 * Cost: O(entries + objects log objects).  Cannot fail (aborts on OOM).
 */
void oc_summarize(const struct tl *tl, struct oc_summary *out);

#endif
